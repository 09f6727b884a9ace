"""A known truth: the model the data are drawn from (Bishop 4.2), each class a Gaussian or a mixture of
Gaussians, with its prior.

With the truth known, three things the lecture claims can be measured instead of believed: the
Bayes-optimal classifier (its boundary and its error rate, the least any classifier can have), a
fitted model's true error (under the truth, not on its training points), and how both change with
the number of training points.

Error rates are integrals over the plane, computed line by line: on a vertical line x1 = a every
Gaussian component's p(x|C_k)p(C_k) is a scaled 1-D Gaussian in x2, and a fitted classifier's
decision changes only where two of its (polynomial) scores are equal, so the mass each class puts
where the decision is wrong is a sum of normal CDF differences, exact. The Bayes decision of a
mixture truth changes where two classes' mixture densities are equal: those points are bracketed
on a fine grid along the line and refined by Brent's method. The integral over a is taken by
adaptive quadrature (scipy.integrate.quad) to an absolute 1e-10.
"""

from __future__ import annotations

import warnings

from dataclasses import dataclass
from math import comb

import numpy as np
from probviz.special import logsumexp, ndtr

from probviz.models.base import map_decisions

MAX_SAMPLE = 1_000_000
MAX_COMPONENTS = 8


#: The truth's means, covariances and weights are bounded like the data's coordinates (probviz.data.files).
MAX_ABS = 1e100


def _normalized(v: np.ndarray) -> np.ndarray:
    """Positive numbers scaled to sum to one, without overflow (1e308 + 1e308 is inf)."""
    v = v / v.max()
    return v / v.sum()


