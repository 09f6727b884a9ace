"""Refit on every change, without ever freezing the window.

Changes are coalesced (a zero-delay timer: many edits in one event-loop turn give one frame).
The frame itself comes from the pure pipeline. Small data sets are fitted right there on the
GUI thread, which takes a few milliseconds; large ones go to a worker thread. The worker always
takes the newest request (under a lock: the GUI thread may hand in a newer one at any time),
results of superseded requests are dropped, and the last state always gets drawn.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from probviz import pipeline, scene
from probviz.app.collect import collect_on_gui_thread
from probviz.analysis import compute_errors
from probviz.pipeline import Frame, FrameRequest
from probviz.snapshot import frame_request

#: Above this many points fits run on the worker thread.
THREAD_THRESHOLD = 20_000
#: Above this many points a drag's frames leave their summary (accuracy, the misclassified marks, the likelihood:
#: a pass over every point, 1.6 ms at 10,000) for the hand at rest; below it the summary costs under a millisecond.
DRAFT_SUMMARY_MAX = 5_000


@dataclass(frozen=True)
class Job:
    """A request and how to answer it: refit or reuse ``previous``'s fits."""

    request: FrameRequest
    refit: bool = True
    previous: Frame | None = None
    moved: tuple | None = None  # (indices, rows before) moved since previous.revision


class FrameSource:
    """What the next frame is asked for: the document's snapshot seen through the canvas (its view's
    bounds, its style's colours), with the true errors while ``errors()`` says the Lab shows them and the
    weight space while ``weights()`` says the Weights panel does. The
    refitter calls it; the window only hands it over."""

    GRID = (256, 256)
    #: the grid while a hand drags points (a draft frame): 0.39 of the nodes, about 2 ms less a frame at 10,000
    #: points; the heatmap is the exact posterior at its nodes, only fewer of them, and the frame once the hand
    #: rests (or lets go), as every export, has the full grid
    DRAFT_GRID = (160, 160)

    def __init__(self, doc, canvas, errors=lambda: False, weights=lambda: False):
        self.doc, self.canvas, self.errors, self.weights = doc, canvas, errors, weights

    def __call__(self, generation: int, refit: bool, previous: Frame | None) -> Job:
        doc, style = self.doc, self.canvas.style
        draft = self.canvas.drafting
        request = frame_request(doc.snapshot(), self.canvas.view_bounds(), self.DRAFT_GRID if draft else self.GRID,
                                style.background, style.reject, generation=generation, revision=doc.revision,
                                errors=self.errors(), draft=draft, weights=self.weights())
        moved = (doc.moves_since(previous.revision) if previous is not None and refit and request.held_out is None
                 else None)
        return Job(request, refit, previous, moved)


def run(job: Job, evaluate: bool = True) -> Frame:
    return pipeline.compute(job.request, job.previous, job.refit, job.moved, evaluate)


def complete(job: Job, frame: Frame) -> Frame:
    """``frame`` with the training summaries (a pass over every point) filled in."""
    if all(f.summary or f.model is None for f in frame.fits):
        return frame
    fits = [pipeline.evaluate_request(f, job.request) for f in frame.fits]
    return replace(frame, fits=fits)


class _Worker(QObject):
    """Fits on its own thread, one newest job after another without waiting for the GUI thread in between
    (a drag's next move is often waiting when a frame is done). A large fit is shown in two steps: the model
    and its scene first, then, unless newer edits are waiting or the hand is still moving (a draft frame),
    the summary that needs a pass over every point. With no job waiting it computes the true errors a frame
    is waiting for (seconds for a mixture truth), giving way to any newer fit; then it says it is idle."""

    partial = Signal(object)  # a frame to show (the model and its scene; its summary may follow)
    done = Signal()  # no job is waiting: the worker is idle
    errors_known = Signal()

    def __init__(self):
        super().__init__()
        self._lock = threading.Lock()
        self._pending: Job | None = None
        self._errors: tuple | None = None  # (truth, fits) whose true errors a frame waits for
        self.stopping = False

    def put(self, job: Job | None) -> None:
        """The newest job, replacing any not yet taken (None: drop it)."""
        with self._lock:
            self._pending = job

    def put_errors(self, truth, fits) -> None:
        with self._lock:
            self._errors = (truth, fits)

    def _take(self) -> Job | None:
        with self._lock:
            job, self._pending = self._pending, None
            return job

    def has_pending(self) -> bool:
        with self._lock:
            return self._pending is not None

    def has_work(self) -> bool:
        with self._lock:
            return self._pending is not None or self._errors is not None

    @Slot()
    def run(self):
        while not self.stopping and (job := self._take()) is not None:
            frame = run(job, evaluate=False)
            if not self.has_pending() and frame.fit.ok and not frame.fit.summary:
                self.partial.emit(frame)
                # while the hand moves (a draft) its next move comes first: the summary waits until it rests
                frame = None if self.has_pending() or job.request.draft else complete(job, frame)
            if frame is not None:
                self.partial.emit(frame)
        with self._lock:
            task, self._errors = self._errors, None
        if task is not None and not self.stopping:
            compute_errors(*task, cancelled=lambda: self.stopping or self.has_pending())
            self.errors_known.emit()
        self.done.emit()


