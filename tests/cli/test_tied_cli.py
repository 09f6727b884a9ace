"""`probviz fit INPUT --model tied --groups "a,b;c" --json`: covariances shared within groups of classes,
reported like the other generative models and checked against the formulas computed here (Bishop
eqs. 4.73, 4.75 and the pooled covariance of each group, Sigma_g = sum_{k in g} N_k S_k / N_g); a bad
--groups is one line naming the mistake."""

import json
import subprocess
import sys

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from probviz import cli


def _data(tmp_path):
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(c, s, (n, 2)) for c, s, n in
                   (([0, 0], 0.6, 12), ([3, 1], 0.9, 9), ([1, 4], 0.4, 15), ([-2, 3], 1.2, 7))])
    names = ["a", "b", "c", "d"]
    labels = np.repeat(names, [12, 9, 15, 7])
    path = tmp_path / "four.csv"
    path.write_text("x,y,label\n" + "".join(f"{float(x)!r},{float(y)!r},{t}\n" for (x, y), t in zip(X, labels)))
    return path, X, labels, names


def fit_json(capsys, *args):
    assert cli.main(["fit", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_fit_json_against_the_formulas(tmp_path, capsys):
    path, X, labels, names = _data(tmp_path)
    out = fit_json(capsys, str(path), "--model", "tied", "--groups", "d, a ; b")
    assert out["model"] == "tied" and out["classes"] == names and out["parameters"]["groups"] == "d, a ; b"
    N = len(X)
    rows = [labels == n for n in names]
    pi = np.array([r.sum() / N for r in rows])
    mu = np.array([X[r].mean(axis=0) for r in rows])
    scatter = [(X[r] - mu[k]).T @ (X[r] - mu[k]) for k, r in enumerate(rows)]
    groups = [[0, 3], [1], [2]]  # numbered by their first class: {a, d}, {b}, {c}
    pooled = [sum(scatter[k] for k in g) / sum(rows[k].sum() for k in g) for g in groups]
    cov = [pooled[0], pooled[1], pooled[2], pooled[0]]
    assert out["groups"] == [["a", "d"], ["b"], ["c"]]
    np.testing.assert_allclose(out["priors"], pi, rtol=1e-14)
    np.testing.assert_allclose(out["means"], mu, rtol=1e-13)
    np.testing.assert_allclose(out["group_covariances"], pooled, rtol=1e-12)
    np.testing.assert_allclose(out["covariances"], cov, rtol=1e-12)
    assert "covariance" not in out and "coef" not in out  # no single shared matrix, no linear weights
    assert out["n_parameters"] == 3 + 8 + 3 * 3
    joint = sum(np.sum(np.log(pi[k]) + multivariate_normal(mu[k], cov[k]).logpdf(X[r])) for k, r in enumerate(rows))
    assert out["log_likelihood"] == pytest.approx(joint, rel=1e-10)
    assert out["log_likelihood_kind"] == "joint ln p(X, t)" and out["notices"] == []
    # the text form names each group's covariance once
    assert cli.main(["fit", str(path), "--model", "tied", "--groups", "a,d;b"]) == 0
    text = capsys.readouterr().out
    assert "Σ_a,d = " in text and "Σ_b = " in text and "Σ_c = " in text and "Σ_d" not in text


def test_one_group_is_lda_and_none_is_qda(tmp_path, capsys):
    path, *_ = _data(tmp_path)
    lda = fit_json(capsys, str(path), "--model", "lda")
    qda = fit_json(capsys, str(path), "--model", "qda")
    one = fit_json(capsys, str(path), "--model", "tied", "--groups", "a,b,c,d")
    none = fit_json(capsys, str(path), "--model", "tied")
    np.testing.assert_allclose(one["group_covariances"][0], lda["covariance"], rtol=1e-14)
    np.testing.assert_allclose(none["covariances"], qda["covariances"], rtol=1e-14)
    for a, b in ((one, lda), (none, qda)):
        assert a["n_parameters"] == b["n_parameters"]
        assert a["log_likelihood"] == pytest.approx(b["log_likelihood"], rel=1e-13)
        assert a["cross_entropy"] == pytest.approx(b["cross_entropy"], rel=1e-10)


def test_the_example_reproduces_the_figure(capsys):
    """example:tied carries its groups: --model tied alone fits red and green together."""
    out = fit_json(capsys, "example:tied", "--model", "tied")
    assert out["groups"] == [["red", "green"], ["blue"]] and out["parameters"]["groups"] == "red,green"
    assert out["true_error"] >= out["bayes_error"] > 0


@pytest.mark.parametrize("groups,message", [
    ("a,x;y", "probviz: error: {path}: cannot fit: groups name no class 'x', 'y' (the classes are a, b, c, d)"),
    ("a,b;b", "probviz fit: error: argument --groups: groups name 'b' more than once; put each class in one group "
              "(see probviz fit --help)"),
])
def test_bad_groups_are_one_line(tmp_path, capsys, groups, message):
    path, *_ = _data(tmp_path)
    try:
        code = cli.main(["fit", str(path), "--model", "tied", "--groups", groups, "--json"])
    except SystemExit as e:  # argparse's own usage error
        code = e.code
    assert code == 2
    err = capsys.readouterr().err
    assert err == message.format(path=path) + "\n"


def test_groups_for_another_model_and_no_traceback(tmp_path):
    path, *_ = _data(tmp_path)
    r = subprocess.run([sys.executable, "-m", "probviz", "fit", str(path), "--model", "lda", "--groups", "a,b"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr == "probviz: error: --groups does not apply to lda (it takes --reg-covar)\n"
    r = subprocess.run([sys.executable, "-m", "probviz", "fit", str(path), "--model", "tied", "--groups", "a,zz"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1
    assert "groups name no class 'zz'" in r.stderr


def test_a_session_keeps_its_groups_and_refuses_bad_ones(tmp_path, capsys):
    from probviz.data.examples import session
    from probviz.data.session import read_session, write_session

    s = session("tied")
    s.params["tied"] = {"groups": "blue,green", "reg_covar": 0.0}
    s.model = "tied"
    path = tmp_path / "tied.probviz"
    write_session(str(path), s)
    back = read_session(str(path))
    assert back.model == "tied" and back.params["tied"] == {"groups": "blue,green", "reg_covar": 0.0}
    out = fit_json(capsys, str(path))
    assert out["groups"] == [["red"], ["green", "blue"]]
    doc = json.loads(path.read_text())
    for bad, said in ((7, "groups must be text, got 7"),
                      ("red;red", "groups name 'red' more than once; put each class in one group")):
        doc["params"]["tied"]["groups"] = bad
        path.write_text(json.dumps(doc))
        assert cli.main(["fit", str(path)]) == 2
        assert capsys.readouterr().err == f"probviz: error: tied.probviz: not a valid probviz session (tied: {said})\n"


def test_learning_curves_fit_the_groups_by_name(capsys):
    """`probviz curve` gives the truth's samples the document's class names, so the example's groups
    (red,green) fit: tied between LDA and QDA, with the truth's shape, is not worse than either here."""
    assert cli.main(["curve", "example:tied", "--models", "lda,tied,qda", "--sizes", "4,32", "--seeds", "2",
                     "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["models"]
    for name in ("lda", "tied", "qda"):
        assert len(out[name]["mean"]) == 2 and np.all(np.isfinite(out[name]["errors"])), name
    assert out["tied"]["params"] == {"groups": "red,green"}
    assert out["tied"]["mean"][1] <= min(out["lda"]["mean"][1], out["qda"]["mean"][1])