@dataclass(frozen=True)
class Truth:
    """Class k has prior ``priors[k]`` and density sum_c weights[k][c] N(x | means[k][c], covariances[k][c]).

    ``weights``, ``means``, ``covariances`` are tuples (one per class) of arrays (M_k,), (M_k, 2),
    (M_k, 2, 2). Single-Gaussian truths (every M_k = 1) also expose ``means_`` (K, 2) and
    ``covariances_`` (K, 2, 2) and a Bayes classifier that is a QDA.
    """

    priors: np.ndarray
    weights: tuple
    means: tuple
    covariances: tuple

    # --- making one -----------------------------------------------------------------------
    @classmethod
    def make(cls, priors, means, covariances) -> "Truth":
        """One Gaussian per class: priors (K,), means (K, 2), covariances (K, 2, 2)."""
        try:
            m = np.asarray(means, float)
            S = np.asarray(covariances, float)
            K = len(np.ravel(np.asarray(priors, float)))
        except (ValueError, TypeError):
            raise ValueError("a truth needs, per class, a prior, a mean (2 numbers) and a 2x2 covariance") from None
        if m.shape != (K, 2) or S.shape != (K, 2, 2):
            raise ValueError(f"a truth needs, per class, a prior, a mean (2 numbers) and a 2x2 covariance; got "
                             f"{K} priors, means of shape {m.shape}, covariances of shape {S.shape}")
        return cls.mixture(priors, [[(1.0, m[k], S[k])] for k in range(K)])

    @classmethod
    def mixture(cls, priors, components) -> "Truth":
        """``components[k]`` lists class k's (weight, mean (2,), covariance (2, 2)); weights renormalised."""
        try:
            p = np.asarray(priors, float).ravel()
        except (ValueError, TypeError):
            raise ValueError("a truth's priors must be positive numbers") from None
        K = len(p)
        if K < 1 or len(components) != K:
            raise ValueError(f"a truth needs one prior and one list of components per class; got {K} priors "
                             f"and {len(components)} classes of components")
        if not np.all(np.isfinite(p)) or np.any(p <= 0):
            raise ValueError("a truth's priors must be positive numbers")
        weights, means, covs = [], [], []
        for k, comps in enumerate(components):
            if not 1 <= len(comps) <= MAX_COMPONENTS:
                raise ValueError(f"class {k + 1} of the truth needs 1 to {MAX_COMPONENTS} components")
            try:
                w = np.array([float(c[0]) for c in comps])
                m = np.array([np.asarray(c[1], float) for c in comps])
                S = np.array([np.asarray(c[2], float) for c in comps])
            except (ValueError, TypeError):  # a nested list where a number belongs, a ragged row
                m = S = np.empty(0)
            if m.shape != (len(comps), 2) or S.shape != (len(comps), 2, 2):
                raise ValueError(f"class {k + 1} of the truth: a mean is 2 numbers and a covariance 2x2")
            if not (np.all(np.isfinite(w)) and np.all(np.isfinite(m)) and np.all(np.isfinite(S))):
                raise ValueError("a truth's numbers must be finite")
            if np.any(np.abs(m) > MAX_ABS) or np.any(np.abs(S) > MAX_ABS) or np.any(w > MAX_ABS):
                # beyond this, sums and products of the numbers (S + S^T, determinants) overflow
                raise ValueError(f"a truth's means, covariances and weights must be within ±{MAX_ABS:g}")
            if np.any(w <= 0):
                raise ValueError("a truth's component weights must be positive")
            if not np.allclose(S, np.swapaxes(S, 1, 2), rtol=1e-12, atol=0):
                raise ValueError("a truth's covariances must be symmetric")
            S = 0.5 * (S + np.swapaxes(S, 1, 2))
            if np.any(S[:, 0, 0] <= 0) or np.any(np.linalg.det(S) <= 1e-12 * S[:, 0, 0] * S[:, 1, 1]):
                raise ValueError("a truth's covariances must be positive definite")
            weights.append(_normalized(w))
            means.append(m)
            covs.append(S)
        return cls(_normalized(p), tuple(weights), tuple(means), tuple(covs))

    @classmethod
    def from_json(cls, value) -> "Truth":
        """The session form: {"priors", "means", "covariances"} or {"priors", "components": per class a
        list of {"weight", "mean", "covariance"}}; a ValueError says what is wrong."""
        if not isinstance(value, dict) or "priors" not in value:
            raise ValueError("a truth needs priors, and means and covariances (or components)")
        if "components" in value:
            comps = value["components"]
            if not isinstance(comps, list) or not all(
                    isinstance(c, list) and all(isinstance(d, dict) and {"weight", "mean", "covariance"} <= set(d)
                                                for d in c) for c in comps):
                raise ValueError("truth components: per class a list of {weight, mean, covariance}")
            return cls.mixture(value["priors"], [[(d["weight"], d["mean"], d["covariance"]) for d in c]
                                                 for c in comps])
        if "means" not in value or "covariances" not in value:
            raise ValueError("a truth needs priors, means and covariances")
        return cls.make(value["priors"], value["means"], value["covariances"])

    def to_json(self) -> dict:
        if self.single:
            return {"priors": self.priors.tolist(), "means": self.means_.tolist(),
                    "covariances": self.covariances_.tolist()}
        return {"priors": self.priors.tolist(), "components": [
            [{"weight": float(w), "mean": m.tolist(), "covariance": S.tolist()} for w, m, S in zip(*c)]
            for c in zip(self.weights, self.means, self.covariances)]}

    # --- what it is -----------------------------------------------------------------------
    @property
    def K(self) -> int:
        return len(self.priors)

    @property
    def single(self) -> bool:
        """Every class one Gaussian: the Bayes classifier is then a QDA with these parameters."""
        return all(len(w) == 1 for w in self.weights)

    @property
    def means_(self) -> np.ndarray:
        return np.array([m[0] for m in self.means])

    @property
    def covariances_(self) -> np.ndarray:
        return np.array([S[0] for S in self.covariances])

    def _flat(self):
        """Every component: class (C,), log(prior * weight) (C,), means (C, 2), covariances (C, 2, 2)."""
        cls = np.concatenate([np.full(len(w), k) for k, w in enumerate(self.weights)])
        logw = np.concatenate([np.log(p) + np.log(w) for p, w in zip(self.priors, self.weights)])
        return cls, logw, np.concatenate(self.means), np.concatenate(self.covariances)

    def log_joint(self, X) -> np.ndarray:
        """ln p(x|C_k) p(C_k) at each row of X: (N, K)."""
        X = np.asarray(X, float).reshape(-1, 2)
        cls, logw, mu, S = self._flat()
        P = np.linalg.inv(S)
        D = X[:, None, :] - mu[None]
        maha = np.einsum("nci,cij,ncj->nc", D, P, D)
        comp = logw - 0.5 * (maha + 2 * np.log(2 * np.pi) + np.linalg.slogdet(S)[1])
        return _per_class_logsumexp(comp, cls)

    def posterior(self, X) -> np.ndarray:
        """p(C_k|x) under the truth: (N, K)."""
        A = self.log_joint(X)
        return np.exp(A - logsumexp(A, axis=1, keepdims=True))

    def mean_and_covariance(self) -> tuple[np.ndarray, np.ndarray]:
        """Per class the mean (K, 2) and covariance (K, 2, 2) of its (mixture) density."""
        means, covs = [], []
        for w, m, S in zip(self.weights, self.means, self.covariances):
            mu = w @ m
            D = m - mu
            means.append(mu)
            covs.append(np.einsum("c,cij->ij", w, S) + np.einsum("c,ci,cj->ij", w, D, D))
        return np.array(means), np.array(covs)

    # --- drawing from it ------------------------------------------------------------------
    def sample(self, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """n labelled points: each label drawn with the priors, a component with its weights, then
        x ~ N(mu, Sigma). The same seed gives the same points (numpy's PCG64)."""
        n = int(n)
        if not 0 <= n <= MAX_SAMPLE:
            raise ValueError(f"the number of points must be from 0 to {MAX_SAMPLE:,}, got {n}")
        rng = np.random.default_rng(int(seed))
        labels = rng.choice(self.K, size=n, p=self.priors)
        return self._draw(rng, labels), labels

    def sample_counts(self, counts, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """``counts[k]`` points of class k (the labels in class order), seeded."""
        rng = np.random.default_rng(int(seed))
        labels = np.repeat(np.arange(self.K), np.asarray(counts, int))
        return self._draw(rng, labels), labels

    def _draw(self, rng, labels) -> np.ndarray:
        X = np.empty((len(labels), 2))
        Z = rng.standard_normal((len(labels), 2))
        for k in range(self.K):
            idx = np.flatnonzero(labels == k)
            comp = rng.choice(len(self.weights[k]), size=len(idx), p=self.weights[k])
            L = np.linalg.cholesky(self.covariances[k])
            X[idx] = self.means[k][comp] + np.einsum("nij,nj->ni", L[comp], Z[idx])
        return X

    # --- the Bayes-optimal classifier -----------------------------------------------------
    def model(self, classes=None, names=None):
        """The Bayes-optimal classifier of a single-Gaussian truth as a fitted QDA (scores
        ln p(x|C_k) + ln p(C_k)): drawn with the machinery of any fit. None for a mixture truth."""
        if not self.single:
            return None
        from probviz.models.base import class_names
        from probviz.models.gaussian import QDA

        m = QDA()
        m.classes_ = np.arange(self.K) if classes is None else np.asarray(classes)
        m.class_names_ = class_names(m.classes_, names)
        m.notices_, m.n_features_in_, m.regularized_ = [], 2, False
        m.means_, m.priors_, m.covariances_ = self.means_, self.priors.copy(), self.covariances_
        m.precisions_ = np.linalg.inv(m.covariances_)
        m.log_dets_ = np.linalg.slogdet(m.covariances_)[1]
        mu, S = self.mean_and_covariance()
        center = self.priors @ mu
        scale = np.sqrt(np.maximum(np.einsum("k,kii->i", self.priors, S), 1e-300))
        m.scores_ = m._score_poly(center, scale)
        return m

    def bayes_error(self, cancelled=None) -> float:
        """1 - integral of max_k p(x|C_k) p(C_k): the least error any classifier can have. Raises
        :class:`Cancelled` as soon as ``cancelled()`` says so (it is asked once per line of the integral)."""
        return _integrate_errors(self, lambda a: _bayes_cuts(self, a),
                                 lambda X: np.argmax(self.log_joint(X), axis=1), cancelled)

    # --- the line x1 = a --------------------------------------------------------------------
    def _span(self) -> tuple[float, float]:
        _, _, mu, S = self._flat()
        sd = np.sqrt(S[:, 0, 0])
        return float(np.min(mu[:, 0] - 12 * sd)), float(np.max(mu[:, 0] + 12 * sd))

    def _line(self, a: float):
        """On x1 = a, per component: its class, ln c (the log mass of its slice, prior and weight
        included), the conditional mean m and standard deviation s of x2."""
        cls, logw, mu, S = self._flat()
        v1 = S[:, 0, 0]
        m = mu[:, 1] + S[:, 1, 0] / v1 * (a - mu[:, 0])
        s = np.sqrt(S[:, 1, 1] - S[:, 1, 0] ** 2 / v1)
        log_c = logw - 0.5 * np.log(2 * np.pi * v1) - 0.5 * (a - mu[:, 0]) ** 2 / v1
        return cls, log_c, m, s


def _per_class_logsumexp(L: np.ndarray, cls: np.ndarray) -> np.ndarray:
    """ln sum over each class's columns of exp(L): (n, K) from (n, components), ``cls`` the components'
    classes in order (as ``Truth._flat`` gives them, every class at least one)."""
    starts = np.flatnonzero(np.r_[True, cls[1:] != cls[:-1]])
    top = np.maximum.reduceat(L, starts, axis=1)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):  # a class with no mass here: ln 0 = -inf
        return safe + np.log(np.add.reduceat(np.exp(L - safe[:, cls]), starts, axis=1))


def _line_scores(poly, a: float) -> np.ndarray:
    """Polynomials (K, D + 1) of ``poly`` on the line x1 = a, in powers of x2, highest first."""
    if getattr(poly, "kind", "") == "rbf":  # no roots to find in closed form: said, not guessed
        raise ValueError("radial basis scores are not polynomials: their cuts come from RBFScores.line_roots")
    C = poly.coefs  # in z = (x - center) / scale
    za = (a - poly.center[0]) / poly.scale[0]
    n = C.shape[1]
    in_z2 = np.einsum("kij,i->kj", C, za ** np.arange(n))
    c2, s2 = poly.center[1], poly.scale[1]
    T = np.zeros((n, n))
    for j in range(n):  # z2^j = sum_b C(j, b) x2^b (-c2)^(j - b) / s2^j
        for b in range(j + 1):
            T[j, b] = comb(j, b) * (-c2) ** (j - b) / s2 ** j
    return (in_z2 @ T)[:, ::-1]


def _real_roots(d: np.ndarray) -> list:
    d = np.trim_zeros(d, "f")
    if len(d) <= 1:
        return []
    r = np.roots(d)
    return list(r.real[np.abs(r.imag) <= 1e-9 * (1 + np.abs(r.real))])


def _low_degree_roots(D: np.ndarray) -> np.ndarray:
    """The real roots of many polynomials of degree at most 2 (rows of D, highest power first), at once:
    what ``_real_roots`` gives row by row, by the stable quadratic formula (a tangency's pair, complex by
    a rounding, kept as one double root, as ``_real_roots`` keeps it)."""
    top = np.max(np.abs(D), axis=1, keepdims=True)
    D = D / np.where(top > 0, top, 1.0)  # the same roots; b^2 and 4ac neither overflow nor underflow
    a, b, c = (D[:, -3], D[:, -2], D[:, -1]) if D.shape[1] == 3 else (np.zeros(len(D)), D[:, -2], D[:, -1])
    out = []
    line = (a == 0) & (b != 0)
    out.append(-c[line] / b[line])
    q = a != 0
    a, b, c = a[q], b[q], c[q]
    disc = b * b - 4 * a * c
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.abs(disc))
        two = disc >= 0
        s = -0.5 * (b + np.where(b >= 0, root, -root))
        out += [(s / a)[two], np.where(s != 0, c / s, s / a)[two]]
        # complex pair re +- i im, im = sqrt(-disc) / 2|a|: real enough when im <= 1e-9 (1 + |re|) (np.roots's test)
        re, im = -b / (2 * a), root / (2 * np.abs(a))
        near = ~two & (im <= 1e-9 * (1 + np.abs(re)))
    out += [re[near], re[near]]
    return np.concatenate(out)


