"""What the Parameters panel and `probviz fit` say: one orientation, the likelihood's kind, LaTeX that compiles."""

import re
import shutil
import subprocess

import numpy as np
import pytest
from reference import lda_two_class

from probviz.data.examples import load
from probviz.models import create
from probviz.report import counted, model_lines, tex_escape

NUM = r"(-?[\d.]+(?:e[-+]?\d+)?)"


def two_class_line(lines, link="σ"):
    (line,) = [ln for ln in lines if f"{link}(wᵀ" in ln]
    m = re.search(rf"p\((\w+)\|x\) = {link}\(wᵀx \+ w0\): w = \({NUM}, {NUM}\),  w0 = {NUM}", line)
    return m.group(1), np.array([float(m.group(2)), float(m.group(3))]), float(m.group(4))


@pytest.mark.parametrize("name", ["lda", "logistic", "softmax"])
def test_two_classes_state_w_and_w0_of_the_first_class(name):
    """p(C_1|x) = sigma(w^T x + w0) with C_1 the first class, whatever the model's own convention."""
    d = load("fruit")
    m = create(name).fit(d.X, d.labels)
    cls, w, w0 = two_class_line(model_lines(m, d.class_names, m.evaluate(d.X, d.labels)[0]))
    assert cls == "apple"
    Q = np.random.default_rng(0).uniform(-1, 3, (50, 2))
    p = 1 / (1 + np.exp(-(Q @ w + w0)))
    np.testing.assert_allclose(p, m.predict_proba(Q)[:, 0], atol=2e-3)  # 4 significant digits printed
    if name == "lda":
        w_ref, w0_ref = lda_two_class(d.X, d.labels)  # eqs. 4.65-4.67, independently
        np.testing.assert_allclose(w, w_ref, rtol=1e-3)
        assert w0 == pytest.approx(w0_ref, rel=1e-3)


def test_a_two_class_probit_states_phi_of_the_first_class():
    """Probit's two-class line names its own link, p(C_1|x) = Phi(w^T x + w0) (Bishop eq. 4.114), not sigma: Phi
    of the printed weights gives the fitted posterior (scipy's ndtr, independently)."""
    from scipy.special import ndtr

    d = load("fruit")
    m = create("probit").fit(d.X, d.labels)
    lines = model_lines(m, d.class_names, m.evaluate(d.X, d.labels)[0])
    assert not [ln for ln in lines if "σ(wᵀ" in ln]
    cls, w, w0 = two_class_line(lines, "Φ")
    assert cls == "apple"
    Q = np.random.default_rng(0).uniform(-1, 3, (50, 2))
    np.testing.assert_allclose(ndtr(Q @ w + w0), m.predict_proba(Q)[:, 0], atol=2e-3)  # 4 significant digits
    assert r"\Phi(\mathbf w^T" in "".join(model_lines(m, d.class_names, fmt="latex"))


def test_newton_steps_name_their_start():
    d = load("fruit")
    lines = model_lines(create("softmax").fit(d.X, d.labels), d.class_names)
    assert any(re.fullmatch(r"Newton steps: \d+ from the Gaussian model's log-odds \(converged\)", ln) for ln in lines)
    X = np.array([[1, 2], [1, 5], [0, 2], [0, 5]], float)
    lines = model_lines(create("logistic").fit(X, [0, 0, 1, 1]), ["a", "b"])
    assert any(re.fullmatch(r"Newton steps: \d+ from zero weights \(converged\)", ln) for ln in lines)


NASTY = ["a_b#1", "50% & $x$", "{x}~^\\"]


@pytest.mark.parametrize("optimizer, label", [("gd", "Gradient descent"), ("sgd", "Stochastic gradient descent"),
                                              ("newton", "Newton / IRLS")])
