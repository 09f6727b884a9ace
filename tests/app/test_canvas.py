"""The interactive canvas, driven with real clicks and keys (pytest-qt, offscreen)."""

import re

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest

from probviz.models import MODEL_NAMES

from guihelp import assert_reads, click, drag, key, menu_action, settle, to_pixel

THREE_CLASSES = {
    Qt.Key.Key_1: [(-3, -3), (-2.5, -2), (-3.5, -2.2), (-2, -3.2)],
    Qt.Key.Key_2: [(3, -3), (2.5, -2), (3.4, -2.4), (2.2, -3.1)],
    Qt.Key.Key_3: [(0, 3), (0.6, 2.4), (-0.5, 2.6), (0.2, 3.6)],
}


def undo_text(win) -> str:
    """What the Edit menu's Undo item says, without its mnemonic."""
    return win.undo_action.text().replace("&", "")


def build_three_classes(qtbot, win):
    for k, pts in THREE_CLASSES.items():
        key(qtbot, win, k)
        for x, y in pts:
            click(qtbot, win, x, y)


def test_opens_on_the_fruit_example(qtbot):
    from probviz.app.main_window import MainWindow
    from probviz.data import examples

    win = MainWindow()
    qtbot.addWidget(win, before_close_func=lambda w: w.doc.mark_saved())
    win.load(examples.load("fruit"))
    win.show()
    settle(win)
    assert len(win.doc.X) == 250 and win.doc.model_name == "lda"
    assert "Apple or peach?" in win.panel.lesson.text()
    # the status line's numbers, recomputed independently: scikit-learn's LDA on the same points
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    X, y = win.doc.X, win.doc.labels
    accuracy = np.mean(LinearDiscriminantAnalysis().fit(X, y).predict(X) == y)
    assert f"apple: {np.sum(y == 0)}, peach: {np.sum(y == 1)}" in win.message.text()
    assert f"accuracy {100 * accuracy:.1f}%" in win.message.text()
    assert "p(apple|x) = 0.823" in win.canvas.probe_label.textItem.toPlainText()  # the value of the example


def test_empty_canvas_shows_a_hint(window):
    assert window.canvas.hint.isVisible()
    assert "press 1 and click" in window.message.text()


def test_build_three_classes_by_clicking(qtbot, window):
    build_three_classes(qtbot, window)
    doc = window.doc
    assert len(doc.classes) == 3
    np.testing.assert_array_equal(doc.counts(), [4, 4, 4])
    expected = np.array([p for pts in THREE_CLASSES.values() for p in pts], float)
    np.testing.assert_allclose(doc.X, expected, atol=0.05)  # within a pixel
    assert not window.canvas.hint.isVisible()
    assert "accuracy 100.0%" in window.message.text()
    assert window.isWindowModified()


def test_every_model_fits_and_draws(qtbot, window):
    build_three_classes(qtbot, window)
    seen = []
    for _ in MODEL_NAMES:
        key(qtbot, window, Qt.Key.Key_M)
        seen.append(window.doc.model_name)
        res = window.result.fit
        if window.doc.model_name in ("fisher", "perceptron"):  # two classes only: said, nothing drawn
            assert res.model is None and "this data has 3" in window.message.text()
            continue
        assert res.model is not None and res.model.name == window.doc.model_name
        assert window.result.scene.boundaries, window.doc.model_name
        assert "accuracy" in window.message.text()
    assert sorted(seen) == sorted(MODEL_NAMES)


def test_heatmap_pixels_show_the_class_regions(qtbot, window):
    build_three_classes(qtbot, window)
    img = window.canvas.grab().toImage()
    colors = [c.color for c in window.doc.classes]
    for k, (x, y) in enumerate([(-4, -4.5), (4, -4.5), (0, 4.5)]):
        p = to_pixel(window, x, y)
        px = img.pixelColor(p.x(), p.y())
        target = QColor(colors[k])
        # a tint of the class colour: nearer to it than to any other class colour
        dist = [sum((a - b) ** 2 for a, b in zip(px.getRgb()[:3], QColor(c).getRgb()[:3])) for c in colors]
        assert int(np.argmin(dist)) == k, (k, px.getRgb(), target.getRgb())


def test_drag_moves_a_point_and_the_boundary_follows(qtbot, window, monkeypatch):
    build_three_classes(qtbot, window)
    before = window.result.scene.boundaries[0].xy.copy()
    p0 = window.doc.X[0].copy()
    rebuilt = []  # a drag changes no count: the class table and prior sliders stay as they are
    monkeypatch.setattr(window.panel.classes, "refresh", lambda: rebuilt.append("classes"))
    monkeypatch.setattr(window.panel.priors, "refresh", lambda: rebuilt.append("priors"))
    frames = []
    window.refitter.ready.connect(frames.append)
    drag(qtbot, window, tuple(p0), (-1.0, 1.0))
    assert rebuilt == [] and len(frames) >= 4  # the fit followed every move
    np.testing.assert_allclose(window.doc.X[0], [-1.0, 1.0], atol=0.05)
    assert len(window.doc.X) == 12  # moved, not added
    after = window.result.scene.boundaries[0].xy
    assert before.shape != after.shape or not np.allclose(before, after)
    assert undo_text(window) == "Undo Move point"  # the whole drag is one step
    key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    np.testing.assert_allclose(window.doc.X[0], p0)


def test_drag_on_empty_canvas_pans(qtbot, window):
    click(qtbot, window, 0, 0)
    r0 = window.canvas.view_bounds()
    drag(qtbot, window, (2, 2), (0, 0))
    r1 = window.canvas.view_bounds()
    assert len(window.doc.X) == 1
    assert r1[0] == pytest.approx(r0[0] + 2, abs=0.1) and r1[2] == pytest.approx(r0[2] + 2, abs=0.1)


def test_right_click_and_delete_key_remove_points(qtbot, window):
    click(qtbot, window, 1, 1)
    click(qtbot, window, -1, -1)
    click(qtbot, window, 1, 1, Qt.MouseButton.RightButton)
    assert len(window.doc.X) == 1
    qtbot.mouseMove(window.canvas.viewport(), to_pixel(window, -1, -1))
    settle(window)
    key(qtbot, window, Qt.Key.Key_Delete)
    assert len(window.doc.X) == 0
    assert undo_text(window) == "Undo Delete point"


