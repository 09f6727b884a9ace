"""Discriminative models: logistic regression (one-vs-rest for K > 2) and softmax regression.

Both minimise the cross-entropy of 001/004 plus an L2 penalty on the weights
(never the biases):  E(W) = -sum_n ln y_{n,t_n} + (l2 / 2) sum_k ||w_k||^2,
with l2 = 1 / C of scikit-learn.  The fit is Newton-Raphson with the exact
Hessian (IRLS for two classes, 004: w <- (Phi^T R Phi)^-1 Phi^T R z) and a
backtracking line search, so it converges in a handful of steps.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, log_expit

from probviz.models.base import Classifier, data_frame, single_class_scores
from probviz.models.poly import Poly2D, design_matrix, monomials

BASES = {"linear": 1, "quadratic": 2, "cubic": 3}
DEFAULT_L2 = 0.01
_CHUNK = 65536


class _Multinomial:
    """The penalised cross-entropy of softmax scores A = Phi W^T, its gradient and exact Hessian.

    Used for every fit: two-class logistic regression is the case K = 2 with the
    first row of W held at zero, since softmax(0, a) = (1 - sigma(a), sigma(a)).
    """

    def __init__(self, Phi, codes, K, l2):
        self.Phi, self.codes, self.K, self.l2 = Phi, codes, K, l2
        self.rows = np.arange(len(codes))
        F = Phi.shape[1]
        self.ridge = np.tile(np.r_[0.0, np.full(F - 1, l2)], K)
        self._Phi2 = None

    def value(self, W):
        """E(W), with the scores A (N, K) and posteriors P (N, K) for the next derivatives."""
        A = self.Phi @ W.T
        m = A.max(axis=1, keepdims=True)
        P = np.exp(A - m)
        Z = P.sum(axis=1)
        P /= Z[:, None]
        logp = A[self.rows, self.codes] - m[:, 0] - np.log(Z)  # exact even where P underflows
        E = -float(np.sum(logp)) + 0.5 * self.l2 * float(np.sum(W[:, 1:] ** 2))
        return E, (A, P)

    def gradient_hessian(self, W, cache):
        """grad_k = sum_n (y_nk - t_nk) phi_n + l2 w_k;  H as in 004 (with the ridge)."""
        P = cache[1]
        R = P.copy()
        R[self.rows, self.codes] -= 1.0
        G = R.T @ self.Phi
        G[:, 1:] += self.l2 * W[:, 1:]
        return G, self._hessian(P)

    def _hessian(self, P):
        """H[(k,a),(j,b)] = sum_n P_nk (I_kj - P_nj) phi_na phi_nb, as two products with phi (x) phi."""
        N, F = self.Phi.shape
        K = self.K
        H = np.zeros((K, K, F * F))
        for start in range(0, N, _CHUNK):
            ph, p = self.Phi[start:start + _CHUNK], P[start:start + _CHUNK]
            outer = (ph[:, :, None] * ph[:, None, :]).reshape(len(ph), F * F)
            H -= ((p[:, :, None] * p[:, None, :]).reshape(len(p), K * K).T @ outer).reshape(K, K, F * F)
            H[np.arange(K), np.arange(K)] += p.T @ outer
        H = H.reshape(K, K, F, F).transpose(0, 2, 1, 3).reshape(K * F, K * F)
        H[np.diag_indices_from(H)] += self.ridge
        return H

    def separated(self, cache) -> bool:
        """Every point strictly on its own side: with l2 = 0 no finite optimum exists."""
        A = cache[0]
        own = A[self.rows, self.codes]
        B = A.copy()
        B[self.rows, self.codes] = -np.inf
        return bool(np.all(own > B.max(axis=1)))


class _Binary:
    """Two classes, t in {0, 1}: E(w) = sum_n softplus(a_n) - t_n a_n + (l2/2)||w||^2 with a = Phi w.

    IRLS (004): gradient Phi^T (y - t), Hessian Phi^T R Phi with R_nn = y_n (1 - y_n).
    The same problem as _Multinomial with K = 2, at a third of the cost.
    """

    def __init__(self, Phi, t, l2):
        self.Phi, self.t, self.l2 = Phi, t.astype(float), l2
        self.ridge = np.r_[0.0, np.full(Phi.shape[1] - 1, l2)]

    def value(self, W):
        a = self.Phi @ W[0]
        E = float(np.sum(np.logaddexp(0.0, a)) - a @ self.t) + 0.5 * self.l2 * float(W[0, 1:] @ W[0, 1:])
        return E, a

    def gradient_hessian(self, W, a):
        y = expit(a)
        g = self.Phi.T @ (y - self.t) + self.ridge * W[0]
        H = self.Phi.T @ ((y * (1.0 - y))[:, None] * self.Phi)
        H[np.diag_indices_from(H)] += self.ridge
        return g[None], H

    def separated(self, a) -> bool:
        return bool(np.all(np.where(self.t > 0, a, -a) > 0))


class _BinaryBatch:
    """K independent two-class problems (one-vs-rest) solved together: the objective is their sum,
    the Hessian block-diagonal, so one Newton step is K small solves and every product is batched."""

    def __init__(self, Phi, T, l2):
        self.Phi, self.T, self.l2 = Phi, T.astype(float), l2  # T: (N, K) 0/1 targets
        F = Phi.shape[1]
        self.ridge = np.r_[0.0, np.full(F - 1, l2)]

    def value(self, W):
        A = self.Phi @ W.T
        E = float(np.sum(np.logaddexp(0.0, A)) - np.sum(A * self.T))
        return E + 0.5 * self.l2 * float(np.sum(W[:, 1:] ** 2)), A

    def gradient_hessian(self, W, A):
        Y = expit(A)
        G = (Y - self.T).T @ self.Phi + self.ridge * W
        R = Y * (1.0 - Y)  # (N, K)
        F = self.Phi.shape[1]
        outer = (self.Phi[:, :, None] * self.Phi[:, None, :]).reshape(len(self.Phi), F * F)
        H = (R.T @ outer).reshape(-1, F, F) + np.diag(self.ridge)
        return G, H


def newton_binary_batch(Phi, T, l2, W0=None, max_iter=100, tol=1e-10):
    """One-vs-rest with l2 > 0: all K binary logistic fits in one damped Newton loop."""
    problem = _BinaryBatch(Phi, T, l2)
    K, F = T.shape[1], Phi.shape[1]
    W = np.zeros((K, F)) if W0 is None else np.array(W0, dtype=float)
    E, A = problem.value(W)
    for it in range(1, max_iter + 1):
        G, H = problem.gradient_hessian(W, A)
        try:
            step = np.linalg.solve(H, G[:, :, None])[:, :, 0]
        except np.linalg.LinAlgError:  # a saturated problem: its bias direction is flat
            step = np.einsum("kij,kj->ki", np.linalg.pinv(H), G)
        decrement = float(np.sum(G * step))
        if decrement / 2.0 <= tol * max(1.0, abs(E)):
            return W, it - 1, True, ""
        t = 1.0
        while True:
            Wn = W - t * step
            En, An = problem.value(Wn)
            if En <= E - 1e-4 * t * decrement or t < 1e-10:
                break
            t *= 0.5
        if t < 1e-10:
            return W, it, True, ""
        W, E, A = Wn, En, An
    return W, max_iter, False, "max_iter"


def newton_binary(Phi, t, l2, w0=None, max_iter=100, tol=1e-10):
    """Two-class logistic regression by IRLS: returns w (F,), steps, converged, why not."""
    free = np.ones((1, Phi.shape[1]), bool)
    W0 = None if w0 is None else np.asarray(w0)[None]
    W, n, ok, why = _newton(_Binary(Phi, t, l2), free, W0, len(t), l2, max_iter, tol)
    return W[0], n, ok, why


def newton_multinomial(Phi, codes, K, l2, free, W0=None, max_iter=100, tol=1e-10):
    """Minimise the penalised multinomial cross-entropy by damped Newton steps.

    Parameters
    ----------
    Phi : array of shape (N, F), the design matrix with a leading column of ones.
    codes : array of shape (N,), class indices in [0, K).
    free : bool array of shape (K, F); entries held at zero fix the softmax's gauge.

    Returns W (K, F), the number of steps, whether it converged, and why not.
    """
    return _newton(_Multinomial(Phi, codes, K, l2), free, W0, len(codes), l2, max_iter, tol)


def _newton(problem, free, W0, N, l2, max_iter, tol):
    """Damped Newton on the entries of W marked free; the others stay zero."""
    W = np.zeros(free.shape) if W0 is None else np.where(free, W0, 0.0)
    idx = np.flatnonzero(free.ravel())
    E, A = problem.value(W)
    for it in range(1, max_iter + 1):
        G, H = problem.gradient_hessian(W, A)
        g = G.ravel()[idx]
        H = H[np.ix_(idx, idx)]
        try:
            step = np.linalg.solve(H, g)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(H, g, rcond=None)[0]
        decrement = float(g @ step)
        if not np.isfinite(decrement) or decrement < 0:  # numerically indefinite: gradient step
            step = g / max(float(np.abs(np.diag(H)).max()), 1.0)
            decrement = float(g @ step)
        if decrement / 2.0 <= tol * max(1.0, abs(E)):
            if l2 == 0.0 and problem.separated(A):  # flat only because the weights ran off
                return W, it - 1, False, "separable"
            return W, it - 1, True, ""
        t = 1.0
        while True:  # backtracking (Armijo) line search
            Wn = W.copy()
            Wn.ravel()[idx] -= t * step
            En, An = problem.value(Wn)
            if En <= E - 1e-4 * t * decrement or t < 1e-10:
                break
            t *= 0.5
        if t < 1e-10:  # no descent possible: at the optimum to machine precision
            return W, it, True, ""
        W, E, A = Wn, En, An
        if l2 == 0.0 and E < 1e-3 * N and problem.separated(A):
            return W, it, False, "separable"
    return W, max_iter, False, "max_iter"


class _LinearModel(Classifier):
    """Shared machinery: features, Newton, weights in raw units, warm start."""

    def __init__(self, *, l2: float = DEFAULT_L2, basis: str = "linear", standardize: bool = False,
                 max_iter: int = 100, tol: float = 1e-10, warm_start: bool = False):
        self.l2 = l2
        self.basis = basis
        self.standardize = standardize
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start

    def _check_params(self):
        if self.basis not in BASES:
            raise ValueError(f"basis must be one of {', '.join(BASES)}, got {self.basis!r}")
        if not (np.isfinite(self.l2) and self.l2 >= 0):
            raise ValueError(f"l2 must be a non-negative number, got {self.l2}")

    def _fit(self, X, codes, K):
        self._check_params()
        degree = BASES[self.basis]
        if self.standardize:
            center, scale = data_frame(X)
        else:
            center, scale = np.zeros(2), np.ones(2)
        self._frame = (center, scale)
        self.n_iter_, self.converged_ = 0, True
        if K == 1:
            self.scores_ = single_class_scores(X)
            self.coef_ = np.zeros((0, len(monomials(degree))))
            self.intercept_ = np.zeros(0)
            self.notices_.append("only one class: nothing to discriminate, p(C|x) = 1 everywhere")
            return
        Phi = np.column_stack([np.ones(len(X)), design_matrix((X - center) / scale, degree)])
        warm = self._warm((0,)) is not None
        self._start = lambda labels: None if warm else self._generative_start(X, labels, degree)
        W = self._solve(Phi, codes, K)
        del self._start
        coefs = np.zeros((W.shape[0], degree + 1, degree + 1))
        coefs[:, 0, 0] = W[:, 0]
        for m, (i, j) in enumerate(monomials(degree)):
            coefs[:, i, j] = W[:, m + 1]
        self.scores_ = Poly2D(center, scale, coefs)
        raw = self.scores_.in_raw_units()
        rows = self._reported_rows(K)
        self.intercept_ = raw[rows, 0, 0]
        self.coef_ = np.stack([raw[rows, i, j] for i, j in monomials(degree)], axis=1)

    def _generative_start(self, X, codes, degree):
        """Class scores of a Gaussian model (LDA for the linear basis, else QDA) as starting
        weights: their log-odds have the same form, and Newton then needs about half the steps."""
        from probviz.models.gaussian import LDA, QDA

        try:
            g = (LDA() if degree == 1 else QDA(reg_covar=0.1)).fit(X, codes)
        except ValueError:
            return None
        if len(g.classes_) != codes.max() + 1:
            return None
        C = g.scores_.in_frame(*self._frame, degree)
        W = np.column_stack([C[:, 0, 0]] + [C[:, i, j] for i, j in monomials(degree)])
        return W if np.all(np.isfinite(W)) and np.abs(W).max() < 1e6 else None

    def _record(self, W, n_iter, converged, why):
        self.n_iter_ += n_iter
        if not converged:
            self.converged_ = False
            if why == "separable":
                note = ("classes are perfectly separable: with l2 = 0 the maximum-likelihood weights are "
                        "infinite; Newton stopped once every point was on its side (raise l2 for a finite fit)")
            else:
                note = f"did not converge in {self.max_iter} Newton steps"
            if note not in self.notices_:
                self.notices_.append(note)
        return W

    def _warm(self, shape):
        """The previous fit's weights when warm-starting (any shape when ``shape`` is (0,))."""
        prev = getattr(self, "_W", None)
        if (self.warm_start and prev is not None and (shape == (0,) or prev.shape == shape)
                and np.all(np.isfinite(prev))):
            return prev
        return None