def model_cuts(model, a: float) -> np.ndarray:
    """x2 values on the line x1 = a where ``model``'s decision may change: real roots of every pairwise
    score difference, and of the discriminant lines it draws (one-vs-rest, one-vs-one)."""
    if getattr(model.scores_, "kind", "") == "rbf":  # radial basis functions: no polynomial to solve
        return model.scores_.line_roots(a)
    P = _line_scores(model.scores_, a)
    k, j = np.triu_indices(len(P), 1)
    if P.shape[1] <= 3:  # linear and quadratic scores: every pair at once
        roots = list(_low_degree_roots(P[k] - P[j]))
    else:
        roots = [r for k_, j_ in zip(k, j) for r in _real_roots(P[k_] - P[j_])]
    lines = model.lines(None) if hasattr(model, "lines") else None
    for _, _, poly in lines or []:
        roots += _real_roots(_line_scores(poly, a)[0])
    return np.unique(np.asarray(roots, float))


def _line_log_joints(truth: Truth, line, x2: np.ndarray, classes=None) -> np.ndarray:
    """ln p(x, C_k) at (a, x2) for the ``classes`` (default all), shape (len(x2), len(classes)), from the components' slices on
    x1 = a (``line`` = truth._line(a)): ln c_i + ln N(x2 | m_i, s_i^2), summed per class in log space.
    Small arrays and no per-call overhead: Brent's method calls this once per iterate."""
    cls, log_c, m, s = line
    x2 = np.atleast_1d(np.asarray(x2, float))
    L = log_c - np.log(s) - 0.5 * np.log(2 * np.pi) - 0.5 * ((x2[:, None] - m) / s) ** 2  # (n, components)
    if classes is None:
        return _per_class_logsumexp(L, cls)
    out = np.full((len(x2), len(classes)), -np.inf)
    for i, k in enumerate(classes):
        Lk = L[:, cls == k]
        top = Lk.max(axis=1)
        safe = np.where(np.isfinite(top), top, 0.0)
        out[:, i] = safe + np.log(np.exp(Lk - safe[:, None]).sum(axis=1))
    return out


