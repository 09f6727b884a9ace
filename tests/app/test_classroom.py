"""The first hour of a lesson, through real clicks and keys: no surprises for a student or a teacher."""

import html
import re

import numpy as np
import pytest
from guihelp import assert_reads, key, menu_action, settle, to_pixel, type_into
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QKeySequence, QWheelEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from probviz.app.canvas import GRAB_TOLERANCE
from probviz.app.widgets import on_a_keyboard

FUZZ_CSV = __import__("pathlib").Path(__file__).parent.parent / "data" / "csv" / "good" / "plain.csv"
from probviz.layers import DEFAULT_LAYERS, THETA_MAX


def click_px(qtbot, win, p: QPoint):
    qtbot.mouseClick(win.canvas.viewport(), Qt.MouseButton.LeftButton, pos=p)
    settle(win)


def data_at(win, p: QPoint):
    v = win.canvas.vb.mapSceneToView(win.canvas.mapToScene(p))
    return v.x(), v.y()


def test_a_click_grabs_only_within_the_marker(qtbot, window):
    """A click just outside a marker's edge adds a point; just inside its radius plus the tolerance it
    does not. Markers drawn over the points (means, misclassified crosses, the selection ring, the
    probe) take no clicks: 60 clicks used to give 56 points."""
    X = np.array([[-3.0, -3.0], [-2.0, -3.5], [-2.5, -2.0], [3.0, 3.0], [2.0, 3.5], [2.5, 2.0], [0.5, 0.2]])
    window.doc.add_points(X[:3], 0)
    window.doc.add_points(X[3:], 1)
    window.canvas.set_selection([0, 1])
    window.doc.set_probe((0.0, -1.0))
    settle(window)
    assert window.result.scene.ellipses  # the means are drawn
    radius = window.canvas.style.point_size / 2 + GRAB_TOLERANCE
    n = len(window.doc.X)
    for target in [window.doc.X[6], window.doc.X[0], window.result.fit.model.means_[1], (0.0, -1.0)]:
        c = to_pixel(window, *target)
        click_px(qtbot, window, c + QPoint(int(radius) + 2, 0))  # outside: a new point
        assert len(window.doc.X) == n + 1, target
        n += 1
    before = window.doc.X.copy()
    c = to_pixel(window, *window.doc.X[6])
    click_px(qtbot, window, c + QPoint(int(radius) - 1, 0))  # inside: grabs, adds nothing
    np.testing.assert_array_equal(window.doc.X, before)


def test_sixty_clicks_make_sixty_points(qtbot, window):
    rng = np.random.default_rng(1)
    placed = []
    radius = window.canvas.style.point_size / 2 + GRAB_TOLERANCE
    while len(placed) < 60:
        p = QPoint(*rng.integers(40, 600, 2))
        if all((p - q).manhattanLength() > 2 * radius + 2 for q in placed):
            placed.append(p)
            click_px(qtbot, window, p)
    assert len(window.doc.X) == 60


# --- every document opens as it says ----------------------------------------------------------

def probe_label(win):
    return win.canvas.probe_label.textItem.toPlainText()


