"""The Bayesian view of logistic regression as the command line and the window report it: the Laplace
posterior over w chosen with a given alpha or by the evidence, the predictive distribution at query
points, and the evidence of each basis side by side (Bishop 2006, sections 4.4 and 4.5). Pure numpy."""

from __future__ import annotations

import math

import numpy as np

from probviz.data.files import MAX_ABS
from probviz.models.bayes import Laplace, evidence_alpha, fit_laplace
from probviz.models.logistic import BASES

#: the prior precision when none is given: a unit Gaussian on each weight of the standardized features
DEFAULT_ALPHA = 1.0
EVIDENCE = "evidence"
#: the largest coordinate a query point may have: what a data file may hold (beyond it phi^T S_N phi overflows)
QUERY_LIMIT = MAX_ABS


def parse_alpha(text: str) -> float | str:
    """A positive number, or "evidence" (the alpha that maximises the evidence); a ValueError otherwise."""
    if str(text).strip().lower() == EVIDENCE:
        return EVIDENCE
    try:
        v = float(text)
    except ValueError:
        raise ValueError(f"--alpha must be a positive number or 'evidence', got {text!r}") from None
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"--alpha must be a positive number or 'evidence', got {text!r}")
    return v


def parse_query(text: str) -> np.ndarray:
    """ "x1,y1;x2,y2;..." -> (n, 2) floats; a ValueError naming the first bad point."""
    points = []
    for i, part in enumerate(str(text).split(";"), start=1):
        part = part.strip()
        if not part and i > 1:
            continue  # a trailing ';'
        try:
            x, y = (float(v) for v in part.split(","))
        except ValueError:
            raise ValueError(f"--query point {i} must be 'x,y' (two numbers), got {part!r}") from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"--query point {i} must be finite, got {part!r}")
        if max(abs(x), abs(y)) > QUERY_LIMIT:
            raise ValueError(f"--query point {i} is out of range (coordinates up to {QUERY_LIMIT:g}), got {part!r}")
        points.append((x, y))
    return np.array(points, dtype=float).reshape(-1, 2)


def bayes_fit(X, codes, K: int, alpha: float | str, basis: str = "linear", standardize: bool = True) -> Laplace:
    """The Laplace posterior with prior precision ``alpha``, or with the alpha of largest evidence."""
    if alpha == EVIDENCE:
        return evidence_alpha(X, codes, K, basis, standardize)
    return fit_laplace(X, codes, K, alpha, basis, standardize)


def evidence_fit(X, labels, params: dict) -> Laplace:
    """The Laplace fit at the alpha of largest evidence for points X with labels (the classes present, in
    order), with the basis and standardization of logistic regression's ``params``; a ValueError without
    two classes. The window's "Choose α by the evidence" and ``--alpha evidence``."""
    present = np.unique(labels)
    if len(present) < 2:
        raise ValueError("the evidence needs points of two classes or more")
    return evidence_alpha(X, np.searchsorted(present, labels), len(present), params["basis"], params["standardize"])


def basis_evidence(X, codes, K: int, alpha: float | str, standardize: bool = True) -> dict:
    """Each basis's evidence (eq. 4.137) and BIC (eq. 4.139), at ``alpha`` or at its own best alpha: which
    model do the data support."""
    out = {}
    for basis in BASES:
        lap = bayes_fit(X, codes, K, alpha, basis, standardize)
        out[basis] = {"alpha": lap.alpha, "log_evidence": lap.total_log_evidence, "bic": lap.total_bic,
                      "effective_parameters": lap.total_gamma}
    return out


def _per_problem(values, K):
    """Two classes: the one problem's value; K > 2: one per class (one-vs-rest)."""
    values = [v.tolist() if isinstance(v, np.ndarray) else float(v) for v in values]
    return values[0] if K == 2 else values


def bayes_json(lap: Laplace, alpha_given: float | str, class_names) -> dict:
    """The "bayes" object of ``probviz fit --bayes --json``: the fitted features' frame, w_MAP and S_N on them
    (the bias first), the evidence, BIC and the effective number of parameters. Two classes: one problem,
    p(class 2|x) = sigma(w^T phi); K > 2: lists over the one-vs-rest problems, in the order of ``problems``."""
    out = {
        "alpha": lap.alpha,
        "alpha_from": "evidence" if alpha_given == EVIDENCE else "given",
        "center": lap.center.tolist(),
        "scale": lap.scale.tolist(),
        "w_map": _per_problem(lap.w_map, lap.K),
        "posterior_cov": _per_problem(lap.cov, lap.K),
        "log_evidence": lap.total_log_evidence,
        "bic": lap.total_bic,
        "log_likelihood": float(np.sum(lap.log_likelihood)),
        "effective_parameters": lap.total_gamma,
        "converged": lap.converged,
    }
    if lap.K > 2:
        out["problems"] = [f"{n} against the rest" for n in class_names]
        out["log_evidence_each"] = lap.log_evidence.tolist()
    else:
        out["positive_class"] = class_names[1]
    return out


