"""Bayesian logistic regression by the Laplace approximation, its predictive distribution, and probit
regression (Bishop 2006, sections 4.3.5, 4.4 and 4.5).

* :func:`fit_laplace`: the Gaussian q(w) = N(w | w_MAP, S_N) about the mode of the posterior of logistic
  regression under the prior p(w) = N(w | 0, alpha^-1 I) on every weight, the bias included (eqs. 4.140-4.144),
  with its model evidence (eq. 4.137), BIC (eq. 4.139) and effective number of parameters. Two classes are
  one binary problem; K > 2 classes are K one-vs-rest problems (Bishop 4.1.2), each with its own posterior.
* :func:`evidence_alpha`: the alpha that maximises the (Laplace) evidence.
* :func:`moderated`, :func:`exact_predictive`: p(C_1 | phi, D) = int sigma(a) N(a | mu_a, sigma_a^2) da
  (eqs. 4.145-4.151), by the probit approximation (eqs. 4.153-4.155) and to rounding.
* :class:`BinaryProbit`: the probit objective (Bishop 4.3.5) in the form the Newton driver of
  :mod:`probviz.models.newton` minimises.

Pure numpy and scipy. Every posterior is computed on the standardized features [1, phi(z)],
z = (x - center) / scale of :func:`~probviz.models.base.data_frame`, where the problem is well conditioned;
with ``standardize=False`` the prior is still on the weights of the raw features [1, phi(x)], carried over
exactly as a prior precision alpha M M^T on the standardized weights, and the reported w_MAP, precision and
covariance are those of the raw weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from probviz.special import erfcx, expit, log_ndtr, logsumexp, ndtr

from probviz.models.base import data_frame
from probviz.models.newton import GTOL, LN2, BinaryBatch, PointsProblem, gram, log_sigmoid, newton
from probviz.models.poly import BASES, Poly2D, design_matrix, monomials

PROBIT_LAMBDA2 = np.pi / 8
"""lambda^2 of sigma(a) ~ Phi(lambda a), the probit function rescaled to the logistic sigmoid's slope at the
origin (Bishop 2006, section 4.5.2, above eq. 4.152): sigma'(0) = 1/4 = lambda phi(0) gives lambda^2 = pi / 8.
With it int Phi(lambda a) N(a | mu, s2) da = Phi(mu / (lambda^-2 + s2)^(1/2)) (eq. 4.152), which leads to
the moderated output sigma(kappa(s2) mu) of eqs. 4.153-4.155."""

KINDS = ("map", "moderated", "exact")

# --- the predictive distribution (Bishop 4.5.2) -------------------------------------------------

# E[sigma(a)] = int sigma(mu + s u) phi(u) du for s <= 1: the integrand is analytic in the strip |Im u| < pi / s,
# so the trapezoid rule converges like exp(-2 pi (pi / s) / h); h = 1/4 on [-9, 9] (tails below 2e-19) is at
# rounding for every s <= 1 (measured against 30-digit quadrature: 3e-16).
_U_STEP = 0.25
_U = np.arange(-36, 37) * _U_STEP
_U_LOGW = np.log(_U_STEP) - 0.5 * _U ** 2 - 0.5 * np.log(2 * np.pi)
_U_W = np.exp(_U_LOGW)
# s > 1: E[sigma(a)] = P(a + L > 0), L ~ Logistic(0, 1) independent of a, = int Phi((mu + l) / s) g(l) dl,
# g(l) = sigma(l) sigma(-l) the logistic density, analytic in |Im l| < pi; h = 0.4 on [-40, 40] (tails below
# 1e-17) is at rounding (1e-16 measured; h = 0.5 gives 1.4e-14).
_L_STEP = 0.4
_L = np.arange(-100, 101) * _L_STEP
_E = np.exp(-np.abs(_L))
_L_W = _L_STEP * _E / (1.0 + _E) ** 2  # sigma(l) sigma(-l), without an underflowing e^l
_L_LOGW = np.log(_L_W)
_WORK = 1 << 20  # elements of one (points, nodes) block: 8 MB, a few of them alive at once


def kappa(s2):
    """kappa(sigma^2) = (1 + pi sigma^2 / 8)^(-1/2) (Bishop 2006, eq. 4.154)."""
    return (1.0 + PROBIT_LAMBDA2 * np.asarray(s2, dtype=float)) ** -0.5


def moderated(mu, s2):
    """The probit approximation sigma(kappa(sigma_a^2) mu_a) to p(C_1 | phi, D) (Bishop 2006, eq. 4.155)."""
    return expit(kappa(s2) * np.asarray(mu, dtype=float))


def _check_moments(mu, s2):
    mu, s2 = np.broadcast_arrays(np.asarray(mu, dtype=float), np.asarray(s2, dtype=float))
    if np.any(s2 < 0):
        raise ValueError("the variance s2 must be non-negative")
    return mu, s2


def _predictive(mu, s2, log: bool):
    """E[sigma(a)] (or its logarithm), a ~ N(mu, s2), by the two trapezoid rules above, in blocks.

    Where mu + s2 < 0 the expectation is tiny and its mass lies far out in the tail that the rules' nodes do not
    reach; there sigma(a) = e^a sigma(-a) and e^a N(a | mu, s2) = e^(mu + s2/2) N(a | mu + s2, s2) give, exactly,
    E[sigma(a)] = e^(mu + s2/2) E[sigma(b)] with b ~ N(-(mu + s2), s2), whose expectation is at least 1/2: the
    tiny value to full relative precision (and its logarithm where it underflows)."""
    mu, s2 = _check_moments(mu, s2)
    shape = mu.shape
    mu, s2 = mu.ravel().copy(), s2.ravel()
    tail = (s2 > 0) & (mu + s2 < 0)
    shift = np.where(tail, mu + 0.5 * s2, 0.0)
    mu[tail] = -(mu[tail] + s2[tail])
    out = _rules(mu, np.sqrt(s2), log)
    if log:
        out += shift
    else:
        out[tail] *= np.exp(shift[tail])
    return out.reshape(shape)


def _rules(mu, s, log: bool):
    """E[sigma(a)] (or its logarithm), a ~ N(mu, s^2), by the trapezoid rules, for flat mu and s."""
    out = log_sigmoid(mu) if log else expit(mu)  # s = 0: sigma(mu) exactly
    for nodes, branch in ((_U, (s > 0) & (s <= 1)), (_L, s > 1)):
        idx = np.flatnonzero(branch)
        block = max(1, _WORK // len(nodes))
        for start in range(0, len(idx), block):
            i = idx[start:start + block]
            m, si = mu[i, None], s[i, None]
            if nodes is _U:
                a = m + si * _U
                out[i] = logsumexp(log_sigmoid(a) + _U_LOGW, axis=1) if log else expit(a) @ _U_W
            else:
                z = (m + _L) / si
                out[i] = logsumexp(log_ndtr(z) + _L_LOGW, axis=1) if log else ndtr(z) @ _L_W
    if not log:
        np.clip(out, 0.0, 1.0, out=out)
    return out


def exact_predictive(mu, s2):
    """int sigma(a) N(a | mu, s2) da = E[sigma(a)] (Bishop 2006, eqs. 4.150-4.151) to about 1e-16 absolute, for any
    mu and any s2 >= 0 (broadcast together; s2 = 0 gives sigma(mu) exactly).

    For sigma = s2^(1/2) <= 1 the trapezoid rule in u of int sigma(mu + sigma u) phi(u) du; for sigma > 1 the same
    expectation written as P(a + L > 0) with L a standard logistic variable independent of a (sigma is the
    logistic distribution function), int Phi((mu + l) / sigma) g(l) dl with g the logistic density. Both
    integrands are analytic in a strip about the real axis, where the trapezoid rule converges exponentially.
    """
    return _predictive(mu, s2, log=False)


def log_exact_predictive(mu, s2):
    """ln E[sigma(a)], a ~ N(mu, s2): the same quadrature in log space, finite where E[sigma(a)] underflows."""
    return _predictive(mu, s2, log=True)


# --- probit regression (Bishop 4.3.5) -----------------------------------------------------------

def inverse_mills(s):
    """r(s) = phi(s) / Phi(s), without underflow or cancellation: sqrt(2 / pi) / erfcx(-s / sqrt 2)
    (Phi(s) = erfc(-s / sqrt 2) / 2 and erfc(x) = erfcx(x) exp(-x^2))."""
    return np.sqrt(2.0 / np.pi) / erfcx(-np.asarray(s, dtype=float) / np.sqrt(2.0))


class BinaryProbit(PointsProblem):
    """K independent two-class probit problems, the same interface as :class:`~probviz.models.newton.BinaryBatch`.

    E(W) = -sum_k sum_n [t_nk ln Phi(a_nk) + (1 - t_nk) ln Phi(-a_nk)] + (1/2) sum_k w_k^T R w_k, a = Phi W^T
    (the probit model p(C_1 | phi) = Phi(w^T phi) of Bishop 2006, eqs. 4.114 and 4.116, with the cross-entropy
    of eq. 4.90). With s = (2t - 1) a each term is -ln Phi(s), taken by ``log_ndtr`` (exact in both tails);
    dE/da = -(2t - 1) r(s) with r the inverse Mills ratio phi(s) / Phi(s), and d2E/da2 = r(s) (r(s) + s) > 0,
    so E is convex and the Hessian Phi^T diag(r (r + s)) Phi + R is block-diagonal over the K problems.
    """

    def __init__(self, Phi, T, R):
        self.Phi, self.T, self.R = Phi, np.asarray(T, dtype=float).reshape(len(Phi), -1), R
        self.sign = 2.0 * self.T - 1.0

    def zero_value(self) -> float:
        """E at W = 0, with no pass over the points: each of the N K terms is -ln Phi(0) = ln 2."""
        return self.T.size * LN2

    def value(self, W):
        S = self.sign * (self.Phi @ W.T)
        E = -float(np.sum(log_ndtr(S)))
        return E + 0.5 * float(np.sum((W @ self.R) * W)), S

    def state(self, W):
        """What ``gradient`` and ``solve`` take at W: the signed activations S = (2t - 1) Phi W^T (N, K)."""
        return self.sign * (self.Phi @ W.T)

    def gradient(self, W, S):
        return (-self.sign * inverse_mills(S)).T @ self.Phi + W @ self.R

    def weights(self, S):
        """d2E/da2 per point and problem: r(s) (r(s) + s), in [0, 1] (one minus the variance of a truncated
        normal). Deep on the wrong side (s <= -4) r + s cancels: there it is K(-s), with 1 / r(s) = 1 / (x + K(x)),
        x = -s, Laplace's continued fraction for the Mills ratio: K(x) = 1 / (x + 2 / (x + 3 / (x + ...))),
        40 terms (to rounding for x >= 4)."""
        S = np.asarray(S, dtype=float)
        r = inverse_mills(S)
        out = r * (r + S)
        deep = S <= -4.0
        if np.any(deep):
            x = -S[deep]
            tail = np.zeros_like(x)
            for k in range(40, 1, -1):
                tail = k / (x + tail)
            K = 1.0 / (x + tail)
            out[deep] = (x + K) * K
        return np.clip(out, 0.0, 1.0)

    def curvature(self, W, S):
        """The data term's Hessian per problem (K, F, F), without the penalty: Phi^T diag(r (r + s)) Phi."""
        return gram(self.Phi, self.weights(S), self.outer)

    def solve(self, W, S, G, free, damping):
        return self.direction(self.curvature(W, S), self.R, G, free, damping)

    direction = staticmethod(BinaryBatch.direction)


