"""The refitter's two-step answer for large data (the fit first, its summary after) keeps every part of
the frame: the truth's scene, the training step, the probe."""

import numpy as np
import pytest

from probviz.app.refit import Job, complete, run
from probviz.data import examples
from probviz.snapshot import from_session, frame_request
from probviz.stepping import TrainingSpec
from dataclasses import replace


def test_the_summary_pass_keeps_the_truth_and_the_probe():
    snap = from_session(examples.session("fruit"))
    snap = replace(snap, layers=frozenset({"heatmap", "truth", "points"}))
    job = Job(frame_request(snap, (-1, 3, -1, 4), (32, 32)))
    partial = run(job, evaluate=False)
    assert partial.truth is not None and partial.probe is not None and not partial.fit.summary
    done = complete(job, partial)
    assert done.fit.summary["accuracy"] > 0.8
    assert done.truth is partial.truth and done.probe is partial.probe


def test_the_summary_pass_keeps_the_training_step():
    snap = replace(from_session(examples.session("fruit")), model="logistic")
    request = replace(frame_request(snap, (-1, 3, -1, 4), (32, 32)),
                      training=TrainingSpec("gd", 0.01, "zero", steps=3, shown=True))
    job = Job(request)
    partial = run(job, evaluate=False)
    assert partial.training is not None and partial.training.index == 3
    done = complete(job, partial)
    assert done.training is partial.training and done.fit.summary


@pytest.mark.parametrize("n", [30_000, 60_000])  # drawn as points (the new view fitted on the GUI thread), or
def test_a_new_view_while_a_new_file_is_still_being_fitted_fits_the_new_file(  # as a density image (on the worker)
        qtbot, window, monkeypatch, tmp_path, n):
    """The command line's way in: the fruit example is on screen, a file of many points is opened (fitted on
    the worker) and the view is fitted to it (F) before that fit is done. The frame of the new view must not
    take the fruit's fits for the new points (it did: the status line kept the fruit's two-class fit and
    its accuracy, and the first drag then failed on labels the model had never seen)."""
    import threading

    import probviz.app.refit as refit
    from guihelp import settle
    from PySide6.QtCore import Qt

    from probviz.data import examples
    from probviz.models import create

    win = window
    win.load_session(examples.session("fruit"))
    settle(win)
    assert len(win.result.fit.model.classes_) == 2
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 3, n)
    X = rng.normal(size=(n, 2)) + np.array([[-2.0, 0.0], [2.0, 0.0], [0.0, 3.0]])[labels]
    path = tmp_path / "three.csv"
    path.write_text("x,y,label\n" + "".join(f"{x:.17g},{y:.17g},{'abc'[k]}\n" for (x, y), k in zip(X, labels)))
    gate = threading.Event()
    real = refit.run

    def held(job, evaluate=True):  # the worker's fit of the new file takes its time
        if threading.current_thread() is not threading.main_thread():
            gate.wait(10)
        return real(job, evaluate)
    monkeypatch.setattr(refit, "run", held)
    shown = []
    win.refitter.ready.connect(shown.append)
    win.open_path(str(path))
    qtbot.waitUntil(lambda: len(win.doc.X) == n, timeout=20_000)
    win.refitter.flush()
    qtbot.keyClick(win.canvas, Qt.Key.Key_F)  # Fit view to data: a new view while the worker fits
    settle(win)
    gate.set()
    qtbot.waitUntil(lambda: win.busy_label.text() == "" and win.result.revision == win.doc.revision
                    and bool(win.result.fit.summary), timeout=20_000)
    fit = win.result.fit
    assert list(fit.model.classes_) == [0, 1, 2]
    stale = [f for f in shown if len(f.request.X) == n and f.fit.model is not None and len(f.fit.model.classes_) != 3]
    assert not stale, "a frame of the new points drew the fruit's fit"
    accuracy = np.mean(create("lda").fit(win.doc.X, win.doc.labels).predict(win.doc.X) == win.doc.labels)
    assert f"accuracy {100 * accuracy:.1f}%" in win.message.text()
