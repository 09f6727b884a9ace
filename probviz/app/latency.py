"""Edit-to-frame latency: drag one point of the real canvas with synthetic mouse events and time
each move to the end of the repaint (offscreen). Used by `probviz bench`."""

from __future__ import annotations

import os
import time

import numpy as np


def measure(models, n: int = 1000, k: int = 3, moves: int = 40, size=(1000, 700)) -> dict:
    """Median and 95th percentile (ms) of mouse-move -> repainted canvas, per model."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from probviz.app.main_window import MainWindow
    from probviz.bench import blobs
    from probviz.data.dataset import Dataset

    app = QApplication.instance() or QApplication(["probviz-bench"])
    win = MainWindow()
    win.files.autosave_enabled = False
    win.resize(*size)
    win.show()
    X, y = blobs(n, k)
    win.load(Dataset(X, y, [str(i + 1) for i in range(k)]))
    app.processEvents()
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