def test_a_training_step_names_its_optimizer_and_its_start(optimizer, label):
    """A training run's step says how it was reached ("Newton steps: 3" read for three steps of gradient descent)
    and from where (the Gaussian model's log-odds read "zero weights")."""
    from probviz.stepping import make_trainer
    from probviz.models.training import TrainingSpec
    from probviz.pipeline import ModelSpec

    d = load("fruit")
    for start, said in (("zero", "zero weights"), ("generative", "the Gaussian model's log-odds")):
        spec = ModelSpec.make("logistic")
        trainer = make_trainer(spec, TrainingSpec(optimizer=optimizer, start=start), d.X, d.labels, d.class_names)
        trainer.step(3)
        lines = model_lines(trainer.model(), list(d.class_names), None, "text")
        assert f"{label} steps: 3 from {said} (not converged)" in lines, lines
        assert not any(ln.startswith("Newton steps") for ln in lines)
    fitted = create("logistic").fit(d.X, d.labels)
    assert any(ln.startswith("Newton steps: ") for ln in model_lines(fitted, list(d.class_names), None, "text"))


def test_latex_escapes_every_class_name():
    assert tex_escape("a_b#1") == r"a\_b\#1"
    assert tex_escape("{x}~^\\") == r"\{x\}\textasciitilde{}\textasciicircum{}\textbackslash{}"
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(m, 0.5, (10, 2)) for m in (0, 2, 4)])
    m = create("lda").fit(X, np.repeat([0, 1, 2], 10))
    text = "\n".join(model_lines(m, NASTY, m.evaluate(X, np.repeat([0, 1, 2], 10))[0], "latex"))
    for name in NASTY:
        assert tex_escape(name) in text
    groups = textrm_groups(text)
    assert sorted(set(groups)) == sorted(tex_escape(n) for n in NASTY)
    for g in groups:  # inside the text groups every special character is escaped
        bare = re.sub(r"\\(textbackslash|textasciitilde|textasciicircum)\{\}|\\[{}%#$&_]", "", g)
        assert not re.search(r"[{}%#$&_~^\\]", bare), g


def textrm_groups(text):
    """The contents of every \\textrm{...}, braces matched."""
    out, i = [], 0
    while (i := text.find("\\textrm{", i)) >= 0:
        depth, j = 1, i + len("\\textrm{")
        while depth:
            if text[j] == "\\":
                j += 2
                continue
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        out.append(text[i + len("\\textrm{"):j - 1])
        i = j
    return out


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs a TeX installation")
@pytest.mark.parametrize("name", ["lda", "qda", "logistic", "softmax"])
def test_latex_compiles_as_it_is(tmp_path, name):
    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(m, 0.7, (10, 2)) for m in (0, 2, 4)])
    y = np.repeat([0, 1, 2], 10)
    m = create(name, **({"basis": "quadratic"} if name == "softmax" else {})).fit(X, y)
    lines = model_lines(m, NASTY, m.evaluate(X, y)[0], "latex")
    doc = ("\\documentclass{article}\\usepackage{amsmath}\\begin{document}\n"
           + "\n\n".join(lines) + "\n\\end{document}\n")
    (tmp_path / "t.tex").write_text(doc)
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout[-2000:]


def test_a_fit_that_starts_at_its_optimum_says_no_step_was_needed():
    """After a drag the rest-frame's fit often starts where the optimum is: "0 Newton steps" read as "not
    fitted"; it says none was needed. A fit that took steps counts them from where it started."""
    from probviz.data.examples import load

    d = load("fruit")
    first = create("logistic").fit(d.X, d.labels)
    again = create("logistic").fit(d.X, d.labels, init=first)
    assert first.n_iter_ > 0 and again.n_iter_ == 0 and again.converged_
    text = "\n".join(model_lines(again, d.class_names))
    assert "Newton steps: none needed, the previous fit is already the optimum (converged)" in text
    assert f"Newton steps: {first.n_iter_} from the Gaussian model's log-odds (converged)" in model_lines(
        first, d.class_names)


