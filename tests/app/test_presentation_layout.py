"""Presentation mode on a projector's screen (1024x768, 1366x768): F5, and F5 then F9. Nothing is cut:
no label's text is wider than the label, the caption is whole and at least as large as the plot's
text, the plot stays inside the canvas, and the legend hides at most a few points."""

import html
import re

import numpy as np
import pytest
from guihelp import present, settle
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetrics, QImage
from PySide6.QtWidgets import QDockWidget, QLabel

from probviz.app.widgets import ElidedLabel

PROMISED_PT = 20  # the plot's text in presentation mode: 11 pt times 1.8


def clipped_labels(win):
    """Labels of the window (not those of a dock tabbed away behind another) whose text does not fit."""
    out = []
    for label in win.findChildren(QLabel):
        if not label.isVisible() or not label.text() or isinstance(label, ElidedLabel):
            continue  # an ElidedLabel ends in "…" by design, its whole text in the tooltip
        dock = label.parentWidget()
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        if dock is not None and dock.visibleRegion().isEmpty():
            continue
        fm, room = QFontMetrics(label.font()), label.contentsRect().width()
        lines = label.text().split("\n")
        if label.wordWrap():  # every word fits the width, and every wrapped line fits the height
            widest = max(fm.horizontalAdvance(word) for line in lines for word in line.split(" "))
            too_low = label.heightForWidth(label.width()) > label.height() + 1
        else:
            widest, too_low = max(fm.horizontalAdvance(line) for line in lines), False
        if widest > room or too_low:
            out.append((label.text()[:40], widest, room, too_low))
    return out


def points_under_legend(win) -> int:
    legend = win.canvas.legend
    rect = legend.sceneBoundingRect()
    r = win.canvas.style.point_size / 2
    rect = rect.adjusted(-r, -r, r, r)
    vb = win.canvas.vb
    return sum(rect.contains(vb.mapViewToScene(QPointF(x, y))) for x, y in win.doc.X)


@pytest.mark.parametrize("example", ["fruit", "xor"])
@pytest.mark.parametrize("keys", [("F5",), ("F5", "F9")])
@pytest.mark.parametrize("size", [(1024, 768), (1366, 768)], ids=["1024", "1366"])
def test_presentation_mode_on_a_projector_cuts_nothing(qtbot, window, size, keys, example):
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QCursor
    from PySide6.QtWidgets import QApplication

    window.resize(*size)
    assert window.open_path(f"example:{example}")
    settle(window)
    # the teacher's hand is on the keyboard, the cursor off the plot: no readout under it shares the status line
    QCursor.setPos(window.mapToGlobal(QPoint(-40, -40)))
    QApplication.sendEvent(window.canvas, QEvent(QEvent.Type.Leave))
    for k in keys:
        qtbot.keyClick(window, getattr(Qt.Key, f"Key_{k}"))
        settle(window)
    qtbot.wait(50)  # the dock widens after Qt has laid it out
    settle(window)
    try:
        check_the_projector_screen(window, keys)
    finally:  # the application's font is the app's, not the window's: back to normal for the next test
        qtbot.keyClick(window, Qt.Key.Key_F5)


def check_the_projector_screen(window, keys):
    assert window.dock.isVisible() == ("F9" in keys)
    assert clipped_labels(window) == []
    if "F9" in keys:  # the panel does not scroll sideways either
        assert window.dock.widget().horizontalScrollBar().maximum() == 0
    title = window.canvas.plotItem.titleLabel
    assert float(re.match(r"([\d.]+)pt", title.opts["size"]).group(1)) >= PROMISED_PT
    shown = re.sub(r"<br>|\s+|·", " ", title.text)
    assert "…" not in title.text and "LDA (shared covariance)" in title.text and "layers: posterior" in shown
    canvas_rect = window.canvas.viewport().rect()
    text_rect = title.item.mapRectToScene(title.item.boundingRect())
    assert canvas_rect.left() <= text_rect.left() and text_rect.right() <= canvas_rect.right() + 1
    assert title.mapRectToScene(title.boundingRect()).height() >= text_rect.height() - 1  # not cut below
    plot = window.canvas.vb.sceneBoundingRect()
    assert plot.right() <= canvas_rect.right() + 1 and plot.width() > 0.5 * canvas_rect.width()
    X = window.doc.X  # every point in view
    x0, x1, y0, y1 = window.canvas.view_bounds()
    assert x0 <= X[:, 0].min() and X[:, 0].max() <= x1 and y0 <= X[:, 1].min() and X[:, 1].max() <= y1
    assert points_under_legend(window) <= 3
    legend_text = " ".join(item.text for _, item in window.canvas.legend.items)
    assert "LDA" not in legend_text  # the caption names the model; the legend need not
    status = window.message  # nor the status line, which then has room for the rest, whole
    first = window.doc.classes[0].name
    assert "LDA" not in status.text() and "accuracy" not in status.text()
    assert status.text().startswith(f"{first}: {window.doc.counts()[0]}, ")  # the points of each class first
    assert status.shown_text() == status.text(), (status.text(), status.shown_text())


