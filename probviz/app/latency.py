"""Edit-to-frame latency: drag one point of the real canvas with synthetic mouse events and time
each move to the end of the repaint (offscreen). Used by `probviz bench`."""

from __future__ import annotations

import os
import time

import numpy as np


def _window(n: int, k: int, size):
    """The real main window, offscreen, showing n points of k classes (load time in ``load_ms``)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from probviz.app.main_window import MainWindow
    from probviz.data.synthetic import blobs
    from probviz.data.dataset import Dataset

    app = QApplication.instance() or QApplication(["probviz-bench"])
    win = MainWindow()
    win.files.autosave_enabled = False
    win.resize(*size)
    win.show()
    X, y = blobs(n, k)
    t0 = time.perf_counter()
    win.load(Dataset(X, y, [str(i + 1) for i in range(k)]))
    app.processEvents()
    win.load_ms = 1000 * (time.perf_counter() - t0)
    return app, win, X, y


def measure(models, n: int = 1000, k: int = 3, moves: int = 40, size=(1000, 700)) -> dict:
    """Median and 95th percentile (ms) of mouse-move -> repainted canvas, per model."""
    app, win, X, _ = _window(n, k, size)
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtTest import QTest

    vp = win.canvas.viewport()
    out = {}
    for name in models:
        win.doc.set_model(name)
        win.refitter.flush()
        app.processEvents()
        i = int(np.argmin(np.hypot(*(X - X.mean(0)).T)))  # a point near the middle
        start = win.canvas.mapFromScene(win.canvas.vb.mapViewToScene(QPointF(*win.doc.X[i])))
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
        times = []
        for m in range(moves + 3):
            QTest.qWait(12)  # pyqtgraph drops moves closer than 10 ms; not part of the latency
            p = QPoint(start.x() + 2 * (m % 20) + 6, start.y() + (m % 7))
            t0 = time.perf_counter()
            QTest.mouseMove(vp, p)
            win.refitter.flush()
            win.canvas.repaint()
            times.append(time.perf_counter() - t0)
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
        times = 1000 * np.array(times[3:])  # the first moves start the drag
        out[name] = {"median_ms": float(np.median(times)), "p95_ms": float(np.percentile(times, 95))}
    win.doc.undo_stack.setClean()
    win.close()
    return out


def measure_scale(n: int = 1_000_000, k: int = 5, repeat: int = 5, size=(1000, 700)) -> dict:
    """At N points: GUI-thread frame times (ms, medians) for toggling a layer and panning, and the
    wall time from choosing a generative model to its fit on screen (the fit runs on a worker)."""
    app, win, _, _ = _window(n, k, size)
    load_ms = win.load_ms

    def until_shown(revision, complete=True):
        while (win.result is None or win.result.revision < revision or win.result.fit.model is None
               or (complete and (win.busy_label.text() or not win.result.fit.summary))):
            app.processEvents()
            time.sleep(0.001)

    until_shown(win.doc.revision)
    switch, first, toggle, pan = [], [], [], []
    for i in range(repeat):
        for name in ("qda", "nb", "lda"):
            t = time.perf_counter()
            win.doc.set_model(name)
            win.refitter.flush()
            until_shown(win.doc.revision, complete=False)
            win.canvas.repaint()
            first.append(time.perf_counter() - t)
            until_shown(win.doc.revision)
            switch.append(time.perf_counter() - t)
        t = time.perf_counter()
        win.doc.set_layer("ellipses", i % 2 == 1)
        win.canvas.repaint()
        toggle.append(time.perf_counter() - t)
        x0, x1, y0, y1 = win.canvas.view_bounds()
        dx = 0.02 * (x1 - x0) * (1 if i % 2 else -1)
        t = time.perf_counter()
        win.canvas.vb.setRange(xRange=(x0 + dx, x1 + dx), yRange=(y0, y1), padding=0)
        app.processEvents()
        win.canvas.repaint()
        pan.append(time.perf_counter() - t)  # the GUI thread's part; the new grid follows from the worker
    win.doc.undo_stack.setClean()
    win.close()
    med = lambda v: float(1000 * np.median(v))  # noqa: E731
    return {"n": n, "k": k, "show_ms": load_ms, "switch_model_ms": med(switch),
            "switch_first_frame_ms": med(first), "toggle_layer_ms": med(toggle),
            "pan_frame_ms": med(pan)}
