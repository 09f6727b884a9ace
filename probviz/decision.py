"""The decision stage and how good a decision is (Bishop 1.5): loss matrices, the confusion matrix and the
expected loss on labelled points and under a known truth, the Bayes risk, the Brier score, ROC and
precision-recall curves, and calibration.

Pure numpy/scipy, no Qt. Under the truth everything is an integral over the plane, taken by the same
line-by-line integration as the true error (:mod:`probviz.models.truth`): on each vertical line the
decision changes at a few points, and each class's mass between them is a sum of normal CDF differences.
Where the decision is not an argmax of the model's polynomial scores (a loss matrix, a rejection cost)
those points are bracketed on a grid along the line (every Gaussian component's +-10 standard
deviations, 81 points each) and solved (regula falsi on the difference of two expected losses) to 1e-13
of the narrowest component's standard deviation; a change of decision and back inside one grid step (a
sliver narrower than a quarter of a standard deviation) can be missed. ROC curves under the truth find
the crossings of each threshold the same way.
"""

from __future__ import annotations

import math

import numpy as np
from probviz.special import ndtr

from probviz.models.base import map_decisions
from probviz.models.truth import Truth, _bayes_cuts, _line_log_joints, integrate_confusion, model_cuts

#: grid points per Gaussian component along a line, over its +-10 standard deviations
LINE_GRID = 81
#: the crossings are solved to this fraction of the narrowest component's standard deviation on the line
CUT_TOLERANCE = 1e-13


# --- loss matrices (Bishop 1.5.2) ---------------------------------------------------------

def parse_loss(text: str, K: int) -> np.ndarray:
    """The loss matrix written "0,1;5,0": rows the truth C_k, columns the choice C_j, L_kj the loss of
    choosing C_j when the truth is C_k (eq. 1.80). K x K finite non-negative numbers; a ValueError
    names what is wrong."""
    rows = [r for r in str(text).split(";")]
    try:
        values = [[float(v) for v in r.split(",")] for r in rows]
    except ValueError:
        raise ValueError(f"the loss matrix must be numbers, commas between them and semicolons between "
                         f"rows (such as 0,1;5,0), got {text!r}") from None
    if len(values) != K or any(len(r) != K for r in values):
        raise ValueError(f"the loss matrix needs {K} rows of {K} numbers (one row per true class), got "
                         f"{len(values)} rows of {', '.join(str(len(r)) for r in values)}")
    L = np.array(values, dtype=float)
    if not np.all(np.isfinite(L)):
        raise ValueError("the loss matrix's numbers must be finite")
    if np.any(L < 0):
        raise ValueError("the loss matrix's numbers must not be negative")
    return L


def zero_one_loss(K: int) -> np.ndarray:
    """L_kj = 1 for a wrong choice, 0 for the right one: its decision is the largest posterior (eq. 1.78)."""
    return 1.0 - np.eye(K)


def _check_loss(L, K: int) -> np.ndarray:
    L = np.asarray(L, dtype=float)
    if L.shape != (K, K):
        raise ValueError(f"the loss matrix needs {K} rows of {K} numbers, got shape {L.shape}")
    return L


def _argmax_like(L: np.ndarray) -> bool:
    """Whether argmin_j sum_k L_kj p_k is argmax_k p_k for every p: equal off-diagonal losses above equal
    diagonal ones (the expected loss of C_j is then c - (c - d) p_j)."""
    K = len(L)
    off = L[~np.eye(K, dtype=bool)]
    d = np.diag(L)
    return K < 2 or (np.all(off == off[0]) and np.all(d == d[0]) and off[0] > d[0])


def loss_decide(P, L, reject_cost=None) -> np.ndarray:
    """The choice that minimises the expected loss, argmin_j sum_k L_kj p(C_k|x) (eq. 1.81), for each row of
    the posteriors P (N, K); -1 (reject) where the smallest expected loss exceeds ``reject_cost`` (the
    rejection cost lambda, Bishop exercise 1.24: with the 0-1 loss that is max_k p(C_k|x) < 1 - lambda, the
    reject option of Bishop 1.5.3). Ties go to the first class."""
    P = np.atleast_2d(np.asarray(P, dtype=float))
    L = _check_loss(L, P.shape[1])
    R = P @ L  # R[n, j] = sum_k p(C_k|x_n) L_kj
    d = np.argmin(R, axis=1)
    if reject_cost is not None:
        d = np.where(R[np.arange(len(R)), d] > reject_cost, -1, d)
    return d


