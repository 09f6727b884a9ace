"""One computation on a thread of its own, its answer delivered on the GUI thread: the window stays live
while a button's work (the evidence's alpha, the truth's integrals) takes seconds."""

from __future__ import annotations

from PySide6.QtCore import QThread, Signal, Slot
from PySide6.QtWidgets import QApplication

from probviz.app.collect import collect_on_gui_thread

_running: set = set()  # the jobs not finished yet: kept alive whatever closes meanwhile
_hooked = False  # the application waits for them on quitting


class Background(QThread):
    """Runs ``fn()`` once; ``done`` carries its result, or the ValueError or ArithmeticError it raised (bad
    or degenerate input said in words, never a traceback), on the GUI thread: the worker hands the answer
    to this object (which lives there) by a queued signal, and it is re-emitted from there, so that plain
    Python callables connected to ``done`` run on the GUI thread too.

    The job has no Qt parent: a window or dialog closed while it runs does not destroy a running thread
    (which would abort the program); it ends with its work, and the application waits for it on quitting.
    A slot of ``done`` must check that its widgets still exist."""

    done = Signal(object)
    _answered = Signal(object)  # emitted on the worker thread, received on the GUI thread

    def __init__(self, fn, parent=None):
        super().__init__()
        self.fn = fn
        collect_on_gui_thread()  # the cyclic collector stays off this thread
        self._answered.connect(self._deliver)
        self.finished.connect(self._forget)

    def start(self):
        global _hooked
        if not _hooked:
            QApplication.instance().aboutToQuit.connect(wait_all)
            _hooked = True
        _running.add(self)
        super().start()

    def run(self):
        try:
            out = self.fn()
        except (ValueError, ArithmeticError) as e:
            out = e
        self._answered.emit(out)

    @Slot(object)
    def _deliver(self, out):
        self.done.emit(out)

    @Slot()
    def _forget(self):
        _running.discard(self)


def wait_all(ms: int = 30_000) -> None:
    """Wait for the jobs still running (the application is quitting)."""
    for job in list(_running):
        job.wait(ms)