@pytest.mark.parametrize("name", ["logistic", "softmax", "probit", "lda", "leastsquares"])
def test_a_summary_still_to_come_keeps_its_lines_in_their_place(name):
    """While the hand moves through many points the summary comes later: the panel's text has its lines, each
    saying "…", so nothing below them jumps (three classes: one-vs-rest adds a line per class)."""
    from probviz.data.examples import load

    d = load("iris")
    m = create(name).fit(d.X, d.labels)
    done = model_lines(m, d.class_names, m.evaluate(d.X, d.labels)[0])
    pending = model_lines(m, d.class_names, pending=True)
    assert len(pending) == len(done) > len(model_lines(m, d.class_names))
    for a, b in zip(done, pending):
        assert a == b or (b.endswith("…") and a.split(":")[0].split(",")[0] == b.split(":")[0].split(",")[0]), (a, b)


def test_a_zero_with_a_sign_bit_reads_0_and_a_tiny_negative_keeps_its_sign():
    """Naive Bayes's covariances are diagonal; their off-diagonal zeros came out of a product as -0.0 and read
    "-0" in the Parameters panel and in `probviz fit`."""
    import re

    from probviz.models import create
    from probviz.report import model_lines

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2)) * [1.0, -2.0]
    y = np.repeat([0, 1], 20)
    model = create("nb").fit(X, y)
    model.covariances_[:, 0, 1] = model.covariances_[:, 1, 0] = -0.0
    for fmt in ("text", "latex"):
        text = "\n".join(model_lines(model, ["a", "b"], fmt=fmt))
        assert not re.search(r"(?<![\w.])-0(?![\w.])", text), text
    from probviz.report import _fmt

    assert _fmt(-0.0) == "0" and _fmt(-1e-300) == "-1e-300" and _fmt(-0.5) == "-0.5"


@pytest.mark.parametrize("name", ["lda", "logistic", "leastsquares"])
def test_the_comparison_says_its_cells_are_to_come_while_the_summary_is(name, monkeypatch):
    """A fit whose summary is still to come (a drag through many points) gets "…" in the cells that need a pass
    over the points, and none is computed (the table made ln p(t|X) on the GUI thread at every frame); the
    same fit with its summary gets the numbers, the conditional likelihood computed here."""
    import probviz.report as report
    from probviz.pipeline import ModelSpec, evaluate, fit_model

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2)) + np.repeat([[0.0, 0.0], [2.0, 1.0], [0.0, 3.0]], 20, axis=0)
    y = np.repeat([0, 1, 2], 20)
    held = np.arange(60) % 5 == 0
    fit = fit_model(ModelSpec.make(name), X[~held], y[~held], evaluate=False)
    assert not fit.summary

    def no_pass(*a, **k):
        raise AssertionError("a pass over the points while the summary is to come")

    monkeypatch.setattr(report, "conditional_log_likelihood", no_pass)
    cells = report.comparison_column(fit, X, y, held, true_error=0.125)
    probabilistic, generative = name != "leastsquares", name == "lda"
    assert cells == [str(fit.model.n_parameters()), "…", "…", "…" if probabilistic else "",
                     "…" if probabilistic else "", "…" if generative else "", "0.1250"]
    assert report.comparison_column(fit, X, y)[2] == ""  # no split: no held-out cells
    monkeypatch.undo()
    done = evaluate(fit, X[~held], y[~held])
    cells = report.comparison_column(done, X, y, held, true_error=0.125)
    assert cells[1] == f"{100 * np.mean(fit.model.predict(X[~held]) == y[~held]):.1f}%"
    if probabilistic:
        p = fit.model.predict_proba(X[~held])[np.arange((~held).sum()), y[~held]]
        assert float(cells[3]) == pytest.approx(np.log(p).sum(), abs=0.006)


