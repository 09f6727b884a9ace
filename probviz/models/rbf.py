"""Gaussian radial basis functions (Bishop 2006, section 4.3.1 and figure 4.12).

phi_m(x) = exp(-||x - mu_m||^2 / (2 s^2)) for centres mu_m (in the units of x) and one width s, beside
the constant phi_0 = 1 (the bias). Logistic and softmax regression fitted on these features are linear in
phi: their boundaries are straight lines in feature space and curves in x.

Computed stably at any offset and scale: the squared distance is summed from the differences x_d - mu_d
(the difference of two nearby floats is exact), each divided by s before squaring, never expanded as
||x||^2 - 2 x.mu + ||mu||^2 (which would cancel to nothing at an offset of 1e6).

Pure numpy: no Qt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

#: the score object's stand-in degree: above 2, so every view takes the curved path (traced, then projected)
RBF_DEGREE = 4
#: the default centres: a GRID x GRID lattice over the training points' bounding box
GRID = 3
MAX_CENTERS = 50


def parse_centers(text: str) -> np.ndarray:
    """Centres written "x,y;x,y;..." as an array (M, 2); "" (or blanks) for none (the default lattice).
    A ValueError names what is wrong, in one line."""
    if not isinstance(text, str):
        raise ValueError(f"centers must be text like \"0,0;1,1\", got {text!r}")
    if not text.strip():
        return np.zeros((0, 2))
    rows = []
    for i, part in enumerate(text.split(";"), start=1):
        if not part.strip():
            raise ValueError(f"centers: centre {i} is empty; write x,y pairs separated by ';' (0,0;1,1)")
        values = part.split(",")
        if len(values) != 2:
            raise ValueError(f"centers: centre {i} ({part.strip()!r}) is not one x,y pair; "
                             "write x,y pairs separated by ';' (0,0;1,1)")
        try:
            x, y = (float(v) for v in values)
        except ValueError:
            raise ValueError(f"centers: centre {i} ({part.strip()!r}) is not two numbers") from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"centers: centre {i} ({part.strip()!r}) is not finite")
        rows.append((x, y))
    if len(rows) > MAX_CENTERS:
        raise ValueError(f"centers: {len(rows)} centres given, at most {MAX_CENTERS}")
    return np.array(rows, dtype=float)


def format_centers(C, decimals: int | None = None) -> str:
    """Centres (M, 2) as the text :func:`parse_centers` reads: every bit (repr of each float), or rounded to
    ``decimals`` places (a dragged centre: no more digits than the pixel it was dropped on)."""
    def one(v):
        if decimals is None:
            return repr(float(v))
        text = f"{float(v):.{max(decimals, 0)}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    return ";".join(f"{one(x)},{one(y)}" for x, y in np.asarray(C, float).reshape(-1, 2))


def check_width(width) -> float:
    """The width s as given: 0 for the default, else a positive finite number (a ValueError otherwise)."""
    if isinstance(width, bool) or not isinstance(width, (int, float, np.floating)) or not (
            math.isfinite(width) and width >= 0):
        raise ValueError(f"width must be a positive number (0: the default), got {width!r}")
    return float(width)


def default_centers(X: np.ndarray) -> np.ndarray:
    """A GRID x GRID lattice over the bounding box of X (deterministic; corners, edge midpoints and the
    centre for GRID = 3), coinciding centres (a box flat in one direction) kept once."""
    X = np.asarray(X, float).reshape(-1, 2)
    lo, hi = X.min(axis=0), X.max(axis=0)
    t = np.linspace(0.0, 1.0, GRID)
    gx = lo[0] + t * (hi[0] - lo[0])  # lo + t (hi - lo): exact at the ends, at any offset
    gy = lo[1] + t * (hi[1] - lo[1])
    C = np.array([(x, y) for y in gy for x in gx])
    _, first = np.unique(C, axis=0, return_index=True)
    return C[np.sort(first)]


def default_width(C: np.ndarray, X: np.ndarray) -> float:
    """The width when none is given: the mean distance from each centre to its nearest other centre (the
    lattice's spacing: neighbouring bumps overlap at exp(-1/2)); one centre alone (or all at one place):
    the points' RMS distance from their mean; if that is 0 too, max(|x|, 1) as data_frame does."""
    C = np.asarray(C, float)
    if len(C) > 1:
        D = np.hypot(C[:, None, 0] - C[None, :, 0], C[:, None, 1] - C[None, :, 1])
        D[np.diag_indices_from(D)] = np.inf
        near = D.min(axis=1)
        near = near[np.isfinite(near) & (near > 0)]
        if near.size:
            return float(near.mean())
    X = np.asarray(X, float).reshape(-1, 2)
    d = X - (X[0] + np.mean(X - X[0], axis=0))
    spread = float(np.sqrt(np.mean(np.sum(d * d, axis=1))))
    return spread if spread > 0 else max(float(np.max(np.abs(X))), 1.0)


def resolve(X, centers: str, width: float) -> tuple[np.ndarray, float]:
    """The centres (M, 2) and width a fit uses: the given ones, or the defaults for these points."""
    C = parse_centers(centers)
    if not len(C):
        C = default_centers(X)
    s = check_width(width)
    return C, (s if s > 0 else default_width(C, X))


def features(X, C, s) -> np.ndarray:
    """phi_m(x_n) = exp(-||x_n - mu_m||^2 / (2 s^2)): array of shape (N, M), without the constant."""
    X = np.asarray(X, float).reshape(-1, 2)
    C = np.asarray(C, float).reshape(-1, 2)
    u = (X[:, None, 0] - C[None, :, 0]) / s
    v = (X[:, None, 1] - C[None, :, 1]) / s
    return np.exp(-0.5 * (u * u + v * v))


@dataclass(frozen=True)
class RBFScores:
    """K class scores s_k(x) = coefs[k, 0] + sum_m coefs[k, m] phi_m(x), what Poly2D is for the
    polynomial bases (the same calls: points, grid, gradient, pairwise differences).

    Parameters
    ----------
    center, scale : array of shape (2,), the data's frame (tolerances of the boundary tracing use it)
    mus : array of shape (M, 2), the centres mu_m; width : float, s
    coefs : array of shape (K, M + 1), row k = (w_k0, w_k1, ..., w_kM)
    """

    center: np.ndarray
    scale: np.ndarray
    mus: np.ndarray
    width: float
    coefs: np.ndarray

    kind = "rbf"

    @property
    def degree(self) -> int:
        """Not a polynomial: reported above 2 so that every boundary is traced as a curve."""
        return RBF_DEGREE

    def __call__(self, X) -> np.ndarray:
        """Values at points X (N, 2): array of shape (N, K)."""
        Phi = features(X, self.mus, self.width)
        return (Phi @ self.coefs[:, 1:].T) + self.coefs[:, 0]

    def gradient(self, X) -> np.ndarray:
        """d s_k / d x at points X: array of shape (N, K, 2), in data units:
        d phi_m / d x = -phi_m(x) (x - mu_m) / s^2."""
        X = np.asarray(X, float).reshape(-1, 2)
        s = self.width
        Phi = features(X, self.mus, s)
        W = self.coefs[:, 1:]
        out = np.empty((len(X), len(self.coefs), 2))
        for d in range(2):
            U = (X[:, None, d] - self.mus[None, :, d]) / s  # (N, M)
            out[:, :, d] = -((Phi * U) @ W.T) / s
        return out

    def evaluate_grid(self, xs, ys, dtype=np.float64, out=None) -> np.ndarray:
        """Values on the grid ys x xs: array of shape (K, len(ys), len(xs)).

        Separable: phi_m(x, y) = e_m(x) f_m(y), so class k is ``(F * w_k) @ E.T`` plus its bias, M
        multiply-adds per pixel."""
        xs = np.asarray(xs, float)
        ys = np.asarray(ys, float)
        u = (xs[:, None] - self.mus[None, :, 0]) / self.width
        v = (ys[:, None] - self.mus[None, :, 1]) / self.width
        E = np.exp(-0.5 * u * u).astype(dtype)  # (C, M)
        F = np.exp(-0.5 * v * v).astype(dtype)  # (R, M)
        W = self.coefs[:, 1:].astype(dtype)
        rows = F[None, :, :] * W[:, None, :]  # (K, R, M)
        S = np.matmul(rows, E.T, out=out)
        S += self.coefs[:, 0].astype(dtype)[:, None, None]
        return S

    def difference(self, k: int, j: int) -> "RBFScores":
        """The single score s_k - s_j."""
        return RBFScores(self.center, self.scale, self.mus, self.width, (self.coefs[k] - self.coefs[j])[None])

    def shifted(self, biases) -> "RBFScores":
        """The same scores with ``biases`` (K,) added: class k's s_k + biases[k]."""
        coefs = np.array(self.coefs, dtype=float)
        coefs[:, 0] += np.asarray(biases, float)
        return RBFScores(self.center, self.scale, self.mus, self.width, coefs)

    def line_roots(self, a: float, per_width: int = 8, reach: float = 9.0) -> np.ndarray:
        """x2 values on the line x1 = a where two scores are equal (where the decision may change), for the
        true error's integral along the line: every pair's difference sampled ``per_width`` nodes per width s
        within ``reach`` widths of each centre near the line (further out every phi_m < exp(-reach^2 / 2) and
        the scores are their biases), each sign change then bisected to the last bit. A pair that touches
        without crossing changes no decision and is not reported."""
        K = len(self.coefs)
        s = self.width
        near = self.mus[np.abs(self.mus[:, 0] - a) <= reach * s]
        if K < 2 or not len(near):
            return np.empty(0)
        step = np.linspace(-reach * s, reach * s, int(2 * reach * per_width) + 1)
        t = np.unique((near[:, 1:2] + step[None, :]).ravel())
        k, j = np.triu_indices(K, 1)

        def gap(x2, pair):  # s_k - s_j at (a, x2) for the pair of each row
            S = self(np.column_stack([np.full(len(x2), a), x2]))
            return S[np.arange(len(x2)), k[pair]] - S[np.arange(len(x2)), j[pair]]

        D = self(np.column_stack([np.full(len(t), a), t]))
        D = D[:, k] - D[:, j]  # (n, pairs)
        roots = [np.repeat(t, D.shape[1])[(D == 0).ravel()]]
        node, pair = np.nonzero(np.sign(D[:-1]) * np.sign(D[1:]) < 0)
        lo, hi = t[node], t[node + 1]
        glo, ghi = D[node, pair], D[node + 1, pair]
        side = np.zeros(len(lo))  # Illinois: the end kept twice in a row has its value halved
        tol = 4 * np.finfo(float).eps * (np.abs(t).max() + s)
        for _ in range(80):  # regula falsi inside each bracket, kept a bracket: never leaves it
            x = lo - glo * (hi - lo) / (ghi - glo)
            x = np.where((x > lo) & (x < hi), x, 0.5 * (lo + hi))
            g = gap(x, pair)
            left = np.sign(g) == np.sign(glo)
            ghi = np.where(left & (side == 1), 0.5 * ghi, ghi)
            glo = np.where(~left & (side == -1), 0.5 * glo, glo)
            lo, glo = np.where(left, x, lo), np.where(left, g, glo)
            hi, ghi = np.where(left, hi, x), np.where(left, ghi, g)
            side = np.where(left, 1, -1)
            if np.all((hi - lo <= tol) | (g == 0)):
                break
        roots.append(np.where(np.abs(glo) <= np.abs(ghi), lo, hi))
        return np.unique(np.concatenate(roots))

    @cached_property
    def n_basis(self) -> int:
        return len(self.mus)

    def features(self, X) -> np.ndarray:
        """phi_m at points X: (N, M)."""
        return features(X, self.mus, self.width)


def feature_space(X, C, s, pair=(0, 1)) -> np.ndarray:
    """The points as Bishop's figure 4.12 (right) shows them: (phi_a(x), phi_b(x)) for two basis functions
    ``pair``: (N, 2)."""
    Phi = features(X, C, s)
    return Phi[:, list(pair)]
