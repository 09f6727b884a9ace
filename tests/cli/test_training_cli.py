"""`probviz fit/export --optimizer`: the exact forms other tools rely on, replayed from the JSON alone."""

import json
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtGui import QImage
from scipy.special import expit

from probviz.data.examples import load


def run(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, text=True, timeout=timeout)


def _logistic_replay(X, y, center, scale, eta, steps, l2, optimizer):
    """gd: w <- w - eta grad E; sgd: point n = step mod N with 1/N of the penalty; from w = 0."""
    Phi = np.column_stack([np.ones(len(X)), (X - center) / scale])
    t = (y == 1).astype(float)
    w, curve = np.zeros(3), []
    for s in range(steps):
        rows = slice(None) if optimizer == "gd" else slice(s % len(X), s % len(X) + 1)
        g = Phi[rows].T @ (expit(Phi[rows] @ w) - t[rows])
        g[1:] += l2 * w[1:] / (1 if optimizer == "gd" else len(X))
        w = w - eta * g
        a = Phi @ w
        curve.append(np.sum(np.logaddexp(0, a) - t * a) + 0.5 * l2 * w[1:] @ w[1:])
    return w, curve


@pytest.mark.parametrize("optimizer", ["gd", "sgd"])
def test_fit_json_replays_from_its_own_numbers(optimizer):
    r = run("fit", "example:fruit", "--model", "logistic", "--optimizer", optimizer, "--eta", "0.03",
            "--steps", "9", "--l2", "0.2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    d = load("fruit")
    w, curve = _logistic_replay(d.X, d.labels, np.array(out["center"]), np.array(out["scale"]), 0.03, 9, 0.2,
                                optimizer)
    np.testing.assert_allclose(out["weights"][0], w, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out["error_curve"], curve, rtol=1e-12)
    assert len(out["error_curve"]) == 9 and out["steps"] == 9 and out["optimizer"] == optimizer
    np.testing.assert_allclose(out["center"], d.X.mean(axis=0), rtol=1e-14)
    np.testing.assert_allclose(out["scale"], d.X.std(axis=0), rtol=1e-14)
    # the weights in the units of x are the same function
    a_raw = d.X @ np.array(out["coef"][0]) + out["intercept"][0]
    a_z = np.column_stack([np.ones(len(d.X)), (d.X - out["center"]) / np.array(out["scale"])]) @ w
    np.testing.assert_allclose(a_raw, a_z, atol=1e-10)
    assert out["optimum_error"] < curve[-1]


def test_newton_json_reaches_the_direct_fit():
    r = run("fit", "example:fruit", "--model", "softmax", "--optimizer", "newton", "--steps", "12", "--json")
    out = json.loads(r.stdout)
    direct = json.loads(run("fit", "example:fruit", "--model", "softmax", "--json").stdout)
    A = np.array(out["coef"]) - np.array(out["coef"]).mean(axis=0)
    B = np.array(direct["coef"]) - np.array(direct["coef"]).mean(axis=0)
    np.testing.assert_allclose(A, B, atol=1e-8)
    assert out["eta"] is None and abs(out["error_curve"][-1] - out["optimum_error"]) < 1e-9


def test_perceptron_least_squares_and_fisher_from_the_command_line():
    r = run("fit", "example:xor", "--model", "perceptron", "--optimizer", "sgd", "--steps", "500", "--json")
    out = json.loads(r.stdout)
    assert out["optimum_error"] is None and "never settles" in out["notices"][0]
    assert min(out["misclassified_curve"]) > 0
    r = run("fit", "example:three-in-a-line", "--model", "leastsquares", "--json")
    out = json.loads(r.stdout)
    assert out["parameters"] == {"scheme": "k-class"} and any("masked" in n for n in out["notices"])
    r = run("fit", "example:fruit", "--model", "fisher")
    assert r.returncode == 0 and "Fisher direction" in r.stdout and "No probabilities" in r.stdout


@pytest.mark.parametrize("args,message", [
    (("--model", "lda", "--optimizer", "gd"), "lda is not trained step by step"),
    (("--model", "perceptron", "--optimizer", "newton"), "the perceptron has no Newton step"),
    (("--model", "logistic", "--steps", "5"), "--eta, --steps and --curve need --optimizer"),
    (("--model", "logistic", "--optimizer", "newton", "--eta", "0.1"), "--eta does not apply to newton"),
    (("--model", "logistic", "--optimizer", "gd", "--eta", "0"), "0 is not a positive number"),
    (("--model", "logistic", "--optimizer", "gd", "--eta", "1e9", "--steps", "400"), "too large"),
])
def test_training_errors_are_one_line(args, message):
    r = run("fit", "example:fruit", *args)
    assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_export_draws_the_step_and_its_curve(tmp_path):
    out, curve = tmp_path / "s.png", tmp_path / "c.png"
    r = run("export", "example:fruit", "--model", "logistic", "--optimizer", "gd", "--eta", "0.01", "--steps", "3",
            "-o", str(out), "--curve", str(curve), "--width", "400", "--height", "300")
    assert r.returncode == 0, r.stderr
    assert "step 3" in r.stdout and QImage(str(out)).width() == 400 and QImage(str(curve)).height() == 300
    r = run("export", "example:fruit", "--model", "logistic", "--optimizer", "gd", "-o", str(out), "--curve",
            str(tmp_path / "c.txt"))
    assert r.returncode == 2 and "unknown figure type .txt" in r.stderr


def test_export_of_an_sgd_step_rings_the_point_it_used(tmp_path):
    """``export --optimizer sgd --steps 3`` rings the third point of the file (SGD takes one point per step, in
    file order), as the window does: the command line drew the step's boundary without the ring. Read from the
    PNG: the ink nearly all the way round the point at the ring's radius, none between it and the marker."""
    from probviz.data.examples import session
    from probviz.figure_layout import layout
    from probviz.style import SGD_RING, Style

    out = tmp_path / "s.png"
    W, H = 800, 600
    r = run("export", "example:fruit", "--model", "logistic", "--optimizer", "sgd", "--steps", "3", "--no-legend",
            "-o", str(out), "--width", str(W), "--height", str(H))
    assert r.returncode == 0, r.stderr
    fruit = session("fruit")
    style = Style()
    (cx, cy), = layout(W, H, fruit.view, style.font_px, False).to_px(fruit.dataset.X[2:3])
    image = QImage(str(out))
    radius = SGD_RING * style.point_size / 2
    turn = np.linspace(0, 2 * np.pi, 48, endpoint=False)

    def inked(rho):
        return np.mean([max(image.pixelColor(round(cx + rho * np.cos(a)), round(cy + rho * np.sin(a))).getRgb()[:3])
                        < 90 for a in turn])

    assert inked(radius) > 0.9, inked(radius)
    assert inked((style.point_size / 2 + radius) / 2 - 1) < 0.2


def test_an_sgd_steps_legend_names_the_ring_and_keeps_off_it(tmp_path):
    """With its legend, at 850 x 611, the figure put the legend in the top left corner, over the ring's top third
    (the corner hid the fewest points). The legend now keeps off the ring, and has a row for it. Read from the
    PDF (pypdfium2): the row's text, and the ring inked all the way round."""
    import pypdfium2 as pdfium

    from probviz.data.examples import session
    from probviz.figure_layout import layout
    from probviz.style import SGD_RING, Style

    out = tmp_path / "s.pdf"
    W, H = 850, 611
    r = run("export", "example:fruit", "--model", "logistic", "--optimizer", "sgd", "--steps", "3",
            "-o", str(out), "--width", str(W), "--height", str(H))
    assert r.returncode == 0, r.stderr
    page = pdfium.PdfDocument(str(out))[0]
    assert "the point this SGD step used" in page.get_textpage().get_text_range()
    w_pt, _ = page.get_size()
    rgb = page.render(scale=W / w_pt).to_numpy()[:H, :W, :3].astype(int)
    fruit = session("fruit")
    style = Style()
    (cx, cy), = layout(W, H, fruit.view, style.font_px, False).to_px(fruit.dataset.X[2:3])
    radius = SGD_RING * style.point_size / 2
    turn = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    inked = np.mean([rgb[round(cy + radius * np.sin(a)), round(cx + radius * np.cos(a))].max() < 90 for a in turn])
    assert inked > 0.9, inked


def test_the_curve_of_three_steps_has_no_half_steps(tmp_path):
    """``--curve`` of three steps: its step axis was ticked 0, 0.5, 1, ... 3 (steps come whole). Read from the
    PDF's text: the ticks 0, 1, 2, 3 and no fraction of a step."""
    import pypdfium2 as pdfium

    curve = tmp_path / "c.pdf"
    r = run("export", "example:fruit", "--model", "logistic", "--optimizer", "sgd", "--steps", "3",
            "-o", str(tmp_path / "s.png"), "--curve", str(curve), "--width", "800", "--height", "600")
    assert r.returncode == 0, r.stderr
    words = pdfium.PdfDocument(str(curve))[0].get_textpage().get_text_range().split()
    assert {"0", "1", "2", "3"} <= set(words), words
    assert not {"0.5", "1.5", "2.5"} & set(words), words


def test_export_of_a_bayesian_step_names_its_prior_in_the_legend(tmp_path):
    """``export --bayes --optimizer``: the steps went toward w_MAP (the window's Training panel and legend say
    "Bayesian, α = 2") while the figure's legend and the printed line named only the optimizer."""
    import pypdfium2 as pdfium

    out = tmp_path / "step.pdf"
    r = run("export", "example:fruit", "--model", "logistic", "--bayes", "--alpha", "2", "--optimizer", "newton",
            "--steps", "2", "-o", str(out))
    assert r.returncode == 0, r.stderr
    named = "Logistic regression, Bayesian, α = 2, Newton / IRLS, step 2"
    assert named in r.stdout
    assert named in " ".join(pdfium.PdfDocument(str(out))[0].get_textpage().get_text_range().split())


@pytest.mark.parametrize("frame", [[], ["--no-standardize"]])
def test_the_text_says_which_weights_the_norm_is_of(frame):
    """`fit --optimizer`'s text printed "||w|| = 2.801" right under w = (1.3449, 2.85695), whose length is 3.16:
    the norm is of the weights on the features the steps take (standardized by default), the biases left out.
    It says so, and the number is that norm of the JSON's weights."""
    import re

    argv = ("fit", "example:fruit", "--model", "logistic", "--optimizer", "gd", "--steps", "4", *frame)
    text, out = run(*argv), json.loads(run(*argv, "--json").stdout)
    assert text.returncode == 0, text.stderr
    norm = float(re.search(r"‖w‖ = ([0-9.e+-]+) \(biases left out(, on the standardized features z)?\)",
                           text.stdout).group(1))
    W = np.array(out["weights"])
    assert norm == pytest.approx(np.linalg.norm(W[:, 1:]), rel=5e-4)
    assert ("standardized" in text.stdout) == (not frame)
    assert text.stdout.startswith("Logistic regression, Gradient descent, eta = 0.01, 4 steps from w = 0 on fruit")
