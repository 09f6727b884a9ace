"""Edit-to-frame latency: drag one point of the real canvas with synthetic mouse events and time
each move to the end of the paint that shows its frame (offscreen). Used by `probviz bench`."""

from __future__ import annotations

import os
import time

import numpy as np


_SETTINGS: list = []  # the bench's own settings folder, made at its first window


def _first_start_settings() -> None:
    """The bench's windows keep their settings in a folder of their own, away from the user's (which a window
    saves to as it closes: its size, its panels), and each opens as at a first start (the default size and
    panel layout), whatever an earlier window left: a panel brought to the front, as the training lines
    do, would otherwise be in front for every measure after them."""
    import tempfile

    from PySide6.QtCore import QCoreApplication, QSettings

    if not _SETTINGS:
        _SETTINGS.append(tempfile.TemporaryDirectory(prefix="probviz-bench-"))
        QCoreApplication.setOrganizationName("probviz-bench")
        QCoreApplication.setApplicationName("probviz-bench")
        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, _SETTINGS[0].name)
    settings = QSettings()
    for key in ("geometry", "state"):
        settings.remove(key)


def _window(n: int, k: int, size):
    """The real main window, offscreen, showing n points of k classes (load time in ``load_ms``), its panels
    as at a first start."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from probviz.app.main_window import MainWindow
    from probviz.data.synthetic import blobs
    from probviz.data.dataset import Dataset

    app = QApplication.instance() or QApplication(["probviz-bench"])
    _first_start_settings()
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


class _Frames:
    """Times an action to the end of the canvas's first paint that shows a frame made after it, as the event
    loop runs it (the scene's dirty region, as a user's window paints it; not a forced repaint of the whole
    view, which would paint the axes too and leave the scene's own update to paint a second time)."""

    def __init__(self, app, win):
        from PySide6.QtCore import QEvent, QObject

        self.app, self.win, self.fresh, self.painted = app, win, False, 0
        frames = self

        class Filter(QObject):
            def eventFilter(self, obj, ev):  # noqa: N802
                if ev.type() != QEvent.Type.Paint:
                    return False
                win.canvas.viewportEvent(ev)  # painted here, to time its end
                if frames.fresh:
                    frames.fresh, frames.painted = False, frames.painted + 1
                return True

        self._filter = Filter()
        win.refitter.ready.connect(self._frame)
        win.canvas.viewport().installEventFilter(self._filter)

    def _frame(self, _frame) -> None:
        self.fresh = True

    def time(self, action, timeout: float = 5.0) -> float:
        """Seconds from the start of ``action()`` to the end of the paint that shows its frame."""
        before = self.painted
        t0 = time.perf_counter()
        action()
        while self.painted == before and time.perf_counter() - t0 < timeout:
            self.app.processEvents()
        return time.perf_counter() - t0

    def close(self) -> None:
        self.win.canvas.viewport().removeEventFilter(self._filter)
        self.win.refitter.ready.disconnect(self._frame)


def measure(models, n: int = 1000, k: int = 3, moves: int = 40, size=(1000, 700)) -> dict:
    """Median and 95th percentile (ms) of mouse-move -> the canvas painted with its frame, per model."""
    app, win, X, _ = _window(n, k, size)
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtTest import QTest

    vp = win.canvas.viewport()
    frames = _Frames(app, win)
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
            times.append(frames.time(lambda: QTest.mouseMove(vp, p)))
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
        times = 1000 * np.array(times[3:])  # the first moves start the drag
        out[name] = {"median_ms": float(np.median(times)), "p95_ms": float(np.percentile(times, 95))}
    frames.close()
    win.doc.mark_saved()
    win.close()
    return out


def measure_training(n: int = 1000, k: int = 2, steps: int = 40, size=(1000, 700)) -> dict:
    """Median and 95th percentile (ms) of one training step (the Step key) to the canvas painted with it,
    per model and optimizer: the trainer's update, E(w), the frame of that step and its painting, with the
    Training panel in front (as the Step key brings it) and its plot of E(w) drawn."""
    app, win, X, _ = _window(n, k, size)
    win.training_dock.show()
    win.training_dock.raise_()
    app.processEvents()
    frames = _Frames(app, win)
    out = {}
    for name, optimizers in (("logistic", ("gd", "sgd", "newton")), ("softmax", ("gd", "sgd", "newton")),
                             ("perceptron", ("gd", "sgd"))):
        win.doc.set_model(name)
        win.refitter.flush()
        app.processEvents()
        for optimizer in optimizers:
            t = win.training
            t.optimizer.setCurrentIndex(t.optimizer.findData(optimizer))
            t.reset()
            win.refitter.flush()
            times = [frames.time(t.step) for _ in range(steps + 3)]
            times = 1000 * np.array(times[3:])
            out[f"{name} {optimizer}"] = {"median_ms": float(np.median(times)), "p95_ms": float(np.percentile(times, 95))}
    frames.close()
    win.doc.mark_saved()
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
            win.canvas.viewport().repaint()
            first.append(time.perf_counter() - t)
            until_shown(win.doc.revision)
            switch.append(time.perf_counter() - t)
        t = time.perf_counter()
        win.doc.set_layer("ellipses", i % 2 == 1)
        win.canvas.viewport().repaint()
        toggle.append(time.perf_counter() - t)
        x0, x1, y0, y1 = win.canvas.view_bounds()
        dx = 0.02 * (x1 - x0) * (1 if i % 2 else -1)
        t = time.perf_counter()
        win.canvas.vb.setRange(xRange=(x0 + dx, x1 + dx), yRange=(y0, y1), padding=0)
        app.processEvents()
        win.canvas.viewport().repaint()
        pan.append(time.perf_counter() - t)  # the GUI thread's part; the new grid follows from the worker
    win.doc.mark_saved()
    win.close()
    med = lambda v: float(1000 * np.median(v))  # noqa: E731
    return {"n": n, "k": k, "show_ms": load_ms, "switch_model_ms": med(switch),
            "switch_first_frame_ms": med(first), "toggle_layer_ms": med(toggle),
            "pan_frame_ms": med(pan)}


def measure_real(models, n: int = 10_000, k: int = 3, moves: int = 60, size=(1000, 700)) -> dict:
    """Edit-to-frame in a real window: the X server delivers a drag made by xdotool (mouse down on a
    point, then a move every 16 ms), the app runs its own event loop under the window manager, and
    each move is timed from its arrival to the end of the first paint of the canvas that shows a
    frame fitted after it (the window's image then goes to the X server). Needs DISPLAY and xdotool;
    run in its own process (the platform is chosen at start)."""
    import subprocess
    import threading

    os.environ["QT_QPA_PLATFORM"] = "xcb"
    app, win, X, _ = _window(n, k, size)
    from PySide6.QtCore import QEvent, QEventLoop, QObject, QPointF, QTimer

    win.raise_()
    win.activateWindow()
    vp = win.canvas.viewport()
    out = {}
    for name in models:
        win.doc.set_model(name)
        win.refitter.flush()
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline and (win.result is None or win.result.fit.spec.name != name):
            app.processEvents()
        pending, latencies, shown = [], [], {"rev": -1}  # pending: [arrival, revision of its edit]

        class Timer(QObject):
            def eventFilter(self, obj, ev):  # noqa: N802
                if ev.type() == QEvent.Type.MouseMove:
                    pending.append([time.perf_counter(), None])
                elif ev.type() == QEvent.Type.Paint:  # painted here, to time its end (a timer would fire
                    win.canvas.viewportEvent(ev)  # after the next move's handling, a frame late)
                    painted()
                    return True
                return False

        def edited():  # the move's edit, made while it is handled
            for entry in pending:
                if entry[1] is None:
                    entry[1] = win.doc.revision

        def painted():
            now = time.perf_counter()
            while pending and pending[0][1] is not None and pending[0][1] <= shown["rev"]:
                latencies.append(now - pending.pop(0)[0])

        def frame(f):
            shown["rev"] = max(shown["rev"], f.request.revision)

        win.doc.points_moved.connect(edited)
        win.refitter.ready.connect(frame)
        timer = Timer()
        vp.installEventFilter(timer)
        i = int(np.argmin(np.hypot(*(X - X.mean(0)).T)))
        start = win.canvas.mapFromScene(win.canvas.vb.mapViewToScene(QPointF(*win.doc.X[i])))
        g = vp.mapToGlobal(start)
        done = threading.Event()

        def drag():  # one xdotool for the whole drag, as one mouse: a process started per move took the cores
            steps = ["mousemove", g.x(), g.y(), "sleep", 0.2, "mousedown", 1]
            for m in range(moves + 5):
                steps += ["sleep", 0.016, "mousemove", g.x() + 2 * (m % 25) + 4, g.y() + (m % 9)]
            subprocess.run(["xdotool", *map(str, steps), "mouseup", "1"], check=False)
            time.sleep(0.3)
            done.set()

        threading.Thread(target=drag, daemon=True).start()
        loop, poll = QEventLoop(), QTimer()
        poll.timeout.connect(lambda: done.is_set() and loop.quit())
        poll.start(50)
        loop.exec()
        poll.stop()
        vp.removeEventFilter(timer)
        win.refitter.ready.disconnect(frame)
        win.doc.points_moved.disconnect(edited)
        ms = 1000 * np.array(latencies[5:])  # the first moves start the drag
        out[name] = ({"median_ms": float(np.median(ms)), "p95_ms": float(np.percentile(ms, 95)),
                      "frames": int(len(ms))} if len(ms) else {"error": "no frames measured"})
        win.doc.mark_saved()
    win.close()
    return out


if __name__ == "__main__":  # python -m probviz.app.latency --real N: JSON on stdout (for `probviz bench`)
    import json
    import sys

    from probviz.allocator import keep_freed_blocks
    from probviz.models import PROBABILISTIC_NAMES as MODEL_NAMES  # the targets are for these

    keep_freed_blocks()  # as the window does (probviz.cli.main)

    n = int(sys.argv[sys.argv.index("--real") + 1]) if "--real" in sys.argv else 10_000
    print(json.dumps(measure_real(MODEL_NAMES, n=n)))


def measure_stalls(n: int = 200_000, k: int = 3, size=(1000, 700)) -> dict:
    """The longest time (ms) the GUI thread did not answer, per action, from the action until its frame
    is on screen with its summary: a 2 ms heartbeat timer runs on the GUI thread, and the longest gap
    between its beats (or from the action to the first beat) is the stall a person feels."""
    app, win, X, _ = _window(n, k, size)
    from PySide6.QtCore import QTimer
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    beats: list[float] = []
    heart = QTimer()
    heart.setInterval(2)
    heart.timeout.connect(lambda: beats.append(time.perf_counter()))
    heart.start()

    def shown():
        r = win.result
        return (r is not None and r.revision >= win.doc.revision and not win.busy_label.text()
                and (r.fit.model is None or bool(r.fit.summary)))

    def stall(action) -> float:
        while not shown():
            app.processEvents()
        beats.clear()
        t0 = time.perf_counter()
        action()
        win.refitter.flush()
        deadline = time.perf_counter() + 60
        while not shown() and time.perf_counter() < deadline:
            app.processEvents()
            time.sleep(0.0005)
        for _ in range(3):  # the frame's own painting
            app.processEvents()
        times = [t0] + beats + [time.perf_counter()]
        return 1000 * float(np.max(np.diff(times)))

    i = int(np.argmin(np.hypot(*(X - X.mean(0)).T)))
    out = {}
    for name in ("lda", "qda", "logistic", "softmax"):
        win.doc.set_model(name)
        row = {"model switch": stall(lambda: win.doc.set_model(name))}
        row["add a point"] = stall(lambda: win.doc.add_points([X.mean(0)], 0))
        row["move a point"] = stall(lambda: win.doc.move_points([i], [win.doc.X[i] + 0.01]))
        if name in ("logistic", "softmax"):
            l2 = win.doc.params[name]["l2"]
            row["change l2"] = stall(lambda: win.doc.set_param("l2", l2 * 1.5))
            button = win.training.step_button
            row["training step (Step button)"] = stall(
                lambda: QTest.mouseClick(button, Qt.MouseButton.LeftButton))
            win.training.active.setChecked(False)
        else:
            row["change shrinkage"] = stall(lambda: win.doc.set_param("reg_covar", 0.1))
        out[name] = row
    heart.stop()
    win.doc.mark_saved()
    win.close()
    return {"n": n, "k": k, "stalls": out}
