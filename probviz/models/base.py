"""The classifier base: subclasses fit a polynomial of class scores; the base derives the rest.

The shape follows scikit-learn's ``_BaseNB``: a subclass computes its fitted
attributes (names ending in ``_``) and a :class:`~probviz.models.poly.Poly2D` of
class scores; ``predict_proba``, ``predict``, accuracy and log-likelihood come
from here once.
"""

from __future__ import annotations

import numpy as np

from probviz.models.poly import Poly2D

#: the training summary's pass over many points runs in blocks of this many, one after the other: a block's scores
#: stay in the cache between the argmax and the log-sum-exp, and no array of N x K scores is made at once (1,000,000
#: points, three classes: about 10% faster). Two blocks at a time on two threads made it 1.5x faster still, but the
#: GUI thread, sharing the two cores with them, stalled up to twice as long at 200,000 points: not done.
EVALUATE_BLOCK = 65_536


def check_Xy(X, y) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate a training set; return X as float (N, 2), the sorted classes and y's codes."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (N, 2), got {X.shape}")
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}")
    if X.shape[0] == 0:
        raise ValueError("no points to fit")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values")
    classes, codes = np.unique(y, return_inverse=True)
    return X, classes, codes.ravel()


def argmax_classes(T: np.ndarray, with_max: bool = False):
    """argmax over the first axis of (K, N) scores, the first of equal maxima (as np.argmax), in K
    elementwise passes: several times faster than np.argmax across a short axis. With ``with_max``, also
    the maxima: (argmax, max).

    Each class moves the running argmax by arithmetic, out += (T_k > best) (k - out), in whole-array
    passes over bytes: a masked ``np.copyto`` there took seven times as long (NumPy's masked copy goes
    element by element)."""
    best = T[0].copy()
    out = np.zeros(T.shape[1:], dtype=np.int8)  # at most MAX_CLASSES = 10 classes
    above = np.empty(T.shape[1:], dtype=bool)
    move = np.empty(T.shape[1:], dtype=np.int8)
    for k in range(1, len(T)):
        np.greater(T[k], best, out=above)
        np.subtract(np.int8(k), out, out=move)
        move *= above.view(np.int8)
        out += move
        np.maximum(best, T[k], out=best)
    return (out, best) if with_max else out


def map_decisions(model, X) -> np.ndarray:
    """The MAP rule argmax_k p(C_k|x) at each row of X as indices into ``model.classes_``, -1 where the largest
    score is shared: a tie decides nothing (at w = 0 every class has 1/K), as the training summary counts it."""
    T = _classes_first(model.decision_function(np.asarray(X, dtype=float).reshape(-1, 2)), -1)
    best, top = argmax_classes(T, with_max=True)
    best = best.astype(np.intp)
    best[_count_maxima(T, top) > 1] = -1
    return best


def _count_maxima(T: np.ndarray, top: np.ndarray) -> np.ndarray:
    """How many of the K scores of each point (over the first axis of ``T``) equal its largest, ``top``."""
    count = np.equal(T[0], top).view(np.uint8)
    for k in range(1, len(T)):
        count += np.equal(T[k], top).view(np.uint8)
    return count


def _classes_first(S: np.ndarray, axis: int) -> np.ndarray:
    """``S`` with its class axis first, C-contiguous (a view when scores came from Poly2D): reductions
    over the classes are then K elementwise passes over long rows, not N strided short ones."""
    T = np.moveaxis(S, axis, 0)
    return T if T.flags.c_contiguous else np.ascontiguousarray(T)


def _logsumexp_classes(T: np.ndarray) -> np.ndarray:
    """ln sum_k exp(T_k) over the first (class) axis, shifted by the maximum."""
    m = T.max(axis=0)
    lse = np.exp(T - m).sum(axis=0)
    np.log(lse, out=lse)
    lse += m
    return lse


def class_names(classes, names=None) -> list[str]:
    """How messages name each class: ``names[label]`` when given, else the label."""
    return [str(names[c] if names is not None else c) for c in classes]