def test_wide_tick_labels_do_not_push_the_plot_out_of_the_canvas(qtbot, window):
    """Zoomed far out, the left axis's labels widen: the caption used to keep its width and push the
    plot past the canvas's right edge."""
    window.resize(1024, 768)
    assert window.open_path("example:xor")
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    try:
        window.canvas.vb.setRange(xRange=(-5e5, 1e5), yRange=(-3e5, 3e5), padding=0)  # as a wheel zoom out does
        settle(window)
        canvas_rect = window.canvas.viewport().rect()
        assert window.canvas.vb.sceneBoundingRect().right() <= canvas_rect.right() + 1
        title = window.canvas.plotItem.titleLabel
        text_rect = title.item.mapRectToScene(title.item.boundingRect())
        assert canvas_rect.left() <= text_rect.left() and text_rect.right() <= canvas_rect.right() + 1
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)


@pytest.mark.parametrize("name", ["generative", "discriminant"])
def test_every_slide_of_the_built_in_decks_keeps_its_points_clear_of_the_legend(qtbot, window, name):
    """On a projector a compared model and the truth add boundary rows to the legend; with the models'
    full names ("LDA (shared covariance): boundary") it grew to half the plot's width and hid up to 66
    points of a slide. Brief names keep every slide's points in view."""
    from probviz.data import decks

    deck = decks.deck(name)
    present(qtbot, window, f"deck:{name}")
    try:
        for i in range(len(deck)):
            settle(window)
            assert window.slides.index == i
            assert points_under_legend(window) <= 3, f"slide {i + 1}: {deck.slides[i].title}"
            qtbot.keyClick(window, Qt.Key.Key_PageDown)
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)


def test_a_projector_legend_names_each_boundary_by_its_short_name(qtbot, window):
    """The legend's boundary rows on a projector: which line is which, in a few words (the caption gives
    the model's full name), and every model has its short name."""
    from probviz.figure_layout import SHORT_NAMES
    from probviz.models.registry import REGISTRY

    from probviz.data import decks

    assert set(SHORT_NAMES) == set(REGISTRY)
    slides = decks.deck("generative").slides
    truth = next(i for i, s in enumerate(slides) if "truth" in s.session.layers and s.session.compare == "lda")
    present(qtbot, window, "deck:generative", window.size().toTuple())
    try:
        for _ in range(truth):
            qtbot.keyClick(window, Qt.Key.Key_PageDown)
        settle(window)
        rows = [item.text for _, item in window.canvas.legend.items]
        assert slides[truth].session.model == "softmax"
        assert rows[-3:] == ["softmax boundary", "LDA boundary", "Bayes boundary"], rows
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    view = next(a for a in window.menuBar().actions() if a.text().replace("&", "") == "View").menu()
    next(a for a in view.actions() if a.text().replace("&", "") == "Legend").trigger()  # View > Legend
    settle(window)
    rows = [item.text for _, item in window.canvas.legend.items]  # at the desk the full names again
    assert {"Softmax regression: boundary", "LDA (shared covariance): boundary",
            "true model: Bayes boundary"} <= set(rows), rows


def test_esc_clears_the_selection_then_leaves_presentation_mode(qtbot, window):
    """Esc in F5: first what it always does (the selection cleared), then, nothing selected, the end of the
    presentation, as a slide show ends on Esc."""
    assert window.open_path("example:fruit")
    settle(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    assert window.presentation_action.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # Edit > Select all
    assert len(window.canvas.selection) == len(window.doc.X) > 0
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    settle(window)
    assert len(window.canvas.selection) == 0 and window.presentation_action.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    settle(window)
    assert not window.presentation_action.isChecked() and not window.canvas.plotItem.titleLabel.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_Escape)  # at the desk Esc only clears: F5 stays off
    settle(window)
    assert not window.presentation_action.isChecked()