def _pair_gap(x2, line, j, k):
    """ln p(a, x2, C_j) - ln p(a, x2, C_k) on the line and its slope in x2, elementwise in x2, j and k
    (arrays of one shape)."""
    cls, log_c, m, s = line
    L = log_c - np.log(s) - 0.5 * ((x2[:, None] - m) / s) ** 2  # (n, components); 2 pi cancels
    dL = -(x2[:, None] - m) / s ** 2

    def class_lse(c):
        Lc = np.where(cls == c[:, None], L, -np.inf)
        top = Lc.max(axis=1)
        w = np.exp(Lc - np.where(np.isfinite(top), top, 0.0)[:, None])
        total = w.sum(axis=1)
        return top + np.log(total), (w * dL).sum(axis=1) / total

    (fj, dj), (fk, dk) = class_lse(j), class_lse(k)
    return fj - fk, dj - dk


def _refine_cuts(line, j, k, left, right, iterations: int = 100) -> np.ndarray:
    """The roots of ln f_j - ln f_k in the brackets [left, right] (one per element), all at once: Newton's
    step where it stays inside the bracket, else bisection (Numerical Recipes' rtsafe, vectorised), to
    1e-12 relative, as Brent's method gave one bracket at a time. (scipy's elementwise root finder
    spends more in its bookkeeping than these few small steps cost.)"""
    g_left, _ = _pair_gap(left, line, j, k)
    lo, hi = np.where(g_left < 0, left, right), np.where(g_left < 0, right, left)  # g(lo) < 0 <= g(hi)
    x = 0.5 * (left + right)
    active = np.ones(len(x), bool)
    for _ in range(iterations):
        g, slope = _pair_gap(x[active], line, j[active], k[active])
        xa, la, ha = x[active], lo[active], hi[active]
        la, ha = np.where(g < 0, xa, la), np.where(g < 0, ha, xa)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = xa - g / slope
        inside = np.isfinite(newton) & ((newton - la) * (newton - ha) < 0)
        step = np.where(inside, newton, 0.5 * (la + ha))
        tol = 1e-12 * np.maximum(1.0, np.abs(xa))
        # settled: Newton's next step (inside the bracket or not) is within the tolerance, or the bracket is
        # (a root a hair outside ``lo`` by rounding would otherwise be bisected towards, 30 steps)
        settled = ~(np.abs(g) > tol * np.abs(slope)) | (np.abs(ha - la) <= tol)
        x[active] = np.where(settled & inside, newton, np.where(settled, xa, step))
        lo[active], hi[active] = la, ha
        active[np.flatnonzero(active)[settled]] = False
        if not active.any():
            break
    return x


