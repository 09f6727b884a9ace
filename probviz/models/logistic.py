"""Discriminative models: logistic regression (one-vs-rest for K > 2) and softmax regression.

Both minimise a cross-entropy plus an L2 penalty on the weights (never the biases),
Bishop (2006) eqs. 4.90 and 4.108:  E(W) = -sum_n ln y_{n,t_n} + (l2 / 2) sum_k ||w_k||^2,
with l2 = 1 / C of scikit-learn, over the features phi(x) (standardized unless asked not to).
The fit is Newton-Raphson with the exact Hessian (IRLS for two classes, eq. 4.99), safeguarded
and verified by :mod:`probviz.models.newton`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from probviz.models.base import Classifier, data_frame, single_class_scores
from probviz.models.bayes import fit_laplace
from probviz.models.gaussian import EIGEN_FLOOR, LDA, QDA, ClassStats, floor_eigenvalues
from probviz.models.newton import (
    GTOL, BinaryBatch, Multinomial, NewtonResult, log1p_exp_neg_abs, log_sigmoid, newton, newton_step, ridge_matrix,
    separation,
)
from probviz.models.poly import BASES, Poly2D, design_matrix, monomials
from probviz.models import rbf

DEFAULT_L2 = 0.01
DEFAULT_BASIS = "linear"
#: the basis choices: the polynomial BASES, then Gaussian radial basis functions (Bishop 4.3.1, figure 4.12)
BASIS_CHOICES = (*BASES, "rbf")
DEFAULT_CENTERS = ""  # none given: a 3 x 3 lattice over the points' bounding box (probviz.models.rbf)
DEFAULT_WIDTH = 0.0  # none given: the lattice's spacing (probviz.models.rbf.default_width)
DEFAULT_STANDARDIZE = True
DEFAULT_ALPHA = 1.0  # the Bayesian view's prior precision: a unit Gaussian on each standardized weight
QUASI_SEPARABLE_STEPS = 25  # without a finite optimum, how far to follow the weights out
#: from this many points a drag's drafts are kept up to date for the moved points alone (see ``draft_moved``)
DRAFT_MOVED_MIN = 5_000


@dataclass(frozen=True)
class DraftState:
    """What one Newton step from W0 takes, summed over the points as they are: the data term's gradient G
    and curvature C at W0 (no penalty), on the features of the frame (center, scale), and the points' count
    and first two moments in that frame (from which the standardized frame of the points as they are
    follows). A sum over the points: a moved point changes it by its own two terms."""

    W0: np.ndarray  # (rows, F) the weights the step starts from, zero where not free
    free: np.ndarray  # (rows, F) bool
    G: np.ndarray  # (rows, F)
    C: np.ndarray  # (rows, F, F) per two-class problem, or (K F, K F) for softmax
    center: np.ndarray
    scale: np.ndarray
    n: int
    sums: np.ndarray  # (2, 2): sum z, sum z^2 per coordinate, z = (x - center) / scale
    direction: object  # the problem's Newton direction: (C, R, G, free) -> d

    def frame(self):
        """(center, scale) of the points as they are (their mean and standard deviation), or None when a
        coordinate's spread fell below a hundredth of the frame's (the sums would then keep too few digits
        of it: a pass over every point takes over)."""
        mean = self.sums[0] / self.n
        var = self.sums[1] / self.n - np.square(mean)
        if not np.all(np.isfinite(var) & (var > 1e-4)):
            return None
        return self.center + self.scale * mean, self.scale * np.sqrt(var)

    def step(self, R) -> tuple[np.ndarray, float]:
        """One Newton step from W0 with the penalty (1/2) w^T R w: (W, the step's largest entry); W0 itself
        when the step is not finite (as :func:`~probviz.models.newton.newton_step`)."""
        with np.errstate(invalid="ignore", over="ignore"):
            d = self.direction(self.C, R, self.G + self.W0 @ R, self.free)
        if not np.all(np.isfinite(d)):
            return self.W0, 0.0
        return self.W0 - d, float(np.max(np.abs(d))) if d.size else 0.0


def _gaussian_scores(X, codes, center, scale, degree):
    """A Gaussian model's class scores in the frame (center, scale), or None if it cannot be fitted."""
    try:
        g = (LDA() if degree == 1 else QDA(reg_covar=0.1)).fit(X, codes)
    except ValueError:
        return None
    return g.scores_.in_frame(center, scale, degree) if len(g.classes_) == codes.max() + 1 else None


def ovr_lda_log_odds(stats: ClassStats, center, scale) -> np.ndarray:
    """LDA's log-odds of each class against the rest pooled (Bishop 4.2.1, eqs. 4.65-4.67), all K at once from
    the classes' statistics: rows [w0, w_1, w_2] of a_k(z) on z = (x - center) / scale, as LDA fitted to the two
    groups (the rest, then class k) gives them: the two groups' ML covariance, its eigenvalues floored as LDA
    floors them. (K, 3). The rest's scatter is its classes' own plus their means' spread about its mean, summed
    without a subtraction (at an offset of 1e6 a difference of sums would keep few digits)."""
    n, means, scatters = stats.counts, stats.means, stats.scatters
    K, N = len(n), n.sum()
    others = 1.0 - np.eye(K)  # (k, j): class j is in the rest of k
    weights = others * n
    rest_n = weights.sum(axis=1)
    rest_mean = weights @ means / rest_n[:, None]
    spread = means[None, :, :] - rest_mean[:, None, :]  # (k, j, 2): class j's mean about the rest of k's
    cov = (np.einsum("kj,jab->kab", others, scatters) + np.einsum("kj,kja,kjb->kab", weights, spread, spread)
           + scatters) / N
    _, _, floor, typical = stats.frame()
    if floor <= 0.0:  # (as LDA: every point in one place)
        floor = max(typical ** 2, 1.0)
    cov, _ = floor_eigenvalues(cov, EIGEN_FLOOR * floor)
    P = np.linalg.inv(cov)
    d1, d0 = means - center, rest_mean - center
    w = np.einsum("kij,kj->ki", P, d1 - d0)
    w0 = (-0.5 * np.einsum("ki,kij,kj->k", d1, P, d1) + 0.5 * np.einsum("ki,kij,kj->k", d0, P, d0)
          + np.log(n / rest_n))
    return np.column_stack([w0, w * scale])


class _LinearModel(Classifier):
    """Shared machinery: features, starts, the Newton driver, weights in raw units.

    Fitted attributes besides ``coef_``/``intercept_`` (in the units of x): ``frame_`` (center,
    scale) of the objective's features z = (x - center) / scale, ``weights_`` (the solution on
    those features: rows [w0, w] as in ``coef_``), ``n_iter_`` (Newton steps from ``start_``),
    ``converged_`` (the optimality condition holds), ``separation_`` ("" or why no finite
    optimum exists without a penalty), ``gradient_`` (max |dE/dw| relative to its scale).
    """

    def __init__(self, *, l2: float = DEFAULT_L2, basis: str = DEFAULT_BASIS,
                 standardize: bool = DEFAULT_STANDARDIZE, centers: str = DEFAULT_CENTERS,
                 width: float = DEFAULT_WIDTH, max_iter: int = 100, gtol: float = GTOL):
        self.l2 = l2
        self.basis = basis
        self.standardize = standardize
        self.centers = centers
        self.width = width
        self.max_iter = max_iter
        self.gtol = gtol

    #: ``fit(..., draft=True)`` takes one unverified Newton step from ``init`` (see :meth:`fit`)
    drafts = True

    def fit(self, X, y, *, init=None, names=None, draft: bool = False):
        """As :meth:`Classifier.fit`; with ``draft`` and ``init`` a fit of nearly the same points (before a
        point moved), and l2 > 0: one Newton step from ``init``'s weights, not verified, what the window
        draws while the hand moves. ``draft_step_`` is then that step's largest weight change (on the
        solver's standardized features): the draft is within about its square of the optimum, where
        Newton converges quadratically. None for a fit run to the optimum."""
        self._drafting = bool(draft) and init is not None and self.l2 > 0
        try:
            return super().fit(X, y, init=init, names=names)
        finally:
            del self._drafting

    def _check_params(self):
        if self.basis not in BASIS_CHOICES:
            raise ValueError(f"basis must be one of {', '.join(BASIS_CHOICES)}, got {self.basis!r}")
        if self.basis == "rbf":
            rbf.parse_centers(self.centers)
            rbf.check_width(self.width)
        if isinstance(self.l2, bool) or not isinstance(self.l2, (int, float, np.floating)) or not (
                np.isfinite(self.l2) and self.l2 >= 0):
            raise ValueError(f"l2 must be a non-negative number, got {self.l2!r}")
        if not isinstance(self.standardize, (bool, np.bool_)):
            raise ValueError(f"standardize must be true or false, got {self.standardize!r}")

    def _fit(self, X, codes, K, init=None):
        self._check_params()
        if self.basis == "rbf":
            return self._fit_rbf(X, codes, K, init)
        degree = BASES[self.basis]
        F = len(monomials(degree)) + 1
        # the objective's features: standardized, or in the units of x; the solver always works on
        # centred, scaled features (well conditioned at any offset and scale) with the objective's
        # penalty carried over exactly as a ridge matrix
        center, scale = data_frame(X)
        self.frame_ = (center, scale) if self.standardize else (np.zeros(2), np.ones(2))
        self.n_iter_, self.converged_, self.start_, self.separation_, self.gradient_ = 0, True, "zero", "", 0.0
        self.draft_step_, self.draft_state_ = None, None
        if K == 1:
            return self._one_class(X, F)
        Phi = self._features(X, center, scale, degree)
        self._R = ridge_matrix(self.l2, F, None if self.standardize else self._frame_map(center, scale, degree))
        self._points = (X, center, scale)  # what a draft's state sums over
        starts = {}
        if init is not None and type(init) is type(self) and getattr(init, "basis", None) == self.basis \
                and hasattr(init, "scores_") and len(init.classes_) == K:
            starts["the previous fit"] = self._weights_from_scores(init.scores_.in_frame(center, scale, degree))
        else:  # no fit to continue from (a drag has one): the Gaussian log-odds, about half the steps
            generative = self.generative_start(X, codes, K, center, scale, degree)
            if generative is not None:
                starts["the Gaussian model's log-odds"] = generative
        W = self._solve(Phi, codes, K, starts)
        del self._R, self._points
        self._set_weights(W, center, scale, degree, K)

    @staticmethod
    def _features(X, center, scale, degree):
        """[1, phi((x - center) / scale)] per point: the solver's features."""
        return np.column_stack([np.ones(len(X)), design_matrix((X - center) / scale, degree)])

    def _draft_key(self):
        return type(self), self.l2, self.basis, self.standardize, getattr(self, "bayes", False)

    def follows_draft(self, previous) -> bool:
        """Whether ``previous`` kept a draft's sums that :meth:`draft_moved` updates for this model: the same
        objective (model, penalty, basis, standardizing) on polynomial features."""
        return (getattr(previous, "draft_state_", None) is not None and previous._draft_key() == self._draft_key()
                and self.basis in BASES)

    def draft_moved(self, previous, codes, old, new) -> "_LinearModel | None":
        """The draft after points moved (the hand dragging them): one Newton step from the same weights as
        ``previous``'s draft, with its gradient and curvature updated by the moved points' own terms, in
        O(moved points): the step ``fit(X, y, init=..., draft=True)`` takes from there over every point, to
        rounding. ``codes`` index ``previous.classes_``; ``old`` and ``new`` are the moved points' rows before
        and after. None when ``previous`` kept no such state (a drag's first draft takes a pass over every
        point) or is another model, or the points lost their spread."""
        if not self.follows_draft(previous):
            return None
        state = previous.draft_state_
        degree, K = BASES[self.basis], len(previous.classes_)
        F = state.W0.shape[1]
        zero = np.zeros((F, F))
        G, C, sums = state.G.copy(), state.C.copy(), state.sums.copy()
        for rows, sign in ((old, -1.0), (new, 1.0)):
            rows = np.asarray(rows, dtype=float).reshape(-1, 2)
            part = self._problem(self._features(rows, state.center, state.scale, degree), codes, K, zero)
            cache = part.state(state.W0)
            G += sign * part.gradient(state.W0, cache)
            C += sign * part.curvature(state.W0, cache)
            z = (rows - state.center) / state.scale
            sums += sign * np.stack([z.sum(axis=0), np.square(z).sum(axis=0)])
        state = replace(state, G=G, C=C, sums=sums)
        frame = state.frame()
        if frame is None:
            return None
        self.classes_, self.class_names_ = previous.classes_, list(previous.class_names_)
        self.notices_, self.n_features_in_ = list(previous.notices_), 2
        self.ovr_ = getattr(previous, "ovr_", False)
        if hasattr(previous, "laplace_"):
            self.laplace_ = None  # (the Bayesian view is never a draft)
        self.frame_ = frame if self.standardize else (np.zeros(2), np.ones(2))
        W = self._take_draft(state, ridge_matrix(self.l2, F, self._frame_map(state.center, state.scale, degree)))
        self.n_iter_, self.converged_, self.separation_, self.gradient_ = 1, False, "", 0.0
        self.start_ = "the fit where the drag began"  # every draft of the drag steps from there
        self._set_weights(self._finish(W), state.center, state.scale, degree, K)
        return self

    def _take_draft(self, state: DraftState, R) -> np.ndarray:
        """The draft's weights: one Newton step from ``state`` with the penalty R (kept, for the next move)."""
        W, self.draft_step_ = state.step(R)
        self.draft_state_ = state
        return W

    def _finish(self, W):
        """The solver's weights as the model keeps them."""
        return W

    def _one_class(self, X, F: int) -> None:
        """Only one class among the points: no weights to fit, p(C|x) = 1 everywhere (F features with the bias)."""
        self.scores_ = single_class_scores(X)
        self.weights_ = np.zeros((0, F))
        self.coef_ = np.zeros((0, F - 1))
        self.intercept_ = np.zeros(0)
        self.notices_.append("only one class: nothing to discriminate, p(C|x) = 1 everywhere")

    def _fit_rbf(self, X, codes, K, init=None):
        """The same objective and Newton driver on the features [1, phi_1(x), ..., phi_M(x)] of Gaussian radial
        basis functions (Bishop 4.3.1): phi_m = exp(-||x - mu_m||^2 / (2 s^2)), each between 0 and 1 whatever the
        units of x, so the solver takes them as they are and the penalty is plain (l2/2)||w||^2 (``standardize``
        does not change them). ``centers_`` (M, 2) and ``width_`` are the centres and width used."""
        C, s = rbf.resolve(X, self.centers, self.width)
        self.centers_, self.width_ = C, s
        center, scale = data_frame(X)
        self.frame_ = (center, scale)
        F = len(C) + 1
        self.n_iter_, self.converged_, self.start_, self.separation_, self.gradient_ = 0, True, "zero", "", 0.0
        self.draft_step_, self.draft_state_ = None, None
        if K == 1:
            return self._one_class(X, F)
        Phi = np.column_stack([np.ones(len(X)), rbf.features(X, C, s)])
        self._R = ridge_matrix(self.l2, F)
        starts = {}
        prev = getattr(init, "scores_", None)
        if type(init) is type(self) and getattr(prev, "kind", "") == "rbf" and len(init.classes_) == K \
                and prev.width == s and np.array_equal(prev.mus, C):
            starts["the previous fit"] = self._weights_from_scores(prev.coefs)
        W = self._solve(Phi, codes, K, starts)
        del self._R
        rows = self._score_rows(W)
        self.scores_ = rbf.RBFScores(np.asarray(center, float), np.asarray(scale, float), C, s, rows)
        self.weights_ = self._weights_from_scores(rows)
        reported = self._reported_rows(K)
        self.intercept_ = rows[reported, 0]
        self.coef_ = rows[reported, 1:]

    def _set_weights(self, W, center, scale, degree, K):
        """The fitted attributes from weights W on the features [1, phi((x - center) / scale)]."""
        rows = self._score_rows(W)
        coefs = np.zeros((rows.shape[0], degree + 1, degree + 1))
        coefs[:, 0, 0] = rows[:, 0]
        for m, (i, j) in enumerate(monomials(degree)):
            coefs[:, i, j] = rows[:, m + 1]
        self.scores_ = Poly2D(np.asarray(center, float), np.asarray(scale, float), coefs)
        self.weights_ = self._weights_from_scores(self.scores_.in_frame(*self.frame_, degree))
        raw = self.scores_.in_raw_units()
        reported = self._reported_rows(K)
        self.intercept_ = raw[reported, 0, 0]
        self.coef_ = np.stack([raw[reported, i, j] for i, j in monomials(degree)], axis=1)

    @classmethod
    def from_weights(cls, W, frame, classes, params: dict, names=None, steps: int = 0) -> "_LinearModel":
        """A model whose weights are W (rows as ``weights_``) on the features of ``frame`` = (center,
        scale): a training step drawn like any fit. Nothing is fitted; ``converged_`` is False."""
        from probviz.models.base import class_names

        model = cls(**params)
        model.classes_ = np.asarray(classes)
        model.class_names_ = class_names(model.classes_, names)
        model.notices_, model.n_features_in_ = [], 2
        K = len(model.classes_)
        model.ovr_ = model._one_vs_rest(K)
        model.frame_ = (np.asarray(frame[0], float), np.asarray(frame[1], float))
        model.n_iter_, model.converged_, model.start_, model.separation_, model.gradient_ = steps, False, "zero", "", 0.0
        model.draft_step_, model.draft_state_ = None, None
        model._set_weights(np.asarray(W, float), *model.frame_, BASES[model.basis], K)
        return model

    @staticmethod
    def _one_vs_rest(K: int) -> bool:
        """Whether K classes are K separate binary problems (then regions may be undecided)."""
        return False

    def _frame_map(self, center, scale, degree):
        """M (F, F): row m holds the objective's coefficients [1, phi(x)] of the solver's feature m."""
        F = len(monomials(degree)) + 1
        basis = np.zeros((F, degree + 1, degree + 1))
        basis[0, 0, 0] = 1.0
        for m, (i, j) in enumerate(monomials(degree)):
            basis[m + 1, i, j] = 1.0
        return self._flat(Poly2D(center, scale, basis).in_frame(*self.frame_, degree))

    def generative_start(self, X, codes, K, center, scale, degree):
        """Weights (on the features of the frame (center, scale) and basis degree) whose scores are a
        Gaussian model's (LDA for the linear basis, else QDA): their log-odds have the same form as ours
        (Bishop 4.2.1), so Newton then needs about half the steps, and a training run may start there.
        None when the Gaussian model cannot be fitted. Part of the model's API for the trainer."""
        C = _gaussian_scores(X, codes, center, scale, degree)
        return None if C is None else self._weights_from_scores(C)

    @staticmethod
    def _flat(C):
        if C.ndim == 2:  # radial basis weights (K, M + 1): already flat
            return np.array(C, dtype=float)
        degree = C.shape[1] - 1
        return np.column_stack([C[:, 0, 0]] + [C[:, i, j] for i, j in monomials(degree)])

    def _run(self, problem, free, starts: dict, K_rows: int, F: int):
        """Newton from the best start (lowest objective; zero among them), verified; a start that
        ends anywhere but the optimum is dropped for the plain zero start."""
        W0 = starts.get("the previous fit")
        if getattr(self, "_drafting", False) and W0 is not None and W0.shape == (K_rows, F) and np.all(np.isfinite(W0)):
            X, center, scale = getattr(self, "_points", (np.empty((0, 2)), None, None))
            if len(X) < DRAFT_MOVED_MIN:  # (radial basis functions take this step too)
                W, step = newton_step(problem, W0, free)
                self.draft_step_ = max(self.draft_step_ or 0.0, step)
                return NewtonResult(W, 1, False, "draft"), "the previous fit"
            W0 = np.where(free, W0, 0.0)  # many points: the step from sums that the drag's next moves update
            cache = problem.state(W0)
            z = (X - center) / scale
            W = self._take_draft(DraftState(W0, free, problem.gradient(W0, cache) - W0 @ problem.R,
                                            problem.curvature(W0, cache), center, scale, len(X),
                                            np.stack([z.sum(axis=0), np.square(z).sum(axis=0)]),
                                            type(problem).direction), problem.R)
            return NewtonResult(W, 1, False, "draft"), "the previous fit"
        candidates = {"zero": np.zeros((K_rows, F))}
        for name, W0 in starts.items():
            if W0 is not None and W0.shape == (K_rows, F) and np.all(np.isfinite(W0)):
                candidates[name] = np.where(free, W0, 0.0)
        # E at zero needs no pass over the points (its state is made only if it is the best start)
        values = {name: problem.value(W0) for name, W0 in candidates.items() if name != "zero"}
        E = {"zero": problem.zero_value(), **{name: v[0] for name, v in values.items()}}
        best = min((e, name) for name, e in E.items() if np.isfinite(e))[1]
        start = values[best] if best in values else problem.value(candidates[best])
        result = newton(problem, candidates[best], free, self.max_iter, self.gtol, start=start)
        if not result.converged and best != "zero":
            retry = newton(problem, candidates["zero"], free, self.max_iter, self.gtol)
            if retry.converged or problem.value(retry.W)[0] < problem.value(result.W)[0]:
                result, best = retry, "zero"
        return result, best

    def _run_unpenalised(self, problem, free, starts, K_rows, F, codes, K, Phi):
        """l2 = 0: first ask whether a finite optimum exists at all."""
        why = separation(Phi, codes, K)
        if not why:
            return self._run(problem, free, starts, K_rows, F) + ("",)
        N = len(Phi)
        if why == "separable":  # follow the weights out until every point is clearly on its side
            stop = lambda E, cache: E < 1e-3 * N  # noqa: E731
            result = newton(problem, np.zeros((K_rows, F)), free, self.max_iter, self.gtol, stop)
        else:
            result = newton(problem, np.zeros((K_rows, F)), free, QUASI_SEPARABLE_STEPS, self.gtol)
        result.converged = False
        return result, "zero", why

    def _record(self, result, start, why=""):
        self.n_iter_ += result.steps
        self.start_ = start
        self.gradient_ = max(self.gradient_, result.gradient)
        if why:
            self.separation_ = why
        if result.converged:
            return result.W
        self.converged_ = False
        if result.why == "draft":  # the hand is moving: the fit on rest will say how it ends
            return result.W
        if why == "separable":
            note = ("the classes are separable: without a penalty (l2 = 0) the maximum-likelihood weights "
                    "are infinite (Bishop 4.3.2); Newton stopped once every point was on its side. "
                    "Raise l2 for a finite fit")
        elif why == "quasi-separable":
            note = ("the classes are quasi-separable (a line puts every point on its side or on the line): "
                    "without a penalty (l2 = 0) no finite maximum-likelihood weights exist; stopped after "
                    f"{result.steps} Newton steps. Raise l2 for a finite fit")
        else:
            note = (f"Newton did not reach the optimum ({result.why} after {result.steps} steps, gradient "
                    f"{result.gradient:.1e} of its scale): the posteriors are approximate")
        if note not in self.notices_:
            self.notices_.append(note)
        return result.W

    def n_parameters(self):
        if self.basis == "rbf":
            return type(self).count_parameters(len(self.classes_), "rbf", len(getattr(self, "centers_", ())))
        return type(self).count_parameters(len(self.classes_), self.basis)


class LogisticRegression(_LinearModel):
    """Logistic regression p(C_1|x) = sigma(w^T phi(x) + w0) (Bishop 4.3.2), fitted by IRLS.

    With K > 2 classes it fits K one-vs-rest models (Bishop 4.1.2); ``ovr_`` is then True, the
    posterior shown is the normalised sigma(a_k) / sum_j sigma(a_j) and ``coef_`` has K rows.
    With two classes ``coef_`` has one row: w, w0 of p(classes_[1]|x).
    """

    name = "logistic"
    label = "Logistic regression"
    #: the objective of each two-class problem (the probit model swaps in its own)
    binary_problem = BinaryBatch

    def __init__(self, *, l2: float = DEFAULT_L2, basis: str = DEFAULT_BASIS, standardize: bool = DEFAULT_STANDARDIZE,
                 bayes: bool = False, alpha: float = DEFAULT_ALPHA, centers: str = DEFAULT_CENTERS,
                 width: float = DEFAULT_WIDTH, max_iter: int = 100, gtol: float = GTOL):
        super().__init__(l2=l2, basis=basis, standardize=standardize, centers=centers, width=width,
                         max_iter=max_iter, gtol=gtol)
        self.bayes = bayes
        self.alpha = alpha

    def _fit(self, X, codes, K, init=None):
        """With ``bayes``: the Bayesian view (Bishop 4.4, 4.5.1). The weights are w_MAP under the prior
        N(w|0, alpha^-1 I) on every weight, the bias included, and ``laplace_`` holds the Laplace posterior
        (a :class:`probviz.models.bayes.Laplace`: S_N, the evidence, BIC); None without it."""
        self.laplace_ = None
        if not self.bayes or K < 2:
            return super()._fit(X, codes, K, init)
        self._check_params()
        if self.basis == "rbf":
            raise ValueError("the Bayesian view (Laplace) takes the polynomial bases (linear, quadratic, cubic), "
                             "not rbf: turn it off, or choose another basis")
        if isinstance(self.alpha, bool) or not isinstance(self.alpha, (int, float, np.floating)) or not (
                np.isfinite(self.alpha) and self.alpha > 0):
            raise ValueError(f"alpha must be a positive number, got {self.alpha!r}")
        lap = self.laplace_ = fit_laplace(X, codes, K, float(self.alpha), self.basis, self.standardize)
        self.frame_ = (lap.center, lap.scale)
        self.n_iter_, self.converged_, self.start_, self.separation_, self.gradient_ = 0, lap.converged, "zero", "", 0.0
        self.draft_step_, self.draft_state_ = None, None
        self.ovr_ = K > 2
        if self.ovr_:
            self.notices_.append(f"{K} classes: a Bayesian one-vs-rest fit per class (Bishop 4.1.2), each with its "
                                 "own posterior over w")
        if not lap.converged:
            self.notices_.append("Newton did not reach the posterior's mode: w_MAP and S_N are approximate")
        self._set_weights(lap.z_w, lap.z_center, lap.z_scale, BASES[self.basis], K)

    @classmethod
    def count_parameters(cls, K, basis="linear", M=2):
        """M + 1 for two classes (Bishop 4.3.2), K (M + 1) one-vs-rest; M the basis size (for "rbf",
        M is the number of centres)."""
        F = M + 1 if basis == "rbf" else len(monomials(BASES[basis])) + 1
        return 0 if K < 2 else (F if K == 2 else K * F)

    def _problem(self, Phi, codes, K, R):
        """The objective on features Phi (rows) of points of classes ``codes``, with the penalty R."""
        return self.binary_problem(Phi, self._targets(codes, K), R)

    def _targets(self, codes, K):
        return np.stack([codes == k for k in range(K)], axis=1) if K > 2 else (codes == 1)[:, None]

    @staticmethod
    def _one_vs_rest(K: int) -> bool:
        return K > 2

    def _weights_from_scores(self, C):
        """Two rows (0, a) or any two scores: their log-odds; K > 2 rows: one-vs-rest scores."""
        return self._flat(C[1:] - C[:1]) if C.shape[0] == 2 else self._flat(C)

    def generative_start(self, X, codes, K, center, scale, degree):
        if K == 2:
            return super().generative_start(X, codes, K, center, scale, degree)
        # one-vs-rest: each binary problem's own Gaussian log-odds, its statistics pooled from the K classes'
        try:
            stats = ClassStats.from_data(np.asarray(X, dtype=float), np.asarray(codes), K)
            if not np.all(stats.counts):
                return None
            if degree == 1:  # LDA's, all at once: a fit of each cost more than the Newton step it saves
                W = ovr_lda_log_odds(stats, center, scale)
                return W if np.all(np.isfinite(W)) else None
            rows = []
            for k in range(K):
                g = QDA(reg_covar=0.1).fit_stats(np.arange(2), stats.one_vs_rest(k))
                rows.append(self._weights_from_scores(g.scores_.in_frame(center, scale, degree))[0])
        except (ValueError, np.linalg.LinAlgError):
            return None
        return np.array(rows)

    #: the link its notices name: p(C_1|x) = link(a)
    link_name = "sigma"

    def _solve(self, Phi, codes, K, starts):
        F = Phi.shape[1]
        T = self._targets(codes, K)
        self.ovr_ = K > 2
        if self.ovr_:
            f = self.link_name
            self.notices_.append(f"{K} classes: fitted one-vs-rest (Bishop 4.1.2); hatched regions are "
                                 f"ambiguous (no class, or several, has {f}(a_k) > 1/2); the posterior "
                                 f"shown is {f}(a_k) normalised over k")
        free = np.ones((T.shape[1], F), bool)
        if self.l2 > 0:  # a finite optimum for every problem: solve them together
            return self._record(*self._run(self._problem(Phi, codes, K, self._R), free, starts, T.shape[1], F))
        # without a penalty each problem may be separable on its own, and is told so on its own
        rows = []
        for k in range(T.shape[1]):
            own = {name: W0[k:k + 1] for name, W0 in starts.items() if W0 is not None and len(W0) == T.shape[1]}
            result, start, why = self._run_unpenalised(self.binary_problem(Phi, T[:, k], self._R), free[:1], own, 1, F,
                                                       T[:, k].astype(np.int64), 2, Phi)
            rows.append(self._record(result, start, why)[0])
        return np.array(rows)

    def _score_rows(self, W):
        # two classes: scores (0, a), whose softmax is (1 - sigma(a), sigma(a))
        return W if self.ovr_ else np.vstack([np.zeros(W.shape[1]), W])

    def _reported_rows(self, K):
        return slice(None) if self.ovr_ else slice(1, 2)

    def proba_from_scores(self, S, axis=-1, dtype=np.float64):
        if getattr(self, "ovr_", False):  # sigma(a_k) / sum_j sigma(a_j)
            return ovr_proba(S, axis, dtype)
        return super().proba_from_scores(S, axis, dtype)

    def predict_proba(self, X) -> np.ndarray:
        """p(C_k|x) at the rows of X. One-vs-rest with the sigmoid's link makes the negated scores -a_k
        directly (the coefficients' signs flipped: exact), so sigma(a) = 1 / (1 + e^-a) is the exponential
        and two passes, in place; rows whose sigmas all but vanish are redone by :func:`ovr_proba`, in log
        space. Equal, bit for bit, to ``proba_from_scores(decision_function(X))``."""
        negated = self._negated_scores()
        if negated is None:
            return super().predict_proba(X)
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        P = negated(X)  # (N, K), the transpose of a fresh contiguous (K, N)
        with np.errstate(over="ignore"):  # e^-a is inf where a < -709: sigma(a) is then 0
            np.exp(P, out=P)
            P += 1.0
            np.reciprocal(P, out=P)
        with np.errstate(invalid="ignore"):  # rows whose sigmas are all 0 (0/0) are redone below
            total = P.sum(axis=1, keepdims=True)
            P /= total
        low = total[:, 0] < OVR_FLOOR
        if low.any():
            P[low] = ovr_proba(self.decision_function(X[low]))
        return P

    def _negated_scores(self) -> Poly2D | None:
        """-a_k as a polynomial, for one-vs-rest with the sigmoid (None otherwise), made once per fit."""
        scores = getattr(self, "scores_", None)
        if not (getattr(self, "ovr_", False) and self.link_name == "sigma" and type(scores) is Poly2D):
            return None
        made = getattr(self, "_negated", None)
        if made is None or made[0] is not scores:
            made = self._negated = (scores, Poly2D(scores.center, scores.scale, -scores.coefs))
        return made[1]

    def _log_proba_from_scores(self, S):
        if getattr(self, "ovr_", False):  # far from the data every sigma underflows: log space
            S = log_sigmoid(S)
        return super()._log_proba_from_scores(S)

    def _likelihood_sums(self, S, codes, best=None, top=None):
        """One-vs-rest is K separate two-class models: its likelihood is theirs, sum_k ln p(t_k|X)
        (each the conditional likelihood of one binary fit), not that of the normalised posterior: the K sums."""
        if not getattr(self, "ovr_", False):
            return super()._likelihood_sums(S, codes, best, top)
        # ln p(t_k|X) = sum_n ln sigma(+-a_kn), the sign + for the class's own points: ln sigma(a) =
        # min(a, 0) - ln(1 + e^-|a|) and ln sigma(-a) = -max(a, 0) - ln(1 + e^-|a|), each term made whole
        # before the sum (the sum of the own a_kn less the sum of max(a_kn, 0), two large sums nearly equal,
        # lost a near-perfect fit's digits), K contiguous rows
        T = np.ascontiguousarray(S.T)
        terms = np.maximum(T, 0.0)  # -ln sigma(-a) = max(a, 0) + ln(1 + e^-|a|)
        own = np.asarray(codes, dtype=np.intp) * T.shape[1] + np.arange(T.shape[1])  # each a_{t_n n}, flat
        terms.reshape(-1)[own] -= T.reshape(-1)[own]  # -ln sigma(a) = (max(a, 0) - a) + ln(1 + e^-|a|): exact
        terms += log1p_exp_neg_abs(T)
        return -terms.sum(axis=1)

    def _likelihood_report(self, sums):
        if not getattr(self, "ovr_", False):
            return super()._likelihood_report(sums)
        return ovr_likelihoods(sums)


def ovr_likelihoods(each: np.ndarray) -> dict:
    """A one-vs-rest fit's likelihood entries from its K binary log-likelihoods ln p(t_k|X)."""
    return {"log_likelihood": float(each.sum()),
            "log_likelihood_kind": f"sum of the {len(each)} one-vs-rest ln p(t_k|X)",
            "cross_entropy": float(-each.sum()), "binary_log_likelihoods": [float(v) for v in each]}


#: the sum of a row's K links in float64 below which :func:`normalise_ovr` redoes the row in log space
OVR_FLOOR = 2.0 ** -900


def ovr_proba(S: np.ndarray, axis: int = -1, dtype=np.float64) -> np.ndarray:
    """One-vs-rest's posterior sigma(a_k) / sum_j sigma(a_j) along ``axis``, in ``dtype``.

    In linear space, sigma(a) = 1 / (1 + e^-a): four passes and a sum, against a dozen in log space. It is
    exact to rounding wherever sum_j sigma(a_j) is at least 2^-900 (2^-60 in float32): a sigma lost to 0
    (where e^-a overflows: a < -709.8, or -88.7 in float32) is then under 2^-100 of the sum (2^-40 in
    float32), far below the rounding of the largest p. Rows under that bound (far from every class's data,
    each one-vs-rest model says "not mine") are redone in log space, where nothing underflows."""
    P = np.empty_like(S, dtype=dtype)  # S's own layout: the sum over classes then adds K long rows
    with np.errstate(over="ignore"):  # e^-a is inf where a < -709: sigma(a) is then 0
        np.negative(S, out=P, casting="same_kind")
        np.exp(P, out=P)
        P += 1.0
        np.reciprocal(P, out=P)
    return normalise_ovr(P, S, axis, log_sigmoid)


def normalise_ovr(P: np.ndarray, S: np.ndarray, axis: int, log_link, floor: float | None = None) -> np.ndarray:
    """``P`` (the links f(a_k) of scores ``S``, f = sigma or Phi) divided in place by their sum along ``axis``.
    Rows whose sum is below ``floor`` (by default 2^-900, or 2^-60 in float32), where a link lost to 0 or to a
    subnormal would count, are normalised in log space from ``log_link`` (ln f, exact in the tail): nothing
    underflows there."""
    with np.errstate(invalid="ignore"):  # rows whose links are all 0 (0/0) are redone below
        total = P.sum(axis=axis, keepdims=True)
        P /= total
    if floor is None:
        floor = OVR_FLOOR if P.dtype.itemsize >= 8 else 2.0 ** -60
    low = total < floor
    if low.any():  # rows where every link is tiny: normalised in log space
        rows = np.broadcast_to(low, P.shape)
        moved_S, moved_P = np.moveaxis(S, axis, -1), np.moveaxis(P, axis, -1)
        pick = np.moveaxis(rows, axis, -1)[..., 0]
        logs = log_link(np.asarray(moved_S[pick], dtype=np.float64))
        logs -= logs.max(axis=-1, keepdims=True)
        np.exp(logs, out=logs)
        logs /= logs.sum(axis=-1, keepdims=True)
        moved_P[pick] = logs
    return P


class SoftmaxRegression(_LinearModel):
    """Multiclass softmax regression p(C_k|x) = exp(a_k) / sum_j exp(a_j), a_k = w_k^T phi(x) + w_k0
    (Bishop 4.3.4), fitted by Newton with the full Hessian of eq. 4.110.

    The scores are defined up to a common constant: the biases are reported centred (sum zero),
    and so are the weights when l2 = 0.
    """

    name = "softmax"
    label = "Softmax regression"

    @classmethod
    def count_parameters(cls, K, basis="linear", M=2):
        """(K - 1)(M + 1): one score is fixed by the others (Bishop 4.3.4); for "rbf", M the number of centres."""
        F = M + 1 if basis == "rbf" else len(monomials(BASES[basis])) + 1
        return 0 if K < 2 else (K - 1) * F

    def _weights_from_scores(self, C):
        return self._flat(C)

    def _gauge(self, W):
        """The same scores with the entries the fit holds at zero moved to zero."""
        return W - (W[-1] if self.l2 == 0 else np.r_[W[-1, 0], np.zeros(W.shape[1] - 1)])

    def _solve(self, Phi, codes, K, starts):
        F = Phi.shape[1]
        free = np.ones((K, F), bool)
        if self.l2 > 0:
            free[-1, 0] = False  # the penalty fixes the weights; pin one bias
        else:
            free[-1] = False  # unpenalised: class K is the reference
        starts = {name: self._gauge(W0) for name, W0 in starts.items() if W0 is not None}
        problem = self._problem(Phi, codes, K, self._R)
        if self.l2 > 0:
            W = self._record(*self._run(problem, free, starts, K, F))
        else:
            W = self._record(*self._run_unpenalised(problem, free, starts, K, F, codes, K, Phi))
        return self._finish(W)

    def _finish(self, W):
        """The solver's weights (one bias pinned at zero with a penalty, or class K's row without) moved to the
        gauge the model keeps: mean bias zero (and mean weights zero without a penalty)."""
        F = W.shape[1]
        return W - (W.mean(axis=0) if self.l2 == 0 else np.r_[W[:, 0].mean(), np.zeros(F - 1)])

    def _problem(self, Phi, codes, K, R):
        return Multinomial(Phi, codes, K, R)

    def _score_rows(self, W):
        return W

    def _reported_rows(self, K):
        return slice(None)