def _ink_runs(row, background) -> list[int]:
    """Lengths of the runs of ink along a row of pixels (anything far from the background)."""
    ink = np.abs(row.astype(int) - np.array(background)[None]).sum(axis=1) > 150
    runs, n = [], 0
    for on in ink:
        if on:
            n += 1
        elif n:
            runs.append(n)
            n = 0
    return runs + ([n] if n else [])


def test_a_projector_legend_draws_solid_dashed_and_dash_dotted_apart(qtbot, window):
    """The legend's line samples on a projector, read from the canvas's pixels: the fit's line one stroke,
    the compared model's dashes, the truth's dash-dots (long and short strokes). pyqtgraph's 20-pixel
    sample held less than one period of the thick dashes, and all three looked like one bar."""
    from probviz.data import decks

    slides = decks.deck("generative").slides
    last = next(i for i, s in enumerate(slides) if "truth" in s.session.layers and s.session.compare)
    present(qtbot, window, "deck:generative")
    try:
        for _ in range(last):
            qtbot.keyClick(window, Qt.Key.Key_PageDown)
        settle(window)
        canvas = window.canvas
        image = canvas.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
        pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
        pixels = pixels[:, :3 * image.width()].reshape(image.height(), image.width(), 3)
        ratio = image.width() / canvas.width()
        bg = canvas.style.background
        runs = {}
        for sample, label in canvas.legend.items:
            if label.text.endswith("boundary"):
                r = canvas.mapFromScene(sample.mapRectToScene(sample.boundingRect())).boundingRect()
                y = int(round((r.top() + r.height() * 11 / 20) * ratio))
                row = pixels[y, int(r.left() * ratio) + 2:int(r.right() * ratio) - 2]
                runs[label.text] = _ink_runs(row, bg)
        fit, compared, truth = (runs[k] for k in ("softmax boundary", "LDA boundary", "Bayes boundary"))
        assert len(fit) == 1, runs  # one stroke
        assert len(compared) >= 3 and max(compared) < 2 * min(compared[1:-1] or compared), runs  # even dashes
        inner = truth[1:-1]
        assert len(truth) >= 4 and max(inner) > 2 * min(inner), runs  # long and short strokes
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)


def test_a_long_training_note_in_f5_leaves_step_play_and_reset_whole(qtbot, window):
    """F5 on a short screen with the Training panel: a step whose E(w) rose adds a warning to the readout, and
    the Step, Play and Reset buttons stay whole and pressable (they scrolled away with the settings above them,
    seen as a 3-pixel sliver at 1024x768 in a real window)."""
    from guihelp import present
    from PySide6.QtCore import QPoint, QRect

    present(qtbot, window, "example:fruit", size=(1024, 560))
    try:
        window.doc.set_model("logistic")
        t = window.training
        t.optimizer.setCurrentIndex(t.optimizer.findData("gd"))
        t.eta.spin.selectAll()
        qtbot.keyClicks(t.eta.spin, "100")  # too large a step: E(w) rises
        qtbot.keyClick(t.eta.spin, Qt.Key.Key_Return)
        settle(window)
        assert window.doc.view_state.training.eta == 100.0
        for _ in range(3):
            qtbot.keyClick(window, Qt.Key.Key_Period)
            settle(window)
        qtbot.wait(50)
        settle(window)
        assert "E(w) rose" in t.readout.text()
        for b in (t.step_button, t.play_button, t.reset_button):
            shown = b.visibleRegion().boundingRect()
            assert b.isVisible() and shown.height() >= b.sizeHint().height() - 1, (b.text(), shown)
            inside = QRect(b.mapTo(t, QPoint(0, 0)), b.size())
            assert t.rect().contains(inside), (b.text(), inside, t.rect())
        steps = window.doc.view_state.training.steps
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)
        assert window.doc.view_state.training.steps == steps + 1
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)


