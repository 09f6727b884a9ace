"""The model's numbers as text or LaTeX: what the Parameters panel shows and copies, and what
``probviz fit`` prints. Pure Python: the fitted model, the class names, Bishop's symbols.
"""

from __future__ import annotations

import math

import numpy as np

from probviz.models import PROBABILISTIC_NAMES, REGISTRY, parameter_count
from probviz.models.logistic import BASES
from probviz.models.poly import monomials
from probviz.models.training import OPTIMIZER_LABELS

_TEX_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def counted(n: int, noun: str) -> str:
    """"1 point", "2 points"; "1 class", "3 classes"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}{'es' if noun.endswith('s') else 's'}"


def tex_escape(text: str) -> str:
    """``text`` as LaTeX text: every special character escaped, so any class name compiles."""
    return "".join(_TEX_SPECIALS.get(ch, ch) for ch in text)


def decimals(v: float, places: int = 4) -> str:
    """``v`` with ``places`` decimals; a nonzero value those would show as zero (a near-perfect fit's
    cross-entropy, 7.9e-44) with three significant digits instead."""
    v = float(v) + 0.0  # + 0.0: no -0
    if v != 0 and abs(v) < 0.5 * 10.0 ** -places:
        return f"{v:.3g}"
    return f"{v:.{places}f}"


def at_pixel(v: float, pixel: float) -> str:
    """A coordinate under the cursor, to the digit a screen pixel of size ``pixel`` (data units) tells: as many
    decimals as make a pixel's step show, the same for every value of the view, so the readout keeps its width
    as the mouse moves ("0.100", not "0.1" after "0.0321"), and a view far from the origin still reads to the
    pixel ("1000000.512", where three significant digits said "1e+06"). Beyond what a float's 15 digits hold, or
    for a pixel that is not a size, three significant digits."""
    v = float(v) + 0.0  # no -0
    if not (math.isfinite(v) and math.isfinite(pixel) and pixel > 0):
        return f"{v:.3g}"
    places = max(0, math.ceil(-math.log10(pixel)))
    if places > 15 or (v != 0 and math.floor(math.log10(abs(v))) + 1 + places > 15):
        return f"{v:.3g}"
    text = f"{v:.{places}f}"
    return text.lstrip("-") if float(text) == 0 else text


def _fmt(v: float) -> str:
    return f"{v + 0.0:.4g}"  # + 0.0: a zero with a sign bit (naive Bayes's off-diagonal covariance) reads 0, not -0


def _vec(v, fmt) -> str:
    v = np.atleast_1d(v)
    if fmt == "latex":
        return r"\begin{pmatrix}" + r" \\ ".join(_fmt(a) for a in v) + r"\end{pmatrix}"
    return "(" + ", ".join(_fmt(a) for a in v) + ")"


def _mat(m, fmt) -> str:
    if fmt == "latex":
        rows = r" \\ ".join(" & ".join(_fmt(a) for a in row) for row in m)
        return r"\begin{pmatrix}" + rows + r"\end{pmatrix}"
    return "[" + "; ".join(" ".join(_fmt(a) for a in row) for row in m) + "]"


class _Writer:
    """Lines of symbol = value, as text or as LaTeX equations."""

    SYMBOLS = {"pi": ("π", r"\pi"), "mu": ("μ", r"\boldsymbol\mu"), "Sigma": ("Σ", r"\boldsymbol\Sigma"),
               "w": ("w", r"\mathbf w"), "w0": ("w0", "w_0")}

    def __init__(self, fmt: str):
        self.fmt = fmt
        self.lines: list[str] = []

    def sym(self, name: str, cls: str = "") -> str:
        text, tex = self.SYMBOLS[name]
        if self.fmt == "latex":
            if name == "w0":
                return rf"w_{{\textrm{{{tex_escape(cls)}}},0}}" if cls else "w_0"
            return rf"{tex}_{{\textrm{{{tex_escape(cls)}}}}}" if cls else tex
        return f"{text}_{cls}" if cls else text

    def equation(self, *parts: str) -> None:
        """Comma-separated ``lhs = value`` parts on one line (one equation in LaTeX)."""
        line = ",\\ ".join(parts) if self.fmt == "latex" else ",  ".join(parts)
        self.lines.append(f"${line}$" if self.fmt == "latex" else line)

    def posterior_lhs(self, cls: str, basis: str, probit: bool = False) -> str:
        """p(C_1|x) = sigma(w^T phi(x) + w0), naming the class and the features; Phi for the probit model
        (Bishop eq. 4.114)."""
        phi = "x" if basis == "linear" else "φ(x)"
        if self.fmt == "latex":
            phi_tex = r"\mathbf x" if basis == "linear" else r"\boldsymbol\phi(\mathbf x)"
            link = r"\Phi" if probit else r"\sigma"
            return (rf"p(\textrm{{{tex_escape(cls)}}}\mid\mathbf x) = {link}(\mathbf w^T{phi_tex} + w_0):"
                    r"\ \mathbf w")
        return f"p({cls}|x) = {'Φ' if probit else 'σ'}(wᵀ{phi} + w0): w"

    def plain(self, text: str) -> None:
        self.lines.append(tex_escape(text) if self.fmt == "latex" else text)


def _count(name: str, K: int, basis: str, model) -> int:
    """Model ``name``'s parameter count with the shown basis; with rbf, M is the number of centres (the
    Gaussian models have no basis: theirs is the count in two dimensions)."""
    if basis != "rbf":
        return parameter_count(name, K, basis)
    if "basis" not in REGISTRY[name].defaults():
        return parameter_count(name, K)
    return parameter_count(name, K, "rbf", len(getattr(model, "centers_", ())))


def rbf_lines(model, fmt: str = "text") -> list[str]:
    """The radial basis functions of a fit: phi_m(x) = exp(-||x - mu_m||^2 / (2 s^2)), s and the centres; lines as
    written (``fmt`` "latex": an equation, then escaped text)."""
    C, s = getattr(model, "centers_", np.zeros((0, 2))), getattr(model, "width_", 0.0)
    mus = "; ".join(f"({_fmt(x)}, {_fmt(y)})" for x, y in C)
    if fmt == "latex":
        return [r"$\phi_m(\mathbf x) = \exp(-\lVert\mathbf x - \boldsymbol\mu_m\rVert^2 / 2s^2),\ "
                rf"m = 1, \dots, {len(C)},\ s = {_fmt(s)}$", tex_escape(f"centres μ_m: {mus}")]
    phis = ", ".join(f"φ_{m + 1}" for m in range(len(C))) if len(C) <= 3 else f"φ_1, …, φ_{len(C)}"
    return [f"φ(x) = ({phis}), φ_m(x) = exp(−‖x − μ_m‖²/(2s²)), s = {_fmt(s)} (Bishop 4.3.1)",
            f"centres μ_m: {mus}"]


def features_text(basis: str, tex: bool = False) -> str:
    """The features phi(x) of a basis, in the order of the weights."""
    if tex:
        names, dot = {1: "x_{}", 2: "x_{}^2", 3: "x_{}^3"}, " "
    else:
        names, dot = {1: "x{}", 2: "x{}²", 3: "x{}³"}, "·"
    terms = []
    for i, j in monomials(BASES[basis]):
        parts = ([names[i].format(1)] if i else []) + ([names[j].format(2)] if j else [])
        terms.append(dot.join(parts))
    return "(" + ", ".join(terms) + ")"


def model_lines(model, class_names, summary: dict | None = None, fmt: str = "text", pending: bool = False) -> list[str]:
    """One line per quantity. ``summary`` is the fit's training summary (accuracy, likelihood), if
    known; ``fmt`` is "text" or "latex" (each quantity then an equation that compiles as it is).
    ``pending``: the summary is still to come (many points while the hand moves): its lines say "…", as
    many as it will have, so that the text keeps its place.

    With two classes every linear model states the same orientation: w, w0 of
    p(C_1|x) = sigma(w^T phi(x) + w0), C_1 the first class (Bishop eqs. 4.65-4.67 for LDA).
    """
    names = [class_names[int(c)] for c in model.classes_]
    K = len(names)
    out = _Writer(fmt)
    eq = " = "
    if not getattr(model, "probabilistic", True):
        return _discriminant_lines(model, names, summary, out, pending)
    basis = getattr(model, "basis", "linear")
    two_class_w = None
    if getattr(model, "generative", False):
        for k, n in enumerate(names):
            out.equation(f"{out.sym('pi', n)}{eq}{_fmt(model.priors_[k])}")
        for k, n in enumerate(names):
            out.equation(f"{out.sym('mu', n)}{eq}{_vec(model.means_[k], fmt)}")
        if hasattr(model, "covariance_"):
            out.equation(f"{out.sym('Sigma')}{eq}{_mat(model.covariance_, fmt)}")
            for k, n in enumerate(names):  # eqs. 4.69-4.70
                out.equation(f"{out.sym('w', n)}{eq}{_vec(model.coef_[k], fmt)}",
                             f"{out.sym('w0', n)}{eq}{_fmt(model.intercept_[k])}")
            if K == 2:
                two_class_w = (model.coef_[0] - model.coef_[1], model.intercept_[0] - model.intercept_[1])
        elif hasattr(model, "groups_"):  # covariances tied within groups: one per group, named by its classes
            for g, members in enumerate(model.groups_):
                out.equation(f"{out.sym('Sigma', ','.join(members))}{eq}{_mat(model.group_covariances_[g], fmt)}")
        else:
            for k, n in enumerate(names):
                out.equation(f"{out.sym('Sigma', n)}{eq}{_mat(model.covariances_[k], fmt)}")
    elif hasattr(model, "coef_") and len(model.coef_):
        if K == 2:  # logistic's coef_ is for p(C_2|x); softmax has a row per class
            if len(model.coef_) == 1:
                two_class_w = (-model.coef_[0], -model.intercept_[0])
            else:
                two_class_w = (model.coef_[0] - model.coef_[1], model.intercept_[0] - model.intercept_[1])
        else:
            for k, n in enumerate(names):
                out.equation(f"{out.sym('w', n)}{eq}{_vec(model.coef_[k], fmt)}",
                             f"{out.sym('w0', n)}{eq}{_fmt(model.intercept_[k])}")
        if basis == "rbf":  # Gaussian radial basis functions (Bishop 4.3.1): their centres and width
            out.lines += rbf_lines(model, fmt)
        elif basis != "linear":
            if fmt == "latex":
                out.equation(r"\boldsymbol\phi(\mathbf x) = " + features_text(basis, tex=True))
            else:
                out.plain(f"φ(x) = {features_text(basis)}")
        lap = getattr(model, "laplace_", None)
        if lap is not None:  # the Bayesian view: w_MAP, and the evidence of alpha
            for line in bayes_lines(lap):
                out.plain(line)
        else:
            state = "converged" if model.converged_ else "not converged"
            if getattr(model, "draft_step_", None) is not None:
                state = "a draft while the points move"
            start = "zero weights" if model.start_ == "zero" else model.start_
            by = getattr(model, "trained_by_", None)  # a training run's step, or a fit (Newton's)
            steps = f"{OPTIMIZER_LABELS[by]} steps" if by is not None else "Newton steps"
            if model.n_iter_ == 0 and model.converged_ and model.start_ != "zero" and by is None:  # (after a drag)
                out.plain(f"Newton steps: none needed, {start} is already the optimum (converged)")
            else:
                out.plain(f"{steps}: {model.n_iter_} from {start} ({state})")
    if two_class_w is not None:
        w, w0 = two_class_w
        probit = getattr(model, "link_name", "sigma") == "Phi"
        out.equation(f"{out.posterior_lhs(names[0], basis, probit)}{eq}{_vec(w, fmt)}", f"{out.sym('w0')}{eq}{_fmt(w0)}")
    counts = ", ".join(f"{REGISTRY[m].label.split(' (')[0]} {_count(m, K, basis, model)}" for m in PROBABILISTIC_NAMES
                       if "groups" not in REGISTRY[m].defaults())  # tied covariances: between LDA and QDA, by its groups
    out.plain(f"Parameters: {model.n_parameters()}  (for {counted(K, 'class')}: {counts})")
    if summary:
        out.plain(f"Training accuracy: {100 * summary['accuracy']:.1f}%")
        out.plain(f"Log-likelihood, {summary['log_likelihood_kind']}: {decimals(summary['log_likelihood'])}")
        for n, v in zip(names, summary.get("binary_log_likelihoods", [])):
            out.plain(f"  {n} against the rest: ln p(t|X) = {decimals(v)}")
        out.plain(f"Cross-entropy: {decimals(summary['cross_entropy'])}")
    elif pending:
        out.plain("Training accuracy: …")
        out.plain("Log-likelihood: …")
        for n in (names if getattr(model, "ovr_", False) else []):
            out.plain(f"  {n} against the rest: ln p(t|X) = …")
        out.plain("Cross-entropy: …")
    return out.lines


def _discriminant_lines(model, names, summary, out, pending: bool = False) -> list[str]:
    """Least squares, Fisher, the perceptron: their weights in the units of x and what decides."""
    fmt, eq = out.fmt, " = "
    K = len(names)
    if K >= 2 and hasattr(model, "scheme"):
        for k, n in enumerate(names):
            out.equation(f"{out.sym('w', n)}{eq}{_vec(model.coef_[k], fmt)}",
                         f"{out.sym('w0', n)}{eq}{_fmt(model.intercept_[k])}")
        rule = {"k-class": "the largest y_k(x) = w_kᵀx + w_k0 (Bishop eq. 4.9)",
                "one-vs-rest": "the one class with y_k(x) > 1/2, undecided if none or several",
                "one-vs-one": "a vote of the K(K-1)/2 pairwise lines, undecided on a tie"}[model.scheme]
        out.plain(f"Decision: {rule}")
        if model.scheme == "one-vs-one":
            raw = model._pair_scores.in_raw_units()
            for m, (k, j, _) in enumerate(model.pairs_):
                out.plain(f"{names[k]} against {names[j]}: w = {_vec([raw[m, 1, 0], raw[m, 0, 1]], 'text')}, "
                          f"w0 = {_fmt(raw[m, 0, 0])}")
    elif K == 2:
        if hasattr(model, "direction_"):
            out.equation(f"{out.sym('mu', names[0])}{eq}{_vec(model.means_[0], fmt)}",
                         f"{out.sym('mu', names[1])}{eq}{_vec(model.means_[1], fmt)}")
            out.plain(f"Fisher direction w ∝ S_W⁻¹(m2 − m1), unit: {_vec(model.direction_, 'text')}")
        out.equation(f"{out.sym('w')}{eq}{_vec(model.coef_[0], fmt)}", f"{out.sym('w0')}{eq}{_fmt(model.intercept_[0])}")
        out.plain(f"Decision: {names[1]} where y(x) = wᵀx + w0 > 0, else {names[0]}")
        if hasattr(model, "epochs_"):
            state = "settled: a pass without mistakes" if model.converged_ else "never settled"
            out.plain(f"Perceptron updates: {model.n_iter_} in {model.epochs_} passes from w = 0 ({state})")
    out.plain(f"Parameters: {model.n_parameters()}")
    if summary:
        out.plain(f"Training accuracy: {100 * summary['accuracy']:.1f}%")
        if summary.get("undecided"):
            out.plain(f"Undecided training points: {summary['undecided']}")
    elif pending:
        out.plain("Training accuracy: …")
    out.plain("No probabilities: a discriminant function assigns a class, it gives no p(C_k|x) (Bishop 4.1)")
    return out.lines


def discriminant_readout(model, class_names, x) -> str:
    """A discriminant function at x: its values and the class it assigns (one line)."""
    e = model.explain(x)
    names = [class_names[int(c)] for c in model.classes_]
    k = e["decision"]
    verdict = f"→ {names[k]}" if k >= 0 else "→ undecided (ambiguous region)"
    if len(e["y"]) == 2 and not hasattr(model, "scheme"):  # one discriminant y(x), its sign decides
        return f"y(x) = {e['y'][1]:.3f}   {verdict}"
    return "  ".join(f"y_{n}(x) = {v:.3f}" for n, v in zip(names, e["y"])) + f"   {verdict}"


def probe_lines(model, class_names, x) -> list[str]:
    """The path from x to p(C_k|x) (Bishop eqs. 4.62-4.63), one line per class; for a discriminant
    function its values y_k(x) and the class it assigns (Bishop 4.1)."""
    e = model.explain(x)
    names = [class_names[int(c)] for c in model.classes_]
    lines = [f"x = ({_fmt(x[0])}, {_fmt(x[1])})"]
    if not getattr(model, "probabilistic", True):
        return lines + [discriminant_readout(model, class_names, x),
                        "no p(C_k|x): a discriminant function only assigns a class (Bishop 4.1)"]
    probit = getattr(model, "link_name", "sigma") == "Phi"
    if probit and len(names) == 2:  # scores (0, a): p(C_2|x) = Phi(a), p(C_1|x) = Phi(-a) (Bishop eq. 4.114)
        a = e["a"][1] - e["a"][0]
        lines.append(f"a = wᵀφ(x) + w0 = {a:.3f}")
        lines += [f"p({names[0]}|x) = Φ(−a) = {e['posterior'][0]:.4f}",
                  f"p({names[1]}|x) = Φ(a) = {e['posterior'][1]:.4f}"]
        return lines
    ovr = getattr(model, "ovr_", False) and "density" not in e  # p(C_k|x) = f(a_k) / sum_j f(a_j)
    if ovr:
        from probviz.special import expit, ndtr

        link, values = ("Φ", ndtr(e["a"])) if probit else ("σ", expit(e["a"]))
    for k, n in enumerate(names):
        parts = []
        if "density" in e:
            parts += [f"p(x|{n}) = {e['density'][k]:.4g}", f"p({n}) = {e['prior'][k]:.3f}",
                      f"a = ln p(x|{n})p({n}) = {e['a'][k]:.3f}"]
        else:
            parts.append(f"a = {e['a'][k]:.3f}")
        if ovr:
            parts.append(f"{link}(a) = {values[k]:.4g}")
        parts.append(f"p({n}|x) = {e['posterior'][k]:.4f}")
        lines.append("   ".join(parts))
    if ovr:
        lines.append(f"one-vs-rest: p(C_k|x) = {link}(a_k) / Σ_j {link}(a_j)")
    lap = getattr(model, "laplace_", None)
    if lap is not None:  # the Bayesian view: the activation's spread, and the predictive both ways
        mu, var = lap.activation([x])
        moderated, exact = lap.proba([x], "moderated")[0], lap.proba([x], "exact")[0]
        of = (f"of p({names[1]}|x) = σ(a)" if len(names) == 2 else  # the one problem is the second class's
              "of each class against the rest, " + ", ".join(names))
        lines.append(f"μ_a = {_nums(mu[0])}, σ_a² = {_nums(var[0])}, {of} (Bishop eqs. 4.149-4.150)")
        for k, n in enumerate(names):
            lines.append(f"p({n}|x,D): moderated {moderated[k]:.4f} (eq. 4.155), exact {exact[k]:.4f} (eq. 4.151)")
    return lines


def _nums(v) -> str:
    return ", ".join(f"{u:.4g}" for u in v)


# --- the Lab's comparison of two fits -----------------------------------------------------------

def conditional_log_likelihood(model, X, y) -> float:
    """ln p(t|X) = sum_n ln p(t_n|x_n) under the model's posterior: minus the cross-entropy of Bishop
    eqs. 4.90 (two classes) and 4.108 (K classes). Defined for every probabilistic model, a generative
    one through its posterior p(C_k|x) ∝ p(x|C_k)p(C_k), so two models' values compare like with like
    (a generative model's own joint ln p(X, t) adds the ln p(x_n) of the inputs)."""
    codes = model._codes(y)
    L = model.predict_log_proba(np.asarray(X, dtype=float).reshape(-1, 2))
    return float(L[np.arange(len(codes)), codes].sum())


def log_likelihood_text(v: float) -> str:
    """A log-likelihood with two decimals, or two significant digits when that would print 0.00:
    a near-perfect fit reads "-3.1e-06", never "-0.00"."""
    if v == 0:
        return "0"
    return f"{v:.2f}" if abs(v) >= 0.005 else f"{v:.2g}"


def comparison_rows(K: int) -> tuple[str, ...]:
    """The Lab's comparison rows; the likelihoods name their kind and Bishop's equation (K classes).
    Those with an equation are on two lines: a narrow dock keeps room for two models' columns (on one line,
    "ln p(t|X), eq. 4.108" of three classes made the table wider than the Lab, and a click on the second model's
    column scrolled the first's minus signs out of sight)."""
    eq = "4.90" if K <= 2 else "4.108"
    return ("parameters", "accuracy", "held-out accuracy", f"ln p(t|X),\neq. {eq}", "held-out ln p(t|X)",
            "joint ln p(X,t),\neq. 4.71", "true error")


def comparison_column(fit, X, labels, held=None, true_error: float | None = None) -> list[str]:
    """One fit's cells of the Lab's comparison, in the order of :func:`comparison_rows`: ``fit`` a
    pipeline fit of the points X (N, 2), labels (N,), ``held`` (N,) bool the points kept out of it.
    The conditional likelihood of every probabilistic model, the joint of the generative ones only;
    a discriminant function (Bishop 4.1) has neither. While the fit's summary is to come (a drag through many
    points: it waits for the hand to rest) the cells that need a pass over the points say "…", as the status
    line does, and none is computed."""
    model, s, h = fit.model, fit.summary, fit.held_out
    X, labels = np.asarray(X, dtype=float), np.asarray(labels)
    train = np.ones(len(X), bool) if held is None else ~np.asarray(held, bool)
    if not s:
        probabilistic = getattr(model, "probabilistic", True)
        split = not train.all()
        return [str(model.n_parameters()), "…", "…" if split else "", "…" if probabilistic else "",
                "…" if probabilistic and split else "", "…" if getattr(model, "generative", False) else "",
                "" if true_error is None else f"{true_error:#.4g}"]
    conditional = held_conditional = joint = ""
    if getattr(model, "probabilistic", True):
        if "cross_entropy" in s and not getattr(model, "ovr_", False):  # the summary's pass already has it
            conditional = log_likelihood_text(-s["cross_entropy"])
        else:  # one-vs-rest's cross-entropy is its K binary ones: the normalised posterior's needs a pass
            conditional = log_likelihood_text(conditional_log_likelihood(model, X[train], labels[train]))
        if h and h.get("n") and not train.all():
            test = ~train
            if np.isin(labels[test], model.classes_).all():  # a class the model never saw: ln 0
                held_conditional = log_likelihood_text(conditional_log_likelihood(model, X[test], labels[test]))
        if getattr(model, "generative", False) and "log_likelihood" in s:
            joint = log_likelihood_text(s["log_likelihood"])
    return [str(model.n_parameters()),
            f"{100 * s['accuracy']:.1f}%" if "accuracy" in s else "",
            f"{100 * h['accuracy']:.1f}% of {h['n']}" if h else "",
            conditional, held_conditional, joint,
            "" if true_error is None else f"{true_error:#.4g}"]


def bayes_lines(lap) -> list[str]:
    """The readout: alpha, the evidence, BIC and the effective number of parameters, cited to Bishop."""
    lines = ["Bayesian view, Laplace (Bishop 4.4, 4.5.1): prior N(w|0, α⁻¹I), the bias included",
             f"α = {lap.alpha:.4g};  ln p(D|α) ≈ {lap.total_log_evidence:.4f} (eq. 4.137)",
             f"BIC {lap.total_bic:.4f} (eq. 4.139);  effective parameters γ = {lap.total_gamma:.3f} of {lap.w_map.size}"]
    if not lap.converged:
        lines.append("note: Newton did not reach the posterior's mode: the numbers are approximate")
    return lines


def section_key(section, names, dark: bool = False) -> str:
    """The key to a cross-section's curves (the Lab's plot and an exported section figure); ``dark``: the theme's,
    whose ink (the other link's curve) is white."""
    parts = ["Solid: p(C_k|x)"]
    if section is not None and section.predictive is not None:
        parts.append("dash-dot: the predictive p(C_k|x,D) (Bayesian view, Bishop eq. 4.155)")
    if section is not None and section.band is not None:
        parts.append("shaded: its central 68% under q(w), σ(μ_a ∓ σ_a) (eqs. 4.149-4.150)")
    if section is None or section.joint is not None:
        parts.append("dashed: p(x|C_k)p(C_k), scaled to a top of 1")
    if section is not None and section.link is not None:
        of = f" of p({names[1]}|x)" if len(names) == 2 else ""
        ink = "white" if dark else "black"
        parts.append(f"{ink} dotted: {section.link[0]}{of}, the approximation σ(a) ≈ Φ(λa), λ² = π/8 (Bishop 4.5.2)")
    if section is None or section.true_posterior is not None:
        parts.append("grey dotted: the true model's p(C_k|x) (inference)")
    return "; ".join(parts) + ". The vertical lines are the boundaries crossed, grey the reject band (decision)."