def test_undo_redo_with_standard_shortcuts(qtbot, window):
    click(qtbot, window, 1, 1)
    click(qtbot, window, 2, 2)
    assert undo_text(window) == "Undo Add point"
    key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(window.doc.X) == 1
    key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert len(window.doc.X) == 2
    key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    key(qtbot, window, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert len(window.doc.X) == 2
    while window.doc.undo_stack.canUndo():
        key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(window.doc.X) == 0 and not window.isWindowModified()


def test_brush_stroke_is_one_undo_step(qtbot, window):
    key(qtbot, window, Qt.Key.Key_2)
    key(qtbot, window, Qt.Key.Key_B)
    assert window.canvas.tool == "brush"
    drag(qtbot, window, (-2, 0), (2, 0), steps=10)
    n = len(window.doc.X)
    assert n >= 5 * window.canvas.brush_density and set(window.doc.labels) == {1}
    assert undo_text(window) == "Undo Add points"
    key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(window.doc.X) == 0


def test_rubber_band_select_then_move_relabel_delete(qtbot, window):
    build_three_classes(qtbot, window)
    key(qtbot, window, Qt.Key.Key_S)
    drag(qtbot, window, (-4.5, -4.5), (-1.5, -1.5))
    assert sorted(window.canvas.selection) == [0, 1, 2, 3]
    before = window.doc.X[:4].copy()
    drag(qtbot, window, tuple(window.doc.X[0]), tuple(window.doc.X[0] + [1.0, 0.5]))
    np.testing.assert_allclose(window.doc.X[:4], before + [1.0, 0.5], atol=0.05)
    assert undo_text(window) == "Undo Move points"
    key(qtbot, window, Qt.Key.Key_2)
    key(qtbot, window, Qt.Key.Key_C)
    assert list(window.doc.labels[:4]) == [1, 1, 1, 1]
    key(qtbot, window, Qt.Key.Key_Delete)
    assert len(window.doc.X) == 8


def test_number_keys_add_classes_up_to_that_number(qtbot, window):
    key(qtbot, window, Qt.Key.Key_5)
    assert len(window.doc.classes) == 5 and window.doc.active_class == 4
    assert window.panel.classes.rowCount() == 5
    colors = [c.color for c in window.doc.classes]
    assert len(set(colors)) == 5


def test_model_panel_parameters_refit(qtbot, window):
    build_three_classes(qtbot, window)
    window.panel.model.setCurrentIndex(MODEL_NAMES.index("softmax"))
    settle(window)
    assert window.doc.model_name == "softmax"
    basis = window.panel.param_widgets["basis"]
    basis.setCurrentText("quadratic")
    settle(window)
    assert window.result.fit.model.basis == "quadratic"
    assert undo_text(window) == "Undo Set Basis functions φ(x)"
    assert not window.panel.layer_boxes["ellipses"].isEnabled()
    assert "no class densities" in window.panel.layer_boxes["ellipses"].toolTip()


def test_hover_shows_coordinates_and_posteriors(qtbot, window):
    build_three_classes(qtbot, window)
    qtbot.mouseMove(window.canvas.viewport(), to_pixel(window, -3, -3))
    settle(window)
    text = window.hover.text()
    x, y = (float(v) for v in re.match(r"x = (\S+), y = (\S+)", text).groups())
    pw, ph = window.canvas.vb.viewPixelSize()
    assert abs(x + 3) <= pw and abs(y + 3) <= ph  # within a pixel of where the cursor is
    assert "p(1|x)" in text and "p(3|x)" in text


def test_the_hover_readout_follows_a_dragged_point_with_the_fit_it_makes(qtbot, window):
    """While a point is dragged, the readout under the cursor follows it, paced as the status line (at most ten
    times a second: digits changed at every move cannot be read): each text it shows names the place the point
    in hand had at a move, with the posteriors of the fit that move made; once the hand rests, the last one."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    build_three_classes(qtbot, window)
    i = 0
    vp = window.canvas.viewport()
    a = to_pixel(window, *window.doc.X[i])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    pw, ph = window.canvas.vb.viewPixelSize()

    def read(text):
        x, y = (float(v) for v in re.match(r"x = (\S+), y = (\S+)", text).groups())
        return np.array([x, y]), [float(v) for v in re.findall(r"p\(\d\|x\) = (\S+)", text)]

    def names(text, here, model) -> bool:  # the point in hand at ``here`` and the posteriors ``model`` gives there
        xy, shown = read(text)
        near = np.all(np.abs(xy - here) <= 2 * np.array([pw, ph]) + 0.005 * np.abs(here))
        return bool(near) and np.allclose(shown, model.predict_proba([here])[0], atol=0.02)

    before = window.hover.text()
    moves, seen = [], []
    for m in range(1, 17):  # about a quarter of a second of moves 15 ms apart: the hand never rests
        QTest.qWait(15)  # (pyqtgraph drops mouse moves closer than 10 ms)
        qtbot.mouseMove(vp, QPoint(a.x() + 6 * m, a.y() - 4 * m))
        moves.append((window.doc.X[i].copy(), window.canvas.frame.fit.model))
        if window.canvas.drafting:  # (a machine too busy for a move in 150 ms rests the hand: that text is at rest)
            seen.append(window.hover.text())
    shown = [t for t in dict.fromkeys(seen) if t != before]
    assert len(shown) >= 2  # it followed the hand while it moved
    for text in shown:
        assert any(names(text, here, model) for here, model in moves), text
    qtbot.waitUntil(lambda: names(window.hover.text(), *moves[-1]), timeout=1000)  # the hand rests: the last move
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 96, a.y() - 64))
    settle(window)


def test_the_last_move_before_the_hand_rests_is_not_lost(qtbot, window):
    """pyqtgraph drops a mouse move that comes within 10 ms of the one before. When that was the cursor's last
    move before it rested, the readout kept saying where the cursor had been, and a point held still mid-drag
    sat short of the hand until let go. The canvas now holds such a move back and delivers it: a quick second
    move, then rest, and the readout names the cursor's place; in a drag the point goes under the hand."""
    build_three_classes(qtbot, window)
    vp = window.canvas.viewport()
    pw, ph = window.canvas.vb.viewPixelSize()

    def at(pixel):
        p = window.canvas.vb.mapSceneToView(window.canvas.mapToScene(pixel))
        return p.x(), p.y()

    start = QPoint(vp.width() // 4, vp.height() // 4)
    qtbot.mouseMove(vp, start)
    settle(window)
    QTest.qWait(15)
    for step in (QPoint(9, 4), QPoint(23, 11)):  # the second comes at once
        qtbot.mouseMove(vp, start + step)
    QTest.qWait(40)
    settle(window)
    x, y = (float(v) for v in re.match(r"x = (\S+), y = (\S+)", window.hover.text()).groups())
    want = at(start + QPoint(23, 11))
    assert abs(x - want[0]) <= pw + 0.005 * abs(want[0]) and abs(y - want[1]) <= ph + 0.005 * abs(want[1])

    i = 0
    a = to_pixel(window, *window.doc.X[i])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    QTest.qWait(15)
    for step in (QPoint(10, 6), QPoint(20, 12), QPoint(31, 17)):  # quicker than pyqtgraph takes them
        qtbot.mouseMove(vp, a + step)
    QTest.qWait(40)
    settle(window)
    held = window.doc.X[i].copy()  # the hand holds still, the button down
    want = np.array(at(a + QPoint(31, 17)))
    assert np.all(np.abs(held - want) <= [1.5 * pw, 1.5 * ph]), (held, want)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=a + QPoint(31, 17))
    settle(window)


def test_the_readout_comes_back_when_a_dialog_over_the_canvas_closes(qtbot, window):
    """F1 opens the key sheet over the canvas and Esc closes it, the cursor resting on the canvas all along: the
    readout under it stayed empty until the mouse moved. It now comes back as the canvas is entered again."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    assert window.open_path("example:fruit")
    settle(window)
    vp = window.canvas.viewport()
    qtbot.mouseMove(vp, QPoint(200, 200))
    QTest.qWait(15)
    qtbot.mouseMove(vp, QPoint(210, 205))
    settle(window)
    before = window.hover.text()
    assert before.startswith("x = ")
    closed = []

    def close():
        sheet = QApplication.activeModalWidget() or QApplication.activeWindow()
        closed.append(sheet is not window and sheet.windowTitle())
        qtbot.keyClick(sheet, Qt.Key.Key_Escape)
    QTimer.singleShot(200, close)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: bool(closed))
    settle(window)
    assert closed[0]  # the key sheet, over the window, was closed
    assert window.hover.text() == before


@pytest.mark.parametrize("offset,scale", [(1e6, 1.0), (0.0, 1e-6), (-3e5, 1e5), (0.0, 1.0)])
def test_the_readout_names_the_cursors_place_to_the_pixel_far_from_the_origin(qtbot, window, offset, scale):
    """The readout wrote three significant digits: among points near (1e6, 1e6) every place read "x = 1e+06,
    y = 1e+06". It now writes as many decimals as a pixel of the view needs (the same for every place in the
    view, so its width holds still as the mouse moves), at any offset and scale."""
    from probviz.data.dataset import Dataset

    rng = np.random.default_rng(3)
    X = offset + scale * np.vstack([rng.normal((-1, 0), 0.5, (6, 2)), rng.normal((1, 0.5), 0.5, (6, 2))])
    window.load(Dataset(X, np.repeat([0, 1], 6), ["a", "b"]))
    key(qtbot, window, Qt.Key.Key_F)  # View > Fit view
    settle(window)
    vp = window.canvas.viewport()
    widths = set()
    for pixel in (QPoint(vp.width() // 3, vp.height() // 3), QPoint(vp.width() // 2 + 17, vp.height() // 2 + 9),
                  QPoint(2 * vp.width() // 3, vp.height() // 4)):
        QTest.qWait(15)
        qtbot.mouseMove(vp, pixel)
        settle(window)
        assert_reads(window, window.canvas.vb.mapSceneToView(window.canvas.mapToScene(pixel)))
        widths.add(len(window.hover.text().split("   ")[0]))
    assert max(widths) - min(widths) <= 2  # (a sign or an integer digit more, at most, for x and y)


@pytest.mark.parametrize("offset", [1e6, -3e7])
def test_data_far_from_the_origin_is_framed_and_its_axes_read(qtbot, window, offset):
    """Sixty points spread about a unit, around (1e6, 1e6): the view framed them as a tenth of their coordinates
    (985,000 to 1,015,000: every point in one pixel), F could not do better, and every tick read "1e+06". The view
    now frames their extent, and each axis's tick labels are distinct numbers, each its tick's value."""
    from probviz.data.dataset import Dataset

    rng = np.random.default_rng(1)
    X = offset + np.vstack([rng.normal((-1, 0), 0.6, (30, 2)), rng.normal((1, 0.5), 0.6, (30, 2))])
    window.load(Dataset(X, np.repeat([0, 1], 30), ["a", "b"]))
    key(qtbot, window, Qt.Key.Key_F)  # View > Fit view
    settle(window)
    x0, x1, y0, y1 = window.canvas.view_bounds()
    extent = X.max(axis=0) - X.min(axis=0)
    assert x0 < X[:, 0].min() and X[:, 0].max() < x1 and y0 < X[:, 1].min() and X[:, 1].max() < y1
    assert x1 - x0 < 2 * extent[0] and y1 - y0 < 2 * extent[1]  # framed, not a pixel's worth
    for name, (lo, hi) in (("bottom", (x0, x1)), ("left", (y0, y1))):
        axis = window.canvas.plotItem.getAxis(name)
        length = window.canvas.vb.width() if name == "bottom" else window.canvas.vb.height()
        for spacing, values in axis.tickValues(lo, hi, length):
            labels = axis.tickStrings(values, 1.0, spacing)
            assert len(set(labels)) == len(labels), labels
            np.testing.assert_allclose([float(t) for t in labels], values, rtol=0, atol=spacing / 2)


def _lda_log_likelihood(X, t) -> float:
    """ln p(X, t) of the maximum-likelihood shared-covariance Gaussians (Bishop 4.2.2), from scipy."""
    from scipy.stats import multivariate_normal

    classes = np.unique(t)
    centred = np.vstack([X[t == k] - X[t == k].mean(0) for k in classes])
    S = centred.T @ centred / len(X)
    return float(sum(np.sum(np.log(np.mean(t == k)) + multivariate_normal(X[t == k].mean(0), S).logpdf(X[t == k]))
                     for k in classes))


def test_the_status_line_follows_a_drag_paced_and_ends_on_its_last_frame(qtbot, window):
    """While a point is dragged the status line's numbers follow at most ten times a second (digits changing at
    every move cannot be read): a move's numbers that wait are shown while the hand is held still, and once the
    point is let go, the fit of where it was left."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    build_three_classes(qtbot, window)
    window.doc.set_model("lda")
    settle(window)

    def shown():
        return float(re.search(r"ln p\(X, t\) = (\S+)", window.message.text()).group(1))

    before = _lda_log_likelihood(window.doc.X, window.doc.labels)
    assert shown() == pytest.approx(before, abs=0.006)
    vp = window.canvas.viewport()
    a = to_pixel(window, *window.doc.X[0])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for m in range(1, 21):
        QTest.qWait(15)  # pyqtgraph drops mouse moves closer than 10 ms
        qtbot.mouseMove(vp, QPoint(a.x() + 10 * m, a.y() + 6 * m))
        moving = _lda_log_likelihood(window.doc.X, window.doc.labels)
        if shown() != pytest.approx(moving, abs=0.006):
            break  # this move's numbers wait
    else:
        pytest.fail("the status line changed at every move")
    assert abs(moving - before) > 0.02
    qtbot.waitUntil(lambda: shown() == pytest.approx(moving, abs=0.006), timeout=1000)  # (how soon: test_drafts.py, Paced)
    qtbot.mouseMove(vp, QPoint(a.x() + 120, a.y() + 70))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 120, a.y() + 70))
    settle(window)
    after = _lda_log_likelihood(window.doc.X, window.doc.labels)
    assert abs(after - moving) > 0.1 and shown() == pytest.approx(after, abs=0.006)