def _bayes_cuts(truth: Truth, a: float, grid: int = 1024) -> np.ndarray:
    """Where the Bayes decision changes on x1 = a: exact roots for a single-Gaussian truth; for a
    mixture, the argmax bracketed on a grid and every bracket refined at once."""
    if truth.single:
        return model_cuts(truth.model(), a)
    line = truth._line(a)
    _, _, m, s = line
    lo, hi = float(np.min(m - 12 * s)), float(np.max(m + 12 * s))
    xs = np.linspace(lo, hi, grid)
    best = np.argmax(_line_log_joints(truth, line, xs), axis=1)
    at = np.flatnonzero(best[1:] != best[:-1])
    if not len(at):
        return np.empty(0)
    return _refine_cuts(line, best[at + 1], best[at], xs[at], xs[at + 1])


class Cancelled(Exception):
    """An integral given up because its caller no longer wants it."""


def _line_pieces(truth: Truth, a: float, cuts_of, decide):
    """The line x1 = a cut at ``cuts_of(a)`` into segments: each segment's owner (``decide`` asked inside
    it; -1 for none), the components' classes and the mass (segments, components) each component puts on
    each segment, prior and weight included: sums of normal CDF differences, exact."""
    cls, log_c, m, s = truth._line(a)
    lo, hi = np.min(m - 12 * s), np.max(m + 12 * s)
    cuts = cuts_of(a)
    cuts = cuts[(cuts > lo) & (cuts < hi)]
    edges = np.r_[-np.inf, cuts, np.inf]
    ends = np.r_[lo, cuts, hi]  # the segments' owners are asked inside them, at any scale
    mids = 0.5 * (ends[1:] + ends[:-1])
    owner = decide(np.column_stack([np.full(len(mids), a), mids]))
    z0, z1 = (edges[:-1, None] - m) / s, (edges[1:, None] - m) / s  # (segments, components)
    mass = np.where(z0 > 0, ndtr(-z0) - ndtr(-z1), ndtr(z1) - ndtr(z0))  # no cancellation in a tail
    return owner, cls, np.exp(log_c) * mass


