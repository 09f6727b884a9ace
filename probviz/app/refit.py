"""Refit on every change, without ever freezing the window.

Changes are coalesced (a zero-delay timer: many edits in one event-loop turn
give one fit). Small data sets are fitted right there on the GUI thread, which
takes a few milliseconds; large ones go to a worker thread. The worker always
takes the newest job, results of superseded jobs are dropped, and the last
state always gets drawn.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np
from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from probviz import scene as scenes
from probviz.models import REGISTRY, create

#: Above this many points fits run on the worker thread.
THREAD_THRESHOLD = 20_000


@dataclass(frozen=True)
class Job:
    """A snapshot of everything a fit and its scene need."""

    generation: int
    X: np.ndarray
    labels: np.ndarray
    model_name: str
    params: dict
    colors: tuple
    bounds: tuple
    shape: tuple = (256, 256)
    refit: bool = True
    previous: "FitResult | None" = None  # warm start; reused whole when refit is False
    revision: int = 0  # the document revision this snapshot shows
    moved: tuple | None = None  # (indices, rows before) moved since previous.revision


@dataclass
class FitResult:
    generation: int
    model: object = None
    scene: scenes.Scene | None = None
    class_index: np.ndarray = field(default_factory=lambda: np.empty(0, int))
    summary: dict = field(default_factory=dict)
    notices: list = field(default_factory=list)
    error: str = ""
    params: dict = field(default_factory=dict)
    wrong: np.ndarray | None = None  # misclassified training points (the job's X)
    revision: int = 0
    incremental: bool = False  # fitted from the previous fit's statistics
    fit_ms: float = 0.0
    scene_ms: float = 0.0


def make_job(doc, generation: int, bounds, shape, refit: bool = True, previous=None) -> Job:
    """Snapshot a Document into a Job; hand-set priors go to the classes present, in order."""
    params = dict(doc.params[doc.model_name])
    if REGISTRY[doc.model_name].generative and doc.priors is not None and len(doc.labels):
        present = np.unique(doc.labels)
        params["priors"] = [doc.effective_priors()[i] for i in present]
    moved = doc.moves_since(previous.revision) if previous is not None and refit else None
    return Job(generation, doc.X.copy(), doc.labels.copy(), doc.model_name, params,
               tuple(c.color for c in doc.classes), tuple(bounds), tuple(shape), refit, previous,
               doc.revision, moved)


def _incremental(job: Job, prev):
    """A Gaussian model from the previous Gaussian fit's statistics (any of the three, any
    parameters: the statistics are the same), updated for the points moved since; or None."""
    if (job.moved is None or prev is None or not getattr(prev, "generative", False)
            or not REGISTRY[job.model_name].generative):
        return None
    indices, old = job.moved
    codes = np.searchsorted(prev.classes_, job.labels[indices])
    return create(job.model_name, **job.params).fit_moved(prev, codes, old, job.X[indices])


def compute(job: Job, evaluate: bool = True) -> FitResult:
    """Fit (or reuse) the model and build its scene. Pure: numpy and the core only.

    ``evaluate=False`` leaves out the training summary and the misclassified mask (a pass over
    every point); :func:`evaluate` adds them later.
    """
    res = FitResult(job.generation, revision=job.revision)
    res.params = job.params
    if len(job.X) == 0:
        return res
    t0 = time.perf_counter()
    prev = job.previous.model if job.previous is not None else None
    if job.refit or prev is None:
        try:
            model = _incremental(job, prev)
            res.incremental = model is not None
            if model is None:
                model = create(job.model_name, **job.params).fit(job.X, job.labels, init=prev)
        except ValueError as e:
            res.error = str(e)
            return res
        if evaluate:
            res.summary, res.wrong = model.evaluate(job.X, job.labels)
    else:  # the view moved: same fit, new scene
        model = prev
        res.summary, res.wrong = job.previous.summary, job.previous.wrong
    t1 = time.perf_counter()
    res.model = model
    res.class_index = np.asarray(model.classes_, dtype=int)
    colors = [job.colors[i] for i in res.class_index]
    res.scene = scenes.build_scene(model, job.bounds, colors, shape=job.shape)
    res.notices = list(model.notices_)
    res.fit_ms, res.scene_ms = 1000 * (t1 - t0), 1000 * (time.perf_counter() - t1)
    return res


def evaluate(job: Job, res: FitResult) -> FitResult:
    """``res`` with its training summary and misclassified mask filled in."""
    if res.model is None or res.summary:
        return res
    full = replace(res)
    full.summary, full.wrong = res.model.evaluate(job.X, job.labels)
    return full


class _Worker(QObject):
    """Fits on its own thread. A large fit is shown in two steps: the model and its scene first,
    then, unless newer edits are waiting, the summary that needs a pass over every point."""

    partial = Signal(object)
    done = Signal(object)

    def __init__(self):
        super().__init__()
        self.pending: Job | None = None

    @Slot()
    def run(self):
        job, self.pending = self.pending, None
        if job is None:
            return
        res = compute(job, evaluate=False)
        if self.pending is None and res.model is not None and not res.summary:
            self.partial.emit(res)
            if self.pending is None:
                res = evaluate(job, res)
        self.done.emit(res)


class Refitter(QObject):
    """Turns document changes into FitResults, emitted by ``ready``."""

    ready = Signal(object)
    busy = Signal(bool)
    _kick = Signal()

    def __init__(self, make_job, parent=None):
        super().__init__(parent)
        self._make_job = make_job  # (generation, refit, previous) -> Job
        self.generation = 0
        self.shown = -1
        self.last: FitResult | None = None
        self._want_refit = True
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._run)
        self._thread: QThread | None = None
        self._worker: _Worker | None = None
        self._in_flight = False

    def schedule(self, refit: bool = True) -> None:
        self._want_refit = self._want_refit or refit
        self._timer.start()

    def flush(self) -> None:
        """Run a scheduled job now (tests and export call this)."""
        if self._timer.isActive():
            self._timer.stop()
            self._run()

    def _run(self):
        self.generation += 1
        job = self._make_job(self.generation, self._want_refit, self.last)
        self._want_refit = False
        if len(job.X) <= THREAD_THRESHOLD:
            self._deliver(compute(job))
            return
        self._ensure_thread()
        self._worker.pending = job
        if not self._in_flight:
            self._in_flight = True
            self.busy.emit(True)
            self._kick.emit()

    def _ensure_thread(self):
        if self._thread is None:
            self._thread = QThread(self)
            self._worker = _Worker()
            self._worker.moveToThread(self._thread)
            self._kick.connect(self._worker.run)
            self._worker.partial.connect(self._deliver)
            self._worker.done.connect(self._on_worker_done)
            self._thread.start()

    @Slot(object)
    def _on_worker_done(self, result: FitResult):
        self._deliver(result)
        if self._worker.pending is not None:  # newer edits arrived meanwhile: fit the newest
            self._kick.emit()
        else:
            self._in_flight = False
            self.busy.emit(False)

    def _deliver(self, result: FitResult):
        if result.generation < self.shown:
            return  # superseded by a result already on screen
        self.shown = result.generation
        self.last = result
        self.ready.emit(result)

    def shutdown(self):
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait(5000)
            self._thread = None