def test_examples_and_new_documents_do_not_inherit_settings(qtbot, window, monkeypatch):
    """LDA shrinkage 1 then File > Examples > fruit used to read p(apple|x) = 0.532, not the lesson's
    0.823; then M gave QDA's 0.937. An example opens as its author meant it; Ctrl+N with the defaults."""
    monkeypatch.setattr(window.files, "ask_save", lambda: QMessageBox.StandardButton.Discard)
    type_into(qtbot, window, window.panel.param_widgets["reg_covar"], "1")
    assert window.doc.params["lda"]["reg_covar"] == 1.0
    window.doc.set_layer("decision", True)
    window.doc.set_theta(0.7)
    example = next(a for a in window.findChildren(QAction) if a.text() == "fruit")
    example.trigger()
    settle(window)
    assert window.doc.model_name == "lda" and window.doc.params["lda"]["reg_covar"] == 0.0
    assert window.doc.layers == set(DEFAULT_LAYERS) and window.doc.theta == 0.0
    assert probe_label(window) == "p(apple|x) = 0.823"  # the lesson's number, as drawn
    assert window.panel.param_widgets["reg_covar"].value() == 0.0
    key(qtbot, window, Qt.Key.Key_M)  # M: the next model is QDA, with its own defaults
    assert window.doc.model_name == "qda" and window.doc.params["qda"]["reg_covar"] == 0.0
    window.doc.set_model("softmax")
    type_into(qtbot, window, window.panel.param_widgets["l2"], "3")
    key(qtbot, window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.model_name == "lda" and window.doc.params["softmax"]["l2"] == 0.01
    assert window.doc.title == "untitled" and len(window.doc.X) == 0


# --- numbers typed exactly, stepped by keys ------------------------------------------------------

def test_every_number_can_be_typed_and_stepped(qtbot, window):
    window.doc.add_points([[0, 0], [1, 0.5], [0.2, 1]], 0)
    window.doc.add_points([[3, 3], [2.5, 3.5], [3.5, 2]], 1)
    window.doc.set_model("logistic")
    settle(window)
    l2 = window.panel.param_widgets["l2"]
    type_into(qtbot, window, l2, "0.003")
    assert window.doc.params["logistic"]["l2"] == 0.003 and window.result.fit.model.l2 == 0.003
    qtbot.keyClick(l2.spin, Qt.Key.Key_Up)  # one step up from 0.003: up by a tenth-ish, not to 100
    settle(window)
    assert 0.003 < window.doc.params["logistic"]["l2"] <= 0.0035
    window.doc.set_model("lda")
    settle(window)
    shrink = window.panel.param_widgets["reg_covar"]
    type_into(qtbot, window, shrink, "0.125")
    assert window.doc.params["lda"]["reg_covar"] == 0.125
    qtbot.keyClick(shrink.spin, Qt.Key.Key_Down)
    assert window.doc.params["lda"]["reg_covar"] == pytest.approx(0.115)
    type_into(qtbot, window, window.panel.priors.fields[1], "0.25")
    assert window.doc.priors == pytest.approx([0.75, 0.25])
    window.doc.set_layer("decision", True)
    type_into(qtbot, window, window.panel.theta, "1")  # theta stops short of rejecting everything
    assert window.doc.theta == THETA_MAX and window.panel.theta.value() == THETA_MAX
    type_into(qtbot, window, window.brush_radius, "12")
    assert window.canvas.brush_radius == 12.0


def test_the_wheel_scrolls_the_panel_and_the_arrows_move_the_probe(qtbot, window):
    """The wheel over a prior's field used to change the priors (an undo step appeared); after a
    slider was touched the arrows moved it instead of the probe."""
    window.resize(1000, 500)  # a short window: the panel scrolls
    window.doc.add_points([[0, 0], [1, 0.5], [0.2, 1]], 0)
    window.doc.add_points([[3, 3], [2.5, 3.5], [3.5, 2]], 1)
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     to_pixel(window, 1.0, 1.0))  # Shift+click pins the probe
    settle(window)
    assert window.canvas.hasFocus()
    scroll = window.dock.widget().verticalScrollBar()
    assert scroll.maximum() > 0
    slider = window.panel.priors.fields[0].slider
    steps = window.doc.undo_stack.count()
    before = scroll.value()
    center = slider.rect().center()
    wheel = QWheelEvent(QPointF(center), QPointF(slider.mapToGlobal(center)), QPoint(0, 0), QPoint(0, -120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                        False)
    QApplication.sendEvent(slider, wheel)
    settle(window)
    assert window.doc.undo_stack.count() == steps and window.doc.priors is None
    assert scroll.value() > before  # the wheel scrolled the panel instead
    # drag the slider a little with the mouse, then press an arrow: the probe moves, not the slider
    qtbot.mousePress(slider, Qt.MouseButton.LeftButton, pos=center)
    qtbot.mouseMove(slider, center + QPoint(15, 0))
    qtbot.mouseRelease(slider, Qt.MouseButton.LeftButton, pos=center + QPoint(15, 0))
    settle(window)
    priors, probe = list(window.doc.priors), window.doc.probe
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Right)
    settle(window)
    assert window.doc.probe[0] > probe[0] and window.doc.priors == priors