def _breakpoints(truth: Truth) -> tuple[float, float, list]:
    """The span of x1 to integrate over and the components' means in it (where the integrand peaks)."""
    lo, hi = truth._span()
    _, _, mu, _ = truth._flat()
    return lo, hi, sorted(set(np.clip(mu[:, 0], lo, hi).tolist()))


def _integrate_errors(truth: Truth, cuts_of, decide, cancelled=None) -> float:
    """The integral over x1 of, on each line, the mass of every class where ``decide`` names another
    (or none, -1) between consecutive ``cuts_of(a)``."""

    def wrong_mass(a: float) -> float:
        if cancelled is not None and cancelled():
            raise Cancelled  # quad passes the integrand's exception on
        owner, cls, mass = _line_pieces(truth, a, cuts_of, decide)
        return float(np.sum(mass[cls[None, :] != owner[:, None]]))

    lo, hi, points = _breakpoints(truth)
    # a tolerance the integrand can meet: its cuts move by Brent's 1e-12 and a mixture's grid may
    # miss a sliver, so asking for 1e-10 subdivided to the limit chasing rounding (522 s at 10 x 8)
    from scipy import integrate  # here: it loads scipy.optimize and scipy.linalg (0.5 s at start-up)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        value, _ = integrate.quad(wrong_mass, lo, hi, points=points, limit=200, epsabs=1e-9, epsrel=1e-7)
    return float(min(max(value, 0.0), 1.0))


