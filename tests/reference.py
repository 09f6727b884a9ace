"""Independent references for the tests: the textbook formulas written out with numpy and scipy,
sharing no code with probviz (Bishop 2006, sections 4.2-4.3)."""

from fractions import Fraction

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, logsumexp
from scipy.stats import multivariate_normal


def gaussian_ml(X, y, shared: bool):
    """Priors N_k/N (eq. 4.73), class means (4.75), covariances divided by N_k (4.79), pooled
    sum_k (N_k/N) S_k when shared (4.78). Classes in sorted order of y."""
    X = np.asarray(X, float)
    classes = np.unique(y)
    pi = np.array([np.mean(y == c) for c in classes])
    mu = np.array([X[y == c].mean(axis=0) for c in classes])
    S = np.array([np.cov(X[y == c].T, bias=True) for c in classes])
    if shared:
        S = np.broadcast_to(np.einsum("k,kij->ij", pi, S), S.shape)
    return classes, pi, mu, S


def gaussian_explain(X, y, x, shared: bool):
    """p(x|C_k) by scipy, p(C_k), a_k = ln p(x|C_k) p(C_k) (eq. 4.63) and p(C_k|x) (eq. 4.62)."""
    _, pi, mu, S = gaussian_ml(X, y, shared)
    dens = np.array([multivariate_normal(m, s).pdf(x) for m, s in zip(mu, S)])
    a = np.log(dens * pi)
    return {"density": dens, "prior": pi, "a": a, "posterior": dens * pi / np.sum(dens * pi)}


def lda_two_class(X, y):
    """w = Sigma^-1 (mu_1 - mu_2), w0 of p(C_1|x) = sigma(w^T x + w0) (eqs. 4.65-4.67)."""
    _, pi, mu, S = gaussian_ml(X, y, shared=True)
    P = np.linalg.inv(S[0])
    w = P @ (mu[0] - mu[1])
    w0 = -0.5 * mu[0] @ P @ mu[0] + 0.5 * mu[1] @ P @ mu[1] + np.log(pi[0] / pi[1])
    return w, w0


def exact_mean(X):
    """The column means of X rounded once from their exact rational values (np.mean rounds each
    partial sum: at an offset of 1e6 with a spread of 1e-6 that is an ulp, 1e-4 of the spread)."""
    X = np.asarray(X, float)
    return np.array([float(sum(map(Fraction, X[:, d])) / len(X)) for d in range(X.shape[1])])


def features(X, degree=1, standardize=True, frame=None):
    """[1, phi(x)] with phi the monomials up to ``degree`` of x (standardized by the training
    data's mean and standard deviation when asked)."""
    X = np.asarray(X, float)
    if standardize:
        center, scale = frame
        X = (X - center) / scale
    cols = [np.ones(len(X))]
    for d in range(1, degree + 1):
        for j in range(d + 1):
            cols.append(X[:, 0] ** (d - j) * X[:, 1] ** j)
    return np.column_stack(cols)


def softmax_objective(Phi, codes, K, l2, W):
    """E(W) = -sum_n ln softmax(Phi W^T)_{n, t_n} + (l2/2) ||W[:, 1:]||^2 (eq. 4.108 plus the penalty)
    and its gradient (eq. 4.109 plus l2 W)."""
    N = len(Phi)
    A = Phi @ W.T
    L = logsumexp(A, axis=1)
    E = -(A[np.arange(N), codes] - L).sum() + 0.5 * l2 * np.sum(W[:, 1:] ** 2)
    P = np.exp(A - L[:, None])
    P[np.arange(N), codes] -= 1
    G = P.T @ Phi
    G[:, 1:] += l2 * W[:, 1:]
    return E, G


def softmax_reference(Phi, codes, K, l2):
    """Minimise softmax_objective with L-BFGS and BFGS from zero, to a tight tolerance; the better
    of the two. Returns (W, objective)."""
    F = Phi.shape[1]

    def f(w):
        E, G = softmax_objective(Phi, codes, K, l2, w.reshape(K, F))
        return E, G.ravel()

    best = None
    for method in ("L-BFGS-B", "BFGS"):
        r = minimize(f, np.zeros(K * F), jac=True, method=method,
                     options={"gtol": 1e-12, "maxiter": 20000} | ({"ftol": 1e-16} if method == "L-BFGS-B" else {}))
        if best is None or r.fun < best.fun:
            best = r
    return best.x.reshape(K, F), best.fun


def binary_reference(Phi, t, l2):
    """Two-class logistic regression: softmax with the first row held at zero is the same model;
    here directly, sum softplus(a) - t a + (l2/2)||w[1:]||^2."""
    N, F = Phi.shape

    def f(w):
        a = Phi @ w
        E = np.sum(np.logaddexp(0, a) - t * a) + 0.5 * l2 * w[1:] @ w[1:]
        g = Phi.T @ (expit(a) - t)
        g[1:] += l2 * w[1:]
        return E, g

    best = None
    for method in ("L-BFGS-B", "BFGS"):
        r = minimize(f, np.zeros(F), jac=True, method=method,
                     options={"gtol": 1e-12, "maxiter": 20000} | ({"ftol": 1e-16} if method == "L-BFGS-B" else {}))
        if best is None or r.fun < best.fun:
            best = r
    return best.x, best.fun


# --- the miscalibration map (the "Error against the truth" layer) -------------------------------------

MISCAL_DARK, MISCAL_LIGHT = np.array([84, 22, 112]), np.array([255, 200, 120])  # the ramp's end, light and dark


def true_posterior(truth, X):
    """p(C_k|x) from the truth's priors, mixture weights, means and covariances, by scipy."""
    X = np.atleast_2d(X)
    J = np.zeros((len(X), truth.K))
    for k in range(truth.K):
        for w, mu, S in zip(truth.weights[k], truth.means[k], truth.covariances[k]):
            J[:, k] += truth.priors[k] * w * multivariate_normal(mu, S).pdf(X)
    return J / J.sum(axis=1, keepdims=True)


def posterior_gap(model, class_index, truth, X):
    """max_k |p^_k - p_k|, written with a loop over the classes (a class the model lacks has p^ = 0)."""
    P = true_posterior(truth, X)
    fitted = model.predict_proba(X)
    worst = np.zeros(len(X))
    for k in range(truth.K):
        p_hat = fitted[:, list(class_index).index(k)] if k in class_index else 0.0
        worst = np.maximum(worst, np.abs(p_hat - P[:, k]))
    return worst


def gap_colour(D, bg=(255, 255, 255), end=MISCAL_DARK):
    """The map's colour of gaps D: the background at 0 to ``end`` at 0.5 and above, linearly."""
    t = np.clip(np.asarray(D) / 0.5, 0, 1)[..., None]
    return np.asarray(bg) + t * (end - np.asarray(bg))
