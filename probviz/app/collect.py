"""Python's cyclic garbage collector runs on the GUI thread only.

The refit worker, the Lab and the learning curves run Python on threads of their own, and the cyclic
collector runs on whichever thread happens to allocate. If it frees a closed dialog or window there, Qt
destroys a widget off the GUI thread: a crash or a hang long after the widget's use. pyqtgraph's
``GarbageCollector`` turns automatic collection off and collects on a GUI-thread timer instead; one
is started, once, before the first worker thread.
"""

from __future__ import annotations

_collector = None


def collect_on_gui_thread() -> None:
    """Start collecting cycles on a GUI-thread timer (idempotent; call from the GUI thread)."""
    global _collector
    if _collector is None:
        from pyqtgraph.util.garbage_collector import GarbageCollector

        _collector = GarbageCollector(interval=1.0)
