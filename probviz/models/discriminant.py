"""Discriminant functions (Bishop 4.1): least squares, Fisher's linear discriminant, the perceptron.

They assign a class without a probability: y_k(x) = w_k^T x + w_k0 and "winner takes all" (eq. 4.9),
or a sign. They draw decision regions and boundaries, never a posterior heatmap; ``probabilistic``
is False and ``decide`` (-1 where the scheme cannot decide) replaces p(C_k|x).

Every fit is made on the standardized features z = (x - center) / scale with a constant 1 (each
method is invariant to that change of coordinates, Fisher and least squares exactly, the perceptron
up to its path) and reported in the units of x.
"""

from __future__ import annotations

import numpy as np

from probviz.models.base import Classifier, _classes_first, argmax_classes, data_frame, single_class_scores
from probviz.models.newton import separation
from probviz.models.poly import Poly2D

SCHEMES = ("k-class", "one-vs-rest", "one-vs-one")
DEFAULT_EPOCHS = 100
DEFAULT_ETA = 1.0


def linear_scores(center, scale, W) -> Poly2D:
    """K linear scores w_k0 + w_k1 z1 + w_k2 z2 from the rows [w_k0, w_k1, w_k2] of W (K, 3)."""
    W = np.atleast_2d(np.asarray(W, dtype=float))
    coefs = np.zeros((len(W), 2, 2))
    coefs[:, 0, 0], coefs[:, 1, 0], coefs[:, 0, 1] = W[:, 0], W[:, 1], W[:, 2]
    return Poly2D(np.asarray(center, float), np.asarray(scale, float), coefs)


def raw_rows(poly: Poly2D) -> tuple[np.ndarray, np.ndarray]:
    """(coef (K, 2), intercept (K,)) of linear scores in the units of x."""
    raw = poly.in_raw_units()
    return np.stack([raw[:, 1, 0], raw[:, 0, 1]], axis=1), raw[:, 0, 0].copy()


def _design(X, center, scale) -> np.ndarray:
    return np.column_stack([np.ones(len(X)), (X - center) / scale])


def least_squares_weights(Phi, T) -> np.ndarray:
    """The minimum-norm W (K, F) minimising ||Phi W^T - T||^2: W^T = Phi^+ T (Bishop eq. 4.16)."""
    return np.linalg.lstsq(Phi, T, rcond=None)[0].T


class _Discriminant(Classifier):
    """Shared parts: no posterior, a decision with an 'undecided' (-1), accuracy as the summary."""

    probabilistic = False
    likelihood_kind = ""

    def decide(self, X) -> np.ndarray:
        """The class index (into ``classes_``) each row of X is assigned, -1 where none is."""
        return argmax_classes(_classes_first(self.decision_function(X), -1)).astype(np.intp)

    def decide_grid(self, xs, ys) -> np.ndarray:
        """``decide`` on the grid ys x xs: int array (len(ys), len(xs))."""
        S = self.scores_.evaluate_grid(xs, ys)
        return argmax_classes(S).astype(np.intp) if len(S) > 1 else np.zeros(S.shape[1:], np.intp)

    def lines(self, bounds):
        """The discriminants' own lines to draw (None: the boundaries between the winning scores)."""
        return None

    def predict(self, X):
        """The assigned labels; an undecided point gets the first class's label (see ``decide``)."""
        return self.classes_[np.maximum(self.decide(X), 0)]

    def proba_from_scores(self, S, axis=-1, dtype=np.float64):
        raise TypeError(f"{self.label} is a discriminant function: it gives no p(C_k|x) (Bishop 4.1)")

    def explain(self, x) -> dict:
        x = np.asarray(x, dtype=float).reshape(1, 2)
        return {"y": self.decision_function(x)[0], "decision": int(self.decide(x)[0])}

    def evaluate(self, X, y):
        codes = self._codes(y)
        decided = self.decide(np.asarray(X, dtype=float))
        wrong = decided != codes
        summary = {"model": self.name, "classes": [str(c) for c in self.classes_],
                   "n_parameters": self.n_parameters(), "accuracy": float(np.mean(~wrong)),
                   "undecided": int(np.count_nonzero(decided < 0)), "notices": list(self.notices_)}
        return summary, wrong

    def cross_entropy(self, X, y):
        raise TypeError(f"{self.label} gives no probabilities, so no cross-entropy")

    def log_likelihood(self, X, y):
        raise TypeError(f"{self.label} gives no probabilities, so no likelihood")

    def n_parameters(self):
        return type(self).count_parameters(len(self.classes_))

    def _single(self, X):
        self.scores_ = single_class_scores(X)
        self.coef_, self.intercept_ = np.zeros((0, 2)), np.zeros(0)
        self.notices_.append("only one class: nothing to discriminate")

    def set_weights(self, center, scale, W):
        """Take the weights W (rows of (w0, w1, w2) on the features standardized by (center, scale)): the
        model's scores, raw coefficients and frame follow. Part of the API a trainer uses."""
        self.frame_ = (center, scale)
        self.weights_ = np.atleast_2d(W)
        self.scores_ = linear_scores(center, scale, W)
        self.coef_, self.intercept_ = raw_rows(self.scores_)