def integrate_confusion(truth: Truth, cuts_of, decide, cancelled=None) -> np.ndarray:
    """C[k, j] = the integral of p(x, C_k) over the region where ``decide`` names class j (Bishop 1.5.1),
    the last column where it names none (-1): (K, K + 1), the same line-by-line integration as the error
    rates (``cuts_of(a)`` where the decision may change on x1 = a), vector-valued (scipy's quad_vec).
    The error rate is 1 - trace; sum_kj L_kj C_kj is the expected loss (eq. 1.80)."""
    K = truth.K

    def masses(a: float) -> np.ndarray:
        if cancelled is not None and cancelled():
            raise Cancelled
        owner, cls, mass = _line_pieces(truth, a, cuts_of, decide)
        out = np.zeros((K, K + 1))
        col = np.where(owner >= 0, owner, K)
        np.add.at(out, (cls[None, :].repeat(len(owner), 0), col[:, None].repeat(len(cls), 1)), mass)
        return out.ravel()

    lo, hi, points = _breakpoints(truth)
    from scipy import integrate

    value, _ = integrate.quad_vec(masses, lo, hi, points=points, limit=400, epsabs=1e-9, epsrel=1e-7,
                                  norm="max")
    return np.clip(value.reshape(K, K + 1), 0.0, 1.0)


def error_rate(truth: Truth, model, class_index=None, cancelled=None) -> float:
    """The probability under ``truth`` that ``model`` assigns a point to another class than its own:
    sum_k p(C_k) P(decision != k | C_k). ``class_index[i]`` is the truth's class of the model's class i
    (default: the same order); a truth class the model never predicts is always wrong there, and an
    undecided point (-1) is an error."""
    idx = np.arange(len(model.classes_)) if class_index is None else np.asarray(class_index)
    closed = _linear_pair_error(truth, model, idx)
    if closed is not None:
        return closed

    def decide(X):
        d = model.decide(X) if hasattr(model, "decide") else map_decisions(model, X)
        return np.where(d >= 0, idx[np.maximum(d, 0)], -1)

    return _integrate_errors(truth, lambda a: model_cuts(model, a), decide, cancelled)


