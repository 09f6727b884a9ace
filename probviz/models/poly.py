"""Bivariate polynomials: the one form every model's decision values take here.

A model's class scores are polynomials in standardized coordinates
``z = (x - center) / scale``: ``s_k(x) = sum_ij coefs[k, i, j] * z1**i * z2**j``.
LDA and linear logistic/softmax give degree 1, QDA and naive Bayes degree 2,
the cubic basis degree 3. One representation serves the points, the grid
(evaluated separably, see :func:`evaluate_grid`), and the exact boundaries.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import comb

import numpy as np


#: the bases phi(x) the discriminative models take, by name: the monomials up to this total degree
BASES = {"linear": 1, "quadratic": 2, "cubic": 3}


def monomials(degree: int) -> list[tuple[int, int]]:
    """Exponent pairs (i, j) of z1**i z2**j with 1 <= i + j <= degree, by total degree."""
    return [(d - j, j) for d in range(1, degree + 1) for j in range(d + 1)]


def design_matrix(Z: np.ndarray, degree: int) -> np.ndarray:
    """Basis expansion phi(z) without the constant: array of shape (N, len(monomials(degree)))."""
    return np.column_stack([Z[:, 0] ** i * Z[:, 1] ** j for i, j in monomials(degree)])


def _contract(vx: np.ndarray, coefs: np.ndarray, vy: np.ndarray) -> np.ndarray:
    """sum_ij vx[n, i] coefs[k, i, j] vy[n, j] -> (N, K), without einsum's path search."""
    return np.sum(np.tensordot(vx, coefs, axes=([1], [1])) * vy[:, None, :], axis=2)