def test_the_top_tick_label_is_drawn_whole(qtbot, window):
    """A new document's view ends at y = 5 with a tick: its label, centred on the tick, is drawn whole, its upper
    half inside the canvas too (it was cut in half by the canvas's top edge)."""
    from PySide6.QtGui import QColor, QFontMetrics

    image = window.canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    top = to_pixel(window, -5.0, 5.0)  # the corner of the plot: the tick at y = 5
    half = QFontMetrics(window.canvas.plotItem.getAxis("left").style["tickFont"]).height() / 2
    assert top.y() >= half - 1  # room above the tick for the upper half of its label
    ink = window.canvas.style.foreground[:3]
    rows = range(max(0, round((top.y() - half + 1) * ratio)), round(top.y() * ratio))
    inked = sum(max(abs(a - b) for a, b in zip(QColor(image.pixel(x, y)).getRgb()[:3], ink)) <= 80
                for y in rows for x in range(0, round((top.x() - 6) * ratio)))
    assert inked >= 3  # the upper half of the "5" is drawn


def test_the_rightmost_tick_label_is_drawn_whole(qtbot, window):
    """A new document's view ends at x = 5 with a tick: its label, centred on the tick, is drawn whole, its
    right half inside the canvas too (the plot ran into the canvas's right edge, where a projector's window
    ends)."""
    from PySide6.QtGui import QColor, QFontMetrics

    image = window.canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    corner = to_pixel(window, 5.0, -5.0)  # the plot's bottom right corner: the tick at x = 5
    axis = window.canvas.plotItem.getAxis("bottom")
    label = QFontMetrics(axis.style["tickFont"]).horizontalAdvance("5")
    assert corner.x() + label / 2 <= window.canvas.width() - 1  # room right of the tick for half its label
    ink = window.canvas.style.foreground[:3]
    cols = range(round((corner.x() + 1) * ratio), min(image.width(), round((corner.x() + label / 2 + 1) * ratio)))
    rows = range(round((corner.y() + 6) * ratio), min(image.height(), round((corner.y() + 30) * ratio)))
    inked = sum(max(abs(a - b) for a, b in zip(QColor(image.pixel(x, y)).getRgb()[:3], ink)) <= 80
                for y in rows for x in cols)
    assert inked >= 3  # the right half of the "5" is drawn


def test_single_point_class_gets_a_notice(qtbot, window):
    click(qtbot, window, 0, 0)
    key(qtbot, window, Qt.Key.Key_2)
    click(qtbot, window, 2, 2)
    click(qtbot, window, 2.5, 1.5)
    window.doc.set_model("qda")
    settle(window)
    assert "single point" in window.message.text()


def test_layers_toggle_from_the_panel(qtbot, window):
    build_three_classes(qtbot, window)
    assert window.canvas.heatmap.isVisible()
    window.panel.layer_boxes["heatmap"].setChecked(False)
    settle(window)
    assert not window.canvas.heatmap.isVisible()
    assert not window.layer_actions["heatmap"].isChecked()


def test_drag_refits_gaussians_from_statistics_exactly(qtbot, window):
    from probviz.models import create

    build_three_classes(qtbot, window)
    window.doc.set_model("qda")
    settle(window)
    drag(qtbot, window, tuple(window.doc.X[5]), (1.0, -1.0))
    res = window.result.fit
    assert res.incremental  # updated from the sufficient statistics, not refitted from scratch
    full = create("qda", **window.doc.params["qda"]).fit(window.doc.X, window.doc.labels)
    np.testing.assert_allclose(res.model.means_, full.means_, atol=1e-12)
    np.testing.assert_allclose(res.model.covariances_, full.covariances_, atol=1e-10)
    window.doc.set_model("lda")  # same points: LDA from the same statistics
    settle(window)
    assert window.result.fit.incremental
    full = create("lda").fit(window.doc.X, window.doc.labels)
    np.testing.assert_allclose(window.result.fit.model.coef_, full.coef_, rtol=1e-10)
    np.testing.assert_allclose(window.result.fit.model.intercept_, full.intercept_, rtol=1e-10)
    window.doc.set_model("qda")
    settle(window)
    click(qtbot, window, 4, 4)  # an added point: a full refit again
    assert not window.result.fit.incremental and len(window.result.fit.model.stats_.counts) == 3


def test_large_data_fits_on_a_worker_and_draws_a_density_image(qtbot, window, monkeypatch):
    import probviz.app.refit as refit
    from probviz.data.dataset import Dataset

    monkeypatch.setattr(refit, "THREAD_THRESHOLD", 1000)
    rng = np.random.default_rng(0)
    n = 60_000
    labels = rng.integers(0, 3, n)
    labels[-5:] = 2  # a small far cluster of class 3 must stay visible
    X = rng.normal(size=(n, 2)) + np.array([[-2, 0], [2, 0], [0, 3]])[labels]
    X[-5:] = [4.5, 4.5]
    busy = []
    window.refitter.busy.connect(busy.append)
    window.load(Dataset(X, labels, ["a", "b", "c"]))
    window.canvas.vb.setRange(xRange=(-5, 5), yRange=(-5, 5), padding=0)
    qtbot.waitUntil(lambda: window.result is not None and window.result.fit.model is not None
                    and window.result.revision == window.doc.revision, timeout=10000)
    assert busy[:1] == [True]  # the fit ran off the GUI thread
    qtbot.waitUntil(lambda: window.busy_label.text() == "", timeout=10000)
    assert window.result.fit.summary and window.result.fit.wrong is not None  # the second step arrived
    assert window.canvas.dense and window.canvas.density.isVisible()
    assert not any(item.isVisible() for item in window.canvas.class_points)
    assert "60,000 points drawn as a density image" in window.message.text()
    img = window.canvas.density.image
    colours = {tuple(int(v) for v in img[r, c, :3]) for r, c in zip(*np.nonzero(img[..., 3]))}
    from probviz.colors import hex_to_rgb
    for cls in window.doc.classes:  # every class tints some pixel, even the five far points
        target = np.array(hex_to_rgb(cls.color))
        assert min(np.abs(np.array(c) - target).sum() for c in colours) < 10, cls.name


def test_a_pan_during_a_large_fit_still_gets_its_summary(qtbot, window):
    """The worker's summary of a fit arrives after a newer frame that only moved the view: it is shown."""
    from probviz import pipeline
    from probviz.pipeline import FrameRequest, ModelSpec

    X = np.random.default_rng(0).normal(size=(40, 2))
    y = np.repeat([0, 1], 20)
    spec = ModelSpec.make("lda")
    req = FrameRequest(X, y, ("a", "b"), ("#0072B2", "#D55E00"), (spec,), generation=50)
    partial = pipeline.compute(req, evaluate=False)
    assert not partial.fit.summary
    refitter = window.refitter
    refitter._deliver(partial)
    panned = pipeline.compute(FrameRequest(X, y, ("a", "b"), ("#0072B2", "#D55E00"), (spec,), bounds=(0, 1, 0, 1),
                                           generation=51), partial, refit=False)
    refitter._deliver(panned)
    complete = pipeline.Frame(req, [pipeline.evaluate(partial.fit, X, y)], partial.scene)
    refitter._deliver(complete)
    shown = window.result
    assert shown.request.bounds == (0, 1, 0, 1) and shown.fit.summary["accuracy"] > 0.4  # the pan's view, the summary
    # an older frame of another fit is still dropped
    other = pipeline.compute(FrameRequest(X + 1, y, ("a", "b"), ("#0072B2", "#D55E00"), (spec,), generation=49))
    refitter._deliver(other)
    assert window.result is shown


def test_class_names_are_plain_text_everywhere(qtbot, window):
    name = '<img src="/tmp/x.png"><b>bold</b>'
    build_three_classes(qtbot, window)
    window.doc.rename_class(0, name)
    window.legend_action.trigger()
    window.doc.set_probe((0.0, 0.0))
    settle(window)
    assert window.message.textFormat() == Qt.TextFormat.PlainText and name in window.message.text()
    assert window.hover.textFormat() == Qt.TextFormat.PlainText
    assert window.panel.params.text.textFormat() == Qt.TextFormat.PlainText
    assert name in window.panel.params.text.plain()
    legend_texts = [label.text for _, label in window.canvas.legend.items]
    assert any("&lt;img" in t for t in legend_texts) and not any("<img" in t for t in legend_texts)


def test_a_new_document_clears_the_selection(qtbot, window):
    build_three_classes(qtbot, window)
    key(qtbot, window, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert len(window.canvas.selection) == len(window.doc.X)
    window.doc.mark_saved()
    window.open_example("xor")
    settle(window)
    assert len(window.canvas.selection) == 0 and len(window.canvas.selected.data) == 0
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    QApplication.sendEvent(window.canvas, QEvent(QEvent.Type.Leave))  # the cursor off the canvas (Delete takes
    settle(window)  # the point under a cursor on it)
    key(qtbot, window, Qt.Key.Key_Delete)  # nothing selected: nothing deleted
    assert len(window.doc.X) == 160


def test_a_drag_draws_every_point_where_the_document_has_it(qtbot, window):
    """Moves update the markers in place (no rebuild per frame): after a drag, adds and a class
    change, each class's drawn markers are exactly its points."""
    from guihelp import drag

    rng = np.random.default_rng(2)
    window.doc.add_points(rng.uniform(-4, 4, (30, 2)), 0)
    window.doc.add_points(rng.uniform(-4, 4, (20, 2)), 1)
    settle(window)
    start = window.doc.X[7].copy()
    def drawn_as_the_document_says():
        for k, item in enumerate(window.canvas.class_points[:2]):
            x, y = item.getData()
            drawn = np.c_[x, y]
            want = window.doc.X[window.doc.labels == k]
            np.testing.assert_array_equal(drawn[np.lexsort(drawn.T)], want[np.lexsort(want.T)])

    drag(qtbot, window, tuple(start), (start[0] + 1.0, start[1] - 0.5))
    assert not np.allclose(window.doc.X[7], start)  # the drag moved it
    drawn_as_the_document_says()
    window.doc.add_points([[0.5, 0.5]], 1)
    window.doc.relabel_points([3], 1)
    settle(window)
    drawn_as_the_document_says()


def test_a_dragged_misclassified_point_keeps_its_cross(qtbot, window, monkeypatch):
    """The misclassified marks move with a drag (in place, like the points): the cross is drawn where the
    point now is, not where the drag began, at each paint after it (the crosses painted again unchanged are
    drawn from an image of them, made again once they moved)."""
    from guihelp import drag

    from PySide6.QtGui import QColor

    rng = np.random.default_rng(4)
    window.doc.add_points(rng.normal(size=(12, 2)) * 0.4 + [-2.5, 0], 0)
    window.doc.add_points(rng.normal(size=(12, 2)) * 0.4 + [2.5, 0], 1)
    window.doc.add_points([[2.0, 1.5]], 0)  # deep in the other class's region
    settle(window)
    i = len(window.doc.X) - 1

    def crosses():
        return np.column_stack(window.canvas.wrong.getData())

    np.testing.assert_array_equal(crosses(), [[2.0, 1.5]])
    pen = window.canvas.wrong.opts["pen"].color()

    def pen_near(image, x, y):
        ratio = image.devicePixelRatio()
        p = to_pixel(window, x, y)
        cx, cy = round(p.x() * ratio), round(p.y() * ratio)
        return any(QColor(image.pixel(cx + dx, cy + dy)) == pen for dx in range(-2, 3) for dy in range(-2, 3))

    for _ in range(2):  # marker by marker, then from an image
        assert pen_near(window.canvas.grab().toImage(), 2.0, 1.5)
    # while the hand moves (and never rests), the cross follows the point in hand, as at 10,000 points: the frames
    # in the hand leave the misclassified marks as they were (a pass over every point), and move them in place
    from probviz.app import refit

    monkeypatch.setattr(refit, "DRAFT_SUMMARY_MAX", 0)
    window.canvas._rest.setInterval(60_000)
    vp = window.canvas.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=to_pixel(window, 2.0, 1.5))
    for step in range(1, 4):
        QTest.qWait(15)
        qtbot.mouseMove(vp, to_pixel(window, 2.0 + 0.2 * step, 1.5))
        assert window.canvas.drafting
        assert np.hypot(*(window.doc.X[i] - [2.0 + 0.2 * step, 1.5])) < 0.05
        np.testing.assert_array_equal(crosses(), [window.doc.X[i]])
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=to_pixel(window, 2.6, 1.5))
    settle(window)
    window.doc.undo_stack.undo()
    window.canvas._rest.setInterval(window.canvas.REST_MS)
    settle(window)
    np.testing.assert_array_equal(crosses(), [[2.0, 1.5]])
    drag(qtbot, window, (2.0, 1.5), (3.0, -1.5))
    end = window.doc.X[i].copy()
    assert np.hypot(*(end - [3.0, -1.5])) < 0.05
    np.testing.assert_array_equal(crosses(), [end])
    for _ in range(2):
        image = window.canvas.grab().toImage()
        assert pen_near(image, *end) and not pen_near(image, 2.0, 1.5)


