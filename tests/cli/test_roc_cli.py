"""`probviz fit --loss` and `probviz roc`: the decision's numbers against computations written out here
(a brute-force argmin on the points, the closed forms of a shared-covariance pair, Mann-Whitney)."""

import json

import numpy as np
import pytest
from scipy import stats

from probviz import cli
from probviz.data.examples import load
from probviz.models import create


def run_json(capsys, *args):
    code = cli.main([*args, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def _fruit_pair():
    """The fruit truth's priors, means and shared covariance (two Gaussians: the closed forms apply)."""
    t = load("fruit").truth
    np.testing.assert_allclose(t.covariances_[0], t.covariances_[1])
    return t.priors, t.means_, t.covariances_[0]


def test_fit_with_a_loss_reports_the_decision_on_the_points_and_under_the_truth(capsys):
    L = [[0.0, 1.0], [5.0, 0.0]]
    out = run_json(capsys, "fit", "example:fruit", "--model", "lda", "--loss", "0,1;5,0")
    plain = run_json(capsys, "fit", "example:fruit", "--model", "lda")
    assert out["loss"] == L
    for key in plain:  # every key of the fit without a loss is there, unchanged (the confusion aside)
        if key not in ("confusion", "confusion_true", "brier_true"):
            assert out[key] == plain[key], key
    d = load("fruit")
    lda = create("lda").fit(d.X, d.labels)
    P = lda.predict_proba(d.X)
    # the brute-force argmin_j sum_k L_kj p_k, point by point
    chosen = [min(range(2), key=lambda j: sum(L[k][j] * p[k] for k in range(2))) for p in P]
    C = np.zeros((2, 2), int)
    for t, j in zip(d.labels, chosen):
        C[t, j] += 1
    assert out["confusion"] == C.tolist()
    assert out["expected_loss"] == pytest.approx(np.mean([L[t][j] for t, j in zip(d.labels, chosen)]), rel=1e-12)
    assert plain["confusion"] == [[int(np.sum((d.labels == k) & (lda.predict(d.X) == j))) for j in range(2)]
                                  for k in range(2)]
    # under the truth: rows sum to the priors; 0-1: 1 - trace is the true error
    priors, means, S = _fruit_pair()
    np.testing.assert_allclose(np.sum(out["confusion_true"], axis=1), priors, atol=1e-8)
    assert 1 - np.trace(plain["confusion_true"]) == pytest.approx(plain["true_error"], abs=1e-8)
    assert out["expected_loss_true"] == pytest.approx(float(np.sum(np.multiply(L, out["confusion_true"]))), rel=1e-12)
    # the Bayes risk: choose peach where the log-odds exceeds c = ln(1/5); a ~ N(-+D^2/2 + pi, D^2) per class
    dm = means[1] - means[0]
    Dm = np.sqrt(dm @ np.linalg.solve(S, dm))
    pi, c = np.log(priors[1] / priors[0]), np.log(1 / 5)
    risk = 1 * priors[0] * stats.norm.cdf((-Dm * Dm / 2 + pi - c) / Dm) \
        + 5 * priors[1] * stats.norm.cdf((c - Dm * Dm / 2 - pi) / Dm)
    assert out["bayes_risk"] == pytest.approx(risk, rel=1e-6)
    assert out["bayes_risk"] <= out["expected_loss_true"]
    assert 0 < out["brier_true"] == plain["brier_true"] < 2
    assert "loss" not in plain and "bayes_risk" not in plain and "expected_loss" not in plain


def test_fit_text_has_the_matching_lines(capsys):
    assert cli.main(["fit", "example:fruit", "--loss", "0,1;5,0"]) == 0
    text = capsys.readouterr().out
    for start in ("  loss matrix (rows the truth, columns the choice): apple: 0 1; peach: 5 0",
                  "  expected loss on the training points: ", "  confusion on the training points (rows the truth, "
                  "columns the decision): apple: ", "  confusion under the truth (proportions): apple: 0.",
                  "  expected loss under the truth: ", "  Brier score under the truth: "):
        assert start in text, start


def test_fit_on_points_without_a_truth_has_a_confusion_only(tmp_path, capsys):
    path = tmp_path / "p.csv"
    path.write_text("x,y,label\n0,0,a\n1,0.2,a\n0.1,1,b\n1.2,1.1,b\n0.5,0.4,b\n")
    out = run_json(capsys, "fit", str(path), "--loss", "0,2;1,0")
    assert out["confusion"] and sum(map(sum, out["confusion"])) == 5
    assert not {"confusion_true", "brier_true", "bayes_risk", "expected_loss_true"} & set(out)


@pytest.mark.parametrize("args,message", [
    (["fit", "example:fruit", "--loss", "0,1;5"], "probviz: error: --loss: the loss matrix needs 2 rows of 2 numbers"),
    (["fit", "example:fruit", "--loss", "0,1;-5,0"], "probviz: error: --loss: the loss matrix's numbers must not be "
                                                      "negative"),
    (["fit", "example:iris", "--loss", "0,1;5,0"], "probviz: error: --loss: the loss matrix needs 3 rows of 3 numbers"),
    (["fit", "example:fruit", "--model", "fisher", "--loss", "0,1;5,0"],
     "probviz: error: --loss: Fisher's discriminant gives no p(C_k|x) (Bishop 4.1)"),
    (["fit", "example:fruit", "--model", "logistic", "--optimizer", "gd", "--loss", "0,1;5,0"],
     "probviz: error: --loss and --reject-cost do not combine with --optimizer"),
    (["roc", "example:fruit", "--class", "banana"], "probviz: error: --class: no class 'banana'; the classes are "
                                                     "apple, peach (or 1 to 2)"),
    (["roc", "example:fruit", "--class", "3"], "probviz: error: --class: no class '3'"),
    (["roc", "example:fruit", "--model", "perceptron"], "probviz: error: example:fruit: Perceptron"),
    (["roc", "example:fruit", "-o", "roc.txt"], "probviz: error: roc.txt: unknown figure type .txt"),
])
def test_bad_requests_get_one_line(args, message, capsys):
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(message), err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_roc_on_the_fruit(capsys):
    out = run_json(capsys, "roc", "example:fruit", "--model", "lda")
    assert out["class"] == "peach" and set(out) >= {"points", "truth", "bayes"}
    d = load("fruit")
    p = create("lda").fit(d.X, d.labels).predict_proba(d.X)[:, 1]
    U = stats.mannwhitneyu(p[d.labels == 1], p[d.labels == 0]).statistic
    assert out["points"]["auc"] == pytest.approx(U / (np.sum(d.labels == 1) * np.sum(d.labels == 0)), abs=1e-12)
    priors, means, S = _fruit_pair()
    dm = means[1] - means[0]
    assert out["bayes"]["auc"] == pytest.approx(stats.norm.cdf(np.sqrt(dm @ np.linalg.solve(S, dm)) / np.sqrt(2)),
                                                abs=1e-4)
    assert out["truth"]["auc"] <= out["bayes"]["auc"] + 1e-6
    for key in ("points", "truth", "bayes"):
        r = out[key]
        assert r["fpr"][0] == r["tpr"][0] == 0 and r["fpr"][-1] == r["tpr"][-1] == 1
    first = run_json(capsys, "roc", "example:fruit", "--class", "apple")
    assert first["class"] == "apple"
    # apple against peach is the mirror image: its AUC on the points is the same
    assert first["points"]["auc"] == pytest.approx(out["points"]["auc"], abs=1e-12)


def test_roc_without_a_truth_and_its_text(tmp_path, capsys):
    path = tmp_path / "p.csv"
    path.write_text("x,y,label\n0,0,a\n1,0.2,a\n0.1,1,b\n1.2,1.1,b\n0.5,0.4,b\n0.3,0.9,c\n")
    out = run_json(capsys, "roc", str(path), "--class", "b")
    assert out["class"] == "b" and "truth" not in out and "bayes" not in out and out["points"]["n"] == 6
    assert cli.main(["roc", "example:fruit"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith("ROC of LDA (shared covariance) on fruit, peach against the rest")
    assert text[1].startswith("  on the 250 training points: AUC 0.9")
    assert text[2].startswith("  under the truth: AUC 0.9") and text[3].startswith("  Bayes-optimal")


def test_roc_draws_its_figure(tmp_path, capsys):
    out = tmp_path / "roc.png"
    assert cli.main(["roc", "example:fruit", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {out}" in capsys.readouterr().out


def test_fit_with_a_reject_cost_counts_the_rejected_points_and_their_cost(capsys):
    """--reject-cost 0.2 with the 0-1 loss: no decision where max_k p(C_k|x) < 0.8 (Bishop 1.5.3, exercise 1.24);
    a rejected point costs 0.2 and a mistake 1; under the truth the rejected mass against Monte Carlo."""
    out = run_json(capsys, "fit", "example:fruit", "--model", "lda", "--reject-cost", "0.2")
    d = load("fruit")
    lda = create("lda").fit(d.X, d.labels)
    P = lda.predict_proba(d.X)
    rejected = P.max(axis=1) < 0.8
    decided = np.argmax(P, axis=1)
    assert out["reject_cost"] == 0.2
    assert out["confusion_undecided"] == [int(np.sum(rejected & (d.labels == k))) for k in (0, 1)]
    assert out["confusion"] == [[int(np.sum(~rejected & (d.labels == k) & (decided == j))) for j in (0, 1)]
                                for k in (0, 1)]
    wrong = ~rejected & (decided != d.labels)
    assert out["expected_loss"] == pytest.approx((wrong.sum() + 0.2 * rejected.sum()) / len(d.X), abs=1e-12)
    Xs, ts = d.truth.sample(400_000, seed=9)
    Ps = lda.predict_proba(Xs)
    out_mass = np.array(out["confusion_true_undecided"])
    mc = np.array([np.mean((Ps.max(axis=1) < 0.8) & (ts == k)) for k in (0, 1)])
    np.testing.assert_allclose(out_mass, mc, atol=4 * np.sqrt(0.07 / len(ts)))
    mc_loss = np.mean(np.where(Ps.max(axis=1) < 0.8, 0.2, (np.argmax(Ps, axis=1) != ts).astype(float)))
    assert out["expected_loss_true"] == pytest.approx(mc_loss, abs=4 * np.sqrt(0.06 / len(ts)))
    assert out["bayes_risk"] <= out["expected_loss_true"] + 1e-9


def test_a_negative_reject_cost_is_refused_in_one_line(capsys):
    code = cli.main(["fit", "example:fruit", "--reject-cost", "-1"])
    err = capsys.readouterr().err
    assert code == 2 and "--reject-cost must be a number from 0 up" in err and "Traceback" not in err