def _training_in_front(qtbot, window):
    """fruit with logistic regression at 1366 x 740, the Training panel in front, the window active (F5 and
    "." are the window's keys)."""
    window.resize(1366, 740)
    window.open_example("fruit")
    window.doc.set_model("logistic")
    window.training_dock.raise_()
    settle(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window.training


def test_the_training_panel_is_laid_out_alike_before_and_after_f5_twice(qtbot, window):
    """The Training panel, F5 (and "." for the panel with its larger text), F5 again, twice over: the
    settings sit right above Step, Play and Reset, with no gap (their box grew each round trip, the plot
    shrank), and the panel is laid out as before."""
    t = _training_in_front(qtbot, window)

    def layout():
        qtbot.wait(30)
        settle(window)
        scroll = t.controls_scroll
        width = scroll.width() - 2 * scroll.frameWidth()
        need = max(scroll.widget().heightForWidth(width), scroll.widget().sizeHint().height())
        return scroll.height() - 2 * scroll.frameWidth() - need, t.step_button.y(), t.plot.height()

    qtbot.keyClick(window, Qt.Key.Key_Period)  # a step: the readout has the lines it has at every step that follows
    gap, button_y, plot_h = before = layout()  # (at w = 0 it says why nothing is decided: a line more)
    assert gap <= 0, before  # the settings' box no taller than the settings
    for _ in range(2):
        qtbot.keyClick(window, Qt.Key.Key_F5)
        settle(window)
        qtbot.keyClick(window, Qt.Key.Key_Period)  # the Training panel, in presentation mode's text
        settle(window)
        qtbot.keyClick(window, Qt.Key.Key_F5)
        assert layout() == before


@pytest.mark.parametrize("legend", [True, False])
def test_leaving_presentation_mode_gives_back_the_legend_as_it_was(qtbot, window, legend):
    """View › Legend on, F5, F5: the legend was gone and its menu item unticked (presentation mode turned it on,
    and leaving turned it off whatever it had been). It is as it was before F5, drawn or not."""
    from guihelp import menu_action

    assert window.open_path("example:fruit")
    settle(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    if legend:
        menu_action(window, "Legend").trigger()
        settle(window)
    assert (window.canvas.legend is not None) == legend
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    assert window.canvas.legend is not None and window.canvas.legend.isVisible()  # presenting: a legend
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    assert menu_action(window, "Legend").isChecked() == legend
    assert (window.canvas.legend is not None and window.canvas.legend.isVisible()) == legend


def test_the_error_plots_names_and_legend_grow_with_presentation_text(qtbot, window):
    """F5 and "." (the Training panel in presentation mode's text, 1.6 times larger): the E(w) plot's axis
    names and legend grow with its tick labels; they used to stay at the desk's size. F5 again: back."""
    t = _training_in_front(qtbot, window)
    qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)  # a run: a curve and its legend
    settle(window)

    def heights():
        item = t.plot.plotItem
        names = [item.getAxis(n).label.boundingRect().height() for n in ("left", "bottom")]
        legend = [label.boundingRect().height() for _, label in item.legend.items]
        assert legend
        return names + legend

    before = heights()
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    qtbot.keyClick(window, Qt.Key.Key_Period)
    settle(window)
    try:
        grown = [after / b for after, b in zip(heights(), before)]
        assert all(g > 1.3 for g in grown), grown
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)
        settle(window)
    np.testing.assert_allclose(heights(), before, rtol=0.02)


def _title_ink_height(dock) -> int:
    """The height in pixels of the ink of a docked panel's title, read from the dock's own image: the rows
    above its widget, left of its float button."""
    from PySide6.QtWidgets import QAbstractButton

    image = dock.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    top = dock.widget().geometry().top()
    right = dock.findChild(QAbstractButton, "qt_dockwidget_floatbutton").geometry().left()
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    title = rows[:top, 2:right, :3].astype(int)
    ink = np.abs(title - title[1, 1]).sum(axis=2) > 150
    used = np.flatnonzero(ink.any(axis=1))
    assert len(used), "the title draws no text"
    return int(used[-1] - used[0] + 1)


def test_the_docked_panels_titles_grow_with_presentation_text(qtbot, window):
    """F5 makes every text larger, the docks' titles too (Qt kept them in the font of the dock's making, in a
    title bar made tall for the larger text). F9 brings the Model panel back while presenting."""
    window.resize(1366, 768)
    settle(window)
    before = _title_ink_height(window.dock)
    present(qtbot, window, "example:fruit")
    qtbot.keyClick(window, Qt.Key.Key_F9)
    settle(window)
    assert window.dock.isVisible()
    after = _title_ink_height(window.dock)
    assert after >= 1.35 * before, (before, after)  # the text grew by 1.6