def test_the_density_image_of_many_points_is_made_off_the_gui_thread(qtbot, window, monkeypatch):
    """At 60,000 points every edit and every pan redraws the density image, a pass over every point: the
    worker makes it, in the frame, and the canvas only shows it (the new point is in it)."""
    import threading

    from probviz import scene
    from probviz.data.dataset import Dataset

    rng = np.random.default_rng(1)
    X = rng.normal(size=(60_000, 2))
    window.load(Dataset(X, rng.integers(0, 2, len(X)), ["a", "b"]))
    window.canvas.vb.setRange(xRange=(-5, 5), yRange=(-5, 5), padding=0)
    made = []
    real = scene.density
    monkeypatch.setattr(scene, "density", lambda *a, **k: made.append(threading.current_thread()) or real(*a, **k))

    def shown():
        r = window.result
        return bool(r is not None and r.revision == window.doc.revision and r.density is not None and made)
    window.doc.set_active_class(1)
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, pos=to_pixel(window, 4.2, -4.2))
    qtbot.waitUntil(shown, timeout=20_000)
    settle(window)
    assert made and all(t is not threading.main_thread() for t in made)
    image, (x0, x1, y0, y1) = window.canvas.density.image, window.result.request.bounds
    assert window.canvas.density.isVisible() and np.array_equal(image, window.result.density)
    col = int((4.2 - x0) / (x1 - x0) * image.shape[1])  # the lone point at (4.2, -4.2) is in the picture
    row = int((-4.2 - y0) / (y1 - y0) * image.shape[0])
    assert image[max(row - 3, 0):row + 4, max(col - 3, 0):col + 4, 3].max() > 0


def test_the_hover_readout_follows_the_view_under_a_resting_cursor(qtbot, window):
    """The cursor rests while the view changes (Fit view, a slide, an undo): the readout gives the point now
    under the cursor, not the one that was there before."""
    from PySide6.QtCore import QPoint, QPointF

    assert window.open_path("example:fruit")
    settle(window)
    window.canvas.vb.setRange(xRange=(-20, 20), yRange=(-20, 20), padding=0)  # zoomed far out, as a wheel does
    settle(window)
    pixel = QPoint(window.canvas.viewport().width() // 3, window.canvas.viewport().height() // 3)
    qtbot.mouseMove(window.canvas.viewport(), pixel)
    settle(window)
    before = window.hover.text()
    assert before.startswith("x = ")
    cursor = window.canvas.viewport().mapToGlobal(pixel)  # where the resting cursor is on the screen

    def reads_under_the_cursor():
        canvas = window.canvas
        here = canvas.vb.mapSceneToView(canvas.mapToScene(canvas.viewport().mapFromGlobal(cursor)))
        assert isinstance(here, QPointF)
        assert_reads(window, here)
        return window.hover.text()

    key(qtbot, window, Qt.Key.Key_F)  # View > Fit view: the data fill the plot, the cursor does not move
    settle(window)
    assert reads_under_the_cursor() != before
    for _ in range(2):  # F5 folds the panels away and gives them back: the canvas moves under the cursor
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        qtbot.keyClick(window, Qt.Key.Key_F5)
        settle(window)
        qtbot.wait(20)
        settle(window)
        reads_under_the_cursor()


def test_marks_empty_only_what_holds_something(qtbot, monkeypatch):
    """Most marks are empty and are told so on every frame: that costs no rebuild; a mark that holds points is
    still emptied, and filled again."""
    import pyqtgraph as pg

    from probviz.app.canvas import Marks

    rebuilt = []
    real = pg.ScatterPlotItem.addPoints
    monkeypatch.setattr(pg.ScatterPlotItem, "addPoints", lambda self, *a, **k: rebuilt.append(1) or real(self, *a, **k))
    marks = Marks(pxMode=True)
    rebuilt.clear()
    marks.setData(pos=np.empty((0, 2)))
    assert rebuilt == [] and len(marks.data) == 0
    marks.setData(pos=[[1.0, 2.0], [3.0, 4.0]], size=5)
    np.testing.assert_array_equal(np.column_stack(marks.getData()), [[1.0, 2.0], [3.0, 4.0]])
    marks.setData(pos=np.empty((0, 2)))
    assert len(marks.data) == 0 and len(marks.getData()[0]) == 0
    marks.setData([5.0], [6.0])
    np.testing.assert_array_equal(np.column_stack(marks.getData()), [[5.0, 6.0]])


@pytest.mark.parametrize("width", [0, 3.0])
@pytest.mark.parametrize("cosmetic", [True, False])
def test_a_curves_bounds_are_pyqtgraphs(qtbot, cosmetic, width):
    """The canvas's curves find their bounds faster than pyqtgraph does, to the same numbers: lines with gaps,
    infinities, no finite value at all, one point, a part of the data, a fill, a pen in data units."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    import pyqtgraph as pg
    from PySide6.QtGui import QPen

    from probviz.app.canvas import _curve

    value = st.one_of(st.floats(-1e6, 1e6), st.just(np.nan), st.just(np.inf), st.just(-np.inf), st.floats(-1e-6, 1e-6))

    @settings(max_examples=150, deadline=None)
    @given(st.lists(st.tuples(value, value), min_size=1, max_size=12), st.sampled_from([None, 0.0, 2.5]),
           st.sampled_from([1.0, 0.8]), st.sampled_from([None, (-1.0, 1.0)]))
    def same(xy, fill, frac, ortho):
        x, y = np.array(xy, dtype=float).T
        pen = QPen()
        pen.setCosmetic(cosmetic)
        pen.setWidthF(width)
        ours, theirs = _curve(), pg.PlotCurveItem()
        for item in (ours, theirs):
            item.setData(x, y, connect="finite", pen=pen, fillLevel=fill)
        for ax in (0, 1):
            for _ in range(2):  # and again, from the cache
                np.testing.assert_array_equal(np.array(ours.dataBounds(ax, frac, ortho), dtype=float),
                                              np.array(theirs.dataBounds(ax, frac, ortho), dtype=float))

    with np.errstate(all="ignore"):
        same()


def _many_points(window):
    """Two dense clouds of 1,500 points each (their classes are drawn from images) and one lone point of
    the first class at (-3, 3), far from both."""
    rng = np.random.default_rng(8)
    window.doc.add_points(rng.uniform([-4, -4], [-1.5, 0], size=(1500, 2)), 0)
    window.doc.add_points(rng.uniform([1.5, -4], [4, 0], size=(1500, 2)), 1)
    window.doc.add_points([[-3.0, 3.0]], 0)
    settle(window)
    return len(window.doc.X) - 1


def _class_colour_at(window, image, k, x, y) -> bool:
    """The centre of a marker of class k is drawn at data point (x, y)."""
    from PySide6.QtGui import QColor

    p = to_pixel(window, x, y)
    ratio = image.devicePixelRatio()
    got = QColor(image.pixel(round(p.x() * ratio), round(p.y() * ratio)))
    want = QColor(window.doc.classes[k].color)
    return max(abs(a - b) for a, b in zip(got.getRgb()[:3], want.getRgb()[:3])) <= 8


def _render_count(window, monkeypatch):
    """The classes whose image is made, in order, from now on (not the misclassified crosses')."""
    from probviz.app.canvas import StillMarks

    renders = []
    real = StillMarks._render

    def render(item, *a):
        if item in window.canvas.class_points:
            renders.append(item)
        return real(item, *a)

    monkeypatch.setattr(StillMarks, "_render", render)
    return renders


def _grab_array(window):
    image = window.canvas.grab().toImage()
    return image, np.frombuffer(image.constBits(), np.uint8).astype(int)


def test_points_painted_again_unchanged_are_drawn_from_an_image_where_the_axes_say(qtbot, window, monkeypatch):
    """A class painted again with neither its points nor the view changed is drawn from an image of it made
    then: the canvas is the one painted marker by marker, and a point moved (not by a drag) is drawn where it
    went and no longer where it was."""
    i = _many_points(window)
    renders = _render_count(window, monkeypatch)
    for item in window.canvas.class_points:
        item.invalidate()  # as new points do
    direct, d0 = _grab_array(window)  # the first paint after a change: marker by marker
    assert renders == [] and all(item._image is None for item in window.canvas.class_points)
    cached, d1 = _grab_array(window)
    assert renders == window.canvas.class_points[:2] and all(item._image is not None for item in renders)
    assert cached.size() == direct.size()
    d = np.abs(d1 - d0)
    # the same to rounding: blending through an image rounds 8-bit premultiplied colours twice, where markers
    # overlap (3 units at most, seen on a handful of channels); one pixel off moves 100,000 channels by up to 255
    assert d.max() <= 3 and np.count_nonzero(d > 1) < 100
    _, again = _grab_array(window)
    assert renders == window.canvas.class_points[:2] and np.array_equal(again, d1)  # drawn from the images made
    assert _class_colour_at(window, cached, 0, -3.0, 3.0)
    window.doc.move_points([i], [[-1.0, 3.5]])  # still on its class's side: no cross over it
    settle(window)
    for _ in range(2):  # marker by marker, then from a new image
        moved = window.canvas.grab().toImage()
        assert _class_colour_at(window, moved, 0, -1.0, 3.5) and not _class_colour_at(window, moved, 0, -3.0, 3.0)


def test_a_brush_stroke_through_many_points_makes_no_image_it_would_not_use(qtbot, window, monkeypatch):
    """Each move of a brush stroke adds points to a class: it is painted marker by marker, with no image made
    for one paint (0.1-0.4 ms a class a frame, and more with many points). Once the stroke ends, an image is
    made at the next paint, and the points, the stroke's too, are drawn from it where the axes say."""
    from PySide6.QtCore import QEvent, QObject, QPoint
    from PySide6.QtTest import QTest

    _many_points(window)
    renders = _render_count(window, monkeypatch)
    painted = []

    class Paints(QObject):
        def eventFilter(self, obj, ev):  # noqa: N802
            if ev.type() == QEvent.Type.Paint:
                painted.append(len(window.doc.X))
            return False

    paints = Paints()
    vp = window.canvas.viewport()
    vp.installEventFilter(paints)
    # the hand never rests within the stroke: a machine too busy for a dab in 150 ms rested it, and the exact frame
    # of the rest paints the points again unchanged (an image made, as it should be, but not the stroke's)
    window.canvas._rest.setInterval(60_000)
    key(qtbot, window, Qt.Key.Key_B)
    a = to_pixel(window, -2.0, 2.0)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for m in range(1, 6):
        QTest.qWait(40)  # pyqtgraph drops mouse moves closer than 10 ms; the brush paces its dabs
        qtbot.mouseMove(vp, QPoint(a.x() + 12 * m, a.y() + 5 * m))
        settle(window)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 60, a.y() + 25))
    settle(window)
    vp.removeEventFilter(paints)
    n = len(window.doc.X)
    assert len(set(painted)) >= 4 and renders == []  # painted with four numbers of points, with no image made
    k = int(window.doc.labels[n - 1])  # the class brushed
    assert n > 3001 and set(window.doc.labels[3001:]) == {k}
    for _ in range(2):  # the stroke ended: painted again, from an image of the brushed class made then
        image = window.canvas.grab().toImage()
        assert _class_colour_at(window, image, 0, -3.0, 3.0)
        assert _class_colour_at(window, image, k, *window.doc.X[n - 1])
    assert renders == [window.canvas.class_points[k]]