def query_json(points: np.ndarray, model, lap: Laplace | None) -> list[dict]:
    """The "query" list: each point's plug-in posterior (``model``'s, or w_MAP's with the Bayesian view) and,
    with ``lap``, mu_a, sigma_a^2 (eqs. 4.149-4.150), the moderated (eq. 4.155) and the exact (eq. 4.151)
    predictive probabilities. Two classes: mu_a and sigma2_a of the one activation; K > 2: one per class."""
    if lap is None:
        P = model.predict_proba(points)
        return [{"x": x.tolist(), "p_map": p.tolist()} for x, p in zip(points, P)]
    mu, var = lap.activation(points)
    P = {kind: lap.proba(points, kind) for kind in ("map", "moderated", "exact")}
    out = []
    for i, x in enumerate(points):
        out.append({"x": x.tolist(), "p_map": P["map"][i].tolist(),
                    "mu_a": _per_problem(mu[i], lap.K), "sigma2_a": _per_problem(var[i], lap.K),
                    "p_moderated": P["moderated"][i].tolist(), "p_exact": P["exact"][i].tolist()})
    return out


def basis_lines(alpha_given: float | str, bases: dict) -> list[str]:
    """How alpha was chosen, and each basis's evidence beside the others (which model do the data support)."""
    lines = ["α chosen by the evidence: its maximum over α"] if alpha_given == EVIDENCE else []
    return lines + ["evidence by basis: " + ", ".join(
        f"{name} {v['log_evidence']:.2f} (α {v['alpha']:.3g})" for name, v in bases.items())]


def query_lines(rows: list[dict], class_names) -> list[str]:
    """One line a query point: its plug-in posterior, and with the Bayesian view the predictive ones."""
    out = []
    for r in rows:
        x = f"({r['x'][0]:.6g}, {r['x'][1]:.6g})"
        parts = [f"p_MAP {_probs(r['p_map'], class_names)}"]
        if "p_moderated" in r:
            parts.append(f"moderated {_probs(r['p_moderated'], class_names)}")
            parts.append(f"exact {_probs(r['p_exact'], class_names)}")
            parts.append(f"μ_a {_nums(r['mu_a'])}, σ_a² {_nums(r['sigma2_a'])}")
        out.append(f"x = {x}: " + "; ".join(parts))
    return out


def _probs(p, names) -> str:
    return ", ".join(f"p({n}|x) = {v:.6g}" for n, v in zip(names, p))


def _nums(v) -> str:
    return f"{v:.6g}" if isinstance(v, float) else "(" + ", ".join(f"{u:.6g}" for u in v) + ")"


# --- the command line's --bayes, --alpha (probviz fit and probviz export) -----------------------------

def training_points(session):
    """The points a fit sees: all of them, or those a session's split leaves for training."""
    from probviz.snapshot import from_session

    data = session.dataset
    held = from_session(session).held_out()
    if held is None or not held.any():
        return data.X, data.labels
    return data.X[~held], data.labels[~held]


def bayes_overrides(args, session, name: str, overrides: dict):
    """--bayes [--alpha A | evidence] as model parameters (``overrides`` gains bayes and alpha); returns the
    alpha asked for ("evidence" or the number used), or None without --bayes. ValueError for a bad request."""
    from probviz.models import info

    if not args.bayes:
        if args.alpha is not None:
            raise ValueError("--alpha needs --bayes")
        return None
    if name != "logistic":
        raise ValueError(f"--bayes is the Bayesian view of logistic regression: add --model logistic "
                         f"(the model is {name})")
    params = {**info(name).defaults(), **session.params.get(name, {}), **overrides}
    asked = parse_alpha(args.alpha) if args.alpha is not None else float(params["alpha"])
    if asked == EVIDENCE:
        try:
            alpha = float(evidence_fit(*training_points(session), params).alpha)
        except ValueError as e:
            raise ValueError(f"--alpha evidence: {e}") from None
    else:
        alpha = float(asked)
    overrides.update(bayes=True, alpha=alpha)
    return EVIDENCE if asked == EVIDENCE else alpha
