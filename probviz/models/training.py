"""Training, one step at a time: how a discriminative model reaches its weights (Bishop 4.1.7, 4.3.2-4.3.4).

The conventions, the same for the window, ``probviz fit --optimizer`` and the tests:

* Features: phi_n = (1, phi(z_n)), z = (x - center) / scale, standardized when the model's
  ``standardize`` is on (center, scale as the fit uses them), else z = x. Weights W have one row
  per discriminant: one row for two-class logistic regression (p(C_2|x) = sigma(w^T phi)), one per
  class for one-vs-rest and for softmax, one for the perceptron.
* Error: E(W) = the summed cross-entropy (Bishop eqs. 4.90, 4.108; for one-vs-rest the sum of the K
  binary ones) + (l2/2) sum_k ||w_k||^2, the biases not penalised. Logistic regression's Bayesian view
  (``alpha`` given) trains toward w_MAP instead: + (alpha/2) sum_k ||w_k||^2 with the biases, the negative
  log of the prior N(w|0, alpha^-1 I) (Bishop eqs. 4.140-4.142), in place of the l2 penalty.
  The perceptron's is its criterion E_P(w) = -sum_{n in M} w^T phi_n t_n (eq. 4.54), t_n = +1 for the
  second class, -1 for the first, M the points with w^T phi_n t_n <= 0.
* ``gd``: W <- W - eta grad E (eq. 4.91 / 4.109 plus l2 W). ``sgd``: one point per step, in file
  order, cycling: W <- W - eta grad E_n with E_n point n's error plus 1/N of the penalty
  (eq. 3.22's on-line form). ``newton``: W <- W - H^-1 grad E, no learning rate (eqs. 4.92-4.99, IRLS; eq. 4.110 for
  softmax), H^-1 the pseudo-inverse along the directions E does not depend on (softmax's scores are
  defined up to a common constant). The perceptron: gd adds eta sum_{n in M} phi_n t_n, sgd adds
  eta phi_n t_n when point n is misclassified (eq. 4.55); it has no Newton step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from probviz.special import expit

from probviz.models.base import argmax_classes, check_Xy, data_frame
from probviz.models.discriminant import Perceptron
from probviz.models.logistic import BASES, DEFAULT_BASIS, DEFAULT_L2, DEFAULT_STANDARDIZE
from probviz.models.newton import BinaryBatch, Multinomial, gradient_scale, newton_solve
from probviz.models.poly import design_matrix

OPTIMIZERS = ("gd", "sgd", "newton")
OPTIMIZER_LABELS = {"gd": "Gradient descent", "sgd": "Stochastic gradient descent", "newton": "Newton / IRLS"}
OPTIMIZER_SHORT = {"gd": "GD", "sgd": "SGD", "newton": "Newton"}  # where room is short (a projector's caption)
TRAINABLE = ("logistic", "softmax", "perceptron")
DEFAULT_ETA = {"gd": 0.01, "sgd": 0.1, "newton": 1.0}
MAX_STEPS = 1_000_000
PERCEPTRON_ETA = (1e-100, 1e100)  # w is eta times a sum of phi_n t_n: beyond these it overflows or vanishes

START_LABELS = {"zero": "w = 0", "generative": "the Gaussian model's log-odds"}


@dataclass(frozen=True)
class TrainingSpec:
    """Which training run to show, and which of its steps.

    ``eta`` None takes the optimizer's default; ``start`` is "zero" or "generative" (the Gaussian
    model's log-odds, Bishop 4.2.1); a new ``run`` number starts again from the start weights (Reset),
    and run 0 with no steps asks for no run at all (the points were edited with the fit on screen);
    ``shown`` False draws the fitted model instead of the step.
    """

    optimizer: str = "gd"
    eta: float | None = None
    start: str = "zero"
    steps: int = 0
    run: int = 0
    shown: bool = False


@dataclass
class Step:
    """The state after ``index`` steps."""

    index: int
    W: np.ndarray  # (rows, F)
    error: float  # E(W)
    wrong: int  # training points misclassified at W
    point: int = -1  # sgd: the point this step used
    contribution: np.ndarray | None = None  # sgd: that point's gradient term (y_n - t_n) phi_n, (rows, F)

    @property
    def norm(self) -> float:
        """||w||, the weights without the biases."""
        return float(np.sqrt(np.sum(self.W[:, 1:] ** 2)))


class Trainer:
    """Steps of ``optimizer`` on model ``name``'s objective over points X (N, 2) with labels y.

    ``start`` (rows, F) replaces w = 0, ``start_label`` says what it is in a model's report ("the given weights"
    if not said). ``history`` holds every step taken (step 0 is the start).
    """

    def __init__(self, name: str, X, y, *, optimizer: str = "gd", eta: float | None = None,
                 l2: float = DEFAULT_L2, basis: str = DEFAULT_BASIS, standardize: bool = DEFAULT_STANDARDIZE,
                 start=None, names=None, start_label: str | None = None, alpha: float | None = None):
        if name not in TRAINABLE:
            raise ValueError(f"{name} is not trained step by step; choose one of {', '.join(TRAINABLE)}")
        if optimizer not in OPTIMIZERS:
            raise ValueError(f"optimizer must be one of {', '.join(OPTIMIZERS)}, got {optimizer!r}")
        eta = DEFAULT_ETA[optimizer] if eta is None else eta
        if not (isinstance(eta, (int, float)) and np.isfinite(eta) and eta > 0):
            raise ValueError(f"the learning rate eta must be a positive number, got {eta!r}")
        if name == "perceptron":
            if not PERCEPTRON_ETA[0] <= eta <= PERCEPTRON_ETA[1]:
                raise ValueError(f"the perceptron's learning rate only scales w (from w = 0 every step adds eta phi_n "
                                 f"t_n, so every eta > 0 makes the same decisions, Bishop 4.1.7); eta = {eta:g} would "
                                 f"overflow or vanish: use one from {PERCEPTRON_ETA[0]:g} to {PERCEPTRON_ETA[1]:g}")
            if optimizer == "newton":
                raise ValueError("the perceptron has no Newton step: its criterion is piecewise linear, with no "
                                 "curvature (Bishop 4.1.7); use gd or sgd")
            l2, basis, standardize = 0.0, "linear", True
        if basis == "rbf":  # the trainer's features are the polynomial design matrix
            raise ValueError("training step by step takes the polynomial bases (linear, quadratic, cubic); the rbf "
                             "basis is fitted in one go: turn the training off, or choose another basis")
        if basis not in BASES:
            raise ValueError(f"basis must be one of {', '.join(BASES)}, got {basis!r}")
        if not (np.isfinite(l2) and l2 >= 0):
            raise ValueError(f"l2 must be a non-negative number, got {l2!r}")
        if alpha is not None:
            if name != "logistic":
                raise ValueError("the Bayesian view's prior belongs to logistic regression")
            if isinstance(alpha, bool) or not (isinstance(alpha, (int, float)) and np.isfinite(alpha) and alpha > 0):
                raise ValueError(f"alpha must be a positive number, got {alpha!r}")
            l2 = 0.0  # alpha replaces it, as in the Bayesian fit
        self.alpha = None if alpha is None else float(alpha)
        X, self.classes, self.codes = check_Xy(X, y)
        self.name, self.optimizer, self.eta = name, optimizer, float(eta)
        self.l2, self.basis, self.standardize, self.names = float(l2), basis, bool(standardize), names
        self.K = K = len(self.classes)
        if K < 2:
            raise ValueError("training needs points of at least two classes")
        if name == "perceptron" and K > 2:
            raise ValueError(f"the perceptron separates two classes (Bishop 4.1.7); this data has {K}")
        self.X = X
        self.frame = data_frame(X) if self.standardize else (np.zeros(2), np.ones(2))
        degree = BASES[basis]
        self.Phi = np.column_stack([np.ones(len(X)), design_matrix((X - self.frame[0]) / self.frame[1], degree)])
        N, F = self.Phi.shape
        # the penalty's Hessian: l2 on the weights, or the prior's alpha on every weight, the bias included
        self.R = self.alpha * np.eye(F) if self.alpha is not None else self.l2 * np.diag(np.r_[0.0, np.ones(F - 1)])
        if name == "softmax":
            self.T = np.eye(K)[self.codes]
            self.problem = Multinomial(self.Phi, self.codes, K, self.R)
        elif name == "logistic":
            self.T = self.T_binary = (np.eye(K)[self.codes] if K > 2 else (self.codes == 1)[:, None]).astype(float)
            self.problem = BinaryBatch(self.Phi, self.T, self.R)
        else:
            self.t = np.where(self.codes == 1, 1.0, -1.0)
        rows = K if (name == "softmax" or (name == "logistic" and K > 2)) else 1
        W0 = np.zeros((rows, F)) if start is None else np.array(start, dtype=float)
        self.start_label = "zero" if start is None else start_label or "the given weights"  # (as a fit's start_)
        if W0.shape != (rows, F) or not np.all(np.isfinite(W0)):
            raise ValueError(f"the start weights must be finite, of shape ({rows}, {F})")
        self.history: list[Step] = [self._state(0, W0)]

    # --- the objective ------------------------------------------------------------------
    def error(self, W) -> float:
        """E(W) as the module docstring defines it."""
        if self.name == "perceptron":
            m = (self.Phi @ W[0]) * self.t
            return float(-np.sum(m[m <= 0])) + 0.0  # + 0.0: w = 0 gives 0, not -0
        return self.problem.value(W)[0]

    def on_boundary(self, W) -> int:
        """Training points on a boundary exactly, undecided and counted as misclassified: the perceptron's with
        w^T phi_n = 0 (they are in M, eq. 4.54); the others' where the largest p(C_k|x) is shared. At w = 0 that
        is every point."""
        if self.name == "perceptron":
            return int(np.count_nonzero(self.Phi @ W[0] == 0))
        return int(np.count_nonzero(self._decided(W) < 0))

    def _decided(self, W) -> np.ndarray:
        """Each training point's class at W, -1 where the largest posterior is shared (a tie decides nothing)."""
        A = self.Phi @ W.T
        if self.name == "logistic" and self.K == 2:  # one score a: class 1 where sigma(a) > 1/2
            return np.where(A[:, 0] > 0, 1, np.where(A[:, 0] < 0, 0, -1))
        best = np.argmax(A, axis=1)
        shared = np.count_nonzero(A == A[np.arange(len(A)), best][:, None], axis=1) > 1
        return np.where(shared, -1, best)

    def misclassified(self, W) -> int:
        if self.name == "perceptron":
            return int(np.count_nonzero((self.Phi @ W[0]) * self.t <= 0))
        return int(np.count_nonzero(self._decided(W) != self.codes))

    def gradient(self, W) -> np.ndarray:
        """grad E at W, (rows, F)."""
        if self.name == "perceptron":
            M = (self.Phi @ W[0]) * self.t <= 0
            return -(self.t[M] @ self.Phi[M])[None]
        return self.problem.gradient(W, self.problem.value(W)[1])

    def _state(self, index, W, point=-1, contribution=None) -> Step:
        return Step(index, W, self.error(W), self.misclassified(W), point, contribution)

    # --- steps --------------------------------------------------------------------------
    @property
    def current(self) -> Step:
        return self.history[-1]

    def step(self, count: int = 1) -> Step:
        """Take ``count`` steps; the last state."""
        for _ in range(int(count)):
            if len(self.history) > MAX_STEPS:
                break
            s = self.current
            point, contribution = -1, None
            if self.optimizer == "sgd":
                point = s.index % len(self.Phi)
                contribution = self._point_term(s.W, point)
                G = contribution + (0.0 if self.name == "perceptron" else s.W @ self.R / len(self.Phi))
                W = s.W - self.eta * G
            elif self.optimizer == "gd":
                W = s.W - self.eta * self.gradient(s.W)
            else:  # Newton's step has no learning rate: H^-1 sets its length
                W = s.W - self._newton_direction(s.W)
            with np.errstate(over="ignore", invalid="ignore"):
                state = self._state(s.index + 1, W, point, contribution) if np.all(np.isfinite(W)) else None
            if state is None or not np.isfinite(state.error):
                raise FloatingPointError(f"the weights overflowed at step {s.index + 1}: eta = {self.eta:g} is too "
                                         "large (E(w) grew without bound)")
            self.history.append(state)
        return self.current

    def _point_term(self, W, n) -> np.ndarray:
        """Point n's part of the gradient (without the penalty): (y_n - t_n) phi_n per row; the
        perceptron's -phi_n t_n if n is misclassified, else 0."""
        phi = self.Phi[n]
        if self.name == "perceptron":
            wrong = (phi @ W[0]) * self.t[n] <= 0
            return (-self.t[n] * phi if wrong else np.zeros_like(phi))[None]
        a = W @ phi
        if self.name == "softmax":
            y = np.exp(a - a.max())
            y /= y.sum()
        else:
            y = expit(a)
        return (y - self.T[n])[:, None] * phi[None, :]

    def _newton_direction(self, W) -> np.ndarray:
        """H^-1 grad E: per row for logistic (IRLS, eq. 4.92), the full (K F) system for softmax
        (eq. 4.110) with its gauge directions (a constant added to every score) made invertible."""
        value, cache = self.problem.value(W)
        G = self.problem.gradient(W, cache)
        N, F = self.Phi.shape
        if self.name == "logistic":
            Y = expit(cache.A)
            out = np.empty_like(W)
            for k in range(len(W)):
                H = (self.Phi * (Y[:, k] * (1 - Y[:, k]))[:, None]).T @ self.Phi + self.R
                out[k] = newton_solve(H, G[k])
            return out
        H = self.problem.hessian(W, cache)
        K = self.K
        gauge = [f for f in range(F) if self.R[f, f] == 0]  # features whose weights a common shift leaves alone
        U = np.zeros((K * F, len(gauge)))
        for i, f in enumerate(gauge):
            U[f::F, i] = 1.0 / np.sqrt(K)
        shift = max(float(np.trace(H)) / (K * F), 1e-300)
        d = newton_solve(H + shift * (U @ U.T), G.ravel())
        return d.reshape(W.shape)

    def generative_start(self):
        """Start weights whose scores are a Gaussian model's log-odds (LDA for the linear basis, QDA for
        the curved ones, Bishop 4.2.1): the same functional form; None for the perceptron or when the
        Gaussian model cannot be fitted. The model class computes them (the same start its fit tries)."""
        from probviz.models.registry import info

        if self.name == "perceptron":
            return None
        model = info(self.name).cls(l2=self.l2, basis=self.basis, standardize=self.standardize)
        return model.generative_start(self.X, self.codes, self.K, *self.frame, BASES[self.basis])

    # --- what the steps mean --------------------------------------------------------------
    def gradient_norm(self, W=None) -> float:
        """max |dE/dw| at W relative to sum_n max_f |phi_nf| (the optimality test of the fits)."""
        G = self.gradient(self.current.W if W is None else W)
        return float(np.max(np.abs(G))) / gradient_scale(self.Phi)

    def model(self, step: Step | None = None):
        """A fitted model (the registry's class) whose weights are ``step``'s: drawn like any fit."""
        from probviz.models.registry import info

        s = self.current if step is None else step
        cls = info(self.name).cls
        if self.name == "perceptron":
            model = PerceptronStep()
            model.classes_, model.notices_, model.n_features_in_ = self.classes, [], 2
            from probviz.models.base import class_names

            model.class_names_ = class_names(self.classes, self.names)
            model.set_weights(*self.frame, s.W[0])
            model.n_iter_, model.converged_ = s.index, s.wrong == 0
            model.epochs_ = -(-s.index // len(self.Phi)) if self.optimizer == "sgd" else s.index
            return model
        params = {"l2": self.l2, "basis": self.basis, "standardize": self.standardize}
        model = cls.from_weights(s.W, self.frame, self.classes, params, self.names, s.index)
        model.converged_ = self.gradient_norm(s.W) <= 1e-10
        model.start_, model.trained_by_ = self.start_label, self.optimizer  # its report names the run's steps
        return model

    def optimum(self):
        """(E at the direct fit's weights, the fitted model), or (None, model) when no finite
        optimum exists (the perceptron; l2 = 0 on separable data)."""
        from probviz.models.registry import create

        if self.name == "perceptron":
            return None, None
        params = {"l2": self.l2, "basis": self.basis, "standardize": self.standardize}
        if self.alpha is not None:  # the Bayesian fit's w_MAP
            params.update(bayes=True, alpha=self.alpha)
        fitted = create(self.name, **params).fit(self.X, self.classes[self.codes], names=self.names)
        if fitted.separation_:
            return None, fitted
        return self.error(fitted.weights_), fitted

    def raw_weights(self, step: Step | None = None) -> dict:
        """coef (rows, M) and intercept (rows,) in the units of x, as ``probviz fit --json`` reports."""
        m = self.model(step)
        return {"coef": m.coef_.tolist(), "intercept": np.atleast_1d(m.intercept_).tolist()}


class PerceptronStep(Perceptron):
    """The perceptron at a training step. Its criterion counts a point with y(x) = w^T phi(x) = 0 as
    misclassified (it is in M, Bishop eq. 4.54), so such points, and the grid where y(x) = 0, are left
    undecided here instead of going to the first class by a tie: at w = 0 it decides nothing, and the
    accuracy it reports is the criterion's."""

    def decide(self, X) -> np.ndarray:
        S = self.decision_function(X)
        out = argmax_classes(S.T).astype(np.intp)
        out[S[:, 1] == S[:, 0]] = -1
        return out

    def decide_grid(self, xs, ys) -> np.ndarray:
        S = self.scores_.evaluate_grid(xs, ys)
        out = argmax_classes(S).astype(np.intp)
        out[S[1] == S[0]] = -1
        return out


def separable_note(trainer: Trainer) -> str:
    """Why the weights keep growing, when they do: the data the model sees is separable and no
    penalty holds them (Bishop 4.3.2); or why the perceptron never settles; or, for the Bayesian view, what
    the steps minimise (the prior holds the weights whatever the data)."""
    from probviz.models.newton import separation

    if trainer.alpha is not None:
        return (f"the Bayesian view: the steps go toward w_MAP, E(w) adding the prior's (α/2)‖w‖² on every weight, "
                f"the bias included (α = {trainer.alpha:.4g}, Bishop eq. 4.142), in place of the L2 penalty")
    if trainer.name == "perceptron":
        return "" if separation(trainer.Phi, trainer.codes, 2) == "separable" else (
            "no line separates these classes: the perceptron never settles, it cycles (Bishop 4.1.7)")
    if trainer.l2 > 0:
        return ""
    why = separation(trainer.Phi, trainer.codes, trainer.K)
    if not why:
        return ""
    return (f"the classes are {why} and l2 = 0: E(w) keeps falling as ‖w‖ grows, so there is no "
            "maximum-likelihood solution and the sigmoid sharpens toward a step (Bishop 4.3.2); raise l2")