def test_a_drag_through_many_points_redraws_the_point_in_hand_and_not_the_rest(qtbot, window, monkeypatch):
    """While a hand drags one of many points, it leaves its class's image and is drawn where the hand is;
    the images of the others are not painted again at each move (that cost about 8 ms a frame at 10,000
    points). Let go, the point is back in its class, where it was left."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    i = _many_points(window)
    window.canvas.grab()
    window.canvas.grab()  # painted again unchanged: from images
    renders = _render_count(window, monkeypatch)
    vp = window.canvas.viewport()
    a = to_pixel(window, -3.0, 3.0)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for m in range(1, 6):
        QTest.qWait(15)  # pyqtgraph drops mouse moves closer than 10 ms
        qtbot.mouseMove(vp, QPoint(a.x() + 20 * m, a.y() + 6 * m))
        settle(window)
        image = window.canvas.grab().toImage()
        here = window.doc.X[i]
        assert _class_colour_at(window, image, 0, *here) and not _class_colour_at(window, image, 0, -3.0, 3.0)
        if m == 2:  # the point left its class, painted marker by marker, then into an image, once
            assert renders == [window.canvas.class_points[0]]
            renders.clear()
    assert renders == []  # then the moves drew from the images as they were
    end = QPoint(a.x() + 100, a.y() + 30)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)
    settle(window)
    assert len(window.canvas.carried.data) == 0
    image = window.canvas.grab().toImage()
    assert _class_colour_at(window, image, 0, *window.doc.X[i])  # back in its class's image


def test_an_undo_pressed_mid_drag_redraws_a_point_the_hand_does_not_carry(qtbot, window):
    """A drag's moves leave the classes' images alone while only the points in hand move (they are drawn apart).
    An undo pressed with the button held that moves another point (the command before the drag's) redraws it:
    drawn back where it was, and no longer where the undone move had put it. The undo of the drag's own move lets
    go of the point: moving on and letting go change nothing, and both undone steps can be redone (the hand's
    next move used to put the point back under it, a new edit that lost the redo)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    i = _many_points(window)
    window.doc.add_points([[-3.0, 1.5]], 0)
    j = len(window.doc.X) - 1
    window.doc.move_points([j], [[-2.0, 2.0]])  # the command the second undo takes back
    settle(window)
    assert _class_colour_at(window, window.canvas.grab().toImage(), 0, -2.0, 2.0)
    vp = window.canvas.viewport()
    a = to_pixel(window, *window.doc.X[i])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for m in range(1, 4):
        QTest.qWait(15)  # pyqtgraph drops mouse moves closer than 10 ms
        qtbot.mouseMove(vp, QPoint(a.x() + 15 * m, a.y() + 5 * m))
        settle(window)
    assert window.doc.X[i][0] > -3.0 + 0.05
    for _ in range(2):  # the drag's moves, then the move of the other point
        qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        settle(window)
    np.testing.assert_array_equal(window.doc.X[[i, j]], [[-3.0, 3.0], [-3.0, 1.5]])
    image = window.canvas.grab().toImage()
    assert _class_colour_at(window, image, 0, -3.0, 1.5) and not _class_colour_at(window, image, 0, -2.0, 2.0)
    # the undo let go of the point: the hand moving on and letting go changes nothing, and both steps can be redone
    for m in (4, 5):
        QTest.qWait(15)
        qtbot.mouseMove(vp, QPoint(a.x() + 15 * m, a.y() + 5 * m))
        settle(window)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 75, a.y() + 25))
    settle(window)
    np.testing.assert_array_equal(window.doc.X[[i, j]], [[-3.0, 3.0], [-3.0, 1.5]])
    assert len(window.canvas.carried.data) == 0
    for _ in range(2):
        key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    np.testing.assert_array_equal(window.doc.X[j], [-2.0, 2.0])
    assert window.doc.X[i][0] > -3.0 + 0.05  # where the drag had taken it before the undo


def _ink_at(window, image, x, y, r: int = 0) -> bool:
    """The plot's ink (its foreground colour: the means' crosses, the misclassified marks) is drawn at data point
    (x, y): on its pixel, or with ``r``, on at least 3 pixels of the (2r + 1)-pixel square round it."""
    from PySide6.QtGui import QColor

    p = to_pixel(window, x, y)
    ratio = image.devicePixelRatio()
    cx, cy = round(p.x() * ratio), round(p.y() * ratio)
    inked = [max(abs(a - b) for a, b in zip(QColor(image.pixel(cx + dx, cy + dy)).getRgb()[:3],
                                           window.canvas.style.foreground[:3])) <= 40
             for dx in range(-r, r + 1) for dy in range(-r, r + 1)]
    return sum(inked) >= (3 if r else 1)