class LeastSquares(_Discriminant):
    """Least squares for classification (Bishop 4.1.3): 1-of-K targets, y(x) = W^T (1, x), closed form
    W^T = Phi^+ T (eq. 4.16).

    ``scheme`` says how K classes are decided from linear discriminants (Bishop 4.1.2):
    ``"k-class"`` takes the largest y_k (eq. 4.9); ``"one-vs-rest"`` asks each y_k (the least-squares
    fit of class k against the rest, targets 1 and 0) whether y_k > 1/2 and leaves undecided the points
    claimed by no class or by several; ``"one-vs-one"`` fits a line to each pair of classes on their
    own points (targets +1, -1) and takes a vote, leaving undecided a tie for the most votes.
    """

    name = "leastsquares"
    label = "Least squares"

    def __init__(self, *, scheme: str = "k-class"):
        self.scheme = scheme

    @classmethod
    def count_parameters(cls, K, basis="linear", M=2):
        """K (M + 1) weights; one-vs-one K (K - 1) / 2 lines of M + 1."""
        return K * (M + 1)

    def n_parameters(self):
        K = len(self.classes_)
        return 3 * K * (K - 1) // 2 if self.scheme == "one-vs-one" else 3 * K

    def _fit(self, X, codes, K, init=None):
        if self.scheme not in SCHEMES:
            raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, got {self.scheme!r}")
        if K == 1:
            return self._single(X)
        center, scale = data_frame(X)
        Phi = _design(X, center, scale)
        T = np.eye(K)[codes]
        self.set_weights(center, scale, least_squares_weights(Phi, T))
        self.pairs_ = []
        if self.scheme == "one-vs-one":
            for k in range(K):
                for j in range(k + 1, K):
                    mine = (codes == k) | (codes == j)
                    t = np.where(codes[mine] == k, 1.0, -1.0)
                    self.pairs_.append((k, j, least_squares_weights(Phi[mine], t[:, None])[0]))
            self._pair_scores = linear_scores(center, scale, [w for _, _, w in self.pairs_])
        if self.scheme != "k-class" or K > 2:
            undecided = int(np.count_nonzero(self.decide(X) < 0))
            if self.scheme != "k-class" and undecided:
                # only then: the scheme's undecided region may lie far outside the view, and a notice
                # about hatching with nothing hatched misleads (the figure's legend says it when drawn)
                why = "no class or several claim them" if self.scheme == "one-vs-rest" else "a tie in the vote"
                self.notices_.append(f"{self.scheme}: {undecided} training points fall where nothing is decided "
                                     f"({why}; hatched, Bishop 4.1.2, figure 4.2)")
            masked = self._masked(X, codes, K)
            if masked:
                self.notices_.append(
                    "least squares gives " + ", ".join(f"{self.class_names_[k]} only {hit} of its {n} points"
                                                       for k, hit, n in masked)
                    + ": masked by its neighbours (Bishop figure 4.5); logistic or softmax regression does "
                    "not do this")

    def _masked(self, X, codes, K):
        """(class, points assigned to it, its points) for each class that gets less than half of its
        own points: a region squeezed by the others."""
        decided = self.decide(X)
        out = []
        for k in range(K):
            mine = codes == k
            hit = int(np.count_nonzero(decided[mine] == k))
            if 2 * hit < np.count_nonzero(mine):
                out.append((k, hit, int(np.count_nonzero(mine))))
        return out

    def _claims(self, S):
        """(K, ...) scores -> decided class (-1 undecided) by this scheme."""
        if self.scheme == "one-vs-rest":
            claims = S > 0.5
            count = claims.sum(axis=0)
            return np.where(count == 1, np.argmax(claims, axis=0), -1)
        return argmax_classes(S).astype(np.intp) if len(S) > 1 else np.zeros(S.shape[1:], np.intp)

    def _vote(self, P):
        """(pairs, ...) pair scores -> decided class by majority vote, -1 on a tie for the most."""
        K = len(self.classes_)
        votes = np.zeros((K,) + P.shape[1:], dtype=np.int16)
        for (k, j, _), p in zip(self.pairs_, P):
            votes[k] += p > 0
            votes[j] += p <= 0
        best = votes.max(axis=0)
        winners = (votes == best).sum(axis=0)
        return np.where(winners == 1, np.argmax(votes, axis=0), -1)

    def decide(self, X):
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        if len(self.classes_) == 1:
            return np.zeros(len(X), np.intp)
        if self.scheme == "one-vs-one":
            return self._vote(self._pair_scores(X).T)
        return self._claims(self.decision_function(X).T)

    def decide_grid(self, xs, ys):
        if len(self.classes_) == 1:
            return np.zeros((len(ys), len(xs)), np.intp)
        if self.scheme == "one-vs-one":
            return self._vote(self._pair_scores.evaluate_grid(xs, ys))
        return self._claims(self.scores_.evaluate_grid(xs, ys))

    def lines(self, bounds):
        """One-vs-rest: each y_k = 1/2; one-vs-one: each pair's line; as (k, j, Poly2D of one score
        whose zero is the line)."""
        if len(self.classes_) < 2 or self.scheme == "k-class":
            return None
        if self.scheme == "one-vs-rest":
            c = self.scores_.coefs.copy()
            c[:, 0, 0] -= 0.5
            return [(k, -1, Poly2D(self.scores_.center, self.scores_.scale, c[k:k + 1])) for k in range(len(c))]
        P = self._pair_scores
        return [(k, j, Poly2D(P.center, P.scale, P.coefs[m:m + 1])) for m, (k, j, _) in enumerate(self.pairs_)]

    def explain(self, x):
        out = super().explain(x)
        if getattr(self, "pairs_", None):
            out["pairs"] = self._pair_scores(np.asarray(x, float).reshape(1, 2))[0]
        return out


