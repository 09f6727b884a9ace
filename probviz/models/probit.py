"""Probit regression (Bishop 2006, section 4.3.5): p(C_1|x) = Phi(w^T phi(x) + w0), Phi the standard
normal's cumulative distribution (eq. 4.114), fitted exactly by the same safeguarded, verified Newton as
logistic regression (one-vs-rest for K > 2), on the same features and with the same penalty.

Its link differs from the logistic sigmoid only in the tails: sigma(a) is close to Phi(lambda a) with
lambda^2 = pi / 8 (eq. 4.154's scaling), so the probit weights are about lambda times the logistic ones,
and the boundary p = 1/2 (a = 0) is again a line (or, with a basis, a curve of its degree).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from probviz.special import log_ndtr, ndtr

from probviz.models.bayes import BinaryProbit
from probviz.models.logistic import DEFAULT_BASIS, DEFAULT_L2, DEFAULT_STANDARDIZE, LogisticRegression, ovr_likelihoods
from probviz.models.newton import GTOL

#: sigma(a) ≈ Phi(LAMBDA a), LAMBDA^2 = pi / 8 (Bishop 4.5.2): the two links agree in slope at a = 0
LAMBDA = math.sqrt(math.pi / 8.0)

#: ln Phi tabulated for a frame's grid (:func:`log_ndtr_table`): from, to, and the step between nodes
TABLE = (-40.0, 8.5, 2.0 ** -5)
#: how far :func:`log_ndtr_table` may be from ln Phi: the cubic through a function's values and slopes at nodes h
#: apart (Hermite's) is within h^4 / 384 times the largest |f^(4)| of it, and |(ln Phi)^(4)| peaks at 0.18896 (near
#: a = 2.07)
TABLE_ERROR = TABLE[2] ** 4 / 384 * 0.189


@functools.cache
def _table() -> tuple[np.ndarray, ...]:
    """The coefficients of Hermite's cubic from each node to the next, c0 + t (c1 + t (c2 + t c3)) with t in [0, 1)
    the way from the node: ln Phi and h times its slope m = phi / Phi at both ends (scipy's log_ndtr, m as
    exp(ln phi - ln Phi), exact in both tails). Four arrays of 1,553 numbers (50 kB, made once): a frame's grid
    reads them for every node, and a table of linear pieces as close to ln Phi took 4,096 nodes a unit (3 MB),
    which the cache could not keep between frames (1.9 ms against 1.1 for 76,800 nodes, in the window)."""
    lo, hi, h = TABLE
    a = lo + h * np.arange(round((hi - lo) / h) + 1)
    f = log_ndtr(a)
    d = h * np.exp(-0.5 * a * a - 0.5 * math.log(2.0 * math.pi) - f)
    f1, d1 = np.append(f[1:], f[-1]), np.append(d[1:], d[-1])  # (the last node is only read at t = 0)
    return f, d, 3.0 * (f1 - f) - 2.0 * d - d1, 2.0 * (f - f1) + d + d1


def log_ndtr_table(a: np.ndarray) -> np.ndarray:
    """ln Phi(a), within TABLE_ERROR (4.7e-10) of scipy's log_ndtr, so Phi(a) to a relative 4.7e-10: Hermite's
    cubic between the nodes of a small table, a dozen passes over ``a`` against one special function a value
    (log_ndtr is 40 ns a value). Beyond the table: above 8.5, ln Phi is within 1e-17 of the last node's -9.5e-18;
    below -40 (far in the tail, where ln Phi(a) ≈ -a^2/2) scipy's log_ndtr itself, exact."""
    lo, hi, h = TABLE
    c0, c1, c2, c3 = _table()
    a = np.asarray(a, dtype=np.float64)
    t = np.clip(a, lo, hi)
    t -= lo
    t *= 1.0 / h  # a power of two: exact
    node = t.astype(np.intp)  # t >= 0: the node below
    t -= node  # the way to the next node, in [0, 1)
    out = c3.take(node, mode="clip")  # clip: a NaN's node is garbage (its value stays NaN through t)
    for c in (c2, c1, c0):  # Horner's
        out *= t
        out += c.take(node, mode="clip")
    far = a < lo
    if far.any():
        out[far] = log_ndtr(a[far])
    return out


def softmax_f32(L: np.ndarray) -> np.ndarray:
    """exp(L_k) / sum_j exp(L_j) over axis 0 of the float64 ``L`` (overwritten), in float32, each within a relative
    2e-6 down to float32's smallest normal number (a few float32 ulps: the float32 exponential's own error and the
    sum's rounding). The shift d = L_k - max_j L_j is made in float64 and split into its float32 part and the rest
    r (|r| <= 2^-24 |d|): e^d = e^hi (1 + r), e^r's next term under 2^-35 where e^d is not 0 in float32. The plain
    float32 softmax rounds d to float32 and is off by up to |d| 2^-24 (5e-6 at d = -87)."""
    L -= L.max(axis=0)
    E = L.astype(np.float32)
    L -= E  # the rest r, in float64
    L += 1.0
    np.exp(E, out=E)
    E *= L.astype(np.float32)  # 1 + r in float32: within 2^-24 of it
    E /= E.sum(axis=0)
    return E