def test_the_means_crosses_follow_a_dragged_point_and_a_changed_style(qtbot, settings_kept, window):
    """The crosses at the class means (drawn with the ellipses) move with the fit while a point is dragged: drawn
    where the new mean is, no longer where the old one was. They take a new style at once (the dark theme's ink)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    window.doc.add_points([[-2.0, 0.0], [2.0, 0.0], [0.0, 2.0], [0.0, -2.0]], 0)  # mean (0, 0), no point there
    window.doc.add_points([[6.0, 5.0], [8.0, 5.0], [7.0, 7.0]], 1)
    settle(window)
    assert "ellipses" in window.doc.layers
    assert _ink_at(window, window.canvas.grab().toImage(), 0.0, 0.0)
    vp = window.canvas.viewport()
    a = to_pixel(window, 2.0, 0.0)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for m in range(1, 5):
        QTest.qWait(15)  # pyqtgraph drops mouse moves closer than 10 ms
        b = to_pixel(window, 2.0 + m, 0.0)
        qtbot.mouseMove(vp, QPoint(b.x(), a.y()))
        settle(window)
    mean = window.doc.X[:4].mean(axis=0)
    assert mean[0] > 0.6  # the dragged point pulled the mean right by a quarter of its way
    image = window.canvas.grab().toImage()
    assert _ink_at(window, image, *mean) and not _ink_at(window, image, 0.0, 0.0)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(b.x(), a.y()))
    settle(window)
    ink = window.canvas.style.foreground
    menu_action(window, "Dark theme").trigger()  # the plot's ink turns light: the crosses with it
    settle(window)
    assert window.canvas.style.foreground != ink
    assert _ink_at(window, window.canvas.grab().toImage(), *mean)


def test_the_crosses_mark_the_points_each_new_fit_misclassifies(qtbot, window):
    """A cross (in the plot's ink) is drawn over each point the fit on screen misclassifies: over a point of the
    first class on the second's side, and gone from it once it is moved back (the fit then misclassifies
    none), wherever it is."""
    window.doc.add_points([[-2.0, 0.0], [-2.0, 1.0], [-1.0, 0.0], [-1.5, 0.5], [1.2, 0.8]], 0)
    window.doc.add_points([[2.0, 0.0], [2.0, 1.0], [1.0, 0.0], [1.5, 0.5], [2.5, -0.5]], 1)
    settle(window)
    p = 4
    assert not np.array_equal(window.result.fit.model.predict(window.doc.X[[p]]), [0])  # on the other side
    assert _ink_at(window, window.canvas.grab().toImage(), 1.2, 0.8, r=2)
    window.doc.move_points([p], [[-1.2, 0.8]])
    settle(window)
    assert not window.result.wrong.any()
    image = window.canvas.grab().toImage()
    assert not _ink_at(window, image, -1.2, 0.8, r=2) and not _ink_at(window, image, 1.2, 0.8, r=2)


@pytest.mark.parametrize("model", ["qda", "nb"])
def test_ellipses_past_the_views_edge_are_drawn_whole_after_a_model_switch_and_an_undo(qtbot, window, model):
    """A class whose ellipses reach past the edge of the view: after a model switch (pressed in the Model panel)
    and an undo (Edit > Undo), the canvas is the picture it draws afresh (the layer switched off and on), pixel for
    pixel. Kept as pixmaps of their visible part, the ellipses were drawn in stale pieces: cut along a straight
    line, some centred far from their mean."""
    from pressing import choose, press_button

    window.doc.add_class()
    far = [[-4.0, 4.2], [0.8, 3.0], [1.4, 2.5], [1.7, 3.3], [2.0, 1.6]]  # the first far out: ellipses past the edge
    for k, pts in enumerate(([[-3.0, -3.0], [-2.0, -2.5], [-2.5, -3.8], [-3.2, -2.2]], far,
                             [[3.0, -3.0], [2.5, -4.0], [3.8, -2.3], [2.8, -2.2]])):
        window.doc.add_points(pts, k)
    settle(window)
    i = 4  # the far point

    def fresh():
        box = window.panel.layer_boxes["ellipses"]
        for _ in range(2):
            press_button(qtbot, box)
            settle(window)
        return window.canvas.grab().toImage()

    def same(a, b) -> bool:
        d = np.abs(np.frombuffer(a.constBits(), np.uint8).astype(int) - np.frombuffer(b.constBits(), np.uint8).astype(int))
        return a.size() == b.size() and d.max() <= 2

    choose(qtbot, window.panel.model, window.panel.model.findData(model))
    settle(window)
    assert window.doc.model_name == model
    assert same(window.canvas.grab().toImage(), fresh())
    window.doc.move_points([i], [[-1.0, 2.0]])
    settle(window)
    menu_action(window, "Undo Move point").trigger()  # Edit > Undo
    settle(window)
    np.testing.assert_array_equal(window.doc.X[i], far[0])
    assert same(window.canvas.grab().toImage(), fresh())


def test_empty_marks_and_curves_cost_the_view_nothing_and_come_back_when_filled(qtbot, window):
    """An empty scatter has no extent and an empty curve is hidden, so the view passes them by at every paint;
    filled again, each is drawn where its data is."""
    from probviz.app.canvas import _set_line

    from PySide6.QtWidgets import QGraphicsItem

    nothing = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    canvas = window.canvas
    canvas.means.setData(pos=np.empty((0, 2)))
    assert canvas.means.boundingRect().isEmpty() and canvas.means.flags() & nothing
    canvas.means.setData(pos=[[1.0, 2.0], [3.0, -1.0]])
    r = canvas.means.boundingRect()
    assert r.left() <= 1.0 and r.right() >= 3.0 and r.top() <= -1.0 and r.bottom() >= 2.0
    assert not canvas.means.flags() & nothing
    x0, x1, y0, y1 = canvas.view_bounds()  # drawn where its point is: a mark of the plot's ink amid the background
    canvas.means.setData(pos=[[(x0 + x1) / 2, (y0 + y1) / 2]], size=22, brush="k", pen="k", symbol="s")
    canvas.means.clear()
    assert canvas.means.flags() & nothing
    canvas.means.addPoints(pos=[[(x0 + x1) / 2, (y0 + y1) / 2]], size=22, brush="k", pen="k", symbol="s")
    image = canvas.viewport().grab().toImage()
    at = to_pixel(window, (x0 + x1) / 2, (y0 + y1) / 2)
    assert QColor(image.pixel(at)).lightness() < 60
    _set_line(canvas.overlay, [])
    assert not canvas.overlay.isVisible()
    _set_line(canvas.overlay, [np.array([[-2.0, 0.0], [2.0, 0.0]])])
    assert canvas.overlay.isVisible()
    np.testing.assert_array_equal(canvas.overlay.getData()[0][:2], [-2.0, 2.0])


def test_marks_keep_their_extent_until_their_points_markers_or_view_change(qtbot, window):
    """The extent a scatter of marks gives the view (asked many times a paint) is kept, and is pyqtgraph's own
    after every change that moves it: the view zoomed and resized, bigger markers, points moved in place."""
    import pyqtgraph as pg

    from probviz.app.canvas import Marks
    from probviz.app.widgets import move_in_place

    canvas = window.canvas
    marks = Marks(pxMode=True)
    canvas.vb.addItem(marks)
    marks.setData(pos=[[1.0, 2.0], [3.0, -1.0]], size=10)
    settle(window)

    def same():
        got, want = marks.boundingRect(), pg.ScatterPlotItem.boundingRect(marks)
        assert np.allclose([got.left(), got.top(), got.width(), got.height()],
                           [want.left(), want.top(), want.width(), want.height()], rtol=1e-12), (got, want)

    same()
    canvas.vb.setRange(xRange=(-20, 20), yRange=(-20, 20), padding=0)  # a pixel is 4x as many units
    settle(window)
    same()
    window.resize(window.width() - 200, window.height())
    settle(window)
    same()
    marks.setData(pos=[[1.0, 2.0], [3.0, -1.0]], size=40)
    same()
    assert move_in_place(marks, np.array([[1.0, 2.0], [7.0, -5.0]]))
    same()


def test_a_drag_skips_pyqtgraphs_hover_search_and_hovering_still_gets_it(qtbot, window, monkeypatch):
    """Mid-drag pyqtgraph only tells items they may not take the hover, after searching the items near the
    cursor (2 ms a move): the canvas skips it while a button is held. Without a button, and at the release,
    the hover goes out as before."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    window.doc.add_points([[0.0, 0.0], [2.0, 2.0]], 0)
    settle(window)
    scene = window.canvas.scene()
    searched = []
    real = scene.itemsNearEvent
    monkeypatch.setattr(scene, "itemsNearEvent", lambda *a, **k: searched.append(1) or real(*a, **k))
    vp = window.canvas.viewport()
    a = to_pixel(window, 0.0, 0.0)
    QTest.qWait(15)
    qtbot.mouseMove(vp, QPoint(a.x() - 30, a.y()))  # hovering: searched
    assert searched
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    searched.clear()
    for m in range(1, 5):
        QTest.qWait(15)
        qtbot.mouseMove(vp, QPoint(a.x() + 10 * m, a.y()))
    assert window.doc.X[0][0] > 0.1  # the point was dragged
    assert len(searched) == 1  # pyqtgraph's drag delivery looks once, as the drag starts; the hover search never
    n = len(searched)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 40, a.y()))
    assert len(searched) > n  # the release hands the hover out again


def test_many_points_drawn_from_their_image_sit_on_the_screens_pixels_at_a_fractional_scale():
    """At a device pixel ratio of 1.5 the class images are aligned to the screen's pixels (aligned to the
    widget's, they were drawn half a pixel off and resampled): the same test, in a process of that scale."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "QT_SCALE_FACTOR": "1.5", "QT_QPA_PLATFORM": "offscreen"}
    test = f"{__file__}::test_points_painted_again_unchanged_are_drawn_from_an_image_where_the_axes_say"
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", test],
                         capture_output=True, text=True, timeout=300, env=env, cwd=os.path.dirname(__file__))
    assert out.returncode == 0, out.stdout[-2000:]


@pytest.mark.parametrize("held", [1, 2])
def test_delete_pressed_mid_drag_deletes_the_point_in_hand_and_leaves_the_others_alone(qtbot, window, held):
    """Delete with the mouse button held over the point being dragged deletes it. The drag then lets go: its
    moves neither move another point (the one that took the deleted one's index) nor raise (the last one's
    index is gone)."""
    import warnings

    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    points = np.array([[0.0, 0.0], [-2.0, 1.0], [2.0, 2.0]])
    window.doc.add_points(points, 0)
    settle(window)
    vp = window.canvas.viewport()
    a = to_pixel(window, *points[held])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
        QTest.qWait(15)
        qtbot.mouseMove(vp, QPoint(a.x() + 10, a.y()))
        settle(window)
        assert window.doc.X[held][0] > points[held][0] + 0.05 and len(window.canvas.carried.data) == 1
        qtbot.keyClick(window.canvas, Qt.Key.Key_Delete)
        settle(window)
        for m in (2, 3):
            QTest.qWait(15)
            qtbot.mouseMove(vp, QPoint(a.x() + 10 * m, a.y()))
            settle(window)
        qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 30, a.y()))
        settle(window)
    np.testing.assert_array_equal(window.doc.X, np.delete(points, held, axis=0))
    assert len(window.canvas.carried.data) == 0
    assert not [w for w in caught if "Error" in str(w.message)]  # how pyqtgraph reports a handler's exception


def test_a_point_under_the_legend_is_grabbed_by_the_hand_and_the_legend_stays_in_its_corner(qtbot, window):
    """The legend on screen lets clicks and drags through to the canvas: a point drawn under it is grabbed and
    dragged (pyqtgraph's legend took the press and was dragged out of its corner, the point stuck beneath)."""
    from guihelp import menu_action
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    window.doc.add_points([[-3.0, -3.0], [-2.0, -2.5], [3.0, 3.5], [2.5, 2.0]], 0)
    window.doc.add_points([[3.0, -3.0], [2.0, -2.5]], 1)
    settle(window)
    action = menu_action(window, "Legend")
    if not action.isChecked():
        action.trigger()
    settle(window)
    legend = window.canvas.legend
    assert legend is not None and legend.isVisible()
    box = legend.mapRectToScene(legend.boundingRect())
    centre = window.canvas.vb.mapSceneToView(box.center())
    window.doc.add_points([[centre.x(), centre.y()]], 1)  # a point under the legend
    settle(window)
    box = window.canvas.legend.mapRectToScene(window.canvas.legend.boundingRect())
    i = len(window.doc.X) - 1
    vp = window.canvas.viewport()
    a = to_pixel(window, *window.doc.X[i])
    assert box.contains(window.canvas.mapToScene(a))  # under the legend, where the hand presses
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for m in range(1, 5):
        QTest.qWait(15)
        qtbot.mouseMove(vp, QPoint(a.x() - 25 * m, a.y() + 15 * m))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() - 100, a.y() + 60))
    settle(window)
    assert np.hypot(*(window.doc.X[i] - [centre.x(), centre.y()])) > 0.5  # the point went with the hand
    assert tuple(window.canvas.legend.opts["offset"]) in ((10, 10), (-10, 10), (10, -10), (-10, -10))
    assert len(window.doc.X) == 7  # and the press added nothing