def data_frame(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Center and scale for the standardized coordinates z = (x - center) / scale.

    As exact as float64 allows at any offset and spread: the columns are first divided by a power
    of two (exact) so nothing overflows or underflows; the center is a data point plus the mean of
    the differences from it (differences of nearby floats are exact), so x - center keeps every bit
    the data hold even at an offset of 1e15; the scale is the standard deviation, taken about the exact
    mean (the center itself is rounded to the offset's ulp, up to a tenth of the spread at 1e15).
    A column whose values are all equal has no spread to standardize: its scale is max(|x|, 1).
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if not X.size:
        return np.zeros(2), np.ones(2)
    # the columns as contiguous rows: each reduction is then one pass along memory, summed pairwise
    Xs = np.array(X.T, order="C")
    typical = float(max(Xs.max(), -Xs.min()))
    unit = np.ldexp(1.0, np.frexp(typical)[1] - 1) if typical > 0 else 1.0  # |X| / unit < 2
    Xs /= unit
    center = Xs[:, 0] + np.mean(Xs - Xs[:, :1], axis=1)
    Xs -= center[:, None]
    Xs -= np.mean(Xs, axis=1)[:, None]  # the center is rounded to the offset's ulp: the spread is about the exact mean
    peak = np.maximum(Xs.max(axis=1), -Xs.min(axis=1))
    Xs /= np.where(peak > 0, peak, 1.0)[:, None]
    spread = peak * np.sqrt(np.mean(np.square(Xs, out=Xs), axis=1))
    scale = np.where(spread > 0, spread * unit, 0.0)
    return center * unit, np.where(scale > 0, scale, max(typical, 1.0))


class NotFittedError(ValueError, AttributeError):
    """A model was asked for predictions before ``fit``."""


class Classifier:
    """Base of every probviz model.

    Attributes set by ``fit``
    -------------------------
    classes_ : array of shape (K,), the sorted labels seen in ``y``.
    scores_ : Poly2D, class scores whose softmax (or the model's own link) is p(C_k|x).
    notices_ : list of str, what the fit had to do about the data (regularized, separable, ...).
    """

    name = "base"
    label = "Classifier"
    generative = False
    probabilistic = True  # gives p(C_k|x); the discriminant functions of Bishop 4.1 do not

    def fit(self, X, y, *, init: "Classifier | None" = None, names=None) -> "Classifier":
        """Fit to points X (N, 2) with labels y (N,). ``init``, a fitted model of the same kind,
        may start an iterative fit (the answer is the same; it only saves steps). ``names[label]``
        is how messages name a class (default: the label itself)."""
        X, classes, codes = check_Xy(X, y)
        self.classes_ = classes
        self.class_names_ = class_names(classes, names)
        self.notices_: list[str] = []
        self.n_features_in_ = 2
        self._fit(X, codes, len(classes), init)
        return self

    # --- to implement -------------------------------------------------------
    def _fit(self, X: np.ndarray, codes: np.ndarray, K: int, init=None) -> None:
        raise NotImplementedError

    @classmethod
    def count_parameters(cls, K: int, basis: str = "linear", M: int = 2) -> int:
        """Free parameters of this model for K classes in M dimensions."""
        raise NotImplementedError

    def n_parameters(self) -> int:
        """Number of free parameters of the fitted model."""
        return type(self).count_parameters(len(self.classes_))

    # --- derived ------------------------------------------------------------
    def decision_function(self, X) -> np.ndarray:
        """Class scores a_k(x), shape (N, K); p(C_k|x) follows from them by ``proba_from_scores``."""
        if not hasattr(self, "scores_"):
            raise NotFittedError(f"this {self.label} is not fitted yet: call fit(X, y) first")
        return self.scores_(np.asarray(X, dtype=float).reshape(-1, 2))

    def proba_from_scores(self, S: np.ndarray, axis: int = -1, dtype=np.float64) -> np.ndarray:
        """Posterior from scores along ``axis``: the softmax of Bishop eq. 4.62.

        The shift by the maximum is done in float64; ``dtype=np.float32`` then halves
        the cost of the exponentials, the floor of a posterior grid.
        """
        T = _classes_first(S, axis)
        E = np.empty(T.shape, dtype=dtype)
        np.subtract(T, T.max(axis=0), out=E, casting="same_kind")  # the shift in float64, then cast
        np.exp(E, out=E)
        E /= E.sum(axis=0)
        return np.moveaxis(E, 0, axis)

    def predict_proba(self, X) -> np.ndarray:
        """p(C_k|x) for each row of X: shape (N, K), rows sum to 1, columns in ``classes_`` order."""
        return self.proba_from_scores(self.decision_function(X))

    def predict_log_proba(self, X) -> np.ndarray:
        return self._log_proba_from_scores(self.decision_function(X))

    def predict(self, X) -> np.ndarray:
        """The decision stage with the MAP rule: argmax_k p(C_k|x)."""
        best = argmax_classes(_classes_first(self.decision_function(X), -1))
        return self.classes_[best]

    def _codes(self, y) -> np.ndarray:
        y = np.asarray(y)
        classes = self.classes_
        if y.dtype.kind in "iu" and classes.dtype.kind in "iu" and len(y) and classes[0] >= 0:
            # integer labels (the document's class indices): one table lookup, no search
            lo, hi = int(y.min()), int(y.max())
            if lo >= 0 and hi <= classes[-1]:
                table = np.full(int(classes[-1]) + 1, -1, dtype=np.intp)
                table[classes] = np.arange(len(classes))
                idx = table[y]
                if idx.min() >= 0:
                    return idx
            raise ValueError("y holds labels the model was not fitted on")
        idx = np.searchsorted(self.classes_, y)
        idx = np.clip(idx, 0, len(self.classes_) - 1)
        if not np.all(self.classes_[idx] == y):
            raise ValueError("y holds labels the model was not fitted on")
        return idx

    def accuracy(self, X, y) -> float:
        """Fraction of points whose MAP class is their label."""
        return float(np.mean(self.predict(X) == np.asarray(y)))

    def cross_entropy(self, X, y) -> float:
        """The error the fit minimises, without its penalty: -sum_n ln p(t_n|x_n) (Bishop eqs. 4.90
        and 4.108, natural log); for one-vs-rest the sum of its K binary cross-entropies."""
        return self._likelihoods(self.decision_function(X), self._codes(y))["cross_entropy"]

    def log_likelihood(self, X, y) -> float:
        """The model's own log-likelihood of the data (``likelihood_kind`` says which).

        Discriminative models: the conditional ln p(t|X) = -cross_entropy.
        Generative models override it with the joint ln p(X, t) (Bishop eq. 4.71).
        """
        return -self.cross_entropy(X, y)

    def explain(self, x) -> dict:
        """The steps from x to p(C_k|x), for the probe: here the scores a_k and the posterior."""
        x = np.asarray(x, dtype=float).reshape(1, 2)
        return {"a": self.decision_function(x)[0], "posterior": self.predict_proba(x)[0]}

    def evaluate(self, X, y) -> tuple[dict, np.ndarray]:
        """The training summary and which points are misclassified, from one pass over the scores (in blocks
        of :data:`EVALUATE_BLOCK` points when there are many)."""
        X = np.asarray(X, dtype=float)
        codes = self._codes(y)
        if len(X) > 2 * EVALUATE_BLOCK:
            parts = [self._evaluate_block(X[i:i + EVALUATE_BLOCK], codes[i:i + EVALUATE_BLOCK])
                     for i in range(0, len(X), EVALUATE_BLOCK)]
            predicted = np.concatenate([p for p, _ in parts])
            sums = parts[0][1]
            for _, more in parts[1:]:
                sums = sums + more
        else:
            predicted, sums = self._evaluate_block(X, codes)
        summary = {
            "model": self.name,
            "classes": [str(c) for c in self.classes_],
            "n_parameters": self.n_parameters(),
            "accuracy": float(np.mean(predicted == codes)),
            **self._likelihood_report(sums),
            "notices": list(self.notices_),
        }
        undecided = int(np.count_nonzero(predicted < 0))
        if undecided:
            summary["undecided"] = undecided
        return summary, predicted != codes

    def _evaluate_block(self, X, codes) -> tuple[np.ndarray, np.ndarray]:
        """The MAP class of each point, -1 where the largest p(C_k|x) is shared (a tie decides nothing: at w = 0
        every class has 1/K; the first class by a tie would count its points as right), and the likelihood's
        sums over these points."""
        S = self.decision_function(X)
        T = _classes_first(S, -1)
        best, top = argmax_classes(T, with_max=True)
        sums = self._likelihood_sums(S, codes, best, top)
        shared = _count_maxima(T, top) > 1
        if shared.any():
            best[shared] = -1
        return best, sums

    #: what ``log_likelihood`` is, said in the summary, the panel, the status line and JSON
    likelihood_kind = "conditional ln p(t|X)"

    def _likelihoods(self, S, codes) -> dict:
        """The training log-likelihood (the model's own kind) and the cross-entropy of its posteriors."""
        return self._likelihood_report(self._likelihood_sums(S, codes))

    def _likelihood_sums(self, S, codes, best=None, top=None) -> np.ndarray:
        """Sums over the points of the scores ``S`` (N, K) with classes ``codes`` (``best`` and ``top``: each
        point's argmax class and largest score, when known) that the likelihood is made of, added up over blocks
        of points: here the cross-entropy, -sum_n ln p(t_n|x_n). Each term is
        (m_n - a_{t_n}) + ln(1 + sum_{j != argmax} e^(a_j - m_n)) with m_n = max_j a_j: both parts are >= 0 and
        exact to rounding point by point, so a near-perfect fit's tiny cross-entropy keeps its digits (the sum of
        ln sum_k e^(a_k) minus the sum of a_{t_n}, two large sums nearly equal, lost them: 2% off for QDA on well
        separated classes)."""
        T = _classes_first(S, -1)  # (K, N)
        if best is None or top is None:
            best, top = argmax_classes(T, with_max=True)
        N = T.shape[1]
        own = T.reshape(-1).take(np.asarray(codes, dtype=np.intp) * N + np.arange(N))  # a_{t_n}
        gap = np.subtract(top, own, out=own)  # 0 where the point's class is its argmax
        E = np.subtract(T, top)
        np.exp(E, out=E)
        for k in range(len(E)):  # the argmax's own e^0 = 1 is the "1 +"
            E[k] *= best != k
        rest = E.sum(axis=0)
        return np.array([gap.sum() + np.log1p(rest, out=rest).sum()])

    def _likelihood_report(self, sums: np.ndarray) -> dict:
        """The summary's likelihood entries from :meth:`_likelihood_sums` over all the points."""
        ce = float(sums[0])
        return {"log_likelihood": self._training_log_likelihood(ce), "log_likelihood_kind": self.likelihood_kind,
                "cross_entropy": ce}

    def summary(self, X, y) -> dict:
        """Plain numbers about the training data for the status line, the CLI and JSON."""
        return self.evaluate(X, y)[0]

    def _log_proba_from_scores(self, S: np.ndarray) -> np.ndarray:
        T = _classes_first(S, -1)
        return (T - _logsumexp_classes(T)).T

    def _training_log_likelihood(self, cross_entropy: float) -> float:
        return -cross_entropy


def single_class_scores(X: np.ndarray) -> Poly2D:
    """Scores for a one-class fit: a constant, so p(C_1|x) = 1 everywhere."""
    center, scale = data_frame(X)
    return Poly2D(center, scale, np.zeros((1, 2, 2)))
