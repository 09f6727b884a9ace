"""One safeguarded Newton driver for every discriminative fit, and the separation test.

The objectives are the penalised cross-entropies of Bishop (2006), eqs. 4.90 (two classes)
and 4.108 (K classes), plus (l2 / 2) times the squared weights (never the biases). Both are
convex, so a stationary point is the minimiser. The driver never trusts "the loop stopped":

* each step solves (H + lambda I) d = g, with lambda = 0 (a pure Newton / IRLS step, eq. 4.92)
  unless that step is not a descent direction or its line search fails; lambda then grows
  tenfold until a step descends (a Levenberg-Marquardt safeguard: large lambda is a short
  gradient step, so some step always descends away from the optimum);
* "converged" means the first-order optimality condition holds when the loop ends:
  max |dE/dw| <= gtol * sum_n max_f |phi_nf|, the largest gradient that rounding can leave
  standing in a sum of N such terms, times gtol; and the objective cannot fall by more than its
  own rounding: the Newton decrement g^T H^-1 g (twice its predicted fall to the optimum, the same
  in any frame of the features) is within it, or no step along the Newton direction lowers E. A small gradient alone is not enough: where the objective is nearly flat (a
  weak penalty on nearly separable classes) a gradient of 1e-10 can leave E 5x above its minimum.

Without a penalty the optimum exists only if no weight vector separates the classes
(Albert & Anderson 1984; Bishop 2006, section 4.3.2). :func:`separation` decides this by a
linear programme before any Newton step, so separable and quasi-separable data are named
as such instead of being "converged" at weights that merely grew large.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

GTOL = 1e-10
#: ln 2: a two-class term's loss at a = 0
LN2 = float(np.log(2.0))
_CHUNK = 65536


@dataclass
class NewtonResult:
    W: np.ndarray  # (K, F)
    steps: int
    converged: bool
    why: str = ""  # "" when converged, else "max_iter", "stalled", "separable", "quasi-separable"
    gradient: float = 0.0  # max |dE/dw| over the free weights at W, relative to the gradient scale


def ridge_matrix(l2: float, F: int, M: np.ndarray | None = None) -> np.ndarray:
    """The penalty (l2/2) ||w||^2 on the weights of the objective's features (never the bias),
    written as (1/2) v^T R v over the solver's own coefficients v, with u = v^T M the objective's
    coefficients (M the identity when the two frames are the same): R = l2 M D M^T, D = diag(0, 1, ...)."""
    D = np.diag(np.r_[0.0, np.ones(F - 1)])
    return l2 * (D if M is None else M @ D @ M.T)


class PointsProblem:
    """An objective over fixed points' features ``Phi`` (N, F): their products phi_n phi_n^T are made once, for
    every curvature of the fit (:func:`outer_products`)."""

    Phi: np.ndarray

    @cached_property
    def outer(self):
        return outer_products(self.Phi)


class Multinomial(PointsProblem):
    """E(W) = -sum_n ln softmax(Phi W^T)_{n, t_n} + (1/2) sum_k w_k^T R w_k (eq. 4.108 plus the penalty).

    Gradient (eq. 4.109) sum_n (y_nk - t_nk) phi_n + R w_k; Hessian (eq. 4.110)
    sum_n y_nk (I_kj - y_nj) phi_n phi_n^T, plus R in each diagonal block.
    """

    def __init__(self, Phi, codes, K, R):
        self.Phi, self.codes, self.K, self.R = Phi, np.asarray(codes), K, R
        self.cols = np.arange(len(codes))
        self.own = self.codes * len(self.codes) + self.cols  # (t_n, n) in a (K, N) array's flat index
        self.PhiT = np.ascontiguousarray(Phi.T)

    def _top(self, A):
        """The flat index (in A's own (K, N) order) of each column's largest entry, the first of equal ones.
        A column's entries are read by flat index: a pair of index arrays cost 8-11 us a use at N = 1,000."""
        return A.argmax(axis=0) * A.shape[1] + self.cols

    def zero_value(self) -> float:
        """E at W = 0, with no pass over the points: every posterior is 1/K, each point costs ln K."""
        return len(self.codes) * float(np.log(self.K))

    def value(self, W):
        """E and the posteriors P (K, N): classes first, so each sum over them adds K long rows."""
        A = W @ self.PhiT
        top = self._top(A)
        flat = A.ravel()
        m = flat[top]
        P = A - m
        np.exp(P, out=P)
        P.ravel()[top] = 0.0
        rest = P.sum(axis=0)  # Z = 1 + rest: ln Z = log1p(rest) keeps a loss far below eps
        P.ravel()[top] = 1.0
        P /= 1.0 + rest
        logp = flat[self.own] - m - np.log1p(rest)  # exact where P underflows
        E = -float(np.sum(logp)) + 0.5 * float(np.sum((W @ self.R) * W))
        return E, P

    def state(self, W):
        """What ``gradient`` and ``solve`` take at W: the posteriors P (K, N)."""
        return self.value(W)[1]

    def gradient(self, W, P):
        R = P.copy()  # y_nk - t_nk; at the target -sum_{j != t} y_nj, not y_nt - 1 (which rounds to eps)
        flat = R.ravel()
        flat[self.own] = 0.0
        flat[self.own] = -R.sum(axis=0)
        return R @ self.Phi + W @ self.R

    def hessian(self, W, P):
        """(K F, K F): H[(k,a),(j,b)] = sum_n P_nk (I_kj - P_nj) phi_na phi_nb + ridge."""
        return self.curvature(W, P) + np.kron(np.eye(self.K), self.R)

    def curvature(self, W, P):
        """The data term's Hessian (K F, K F), without the penalty: a sum over the points."""
        N, F = self.Phi.shape
        K = self.K
        # 1 - P_nk as the sum of the other classes' P: for the winning class P_nk - P_nk^2 would keep only
        # an absolute eps, as large as the whole curvature once every point is well classified
        O = 1.0 - P
        top = self._top(P)
        Q = P.copy()
        Q.ravel()[top] = 0.0
        O.ravel()[top] = Q.sum(axis=0)
        H = np.zeros((K * K, F * F))
        diag = np.arange(K)
        kept = self.outer
        for start in range(0, N, _CHUNK):
            p = P[:, start:start + _CHUNK]
            if kept is None:
                ph = self.Phi[start:start + _CHUNK]
                outer = (ph[:, :, None] * ph[:, None, :]).reshape(len(ph), F * F)
            else:
                outer = kept[start:start + _CHUNK]
            pp = p[:, None, :] * p[None, :, :]
            pp[diag, diag] = -p * O[:, start:start + _CHUNK]  # so that -pp holds P_nk (1 - P_nk) there
            H -= pp.reshape(K * K, -1) @ outer
        return H.reshape(K, K, F, F).transpose(0, 2, 1, 3).reshape(K * F, K * F)

    def solve(self, W, P, G, free, damping):
        """The step d (K, F) with (H + damping I) d = G on the free entries, zero elsewhere."""
        return self.direction(self.curvature(W, P), self.R, G, free, damping)

    @staticmethod
    def direction(C, R, G, free, damping=0.0):
        """d (K, F) with (C + R in each diagonal block + damping I) d = G on the free entries, zero elsewhere;
        C a curvature (K F, K F)."""
        K, F = G.shape
        H = C.copy()
        blocks = H.reshape(K, F, K, F)
        for k in range(K):  # (numpy's kron of the identity with R took longer than the solve)
            blocks[k, :, k, :] += R
        if free.all():
            H.ravel()[::K * F + 1] += damping
            return newton_solve(H, G.ravel()).reshape(G.shape)
        idx = np.flatnonzero(free.ravel())
        H = H[np.ix_(idx, idx)]
        H.ravel()[::len(idx) + 1] += damping
        d = np.zeros(G.size)
        d[idx] = newton_solve(H, G.ravel()[idx])
        return d.reshape(G.shape)


class Margins(NamedTuple):
    """A two-class problem's state at W: the activations A = Phi W^T (N, K), the signed ones s = (1 - 2t) a,
    and e = exp(-|s|), the one exponential that the value, the gradient and the curvature share."""
    A: np.ndarray
    s: np.ndarray
    e: np.ndarray


class BinaryBatch(PointsProblem):
    """K independent two-class problems (two classes: K = 1; one-vs-rest: one per class).

    E(W) = sum_k sum_n [softplus(a_nk) - t_nk a_nk] + (1/2) sum_k w_k^T R w_k, a = Phi W^T
    (eq. 4.90 plus the penalty); gradient Phi^T (y - t) (eq. 4.91), Hessian Phi^T diag(y (1 - y)) Phi
    (eq. 4.97) plus R: block-diagonal, so a step is K small solves. Targets t are 0 or 1: each term
    is then softplus(s) with s = (1 - 2t) a, and y - t = (1 - 2t) sigma(s), both exact however small
    (softplus(a) - a and sigma(a) - 1 would keep only an absolute eps when a point is well classified).
    All three come from e = exp(-|s|) (:class:`Margins`): softplus(s) = max(s, 0) + log1p(e), sigma(s) =
    1 / (1 + e) where s >= 0 and e / (1 + e) below, sigma(s) sigma(-s) = e / (1 + e)^2.
    """

    def __init__(self, Phi, T, R):
        self.Phi, self.T, self.R = Phi, np.asarray(T, dtype=float).reshape(len(Phi), -1), R
        self.sign = 1.0 - 2.0 * self.T

    def state(self, W) -> Margins:
        """What ``gradient`` and ``solve`` take at W."""
        A = self.Phi @ W.T
        s = self.sign * A
        e = np.abs(s)
        np.negative(e, out=e)
        np.exp(e, out=e)
        return Margins(A, s, e)

    def zero_value(self) -> float:
        """E at W = 0, with no pass over the points: each of the N K terms is softplus(0) = ln 2."""
        return self.T.size * LN2

    def value(self, W):
        m = self.state(W)
        E = float(np.sum(np.maximum(m.s, 0.0))) + float(np.sum(np.log1p(m.e)))
        return E + 0.5 * float(np.sum((W @ self.R) * W)), m

    def gradient(self, W, m: Margins):
        y = 1.0 + m.e
        np.reciprocal(y, out=y)  # sigma(|s|)
        np.multiply(y, m.e, out=y, where=m.s < 0)  # sigma(s) = e / (1 + e) below zero
        y *= self.sign
        return y.T @ self.Phi + W @ self.R

    def curvature(self, W, m: Margins):
        """The data term's Hessian per problem (K, F, F), without the penalty: Phi^T diag(y (1 - y)) Phi."""
        # sigma(a) sigma(-a) = e / (1 + e)^2: no cancellation
        return gram(self.Phi, m.e / np.square(1.0 + m.e), self.outer)

    def solve(self, W, m: Margins, G, free, damping):
        return self.direction(self.curvature(W, m), self.R, G, free, damping)

    @staticmethod
    def direction(C, R, G, free, damping=0.0):
        """d (K, F) with (C_k + R + damping I) d_k = G_k for each problem k (zero where not free); C (K, F, F)."""
        extra = R + damping * np.eye(G.shape[1])
        if free.all():
            return np.stack([newton_solve(C[k] + extra, G[k]) for k in range(len(G))])
        d = np.zeros(G.shape)
        for k, on in enumerate(free):  # the system on the free weights (a solve of all of them, then zeros where
            if on.any():  # not free, would not be the step of the weights that may move)
                d[k, on] = newton_solve((C[k] + extra)[np.ix_(on, on)], G[k, on])
        return d


#: the most entries of phi_n phi_n^T (N F^2) a problem keeps for its curvatures: 32 MiB
OUTER_MAX = 1 << 22


def outer_products(Phi):
    """phi_n phi_n^T for each row, flattened (N, F F): a problem's curvatures are then one matrix product
    each. None when that would hold more than OUTER_MAX numbers."""
    N, F = Phi.shape
    if N * F * F > OUTER_MAX:
        return None
    return (Phi[:, :, None] * Phi[:, None, :]).reshape(N, F * F)


def gram(Phi, weights, outer=None):
    """sum_n weights[n, k] phi_n phi_n^T for each column k: (K, F, F); ``outer`` the rows' products
    (:func:`outer_products`), when made, or None."""
    if outer is not None:
        F = Phi.shape[1]
        return (weights.T @ outer).reshape(weights.shape[1], F, F)
    return np.stack([(Phi * weights[:, k, None]).T @ Phi for k in range(weights.shape[1])])


def newton_solve(H, g):
    try:
        return np.linalg.solve(H, g)
    except np.linalg.LinAlgError:  # singular (a flat direction): the least-norm step
        return np.linalg.lstsq(H, g, rcond=None)[0]


def gradient_scale(Phi) -> float:
    """sum_n max_f |phi_nf|: the size of a gradient that is a sum of N per-point terms."""
    return float(np.sum(np.max(np.abs(Phi), axis=1))) if len(Phi) else 1.0


def newton(problem, W0, free, max_iter: int = 100, gtol: float = GTOL, stop=None, start=None) -> NewtonResult:
    """Minimise ``problem`` over the entries of W marked ``free`` (the others stay zero).

    ``stop(E, cache)``, if given, ends the loop early (used when no finite optimum exists);
    the result then says ``why`` and is not converged. ``start``: ``problem.value`` at W0, when the
    caller has it (W0 zero where not free).
    """
    W = np.where(free, W0, 0.0)
    scale = gradient_scale(problem.Phi)
    E, cache = problem.value(W) if start is None else start
    damping = 0.0
    for it in range(max_iter + 1):
        G = problem.gradient(W, cache) * free
        rel = float(np.max(np.abs(G))) / scale if G.size else 0.0
        if rel <= gtol and _at_minimum(problem, W, E, cache, G, free):
            return NewtonResult(W, it, True, "", rel)
        if stop is not None and stop(E, cache):
            return NewtonResult(W, it, False, "stopped", rel)
        if it == max_iter:
            break
        step = _descent_step(problem, W, E, cache, G, free, damping)
        if step is None:  # no step descends: rounding has the last word
            return NewtonResult(W, it, False, "stalled", rel)
        W, E, cache, damping = step
    return NewtonResult(W, max_iter, False, "max_iter", rel)


def newton_step(problem, W0, free) -> tuple[np.ndarray, float]:
    """One pure Newton step from W0 (eq. 4.92), unverified: (W, the step's largest entry). Started at the
    optimum of nearly the same objective (the fit before a point moved), it lands within the square of
    that distance of the new optimum (Newton's quadratic convergence); a draft while the hand moves, which
    :func:`newton` finishes once it rests. W0 itself when the step is not finite."""
    W0 = np.where(free, W0, 0.0)
    cache = problem.state(W0)
    G = problem.gradient(W0, cache) * free
    with np.errstate(invalid="ignore", over="ignore"):
        d = problem.solve(W0, cache, G, free, 0.0)
    if not np.all(np.isfinite(d)):
        return W0, 0.0
    return W0 - d, float(np.max(np.abs(d))) if d.size else 0.0


def _noise(E: float) -> float:
    """E's own rounding: a few ulps of it (its terms are positive, each computed to a few ulps)."""
    return 64 * np.finfo(float).eps * (abs(E) + 1e-300)


def _at_minimum(problem, W, E, cache, G, free) -> bool:
    """Whether E cannot fall by more than its rounding: the Newton decrement g^T H^-1 g is within
    it, or no step along the Newton direction (halved down to 1/1024 of it) lowers E by more (the
    decrement of a nearly singular H is itself mostly the gradient's rounding). A singular H whose
    solve is not finite: the gradient decides."""
    if not G.size or not np.any(G):
        return True
    with np.errstate(invalid="ignore", over="ignore"):
        d = problem.solve(W, cache, G, free, 0.0)
        decrement = float(np.sum(G * d))
    noise = _noise(E)
    if not np.isfinite(decrement) or decrement <= noise:
        return True
    return all(problem.value(W - 0.5 ** i * d)[0] >= E - noise for i in range(11))


def _descent_step(problem, W, E, cache, G, free, damping):
    """A step that lowers E by an Armijo fraction of its predicted decrease: Newton first,
    then ever more damped steps. Returns (W, E, cache, damping for the next step) or None."""
    diag = max(float(np.max(np.abs(G))), 1.0)
    lam = damping
    while lam <= 1e16 * diag:
        d = problem.solve(W, cache, G, free, lam)
        with np.errstate(invalid="ignore", over="ignore"):  # a singular solve: not finite, damped below
            decrement = float(np.sum(G * d))
        noise = _noise(E)
        if np.isfinite(decrement) and 0 < decrement <= noise:
            # within rounding of the optimum the Armijo test compares noise with noise: a full
            # Newton step, which converges quadratically there, is taken unless it clearly ascends
            Wn = W - d
            En, cn = problem.value(Wn)
            if En <= E + noise:
                return Wn, En, cn, 0.0
        if np.isfinite(decrement) and decrement > 0:
            t = 1.0
            for _ in range(40):
                Wn = W - t * d
                En, cn = problem.value(Wn)
                if En <= E - 1e-4 * t * decrement:
                    return Wn, En, cn, lam / 10.0 if lam > 1e-12 * diag else 0.0
                t *= 0.5
        lam = max(10.0 * lam, 1e-6 * diag)
    return None


# --- separation ---------------------------------------------------------------------

def separation(Phi, codes, K: int) -> str:
    """"" when a maximum-likelihood solution exists without a penalty; "separable" when some W puts
    every point strictly on its own side (complete separation); "quasi-separable" when some W
    puts every point on its side or on a boundary, and some strictly (quasi-complete separation).

    ``Phi`` should be well scaled (centred, unit-variance features, as the models pass it): the
    programme's tolerances are absolute. A linear programme over the direction V (K, F), |V| <= 1: the margins
    m_nj = phi_n^T (v_{t_n} - v_j) >= 0 for j != t_n; maximise their sum (any positive optimum
    is a direction along which the likelihood rises forever), then the smallest margin.
    """
    from scipy.optimize import linprog  # only unpenalised fits ask: loaded then, not at start-up

    codes = np.asarray(codes)
    N, F = Phi.shape
    if N == 0 or K < 2:
        return ""
    # rows: one per (n, j != t_n); columns: V flattened (K * F)
    rows_n = np.repeat(np.arange(N), K - 1)
    others = np.array([[j for j in range(K) if j != t] for t in codes]).ravel()
    M = np.zeros((len(rows_n), K * F))
    for f in range(F):
        M[np.arange(len(rows_n)), codes[rows_n] * F + f] += Phi[rows_n, f]
        M[np.arange(len(rows_n)), others * F + f] -= Phi[rows_n, f]
    scale = np.maximum(np.abs(M).max(axis=1, keepdims=True), 1e-300)
    M = M / scale  # each margin in units of its own row
    bounds = [(-1.0, 1.0)] * (K * F)
    res = linprog(-M.sum(axis=0), A_ub=-M, b_ub=np.zeros(len(M)), bounds=bounds, method="highs")
    if res.status != 0 or -res.fun <= 1e-7 * len(M):
        return ""
    # complete separation: maximise the smallest margin s, M V >= s
    c = np.r_[np.zeros(K * F), -1.0]
    A = np.hstack([-M, np.ones((len(M), 1))])
    res2 = linprog(c, A_ub=A, b_ub=np.zeros(len(M)), bounds=bounds + [(None, 1.0)], method="highs")
    return "separable" if res2.status == 0 and -res2.fun > 1e-7 else "quasi-separable"


# --- the log-sigmoid ---------------------------------------------------------------------------

def log1p_exp_neg_abs(a: np.ndarray) -> np.ndarray:
    """ln(1 + e^-|a|) in vectorised passes (np.log, not log1p: an absolute error below 1.2e-16)."""
    out = np.abs(a)
    np.negative(out, out=out)
    np.exp(out, out=out)
    out += 1.0
    return np.log(out, out=out)


def log_sigmoid(a: np.ndarray) -> np.ndarray:
    """ln sigma(a) = min(a, 0) - ln(1 + e^-|a|): finite for any a (no underflow to -inf), absolute
    error below 1.2e-16, several times faster than scipy's log_expit."""
    return np.minimum(a, 0.0) - log1p_exp_neg_abs(a)