class ProbitRegression(LogisticRegression):
    """p(C_1|x) = Phi(a), a = w^T phi(x) + w0 (Bishop eq. 4.114), fitted by Newton's method on the
    probit cross-entropy (eq. 4.90 with Phi for sigma) plus the L2 penalty on the weights.

    With K > 2 classes it fits K one-vs-rest models; ``ovr_`` is then True and the posterior shown is
    Phi(a_k) / sum_j Phi(a_j). Attributes as :class:`LogisticRegression`'s.
    """

    name = "probit"
    label = "Probit regression"
    binary_problem = BinaryProbit
    link_name = "Phi"

    def __init__(self, *, l2: float = DEFAULT_L2, basis: str = DEFAULT_BASIS, standardize: bool = DEFAULT_STANDARDIZE,
                 centers: str = "", width: float = 0.0, max_iter: int = 100, gtol: float = GTOL):
        # no Bayesian view: logistic regression's Laplace posterior is of the sigmoid's likelihood
        super().__init__(l2=l2, basis=basis, standardize=standardize, centers=centers, width=width,
                         max_iter=max_iter, gtol=gtol)

    def generative_start(self, X, codes, K, center, scale, degree):
        """The Gaussian model's log-odds scaled by LAMBDA: Phi(LAMBDA a) is close to sigma(a), so Newton
        starts near the probit optimum as logistic regression starts near its own."""
        W = super().generative_start(X, codes, K, center, scale, degree)
        return None if W is None else LAMBDA * W

    def _link(self, S, axis):
        """ln Phi of each class's activation, as scores whose softmax is the posterior: two classes
        (0, a) -> (ln Phi(-a), ln Phi(a)); one-vs-rest a_k -> ln Phi(a_k). Exact in both tails."""
        if getattr(self, "ovr_", False):
            return log_ndtr(S)
        a = np.take(S, [1], axis=axis) - np.take(S, [0], axis=axis)
        return np.concatenate([log_ndtr(-a), log_ndtr(a)], axis=axis)

    def proba_from_scores(self, S, axis=-1, dtype=np.float64):
        """The softmax of ln Phi (:meth:`_link`): every posterior to its own relative precision, however small.
        Asked for float32 (a frame's grid), to float32's precision for less. Two classes: Phi itself, computed in
        float64 and rounded at the end, one special function a node: the smaller of Phi(-a), Phi(a) is Phi(-|a|),
        from its own tail (never 1 minus a number near 1, which would lose it), and the larger 1 minus that (at
        least 1/2: exact to rounding). One-vs-rest: Phi(a_k) / sum_j Phi(a_j) as the float32 softmax of ln Phi(a_k)
        read from a table (:func:`log_ndtr_table`, within 4.7e-10; :func:`softmax_f32`, within 2e-6): nothing
        underflows in log space, and K special functions a node (4-5 ms of a frame's 256 x 256 grid) become a
        dozen passes of arithmetic."""
        if S.shape[axis] < 2:
            return super(LogisticRegression, self).proba_from_scores(S, axis, dtype)
        if np.dtype(dtype).itemsize >= 8:
            return super(LogisticRegression, self).proba_from_scores(self._link(S, axis), axis, dtype)
        if getattr(self, "ovr_", False):  # classes first: the sums over classes add K long rows
            return np.moveaxis(softmax_f32(log_ndtr_table(np.moveaxis(S, axis, 0))), 0, axis).astype(dtype, copy=False)
        T = np.moveaxis(S, axis, 0)
        a = T[1] - T[0]
        tail = np.abs(a)
        np.negative(tail, out=tail)
        tail = ndtr(tail, out=tail)  # the smaller of Phi(-a), Phi(a), from its own tail: exact however small
        rest = 1.0 - tail  # the larger, at least 1/2: exact to rounding
        above = a >= 0
        P = np.empty(T.shape, dtype=dtype)
        P[0] = np.where(above, tail, rest)
        P[1] = np.where(above, rest, tail)
        return np.moveaxis(P, 0, axis)

    def _log_proba_from_scores(self, S):
        if S.shape[-1] < 2:
            return super(LogisticRegression, self)._log_proba_from_scores(S)
        return super(LogisticRegression, self)._log_proba_from_scores(self._link(S, -1))

    def _likelihood_sums(self, S, codes, best=None, top=None):
        """The fit's own log-likelihood: sum_n ln Phi(+-a_n) for two classes; for one-vs-rest its K binary ones,
        sum_k ln p(t_k|X), as logistic regression's (the cross-entropy is their sum's negative)."""
        if S.shape[-1] < 2:
            return super(LogisticRegression, self)._likelihood_sums(S, codes, best, top)
        if not getattr(self, "ovr_", False):
            a = S[:, 1] - S[:, 0]
            return np.array([np.sum(log_ndtr(np.where(codes == 1, a, -a)))])
        own = S[np.arange(len(codes)), codes]
        each = np.bincount(codes, weights=log_ndtr(own), minlength=S.shape[1])
        rest = log_ndtr(-S)
        rest[np.arange(len(codes)), codes] = 0.0
        each += rest.sum(axis=0)
        return each

    def _likelihood_report(self, sums):
        if len(self.classes_) < 2:
            return super(LogisticRegression, self)._likelihood_report(sums)
        if not getattr(self, "ovr_", False):
            ll = float(sums[0])
            return {"log_likelihood": ll, "log_likelihood_kind": self.likelihood_kind, "cross_entropy": -ll}
        return ovr_likelihoods(sums)