class LogisticRegression(_LinearModel):
    """Logistic regression p(C_1|x) = sigma(w^T phi(x) + w0) (004), fitted by IRLS.

    With K > 2 classes it fits K one-vs-rest models and normalises their outputs,
    p(C_k|x) = sigma(a_k) / sum_j sigma(a_j); ``ovr_`` is then True. ``coef_`` has
    one row (two classes, for ``classes_[1]``) or K rows, in the units of x.
    """

    name = "logistic"
    label = "Logistic regression"

    def _solve(self, Phi, codes, K):
        F = Phi.shape[1]
        self.ovr_ = K > 2
        if self.ovr_:
            self.notices_.append(f"{K} classes: fitted one-vs-rest, whose regions can be ambiguous (004)")
        targets = [codes == k for k in range(K)] if self.ovr_ else [codes == 1]
        prev = self._warm((len(targets), F))
        if prev is None:  # start from each binary problem's Gaussian log-odds
            starts = [self._start(t.astype(np.int64)) for t in targets]
            if all(st is not None for st in starts):
                prev = np.stack([st[1] - st[0] for st in starts])
        if self.ovr_ and self.l2 > 0:  # a finite optimum for every class: solve them together
            W = self._record(*newton_binary_batch(Phi, np.stack(targets, axis=1), self.l2, prev,
                                                  self.max_iter, self.tol))
        else:  # l2 = 0: each problem may be separable on its own, and is told so on its own
            W = np.stack([
                self._record(*newton_binary(Phi, t, self.l2, None if prev is None else prev[i],
                                            self.max_iter, self.tol))
                for i, t in enumerate(targets)])
        self._W = W
        # two classes: scores (0, a), whose softmax is (1 - sigma(a), sigma(a))
        return W if self.ovr_ else np.vstack([np.zeros(F), W])

    def _reported_rows(self, K):
        return slice(None) if self.ovr_ else slice(1, 2)

    def proba_from_scores(self, S, axis=-1, dtype=np.float64):
        if getattr(self, "ovr_", False):  # sigma(a_k) / sum_j sigma(a_j), in log space
            S = log_expit(S.astype(dtype, copy=False))
        return super().proba_from_scores(S, axis, dtype)

    def _log_proba_from_scores(self, S):
        if getattr(self, "ovr_", False):  # far from the data every sigma underflows: log space
            S = log_expit(S)
        return super()._log_proba_from_scores(S)

    def n_parameters(self):
        if len(self.classes_) == 1:
            return 0
        F = self.coef_.shape[1] + 1
        return F * (len(self.classes_) if self.ovr_ else 1)


