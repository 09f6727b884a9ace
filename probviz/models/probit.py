"""Probit regression (Bishop 2006, section 4.3.5): p(C_1|x) = Phi(w^T phi(x) + w0), Phi the standard
normal's cumulative distribution (eq. 4.114), fitted exactly by the same safeguarded, verified Newton as
logistic regression (one-vs-rest for K > 2), on the same features and with the same penalty.

Its link differs from the logistic sigmoid only in the tails: sigma(a) is close to Phi(lambda a) with
lambda^2 = pi / 8 (eq. 4.154's scaling), so the probit weights are about lambda times the logistic ones,
and the boundary p = 1/2 (a = 0) is again a line (or, with a basis, a curve of its degree).
"""

from __future__ import annotations

import math

import numpy as np
from probviz.special import log_ndtr, ndtr

from probviz.models.bayes import BinaryProbit
from probviz.models.logistic import (DEFAULT_BASIS, DEFAULT_L2, DEFAULT_STANDARDIZE, LogisticRegression, normalise_ovr,
                                     ovr_likelihoods)
from probviz.models.newton import GTOL

#: sigma(a) ≈ Phi(LAMBDA a), LAMBDA^2 = pi / 8 (Bishop 4.5.2): the two links agree in slope at a = 0
LAMBDA = math.sqrt(math.pi / 8.0)


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
        Asked for float32 (a frame's grid), Phi itself, computed in float64 and rounded at the end: one special
        function a value instead of two and an exponential. Two classes: the smaller of Phi(-a), Phi(a) is
        Phi(-|a|), from its own tail (never 1 minus a number near 1, which would lose it), and the larger 1 minus
        that (at least 1/2: exact to rounding), one Phi a node. One-vs-rest: Phi(a_k) / sum_j Phi(a_j), with the
        rows whose sum is under 2^-600 normalised in log space (a Phi lost to a subnormal is then under 2^-400 of
        its row, far below float32's smallest number)."""
        if S.shape[axis] < 2:
            return super(LogisticRegression, self).proba_from_scores(S, axis, dtype)
        if np.dtype(dtype).itemsize >= 8:
            return super(LogisticRegression, self).proba_from_scores(self._link(S, axis), axis, dtype)
        if getattr(self, "ovr_", False):
            P = ndtr(S)  # in S's layout: the sum over classes adds K long rows
            return normalise_ovr(P, S, axis, log_ndtr, floor=2.0 ** -600).astype(dtype)
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