class _TwoClass(_Discriminant):
    """Two classes only: one discriminant y(x) = w^T x + w0, the second class where y(x) > 0;
    scores (0, y(x)) so that the winner is the sign of y."""

    def _two(self, K):
        if K > 2:
            raise ValueError(f"{self.label} separates two classes (Bishop {self.section}); this data has {K}: "
                             "least squares takes more")

    def set_weights(self, center, scale, w):
        super().set_weights(center, scale, np.vstack([np.zeros(3), w]))
        self.weights_ = self.weights_[1:]
        self.coef_, self.intercept_ = self.coef_[1:], self.intercept_[1:]

    @classmethod
    def count_parameters(cls, K, basis="linear", M=2):
        return M + 1 if K >= 2 else 0


class Fisher(_TwoClass):
    """Fisher's linear discriminant (Bishop 4.1.4): the direction w = S_W^-1 (m_2 - m_1) (eq. 4.30)
    that best separates the projected class means relative to the within-class scatter
    S_W = sum_k sum_{n in C_k} (x_n - m_k)(x_n - m_k)^T (eq. 4.28), thresholded at the projected
    overall mean, y(x) = w^T (x - m) (eq. 4.34, the choice least squares makes).

    Fitted: ``direction_`` (the unit w in the units of x; ``coef_`` is the same vector, so y(x) is the
    signed distance along it from the threshold), ``means_``, ``mean_``, ``within_`` (S_W).
    """

    name = "fisher"
    label = "Fisher's discriminant"
    section = "4.1.4"

    def _fit(self, X, codes, K, init=None):
        self._two(K)
        if K == 1:
            return self._single(X)
        center, scale = data_frame(X)
        Z = (X - center) / scale
        means = np.stack([Z[codes == k].mean(axis=0) for k in range(2)])
        D = Z - means[codes]
        S_W = D.T @ D
        diff = means[1] - means[0]
        lam, V = np.linalg.eigh(S_W)
        flat = lam <= 1e-12 * max(lam[-1], 1e-300)
        along = V.T @ diff
        if not np.any(diff):
            w = np.array([1.0, 0.0])
            self.notices_.append("the class means coincide: no direction separates them, so w is the x axis")
        elif np.any(flat & (np.abs(along) > 1e-12 * np.abs(diff).max())):
            # no within-class spread along some direction that separates the means: the criterion is
            # infinite there, and that direction is Fisher's
            w = V[:, flat] @ along[flat]
            self.notices_.append("the classes have no spread along one direction (too few or collinear points): "
                                 "Fisher's criterion is infinite there, and w is that direction")
        else:
            w = V[:, ~flat] @ (along[~flat] / lam[~flat])
        m = Z.mean(axis=0)
        w = w / np.hypot(*(w / scale))  # in the units of x, w is a unit vector
        self.set_weights(center, scale, np.r_[-w @ m, w])
        self.means_ = means * scale + center
        self.mean_ = m * scale + center
        self.within_ = S_W * np.outer(scale, scale)
        self.direction_ = self.coef_[0] / np.hypot(*self.coef_[0])

    def project(self, X) -> np.ndarray:
        """The projections w^T x onto the unit direction (Bishop eq. 4.20), shape (N,)."""
        return np.asarray(X, float).reshape(-1, 2) @ self.direction_

    def means_direction(self) -> np.ndarray:
        """The unit vector along the line joining the class means: the projection Fisher improves on."""
        d = self.means_[1] - self.means_[0]
        n = np.hypot(*d)
        return d / n if n > 0 else np.array([1.0, 0.0])

    def histograms(self, X, y, bins: int = 30) -> dict:
        """Bishop figure 4.6: each class's histogram of its projections onto the line joining the means
        and onto Fisher's w, on shared bin edges per projection. {"means"|"fisher": (edges (bins+1,),
        counts (2, bins), threshold)}; the threshold is the projected overall mean."""
        X = np.asarray(X, float).reshape(-1, 2)
        codes = self._codes(y)
        out = {}
        for key, v in (("means", self.means_direction()), ("fisher", self.direction_)):
            p = X @ v
            lo, hi = float(p.min()), float(p.max())
            edges = np.linspace(lo, hi if hi > lo else lo + 1.0, bins + 1)
            counts = np.stack([np.histogram(p[codes == k], edges)[0] for k in range(2)])
            out[key] = (edges, counts, float(self.mean_ @ v))
        return out

    def overlap(self, X, y, direction) -> float:
        """Fisher's criterion J(v) = (m_2 - m_1)^2 / (s_1^2 + s_2^2) of the projections onto ``direction``
        (eq. 4.25, s_k^2 the summed squared deviations of class k's projections)."""
        X = np.asarray(X, float).reshape(-1, 2)
        codes = self._codes(y)
        p = [X[codes == k] @ direction for k in range(2)]
        return float((p[1].mean() - p[0].mean()) ** 2 / (np.sum((p[0] - p[0].mean()) ** 2)
                                                         + np.sum((p[1] - p[1].mean()) ** 2)))


