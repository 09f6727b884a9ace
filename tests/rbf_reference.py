"""The independent reference for the radial-basis tests (Bishop 4.3.1): the design matrix by plain loops,
the penalised cross-entropies of eqs. 4.90 and 4.108 written out with their gradients, minimised by scipy's
BFGS. Shares no code with probviz."""

import math

import numpy as np
from scipy.optimize import minimize


def design(X, C, s):
    """[1, phi_1(x), ..., phi_M(x)] row by row, with plain loops; each difference taken before scaling
    (x - mu is exact for nearby floats: the way to get the features right at an offset of 1e6)."""
    rows = []
    for x in X:
        row = [1.0]
        for mu in C:
            d0 = (float(x[0]) - float(mu[0])) / s
            d1 = (float(x[1]) - float(mu[1])) / s
            row.append(math.exp(-(d0 * d0 + d1 * d1) / 2.0))
        rows.append(row)
    return np.array(rows)


def _logsumexp(A):
    m = A.max(axis=1, keepdims=True)
    return (m + np.log(np.exp(A - m).sum(axis=1, keepdims=True)))[:, 0]


def softmax_objective(W, Phi, codes, l2):
    """E(W) = -sum_n ln softmax(Phi W^T)_{n, t_n} + (l2/2) sum_k sum_{m >= 1} W_km^2, and its gradient."""
    A = Phi @ W.T
    lse = _logsumexp(A)
    E = float(np.sum(lse - A[np.arange(len(codes)), codes])) + 0.5 * l2 * float(np.sum(W[:, 1:] ** 2))
    P = np.exp(A - lse[:, None])
    T = np.zeros_like(P)
    T[np.arange(len(codes)), codes] = 1.0
    G = (P - T).T @ Phi
    G[:, 1:] += l2 * W[:, 1:]
    return E, G


def binary_objective(w, Phi, t, l2):
    """E(w) = -sum_n [t_n ln sigma(a_n) + (1 - t_n) ln(1 - sigma(a_n))] + (l2/2) sum_{m >= 1} w_m^2."""
    a = Phi @ w
    # ln sigma(a) = -log1p(exp(-a)), ln(1 - sigma(a)) = -log1p(exp(a)), each computed stably
    nll = np.where(t, np.logaddexp(0.0, -a), np.logaddexp(0.0, a))
    E = float(nll.sum()) + 0.5 * l2 * float(np.sum(w[1:] ** 2))
    y = 0.5 * (1.0 + np.tanh(0.5 * a))
    g = Phi.T @ (y - t)
    g[1:] += l2 * w[1:]
    return E, g


def reference_softmax(Phi, codes, K, l2):
    F = Phi.shape[1]
    def fun(v):
        E, G = softmax_objective(v.reshape(K, F), Phi, codes, l2)
        return E, G.ravel()

    res = minimize(fun, np.zeros(K * F), jac=True,
                   method="BFGS", options={"gtol": 1e-11, "maxiter": 20000})
    W = res.x.reshape(K, F)
    W[:, 0] -= W[:, 0].mean()  # the biases are defined up to a common constant: centred, as the app reports
    return W


def reference_binary(Phi, t, l2):
    res = minimize(lambda w: binary_objective(w, Phi, t, l2), np.zeros(Phi.shape[1]), jac=True, method="BFGS",
                   options={"gtol": 1e-11, "maxiter": 20000})
    return res.x


def proba_softmax(Phi, W):
    A = Phi @ W.T
    return np.exp(A - _logsumexp(A)[:, None])


def proba_ovr(Phi, W):
    s = 0.5 * (1.0 + np.tanh(0.5 * (Phi @ W.T)))
    return s / s.sum(axis=1, keepdims=True)


