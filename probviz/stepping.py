"""The training step a frame shows (Bishop 4.1.7, 4.3.2-4.3.4). Pure: no Qt.

A snapshot says which run and which step to show (:class:`TrainingSpec`); :func:`training_fit` returns
that step as a pipeline fit and what the Training dock reads of it (:class:`TrainingView`). The trainer
of a run is kept between frames, so Step and Play cost one update each, on whichever thread builds the
frame (the window's worker for large data): the dock only says what to show.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from probviz.models.training import MAX_STEPS, START_LABELS, TRAINABLE, Trainer, TrainingSpec, separable_note

@dataclass
class TrainingView:
    """One step of a run, and the run so far: what the Training dock's readout and plot show."""

    model: str
    optimizer: str
    key: tuple  # the run's identity: a new key is a new run
    index: int = 0
    error: float = float("nan")
    wrong: int = 0
    norm: float = 0.0
    n: int = 0
    point: int = -1  # sgd: the point the step used (an index into the training points)
    point_class: int = -1  # its class, as an index into the request's classes
    contribution: np.ndarray | None = None
    row_classes: tuple = ()  # the trainer's classes (indices like point_class): of W's rows when it has one a class
    highlight: tuple | None = None  # that point's (x, y), ringed on the canvas
    steps: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    wrongs: list | None = None  # the perceptron: misclassified count per step
    optimum: float | None = None  # E at the direct fit's weights; None when there is none
    note: str = ""  # why the weights grow for ever, or why the perceptron never settles
    problem: str = ""  # why training could not go on (overflow) or start (one class)
    rose: bool = False  # E(w) rose on this step
    tied: int = 0  # the perceptron: training points on the boundary w^T phi = 0 (counted as misclassified)
    zero: bool = False  # every weight (the bias too) is 0


class _Run:
    def __init__(self, trainer: Trainer, optimum, note: str):
        self.trainer, self.optimum, self.note = trainer, optimum, note
        self.problem = ""
        self.lock = threading.Lock()


_runs: OrderedDict = OrderedDict()  # key -> _Run, the few most recent
_runs_lock = threading.Lock()
KEEP_RUNS = 4
STEP_BUDGET = 0.1  # seconds of steps a frame takes at most; the dock asks for the rest
STEP_CHUNK = 50


def _data_key(X, labels) -> str:
    h = hashlib.blake2b(digest_size=16)
    h.update(np.ascontiguousarray(X, dtype=float).tobytes())
    h.update(np.ascontiguousarray(labels, dtype=np.int64).tobytes())
    return h.hexdigest()


def training_alpha(spec) -> float | None:
    """The prior's precision alpha the steps of ``spec`` train with (toward w_MAP: logistic regression with the
    Bayesian view), or None (the model's own objective)."""
    return spec.kwargs.get("alpha") if spec.name == "logistic" and spec.kwargs.get("bayes") else None


def make_trainer(spec, training: TrainingSpec, X, labels, names=None) -> Trainer:
    """A trainer of model ``spec`` at the start ``training`` names (w = 0 or the Gaussian log-odds)."""
    params = {k: v for k, v in spec.kwargs.items() if k in ("l2", "basis", "standardize")}
    alpha = training_alpha(spec)
    if alpha is not None:  # toward w_MAP: the prior's alpha replaces l2
        params["alpha"] = alpha
    eta = None if training.optimizer == "newton" else training.eta
    trainer = Trainer(spec.name, X, labels, optimizer=training.optimizer, eta=eta, names=names, **params)
    if training.start == "generative":
        W0 = trainer.generative_start()
        if W0 is not None:
            trainer = Trainer(spec.name, X, labels, optimizer=training.optimizer, eta=eta, names=names, start=W0,
                              start_label=START_LABELS["generative"], **params)
    return trainer


def _run(key, spec, training, X, labels, names) -> _Run:
    with _runs_lock:
        run = _runs.get(key)
        if run is not None:
            _runs.move_to_end(key)
            return run
    trainer = make_trainer(spec, training, X, labels, names)
    optimum = trainer.optimum()[0]
    run = _Run(trainer, optimum, separable_note(trainer))
    with _runs_lock:
        run = _runs.setdefault(key, run)
        while len(_runs) > KEEP_RUNS:
            _runs.popitem(last=False)
    return run


def training_fit(spec, training: TrainingSpec, X, labels, names=None):
    """(the step's model or None, its :class:`TrainingView`) for model ``spec`` trained on X (N, 2),
    labels (N,) as ``training`` says. ``names[label]`` names the classes."""
    key = (_data_key(X, labels), spec, training.optimizer, training.eta, training.start, training.run)
    view = TrainingView(spec.name, training.optimizer, key, n=len(X))
    if spec.name not in TRAINABLE:
        view.problem = f"{spec.label} is fitted in one go; it is not trained step by step"
        return None, view
    try:
        # the class names are the run's too (the models it makes carry them), not the view's identity
        run = _run(key + (tuple(names) if names is not None else None,), spec, training, X, labels, names)
    except ValueError as e:
        view.problem = str(e)
        return None, view
    t = run.trainer
    with run.lock:
        want = min(int(training.steps), MAX_STEPS)
        deadline = time.perf_counter() + STEP_BUDGET
        while t.current.index < want and not run.problem and time.perf_counter() < deadline:
            try:  # in parts: a long replay (a session opened at step 50,000) never holds a frame for long
                t.step(min(want - t.current.index, STEP_CHUNK))
            except FloatingPointError as e:
                run.problem = str(e)
        history = list(t.history)
    s = history[min(want, len(history) - 1)]
    model = t.model(s)
    view.index, view.error, view.wrong, view.norm = s.index, s.error, s.wrong, s.norm
    view.point, view.contribution = s.point, s.contribution
    view.row_classes = tuple(int(c) for c in t.classes)
    if s.point >= 0:
        view.highlight = tuple(float(v) for v in t.X[s.point])
        view.point_class = int(t.classes[t.codes[s.point]])
    shown = history[:s.index + 1]
    view.steps = [h.index for h in shown]
    view.errors = [h.error for h in shown]
    view.wrongs = [h.wrong for h in shown] if t.name == "perceptron" else None
    view.optimum, view.note, view.problem = run.optimum, run.note, run.problem
    view.rose = s.index > 0 and t.optimizer != "sgd" and s.error > shown[-2].error * (1 + 1e-12)
    view.tied, view.zero = t.on_boundary(s.W), not np.any(s.W)
    return model, view