# --- the Laplace approximation (Bishop 4.4, 4.5.1) ----------------------------------------------

@dataclass(frozen=True)
class Laplace:
    """The Laplace approximation q(w) = N(w | w_MAP, S_N) to the posterior of Bayesian logistic regression.

    P = 1 problem for two classes (p(C_2 | x) = sigma(w^T phi)), P = K one-vs-rest problems for K > 2, all with
    the prior N(w | 0, alpha^-1 I) over the F weights of the features phi = [1, phi((x - center) / scale)]
    (monomials up to ``degree``), the bias included.

    alpha, degree, K, n : the prior precision, the basis degree, the classes, the number of points.
    center, scale : (2,) the frame of the features the prior is on ((0, 0), (1, 1) when not standardized).
    w_map : (P, F) the posterior modes; precision : (P, F, F) S_N^-1 = alpha I + sum_n y_n (1 - y_n) phi_n phi_n^T
        (eq. 4.143); cov : (P, F, F) S_N.
    log_likelihood : (P,) ln p(D | w_MAP); log_evidence : (P,) the Laplace ln p(D | alpha) (eq. 4.137);
    bic : (P,) ln p(D | w_MAP) - (F / 2) ln N (eq. 4.139); gamma : (P,) sum_i lambda_i / (lambda_i + alpha), the
        lambda_i the eigenvalues of sum_n y_n (1 - y_n) phi_n phi_n^T (the analogue of eq. 3.91).
    converged : whether every w_MAP satisfies the Newton driver's optimality condition.
    z_center, z_scale, z_w, z_root : the same posterior on the standardized features of the data's frame, where
        it is computed and evaluated: weights (P, F) and R (P, F, F) upper triangular with covariance R^T R.
    """

    alpha: float
    degree: int
    K: int
    center: np.ndarray
    scale: np.ndarray
    w_map: np.ndarray
    precision: np.ndarray
    cov: np.ndarray
    log_likelihood: np.ndarray
    log_evidence: np.ndarray
    bic: np.ndarray
    gamma: np.ndarray
    n: int
    converged: bool
    z_center: np.ndarray
    z_scale: np.ndarray
    z_w: np.ndarray
    z_root: np.ndarray

    @property
    def total_log_evidence(self) -> float:
        return float(np.sum(self.log_evidence))

    @property
    def total_bic(self) -> float:
        return float(np.sum(self.bic))

    @property
    def total_gamma(self) -> float:
        return float(np.sum(self.gamma))

    def sample(self, count: int, seed: int = 0) -> np.ndarray:
        """``count`` weight vectors drawn from q(w) = N(w_MAP, S_N), seeded, on the standardized features of
        (z_center, z_scale) where the posterior is computed: (count, P, F), w = z_w + R^T e with e ~ N(0, I)."""
        e = np.random.default_rng(seed).standard_normal((count,) + self.z_w.shape)
        return self.z_w + np.einsum("kfg,ckf->ckg", self.z_root, e)

    def sample_on_features(self, count: int, seed: int = 0) -> np.ndarray:
        """The draws of :meth:`sample` (the same ``seed``, the same weights) on the features the prior is on,
        (center, scale), where w_map and cov are: (count, P, F)."""
        A = _frame_matrix((self.z_center, self.z_scale), (self.center, self.scale), self.degree)
        return self.sample(count, seed) @ A  # phi_z = A phi: w_z^T phi_z = (A^T w_z)^T phi

    def features(self, X) -> np.ndarray:
        """phi(x) = [1, monomials of (x - center) / scale], the features the prior is on: (N, F)."""
        return _features(X, self.center, self.scale, self.degree)

    def activation(self, X) -> tuple[np.ndarray, np.ndarray]:
        """mu_a = w_MAP^T phi and sigma_a^2 = phi^T S_N phi (Bishop 2006, eqs. 4.149-4.150) at X: two (N, P)
        arrays. Evaluated on the standardized features, sigma_a^2 as |R phi|^2 (never negative)."""
        Phi = _features(X, self.z_center, self.z_scale, self.degree)
        mu = Phi @ self.z_w.T
        var = np.stack([np.einsum("nf,nf->n", Q, Q) for Q in (Phi @ R.T for R in self.z_root)], axis=1)
        return mu, var

    def proba(self, X, kind: str = "moderated") -> np.ndarray:
        """p(C_k | x, D), (N, K): ``kind`` "map" sigma(mu_a) (the plug-in w_MAP), "moderated" sigma(kappa mu_a)
        (eq. 4.155) or "exact" (the integral of eq. 4.151 to rounding). Two classes: [1 - p, p], each computed
        directly; one-vs-rest: the K probabilities of the K problems normalised to sum 1 (in log space)."""
        return self.proba_from(*self.activation(X), kind)

    def proba_from(self, mu, var, kind: str = "moderated") -> np.ndarray:
        """:meth:`proba` from the activation's moments (mu, var) of :meth:`activation`, for a caller that has
        them already (the scene's heatmap and variance veil share one evaluation)."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if kind == "map":
            var = np.zeros_like(var)
        if self.K == 2:  # the smaller of p, 1 - p directly (exact however small), the other as 1 minus it
            m, v = mu[:, 0], var[:, 0]
            small = exact_predictive(-np.abs(m), v) if kind == "exact" else expit(-kappa(v) * np.abs(m))
            up = m >= 0
            return np.column_stack([np.where(up, small, 1.0 - small), np.where(up, 1.0 - small, small)])
        p = exact_predictive(mu, var) if kind == "exact" else expit(kappa(var) * mu)
        total = p.sum(axis=1, keepdims=True)
        out = p / np.where(total > 0, total, 1.0)
        tiny = np.flatnonzero(total[:, 0] < 1e-250)  # every sigma underflows: normalise the logarithms
        if tiny.size:
            L = (log_exact_predictive(mu[tiny], var[tiny]) if kind == "exact"
                 else log_sigmoid(kappa(var[tiny]) * mu[tiny]))
            out[tiny] = np.exp(L - logsumexp(L, axis=1, keepdims=True))
        return out


def _features(X, center, scale, degree):
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    return np.column_stack([np.ones(len(X)), design_matrix((X - center) / scale, degree)])


def _frame_matrix(frm, to, degree):
    """A (F, F) with phi_frm(x) = A phi_to(x): row m the coefficients of feature m of frame ``frm`` on the
    features of frame ``to`` (lower triangular in the order [1, monomials by total degree])."""
    F = len(monomials(degree)) + 1
    basis = np.zeros((F, degree + 1, degree + 1))
    basis[0, 0, 0] = 1.0
    for m, (i, j) in enumerate(monomials(degree)):
        basis[m + 1, i, j] = 1.0
    C = Poly2D(np.asarray(frm[0], float), np.asarray(frm[1], float), basis).in_frame(to[0], to[1], degree)
    return np.column_stack([C[:, 0, 0]] + [C[:, i, j] for i, j in monomials(degree)])


class _Data:
    """A training set prepared once for every alpha: standardized features, targets and the frame maps."""

    def __init__(self, X, codes, K, basis, standardize):
        X = np.asarray(X, dtype=float)
        codes = np.asarray(codes)
        if X.ndim != 2 or X.shape[1] != 2 or len(X) == 0:
            raise ValueError(f"X must have shape (N, 2) with N > 0, got {X.shape}")
        if not np.all(np.isfinite(X)):
            raise ValueError("X contains NaN or infinite values")
        if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or K < 2:
            raise ValueError(f"K must be an integer >= 2, got {K!r}")
        if codes.shape != (len(X),) or codes.dtype.kind not in "iu" or (
                len(codes) and (codes.min() < 0 or codes.max() >= K)):
            raise ValueError(f"codes must be {len(X)} integers in 0..{K - 1}")
        if basis not in BASES:
            raise ValueError(f"basis must be one of {', '.join(BASES)}, got {basis!r}")
        self.degree = BASES[basis]
        self.K, self.n = int(K), len(X)
        self.z_center, self.z_scale = data_frame(X)
        self.center, self.scale = ((self.z_center, self.z_scale) if standardize else (np.zeros(2), np.ones(2)))
        self.Phi = _features(X, self.z_center, self.z_scale, self.degree)
        F = self.Phi.shape[1]
        self.T = np.stack([codes == k for k in range(K)], axis=1) if K > 2 else (codes == 1)[:, None]
        if standardize:  # the prior's frame is the computation's: the maps are the identity, exactly
            self.M = self.Tm = np.eye(F)
            self.log_det_T = 0.0
        else:
            fit, sol = (self.center, self.scale), (self.z_center, self.z_scale)
            self.M = _frame_matrix(sol, fit, self.degree)  # phi_sol = M phi_fit: raw weights u = M^T v
            self.Tm = _frame_matrix(fit, sol, self.degree)  # phi_fit = Tm phi_sol
            self.log_det_T = float(np.sum(np.log(np.abs(np.diag(self.Tm)))))  # triangular
        self.MMt = self.M @ self.M.T


def _check_alpha(alpha):
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating, np.integer)) \
            or not np.isfinite(alpha) or alpha <= 0:
        raise ValueError(f"alpha must be a positive finite number, got {alpha!r}")
    return float(alpha)


def _lower_inverse(L: np.ndarray) -> np.ndarray:
    """L^-1 of a lower-triangular L by forward substitution, column by column (what scipy's solve_triangular
    does; numpy alone keeps scipy.linalg out of the window's start-up)."""
    F = len(L)
    out = np.zeros_like(L)
    for j in range(F):
        out[j, j] = 1.0 / L[j, j]
        for i in range(j + 1, F):
            out[i, j] = -(L[i, j:i] @ out[j:i, j]) / L[i, i]
    return out


def _laplace(data: _Data, alpha: float, W0=None, max_iter: int = 100) -> Laplace:
    """w_MAP by Newton on the negative log posterior (BinaryBatch with R = alpha M M^T on the standardized
    weights: (alpha / 2) |u|^2 on the weights u = M^T v of the prior's features), then the Gaussian about it."""
    Phi, T = data.Phi, data.T
    P, F = T.shape[1], Phi.shape[1]
    R = alpha * data.MMt
    free = np.ones((P, F), bool)
    W0 = np.zeros((P, F)) if W0 is None else W0
    result = newton(BinaryBatch(Phi, T, R), W0, free, max_iter, GTOL)
    if not result.converged and W0 is not None and np.any(W0):  # a warm start that went wrong: from zero
        retry = newton(BinaryBatch(Phi, T, R), np.zeros((P, F)), free, max_iter, GTOL)
        if retry.converged:
            result = retry
    V = result.W
    A = Phi @ V.T
    sign = 1.0 - 2.0 * T
    log_lik = -np.sum(np.logaddexp(0.0, sign * A), axis=0)  # ln p(D | w) = -sum softplus((1 - 2t) a)
    D = gram(Phi, expit(A) * expit(-A))  # sum_n y (1 - y) phi phi^T, y (1 - y) exact in both tails
    H = D + R  # S_N^-1 on the standardized weights (eq. 4.143)
    roots, covs, log_dets = [], [], []
    for k in range(P):
        L = np.linalg.cholesky(H[k])
        Rk = _lower_inverse(L)  # L^-1: S_N = L^-T L^-1 = Rk^T Rk
        S = Rk.T @ Rk
        roots.append(Rk)
        covs.append(0.5 * (S + S.T))
        log_dets.append(2.0 * float(np.sum(np.log(np.diag(L)))))
    z_cov = np.array(covs)
    # gamma = sum_i lambda_i / (lambda_i + alpha) = tr(D S_N), the same in every frame of the features
    gamma = np.einsum("kij,kji->k", D, z_cov)
    U = V @ data.M  # u_k = M^T v_k
    log_det_H = np.array(log_dets) + 2.0 * data.log_det_T  # ln|S_N^-1| of the prior's weights: Tm H Tm^T
    # eq. 4.137 with ln p(w_MAP) = ln N(w_MAP | 0, alpha^-1 I) = -(F/2) ln 2 pi + (F/2) ln alpha - (alpha/2)|w|^2;
    # its -(F/2) ln 2 pi cancels the Laplace integral's +(F/2) ln 2 pi
    log_ev = log_lik - 0.5 * alpha * np.sum(U ** 2, axis=1) + 0.5 * F * np.log(alpha) - 0.5 * log_det_H
    precision = np.einsum("ia,kab,jb->kij", data.Tm, H, data.Tm)
    cov = np.einsum("ai,kab,bj->kij", data.M, z_cov, data.M)
    return Laplace(
        alpha=alpha, degree=data.degree, K=data.K, center=data.center, scale=data.scale,
        w_map=U, precision=0.5 * (precision + precision.transpose(0, 2, 1)),
        cov=0.5 * (cov + cov.transpose(0, 2, 1)), log_likelihood=log_lik, log_evidence=log_ev,
        bic=log_lik - 0.5 * F * np.log(data.n), gamma=gamma, n=data.n, converged=bool(result.converged),
        z_center=data.z_center, z_scale=data.z_scale, z_w=V, z_root=np.array(roots),
    )


def fit_laplace(X, codes, K: int, alpha: float, basis: str = "linear", standardize: bool = True) -> Laplace:
    """The Laplace approximation to the posterior of Bayesian logistic regression (Bishop 2006, section 4.5.1)
    with the prior N(w | 0, alpha^-1 I) on all the weights, the bias included.

    X (N, 2) points, codes (N,) their classes 0..K-1, K >= 2 (K > 2: K one-vs-rest problems sharing alpha),
    ``basis`` one of linear, quadratic, cubic; the features standardized by the data's mean and standard
    deviation unless ``standardize`` is false."""
    alpha = _check_alpha(alpha)
    return _laplace(_Data(X, codes, K, basis, standardize), alpha)


def evidence_alpha(X, codes, K: int, basis: str = "linear", standardize: bool = True,
                   bounds: tuple[float, float] = (1e-6, 1e6), scan: int = 25) -> Laplace:
    """The fit whose alpha maximises the total Laplace evidence sum_k ln p(D_k | alpha) (Bishop 2006, eq. 4.137)
    over ``bounds``: a scan of ``scan`` points evenly spaced in ln alpha, then Brent's bounded search in ln alpha
    between the neighbours of the best of them. Every Newton starts from the previous w_MAP. A maximum at a bound
    is returned there."""
    lo, hi = (_check_alpha(b) for b in bounds)
    if not lo < hi:
        raise ValueError(f"bounds must be increasing, got {bounds!r}")
    data = _Data(X, codes, K, basis, standardize)
    state = {"W": None}
    fits = {}

    def fit(log_alpha):
        alpha = float(np.exp(log_alpha)) if log_alpha not in (grid[0], grid[-1]) else (lo if log_alpha == grid[0]
                                                                                         else hi)
        lap = _laplace(data, alpha, state["W"])
        state["W"] = lap.z_w
        fits[log_alpha] = lap
        return lap.total_log_evidence

    grid = np.linspace(np.log(lo), np.log(hi), max(int(scan), 3))
    values = np.array([fit(g) for g in grid])
    best = int(np.argmax(values))
    state["W"] = fits[grid[best]].z_w
    a, b = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    from scipy.optimize import minimize_scalar  # loaded when asked: it costs the window's start-up 0.3 s

    res = minimize_scalar(lambda g: -fit(float(g)), bounds=(a, b), method="bounded",
                          options={"xatol": 1e-9 * max(1.0, abs(a), abs(b))})
    candidates = [grid[best], float(res.x)]
    if float(res.x) not in fits:
        fit(float(res.x))
    return max((fits[g] for g in candidates), key=lambda f: f.total_log_evidence)