def test_the_legend_keeps_off_the_boundary_when_no_corner_has_points(qtbot, window):
    """Every corner free of points, the boundary through the top left and bottom right ones: View › Legend
    puts the legend where it hides none of the boundary (the dark line of the canvas grabbed without it)."""
    from probviz.data.dataset import Dataset

    X = np.array([[0.0, 0.5], [0.5, 0.0], [0.0, 0.0], [2.0, 2.0], [2.5, 1.5], [2.0, 1.5]])
    window.load(Dataset(X, np.array([0, 0, 0, 1, 1, 1]), ["a", "b"]))
    window.doc.set_layer("ellipses", False)  # the boundary and the points only
    window.doc.set_layer("heatmap", False)
    window.canvas.vb.setRange(xRange=(-1, 4), yRange=(-1, 3), padding=0)
    settle(window)

    def rgb():
        img = window.canvas.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        a = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine() // 4, 4)
        return a[:, :img.width(), 2::-1].astype(int)  # B, G, R, A in memory: R, G, B

    without = rgb()
    menu_action(window, "Legend").trigger()
    settle(window)
    shown = rgb()
    rows, cols = np.nonzero(np.abs(shown - without).sum(axis=2) > 60)
    top, bottom, left, right = rows.min(), rows.max(), cols.min(), cols.max()
    vb = window.canvas.vb.sceneBoundingRect()
    dark = np.all(without < 70, axis=2)
    dark[:, :int(vb.left()) + 2] = False  # the axes are not the boundary
    dark[int(vb.bottom()) - 2:, :] = False
    assert dark.sum() > 100  # the boundary is drawn
    assert not dark[top:bottom + 1, left:right + 1].any(), (top, bottom, left, right)
    assert window.canvas.legend.opts["offset"] in ((-10, 10), (10, -10))  # top right or bottom left


def test_a_view_within_one_unit_reads_plain_numbers(qtbot, window, tmp_path):
    """Data scaled to [0, 1] opened from a file: the axes read 0.2, 0.4 ... and their names stay "x" and "y";
    pyqtgraph scaled them to 200, 400 ... with "(x0.001)" beside the name. The E(w) plot's step axis too."""
    path = tmp_path / "unit.csv"
    rng = np.random.default_rng(0)
    rows = "\n".join(f"{x:.3f},{y:.3f},{k}" for (x, y), k in zip(rng.uniform(0.1, 0.8, (20, 2)), [0, 1] * 10))
    path.write_text("x,y,class\n" + rows + "\n")
    assert window.open_path(str(path))
    settle(window)
    for name in ("bottom", "left"):
        axis = window.canvas.plotItem.getAxis(name)
        assert "x0.001" not in axis.labelString() and axis.autoSIPrefixScale == 1.0, axis.labelString()
        lo, hi = axis.range
        spacing, values = axis.tickValues(lo, hi, 400)[0]  # the labelled ticks
        texts = axis.tickStrings(values, axis.autoSIPrefixScale, spacing)
        assert len(values) >= 2 and all(abs(float(t) - v) < 1e-9 for t, v in zip(texts, values)), texts
    step_axis = window.training.plot.plotItem.getAxis("bottom")
    assert step_axis.autoSIPrefix is False


def test_a_click_or_drag_on_an_axis_adds_and_moves_no_point(qtbot, window):
    """pyqtgraph's axes hand their mouse events to the plot: a click on the x axis's name, below the plot, added
    a point outside the view, unseen (a new user's trial). A click there adds nothing, and a drag along an axis
    moves no point; a click inside the plot still adds one."""
    from probviz.data.dataset import Dataset

    window.load(Dataset(np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]]), np.array([0, 1, 1]), ["a", "b"]))
    settle(window)
    canvas = window.canvas
    plot = canvas.mapFromScene(canvas.vb.sceneBoundingRect()).boundingRect()
    below = QPoint(plot.center().x(), plot.bottom() + 25)  # on the x axis's tick labels and name
    left = QPoint(plot.left() - 25, plot.center().y())  # on the y axis's
    assert canvas.itemAt(below) is not None
    before = window.doc.X.copy()
    for where in (below, left):
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=where)
        settle(window)
        qtbot.mousePress(canvas.viewport(), Qt.MouseButton.LeftButton, pos=where)
        for step in range(1, 6):
            qtbot.mouseMove(canvas.viewport(), where + QPoint(6 * step, -6 * step))
            QTest.qWait(15)
        qtbot.mouseRelease(canvas.viewport(), Qt.MouseButton.LeftButton, pos=where + QPoint(30, -30))
        settle(window)
    np.testing.assert_array_equal(window.doc.X, before)
    key(qtbot, window, Qt.Key.Key_B)  # the brush sprays points where it is dragged: not along an axis
    for where in (below, left):
        qtbot.mousePress(canvas.viewport(), Qt.MouseButton.LeftButton, pos=where)
        for step in range(1, 6):
            qtbot.mouseMove(canvas.viewport(), where + QPoint(6 * step, 0 if where is below else -6 * step))
            QTest.qWait(15)
        qtbot.mouseRelease(canvas.viewport(), Qt.MouseButton.LeftButton, pos=where + QPoint(30, -30))
        settle(window)
    np.testing.assert_array_equal(window.doc.X, before)
    key(qtbot, window, Qt.Key.Key_P)  # back to Add / move
    click(qtbot, window, 0.5, 0.5)
    assert len(window.doc.X) == 4


def test_lines_are_smooth_at_rest_and_drawn_fast_while_the_hand_moves(qtbot, window):
    """The boundary and the ellipses are antialiased when the hand rests (a new user's trial saw them stepped),
    and drawn aliased while a point is dragged (2-4 ms a frame). The canvas's own picture at rest differs from
    the same frame drawn aliased."""
    from probviz.app.canvas import Curve

    window.resize(1000, 700)
    window.open_example("fruit")
    window.doc.set_model("qda")
    settle(window)
    canvas = window.canvas
    curves = [item for item in canvas.vb.addedItems if isinstance(item, Curve) and item.isVisible()]
    assert curves and all(item.opts["antialias"] for item in curves)
    smooth = canvas.grab().toImage()
    for item in curves:
        item.opts["antialias"] = False
        item.update()
    stepped = canvas.grab().toImage()
    for item in curves:
        item.opts["antialias"] = True
    assert smooth != stepped
    start = to_pixel(window, *window.doc.X[0])
    qtbot.mousePress(canvas.viewport(), Qt.MouseButton.LeftButton, pos=start)
    drafts = []
    for step in range(1, 6):  # each move's frame made at once, as a drag's are (the hand never rests 150 ms here)
        QTest.qWait(12)  # pyqtgraph drops moves closer than 10 ms
        qtbot.mouseMove(canvas.viewport(), start + QPoint(5 * step, 3 * step))
        window.refitter.flush()
        if window.result.request.draft:
            drafts.append(not any(item.opts["antialias"] for item in curves))
    assert drafts and all(drafts)  # every draft frame drawn aliased
    qtbot.mouseRelease(canvas.viewport(), Qt.MouseButton.LeftButton, pos=start + QPoint(30, 18))
    settle(window)
    assert not window.result.request.draft and all(item.opts["antialias"] for item in curves)


@pytest.mark.parametrize("alpha", [255, 128, 0])
def test_a_picture_draws_each_pixel_where_the_axes_say_in_its_colour(qtbot, alpha):
    """The canvas's images (the heatmap, the decision regions, the shading, the density) are drawn in the
    painter's own formats: each of a 2 x 2 image's pixels fills its quarter of the plot (row 0 at the
    bottom), in its colour, opaque or blended over the background by its alpha."""
    import pyqtgraph as pg
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor

    from probviz.app.canvas import Picture

    colours = np.array([[(230, 20, 40), (10, 200, 60)], [(30, 40, 220), (200, 180, 10)]], np.uint8)
    image = np.dstack([colours, np.full((2, 2, 1), alpha, np.uint8)])
    plot = pg.PlotWidget(background=(255, 255, 255))
    qtbot.addWidget(plot)
    plot.resize(300, 300)
    for side in ("left", "bottom"):
        plot.hideAxis(side)
    item = Picture()
    plot.addItem(item)
    item.setImage(image, autoLevels=False, levels=(0, 255))
    item.setRect(0, 0, 2, 2)
    plot.setRange(xRange=(0, 2), yRange=(0, 2), padding=0)
    plot.show()
    qtbot.waitExposed(plot)
    shot = plot.grab().toImage()
    ratio = shot.devicePixelRatio()
    vb = plot.getPlotItem().vb
    for row in range(2):
        for col in range(2):
            at = plot.mapFromScene(vb.mapViewToScene(QPointF(col + 0.5, row + 0.5)))
            got = QColor(shot.pixel(round(at.x() * ratio), round(at.y() * ratio))).getRgb()[:3]
            want = colours[row, col] * (alpha / 255) + 255 * (1 - alpha / 255)
            assert np.abs(np.array(got) - want).max() <= 3, (row, col, got, want)


def _marks_plot(qtbot, pos, brushes):
    import pyqtgraph as pg

    from probviz.app.canvas import Marks

    plot = pg.PlotWidget(background=(255, 255, 255))
    qtbot.addWidget(plot)
    plot.resize(300, 300)
    for side in ("left", "bottom"):
        plot.hideAxis(side)
    marks = Marks(pxMode=True)
    plot.addItem(marks)
    marks.setData(pos=pos, brush=brushes, pen=None, size=14, symbol="s")
    plot.setRange(xRange=(0, 2), yRange=(0, 2), padding=0)
    plot.show()
    qtbot.waitExposed(plot)
    return plot, marks


