"""`probviz sample`, `curve`, `fit`'s error rates, `export --compare/--section`: the exact forms."""

import json
import subprocess
import sys

import numpy as np
from PySide6.QtGui import QImage
from scipy import stats

from probviz.data.csvio import read_csv


def run(*args, timeout=180):
    return subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, text=True, timeout=timeout)


def test_sample_draws_from_the_truth_reproducibly(tmp_path):
    out = tmp_path / "s.csv"
    r = run("sample", "example:fruit", "-n", "4000", "--seed", "7", "-o", str(out))
    assert r.returncode == 0, r.stderr
    d = read_csv(str(out))
    assert len(d.X) == 4000 and d.class_names == ["apple", "peach"] and d.axis_names == ("roughness", "colour")
    apples = d.X[d.labels == 0]
    assert stats.binomtest(len(apples), 4000, 0.7).pvalue > 1e-3
    assert np.all(np.abs(apples.mean(axis=0) - [1.0, 1.0]) < 4 * np.sqrt(np.array([0.2, 0.3]) / len(apples)))
    again = run("sample", "example:fruit", "-n", "4000", "--seed", "7", "-o", "-")
    assert again.stdout == out.read_text()
    assert run("sample", "example:fruit", "-n", "5", "--seed", "8", "-o", "-").stdout != \
        run("sample", "example:fruit", "-n", "5", "--seed", "7", "-o", "-").stdout


def test_sample_from_the_fitted_model_and_what_cannot_be_sampled():
    r = run("sample", "example:circles", "--fitted", "--model", "qda", "-n", "3", "-o", "-")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 4
    for args, message in ((("example:circles", "-n", "3", "-o", "-"), "has no truth"),
                          (("example:xor", "--fitted", "--model", "softmax", "-n", "3", "-o", "-"), "cannot generate"),
                          (("example:fruit", "-n", "-1", "-o", "-"), "out of range")):
        r = run("sample", *args)
        assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_fit_json_gives_the_bayes_error_and_the_true_error():
    out = json.loads(run("fit", "example:fruit", "--model", "lda", "--json").stdout)
    S = np.array([[0.2, 0.1], [0.1, 0.3]])
    d = np.array([0.7, 1.5])
    D = np.sqrt(d @ np.linalg.solve(S, d))
    c = np.log(0.7 / 0.3)
    bayes = 0.7 * stats.norm.cdf((-D * D / 2 - c) / D) + 0.3 * stats.norm.cdf((-D * D / 2 + c) / D)
    assert abs(out["bayes_error"] - bayes) < 5e-4 * bayes  # three significant digits, and better
    assert bayes < out["true_error"] < bayes + 0.01
    plain = json.loads(run("fit", "example:circles", "--json").stdout)
    assert "bayes_error" not in plain and "true_error" not in plain


def test_curve_json_and_figure(tmp_path):
    fig = tmp_path / "c.png"
    r = run("curve", "example:fruit", "--models", "lda,logistic", "--sizes", "4,16", "--seeds", "3", "--json",
            "-o", str(fig))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["sizes"] == [4, 16] and out["seeds"] == 3 and set(out["models"]) == {"lda", "logistic"}
    for m in out["models"].values():
        E = np.array(m["errors"])
        assert E.shape == (2, 3) and np.all(E >= out["bayes_error"] - 1e-12)
        np.testing.assert_allclose(m["mean"], E.mean(axis=1))
    assert QImage(str(fig)).width() == 1200
    r = run("curve", "example:fruit", "--sizes", "4,x")
    assert r.returncode == 2 and "--sizes" in r.stderr


def test_export_compares_with_the_inputs_own_model_when_model_picks_another(tmp_path):
    """fruit's own model is LDA: `--model qda --compare lda` draws QDA with LDA's boundary dashed (it used to
    drop LDA without a word, as if it were the model shown); `--model lda --compare lda` says why not."""
    out = tmp_path / "c.svg"
    r = run("export", "example:fruit", "--model", "qda", "--compare", "lda", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "qda; LDA (shared covariance) dashed" in r.stdout, r.stdout
    assert "stroke-dasharray" in out.read_text()  # the compared boundary, dashed
    r = run("export", "example:fruit", "--model", "lda", "--compare", "lda", "-o", str(out))
    assert r.returncode == 2 and "--compare lda is the model shown" in r.stderr, r.stderr


def test_export_compare_and_section(tmp_path):
    out, sec = tmp_path / "a.png", tmp_path / "b.svg"
    r = run("export", "example:fruit", "--compare", "logistic", "--section", "0,0,2.5,3.5", "--section-out",
            str(sec), "-o", str(out), "--layers", "heatmap,boundaries,truth,points")
    assert r.returncode == 0, r.stderr
    assert "Logistic regression dashed" in r.stdout and "cross-section" in r.stdout
    assert "<path" in sec.read_text() and "outside the figure's view" not in r.stdout
    far = run("export", "example:fruit", "--section", "100,100,110,105", "--section-out", str(sec), "-o", str(out))
    assert far.returncode == 0 and "the section line lies outside the figure's view" in far.stdout, far.stderr
    assert "<path" in sec.read_text()  # the plot along the line is drawn whole all the same
    for args, message in ((("--section", "1,2,3"), "four numbers"), (("--section", "1,1,1,1"), "two different"),
                          (("--section-out", str(sec)), "needs --section"), (("--compare", "svm"), "unknown model")):
        r = run("export", "example:fruit", "-o", str(out), *args)
        assert r.returncode == 2 and message in r.stderr, r.stderr