def test_messages_name_classes_as_the_table_does(qtbot, window):
    """Classes 1 and 2 (the default names): a lone point of class 2 is "class 2", not "class 1"."""
    window.doc.add_points([[0, 0], [1, 0.4], [0.3, 1.2]], 0)
    window.doc.add_points([[3, 3]], 1)
    window.doc.set_model("qda")
    settle(window)
    text = window.message.text()
    assert "covariance of class 2 has a single point" in text and "class 1 has" not in text
    assert "class 0" not in text


def test_the_status_line_keeps_its_parts_apart_and_current(qtbot, window):
    for k, pts in enumerate(([[-3, -3], [-2, -3.5], [-2.5, -2]], [[3, 3], [2, 3.5], [2.5, 2]],
                             [[3, -3], [2, -3.5], [2.5, -2]])):
        for p in pts:
            key(qtbot, window, getattr(Qt.Key, f"Key_{k + 1}"))
            qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, pos=to_pixel(window, *p))
            settle(window)
    window.doc.set_model("qda")
    settle(window)
    qtbot.mouseMove(window.canvas.viewport(), to_pixel(window, 0.5, 0.5))
    settle(window)
    assert "p(3|x)" in window.hover.text()
    msg, hover = window.message, window.hover
    assert msg.geometry().right() < hover.geometry().left()  # side by side, never on top of each other
    assert msg.shown_text().endswith("…") or msg.shown_text() == msg.text()
    assert msg.toolTip() == msg.text()  # the whole message, when it had to be cut
    while window.doc.undo_stack.canUndo():
        key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(window.doc.X) == 0
    assert "p(" not in window.hover.text()  # no readout of classes that are gone


def test_a_reopened_session_shows_its_hand_set_priors_and_its_name(qtbot, window, monkeypatch, tmp_path):
    monkeypatch.setattr(window.files, "ask_save", lambda: QMessageBox.StandardButton.Discard)
    assert window.open_path("example:fruit")
    settle(window)
    type_into(qtbot, window, window.panel.priors.fields[0], "0.4")
    path = str(tmp_path / "lesson.probviz")
    assert window.files._write(path)
    key(qtbot, window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert window.doc.priors is None
    assert window.open_path(path)
    settle(window)
    priors = window.panel.priors
    assert [round(f.value(), 3) for f in priors.fields[:2]] == [0.4, 0.6]
    assert priors.title().endswith("(set by hand)") and priors.reset.isEnabled()
    np.testing.assert_allclose(window.result.fit.model.priors_, [0.4, 0.6])
    assert window.windowTitle().startswith("probviz — lesson.probviz")
    assert window.open_path(str(FUZZ_CSV))
    settle(window)
    assert window.windowTitle().startswith("probviz — plain.csv")


# --- a teacher's screen ---------------------------------------------------------------------

def test_presentation_mode_makes_everything_large_and_captions_the_plot(qtbot, window, monkeypatch):
    assert window.open_path("example:fruit")
    window.resize(760, 560)  # a small projector window: the caption must fit, not squeeze the plot
    settle(window)
    base = window.menuBar().font().pointSizeF()
    status = window.message.font().pointSizeF()
    key(qtbot, window, Qt.Key.Key_F5)
    assert window.menuBar().font().pointSizeF() >= 1.5 * base
    assert window.message.font().pointSizeF() >= 1.5 * status
    assert window.panel.priors.fields[0].spin.font().pointSizeF() >= 1.5 * base  # the panel too, if shown
    caption = window.canvas.plotItem.titleLabel.text
    acc = 100 * window.result.fit.summary["accuracy"]
    assert "LDA (shared covariance)" in caption and f"accuracy {acc:.1f}%" in caption
    assert "layers: posterior" in caption
    view = window.canvas.view_bounds()
    for name in ("inference", "decision", "class-conditionals"):
        key(qtbot, window, Qt.Key.Key_L)  # the next layer set is named in the caption
        assert f"layers: {html.escape(name)}" in window.canvas.plotItem.titleLabel.text
        # the caption fits: the plot keeps its view and stays inside the canvas
        assert window.canvas.view_bounds() == pytest.approx(view)
        assert window.canvas.plotItem.sceneBoundingRect().right() <= window.canvas.viewport().width() + 1
    # the legend sits where it hides (almost) no points
    rect = window.canvas.legend.sceneBoundingRect()
    hidden = sum(rect.contains(window.canvas.vb.mapViewToScene(QPointF(x, y))) for x, y in window.doc.X)
    assert hidden <= 3
    key(qtbot, window, Qt.Key.Key_F5)
    assert window.menuBar().font().pointSizeF() == base and not window.canvas.plotItem.titleLabel.isVisible()


def test_help_lists_every_key_the_window_knows(qtbot, window, monkeypatch):
    shown = []
    monkeypatch.setattr("probviz.app.main_window.ShortcutsDialog.exec", lambda self: shown.append(self.rows()))
    key(qtbot, window, Qt.Key.Key_F1)
    (rows,) = shown
    listed = " | ".join(k for k, _ in rows)
    for a in window.findChildren(QAction):
        for seq in a.shortcuts():  # Qt's extra bindings (F14, a multimedia keyboard's Undo key) are left out
            if on_a_keyboard(seq) and a.isVisible():
                assert seq.toString(QKeySequence.SequenceFormat.NativeText) in listed, a.text()
    for must in ("F5", "Ctrl+Z", "M", "L", "F1", "1-9, 0"):
        assert must in listed, must


def test_window_size_panel_and_export_folder_are_remembered(qtbot, window, tmp_path):
    # the Model panel on the left, the others closed (with one on each side, each as wide as its controls at the
    # least, the window is wider than the offscreen screen's 800 pixels, and a saved geometry is kept on the screen)
    for dock in (window.training_dock, window.lab_dock, window.weights_dock):
        dock.hide()
    window.resize(700, 500)
    window.dock.setFloating(False)
    window.removeDockWidget(window.dock)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, window.dock)
    window.dock.show()
    window.files.settings.setValue("export_folder", str(tmp_path))
    window.save_settings()
    from probviz.app.main_window import MainWindow
    again = MainWindow()
    qtbot.addWidget(again, before_close_func=lambda w: w.doc.mark_saved())
    assert (again.width(), again.height()) == (700, 500)
    assert again.dockWidgetArea(again.dock) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert again.files.export_folder() == str(tmp_path)