def test_a_few_marks_are_stamped_where_the_axes_say_as_pyqtgraph_draws_them(qtbot, monkeypatch):
    """A scatter of a few marks (the means, the point in hand) is painted mark by mark: each square sits on its
    data point in its colour, the background around it untouched, pixel for pixel as pyqtgraph's own paint of
    many marks draws them; a mark at NaN is left out."""
    import pyqtgraph as pg
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor

    from probviz.app import canvas

    pos = np.array([(0.5, 0.5), (1.5, 0.5), (1.0, 1.5), (np.nan, 1.0)])
    colours = [(230, 20, 40), (10, 200, 60), (30, 40, 220), (0, 0, 0)]
    plot, marks = _marks_plot(qtbot, pos, [pg.mkBrush(*c) for c in colours])
    shot = plot.grab().toImage()
    vb = plot.getPlotItem().vb
    for (x, y), want in zip(pos[:3], colours):
        at = plot.mapFromScene(vb.mapViewToScene(QPointF(x, y)))
        for dx, dy in ((0, 0), (-4, 3), (4, -4)):  # inside the 14-px square
            assert QColor(shot.pixel(round(at.x()) + dx, round(at.y()) + dy)).getRgb()[:3] == want
        for dx, dy in ((-11, 0), (11, 0), (0, 11), (0, -11)):  # outside it
            assert QColor(shot.pixel(round(at.x()) + dx, round(at.y()) + dy)).getRgb()[:3] == (255, 255, 255)
    monkeypatch.setattr(canvas, "FEW_MARKS", 0)  # pyqtgraph's paint: the reference
    marks.update()
    reference = plot.grab().toImage()
    assert reference == shot


def test_the_probes_label_follows_its_ring_when_the_view_zooms(qtbot, window):
    """The label is placed in the plot's pixels: a zoom by the mouse wheel elsewhere moves the ring on the screen,
    and the label goes with it, beside the ring, not where the ring was."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    build_three_classes(qtbot, window)
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     to_pixel(window, 1.5, 1.0))
    settle(window)
    vb, label = window.canvas.vb, window.canvas.probe_label

    def off_ring():
        """How far the label's box is from the ring's centre, in pixels along each axis (0 inside)."""
        ring, box = vb.mapViewToScene(QPointF(*window.doc.probe)), label.sceneBoundingRect()
        return (max(box.left() - ring.x(), ring.x() - box.right(), 0.0),
                max(box.top() - ring.y(), ring.y() - box.bottom(), 0.0))
    near = off_ring()
    assert max(near) < 40
    moved_from = vb.mapViewToScene(QPointF(*window.doc.probe))
    at = to_pixel(window, -4, -4)
    viewport = window.canvas.viewport()
    wheel = QWheelEvent(QPointF(at), QPointF(viewport.mapToGlobal(at)), QPoint(0, 0), QPoint(0, -360),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(viewport, wheel)
    ring = vb.mapViewToScene(QPointF(*window.doc.probe))
    assert vb.sceneBoundingRect().contains(ring) and ring != moved_from
    assert np.allclose(off_ring(), near, atol=1.0)  # at once, before the view's new frame, beside the ring
    settle(window)
    assert np.allclose(off_ring(), near, atol=1.0)  # and after it


def test_the_probes_label_goes_where_it_hides_no_points(qtbot, window):
    """A cluster just above and to the right of the probe, where its label first goes (the plot's left half):
    the label took its place over the points. It goes to the diagonal that hides none, still beside the ring."""
    from PySide6.QtCore import QPointF

    from probviz.data.dataset import Dataset

    rng = np.random.default_rng(3)
    cluster = np.column_stack([rng.uniform(-1.9, -0.3, 25), rng.uniform(0.25, 0.9, 25)])  # above right of (-2, 0)
    X = np.vstack([cluster, [[3.0, -3.0], [3.5, -3.5], [4.0, -3.0]]])
    window.load(Dataset(X, np.r_[[0] * 25, [1] * 3], ["a", "b"]))
    window.canvas.vb.setRange(xRange=(-5, 5), yRange=(-5, 5), padding=0)
    settle(window)
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     to_pixel(window, -2.0, 0.0))
    settle(window)
    vb, label = window.canvas.vb, window.canvas.probe_label
    box = label.sceneBoundingRect()
    r = window.canvas.style.point_size / 2
    for x, y in X:
        at = vb.mapViewToScene(QPointF(x, y))
        assert not box.adjusted(-r, -r, r, r).contains(at), (x, y)  # no marker under the label
    ring = vb.mapViewToScene(QPointF(-2.0, 0.0))
    assert abs(box.center().x() - ring.x()) < box.width() and abs(box.center().y() - ring.y()) < 2 * box.height()


def test_the_arrows_stop_the_probe_at_the_views_edge_and_a_probe_out_of_sight_hides_its_label(qtbot, window):
    """Right pressed with the probe near the plot's right edge: it went on out of sight, its label sliding off the
    plot and cut ("p(peach|x) =" without its value). It stops at the edge, its label whole in the plot; a view
    moved away from it takes the label with it."""
    from PySide6.QtCore import QPointF

    build_three_classes(qtbot, window)
    x0, x1, y0, y1 = window.canvas.view_bounds()
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     to_pixel(window, x1 - 0.03 * (x1 - x0), 0.5))
    settle(window)
    for _ in range(5):
        key(qtbot, window, Qt.Key.Key_Right)
    settle(window)
    assert window.doc.probe[0] == x1  # at the edge, not beyond
    label, vb = window.canvas.probe_label, window.canvas.vb
    assert label.isVisible() and vb.sceneBoundingRect().contains(label.sceneBoundingRect())
    assert vb.sceneBoundingRect().contains(vb.mapViewToScene(QPointF(*window.doc.probe)))
    vb.setRange(xRange=(x0 - 20, x1 - 20), yRange=(y0, y1), padding=0)  # the view moved away (a pan)
    settle(window)
    assert not label.isVisible()


def _path_vertices(path) -> np.ndarray:
    return np.array([(path.elementAt(i).x, path.elementAt(i).y) for i in range(path.elementCount())])


def test_the_boundaries_outline_is_drawn_along_them_and_the_compared_models_lines(qtbot, window):
    """The light outline under the boundaries (so they read on any heatmap) follows every vertex of the frame's
    boundaries, after each change of them; with a compared model's lines, theirs too."""
    import pyqtgraph as pg

    from probviz.app.canvas import _joined

    assert window.open_path("example:fruit")
    settle(window)
    canvas = window.canvas

    def drawn(item):
        canvas.viewport().repaint()  # the paint asks each curve for its path
        return _path_vertices(item.getPath())

    def finite(lines):  # the path pyqtgraph makes of the lines
        xy = _joined(lines)
        return _path_vertices(pg.functions.arrayToQPath(xy[:, 0], xy[:, 1], connect="finite"))

    for name in ("lda", "qda"):
        window.doc.set_model(name)
        settle(window)
        lines = [b.xy for b in window.result.scene.boundaries]
        assert lines and not window.result.overlays
        np.testing.assert_array_equal(drawn(canvas.boundary_outline), finite(lines))
        np.testing.assert_array_equal(drawn(canvas.boundary), finite(lines))
    window.doc.view_state.set_compare("logistic")
    settle(window)
    overlays = [b.xy for over in window.result.overlays for b in over]
    lines = [b.xy for b in window.result.scene.boundaries]
    assert overlays
    np.testing.assert_array_equal(drawn(canvas.boundary_outline), finite(lines + overlays))
    np.testing.assert_array_equal(drawn(canvas.boundary), finite(lines))


def test_a_curves_extent_is_pyqtgraphs_after_the_view_zooms_and_the_window_resizes(qtbot, window):
    """A curve's extent (its data's bounds, out by its pen's half width in pixels) keeps a pixel's size until the
    view's transform changes: after new data, a zoom and a resize it is the rectangle pyqtgraph computes afresh."""
    import pyqtgraph as pg

    assert window.open_path("example:fruit")
    settle(window)
    canvas = window.canvas
    item = canvas.boundary

    def same_as_pyqtgraphs():
        ours = QRectF(item.boundingRect())
        item.invalidateBounds()
        theirs = QRectF(pg.PlotCurveItem.boundingRect(item))
        item.invalidateBounds()
        assert ours == theirs and ours.width() > 0, (ours, theirs)

    same_as_pyqtgraphs()
    item.setData([0.0, 1.0, 2.0], [0.0, 2.0, 1.0])
    same_as_pyqtgraphs()
    x0, x1, y0, y1 = canvas.view_bounds()
    canvas.vb.setRange(xRange=(x0, x0 + (x1 - x0) / 3), yRange=(y0, y1), padding=0)  # a pixel a third as wide
    settle(window)
    item.setData([0.0, 1.0, 2.0], [0.0, 2.0, 1.5])
    same_as_pyqtgraphs()
    window.resize(window.width() - 200, window.height() - 100)
    settle(window)
    item.setData([0.0, 1.0, 2.0], [0.0, 2.0, 1.25])
    same_as_pyqtgraphs()


@pytest.mark.parametrize("period,width", [(9.0, 2.2), (16.2, 3.96), (5.0, 1.0), (7.0, 4.0)])
def test_the_hatching_repeats_one_stripe_without_seams(qapp, period, width):
    """One-vs-rest's undecided regions are hatched with stripes rising to the right, round(period) pixels apart
    along x, alike wherever they fall on the screen: inside the region every pixel equals the one a period to
    its right, and the one up and to the right (x + 1, y - 1) within antialiasing, across the edges of the
    brush's tiles; the stripes cover about the share their width takes; outside the region nothing is drawn."""
    from PySide6.QtGui import QPainter, QPainterPath, QTransform

    from probviz.app.canvas import Hatching

    image = QImage(420, 320, QImage.Format.Format_RGB32)
    image.fill(QColor(255, 255, 255))
    item = Hatching()
    item.set_look(QColor(0, 0, 0, 120), period, width)
    path = QPainterPath()
    path.addRect(QRectF(1.0, 1.0, 8.0, 6.0))  # data coordinates: 40 x 40 pixels a unit, y up
    item.setPath(path)
    painter = QPainter(image)
    painter.setTransform(QTransform(40.0, 0.0, 0.0, -40.0, 13.0, 307.0))
    item.paint(painter, None)
    painter.end()
    gray = np.frombuffer(image.constBits(), np.uint8).reshape(320, 420, 4)[..., 0].astype(int)
    left, right, top, bottom = 13 + 40, 13 + 360, 307 - 280, 307 - 40  # the region's pixels
    inside = gray[top + 1:bottom - 1, left + 1:right - 1]
    n = round(period)
    np.testing.assert_array_equal(inside[:, n:], inside[:, :-n])
    assert np.abs(inside[:-1, 1:] - inside[1:, :-1]).max() <= 3  # (x + 1, y - 1) as (x, y), to antialiasing
    ink = 1 - inside[0, :n] / 255
    share = ink.sum() / n / (120 / 255)  # the stripes' ink in a period along x, as a share of full cover
    assert abs(share - width * np.sqrt(2) / n) < 0.12, share
    outside = np.ones(gray.shape, bool)
    outside[top - 1:bottom + 1, left - 1:right + 1] = False
    assert (gray[outside] == 255).all()