def test_the_probe_of_a_two_class_probit_gives_the_activation_whose_phi_is_each_posterior():
    """A new user read "a = 0.000 p(apple|x) = 0.6283; a = -0.327 p(peach|x) = 0.3717" and found no Phi that
    turns the first a into its p. The probe names one activation a and p(C_1|x) = Phi(-a), p(C_2|x) = Phi(a)
    (Bishop eq. 4.114): checked with scipy's ndtr and against the fit's own posterior."""
    from scipy.special import ndtr

    from probviz.report import probe_lines

    d = load("fruit")
    m = create("probit").fit(d.X, d.labels)
    for x in [(1.0, 2.0), (0.2, 4.0), (2.5, 1.0)]:
        lines = probe_lines(m, d.class_names, x)
        a = float(re.search(rf"a = wᵀφ\(x\) \+ w0 = {NUM}", lines[1]).group(1))
        p0 = float(re.search(rf"p\(apple\|x\) = Φ\(−a\) = {NUM}", lines[2]).group(1))
        p1 = float(re.search(rf"p\(peach\|x\) = Φ\(a\) = {NUM}", lines[3]).group(1))
        want = m.predict_proba([x])[0]
        assert p0 == pytest.approx(want[0], abs=1e-4) and p1 == pytest.approx(want[1], abs=1e-4)
        assert ndtr(-a) == pytest.approx(p0, abs=2e-3) and ndtr(a) == pytest.approx(p1, abs=2e-3)  # a to 3 decimals


@pytest.mark.parametrize("name, link", [("probit", "Φ"), ("logistic", "σ")])
def test_the_probe_of_one_vs_rest_gives_each_link_and_their_normalisation(name, link):
    """One-vs-rest: each class's a_k, its link f(a_k) and p(C_k|x) = f(a_k) / sum_j f(a_j), each checked with
    scipy (ndtr, expit) from the printed a_k."""
    from scipy.special import expit, ndtr

    from probviz.report import probe_lines

    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 2)) + np.repeat([[0, 0], [3, 0], [0, 3]], 30, axis=0)
    y = np.repeat([0, 1, 2], 30)
    m = create(name).fit(X, y)
    f = ndtr if name == "probit" else expit
    lines = probe_lines(m, ["a", "b", "c"], (1.0, 1.0))
    rows = [re.search(rf"a = {NUM}   {link}\(a\) = {NUM}   p\((\w)\|x\) = {NUM}", ln) for ln in lines[1:4]]
    a = np.array([float(r.group(1)) for r in rows])
    shown_f = np.array([float(r.group(2)) for r in rows])
    p = np.array([float(r.group(4)) for r in rows])
    np.testing.assert_allclose(shown_f, f(a), rtol=2e-3)
    np.testing.assert_allclose(p, f(a) / f(a).sum(), atol=2e-3)
    np.testing.assert_allclose(p, m.predict_proba([(1.0, 1.0)])[0], atol=1e-4)
    assert lines[4] == f"one-vs-rest: p(C_k|x) = {link}(a_k) / Σ_j {link}(a_j)"


def test_counts_of_one_are_singular_and_others_plural():
    assert [counted(n, "point") for n in (0, 1, 2, 1000)] == ["0 points", "1 point", "2 points", "1000 points"]
    assert [counted(n, "class") for n in (1, 3)] == ["1 class", "3 classes"]


def test_a_coordinate_is_written_to_the_pixel():
    """As many decimals as a pixel's size needs, whatever the value: the same for every value of a view."""
    from probviz.report import at_pixel

    assert at_pixel(0.1, 0.008) == "0.100" and at_pixel(0.0321, 0.008) == "0.032"  # one width in one view
    assert at_pixel(-0.0004, 0.008) == "0.000"  # no "-0.000"
    assert at_pixel(1000000.512, 0.008) == "1000000.512"  # far from the origin: still to the pixel
    assert at_pixel(1234567.0, 1e4) == "1234567" and at_pixel(123.456, 0.5) == "123.5"
    assert at_pixel(2e-6, 1e-9) == "0.000002000"  # a view a micron across
    assert at_pixel(0.25, 0.01) == "0.25" and at_pixel(0.25, 0.011) == "0.25"  # 0.01 needs two, 0.011 two
    assert at_pixel(1e20, 1.0) == "1e+20"  # beyond a float's digits: three significant ones
    assert at_pixel(1e14 + 0.5, 0.01) == "1e+14"  # 15 digits and 2 decimals: more than a float holds
    assert at_pixel(3e-19, 1e-20) == "3e-19"  # more than 15 decimals: a float's digits again
    assert at_pixel(3.0, float("nan")) == "3" and at_pixel(3.0, 0.0) == "3"  # no pixel size to go by
