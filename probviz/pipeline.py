"""From a frame request to a complete frame: fits, then everything drawn. Pure (no Qt).

The window, its export, ``probviz export`` and ``probviz fit`` all come through here, with requests
made by one function (:func:`probviz.snapshot.frame_request`), so the same snapshot gives the same fit
and the same picture everywhere:

    request = frame_request(snapshot, bounds, shape)
    frame = compute(request)    # fit_all (or the training step, probviz.stepping), then build_frame

A frame holds one fit per model spec: the first is the one shown (heatmap, decision regions,
ellipses, probe); the others are overlaid by their boundaries. A request with a training run shown
draws that run's step instead of the first model's fit. The frame also carries what the docks show:
the training run, the cross-section's curves, the known true errors.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

import numpy as np

from probviz import decision
from probviz import scene as scenes
from probviz import weight_space
from probviz.analysis import known_errors
from probviz.data.session import Session
from probviz.layers import DEFAULT_LAYERS
from probviz.models import REGISTRY, info
from probviz.models.base import Classifier
from probviz.report import discriminant_readout, probe_lines


@dataclass(frozen=True)
class ModelSpec:
    """A model by name with its complete parameters (the registry's defaults filled in)."""

    name: str
    params: tuple = ()  # sorted (name, value) pairs: hashable and comparable

    @classmethod
    def make(cls, name: str, params: dict | None = None) -> "ModelSpec":
        """Registry defaults overridden by ``params``; unknown parameter names are dropped."""
        defaults = info(name).defaults()
        given = {k: v for k, v in (params or {}).items() if k in defaults or k == "priors"}
        return cls(name, tuple(sorted({**defaults, **given}.items())))

    @property
    def kwargs(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.params}

    @property
    def label(self) -> str:
        return REGISTRY[self.name].label

    def create(self) -> Classifier:
        return info(self.name).cls(**self.kwargs)


def model_spec(name: str, params: dict, priors=None, labels=None) -> ModelSpec:
    """The spec a document's settings mean. Hand-set priors (one per class of the document) are
    given to the model for the classes that have points, in order; discriminative models have none."""
    params = dict(params)
    if priors is not None and REGISTRY[name].generative and labels is not None and len(labels):
        present = np.unique(labels)
        params["priors"] = tuple(float(priors[i]) for i in present)
    return ModelSpec.make(name, params)


@dataclass
class Fit:
    """One fitted model and what it says about its training data."""

    spec: ModelSpec
    model: Classifier | None = None
    class_index: np.ndarray = field(default_factory=lambda: np.empty(0, int))  # document class of each model class
    summary: dict = field(default_factory=dict)
    wrong: np.ndarray | None = None  # misclassified training points
    notices: list = field(default_factory=list)
    error: str = ""
    incremental: bool = False  # updated for the moved points alone: statistics, or a draft's sums
    held_out: dict = field(default_factory=dict)  # accuracy (and likelihood) on the held-out points

    @property
    def ok(self) -> bool:
        return self.model is not None

    @property
    def draft(self) -> bool:
        """One Newton step from the fit before (drawn while the hand moves), not the optimum."""
        return getattr(self.model, "draft_step_", None) is not None


def fit_model(spec: ModelSpec, X, labels, previous: Fit | None = None, moved=None,
              evaluate: bool = True, names=None, draft: bool = False) -> Fit:
    """Fit ``spec`` to the points. ``previous`` (a fit of earlier points) may start an iterative fit;
    with ``moved`` = (indices, rows before) -- the only change since ``previous`` -- a Gaussian model
    is updated from its sufficient statistics in O(moved points). ``draft`` (the hand is moving): an
    iterative model takes one Newton step from ``previous`` (see ``Fit.draft``). ``names[label]`` names
    the classes in the fit's notices."""
    out = Fit(spec)
    if len(X) == 0:
        return out
    prev = previous.model if previous is not None else None
    try:
        model = _incremental(spec, X, labels, prev, moved, draft)
        out.incremental = model is not None
        if model is None:  # not a drag, another model, or an update that would lose precision
            model = spec.create()
            extra = {"draft": True} if draft and getattr(model, "drafts", False) else {}
            model = model.fit(X, labels, init=prev, names=names, **extra)
    except ValueError as e:
        out.error = str(e)
        return out
    out.model = model
    out.class_index = np.asarray(model.classes_, dtype=int)
    out.notices = list(model.notices_)
    if evaluate:
        out.summary, out.wrong = model.evaluate(X, labels)
    return out


def _incremental(spec, X, labels, prev, moved, draft=False):
    """A Gaussian model updated from ``prev``'s sufficient statistics, or (``draft``) a discriminative draft
    from ``prev``'s draft's sums, for the moved points alone; None when neither applies."""
    if moved is None or prev is None:
        return None
    indices, old = moved
    kind = _update_kind(spec, prev, draft)
    if kind == "statistics":
        return spec.create().fit_moved(prev, np.searchsorted(prev.classes_, labels[indices]), old, X[indices])
    if kind == "draft":
        return spec.create().draft_moved(prev, np.searchsorted(prev.classes_, labels[indices]), old, X[indices])
    return None


def _update_kind(spec, prev, draft: bool) -> str:
    """How a fit of ``spec`` follows moved points from ``prev``: "statistics" (a Gaussian model's sufficient
    statistics), "draft" (a discriminative draft's sums, while the hand moves), or "" (a fit over every point)."""
    if getattr(prev, "generative", False) and REGISTRY[spec.name].generative:
        return "statistics"
    follows = getattr(spec.create(), "follows_draft", None) if draft else None
    return "draft" if follows is not None and follows(prev) else ""


def follows_moves(request: FrameRequest, previous: "Frame | None", moved) -> bool:
    """Whether the frame of ``request`` follows ``previous`` for the ``moved`` points alone, in O(moved points)
    whatever N is (a drag through many points): every fit is updated from the previous fit :func:`fit_all` starts
    it from (statistics, or a draft's sums), and the density image from the previous one; no training run, no
    held-out points. Its summary, a pass over every point, is left out (``compute(..., evaluate=False)``)."""
    if moved is None or previous is None or request.training is not None or previous.training is not None:
        return False
    if any(r.held_out is not None and np.any(r.held_out) for r in (request, previous.request)):
        return False
    before = {f.spec: f.model for f in previous.fits}  # each spec's previous fit, as fit_all picks it
    first = previous.fits[0].model if previous.fits else None
    for i, spec in enumerate(request.specs):
        prev = before.get(spec, first if i == 0 else None)
        if prev is None or not _update_kind(spec, prev, request.draft):
            return False
    return not _dense(request) or _density_follows(request, previous)


def evaluate(fit: Fit, X, labels) -> Fit:
    """``fit`` with its training summary and misclassified mask (one pass over every point)."""
    if fit.model is None or fit.summary:
        return fit
    summary, wrong = fit.model.evaluate(X, labels)
    return Fit(fit.spec, fit.model, fit.class_index, summary, wrong, fit.notices, fit.error, fit.incremental,
               fit.held_out)


@dataclass(frozen=True)
class FrameRequest:
    """Everything a frame depends on: the points, the models, and how they are looked at."""

    X: np.ndarray
    labels: np.ndarray
    class_names: tuple
    colors: tuple
    specs: tuple  # of ModelSpec; the first is shown, the others overlaid
    bounds: tuple = (-5.0, 5.0, -5.0, 5.0)
    shape: tuple = (256, 256)  # grid (cols, rows)
    layers: frozenset = DEFAULT_LAYERS
    theta: float = 0.0
    probe: tuple | None = None
    background: tuple = (255, 255, 255)
    reject: tuple = (170, 170, 170)
    generation: int = 0
    revision: int = 0
    truth: object = None  # the Truth the points come from (drawn with the "truth" layer), or None
    section: tuple | None = None  # ((x, y), (x, y)): a cross-section line to draw
    held_out: np.ndarray | None = None  # (N,) bool: points kept out of the fit (a train/test split)
    training: object = None  # a probviz.stepping.TrainingSpec: the training run and step to show, or None
    errors: bool = False  # carry the true errors of the fits (known ones; see probviz.analysis)
    draft: bool = False  # the hand is moving: curved boundaries as traced on a coarse grid (scene.draft_boundaries),
    # iterative fits one Newton step from the last (Fit.draft); the frame after the hand rests is exact
    samples: tuple = (scenes.SAMPLES, scenes.SAMPLES_SEED)  # the Bayesian view's boundary cloud: (count, seed)
    weights: float = 0.0  # the weight space of a Bayesian logistic fit (probviz.weight_space): its plot's shape, h / w
    weight_probe: tuple | None = None  # (w1, w2): a point of weight space whose boundary the canvas draws
    loss: tuple | None = None  # a loss matrix over the classes (rows the truth): the decision it makes (eq. 1.81)


@dataclass
class Probe:
    """The probe point's readout: the label drawn beside it and the panel's lines."""

    x: tuple
    label: str
    lines: list


@dataclass
class Frame:
    """A complete picture of a request: its fits, the shown model's scene, the overlays' boundaries."""

    request: FrameRequest
    fits: list
    scene: scenes.Scene | None = None
    overlays: list = field(default_factory=list)  # per extra fit: its boundaries
    probe: Probe | None = None
    truth: scenes.TruthScene | None = None  # the true model's boundaries and ellipses
    training: object = None  # a probviz.stepping.TrainingView: the step shown and its run, or None
    section: scenes.Section | None = None  # the shown model (and the truth) along the section line
    errors: dict = field(default_factory=dict)  # "bayes" and each fit's spec -> its error under the truth
    errors_pending: bool = False  # some of them are still being computed
    density_bins: scenes.Density | None = None  # many points binned over the request's bounds (a drag updates them)
    weights: object = None  # a probviz.weight_space.WeightSpace, or a str: why there is none (request.weights)
    weight_line: list = field(default_factory=list)  # polylines: the boundary of request.weight_probe's weights
    # with a loss matrix or the reject option: the points its decision gets wrong (a rejected one is not), and
    # its accuracy, loss per point, rejected count and rejection cost over the training points
    decided_wrong: np.ndarray | None = None
    decided: dict = field(default_factory=dict)
    rbf_centers: np.ndarray | None = None  # (M, 2): the centres of the shown fit's radial basis functions

    @property
    def density(self) -> np.ndarray | None:
        """The points as a density image over the request's bounds (many points), or None."""
        return self.density_bins.image if self.density_bins is not None else None

    @property
    def wrong(self) -> np.ndarray | None:
        """The points drawn crossed: those the shown decision gets wrong (the loss matrix's, else the fit's)."""
        return self.decided_wrong if self.decided_wrong is not None else self.fit.wrong

    @property
    def fit(self) -> Fit:
        return self.fits[0] if self.fits else Fit(ModelSpec.make("lda"))

    @property
    def generation(self) -> int:
        return self.request.generation

    @property
    def revision(self) -> int:
        return self.request.revision

    def posteriors_at(self, x: float, y: float) -> list[tuple[str, float]]:
        """(class name, p(C_k|x)) at one point for the shown model: the hover readout."""
        fit = self.fit
        if fit.model is None:
            return []
        if not fit.model.probabilistic:
            return []
        if self.predictive:  # the heatmap's own number
            p = fit.model.laplace_.proba([[x, y]], "moderated")[0]
        else:
            p = fit.model.predict_proba([[x, y]])[0]
        return [(self.request.class_names[i], float(v)) for i, v in zip(fit.class_index, p)]

    @property
    def predictive(self) -> bool:
        """The heatmap shows the Bayesian view's predictive p(C_k|x, D) (Bishop eq. 4.155), not the plug-in."""
        return getattr(self.fit.model, "laplace_", None) is not None and "predictive" in self.request.layers

    def readout_at(self, x: float, y: float) -> str:
        """The hover readout's values at one point: p(C_k|x) for each class, or for a discriminant
        function its values y_k(x) and the class it assigns."""
        fit = self.fit
        if fit.model is None:
            return ""
        if fit.model.probabilistic:
            given = "x,D" if self.predictive else "x"
            values = self.posteriors_at(x, y)
            text = "  ".join(f"p({n}|{given}) = {v:.3f}" for n, v in values)
            if self.scene is not None and self.scene.miscalibration is not None:  # the map's own number
                p_true = self.request.truth.posterior([[x, y]])[0]
                p_hat = np.zeros_like(p_true)
                p_hat[fit.class_index] = [v for _, v in values]
                text += f"  ·  |fitted − true| = {np.max(np.abs(p_hat - p_true)):.3f}"
            return text
        return discriminant_readout(fit.model, list(self.request.class_names), (x, y))


def fit_all(request: FrameRequest, previous: "Frame | None" = None, moved=None, evaluate: bool = True) -> list:
    """One fit per spec; each may start from the previous frame's fit of the same spec. With held-out
    points the models see only the others, and are scored on both."""
    before = {f.spec: f for f in previous.fits} if previous is not None else {}
    first = previous.fits[0] if previous is not None and previous.fits else None
    if previous is not None and previous.request.held_out is not None and np.any(previous.request.held_out):
        moved = None  # the previous fits saw only some points: updating their statistics would lose the rest
    held = request.held_out
    if held is None or not np.any(held):
        return [fit_model(spec, request.X, request.labels, before.get(spec, first if i == 0 else None),
                          moved, evaluate, request.class_names, request.draft) for i, spec in enumerate(request.specs)]
    train = ~held
    fits = [fit_model(spec, request.X[train], request.labels[train], before.get(spec, first if i == 0 else None),
                      None, False, request.class_names, request.draft) for i, spec in enumerate(request.specs)]
    return [evaluate_request(f, request) for f in fits] if evaluate else fits


def held_out_mask(n: int, fraction: float, seed: int = 0) -> np.ndarray | None:
    """Which of n points a split holds out: exactly round(fraction * n) of them (halves rounded up),
    those whose u_i are the smallest, u the seeded uniform sequence. Point i's u_i is the i-th number
    of that sequence whatever n is, so adding a point changes the role of at most one earlier point
    (the count grows by one, or the new point takes a held-out place). None for no split."""
    if fraction <= 0 or n == 0:
        return None
    return _held_out_mask(int(n), float(fraction), int(seed))


@functools.lru_cache(maxsize=8)
def _held_out_mask(n: int, fraction: float, seed: int) -> np.ndarray:
    """The mask itself, remembered (read-only): every frame of a drag asks for it, and the sort is O(n log n)."""
    count = int(np.floor(fraction * n + 0.5 + 1e-9))  # the tolerance: 0.35 * 10 is 3.4999999999999996
    u = np.random.default_rng(seed).random(n)
    held = np.zeros(n, dtype=bool)
    held[np.argsort(u, kind="stable")[:count]] = True
    held.flags.writeable = False
    return held


def evaluate_request(fit: Fit, request: FrameRequest) -> Fit:
    """``fit`` with its summary on the training points, its held-out scores and the misclassified mask
    over every point (a held-out point of a class the model never saw counts as misclassified)."""
    if fit.model is None or fit.summary:
        return fit
    held = request.held_out
    if held is None or not np.any(held):
        return evaluate(fit, request.X, request.labels)
    X, labels = request.X, request.labels
    train = ~held
    summary, wrong_train = fit.model.evaluate(X[train], labels[train])
    wrong = np.zeros(len(X), bool)
    wrong[train] = wrong_train
    known = np.isin(labels, fit.model.classes_) & held
    scores = {"n": int(np.count_nonzero(held)), "accuracy": 0.0}
    if np.any(known):
        held_summary, wrong_held = fit.model.evaluate(X[known], labels[known])
        wrong[known] = wrong_held
        scores["accuracy"] = float(np.count_nonzero(~wrong_held)) / scores["n"]
        if "log_likelihood" in held_summary and np.count_nonzero(known) == scores["n"]:
            # the held-out points' own likelihood (a generative summary reads the training statistics)
            scores["log_likelihood"] = float(fit.model.log_likelihood(X[known], labels[known]))
            scores["log_likelihood_kind"] = held_summary["log_likelihood_kind"]
    wrong[held & ~known] = True
    return Fit(fit.spec, fit.model, fit.class_index, summary, wrong, fit.notices, fit.error, fit.incremental, scores)


_last_truth_scene: tuple = (None, None, None)  # (truth, bounds, scene): the truth rarely changes mid-drag


def _truth_scene(truth, bounds):
    """The truth's scene, reused while the truth (immutable: a new object when edited) and the view stay:
    a drag redraws every frame, and a mixture truth's boundaries cost a grid of densities."""
    global _last_truth_scene
    last_truth, last_bounds, scene = _last_truth_scene
    if last_truth is not truth or last_bounds != bounds:
        scene = scenes.truth_scene(truth, bounds)
        _last_truth_scene = (truth, bounds, scene)  # one tuple swap: safe between the GUI and worker threads
    return scene


def build_frame(request: FrameRequest, fits: list, previous: "Frame | None" = None, moved=None) -> Frame:
    """The frame of ``request`` showing ``fits`` (fitted by :func:`fit_all` or by a trainer). With ``moved``
    (indices, rows before) the only change to the points since ``previous``, the density image of many
    points is updated from ``previous``'s for the moved points alone."""
    frame = Frame(request, list(fits))
    if _dense(request):
        frame.density_bins = _density(request, previous, moved)
    truth = request.truth
    if truth is not None and truth.K != len(request.class_names):
        truth = None
    if truth is not None and "truth" in request.layers:
        frame.truth = _truth_scene(truth, tuple(request.bounds))
    if truth is not None and request.errors:
        frame.errors, frame.errors_pending = known_errors(truth, frame.fits)
    shown = frame.fit
    if shown.model is None:
        return frame
    loss = shown_loss(request, shown)
    if request.section is not None:
        theta = request.theta if "decision" in request.layers else 0.0
        frame.section = scenes.cross_section(shown.model, *request.section, theta=theta, truth=truth, loss=loss)
    colors = [request.colors[i] for i in shown.class_index]
    reject_cost = shown_reject_cost(request, shown)
    if (loss is not None or reject_cost is not None) and shown.wrong is not None and len(shown.wrong) == len(request.X):
        decided = _decide(shown, request, loss, reject_cost)
        right = decided == request.labels
        # crossed as decided (the fit keeps its own): a rejected point is not, it decides nothing
        frame.decided_wrong = (decided >= 0) & ~right
        train = ~request.held_out if request.held_out is not None else np.ones(len(decided), bool)
        if train.any():
            K = len(request.class_names)
            L = np.asarray(request.loss, dtype=float) if loss is not None else decision.zero_one_loss(K)
            frame.decided = {"accuracy": float(np.mean(right[train])),
                             "expected_loss": decision.expected_loss(decided[train], request.labels[train], L,
                                                                     reject_cost),
                             "rejected": int(np.count_nonzero(decided[train] < 0)), "reject_cost": reject_cost,
                             "loss": loss is not None}
    frame.scene = scenes.build_scene(shown.model, request.bounds, colors, request.shape, request.layers,
                                     request.background, request.reject, request.theta, draft=request.draft,
                                     samples=request.samples, loss=loss, truth=truth, class_index=shown.class_index)
    if getattr(shown.model, "centers_", None) is not None:  # an rbf fit: its centres are drawn (open diamonds)
        frame.rbf_centers = np.asarray(shown.model.centers_, float)
    if "boundaries" in request.layers:
        frame.overlays = [scenes.boundaries(f.model, request.bounds, draft=request.draft) if f.model is not None else []
                          for f in frame.fits[1:]]
    if request.weights or request.weight_probe is not None:
        _weight_space(frame, shown)
    if request.probe is not None:
        names = list(request.class_names)
        if frame.predictive:  # the heatmap's own number: p(C_k|x, D)
            p = shown.model.laplace_.proba([request.probe], "moderated")[0]
            k = int(np.argmax(p))
            label = f"p({names[shown.class_index[k]]}|x,D) = {p[k]:.3f}"
        elif shown.model.probabilistic:
            p = shown.model.predict_proba([request.probe])[0]
            k = int(np.argmax(p))
            label = f"p({names[shown.class_index[k]]}|x) = {p[k]:.3f}"
        else:
            k = int(shown.model.decide([request.probe])[0])
            label = f"→ {names[shown.class_index[k]]}" if k >= 0 else "undecided"
        lines = probe_lines(shown.model, names, request.probe)
        if loss is not None and shown.model.probabilistic:
            p = (shown.model.laplace_.proba([request.probe], "moderated")[0] if frame.predictive
                 else shown.model.predict_proba([request.probe])[0])
            lines.append(loss_line(p @ loss, [names[i] for i in shown.class_index],
                                   request.theta if "decision" in request.layers else 0.0))
        frame.probe = Probe(tuple(request.probe), label, lines)
    return frame


def _density(request: FrameRequest, previous: "Frame | None", moved) -> scenes.Density:
    """The density of the request's points: ``previous``'s moved (a drag: O(moved points)) when it was
    made over the same view in the same colours, else a pass over every point."""
    if moved is not None and _density_follows(request, previous):
        indices, before = moved
        return scenes.density_moved(previous.density_bins, before, request.X[indices], request.labels[indices])
    return scenes.density(request.X, request.labels, request.colors, request.bounds, scenes.DENSITY_SHAPE)


def _dense(request: FrameRequest) -> bool:
    """The points are drawn as a density image (too many for markers)."""
    return len(request.X) > scenes.DENSITY_THRESHOLD and "points" in request.layers


def _density_follows(request: FrameRequest, previous: "Frame | None") -> bool:
    """``previous``'s density image can follow moved points: made over the same view, of as many points, in the
    same colours."""
    bins = previous.density_bins if previous is not None else None
    return (bins is not None and bins.bounds == tuple(request.bounds) and bins.shape == scenes.DENSITY_SHAPE
            and len(request.X) == len(previous.request.X) and np.array_equal(bins.rgb, scenes.rgb_ints(request.colors)))


def shown_reject_cost(request: FrameRequest, fit: Fit) -> float | None:
    """The reject option's cost lambda = 1 - theta (Bishop 1.5.3, exercise 1.24) while the decision regions show
    it (theta > 0) for a model with p(C_k|x), else None."""
    if request.theta <= 0 or "decision" not in request.layers or fit.model is None:
        return None
    return 1.0 - request.theta if getattr(fit.model, "probabilistic", True) else None


def _decide(fit: Fit, request: FrameRequest, loss, reject_cost) -> np.ndarray:
    """The document class the decision gives each point: argmin_j sum_k L_kj p(C_k|x) (eq. 1.81; the 0-1 loss
    without ``loss``), -1 where the least expected loss exceeds ``reject_cost`` (rejected; a class the model has
    not seen is never chosen)."""
    P = fit.model.predict_proba(request.X)
    d = decision.loss_decide(P, decision.zero_one_loss(P.shape[1]) if loss is None else loss, reject_cost)
    return np.where(d >= 0, fit.class_index[np.maximum(d, 0)], -1)


def shown_loss(request: FrameRequest, fit: Fit):
    """The request's loss matrix over the fitted model's classes (its rows and columns of the classes with
    points), or None for the 0-1 loss (or a matrix not of the request's classes)."""
    if request.loss is None or fit.model is None or not getattr(fit.model, "probabilistic", True):
        return None
    L = np.asarray(request.loss, dtype=float)
    if L.shape != (len(request.class_names),) * 2:
        return None
    sub = L[np.ix_(fit.class_index, fit.class_index)]
    return None if np.array_equal(sub, 1.0 - np.eye(len(sub))) else sub


def loss_line(risks, names, theta: float = 0.0) -> str:
    """The probe's expected losses R_j = sum_k L_kj p(C_k|x) (Bishop eq. 1.81) and the choice they make."""
    j = int(np.argmin(risks))
    choice = (f"reject (the least exceeds λ = 1 − θ = {1 - theta:.3g})" if theta > 0 and risks[j] > 1 - theta
              else f"choose {names[j]}")
    return ("Expected loss (Bishop eq. 1.81): " + ", ".join(f"R({n}) = {r:.4g}" for n, r in zip(names, risks))
            + f": {choice}")


def _weight_space(frame: Frame, shown: Fit) -> None:
    """The frame's weight space (when asked for) and the boundary of its probe's weights, on the slice at
    w_MAP's bias (probviz.weight_space); a model without one gets the reason instead."""
    request = frame.request
    fitted = ~request.held_out if request.held_out is not None else slice(None)
    X, labels = request.X[fitted], request.labels[fitted]
    why = weight_space.unavailable(shown.model, len(X))
    if why and request.training is not None and request.training.shown and shown.spec.kwargs.get("bayes"):
        why = weight_space.TRAINING_SHOWN  # the step's weights are drawn, not the Bayesian fit's
    if why:
        frame.weights = why if request.weights else None
        return
    lap = shown.model.laplace_
    if request.weights and not request.draft:  # a grid of likelihoods over every point: not while the hand moves
        t = labels == shown.class_index[1]
        frame.weights = weight_space.weight_space(lap, X, t, request.samples, aspect=float(request.weights))
    if request.weight_probe is not None:
        W = weight_space.boundary_weights(lap, *request.weight_probe)
        drawn = type(shown.model).from_weights(W, (lap.center, lap.scale), shown.model.classes_,
                                               {"basis": "linear", "standardize": shown.model.standardize})
        frame.weight_line = [b.xy for b in scenes.boundaries(drawn, request.bounds)]


def compute(request: FrameRequest, previous: "Frame | None" = None, refit: bool = True, moved=None,
            evaluate: bool = True) -> Frame:
    """Fit (or, with ``refit`` False, reuse the previous frame's fits) and build the frame. A request
    with a training run carries the run's step (:mod:`probviz.stepping`), drawn instead of the first
    model's fit while the run is shown."""
    training = request.training
    if (not refit and previous is not None and [f.spec for f in previous.fits] == list(request.specs)
            and (training is None) == (previous.training is None) and (request.draft or not any(
                f.draft for f in previous.fits))):  # a draft's fits are finished once the hand rests
        fits, view = previous.fits, previous.training
    elif training is not None:
        fits, view = _training_fits(request, training, previous, moved, evaluate)
    else:
        fits, view = fit_all(request, previous, moved, evaluate), None
    frame = build_frame(request, fits, previous, moved)
    frame.training = view
    return frame


def _training_fits(request: FrameRequest, training, previous, moved, evaluate: bool):
    """The training run's step (trained on the points not held out) and the fits: the step first while
    it is shown, else the first model's own fit."""
    from probviz.stepping import training_fit

    held = request.held_out
    train = slice(None) if held is None or not np.any(held) else ~held
    spec = request.specs[0]
    model, view = training_fit(spec, training, request.X[train], request.labels[train], request.class_names)
    if not training.shown:
        view.highlight = None
        return fit_all(request, previous, moved, evaluate), view
    if model is None:
        first = Fit(spec, error=view.problem)
    else:
        first = Fit(spec, model, np.asarray(model.classes_, dtype=int))
        if evaluate:
            first = evaluate_request(first, request)
    others = fit_all(replace(request, specs=request.specs[1:]), None, None, evaluate) if len(request.specs) > 1 else []
    return [first] + others, view


def session_spec(session: Session, model: str | None = None, overrides: dict | None = None,
                 priors=None) -> ModelSpec:
    """The model a session means, with its saved parameters and priors; ``model``, ``overrides``
    (parameter values) and ``priors`` (one per class) replace the session's own."""
    name = model or session.model
    info(name)  # an unknown name fails here, with the list of models
    data = session.dataset
    if priors is not None and not REGISTRY[name].generative:
        raise ValueError(f"priors do not apply to {name}: it models p(C_k|x) directly")
    if priors is not None and len(priors) != len(data.class_names):
        raise ValueError(f"{len(priors)} priors given for {len(data.class_names)} classes "
                         f"({', '.join(data.class_names)})")
    params = {**session.params.get(name, {}), **(overrides or {})}
    return model_spec(name, params, priors if priors is not None else session.priors, data.labels)