def _linear_pair_error(truth: Truth, model, idx) -> float | None:
    """The error of a two-class model with a linear score difference d(x) under Gaussian classes, in
    closed form (None for anything else): under C_t, d(x) ~ N(m_t, s_t^2) with m_t = d(mu_t) and
    s_t^2 = g^T Sigma_t g, g the gradient of d, so P(d > 0 | C_t) = Phi(m_t / s_t) (Bishop 4.1.1, 2.3).
    Worked in the model's standardized coordinates, where d's coefficients are well scaled."""
    P = getattr(model, "scores_", None)
    if not truth.single or hasattr(model, "decide") or P is None or len(P.coefs) != 2 or P.degree > 1:
        return None
    d = P.coefs[1] - P.coefs[0]  # argmax picks model class 1 where d > 0
    g = np.array([d[1, 0], d[0, 1]]) if d.shape[0] > 1 else np.zeros(2)
    mu = (truth.means_ - P.center) / P.scale
    S = truth.covariances_ / np.outer(P.scale, P.scale)
    m = d[0, 0] + mu @ g
    s = np.sqrt(np.einsum("i,kij,j->k", g, S, g))
    with np.errstate(divide="ignore", invalid="ignore"):
        one = np.where(s > 0, ndtr(m / s), (m > 0).astype(float))  # P(d > 0 | C_t)
        zero = np.where(s > 0, ndtr(-m / s), (m < 0).astype(float))  # each tail on its own: no 1 - tiny
    tied = (s == 0) & (m == 0)  # d = 0 everywhere (w = 0): every point undecided, an error
    t = np.arange(truth.K)
    wrong = one * (idx[1] != t) + zero * (idx[0] != t) + tied
    return float(min(max(truth.priors @ wrong, 0.0), 1.0))


def fitted_truth(model) -> Truth:
    """The truth a fitted generative model believes in: its priors, means and covariances (Bishop 4.2:
    a generative model can generate data). A ValueError for models of p(C_k|x) alone."""
    if not getattr(model, "generative", False):
        raise ValueError(f"{model.label} models p(C_k|x) only: it cannot generate points x (Bishop 4.3); "
                         "sample from lda, qda or nb")
    return Truth.make(model.priors_, model.means_, model.covariances_)


# --- editing a single-Gaussian truth by its handles ---------------------------------------

def handles(truth: Truth) -> np.ndarray:
    """Per class the mean and the ends of the 2-sigma ellipse's two axes: (K, 3, 2), rows
    [mean, major axis end, minor axis end] (single-Gaussian truths)."""
    out = []
    for mu, S in zip(truth.means_, truth.covariances_):
        w, V = np.linalg.eigh(S)  # ascending: column 1 is the major axis
        out.append([mu, mu + 2 * np.sqrt(w[1]) * V[:, 1], mu + 2 * np.sqrt(w[0]) * V[:, 0]])
    return np.array(out)


def with_handle(truth: Truth, k: int, which: int, xy) -> Truth:
    """The truth with class k's handle ``which`` (0 the mean, 1 the major axis end, 2 the minor) moved to
    ``xy``: the mean moves the Gaussian; an axis end sets that axis's direction and 2-sigma length, the
    other axis keeping its length at right angles."""
    if which == 0:
        means = truth.means_.copy()
        means[k] = np.asarray(xy, float)
        return Truth.make(truth.priors, means, truth.covariances_.copy())
    h = handles(truth)[k]
    return with_axis(truth, k, xy, float(np.hypot(*(h[3 - which] - h[0]))))


def with_axis(truth: Truth, k: int, end, other: float) -> Truth:
    """The truth with class k's 2-sigma ellipse turned and stretched so that one axis ends at ``end``, the
    other at right angles keeping the 2-sigma half-length ``other``: Sigma = (L^2 u u^T + other^2 p p^T) / 4,
    u the unit vector from the mean to ``end``, L its distance, p = u turned by 90 degrees. A drag keeps
    ``other`` from its start, so which axis is the longer (the order :func:`handles` gives) never matters.
    The truth itself when ``end`` is the mean."""
    means, covs = truth.means_.copy(), truth.covariances_.copy()
    v = np.asarray(end, float) - means[k]
    length = float(np.hypot(*v))
    if not length > 0:
        return truth
    u = v / length
    perp = np.array([-u[1], u[0]])
    covs[k] = (np.outer(u, u) * length ** 2 + np.outer(perp, perp) * float(other) ** 2) / 4.0
    return Truth.make(truth.priors, means, covs)
