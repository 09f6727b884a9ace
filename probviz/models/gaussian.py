"""Gaussian class-conditional models: LDA (shared covariance), QDA (own covariances), covariances
tied within groups of classes, naive Bayes.

All are fitted by maximum likelihood from per-class sufficient statistics
(count, mean, scatter), as in Bishop (2006) eqs. 4.73-4.80:
pi_k = N_k / N, mu_k = class mean, S_k = scatter_k / N_k. A covariance shared by a group g
of classes is pooled over it, Sigma_g = sum_{k in g} scatter_k / N_g (for LDA one group of all:
Sigma = sum_k (N_k / N) S_k); QDA has a group per class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from probviz.models.base import Classifier, class_names
from probviz.models.poly import Poly2D

#: Eigenvalues of a covariance are floored at this fraction of the data's variance.
EIGEN_FLOOR = 1e-6
LOG_2PI = np.log(2.0 * np.pi)


#: Updated statistics are trusted while the scatters' rounding-error bound stays below this
#: fraction of their size; past it (a point dragged far and back) they are recomputed from the data.
DRIFT_TOLERANCE = 1e-10
_EPS = np.finfo(float).eps


@dataclass
class ClassStats:
    """Per-class sufficient statistics: counts (K,), means (K, 2), scatters (K, 2, 2).

    ``scatters[k] = sum_{n in C_k} (x_n - mu_k)(x_n - mu_k)^T``. For O(moved points) updates
    they also keep the sums of the points shifted by a fixed reference ``ref`` (the means when
    computed from the data): ``s1 = sum (x - ref)``, ``s2 = sum (x - ref)(x - ref)^T``, and
    ``drift``, a bound on the absolute rounding error in ``s2``.
    """

    counts: np.ndarray
    means: np.ndarray
    scatters: np.ndarray
    ref: np.ndarray
    s1: np.ndarray
    s2: np.ndarray
    drift: np.ndarray

    @classmethod
    def from_data(cls, X: np.ndarray, codes: np.ndarray, K: int) -> "ClassStats":
        counts = np.bincount(codes, minlength=K).astype(float)
        sums = np.stack([np.bincount(codes, X[:, d], minlength=K) for d in range(2)], axis=1)
        ref = sums / counts[:, None]
        C = X - ref[codes]  # two passes: exact, no cancellation at large offsets
        s1 = np.stack([np.bincount(codes, C[:, d], minlength=K) for d in range(2)], axis=1)
        sxx = np.bincount(codes, C[:, 0] * C[:, 0], minlength=K)
        sxy = np.bincount(codes, C[:, 0] * C[:, 1], minlength=K)
        syy = np.bincount(codes, C[:, 1] * C[:, 1], minlength=K)
        s2 = np.stack([np.stack([sxx, sxy], -1), np.stack([sxy, syy], -1)], axis=1)
        return cls._from_sums(counts, ref, s1, s2, np.zeros(K))

    @classmethod
    def _from_sums(cls, counts, ref, s1, s2, drift) -> "ClassStats":
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_shift = s1 / counts[:, None]
        means = ref + mean_shift  # the corrected two-pass mean and scatter
        scatters = s2 - np.einsum("ki,kj->kij", s1, mean_shift)
        return cls(counts, means, scatters, ref, s1, s2, drift)

    def moved(self, codes: np.ndarray, old: np.ndarray, new: np.ndarray) -> "ClassStats":
        """The statistics after points of classes ``codes`` moved from ``old`` to ``new`` rows.

        O(moved points), independent of N: in coordinates shifted by ``ref``, replacing a by b
        adds b - a to s1 and b b^T - a a^T to s2 (the shift keeps the sums small at large
        offsets). A point dragged far and back adds and removes a huge term; what that
        cancellation may have lost is tracked in ``drift`` (see :meth:`accurate`).
        """
        codes = np.asarray(codes, dtype=np.intp)
        A = np.asarray(old, float).reshape(-1, 2) - self.ref[codes]
        B = np.asarray(new, float).reshape(-1, 2) - self.ref[codes]
        s1, s2, drift = self.s1.copy(), self.s2.copy(), self.drift.copy()
        np.add.at(s1, codes, B - A)
        np.add.at(s2, codes, np.einsum("ni,nj->nij", B, B) - np.einsum("ni,nj->nij", A, A))
        # each entry's rounding error is a few ulps of the largest term added, removed or held
        held = np.maximum(np.abs(self.s2).max(axis=(1, 2)), np.abs(s2).max(axis=(1, 2)))
        np.add.at(drift, codes, 4 * _EPS * (np.einsum("ni,ni->n", A, A) + np.einsum("ni,ni->n", B, B)
                                            + held[codes]))
        return self._from_sums(self.counts, self.ref, s1, s2, drift)

    def one_vs_rest(self, k: int) -> "ClassStats":
        """Two classes: every class but k pooled (class 0), and k (class 1). The pooled scatter is the
        classes' own plus their means' spread about the pooled mean: no pass over the points."""
        rest = np.arange(len(self.counts)) != k
        n = self.counts[rest]
        mean = n @ self.means[rest] / n.sum()
        dev = self.means[rest] - mean
        scatter = self.scatters[rest].sum(axis=0) + np.einsum("k,ki,kj->ij", n, dev, dev)
        counts = np.array([n.sum(), self.counts[k]])
        means = np.stack([mean, self.means[k]])
        scatters = np.stack([scatter, self.scatters[k]])
        return self._from_sums(counts, means, np.zeros((2, 2)), scatters, np.zeros(2))

    def accurate(self) -> bool:
        """Whether these statistics are as good as recomputed ones: every scatter's error bound
        (the drift of s2, and the cancellation in s2 - s1 s1^T / n once the mean has wandered far
        from ``ref``) below DRIFT_TOLERANCE of its size, or of the data's spread for a lone point."""
        with np.errstate(invalid="ignore", divide="ignore"):
            error = self.drift + 4 * _EPS * np.einsum("ki,ki->k", self.s1, self.s1) / self.counts
        size = np.abs(self.scatters).max(axis=(1, 2))
        floor = 1e-4 * self.counts * max(self.frame()[2], 0.0)
        return bool(np.all(error <= DRIFT_TOLERANCE * (size + floor)))

    def frame(self) -> tuple[np.ndarray, np.ndarray, float, float]:
        """Overall mean, standard deviation, mean variance and largest |mean| of all the points."""
        N = self.counts.sum()
        mu = self.counts @ self.means / N
        dev = self.means - mu
        total = self.scatters.sum(axis=0) + np.einsum("k,ki,kj->ij", self.counts, dev, dev)
        var = np.maximum(np.diag(total) / N, 0.0)
        return mu, np.sqrt(var), float(var.mean()), float(np.max(np.abs(self.means)))