@dataclass(frozen=True)
class Poly2D:
    """K bivariate polynomials in ``z = (x - center) / scale``.

    Parameters
    ----------
    center, scale : array of shape (2,)
    coefs : array of shape (K, D + 1, D + 1), ``coefs[k, i, j]`` multiplies ``z1**i * z2**j``.
    """

    center: np.ndarray
    scale: np.ndarray
    coefs: np.ndarray

    @cached_property  # asked several times a frame (which boundaries are straight); the coefficients never change
    def degree(self) -> int:
        nz = np.nonzero(np.any(self.coefs != 0, axis=0))
        return int(max(nz[0] + nz[1])) if nz[0].size else 0

    def to_z(self, X: np.ndarray) -> np.ndarray:
        return (np.asarray(X, dtype=float) - self.center) / self.scale

    @cached_property
    def _terms(self):
        """The monomials in use besides the constant, their coefficients (K, T) and the constants (K,)."""
        used = np.any(self.coefs != 0, axis=0)
        used[0, 0] = False
        terms = [tuple(int(v) for v in t) for t in np.argwhere(used)]
        W = np.ascontiguousarray(self.coefs[:, [i for i, _ in terms], [j for _, j in terms]]) if terms else None
        return terms, W, self.coefs[:, 0, 0].copy()

    def __call__(self, X: np.ndarray) -> np.ndarray:
        """Values at points X (N, 2): array of shape (N, K).

        The result is the transpose of a contiguous (K, N) array: the monomials are rows, one matrix
        product gives every class's scores, and reductions over the classes (max, sum, argmax) then
        run over K long contiguous rows instead of N short strided ones.
        """
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        terms, W, b = self._terms
        N = len(X)
        if not terms:
            return np.repeat(b[:, None], N, axis=1).T
        M = np.empty((len(terms), N))  # the monomials, one row each
        row = {t: m for m, t in enumerate(terms)}
        z = []
        for d, unit in enumerate(((1, 0), (0, 1))):  # z_d made in its own row of M when it is a term
            z_d = M[row[unit]] if unit in row else np.empty(N)
            np.subtract(X[:, d], self.center[d], out=z_d)
            z_d /= self.scale[d]
            z.append(z_d)
        powers = [[None, z[0]], [None, z[1]]]  # powers[d][p] = z_d ** p, by multiplication
        top = max(max(i, j) for i, j in terms)
        for d in range(2):
            for p in range(2, top + 1):
                powers[d].append(powers[d][p - 1] * z[d])
        for m, (i, j) in enumerate(terms):
            if i and j:
                np.multiply(powers[0][i], powers[1][j], out=M[m])
            elif (i, j) not in ((1, 0), (0, 1)):
                M[m] = powers[0][i] if i else powers[1][j]
        S = W @ M
        S += b[:, None]
        return S.T

    @cached_property
    def _derivatives(self) -> tuple["Poly2D", "Poly2D"]:
        """d/dz1 and d/dz2 of every polynomial, as polynomials in the same frame (made once)."""
        n = self.coefs.shape[1]
        d0, d1 = np.zeros_like(self.coefs), np.zeros_like(self.coefs)
        for p in range(1, n):
            d0[:, p - 1, :] = p * self.coefs[:, p, :]
            d1[:, :, p - 1] = p * self.coefs[:, :, p]
        return Poly2D(self.center, self.scale, d0), Poly2D(self.center, self.scale, d1)

    def gradient(self, X: np.ndarray) -> np.ndarray:
        """d s_k / d x at points X: array of shape (N, K, 2), in data units."""
        d0, d1 = self._derivatives
        return np.stack([d0(X) / self.scale[0], d1(X) / self.scale[1]], axis=-1)

    def evaluate_grid(self, xs: np.ndarray, ys: np.ndarray, dtype=np.float64, out=None) -> np.ndarray:
        """Values on the grid ys x xs: array of shape (K, len(ys), len(xs)).

        Separable: with Vandermonde matrices of the column and row coordinates,
        class k is ``Vy @ coefs[k].T @ Vx.T``, i.e. (D+1) multiply-adds per pixel
        and no Python loop over pixels.
        """
        n = self.coefs.shape[1]
        zx = (np.asarray(xs, dtype=float) - self.center[0]) / self.scale[0]
        zy = (np.asarray(ys, dtype=float) - self.center[1]) / self.scale[1]
        vx = (zx[:, None] ** np.arange(n)).astype(dtype)
        vy = (zy[:, None] ** np.arange(n)).astype(dtype)
        rows = np.einsum("rj,kij->kri", vy, self.coefs.astype(dtype))
        return np.matmul(rows, vx.T, out=out)

    def in_frame(self, center, scale, degree: int) -> np.ndarray:
        """Coefficients (K, degree+1, degree+1) of the same polynomials in z' = (x - center) / scale.

        z_d = alpha_d + beta_d z'_d with alpha = (center - c) / s and beta = scale / s, so
        z_d**i = sum_b C(i, b) alpha_d**(i - b) beta_d**b z'_d**b, per variable. Going straight
        from frame to frame (not through raw units) keeps the coefficients exact at large
        offsets and small scales; the same frame gives the same coefficients.
        Terms above ``degree`` are dropped (there are none when it is at least self.degree).
        """
        n = self.coefs.shape[1]
        alpha = (np.asarray(center, float) - self.center) / self.scale
        beta = np.asarray(scale, float) / self.scale
        T = []
        for d in range(2):
            t = np.zeros((n, degree + 1))
            for i in range(n):
                for b in range(min(i, degree) + 1):
                    t[i, b] = comb(i, b) * alpha[d] ** (i - b) * beta[d] ** b
            T.append(t)
        return np.einsum("ia,kij,jb->kab", T[0], self.coefs, T[1])

    def difference(self, k: int, j: int) -> "Poly2D":
        """The single polynomial s_k - s_j."""
        return Poly2D(self.center, self.scale, (self.coefs[k] - self.coefs[j])[None])

    def in_raw_units(self) -> np.ndarray:
        """Coefficients of the same polynomials in raw x (center 0, scale 1).

        z_d**i = sum_a C(i, a) x_d**a (-c_d)**(i - a) / s_d**i, one substitution per
        variable, so raw = Tx^T coefs Ty.
        """
        n = self.coefs.shape[1]
        T = []
        for d in range(2):
            t = np.zeros((n, n))
            for i in range(n):
                for a in range(i + 1):
                    t[i, a] = comb(i, a) * (-self.center[d]) ** (i - a) / self.scale[d] ** i
            T.append(t)
        return np.einsum("ia,kij,jb->kab", T[0], self.coefs, T[1])