def _under_legend(win) -> np.ndarray:
    """Which of the document's points the canvas legend hides (their marker's centre within its box, widened
    by the marker's radius), read from the scene."""
    rect = win.canvas.legend.sceneBoundingRect()
    r = win.canvas.style.point_size / 2
    rect = rect.adjusted(-r, -r, r, r)
    vb = win.canvas.vb
    return np.array([rect.contains(vb.mapViewToScene(QPointF(x, y))) for x, y in win.doc.X])


def _three_classes_with_a_legend(window, X, y) -> None:
    """Classes a, b and c at (X, y) in the window at 1366 x 768, the legend on (View > Legend)."""
    from guihelp import menu_action
    from probviz.data.dataset import Dataset

    window.resize(1366, 768)
    window.load(Dataset(X, y, ["a", "b", "c"]))
    settle(window)
    if not window.legend_action.isChecked():
        menu_action(window, "Legend").trigger()
    settle(window)


def test_the_legend_hides_no_class_whole_and_keeps_off_the_probes_label(qtbot, window):
    """Two classes of 20 in the middle; near each corner of the data a small cluster: top left the whole of a
    third class (3 points), top right 4 of the first class, bottom left 5 of the first, bottom right 6 of the
    second. The legend (View > Legend) hides fewer points top left, but all of a class: it goes top right.
    Then the probe, Shift+clicked where the legend now is, moves the legend off its label."""
    from PySide6.QtTest import QTest

    rng = np.random.default_rng(4)
    middle = [rng.normal(0, 0.6, (20, 2)), rng.normal(0, 0.6, (20, 2))]
    corners = {(-10, 10): (3, 2), (10, 10): (4, 0), (-10, -10): (5, 0), (10, -10): (6, 1)}
    X = np.vstack(middle + [np.array(c) + rng.uniform(-0.2, 0.2, (n, 2)) for c, (n, _) in corners.items()])
    y = np.r_[[0] * 20, [1] * 20, [k for n, k in corners.values() for _ in range(n)]]
    _three_classes_with_a_legend(window, X, y)
    hidden = _under_legend(window)
    assert hidden.any()  # the legend is over a cluster: some corner must give way
    for k in range(3):
        assert not hidden[y == k].all(), f"class {'abc'[k]} hidden whole"
    assert set(np.flatnonzero(hidden)) <= set(range(43, 47))  # the top right's four points of class a
    # the probe's label where the legend is: the legend moves
    key_rect = window.canvas.legend.sceneBoundingRect()
    vb = window.canvas.vb
    spot = vb.mapSceneToView(key_rect.center())
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     window.canvas.mapFromScene(vb.mapViewToScene(QPointF(spot.x(), spot.y()))))
    settle(window)
    QTest.qWait(20)
    assert window.doc.probe is not None
    label = window.canvas.probe_label
    assert label.isVisible()
    assert not window.canvas.legend.sceneBoundingRect().intersects(label.sceneBoundingRect())
    for k in range(3):
        assert not _under_legend(window)[y == k].all()


def test_the_legend_makes_way_when_a_class_is_dragged_under_it(qtbot, window):
    """A new user's trial: with the legend on, the points of a small class dragged into the legend's corner ended
    all under it, and it stayed (it moved only when its rows changed). It moves when the points do: never a
    class hidden whole. (Class c is one point, and a point of a sits among b's: the misclassified count, which
    the legend's rows show, stays the same throughout, so only the move itself can move the legend.)"""
    from guihelp import drag

    rng = np.random.default_rng(6)
    X = np.vstack([rng.normal((0, 0), 0.7, (20, 2)), rng.normal((3, 3), 0.7, (20, 2)), [[1.5, -1.0]], [[3.0, 3.0]]])
    y = np.r_[[0] * 20, [1] * 20, [2], [0]]
    _three_classes_with_a_legend(window, X, y)
    wrong = int(np.count_nonzero(window.result.fit.wrong))
    vb = window.canvas.vb
    spot = vb.mapSceneToView(window.canvas.legend.sceneBoundingRect().center())
    drag(qtbot, window, tuple(window.doc.X[40]), (spot.x(), spot.y()))  # c's point to the legend's middle
    settle(window)
    assert int(np.count_nonzero(window.result.fit.wrong)) == wrong
    assert not _under_legend(window)[40]