class Refitter(QObject):
    """Turns document changes into Frames, emitted by ``ready``."""

    ready = Signal(object)
    busy = Signal(bool)
    _kick = Signal()

    def __init__(self, make_job, parent=None):
        super().__init__(parent)
        collect_on_gui_thread()  # before the first worker thread
        self._make_job = make_job  # (generation, refit, previous frame) -> Job
        self.generation = 0
        self.shown = -1
        self.last: Frame | None = None
        self._want_refit = True
        self._refit_generation = 0  # the generation of the newest frame that fits the points anew
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._run)
        self._thread: QThread | None = None
        self._worker: _Worker | None = None
        self._in_flight = False
        self._closed = False

    def schedule(self, refit: bool = True) -> None:
        if self._closed:  # a late signal of a closed window (its resting timer, a panel): no new thread
            return
        self._want_refit = self._want_refit or refit
        self._timer.start()

    @Slot()
    def refit(self) -> None:
        """The points, classes, model or a setting of the fit changed: a new fit."""
        self.schedule(refit=True)

    @Slot()
    def redraw(self) -> None:
        """The probe, theta, layers, view or style changed: a new frame of the same fits."""
        self.schedule(refit=False)

    def flush(self) -> None:
        """Run a scheduled job now (a drag's edit, before the paint that shows it; tests; the benchmark)."""
        if self._timer.isActive():
            self._timer.stop()
            self._run()

    def _run(self):
        self.generation += 1
        # a new view reuses the fits on screen only if they are of the document as it is: while a refit asked
        # for earlier is still on the worker (a file just opened), the frame on screen has the old data's fits
        refit = self._want_refit or self._refit_generation > self.shown
        if refit:
            self._refit_generation = self.generation
        job = self._make_job(self.generation, refit, self.last)
        self._want_refit = False
        request = job.request
        dense = len(request.X) > scene.DENSITY_THRESHOLD and "points" in request.layers  # an image of every point
        previous = job.previous
        summarised = previous is not None and (request.draft or all(f.summary or f.model is None for f in previous.fits))
        if len(request.X) <= THREAD_THRESHOLD or not job.refit and summarised and not dense:
            # a new view of the same summarised fits needs no pass over the points; the hand at rest after a
            # drag through many does (their summary waited for it): the worker makes it
            if job.refit and request.draft and len(request.X) > DRAFT_SUMMARY_MAX:
                self._deliver(run(job, evaluate=False))  # the hand moves: its summary comes when it rests
            else:
                self._deliver(complete(job, run(job)))
            return
        if job.refit and request.draft and pipeline.follows_moves(request, previous, job.moved):
            # a drag through many points, each move O(moved points): drawn right here, in the move's own event,
            # without its summary (it waits for the hand to rest, as the worker's would). Handed to the worker it
            # would wait for a turn of the GIL between the GUI thread's many short calls: 3x the latency
            if self._worker is not None:
                self._worker.put(None)  # a job it has not taken yet is older than this frame: not made at all
            self._deliver(run(job, evaluate=False))
            return
        self._ensure_thread()
        self._worker.put(job)
        self.busy.emit(True)
        self._start_worker()

    def _start_worker(self):
        if not self._in_flight:
            self._in_flight = True
            self._kick.emit()

    def _ensure_thread(self):
        if self._thread is None:
            self._thread = QThread(self)
            self._worker = _Worker()
            self._worker.moveToThread(self._thread)
            self._kick.connect(self._worker.run)
            self._worker.partial.connect(self._deliver)
            self._worker.done.connect(self._on_worker_done)
            self._worker.errors_known.connect(self._on_errors_known)  # a slot: run on this (the GUI) thread
            self._thread.start()

    @Slot()
    def _on_errors_known(self):
        if self.last is not None and not self.last.errors_pending:
            return  # the frame on screen has them all already (an earlier task's answer came first)
        self.schedule(refit=False)  # the frame again, now with its true errors

    @Slot()
    def _on_worker_done(self):
        if self._worker.has_work():  # newer edits (or errors to compute) arrived as it went idle
            self._kick.emit()
        else:
            self._in_flight = False
            self.busy.emit(False)

    def _deliver(self, frame: Frame):
        if self._closed:  # a frame the worker finished as the window closed
            return
        if frame.generation < self.shown:
            # superseded by a frame already on screen; but if that one is a new view of these very
            # fits (a pan while the worker summarised them), it gets their summaries
            last = self.last
            if (last is None or last.fit.summary or not frame.fit.summary or len(last.fits) != len(frame.fits)
                    or any(a.model is not b.model for a, b in zip(last.fits, frame.fits))):
                return
            frame = replace(last, fits=frame.fits)
        self.shown = frame.generation
        self.last = frame
        self.ready.emit(frame)
        if frame.errors_pending:  # the worker computes them; the frame is then drawn again with them
            self._ensure_thread()
            self._worker.put_errors(frame.request.truth, frame.fits)
            self._start_worker()

    def shutdown(self):
        """The window closes: the worker ends, and nothing after this starts another."""
        self._closed = True
        self._timer.stop()
        if self._thread is not None:
            self._worker.stopping = True
            self._thread.quit()
            self._thread.wait(5000)
            self._thread = None


class Paced(QObject):
    """Hands frames to a view of numbers (``show``) at most one every ``interval_ms`` while they are drafts,
    that is while a hand moves a point: digits that change at every mouse move cannot be read, and each
    change lays the side panel out again (about 5 ms a frame). The newest draft always arrives, at most
    ``interval_ms`` late; any other frame (the hand at rest, let go, every other edit) arrives at once."""

    def __init__(self, show, interval_ms: int = 100, parent=None):
        super().__init__(parent)
        self._show = show
        self._held = None
        self._timer = QTimer(self, singleShot=True, interval=interval_ms)
        self._timer.timeout.connect(self._release)

    def __call__(self, frame) -> None:
        if frame is not None and frame.request.draft:
            self._held = frame
            if not self._timer.isActive():  # the first of a run of drafts is shown now, the rest paced
                self._release()
            return
        self._timer.stop()
        self._held = None
        self._show(frame)

    @Slot()
    def _release(self) -> None:
        frame, self._held = self._held, None
        if frame is not None:
            self._show(frame)
            self._timer.start()