class SoftmaxRegression(_LinearModel):
    """Multiclass softmax regression p(C_k|x) = exp(a_k) / sum_j exp(a_j), a_k = w_k^T phi(x) + w_k0.

    Fitted by Newton with the full (K(F+1))^2 Hessian (004). The biases are only
    defined up to a common constant; they are reported centred (sum zero), and so
    are the weights when l2 = 0.
    """

    name = "softmax"
    label = "Softmax regression"

    def _solve(self, Phi, codes, K):
        F = Phi.shape[1]
        free = np.ones((K, F), bool)
        if self.l2 > 0:
            free[-1, 0] = False  # the penalty fixes the weights; pin one bias
        else:
            free[-1] = False  # unpenalised: class K is the reference
        W0 = self._warm((K, F))
        if W0 is None:
            W0 = self._start(codes)
        if W0 is not None:  # move the stored (centred) solution into this gauge
            W0 = W0 - (W0[-1] if self.l2 == 0 else np.r_[W0[-1, 0], np.zeros(F - 1)])
        W = self._record(*newton_multinomial(Phi, codes, K, self.l2, free, W0, self.max_iter, self.tol))
        W = W - (W.mean(axis=0) if self.l2 == 0 else np.r_[W[:, 0].mean(), np.zeros(F - 1)])
        self._W = W
        return W

    def _reported_rows(self, K):
        return slice(None)

    def n_parameters(self):
        K = len(self.classes_)
        return (K - 1) * (self.coef_.shape[1] + 1)