@pytest.mark.parametrize("corner", [(0.01, 0.5), (0.99, 0.5), (0.5, 0.99), (0.02, 0.98), (0.98, 0.02)])
def test_the_probes_label_stays_whole_inside_the_plot_in_f5_with_the_panel(qtbot, window, corner):
    """F5, then F9 (the panel beside the plot) at a projector's 1024 x 768: one-vs-rest logistic regression with
    three classes writes the probe's longest label (each class's link and the normalisation). Shift+clicked at the
    plot's left or right edge, its top or a corner, the label's box ran past the plot, its border cut off. It
    stays whole inside the plot wherever the probe is."""
    from guihelp import key
    from PySide6.QtTest import QTest

    from probviz.data.dataset import Dataset

    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(c, 0.5, (15, 2)) for c in ((0, 0), (3, 0), (1.5, 2.5))])
    window.load(Dataset(X, np.repeat([0, 1, 2], 15), ["apple", "peach", "pear"]))
    window.resize(1024, 768)
    settle(window)
    window.doc.set_model("logistic")
    settle(window)
    key(qtbot, window, Qt.Key.Key_F5)
    key(qtbot, window, Qt.Key.Key_F9)
    settle(window)
    assert window.canvas.isVisible() and window.dock.isVisible()
    vb = window.canvas.vb
    plot = vb.sceneBoundingRect()
    at = QPointF(plot.left() + corner[0] * plot.width(), plot.top() + corner[1] * plot.height())
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     window.canvas.mapFromScene(at))
    settle(window)
    QTest.qWait(20)
    label = window.canvas.probe_label
    assert window.doc.probe is not None and label.isVisible()
    box = label.sceneBoundingRect()
    assert plot.contains(box), (box, plot)
    ring = vb.mapViewToScene(QPointF(*window.doc.probe))
    r = window.canvas.probe_size / 2
    assert not box.intersects(QRectF(ring.x() - r, ring.y() - r, 2 * r, 2 * r))  # the ring stays in sight


def test_the_labs_tables_are_as_tall_as_their_rows_again_after_f5(qtbot, window):
    """F5 and F5 again with the Lab in front: the true model's table kept the rows of presentation mode's larger
    text (27 pixels where the desk's are 18), an empty band below them; the tables fit their rows again, row
    for row as before, each row as tall as its text."""
    from guihelp import show_lab

    window.open_example("fruit")
    window.resize(1366, 768)
    settle(window)
    show_lab(window)
    tables = (window.lab.truth_table, window.lab.table)

    def rows():
        return [(t.height(), [t.rowHeight(r) for r in range(t.rowCount())]) for t in tables]

    before = rows()
    line = QFontMetrics(window.lab.truth_table.font()).height()
    assert all(line <= h <= 2 * line for h in before[0][1]), (line, before)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    show_lab(window)
    qtbot.wait(20)
    assert rows() == before


def _title_lines(window) -> list[str]:
    """The caption's lines as drawn (the title label's text, its markup undone)."""
    text = window.canvas.plotItem.titleLabel.text
    return [html.unescape(line) for line in text.split("<br>")]


def test_a_training_steps_caption_in_f5_takes_few_lines_broken_at_its_commas(qtbot, window):
    """F5 at 1024 x 768 with the Training panel in front (".", a step): the caption said the model, optimizer
    and step, the accuracy and the layer set on four lines, "Gradient" and "descent" on two of them, and took a
    quarter of the canvas's height from the plot. The layer set's name now gives way first (the status line names
    it when L is pressed), and the label breaks after its commas, never inside the optimizer's name nor between
    "step" and its number, also as the window narrows."""
    present(qtbot, window, "example:fruit", size=(1024, 768))
    try:
        qtbot.keyClick(window, Qt.Key.Key_M)  # LDA -> ... -> logistic regression, as a teacher goes
        while window.doc.model_name != "logistic":
            qtbot.keyClick(window, Qt.Key.Key_M)
        for _ in range(2):
            qtbot.keyClick(window, Qt.Key.Key_Period)  # the Training panel comes to the front with the step
            settle(window)
        qtbot.wait(50)
        settle(window)
        assert window.training_dock.visibleRegion().isEmpty() is False
        acc = 100 * window.result.fit.summary["accuracy"]
        for width in (1024, 940, 860, 820):  # the canvas narrower, and narrower
            window.resize(width, 768)
            settle(window)
            lines = _title_lines(window)
            words = " ".join(lines)
            named = "Logistic regression, Gradient descent, step 2" in words or (
                width < 1024 and "Logistic regression, GD, step 2" in words)  # short, rather than a fourth line
            assert named and f"accuracy {acc:.1f}%" in words, (width, lines)
            assert len(lines) <= (2 if width == 1024 else 3), (width, lines)
            assert not any(line.endswith(("Gradient", "step")) for line in lines), (width, lines)  # after commas
            assert "layers" not in words, (width, words)  # it did not fit beside the rest on two lines
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)