@pytest.mark.parametrize("dark", [True, False])
def test_the_first_start_follows_the_desktops_light_or_dark(qtbot, monkeypatch, dark):
    """No choice saved yet: the desktop's preference decides; once chosen, the choice does."""
    from PySide6.QtCore import QSettings

    from probviz.app.main_window import MainWindow

    QSettings().remove("dark")
    monkeypatch.setattr("probviz.app.main_window.desktop_prefers_dark", lambda: dark)
    try:
        win = MainWindow()
        qtbot.addWidget(win, before_close_func=lambda w: w.doc.mark_saved())
        assert win.dark_action.isChecked() == dark and win.canvas.style.dark == dark
        win.set_dark(not dark)  # chosen: remembered over the desktop's preference
        again = MainWindow()
        qtbot.addWidget(again, before_close_func=lambda w: w.doc.mark_saved())
        assert again.dark_action.isChecked() == (not dark)
    finally:
        QSettings().remove("dark")
        from probviz.app.theme import apply_theme
        apply_theme(False)


def test_formulas_wrap_between_terms_never_inside_one(qtbot, window):
    """The probe panel used to break "p(1|" from "x)"; a narrow panel wraps between terms instead. A relation
    keeps both its sides; a chain of them (a = ln p(x|C)p(C) = -4.9) may go on on the next line with its second
    sign, after a line that holds its first relation whole."""
    assert window.open_path("example:fruit")
    settle(window)
    window.dock.setMinimumWidth(0)
    window.resizeDocks([window.dock], [300], Qt.Orientation.Horizontal)
    settle(window)
    for label in (window.panel.probe.text, window.panel.params.text, window.panel.lesson):
        layout_lines = wrapped_lines(label)
        assert len(layout_lines) > len(label.text().split("\n")), "the test needs a panel narrow enough to wrap"
        for before, line in zip([""] + layout_lines, layout_lines):
            assert not line.rstrip().endswith(("|", "(", "=", ",\u00a0")), line
            assert not line.lstrip().startswith(("x)", "|", ")")), line
            if line.lstrip().startswith("="):  # a chain's next relation, after one whole relation
                assert re.search("\u00a0=\u00a0\\S", before), (before, line)