def point_losses(decisions, codes, L, reject_cost=None) -> np.ndarray:
    """The loss of each decision against its point's class: L[t_n, d_n], the rejection cost for -1 (no
    decision); without one, a point left undecided (a tie) costs its class's largest loss, as an error."""
    d, t = np.asarray(decisions), np.asarray(codes)
    L = np.asarray(L, dtype=float)
    out = L[t, np.maximum(d, 0)]
    return np.where(d >= 0, out, L[t].max(axis=1) if reject_cost is None else reject_cost)


def expected_loss(decisions, codes, L, reject_cost=None) -> float:
    """The average loss per point of ``decisions`` on labelled points (eq. 1.80 with the points' empirical
    distribution)."""
    losses = point_losses(decisions, codes, L, reject_cost)
    return float(np.mean(losses)) if len(losses) else math.nan


def confusion_counts(decisions, codes, K: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts C[k, j] of points of class k given class j (rows the truth, columns the decision), and per
    class how many got no decision (-1)."""
    d, t = np.asarray(decisions, dtype=int), np.asarray(codes, dtype=int)
    C = np.zeros((K, K), dtype=int)
    np.add.at(C, (t[d >= 0], d[d >= 0]), 1)
    return C, np.bincount(t[d < 0], minlength=K)


# --- a fitted model's posterior and decision in the truth's (the data's) classes ---------------

def _index(model, class_index) -> np.ndarray:
    return np.arange(len(model.classes_)) if class_index is None else np.asarray(class_index, dtype=int)


def model_posterior(model, X, class_index=None, K: int | None = None) -> np.ndarray:
    """p(C_k|x) of a fitted model in K classes (N, K): column ``class_index[i]`` is the model's class i
    (default the same order); a class the model never saw has probability 0."""
    idx = _index(model, class_index)
    K = len(idx) if K is None else K
    if not getattr(model, "probabilistic", True):
        raise ValueError(f"{model.label} gives no p(C_k|x) (Bishop 4.1): a loss matrix needs probabilities")
    P = np.zeros((len(np.atleast_2d(X)), K))
    P[:, idx] = model.predict_proba(X)
    return P


def model_decide(model, X, class_index=None, K: int | None = None, L=None, reject_cost=None) -> np.ndarray:
    """The decision of a fitted model at each row of X, in K classes: the largest score (the MAP rule, -1 where
    two classes share it; a discriminant function's own rule, -1 where it is undecided) without a loss matrix
    and rejection cost, else :func:`loss_decide` on its posterior."""
    idx = _index(model, class_index)
    K = len(idx) if K is None else K
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if reject_cost is None and (L is None or _argmax_like(np.asarray(L, dtype=float))):
        d = model.decide(X) if hasattr(model, "decide") else map_decisions(model, X)
        return np.where(d >= 0, idx[np.maximum(d, 0)], -1)
    P = model_posterior(model, X, idx, K)
    return loss_decide(P, zero_one_loss(K) if L is None else L, reject_cost)


# --- under the truth, exactly -----------------------------------------------------------------

def _line_grid(line) -> np.ndarray:
    _, _, m, s = line
    z = np.linspace(-10.0, 10.0, LINE_GRID)
    return np.unique((m[:, None] + s[:, None] * z).ravel())


def _extended(R: np.ndarray, reject_cost) -> np.ndarray:
    """Expected losses (N, K) with the rejection cost as a last column (infinite without one)."""
    return np.column_stack([R, np.full(len(R), np.inf if reject_cost is None else float(reject_cost))])


def _choice(R: np.ndarray) -> np.ndarray:
    """argmin over the columns of ``_extended`` losses, the last one (reject) as -1: :func:`loss_decide`'s
    rule (reject only when every class's expected loss exceeds the cost)."""
    d = np.argmin(R, axis=1)
    return np.where(d == R.shape[1] - 1, -1, d)


def decision_changes(truth: Truth, a: float, risks_on) -> np.ndarray:
    """x2 values on x1 = a where the choice of least expected loss changes. ``risks_on(a)`` gives a function
    of x2 on that line: the extended expected losses (N, K + 1) there. Changes are bracketed on a grid over
    every component's mass on the line; in each bracket the difference of the two choices' expected losses
    (continuous) is solved to 1e-13 of the narrowest component's standard deviation."""
    line = truth._line(a)
    xs = _line_grid(line)
    risks = risks_on(a)
    d = np.argmin(risks(xs), axis=1)
    at = np.flatnonzero(d[1:] != d[:-1])
    if not len(at):
        return np.empty(0)
    j, k = d[at], d[at + 1]  # g = R_j - R_k: <= 0 at the left end, >= 0 at the right one

    def gap(x, which):
        Rx = risks(x)
        r = np.arange(len(x))
        g = Rx[r, j[which]] - Rx[r, k[which]]
        return np.where(np.isfinite(g), g, np.where(np.argmin(Rx, axis=1) == j[which], -1.0, 1.0))

    return _solve(gap, xs[at], xs[at + 1], CUT_TOLERANCE * float(np.min(line[3])))


def _solve(gap, lo, hi, tol: float, iterations: int = 100) -> np.ndarray:
    """Roots of continuous functions in brackets, all at once: ``gap(x, which)`` of the brackets ``which``
    is <= 0 at ``lo`` and >= 0 at ``hi``. Regula falsi with the Illinois modification (superlinear; the
    bracket always holds the root), to ``tol``."""
    every = np.arange(len(lo))
    g_lo, g_hi = gap(lo, every), gap(hi, every)
    g_lo, g_hi = np.minimum(g_lo, 0.0), np.maximum(g_hi, 0.0)
    x = 0.5 * (lo + hi)
    last = np.zeros(len(lo), dtype=int)  # which end moved last: -1 left, +1 right
    for _ in range(iterations):
        with np.errstate(divide="ignore", invalid="ignore"):
            new = hi - g_hi * (hi - lo) / (g_hi - g_lo)
        new = np.where(np.isfinite(new) & (new > lo) & (new < hi), new, 0.5 * (lo + hi))
        done = (np.abs(new - x) <= tol) | (hi - lo <= tol)
        x = new
        if done.all():
            break
        g = gap(x, every)
        left = g <= 0
        g_hi = np.where(left & (last == -1), 0.5 * g_hi, g_hi)
        g_lo = np.where(~left & (last == 1), 0.5 * g_lo, g_lo)
        lo, g_lo = np.where(left, x, lo), np.where(left, g, g_lo)
        hi, g_hi = np.where(left, hi, x), np.where(left, g_hi, g)
        last = np.where(left, -1, 1)
    return x


def _model_risks(model, idx, K: int, L, reject_cost):
    L = zero_one_loss(K) if L is None else _check_loss(L, K)
    return lambda X: _extended(model_posterior(model, X, idx, K) @ L, reject_cost)


def confusion_true(truth: Truth, model, class_index=None, L=None, reject_cost=None, cancelled=None) -> np.ndarray:
    """C[k, j] = P(truth C_k, decision C_j) = the integral over R_j of p(x|C_k) p(C_k) (Bishop 1.5.1) for
    a fitted model's decision (the MAP rule, or with the loss matrix L and the rejection cost), (K, K + 1):
    the last column the mass left without a decision. Rows sum to the priors."""
    K = truth.K
    idx = _index(model, class_index)

    if reject_cost is None and (L is None or _argmax_like(np.asarray(L, dtype=float))):
        return integrate_confusion(truth, lambda a: model_cuts(model, a),
                                   lambda X: model_decide(model, X, idx, K), cancelled)
    risks = _model_risks(model, idx, K, L, reject_cost)

    def risks_on(a):
        return lambda x2: risks(np.column_stack([np.full(len(x2), a), x2]))

    return integrate_confusion(truth, lambda a: decision_changes(truth, a, risks_on),
                               lambda X: _choice(risks(X)), cancelled)


def bayes_decide(truth: Truth, X, L=None, reject_cost=None) -> np.ndarray:
    """The decision that minimises the expected loss under the truth's own posterior (eq. 1.81; the largest
    posterior with the 0-1 loss, eq. 1.78)."""
    P = truth.posterior(X)
    return loss_decide(P, zero_one_loss(truth.K) if L is None else L, reject_cost)


def _class_weights(L: np.ndarray) -> np.ndarray | None:
    """w with L_kj = L_kk + w_k for every j != k (every two-class loss is so), else None: the expected loss of
    C_j is then sum_k L_kk p_k + sum_k w_k p_k - w_j p_j, and its argmin is argmax_j w_j p(C_j|x)."""
    w = L - np.diag(L)[:, None]
    off = ~np.eye(len(L), dtype=bool)
    rows = np.where(off, w, np.nan)
    if len(L) < 2 or not np.all(np.nanmax(rows, axis=1) == np.nanmin(rows, axis=1)):
        return None
    return np.nanmax(rows, axis=1)


def bayes_confusion(truth: Truth, L=None, reject_cost=None, cancelled=None) -> np.ndarray:
    """The confusion (K, K + 1) of the Bayes decision under the truth (as :func:`confusion_true`). A loss
    with L_kj = L_kk + w_k (w > 0; any two-class loss with both mistakes costly) decides by the largest
    w_k p(x, C_k): for a mixture truth, the Bayes decision of the truth with priors proportional to
    w_k p(C_k), whose cuts are then used; the masses stay the truth's."""
    if (L is None or _argmax_like(np.asarray(L, float))) and reject_cost is None:
        return integrate_confusion(truth, lambda a: _bayes_cuts(truth, a),
                                   lambda X: np.argmax(truth.log_joint(X), axis=1), cancelled)
    # single Gaussians keep the general route: the tilted truth's quadratic roots lose digits far from the origin
    w = None if reject_cost is not None or truth.single else _class_weights(_check_loss(L, truth.K))
    if w is not None and np.all(w > 0):
        scaled = truth.priors * (w / w.max())
        if np.all(scaled > 0):
            tilted = Truth(scaled / scaled.sum(), truth.weights, truth.means, truth.covariances)
            return integrate_confusion(truth, lambda a: _bayes_cuts(tilted, a),
                                       lambda X: np.argmax(tilted.log_joint(X), axis=1), cancelled)

    L = zero_one_loss(truth.K) if L is None else _check_loss(L, truth.K)

    def risks(X):
        return _extended(truth.posterior(X) @ L, reject_cost)

    def risks_on(a):  # the line's components once: the truth's posterior at many x2 in a few array operations
        line = truth._line(a)

        def on_line(x2):
            A = _line_log_joints(truth, line, x2)
            P = np.exp(A - A.max(axis=1, keepdims=True))
            return _extended((P / P.sum(axis=1, keepdims=True)) @ L, reject_cost)
        return on_line

    return integrate_confusion(truth, lambda a: decision_changes(truth, a, risks_on),
                               lambda X: _choice(risks(X)), cancelled)


def loss_of_confusion(C, L, reject_cost=None) -> float:
    """sum_kj L_kj C_kj (eq. 1.80) from a confusion of proportions (K, K) or (K, K + 1), the last column
    (no decision) costing the rejection cost; without one, mass left undecided (a tie) costs its class's
    largest loss, as an error."""
    C = np.asarray(C, dtype=float)
    K = len(C)
    L = _check_loss(L, K)
    value = float(np.sum(L * C[:, :K]))
    if C.shape[1] > K and C[:, K].any():
        value += float(C[:, K].sum() * reject_cost) if reject_cost is not None else float(L.max(axis=1) @ C[:, K])
    return value


def bayes_risk(truth: Truth, L=None, reject_cost=None, cancelled=None) -> float:
    """The least expected loss any decision can have: the integral of min_j sum_k L_kj p(x, C_k) (Bishop
    1.5.2; with a rejection cost the integrand is also at most lambda p(x)). With the 0-1 loss it is the
    Bayes error."""
    L = zero_one_loss(truth.K) if L is None else L
    return loss_of_confusion(bayes_confusion(truth, L, reject_cost, cancelled), L, reject_cost)


def brier_true(truth: Truth, model, class_index=None, nodes: int = 40, most: int = 160) -> float:
    """The Brier score under the truth, E[sum_k (p_k(x) - [t = k])^2] over (x, t) drawn from it: per
    Gaussian component a tensor Gauss-Hermite rule in its whitened coordinates, the nodes doubled until two
    rules agree to 1e-12 (at most ``most`` a side)."""
    K = truth.K
    idx = _index(model, class_index)
    z, w = np.polynomial.hermite.hermgauss(nodes)
    previous = None
    while True:
        Z = np.stack(np.meshgrid(z, z), axis=-1).reshape(-1, 2) * math.sqrt(2.0)
        W = np.outer(w, w).ravel() / math.pi
        total = 0.0
        for k in range(K):
            for weight, mu, S in zip(truth.weights[k], truth.means[k], truth.covariances[k]):
                X = mu + Z @ np.linalg.cholesky(S).T
                P = model_posterior(model, X, idx, K)
                P[:, k] -= 1.0
                total += truth.priors[k] * weight * float(W @ np.einsum("nk,nk->n", P, P))
        if previous is not None and (abs(total - previous) <= 1e-12 or nodes >= most):
            return total
        previous, nodes = total, nodes * 2
        z, w = np.polynomial.hermite.hermgauss(nodes)


# --- what `probviz fit` reports -------------------------------------------------------------------

def fit_report(model, X, codes, K: int, truth: Truth | None = None, L=None, reject_cost=None,
               cancelled=None) -> dict:
    """The decision's numbers for ``probviz fit`` and the window's ROC dialog: on the labelled points X (codes
    in K classes) the confusion counts (rows the truth, columns the decision) and, with a loss matrix, the loss
    per point; with a truth the confusion in proportions, the expected loss and the Bayes risk under it, and
    the Brier score under it (None for a discriminant function, which has no p(C_k|x)). ``reject_cost``: no
    decision where the least expected loss exceeds it (counted in the "undecided" entries, costing it);
    ``cancelled`` stops the truth's integrals."""
    idx = np.asarray(model.classes_, dtype=int)
    if L is not None and not _argmax_like(np.asarray(L, dtype=float)) and not getattr(model, "probabilistic", True):
        raise ValueError(f"{model.label} gives no p(C_k|x) (Bishop 4.1), so it cannot weigh a loss matrix; "
                         "pick a probabilistic model")
    if reject_cost is not None and not getattr(model, "probabilistic", True):
        raise ValueError(f"{model.label} gives no p(C_k|x) (Bishop 4.1), so it has no reject option")
    decided = model_decide(model, X, idx, K, L, reject_cost)
    out = {} if reject_cost is None else {"reject_cost": float(reject_cost)}
    if L is not None:
        out["loss"] = np.asarray(L, dtype=float).tolist()
        out["expected_loss"] = expected_loss(decided, codes, L, reject_cost) if len(X) else None
    C, undecided = confusion_counts(decided, codes, K)
    out["confusion"] = C.tolist()
    if undecided.any():
        out["confusion_undecided"] = undecided.tolist()
    if truth is None:
        return out
    Ct = confusion_true(truth, model, idx, L, reject_cost, cancelled)
    if L is not None:
        out["expected_loss_true"] = loss_of_confusion(Ct, L, reject_cost)
        out["bayes_risk"] = bayes_risk(truth, L, reject_cost, cancelled)
    out["confusion_true"] = Ct[:, :K].tolist()
    if Ct[:, K].any():
        out["confusion_true_undecided"] = Ct[:, K].tolist()
    out["brier_true"] = brier_true(truth, model, idx) if getattr(model, "probabilistic", True) else None
    return out


def report_lines(report: dict, names) -> list[str]:
    """``fit_report`` as the text lines of ``probviz fit``."""
    def matrix(M, fmt):
        return "; ".join(f"{n}: " + " ".join(format(v, fmt) for v in row) for n, row in zip(names, M))

    lines = []
    if "loss" in report:
        lines.append(f"loss matrix (rows the truth, columns the choice): {matrix(report['loss'], 'g')}")
        lines.append(f"expected loss on the training points: {report['expected_loss']:.4g} per point")
    if "reject_cost" in report:
        lines.append(f"reject option: no decision where the least expected loss exceeds {report['reject_cost']:g}")
    lines.append(f"confusion on the training points (rows the truth, columns the decision): "
                 f"{matrix(report['confusion'], 'd')}")
    if "confusion_undecided" in report:
        lines.append("no decision on the training points: " + ", ".join(
            f"{n} {int(v)}" for n, v in zip(names, report["confusion_undecided"])))
    if "confusion_true" in report:
        lines.append(f"confusion under the truth (proportions): {matrix(report['confusion_true'], '.4f')}")
        if "confusion_true_undecided" in report:
            lines.append("no decision under the truth (proportions): " + ", ".join(
                f"{n} {v:.4f}" for n, v in zip(names, report["confusion_true_undecided"])))
        if "expected_loss_true" in report:
            lines.append(f"expected loss under the truth: {report['expected_loss_true']:.4g}; "
                         f"Bayes risk of the truth: {report['bayes_risk']:.4g}")
        if report.get("brier_true") is not None:
            lines.append(f"Brier score under the truth: {report['brier_true']:.4g}")
    return lines


# --- ROC and precision-recall (two classes; one class against the rest for K > 2) ---------------------

def roc_points(scores, positive) -> dict:
    """The ROC of a score on labelled points: for every threshold t, TPR = the fraction of positives with
    score >= t and FPR that of negatives, t running down the distinct scores (a tie moves the curve
    diagonally), from (0, 0) to (1, 1). The AUC (trapezoids) is the Mann-Whitney statistic
    U / (n_pos n_neg), ties counted one half. Precision TP / (TP + FP) beside each recall (= TPR) but the
    first."""
    s = np.asarray(scores, dtype=float)
    pos = np.asarray(positive, dtype=bool)
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    if n_pos == 0 or n_neg == 0:
        raise ValueError("a ROC needs points of the chosen class and of the others")
    order = np.argsort(-s, kind="stable")
    s, pos = s[order], pos[order]
    tp, fp = np.cumsum(pos), np.cumsum(~pos)
    last = np.r_[np.flatnonzero(s[1:] != s[:-1]), len(s) - 1]  # the end of each group of equal scores
    tpr, fpr = np.r_[0.0, tp[last] / n_pos], np.r_[0.0, fp[last] / n_neg]
    return {"fpr": fpr.tolist(), "tpr": tpr.tolist(), "thresholds": s[last].tolist(), "auc": auc(fpr, tpr),
            "recall": tpr[1:].tolist(), "precision": (tp[last] / (tp[last] + fp[last])).tolist()}


def auc(fpr, tpr) -> float:
    """The area under a ROC through the points (fpr, tpr) in order, by trapezoids."""
    f, t = np.asarray(fpr, dtype=float), np.asarray(tpr, dtype=float)
    return float(np.sum(np.diff(f) * (t[1:] + t[:-1]) / 2))


def _log_odds(lp: np.ndarray, c: int) -> np.ndarray:
    """ln p_c - ln sum_{k != c} p_k from log-probabilities (N, K), shifted by the rest's largest."""
    rest = np.delete(lp, c, axis=1)
    if not rest.shape[1]:
        return np.full(len(lp), np.inf)
    top = rest.max(axis=1)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return lp[:, c] - (safe + np.log(np.exp(rest - safe[:, None]).sum(axis=1)))


def model_score(model, c: int, class_index=None):
    """The fitted score of class c against the rest, as a function of points: ln p(C_c|x) - ln sum_{k != c}
    p(C_k|x), a monotone function of p(C_c|x) (the same ROC) that keeps its resolution where p is within
    rounding of 0 or 1."""
    idx = _index(model, class_index)
    if not getattr(model, "probabilistic", True):
        raise ValueError(f"{model.label} gives no p(C_k|x) (Bishop 4.1): a ROC needs its probabilities")
    where = np.flatnonzero(idx == c)
    if not len(where):
        raise ValueError("the model was fitted without a point of the chosen class")
    return lambda X: _log_odds(model.predict_log_proba(np.asarray(X, dtype=float).reshape(-1, 2)), where[0])


def truth_score(truth: Truth, c: int):
    """The true posterior's score of class c against the rest, ln p(x, C_c) - ln sum_{k != c} p(x, C_k)."""
    return lambda X: _log_odds(truth.log_joint(X), c)


#: at most this many pieces of x1 in a ROC's integral: a threshold whose region {score > t} is an island
#: narrower than the grid's step on some lines (the extreme thresholds) makes the integrand jump there, and the
#: adaptive rule would otherwise split without end chasing a mass of about the island's
ROC_INTERVALS = 60


def roc_thresholds(truth: Truth, score, c: int, n: int = 100, draws: int = 40_000) -> np.ndarray:
    """Where to evaluate a ROC under the truth: ``n`` + 1 quantiles of the score among each side's points of
    a fixed draw from the truth (seed 0), so the points are spread along the whole curve."""
    X, y = truth.sample(draws, seed=0)
    s = score(X)
    q = np.linspace(0.0, 1.0, n + 1)
    out = []
    for side in (y == c, y != c):
        v = s[side & np.isfinite(s)]
        if len(v):
            out.append(np.quantile(v, q))
    return np.unique(np.concatenate(out)) if out else np.zeros(1)


def roc_true(truth: Truth, score, c: int, thresholds=None, cancelled=None, score_on=None) -> dict:
    """The ROC of ``score`` (points -> numbers) under the truth, class c against the rest: at each threshold
    t, TPR = P(score > t | C_c) and FPR = P(score > t | not C_c), each the truth's mass of {score > t},
    integrated line by line (x1 = a): the crossings of t on the line are bracketed on a grid over the
    components' mass and solved by regula falsi, and the mass above t is then a sum of normal tails (exact
    per threshold, to the integration's 1e-9 where it converges in ``ROC_INTERVALS`` pieces of x1).
    ``score_on(a, line)``, if given, is the score on the line x1 = a as a function of x2 (faster than
    ``score`` at points). The AUC is by trapezoids between the thresholds (by default
    :func:`roc_thresholds`, about 200 of them: to about 1e-4)."""
    if thresholds is None:
        thresholds = roc_thresholds(truth, score, c)
    tau = np.sort(np.asarray(thresholds, dtype=float))[::-1]  # descending: FPR and TPR ascending
    T = len(tau)

    def above(a: float) -> np.ndarray:
        if cancelled is not None and cancelled():
            from probviz.models.truth import Cancelled

            raise Cancelled
        line = truth._line(a)
        cls, log_c, m, s = line
        w = np.exp(log_c)
        xs = _line_grid(line)
        on_line = score_on(a, line) if score_on is not None else \
            (lambda x2: score(np.column_stack([np.full(len(x2), a), x2])))
        A = on_line(xs)[None, :] > tau[:, None]  # (T, grid)
        ti, gi = np.nonzero(A[:, 1:] != A[:, :-1])
        was = A[ti, gi]
        sign = np.where(was, -1.0, 1.0)  # sign (score - t) is <= 0 at each bracket's left end
        x = _solve(lambda x2, which: sign[which] * (on_line(x2) - tau[ti[which]]), xs[gi], xs[gi + 1],
                   CUT_TOLERANCE * float(np.min(s)))
        tails = ndtr(-(x[:, None] - m) / s) * w  # (crossings, components): mass above x
        step = np.where(was, -1.0, 1.0)  # leaving {score > t} going up the line, or entering it
        out = []
        for side in (cls == c, cls != c):
            total = float(w[side].sum())
            out.append(A[:, 0] * total + np.bincount(ti, weights=step * tails[:, side].sum(axis=1), minlength=T))
        return np.concatenate(out)

    from probviz.models.truth import _breakpoints
    from scipy import integrate

    lo, hi, points = _breakpoints(truth)
    value, _ = integrate.quad_vec(above, lo, hi, points=points, limit=ROC_INTERVALS, epsabs=1e-9, epsrel=1e-7,
                                  norm="max")
    p = float(truth.priors[c])
    tpr = np.clip(value[:T] / p, 0.0, 1.0)
    fpr = np.clip(value[T:] / (1.0 - p), 0.0, 1.0) if p < 1 else np.zeros(T)
    tpr, fpr = np.r_[0.0, tpr, 1.0], np.r_[0.0, fpr, 1.0]
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = p * tpr[1:-1] / (p * tpr[1:-1] + (1 - p) * fpr[1:-1])
    return {"fpr": fpr.tolist(), "tpr": tpr.tolist(), "thresholds": tau.tolist(), "auc": auc(fpr, tpr),
            "recall": tpr[1:-1].tolist(), "precision": [None if not np.isfinite(v) else float(v) for v in precision]}


def bayes_roc(truth: Truth, c: int, thresholds=None, cancelled=None) -> dict:
    """The Bayes-optimal ROC: that of the true posterior p(C_c|x), which no score beats at any FPR
    (Neyman-Pearson)."""
    def on_line(a, line):
        return lambda x2: _log_odds(_line_log_joints(truth, line, x2), c)

    return roc_true(truth, truth_score(truth, c), c, thresholds, cancelled, on_line)


# --- calibration ---------------------------------------------------------------------------------

def reliability(p, hit, bins: int = 10, p_true=None) -> dict:
    """A reliability diagram's numbers: the fitted probabilities ``p`` of one class at labelled points
    (``hit`` whether each point is of that class) in ``bins`` bins of equal width on [0, 1] (bin b holds
    edges[b] <= p < edges[b + 1], the last one also p = 1): per bin the count, the mean p and the frequency
    of the class, and with ``p_true`` (the true posterior at the points) its mean. The expected calibration
    error is sum_b (n_b / N) |frequency_b - mean p_b|; against the truth, sum_b (n_b / N) |mean p_true_b -
    mean p_b| and the mean of |p - p_true| over the points."""
    p = np.asarray(p, dtype=float)
    hit = np.asarray(hit, dtype=float)
    if not len(p):
        raise ValueError("calibration needs labelled points")
    edges = np.linspace(0.0, 1.0, bins + 1)
    b = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, bins - 1)
    counts = np.bincount(b, minlength=bins)

    def means(v):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.bincount(b, weights=v, minlength=bins) / counts

    mean_p, freq = means(p), means(hit)
    used = counts > 0
    out = {"edges": edges.tolist(), "count": counts.tolist(),
           "mean_p": [float(v) if u else None for v, u in zip(mean_p, used)],
           "frequency": [float(v) if u else None for v, u in zip(freq, used)],
           "ece": float(np.sum(counts[used] * np.abs(freq[used] - mean_p[used])) / len(p))}
    if p_true is not None:
        q = np.asarray(p_true, dtype=float)
        mean_q = means(q)
        out["mean_true"] = [float(v) if u else None for v, u in zip(mean_q, used)]
        out["ece_true"] = float(np.sum(counts[used] * np.abs(mean_q[used] - mean_p[used])) / len(p))
        out["mean_abs_error_true"] = float(np.mean(np.abs(p - q)))
    return out


def roc_report(model, X, labels, K: int, c: int, truth: Truth | None = None, cancelled=None,
               operating=None, held=None) -> dict:
    """Class c against the rest, for ``probviz roc`` and the window's ROC dialog: the fitted score's ROC on
    the labelled points X (``points``, with its ``n``), with a truth its ROC under the truth (``truth``) and
    the Bayes-optimal ROC (``bayes``), and the reliability of p(C_c|x) on the points (``calibration``).
    ``operating`` = (L, reject_cost): also the decision's operating point, (FPR, TPR) of "decides C_c", on the
    points (``operating_points``) and under the truth (``operating_truth``). ``held`` = (X, labels): points
    kept out of the fit, their ROC (``held``) and operating point (``operating_held``) beside the training
    points'. ``cancelled`` stops the integrals (:class:`probviz.models.truth.Cancelled`)."""
    idx = np.asarray(model.classes_, dtype=int)
    score = model_score(model, c, idx)
    positive = np.asarray(labels) == c
    out = {"points": roc_points(score(X), positive)}
    out["points"]["n"] = int(len(X))
    if held is not None:
        Xh, lh = held
        try:
            out["held"] = roc_points(score(Xh), np.asarray(lh) == c)
            out["held"]["n"] = int(len(Xh))
        except ValueError:  # too few held-out points: one class only
            held = None
    if operating is not None:
        L, reject_cost = operating
        out["operating_points"] = _operating(confusion_counts(model_decide(model, X, idx, K, L, reject_cost),
                                                              labels, K)[0], c)
        if held is not None:
            out["operating_held"] = _operating(confusion_counts(model_decide(model, Xh, idx, K, L, reject_cost),
                                                                lh, K)[0], c)
    if truth is not None:
        out["truth"] = roc_true(truth, score, c, cancelled=cancelled)
        out["bayes"] = bayes_roc(truth, c, cancelled=cancelled)
        if operating is not None:
            out["operating_truth"] = _operating(confusion_true(truth, model, idx, *operating, cancelled=cancelled), c)
    p = model_posterior(model, X, idx, K)[:, c]
    out["calibration"] = reliability(p, positive, p_true=None if truth is None else truth.posterior(X)[:, c])
    return out


def _operating(C, c: int) -> tuple[float, float]:
    """(FPR, TPR) of deciding class c, from a confusion matrix (rows the truth; a last column of no
    decision counts as not deciding c)."""
    C = np.asarray(C, dtype=float)
    pos = C[c].sum()
    neg = C.sum() - pos
    decided = C[:, c]
    return (float((decided.sum() - decided[c]) / neg) if neg > 0 else math.nan,
            float(decided[c] / pos) if pos > 0 else math.nan)


def json_safe(value):
    """``value`` with every non-finite float (an infinite threshold) as None, for strict JSON."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    return value


def roc_plot(result: dict) -> list:
    """The curves of a ``probviz roc`` result for a line plot: (label, fpr, tpr, colour, dashed)."""
    from probviz.colors import OKABE_ITO

    curves = [("chance", [0.0, 1.0], [0.0, 1.0], "#999999", True)]
    for i, (key, label) in enumerate((("points", "on the points"), ("truth", "under the truth"),
                                      ("bayes", "Bayes-optimal"))):
        if key in result:
            r = result[key]
            curves.append((f"{label}: AUC {r['auc']:.3f}", r["fpr"], r["tpr"], OKABE_ITO[i % len(OKABE_ITO)],
                           key == "bayes"))
    return curves