def shrink(cov: np.ndarray, fraction: float) -> np.ndarray:
    """(1 - r) Sigma + r (tr Sigma / 2) I for a stack of 2x2 covariances."""
    if fraction == 0.0:
        return cov
    iso = np.trace(cov, axis1=-2, axis2=-1)[..., None, None] / 2.0 * np.eye(2)
    return (1.0 - fraction) * cov + fraction * iso


def floor_eigenvalues(cov: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """Raise every eigenvalue below ``floor`` to it; return the covariances and which were changed."""
    w, V = np.linalg.eigh(cov)
    low = np.any(w < floor, axis=-1)
    if np.any(low):
        w = np.maximum(w, floor)
        fixed = np.einsum("kij,kj,klj->kil", V, w, V)
        cov = np.where(low[:, None, None], fixed, cov)
    return cov, low


class GaussianClassifier(Classifier):
    """Gaussian class-conditionals p(x|C_k) = N(x|mu_k, Sigma_k) with priors pi_k.

    Parameters
    ----------
    priors : sequence of K floats or None
        p(C_k); None uses the class frequencies N_k / N. Renormalized to sum 1.
    reg_covar : float in [0, 1]
        Shrink each covariance toward (trace / 2) I by this fraction; 0 is the exact ML estimate.
    """

    generative = True

    def __init__(self, *, priors=None, reg_covar: float = 0.0):
        self.priors = priors
        self.reg_covar = reg_covar

    def _fit(self, X, codes, K, init=None):
        self._fit_stats(ClassStats.from_data(X, codes, K))

    def fit_moved(self, previous: "GaussianClassifier", codes, old, new) -> "GaussianClassifier | None":
        """Fit after points moved, from ``previous``'s statistics: O(moved points), not O(N).

        ``codes`` index ``previous.classes_``; the result equals a full refit (to rounding).
        None when the update would lose precision (a point dragged far and back): refit instead.
        """
        stats = previous.stats_.moved(codes, old, new)
        if not stats.accurate():
            return None
        return self.fit_stats(previous.classes_, stats, previous.class_names_)

    def fit_stats(self, classes, stats: ClassStats, names=None) -> "GaussianClassifier":
        """Fit from sufficient statistics of the classes ``classes`` (``names``: one per class)."""
        self.classes_ = classes
        self.class_names_ = list(names) if names is not None else class_names(classes)
        self.notices_ = []
        self.n_features_in_ = 2
        self._fit_stats(stats)
        return self

    def _fit_stats(self, stats: ClassStats):
        if not 0.0 <= self.reg_covar <= 1.0:
            raise ValueError(f"reg_covar must lie in [0, 1], got {self.reg_covar}")
        K = len(stats.counts)
        self.stats_ = stats
        self.means_ = stats.means
        self.priors_ = self._priors(stats.counts)
        self.group_of_ = self._class_groups(K)
        mu, sd, spread, typical = stats.frame()
        self.covariances_ = self._covariances(stats, spread, typical)
        # one inverse per group, given to each of its classes: their quadratic terms are then equal and
        # cancel exactly in s_k - s_j, so a boundary within a group is exactly a line
        first = self._group_leaders()
        self.precisions_ = np.linalg.inv(self.covariances_[first])[self.group_of_]
        self.log_dets_ = np.linalg.slogdet(self.covariances_[first])[1][self.group_of_]
        # a spread of a few ulps of the offset is rounding (a constant column), anything more is data
        scale = np.where(sd > 8 * _EPS * typical, sd, max(typical, 1.0))
        self.scores_ = self._score_poly(mu, scale)
        self._after_fit()
        if K == 1:
            self.notices_.append("only one class: p(C|x) = 1 everywhere; its density is shown")

    def _priors(self, counts: np.ndarray) -> np.ndarray:
        if self.priors is None:
            return counts / counts.sum()
        p = np.asarray(self.priors, dtype=float).ravel()
        if p.shape != counts.shape:
            raise ValueError(f"priors has {p.size} values but the data has {counts.size} classes")
        if not np.all(np.isfinite(p)) or np.any(p <= 0):
            raise ValueError("priors must be positive")
        return p / p.sum()

    def _class_groups(self, K: int) -> np.ndarray:
        """The group of each class, (K,) in 0..G-1 numbered by their first class: classes of a group
        share one covariance. Here every class has its own (QDA, naive Bayes)."""
        return np.arange(K)

    def _group_leaders(self) -> np.ndarray:
        """The first class of each group, in group order."""
        return np.unique(self.group_of_, return_index=True)[1]

    def _raw_covariances(self, stats: ClassStats) -> np.ndarray:
        """The ML covariance of each class: its group's scatter pooled, sum_{k in g} scatter_k / N_g."""
        g = self.group_of_
        G = int(g.max()) + 1
        if G == len(g):  # every class alone: S_k = scatter_k / N_k
            return stats.scatters / stats.counts[:, None, None]
        scatter = np.zeros((G, 2, 2))
        np.add.at(scatter, g, stats.scatters)
        return (scatter / np.bincount(g, stats.counts, minlength=G)[:, None, None])[g]

    def _after_fit(self):
        """Derived attributes of a subclass (LDA's linear discriminant)."""

    def _covariances(self, stats: ClassStats, spread: float, typical: float) -> np.ndarray:
        cov = shrink(self._raw_covariances(stats), self.reg_covar)
        underflow = spread <= 0.0 and len(stats.means) > 1 and float(np.ptp(stats.means, axis=0).max()) > 0.0
        if spread <= 0.0:  # every point in the same place (or a spread whose square float64 cannot hold)
            spread = max(typical ** 2, 1.0)
        cov, low = floor_eigenvalues(cov, EIGEN_FLOOR * spread)
        self.regularized_ = bool(np.any(low))
        if underflow:  # the classes differ, but by less than float64 can square: say so, not "collinear"
            self.notices_.append(f"the points' spread (about {np.ptp(stats.means, axis=0).max():.1g}) is too small "
                                 "for float64 to hold its square (below 1e-154): the covariances cannot be "
                                 "estimated and are a regularized guess; rescale the data")
            return cov
        first = np.zeros(len(low), dtype=bool)
        first[self._group_leaders()] = True
        for k in np.flatnonzero(low & first):  # one notice per shared matrix
            self.notices_.append(self._singular_notice(k, stats))
        return cov

    def _singular_notice(self, k: int, stats: ClassStats) -> str:
        members = np.flatnonzero(self.group_of_ == self.group_of_[k])
        if len(members) == len(self.group_of_) > 1:
            return "shared covariance is singular (too few or collinear points): regularized"
        if len(members) > 1:
            names = ", ".join(self.class_names_[m] for m in members)
            return f"covariance shared by {names} is singular (too few or collinear points): regularized"
        name = self.class_names_[k]
        why = "has a single point" if stats.counts[k] == 1 else "is degenerate (points collinear or coincident)"
        return f"covariance of class {name} {why}: regularized"

    def _score_poly(self, center, scale) -> Poly2D:
        """ln pi_k + ln N(x|mu_k, Sigma_k) as a quadratic in z = (x - center) / scale."""
        K = len(self.classes_)
        P = self.precisions_
        Ps = P * np.outer(scale, scale)
        d = self.means_ - center
        Pd = np.einsum("kij,kj->ki", P, d)
        coefs = np.zeros((K, 3, 3))
        coefs[:, 2, 0] = -0.5 * Ps[:, 0, 0]
        coefs[:, 0, 2] = -0.5 * Ps[:, 1, 1]
        coefs[:, 1, 1] = -Ps[:, 0, 1]
        coefs[:, 1, 0] = scale[0] * Pd[:, 0]
        coefs[:, 0, 1] = scale[1] * Pd[:, 1]
        coefs[:, 0, 0] = (-0.5 * np.einsum("ki,ki->k", d, Pd) - 0.5 * (2 * LOG_2PI + self.log_dets_)
                          + np.log(self.priors_))
        return Poly2D(center, scale, coefs)

    # --- the generative quantities --------------------------------------------
    def log_density(self, X) -> np.ndarray:
        """ln p(x|C_k) for each row of X: shape (N, K)."""
        X = np.asarray(X, dtype=float)
        D = X[:, None, :] - self.means_[None]
        maha = np.einsum("nki,kij,nkj->nk", D, self.precisions_, D)
        return -0.5 * (maha + 2 * LOG_2PI + self.log_dets_)

    def log_joint(self, X) -> np.ndarray:
        """a_k = ln p(x|C_k) p(C_k), Bishop eq. 4.63: shape (N, K)."""
        return self.log_density(X) + np.log(self.priors_)

    def explain(self, x) -> dict:
        """p(x|C_k), p(C_k), a_k = ln p(x|C_k) p(C_k) and p(C_k|x) at one point (Bishop eqs. 4.62-4.63)."""
        x = np.asarray(x, dtype=float).reshape(1, 2)
        log_density = self.log_density(x)[0]
        a = log_density + np.log(self.priors_)
        post = np.exp(a - a.max())
        return {"density": np.exp(log_density), "prior": self.priors_.copy(), "a": a,
                "posterior": post / post.sum()}

    likelihood_kind = "joint ln p(X, t)"

    def _training_log_likelihood(self, cross_entropy):
        return self.log_likelihood_from_stats()  # O(K): the training data's own statistics

    def log_likelihood_from_stats(self) -> float:
        """The joint log-likelihood from the sufficient statistics alone, O(K):
        sum_k N_k ln pi_k - 1/2 [N_k (2 ln 2 pi + ln|Sigma_k|) + tr(Sigma_k^-1 S_k)]."""
        st = self.stats_
        trace = np.einsum("kij,kji->k", self.precisions_, st.scatters)
        return float(np.sum(st.counts * (np.log(self.priors_) - 0.5 * (2 * LOG_2PI + self.log_dets_))
                            - 0.5 * trace))

    def log_likelihood(self, X, y) -> float:
        """The joint ln p(X, t) = sum_n ln pi_{t_n} N(x_n|mu_{t_n}, Sigma_{t_n}) (Bishop eq. 4.71)."""
        lj = self.log_joint(X)
        return float(lj[np.arange(len(lj)), self._codes(y)].sum())

    @classmethod
    def count_parameters(cls, K: int, basis: str = "linear", M: int = 2) -> int:
        """(K - 1) priors + K M means + the covariances' entries (Bishop 4.2.2)."""
        return (K - 1) + K * M + cls._n_cov_parameters(K, M)

    @classmethod
    def _n_cov_parameters(cls, K: int, M: int) -> int:
        return K * M * (M + 1) // 2


def _linear_part(poly: Poly2D) -> Poly2D:
    """Scores without their quadratic terms, for classes that all share one covariance: the term
    -1/2 x^T Sigma^-1 x is common to all of them and cancels in the softmax (Bishop 4.2.1), so
    dropping it leaves exact linear scores."""
    coefs = poly.coefs.copy()
    coefs[:, 2, 0] = coefs[:, 0, 2] = coefs[:, 1, 1] = 0.0
    return Poly2D(poly.center, poly.scale, coefs[:, :2, :2])


class QDA(GaussianClassifier):
    """Quadratic discriminant analysis: each class its own full covariance (ML, divided by N_k)."""

    name = "qda"
    label = "QDA (own covariances)"


class GaussianNB(GaussianClassifier):
    """Gaussian naive Bayes: p(x|C_k) = prod_j N(x_j|mu_kj, sigma_kj^2), per-class diagonal covariances."""

    name = "nb"
    label = "Gaussian naive Bayes"

    def _raw_covariances(self, stats):
        cov = super()._raw_covariances(stats)
        return cov * np.eye(2)

    @classmethod
    def _n_cov_parameters(cls, K, M):
        return K * M


class LDA(GaussianClassifier):
    """Linear discriminant analysis: one covariance shared by all classes.

    Extra attributes: ``covariance_`` (2, 2), ``coef_`` (K, 2) = Sigma^-1 mu_k and
    ``intercept_`` (K,) = -1/2 mu_k^T Sigma^-1 mu_k + ln pi_k (Bishop eqs. 4.69-4.70).
    """

    name = "lda"
    label = "LDA (shared covariance)"

    def _class_groups(self, K):
        return np.zeros(K, dtype=np.intp)  # one group: Sigma = sum_k (N_k/N) S_k, Bishop eqs. 4.78-4.80

    def _singular_notice(self, k, stats):
        return "shared covariance is singular (too few or collinear points): regularized"

    def _after_fit(self):
        self.covariance_ = self.covariances_[0]
        P = self.precisions_[0]
        self.coef_ = self.means_ @ P
        self.intercept_ = -0.5 * np.einsum("ki,ki->k", self.coef_, self.means_) + np.log(self.priors_)

    def _score_poly(self, center, scale):
        return _linear_part(super()._score_poly(center, scale))

    @classmethod
    def _n_cov_parameters(cls, K, M):
        return M * (M + 1) // 2


#: The longest groups text taken (ten classes of 200-character names fit easily)
MAX_GROUPS_TEXT = 4000


def parse_groups(text: str) -> list[list[str]]:
    """Groups of class names from ``"a,b;c"``: groups separated by ';', names by ','; spaces around a
    name are dropped, and so are empty names and groups. A ValueError names a class given twice."""
    if not isinstance(text, str):
        raise ValueError(f"groups must be text such as 'a,b;c', got {type(text).__name__}")
    if len(text) > MAX_GROUPS_TEXT:
        raise ValueError(f"groups is {len(text)} characters long; at most {MAX_GROUPS_TEXT}")
    groups = [[n.strip() for n in part.split(",") if n.strip()] for part in text.split(";")]
    groups = [g for g in groups if g]
    seen: dict[str, int] = {}
    for name in (n for g in groups for n in g):
        seen[name] = seen.get(name, 0) + 1
    twice = [n for n, c in seen.items() if c > 1]
    if twice:
        raise ValueError(f"groups name {_quoted(twice)} more than once; put each class in one group")
    return groups


def _quoted(names) -> str:
    return ", ".join(repr(n) for n in names)


def class_groups(text: str, names: list[str], known=None) -> np.ndarray:
    """The group of each class named ``names`` (K,), numbered 0..G-1 by each group's first class; a class
    the text does not name is a group of its own. ``known``: every class name there is (the document's,
    with classes that have no points yet); a name outside it is an error that names it."""
    groups = parse_groups(text)
    everyone = list(names) + [n for n in (known or ()) if n not in names]
    unknown = [n for g in groups for n in g if n not in everyone]
    if unknown:
        raise ValueError(f"groups name no class {_quoted(unknown)} (the classes are {', '.join(everyone)})")
    leader = np.arange(len(names))
    for g in groups:  # a class without points is in no fit; a name two classes share takes both
        members = [k for k, n in enumerate(names) if n in g]
        if members:
            leader[members] = min(members)
    return np.unique(leader, return_inverse=True)[1].ravel()


class TiedCovariance(GaussianClassifier):
    """Covariances tied within groups of classes: the classes of a group share one covariance, pooled over
    the group by maximum likelihood, Sigma_g = (1/N_g) sum_{k in g} sum_{n in C_k} (x_n - mu_k)(x_n - mu_k)^T.
    One group of all the classes is LDA, a group per class QDA; boundaries are lines between classes of a
    group (their quadratic terms cancel, Bishop 4.2.1) and conics between groups.

    Parameters
    ----------
    groups : str
        The groups by class name, ``"a,b;c"`` (groups separated by ';', classes by ','); a class not
        named is a group of its own.

    Extra attributes: ``group_of_`` (K,), ``groups_`` (the class names of each group, G lists, numbered
    by their first class) and ``group_covariances_`` (G, 2, 2).
    """

    name = "tied"
    label = "Tied covariances (shared within groups)"

    def __init__(self, *, priors=None, reg_covar: float = 0.0, groups: str = ""):
        super().__init__(priors=priors, reg_covar=reg_covar)
        self.groups = groups

    def fit(self, X, y, *, init=None, names=None) -> "TiedCovariance":
        # every class the document has, those without points too: naming one of them is no mistake
        self.known_names_ = None if names is None else [str(n) for n in (
            names.values() if isinstance(names, dict) else names)]
        return super().fit(X, y, init=init, names=names)

    def fit_moved(self, previous, codes, old, new):
        self.known_names_ = getattr(previous, "known_names_", None)
        return super().fit_moved(previous, codes, old, new)

    def _class_groups(self, K):
        return class_groups(self.groups, self.class_names_, getattr(self, "known_names_", None))

    def _after_fit(self):
        first = self._group_leaders()
        self.group_covariances_ = self.covariances_[first]
        self.groups_ = [[self.class_names_[k] for k in np.flatnonzero(self.group_of_ == g)]
                        for g in range(len(first))]

    def _score_poly(self, center, scale):
        poly = super()._score_poly(center, scale)
        return _linear_part(poly) if not self.group_of_.any() else poly  # one group: LDA's linear scores

    def n_parameters(self) -> int:
        """(K - 1) priors + K M means + M (M + 1) / 2 per group's covariance."""
        K, M = len(self.classes_), 2
        return (K - 1) + K * M + len(self.groups_) * M * (M + 1) // 2