def test_a_log_stays_with_its_argument_at_every_width(qtbot, window):
    """Three classes, LDA: the probe's lines read "a = ln p(x|1)p(1) = -21.538"; a new user saw "a = ln" end
    one line and "p(x|1)p(1) = -21.538" begin the next. At every width of the panel the ln keeps its argument."""
    from guihelp import click, key

    for k, (x, y) in zip((Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3), ((-2, -1), (2, 0.5), (0, 3))):
        key(qtbot, window, k)
        for dx, dy in ((0, 0), (0.6, 0.3), (-0.4, 0.5)):
            click(qtbot, window, x + dx, y + dy)
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     to_pixel(window, 0.5, 1.0))
    settle(window)
    label = window.panel.probe.text
    assert " ln p(x|1)p(1) = " in label.plain()
    window.dock.setMinimumWidth(0)
    wrapped = 0
    for width in range(240, 520, 12):
        window.resizeDocks([window.dock], [width], Qt.Orientation.Horizontal)
        settle(window)
        lines = wrapped_lines(label)
        wrapped += len(lines) > len(label.text().split("\n"))
        assert not any(re.search(r"(^|\W)ln$", line.rstrip()) for line in lines), (width, lines)
    assert wrapped >= 5  # the test saw the lines wrap


def wrapped_lines(label):
    """The lines a QLabel shows, laid out at its width the way Qt lays them out."""
    from PySide6.QtGui import QTextLayout, QTextOption

    out = []
    width = label.contentsRect().width()
    for paragraph in label.text().split("\n"):
        layout = QTextLayout(paragraph, label.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        layout.beginLayout()
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            out.append(paragraph[line.textStart():line.textStart() + line.textLength()])
        layout.endLayout()
    return out


def test_a_refused_class_name_leaves_the_old_one(qtbot, window):
    window.doc.add_points([[0, 0]], 0)
    settle(window)
    item = window.panel.classes.item(0, 1)
    item.setText("x" * 300)  # as if typed into the table
    settle(window)
    assert window.doc.classes[0].name == "1" and window.panel.classes.item(0, 1).text() == "1"


def test_ending_in_presentation_mode_does_not_hide_the_panel_next_time(qtbot, window):
    from probviz.app.main_window import MainWindow

    window.save_settings()
    key(qtbot, window, Qt.Key.Key_F5)
    assert not window.dock.isVisible()
    window.save_settings()  # as when the app is closed, or ended by a signal, while presenting
    again = MainWindow()
    qtbot.addWidget(again, before_close_func=lambda w: w.doc.mark_saved())
    again.show()
    assert again.dock.isVisible()


def dock_state(win):
    """Which docks are open, which tab is in front, and how wide the dock area is."""
    from PySide6.QtWidgets import QTabBar

    docks = (win.dock, win.training_dock, win.lab_dock)
    shown = [tb for tb in win.findChildren(QTabBar)  # Qt parks an unused tab bar outside the window
             if tb.parent() is win and tb.isVisible() and win.rect().contains(tb.geometry())]
    tabs = [(tb.tabText(i), i == tb.currentIndex()) for tb in shown for i in range(tb.count())]
    return ({d.objectName(): d.toggleViewAction().isChecked() for d in docks}, tabs, win.dock.width())


def test_presentation_twice_and_a_restart_leave_the_docks_as_they_were(qtbot, window):
    """F5 twice used to close the Training and Lab tabs, and the saved layout kept them closed."""
    from probviz.app.main_window import MainWindow

    assert window.open_path("example:fruit")
    window.lab_dock.raise_()  # not the default tab in front, and not the default width
    window.resizeDocks([window.dock], [420], Qt.Orientation.Horizontal)
    window.canvas.vb.setRange(xRange=(2, 6), yRange=(2, 6), padding=0)  # panned away from the data
    settle(window)
    before, view = dock_state(window), window.canvas.view_bounds()
    assert before[0] == {"panel": True, "training": True, "lab": True}
    assert ("Lab", True) in before[1] and ("Training", False) in before[1]
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    assert dock_state(window)[:2] == ({"panel": False, "training": False, "lab": False}, [])
    X = window.doc.X  # re-framed: the data fill the larger plot
    x0, x1, y0, y1 = window.canvas.view_bounds()
    assert x0 <= X[:, 0].min() and X[:, 0].max() <= x1 and y0 <= X[:, 1].min() and X[:, 1].max() <= y1
    assert window.canvas.view_bounds() != pytest.approx(view)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    assert dock_state(window) == before
    assert window.canvas.view_bounds() == pytest.approx(view)
    window.save_settings()  # a restart
    again = MainWindow()
    qtbot.addWidget(again, before_close_func=lambda w: w.doc.mark_saved())
    again.show()
    qtbot.waitExposed(again)
    assert dock_state(again)[:2] == before[:2]


def test_the_theta_box_says_by_its_range_where_theta_stops(qtbot, window):
    """θ stops at 0.99 (1 would reject everything): the box and its slider end there, not at 1.00."""
    window.doc.set_layer("decision", True)
    settle(window)
    theta = window.panel.theta
    assert theta.spin.maximum() == 0.99
    theta.slider.setFocus()
    qtbot.keyClick(theta.slider, Qt.Key.Key_End)  # the slider's far end
    settle(window)
    assert window.doc.theta == 0.99 and theta.spin.text() == "0.99"
    assert theta.slider.value() == theta.slider.maximum()  # and it stays at the end it was pushed to
    type_into(qtbot, window, theta, "0.5")
    type_into(qtbot, window, theta, "1.00")  # beyond the range: its end, not the old value
    assert window.doc.theta == 0.99 and theta.spin.text() == "0.99"


def example_action(win, name):
    file_menu = next(a.menu() for a in win.menuBar().actions() if a.text() == "&File")
    examples_menu = next(a.menu() for a in file_menu.actions() if a.text() == "&Examples")
    return next(a for a in examples_menu.actions() if a.text() == name)


def test_trying_models_and_layers_on_an_example_is_not_work_to_save(qtbot, window, monkeypatch):
    """M and L on a built-in example used to make every switch of example ask "Save the changes…?"."""
    asked = []

    def answer(box):
        asked.append(box.text())
        return QMessageBox.StandardButton.Discard
    monkeypatch.setattr(QMessageBox, "exec", answer)
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *a: answer(QMessageBox(
        QMessageBox.Icon.Question, title, text)))
    example_action(window, "fruit").trigger()
    settle(window)
    key(qtbot, window, Qt.Key.Key_M)
    key(qtbot, window, Qt.Key.Key_L)
    assert window.doc.model_name != "lda" and not window.doc.undo_stack.isClean()
    example_action(window, "xor").trigger()
    settle(window)
    assert asked == [] and window.doc.title == "xor"
    click_px(qtbot, window, to_pixel(window, 0.1, 0.2))  # the example's data edited: now it is work
    example_action(window, "circles").trigger()
    settle(window)
    assert len(asked) == 1 and "“xor”" in asked[0] and window.doc.title == "circles"