class Perceptron(_TwoClass):
    """Rosenblatt's perceptron (Bishop 4.1.7): w <- w + eta phi_n t_n for each misclassified point
    (eq. 4.55), t_n = +1 for the second class and -1 for the first, the points visited in order,
    from w = 0, until a pass over the data makes no mistake (``converged_``) or ``epochs`` passes.

    The criterion E_P(w) = -sum_{n in M} w^T phi_n t_n (eq. 4.54). On data no line separates it
    never settles, and says so.
    """

    name = "perceptron"
    label = "Perceptron"
    section = "4.1.7"

    def __init__(self, *, eta: float = DEFAULT_ETA, epochs: int = DEFAULT_EPOCHS):
        self.eta = eta
        self.epochs = epochs

    def _fit(self, X, codes, K, init=None):
        self._two(K)
        if K == 1:
            return self._single(X)
        center, scale = data_frame(X)
        Phi = _design(X, center, scale)
        t = np.where(codes == 1, 1.0, -1.0)
        w = np.zeros(3)
        self.converged_ = False
        self.n_iter_ = 0
        for epoch in range(int(self.epochs)):
            mistakes = 0
            for n in range(len(Phi)):
                if (Phi[n] @ w) * t[n] <= 0:
                    w = w + self.eta * t[n] * Phi[n]
                    mistakes += 1
                    self.n_iter_ += 1
            if mistakes == 0:
                self.converged_ = True
                break
        self.epochs_ = epoch + 1
        self.set_weights(center, scale, w)
        if not self.converged_:
            why = separation(Phi, codes, 2)
            if why == "separable":
                self.notices_.append(f"the classes are separable but {self.epochs_} passes were not enough "
                                     "(the perceptron convergence theorem promises an end, not how soon)")
            else:
                self.notices_.append("no line separates the classes: the perceptron never settles, it cycles "
                                     f"(stopped after {self.epochs_} passes; Bishop 4.1.7)")
