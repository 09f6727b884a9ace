"""The model's numbers as text, LaTeX or HTML: what the Parameters panel shows and copies.

Pure Python: the fitted model, the class names, and the notes' symbols.
"""

from __future__ import annotations

import numpy as np

from probviz.models import MODEL_NAMES, REGISTRY, parameter_count


def _fmt(v: float) -> str:
    return f"{v:.4g}"


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


SYMBOLS = {  # (text, latex)
    "pi": ("π", r"\pi"), "mu": ("μ", r"\boldsymbol\mu"), "Sigma": ("Σ", r"\boldsymbol\Sigma"),
    "w": ("w", r"\mathbf w"), "w0": ("w0", "w_0"), "a": ("a", "a"),
}


def _sym(name, k, fmt):
    text, tex = SYMBOLS[name]
    if fmt == "latex":
        return f"{tex}_{{{k}}}" if k != "" else tex
    return f"{text}_{k}" if k != "" else text


def model_lines(model, class_names, summary: dict | None = None, fmt: str = "text") -> list[str]:
    """One line per quantity. ``summary`` is ``model.summary(X, y)`` (accuracy, likelihood), if known;
    ``fmt`` is "text" or "latex" (each line then an equation)."""
    names = [class_names[int(c)] for c in model.classes_]
    K = len(names)
    eq = " = "
    lines = []
    if getattr(model, "generative", False):
        for k, n in enumerate(names):
            lines.append(f"{_sym('pi', n, fmt)}{eq}{_fmt(model.priors_[k])}")
        for k, n in enumerate(names):
            lines.append(f"{_sym('mu', n, fmt)}{eq}{_vec(model.means_[k], fmt)}")
        if hasattr(model, "covariance_"):
            lines.append(f"{_sym('Sigma', '', fmt)}{eq}{_mat(model.covariance_, fmt)}")
            for k, n in enumerate(names):  # 000 eqs. 13-14
                lines.append(f"{_sym('w', n, fmt)}{eq}{_vec(model.coef_[k], fmt)},  "
                             f"{_sym('w0', n, fmt) if fmt == 'text' else f'w_{{{n},0}}'}{eq}"
                             f"{_fmt(model.intercept_[k])}")
            if K == 2:  # 000 eq. 10: p(C_1|x) = sigma(w^T x + w0)
                w = model.coef_[0] - model.coef_[1]
                w0 = model.intercept_[0] - model.intercept_[1]
                lhs = (f"p({names[0]}|x) = σ(wᵀx + w0): w" if fmt == "text"
                       else rf"p(\mathrm{{{names[0]}}}\mid\mathbf x) = \sigma(\mathbf w^T\mathbf x + w_0):\ \mathbf w")
                lines.append(f"{lhs}{eq}{_vec(w, fmt)},  {'w0' if fmt == 'text' else 'w_0'}{eq}{_fmt(w0)}")
        else:
            for k, n in enumerate(names):
                lines.append(f"{_sym('Sigma', n, fmt)}{eq}{_mat(model.covariances_[k], fmt)}")
    elif hasattr(model, "coef_") and len(model.coef_):
        rows = names[1:] if len(model.coef_) == 1 and K == 2 else names
        for k, n in enumerate(rows):
            lines.append(f"{_sym('w', n, fmt)}{eq}{_vec(model.coef_[k], fmt)},  "
                         f"{_sym('w0', n, fmt) if fmt == 'text' else f'w_{{{n},0}}'}{eq}"
                         f"{_fmt(model.intercept_[k])}")
        lines.append(f"Newton steps: {model.n_iter_} ({'converged' if model.converged_ else 'not converged'})")
    basis = getattr(model, "basis", "linear")
    counts = ", ".join(f"{REGISTRY[m].label.split(' (')[0]} {parameter_count(m, K, basis)}"
                       for m in MODEL_NAMES)
    lines.append(f"Parameters: {model.n_parameters()}  (for {K} classes: {counts})")
    if summary:
        lines.append(f"Training accuracy: {100 * summary['accuracy']:.1f}%")
        kind = "ln p(X, t)" if getattr(model, "generative", False) else "ln p(t|X)"
        lines.append(f"Log-likelihood {kind}: {summary['log_likelihood']:.4f}")
        lines.append(f"Cross-entropy: {summary['cross_entropy']:.4f}")
    if fmt == "latex":
        lines = [ln if ln.startswith(("Parameters", "Training", "Log-", "Cross", "Newton")) else f"${ln}$"
                 for ln in lines]
    return lines


def probe_lines(model, class_names, x) -> list[str]:
    """The path from x to p(C_k|x) (000 eqs. 7-8), one line per class."""
    e = model.explain(x)
    names = [class_names[int(c)] for c in model.classes_]
    lines = [f"x = ({_fmt(x[0])}, {_fmt(x[1])})"]
    for k, n in enumerate(names):
        parts = []
        if "density" in e:
            parts += [f"p(x|{n}) = {e['density'][k]:.4g}", f"p({n}) = {e['prior'][k]:.3f}",
                      f"a = ln p(x|{n})p({n}) = {e['a'][k]:.3f}"]
        else:
            parts.append(f"a = {e['a'][k]:.3f}")
        parts.append(f"p({n}|x) = {e['posterior'][k]:.4f}")
        lines.append("   ".join(parts))
    return lines