def test_the_readout_under_a_moving_cursor_leaves_the_rest_of_the_status_line_alone(qtbot, window):
    """The mouse moves over the canvas and the readout under it changes at every move. The status line beside it
    is neither moved nor repainted: a relayout of the bar repainted all of it at every move (the message, the busy
    sign, the size grip), which the real window's drag paid for. Its width grows in steps, so only a
    longer text moves the message, a few times. The readout still says where the cursor is, and when it leaves
    the canvas the readout empties and gives its width back to the message."""
    from PySide6.QtCore import QEvent, QObject

    assert window.open_path("example:fruit")
    settle(window)
    vp = window.canvas.viewport()
    painted = []

    class Paints(QObject):
        def eventFilter(self, obj, ev):  # noqa: N802
            if ev.type() == QEvent.Type.Paint:
                painted.append(obj)
            return False

    watch = Paints()
    for w in (window.message, window.busy_label):
        w.installEventFilter(watch)
    start = QPoint(vp.width() // 3, vp.height() // 3)
    qtbot.mouseMove(vp, start)
    settle(window)
    qtbot.mouseMove(vp, start + QPoint(37, 23))  # the readout's width settles in a move or two
    settle(window)
    painted.clear()
    texts, places = set(), [window.message.geometry()]
    for i in range(30):
        here = start + QPoint(3 * i, 2 * i)
        qtbot.wait(12)  # moves closer than 10 ms are held back, then delivered
        qtbot.mouseMove(vp, here)
        qtbot.wait(12)
        settle(window)
        x = window.canvas.vb.mapSceneToView(window.canvas.mapToScene(here))
        assert_reads(window, x)
        texts.add(window.hover.text())
        if window.message.geometry() != places[-1]:
            places.append(window.message.geometry())
    assert len(texts) > 20  # it did change at the moves
    assert len(places) <= 3, places  # the readout's width grows in steps, a few times at most
    assert len(painted) <= 2 * (len(places) - 1), painted  # repainted only when the bar is laid out again
    assert all(p.width() < places[0].width() for p in places[1:])  # only ever gives the readout more room
    for w in (window.message, window.busy_label):
        w.removeEventFilter(watch)
    wide = window.message.width()
    qtbot.mouseMove(window.statusBar(), QPoint(5, 5))  # off the canvas: the readout empties
    settle(window)
    assert window.hover.text() == ""
    assert window.message.width() > wide


def test_l_says_why_a_discriminative_model_draws_no_class_conditionals(qtbot, window):
    """L's fourth set, the class-conditionals p(x|C_k), drew the points alone under logistic regression, with
    nothing saying why. Its message now says the model has no p(x|C_k); under LDA it does not."""
    from probviz.models import REGISTRY

    assert window.open_path("example:fruit")
    settle(window)
    menu_action(window, REGISTRY["logistic"].label).trigger()
    settle(window)
    said, conditionals = [], frozenset({"ellipses", "density", "points"})
    while window.doc.layers != conditionals and len(said) < 4:
        key(qtbot, window, Qt.Key.Key_L)
        settle(window)
        said.append(window.message.text())
    assert window.doc.layers == conditionals
    assert "no p(x|C_k) to draw" in said[-1] and "Logistic regression" in said[-1], said[-1]
    assert not any("no p(x|C_k)" in s for s in said[:-1])  # the sets it can draw say nothing of it
    menu_action(window, REGISTRY["lda"].label).trigger()
    settle(window)
    for _ in range(4):  # round to the same set again
        key(qtbot, window, Qt.Key.Key_L)
        settle(window)
    assert window.doc.layers == conditionals
    assert "Layers: class-conditionals" in window.message.text() and "no p(x|C_k)" not in window.message.text()


def test_a_long_readout_under_the_cursor_leaves_the_status_line_its_counts(qtbot, window):
    """Five classes with long names at a projector's width: the readout under the cursor (five posteriors) is
    longer than the bar. It takes at most 55% of the window's width, cut with "…" (whole in its tooltip); the
    status line keeps the rest, beside it, and shows its start: the classes' counts."""
    from probviz.data.dataset import Dataset

    rng = np.random.default_rng(5)
    names = ["first class", "second class", "third class", "fourth class", "fifth class"]
    X = np.vstack([rng.normal((3 * np.cos(t), 3 * np.sin(t)), 0.6, (8, 2)) for t in np.linspace(0, 5, 5)])
    window.resize(1024, 768)
    window.load(Dataset(X, np.repeat(np.arange(5), 8), names))
    window.doc.set_model("qda")
    settle(window)
    qtbot.mouseMove(window.canvas.viewport(), to_pixel(window, 0.3, 0.2))
    settle(window)
    msg, hover, bar = window.message, window.hover, window.statusBar()
    assert "p(fifth class|x)" in hover.text()
    assert hover.width() <= 0.55 * window.width() + 1 and hover.shown_text().endswith("…")
    assert hover.toolTip() == hover.text()
    assert msg.geometry().right() < hover.geometry().left()
    assert msg.width() >= 0.4 * bar.width() - 20
    assert msg.shown_text().startswith("QDA (own covariances)  ·  first class: 8, second class: 8")


def test_the_status_line_counts_a_class_named_by_a_number_as_a_class(qtbot, window):
    """Key 3 and a click make a third class, named "3": the status line counts it as "class 3: 1" (a bare
    "3: 1" reads as two numbers); named classes keep their names."""
    window.open_example("fruit")
    settle(window)
    key(qtbot, window, Qt.Key.Key_3)
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, pos=to_pixel(window, 3.0, 0.0))
    settle(window)
    assert [c.name for c in window.doc.classes] == ["apple", "peach", "3"]
    assert "apple: 172, peach: 78, class 3: 1  ·  " in window.message.text()