def test_the_caption_names_no_layer_set_for_a_model_without_a_posterior(qtbot, window):
    """Fisher's discriminant gives no p(C_k|x): its F5 caption said "layers: posterior", a layer it does not
    draw. The probabilistic models keep the layer set's name where it fits."""
    present(qtbot, window, "example:fruit", size=(1366, 768))
    try:
        assert "layers: posterior" in " ".join(_title_lines(window))  # LDA: it fits
        from guihelp import menu_action

        from probviz.models import REGISTRY

        menu_action(window, REGISTRY["fisher"].label).trigger()
        settle(window)
        assert window.doc.model_name == "fisher"
        words = " ".join(_title_lines(window))
        assert REGISTRY["fisher"].label in words and "layers" not in words, words
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)


@pytest.mark.parametrize("size", [(1024, 700), (1024, 640), (1366, 600)], ids=["1024x700", "1024x640", "1366x600"])
def test_the_training_settings_in_f5_show_whole_rows_above_the_buttons(qtbot, window, size):
    """F5 with the Training panel: its settings scroll in a box above Step, Play and Reset, which showed the
    top of the next row cut through (the Start box's upper half) in a real window at 1024 x 768 (here, whose
    text is smaller, the same at lower heights). The box now ends under a whole row; the plot takes the rest."""
    from PySide6.QtWidgets import QFormLayout

    present(qtbot, window, "example:fruit", size=size)
    try:
        while window.doc.model_name != "logistic":
            qtbot.keyClick(window, Qt.Key.Key_M)
        qtbot.keyClick(window, Qt.Key.Key_Period)  # the Training panel comes to the front
        qtbot.wait(50)
        settle(window)
        t = window.training
        scroll = t.controls_scroll
        controls = scroll.widget()
        assert scroll.verticalScrollBar().maximum() > 0  # the settings do scroll here (else nothing is tested)
        shown = scroll.viewport().height()
        form = controls.findChild(QFormLayout)
        rows = [t.active] + [form.itemAt(i, QFormLayout.ItemRole.FieldRole).widget() for i in range(form.rowCount())]
        for w in rows:
            top = w.mapTo(controls, QPointF(0, 0).toPoint()).y()
            bottom = top + w.height()
            assert bottom <= shown or top >= shown, (w, top, bottom, shown)  # whole, or wholly below the box
        assert any(w.mapTo(controls, QPointF(0, 0).toPoint()).y() + w.height() <= shown for w in rows[1:])
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)


def test_a_bayesian_training_steps_caption_in_f5_keeps_to_three_lines(qtbot, window):
    """Logistic regression with the Bayesian view, trained by SGD, in F5 at 1024 x 768 with the Training panel:
    "Logistic regression, Bayesian, α = 1, Stochastic gradient descent, step 3" took four caption lines, one of
    them "α = 1," alone. Where the full names need more than three lines the optimizer is named short (SGD; the
    Training panel beside it names it in full), down to the narrowest window tried."""
    from pressing import choose, press_button

    from probviz.models import MODEL_NAMES

    window.resize(1024, 768)
    assert window.open_path("example:fruit")
    settle(window)
    choose(qtbot, window.panel.model, MODEL_NAMES.index("logistic"))
    press_button(qtbot, window.panel.param_widgets["bayes"])
    settle(window)
    assert window.doc.params["logistic"]["bayes"] is True
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    try:
        qtbot.keyClick(window, Qt.Key.Key_Period)  # the Training panel, then SGD chosen in it, then steps
        settle(window)
        t = window.training
        choose(qtbot, t.optimizer, t.optimizer.findData("sgd"))
        window.activateWindow()
        for _ in range(3):
            qtbot.keyClick(window, Qt.Key.Key_Period)
            settle(window)
        qtbot.wait(50)
        settle(window)
        assert t.view.optimizer == "sgd" and t.view.index == 3
        for width in (1024, 940, 860):
            window.resize(width, 768)
            settle(window)
            lines = _title_lines(window)
            words = " ".join(lines)
            assert len(lines) <= 3, (width, lines)
            assert "Logistic regression, Bayesian, α = 1," in words and "step 3" in words, (width, lines)
            assert "Stochastic gradient descent, step 3" in words or "SGD, step 3" in words, (width, lines)
            assert not any(line.rstrip(",").endswith(("α =", "step")) for line in lines), (width, lines)
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)


