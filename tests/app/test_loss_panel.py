"""The loss matrix, typed as a lecturer types it: a 5:1 loss on missing a peach moves the fruit's boundary to
where p(peach|x) = 1/6 (Bishop eq. 1.81), Undo puts it back, a matrix of the wrong size says why and changes
nothing, and a saved session keeps it."""

import numpy as np
import pytest
from guihelp import settle
from PySide6.QtCore import QPoint, Qt

FIVE_TO_ONE = "0,1;5,0"


def _type_loss(qtbot, win, text):
    field = win.panel.loss
    qtbot.mouseClick(field, Qt.MouseButton.LeftButton)
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    settle(win)


def _boundary_points(win):
    xy = np.column_stack(win.canvas.boundary.getData())
    return xy[np.all(np.isfinite(xy), axis=1)]


def test_a_loss_typed_in_the_panel_moves_the_boundary_and_undo_takes_it_back(qtbot, window):
    win = window
    assert win.open_path("example:fruit")
    settle(win)
    model = win.canvas.frame.fit.model
    before = _boundary_points(win)
    np.testing.assert_allclose(model.predict_proba(before)[:, 1], 0.5, atol=1e-9)
    _type_loss(qtbot, win, FIVE_TO_ONE)
    assert win.doc.loss == ((0.0, 1.0), (5.0, 0.0))
    after = _boundary_points(win)
    np.testing.assert_allclose(model.predict_proba(after)[:, 1], 1 / 6, atol=1e-9)  # 5 p(peach) = p(apple)
    assert "Expected loss (Bishop eq. 1.81)" in win.canvas.frame.probe.lines[-1]
    P = model.predict_proba(win.doc.X)
    crossed = np.column_stack(win.canvas.wrong.getData())
    decide = (5 * P[:, 1] > P[:, 0]).astype(int)
    np.testing.assert_allclose(crossed, win.doc.X[decide != win.doc.labels])
    t = win.doc.labels  # the status line: the loss's decisions, their accuracy and their loss per point
    loss = np.where((decide == 1) & (t == 0), 1.0, np.where((decide == 0) & (t == 1), 5.0, 0.0)).mean()
    status = win.message.toolTip() + win.message.text()
    assert (f"decided by the loss: accuracy {100 * np.mean(decide == t):.1f}%, expected loss {loss:.4g} per point"
            in status)
    assert f"by the largest p(C_k|x): accuracy {100 * np.mean((P[:, 1] > P[:, 0]) == (t == 1)):.1f}%" in status
    assert "loss 0,1;5,0" in win._shown_label()
    undo = [a for a in win.menuBar().actions() if a.text().replace("&", "") == "Edit"][0].menu().actions()[0]
    assert undo.text().replace("&", "") == "Undo Set the loss matrix"
    assert win.panel.loss.hasFocus()  # Ctrl+Z where the person just pressed Enter: the document's undo
    qtbot.keyClick(win.panel.loss, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(win)
    assert win.doc.loss is None and win.panel.loss.text() == ""
    np.testing.assert_allclose(model.predict_proba(_boundary_points(win))[:, 1], 0.5, atol=1e-9)
    crossed = np.column_stack(win.canvas.wrong.getData())  # the crosses back to the largest posterior's
    np.testing.assert_allclose(crossed, win.doc.X[(P[:, 1] > P[:, 0]) != (win.doc.labels == 1)])


def test_a_loss_of_the_wrong_size_says_why_and_changes_nothing(qtbot, window):
    win = window
    assert win.open_path("example:fruit")
    settle(win)
    said = []
    win.panel.message.connect(said.append)
    steps = win.doc.undo_stack.count()
    _type_loss(qtbot, win, "0,1,2;1,0,2")
    assert win.doc.loss is None and win.doc.undo_stack.count() == steps
    assert said[-1].startswith("Loss matrix not applied: the loss matrix needs 2 rows of 2 numbers")
    assert win.panel.loss.text() == ""


def test_a_saved_session_keeps_the_loss(qtbot, window, tmp_path, monkeypatch):
    """File > Save As, then open it again: the loss field and the boundary come back."""
    from guihelp import menu_action

    win = window
    assert win.open_path("example:fruit")
    settle(win)
    _type_loss(qtbot, win, FIVE_TO_ONE)
    path = tmp_path / "fruit.probviz"
    monkeypatch.setattr("probviz.app.fileops.QFileDialog.getSaveFileName", lambda *a, **k: (str(path), ""))
    menu_action(win, "Save &As…".replace("&", "")).trigger()
    assert path.exists()
    win.doc.set_loss(None)
    assert win.open_path(str(path))
    settle(win)
    assert win.doc.loss == ((0.0, 1.0), (5.0, 0.0)) and win.panel.loss.text() == FIVE_TO_ONE
    model = win.canvas.frame.fit.model
    np.testing.assert_allclose(model.predict_proba(_boundary_points(win))[:, 1], 1 / 6, atol=1e-9)


@pytest.mark.parametrize("ext,dpi,reader", [("png", 96, "png"), ("pdf", 300, "pdf"), ("svg", 150, "svg-resvg")])
def test_probviz_export_loss_draws_the_moved_boundary_where_the_axes_say(tmp_path, ext, dpi, reader):
    """`probviz export --loss "0,1;5,0"` with the boundary alone: every inked pixel of the plot lies on the
    line where 5 p(C_2|x) = p(C_1|x), found here by bisection on the fitted model's posterior."""
    import subprocess
    import sys

    from scipy.optimize import brentq
    from test_figures import BLUE, H, ORANGE, VIEW, W, inked_points, raster

    from probviz.data.dataset import Dataset
    from probviz.data.session import Session, write_session
    from probviz.models import create
    from probviz.style import Style

    rng = np.random.default_rng(4)
    X = np.vstack([rng.normal([1.0, 1.0], 0.7, (8, 2)), rng.normal([2.2, 1.4], 0.7, (8, 2))])
    labels = np.repeat([0, 1], 8)
    data = tmp_path / "d.probviz"
    write_session(str(data), Session(Dataset(X, labels, ["a", "b"], [BLUE, ORANGE], ("x", "y")), "lda", view=VIEW))
    out = tmp_path / f"f.{ext}"
    r = subprocess.run([sys.executable, "-m", "probviz", "export", str(data), "--loss", FIVE_TO_ONE, "--layers",
                        "boundaries", "--no-legend", "--width", str(W), "--height", str(H),
                        "--dpi", str(dpi), "-o", str(out)], capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    model = create("lda").fit(X, labels)
    ends = [np.array([brentq(lambda x: model.predict_proba([[x, y]])[0, 1] - 1 / 6, -50, 50), y]) for y in (-1.0, 3.0)]
    px, dx = inked_points(raster(str(out), reader), Style().foreground)
    assert len(px) > 100
    a, b = ends
    d = b - a
    distance = np.abs(d[0] * (px[:, 1] - a[1]) - d[1] * (px[:, 0] - a[0])) / np.hypot(*d)
    assert np.mean(distance < 3.5 / dx) > 0.99


@pytest.mark.parametrize("loss", [None, FIVE_TO_ONE])
def test_the_status_line_and_the_crosses_follow_the_reject_option(qtbot, window, loss):
    """Decision regions ticked and Reject θ = 0.90 typed (the grey band of no decision on the canvas), with and
    without the 5:1 loss: the status line said the loss's figures as if nothing were rejected (or, without a loss,
    the plain accuracy) and crossed the points inside the band. It counts the decision drawn: the least expected
    loss R_j = sum_k L_kj p(C_k|x), rejected where it exceeds λ = 1 − θ = 0.1 (each rejected point costing λ),
    written out here from the model's posteriors; a rejected point is not crossed."""
    from guihelp import type_into

    win = window
    assert win.open_path("example:fruit")
    settle(win)
    box = win.panel.layer_boxes["decision"]
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # on its tick box
    settle(win)
    assert "decision" in win.doc.layers
    type_into(qtbot, win, win.panel.theta, "0.90")
    assert win.doc.theta == 0.9
    if loss is not None:
        _type_loss(qtbot, win, loss)
    P = win.canvas.frame.fit.model.predict_proba(win.doc.X)  # columns apple, peach
    t = win.doc.labels
    L = np.array([[0.0, 1.0], [5.0, 0.0]]) if loss else np.array([[0.0, 1.0], [1.0, 0.0]])
    R = np.column_stack([L[0, 0] * P[:, 0] + L[1, 0] * P[:, 1], L[0, 1] * P[:, 0] + L[1, 1] * P[:, 1]])
    d = np.where(R.min(axis=1) > 0.1, -1, np.argmin(R, axis=1))
    cost = np.where(d < 0, 0.1, L[t, np.maximum(d, 0)])
    rejected = int(np.sum(d < 0))
    assert 20 < rejected < 120  # the band holds points: the test can tell
    status = win.message.toolTip() + win.message.text()
    how = "decided by the loss" if loss else "decided with the 0-1 loss"
    said = (f"{how}, rejecting at λ = 0.1: accuracy {100 * np.mean(d == t):.1f}%, {rejected} rejected, "
            f"expected loss {cost.mean():.4g} per point (eq. 1.80)")
    assert said in status, status
    assert win.message.text().index(said[:40]) < win.message.text().index("apple: 172")  # before the counts
    win.resize(1024, 768)  # a projector's width: the line is cut at its end, the decision's numbers stay
    settle(win)
    assert f"expected loss {cost.mean():.4g} per point" in win.message.shown_text(), win.message.shown_text()
    crossed = np.column_stack(win.canvas.wrong.getData())
    np.testing.assert_allclose(crossed, win.doc.X[(d >= 0) & (d != t)])
    assert f"accuracy {100 * np.mean(d == t):.1f}% ({rejected} rejected)" in win.caption_parts()  # F5's caption


def test_the_legend_on_screen_names_the_reject_option_s_grey(qtbot, window):
    """View › Legend, Decision regions ticked and Reject θ = 0.90 typed: the grey regions of no decision get a
    legend row with a square of their grey (it had none); θ back to 0, the row goes; in F5's brief legend it
    reads "rejected"."""
    from guihelp import menu_action, type_into

    win = window
    assert win.open_path("example:fruit")
    settle(win)
    if not menu_action(win, "Legend").isChecked():
        menu_action(win, "Legend").trigger()
    box = win.panel.layer_boxes["decision"]
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # on its tick box
    settle(win)

    def rows():
        return {label.text: sample for sample, label in win.canvas.legend.items}

    assert not any(r.startswith("rejected") for r in rows())
    type_into(qtbot, win, win.panel.theta, "0.90")
    settle(win)
    assert win.canvas.reject.isVisible()  # the grey regions are drawn
    sample = rows()["rejected, no decision (θ = 0.9)"]
    item = sample.item if hasattr(sample, "item") else sample
    brush = item.opts["brush"]
    assert brush.color().getRgb()[:3] == tuple(win.canvas.style.reject)
    qtbot.keyClick(win, Qt.Key.Key_F5)
    settle(win)
    assert "rejected" in rows()
    qtbot.keyClick(win, Qt.Key.Key_F5)  # leaving: the legend as it was before
    settle(win)
    assert menu_action(win, "Legend").isChecked()
    type_into(qtbot, win, win.panel.theta, "0")
    settle(win)
    assert not win.canvas.reject.isVisible() and not any(r.startswith("rejected") for r in rows())


@pytest.mark.parametrize("ext,dpi,reader", [("png", 96, "png"), ("pdf", 300, "pdf"), ("svg", 150, "svg-resvg")])
def test_probviz_export_reject_cost_greys_where_no_decision_is_taken_where_the_axes_say(tmp_path, ext, dpi, reader):
    """`probviz export --reject-cost 0.1` (fit's option, the window's Reject θ = 0.9): the decision regions are
    drawn (added to the layers), grey exactly where max_k p(C_k|x) < 0.9, p from scikit-learn's LDA on the same
    points, read back at a grid of places through the axes' ticks; a cost out of range is refused."""
    import subprocess
    import sys

    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from test_figures import BLUE, H, ORANGE, VIEW, W, plot_to_data, raster

    from probviz.data.dataset import Dataset
    from probviz.data.session import Session, write_session
    from probviz.style import Style

    rng = np.random.default_rng(4)
    X = np.vstack([rng.normal([1.0, 1.0], 0.7, (8, 2)), rng.normal([2.2, 1.4], 0.7, (8, 2))])
    labels = np.repeat([0, 1], 8)
    data = tmp_path / "d.probviz"
    write_session(str(data), Session(Dataset(X, labels, ["a", "b"], [BLUE, ORANGE], ("x", "y")), "lda", view=VIEW,
                                     layers=["points"]))
    out = tmp_path / f"f.{ext}"
    base = [sys.executable, "-m", "probviz", "export", str(data), "--no-legend", "--width", str(W), "--height", str(H),
            "--dpi", str(dpi), "-o", str(out)]
    r = subprocess.run(base, capture_output=True, text=True, timeout=180)  # the points alone: the axes' ticks
    assert r.returncode == 0, r.stderr
    to_data, xt, yt, _, _ = plot_to_data(raster(str(out), reader), Style().foreground)
    r = subprocess.run(base[:5] + ["--reject-cost", "0.1", "--layers", "heatmap"] + base[5:], capture_output=True,
                       text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    rgb = raster(str(out), reader)  # the same layout: the same view, size and axis names
    dx, dy = np.mean(np.diff(xt)), np.mean(np.diff(yt))
    x, y = np.meshgrid(np.linspace(VIEW[0] + 0.1, VIEW[1] - 0.1, 40), np.linspace(VIEW[2] + 0.1, VIEW[3] - 0.1, 30))
    places = np.column_stack([x.ravel(), y.ravel()])
    cols = np.round(xt[0] + (places[:, 0] + 1.0) * dx).astype(int)  # the ticks sit at whole numbers from -1
    rows = np.round(yt[-1] - (places[:, 1] + 1.0) * dy).astype(int)
    np.testing.assert_allclose(to_data(rows, cols), places, atol=1.0 / dx)  # (the map back agrees)
    top = LinearDiscriminantAnalysis(solver="lsqr").fit(X, labels).predict_proba(places).max(axis=1)
    grey = np.all(np.abs(rgb[rows, cols] - np.array(Style().reject)) <= 8, axis=1)
    clear = np.abs(top - 0.9) > 0.02  # off the band's edge by more than a pixel or two
    assert 50 < np.sum(clear & (top < 0.9)) and 50 < np.sum(clear & (top > 0.9))  # both sides are tested
    np.testing.assert_array_equal(grey[clear], top[clear] < 0.9)
    for bad in ("0", "1.5", "nan") if ext == "png" else ():  # (refused before anything is drawn: one format)
        r = subprocess.run(base[:5] + ["--reject-cost", bad] + base[5:], capture_output=True, text=True, timeout=180)
        assert r.returncode == 2 and "--reject-cost must be a number from 0.01 to 1" in r.stderr, r.stderr


def test_in_presentation_mode_the_status_line_says_what_decided(qtbot, window):
    """Presenting, the caption names the model and the status line leaves it out: it began "by the loss: accuracy
    …", a phrase with nothing before it. It says "decided by the loss"."""
    window.resize(1024, 768)
    assert window.open_path("example:fruit")
    settle(window)
    _type_loss(qtbot, window, FIVE_TO_ONE)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    text = window.message.toolTip() or window.message.text()
    assert text.startswith("decided by the loss: accuracy "), text