def test_f5_with_a_bayesian_sgd_step_leaves_the_window_its_height(qtbot, window):
    """At 1024 x 691 with logistic regression's Bayesian view and SGD, F5 and "." made the window 828 px tall
    (off a 768 px screen) and F5 again left it so: the readout's kept height (its most lines in a run) was a least
    height of the label, which the window's least height followed. The window keeps the height it was given."""
    from guihelp import click_dock_tab
    from pressing import choose, press_button

    from probviz.models import MODEL_NAMES

    window.resize(1024, 691)
    assert window.open_path("example:fruit")
    settle(window)
    choose(qtbot, window.panel.model, MODEL_NAMES.index("logistic"))
    press_button(qtbot, window.panel.param_widgets["bayes"])
    t = window.training
    click_dock_tab(qtbot, window, "Training")
    choose(qtbot, t.optimizer, t.optimizer.findData("sgd"))
    settle(window)
    height = window.height()
    assert height == 691
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    for _ in range(3):
        qtbot.keyClick(window, Qt.Key.Key_Period)
        settle(window)
    qtbot.wait(30)
    settle(window)
    assert t.view is not None and t.view.optimizer == "sgd" and t.view.index == 3
    assert window.height() == height, window.height()
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    qtbot.wait(30)
    settle(window)
    assert not window.presentation_action.isChecked() and window.height() == height, window.height()


def test_the_plot_and_its_axes_are_where_they_were_after_f5_twice(qtbot, window):
    """F5 and F5 again: the plot's box, the axes' room for their numbers and their names are as before (pyqtgraph
    keeps an axis's room for the largest numbers it has drawn, within 10 pixels: the presentation's text left the
    plot a few pixels shorter and the x axis's name nearer its numbers)."""
    assert window.open_path("example:fruit")
    settle(window)
    canvas = window.canvas

    def places():
        qtbot.wait(30)
        settle(window)
        canvas.viewport().repaint()  # (an axis takes the room its numbers need as it draws them)
        settle(window)
        bottom, left = canvas.plotItem.getAxis("bottom"), canvas.plotItem.getAxis("left")
        return (canvas.vb.sceneBoundingRect().getRect(), bottom.sceneBoundingRect().getRect(),
                left.sceneBoundingRect().getRect(), bottom.label.pos().y(), left.label.pos().x())

    before = places()
    for _ in range(2):
        qtbot.keyClick(window, Qt.Key.Key_F5)
        assert places() != before  # (larger text, a larger room)
        qtbot.keyClick(window, Qt.Key.Key_F5)
        assert places() == before


def test_the_model_panel_does_not_scroll_sideways_in_a_window_narrower_than_the_projector(qtbot, window):
    """On a 1024 x 768 projector the window opens 972 pixels wide (the window manager's frame around it). In
    presentation mode with the Model panel (F5, F9) the probe's line "a = ln p(x|apple)p(apple) = -4.905", kept
    whole, made the panel wider than its room and it scrolled sideways. The chain now breaks before its second
    "=", and the panel fits."""
    window.resize(972, 710)
    assert window.open_path("example:fruit")
    settle(window)
    try:
        for k in ("F5", "F9"):
            qtbot.keyClick(window, getattr(Qt.Key, f"Key_{k}"))
            settle(window)
        qtbot.wait(50)  # the dock widens after Qt has laid it out
        settle(window)
        assert window.dock.isVisible() and "ln p(x|apple)p(apple) = " in window.panel.probe.text.plain()
        assert window.dock.widget().horizontalScrollBar().maximum() == 0
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)
