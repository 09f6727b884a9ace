"""Small things a person runs into in the first hour: icons that say what they do, no stray buttons,
a shortcut sheet by menu, dialogs that go away, a panel that stays put, small windows that work."""

import html

import numpy as np
import pyqtgraph as pg
import pytest
from guihelp import click, settle
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QStyle, QToolBar, QWidget

from probviz import __version__
from probviz.app.widgets import ShortcutsDialog
from probviz.models import MODEL_NAMES, REGISTRY


def menu(win, title):
    return next(a.menu() for a in win.menuBar().actions() if a.text().replace("&", "") == title)


def menu_action(win, title, text):
    return next(a for a in menu(win, title).actions() if a.text().replace("&", "").startswith(text))


def image(icon) -> np.ndarray:
    """Premultiplied: a pixel all but transparent has all but no colour, whatever ink the icon is drawn in."""
    img = icon.pixmap(24, 24).toImage().convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    return np.frombuffer(img.constBits(), np.uint8).reshape(24, 24, 4).astype(int)


def test_undo_and_redo_are_curved_arrows_not_back_and_forward(qtbot, window):
    bar = window.findChild(QToolBar, "tools")
    undo, redo = (bar.widgetForAction(a) for a in (window.undo_action, window.redo_action))
    back = window.style().standardIcon(QStyle.StandardPixmap.SP_ArrowBack)
    assert np.abs(image(undo.icon()) - image(back)).max() > 100
    mirror = np.abs(image(redo.icon()) - image(undo.icon())[:, ::-1])
    assert mirror.max() <= 8  # one arrow, turned both ways (antialiased edges differ by a level or two)
    click(qtbot, window, 1.0, 1.0)
    qtbot.mouseClick(undo, Qt.MouseButton.LeftButton)
    settle(window)
    assert len(window.doc.X) == 0
    qtbot.mouseClick(redo, Qt.MouseButton.LeftButton)
    settle(window)
    assert len(window.doc.X) == 1


def _contrast(widget, rect=None) -> float:
    """The WCAG contrast ratio between a widget's background (its most common colour) and the pixel of it that
    stands out most from that background (in ``rect`` of it, when given)."""
    img = (widget.grab() if rect is None else widget.grab(rect)).toImage().convertToFormat(QImage.Format.Format_RGB32)
    rgb = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine() // 4, 4)[
        :, :img.width(), 2::-1].reshape(-1, 3) / 255.0
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    lum = linear @ [0.2126, 0.7152, 0.0722]
    values, counts = np.unique(np.round(lum, 4), return_counts=True)
    ground = values[np.argmax(counts)]
    lo, hi = sorted((ground, lum[np.argmax(np.abs(lum - ground))]))
    return (hi + 0.05) / (lo + 0.05)


def test_the_dark_theme_draws_undo_and_the_panels_buttons_light_on_dark(qtbot, window):
    """Turned on from the View menu, the dark theme draws the toolbar's Undo and Redo arrows and the panels'
    float and close buttons light on the dark window, at 7:1: Undo was drawn black on the dark grey once it was
    made (1.4:1), and Fusion's title bar buttons dark grey. An unticked box's outline shows at 3:1 at least
    (WCAG's for the parts of a control). A disabled arrow is dimmer than an enabled one, as disabled text is;
    the light theme is back, dark on light, when the theme is turned off."""
    from guihelp import menu_action as through_menu

    bar = window.findChild(QToolBar, "tools")
    undo, redo = (bar.widgetForAction(a) for a in (window.undo_action, window.redo_action))
    click(qtbot, window, 1.0, 1.0)  # Undo has something to undo; Redo has nothing
    through_menu(window, "Dark theme").trigger()
    settle(window)
    assert window.dark_action.isChecked()
    close = window.dock.findChild(QWidget, "qt_dockwidget_closebutton")
    float_ = window.dock.findChild(QWidget, "qt_dockwidget_floatbutton")
    assert undo.isEnabled() and not redo.isEnabled()
    for widget in (undo, close, float_):
        assert _contrast(widget) >= 7.0, widget  # as light as the text (the float button was mid-grey, 3.6:1)
    from PySide6.QtWidgets import QCheckBox, QStyleOptionButton

    box = next(b for b in window.panel.findChildren(QCheckBox) if b.isVisible() and not b.isChecked())
    option = QStyleOptionButton()
    box.initStyleOption(option)
    square = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    assert _contrast(box, square.adjusted(-3, -3, 3, 3)) >= 3.0, box.text()  # an unticked box is seen (1.2:1)
    from PySide6.QtWidgets import QSlider

    slider = QSlider(Qt.Orientation.Horizontal)  # a disabled slider's fill is grey, as in the light theme (it was
    slider.setValue(60)  # the enabled blue)
    slider.setEnabled(False)
    slider.resize(200, 24)
    fill = slider.grab().toImage().pixelColor(40, 12)
    assert max(fill.red(), fill.green(), fill.blue()) - min(fill.red(), fill.green(), fill.blue()) < 16, fill.name()
    assert 1.5 < _contrast(redo) < 0.5 * _contrast(undo)  # seen, and dimmer (disabled text is 120 of 255)
    light = lambda w: np.asarray(w.grab().toImage().pixelColor(w.width() // 2, 2).lightness())  # noqa: E731
    assert light(undo) < 80  # the dark window behind it
    through_menu(window, "Dark theme").trigger()
    settle(window)
    assert light(undo) > 180
    assert _contrast(undo) >= 3.0


def test_no_plot_shows_pyqtgraphs_auto_range_button(qtbot, window):
    from guihelp import drag, key, menu_action

    window.open_example("fruit")  # a model that trains and a cross-section: the side panels have their plots
    menu_action(window, REGISTRY["logistic"].label).trigger()
    key(qtbot, window, Qt.Key.Key_X)
    drag(qtbot, window, (0.0, 0.0), (2.5, 3.5))
    for dock in (window.training_dock, window.lab_dock):
        dock.show()
        dock.raise_()
    settle(window)
    plots = window.findChildren(pg.PlotWidget)
    assert window.canvas in plots and len(plots) >= 3
    for plot in plots:
        if not plot.isVisible():
            continue
        centre = plot.viewport().rect().center()
        qtbot.mouseMove(plot.viewport(), centre)  # pyqtgraph shows the button while the mouse is over
        qtbot.mouseMove(plot.viewport(), centre + QPoint(3, 3))
        assert not plot.plotItem.autoBtn.isVisible()
        assert plot.plotItem.buttonsHidden


def shown_sheet(qtbot, window, monkeypatch):
    sheets = []

    def record(self):
        sheets.append((self.section_titles(), self.rows()))
        self.show()
        self.reject()
        return 0
    monkeypatch.setattr(ShortcutsDialog, "exec", record)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    return sheets[-1]


def test_the_shortcut_sheet_is_grouped_by_menu_and_lists_only_real_keys(qtbot, window, monkeypatch):
    titles, rows = shown_sheet(qtbot, window, monkeypatch)
    assert titles == ["File", "Edit", "View", "Model", "Tools", "Train", "Slides", "Help",
                      "Presenting a lesson deck (F5)", "Canvas"]
    undo = dict((what, keys) for keys, what in rows)["Undo"]
    assert undo.startswith("Ctrl+Z") and "F14" not in undo and "Undo" not in undo
    assert not any("F1" + d in keys for keys, _ in rows for d in "3456789")  # no F13-F19
    assert ("F5", "Presentation mode") in rows and ("M", "Next model") in rows


def deleted_later():
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    QApplication.processEvents()


def test_dialogs_do_not_pile_up(qtbot, window, monkeypatch):
    """The shortcut sheet opened three times used to leave three dialogs alive in the window."""
    for _ in range(3):
        shown_sheet(qtbot, window, monkeypatch)
    about = menu_action(window, "Help", "About")
    texts = []

    def answer(self):
        texts.append(self.text())
        self.show()
        self.done(0)
        return 0
    monkeypatch.setattr(QMessageBox, "exec", answer)
    for _ in range(3):
        about.trigger()
    deleted_later()
    assert window.findChildren(ShortcutsDialog) == []
    assert [d for d in window.findChildren(QDialog) if isinstance(d, QMessageBox)] == []
    # About names every model, the version, the licence and how to cite
    text = texts[-1]
    for name in MODEL_NAMES:
        assert html.escape(REGISTRY[name].label, quote=False) in text, name
    assert len(MODEL_NAMES) == 10 and __version__ in text and "MIT" in text and "cite" in text.lower()


def test_reset_to_frequencies_leaves_the_panel_where_it_was(qtbot, window):
    assert window.open_path("example:fruit")
    settle(window)
    priors = window.panel.priors
    scroll = window.dock.widget()
    window.doc.set_priors([0.4, 0.6])
    settle(window)
    scroll.ensureWidgetVisible(priors.reset)
    settle(window)
    before = scroll.verticalScrollBar().value()
    where = priors.reset.mapTo(window, QPoint(0, 0))
    qtbot.mouseClick(priors.reset, Qt.MouseButton.LeftButton)
    settle(window)
    assert window.doc.priors is None
    assert scroll.verticalScrollBar().value() == before and priors.reset.mapTo(window, QPoint(0, 0)) == where


def test_an_opened_example_shows_its_description(qtbot, window):
    scroll = window.dock.widget()
    assert window.open_path("example:xor")
    settle(window)
    scroll.verticalScrollBar().setValue(scroll.verticalScrollBar().maximum())  # down at the probe
    settle(window)
    examples = next(a.menu() for a in menu(window, "File").actions() if a.text() == "&Examples")
    next(a for a in examples.actions() if a.text() == "fruit").trigger()
    settle(window)
    lesson = window.panel.lesson
    top = lesson.mapTo(scroll.viewport(), QPoint(0, 0)).y()
    assert lesson.isVisible() and 0 <= top < scroll.viewport().height() - 10  # scrolled to the top


def test_every_panel_is_toggled_from_the_view_menu(qtbot, window):
    for text, dock in (("Model panel", window.dock), ("Training panel", window.training_dock),
                       ("Lab panel", window.lab_dock)):
        action = menu_action(window, "View", text)
        shown = not dock.isHidden()
        action.trigger()
        settle(window)
        assert dock.isHidden() == shown, text
        action.trigger()
        settle(window)
        assert dock.isHidden() != shown, text


@pytest.mark.parametrize("size", [(700, 500), (1, 1)], ids=["700x500", "smallest"])
def test_a_small_window_keeps_a_usable_plot_and_a_panel_that_fits(qtbot, window, size):
    for dock in (window.dock, window.training_dock, window.lab_dock):  # the first start's layout: tabs
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        dock.show()
    window.tabifyDockWidget(window.dock, window.training_dock)
    window.tabifyDockWidget(window.training_dock, window.lab_dock)
    window.dock.raise_()
    window.resizeDocks([window.dock], [340], Qt.Orientation.Horizontal)
    window.resize(*size)
    settle(window)
    qtbot.wait(20)
    settle(window)
    assert window.canvas.width() >= 300 and window.canvas.height() >= 200
    if size == (700, 500):  # nothing scrolls sideways: "Remove" is whole in view
        scroll = window.dock.widget()
        qtbot.waitUntil(lambda: scroll.horizontalScrollBar().maximum() == 0, timeout=2000)  # laid out lazily
        remove = window.panel.remove_class
        right = remove.mapTo(scroll.viewport(), QPoint(remove.width(), 0)).x()
        assert right <= scroll.viewport().width()


@pytest.mark.parametrize("presenting", [False, True], ids=["desk", "F5"])
def test_a_side_panel_narrowed_as_far_as_it_goes_cuts_nothing_off(qtbot, window, presenting):
    """The side panel dragged as narrow as it goes: the Lab's right-hand side was cut off (its Remove button,
    its error rates, its fields' arrows; its longest model name made it 400 pixels wide), the Model panel's hid
    behind a sideways scroll bar. Every control of both lies whole within its panel's view, at the desk and in
    presentation mode's larger text (F9 brings the panel back there)."""
    from guihelp import click_dock_tab, present
    from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QLabel, QScrollArea, QTableWidget

    if presenting:
        present(qtbot, window, "example:fruit", size=(1024, 768))
        qtbot.keyClick(window, Qt.Key.Key_F9)
    else:
        window.resize(1366, 768)
        assert window.open_path("example:fruit")
    settle(window)
    for dock, title in ((window.dock, "Model"), (window.lab_dock, "Lab")):
        if not presenting:
            click_dock_tab(qtbot, window, title)
        elif dock is not window.dock:
            continue  # presentation mode shows the Model panel alone
        window.resizeDocks([dock], [500], Qt.Orientation.Horizontal)
        settle(window)
        before = dock.width()
        window.resizeDocks([dock], [1], Qt.Orientation.Horizontal)  # as far as it goes
        settle(window)
        qtbot.wait(20)
        settle(window)
        scroll = dock.widget() if isinstance(dock.widget(), QScrollArea) else dock.widget().findChild(QScrollArea)
        view = scroll.viewport()
        assert dock.width() < before  # narrowed indeed
        assert not scroll.horizontalScrollBar().isVisible()
        kinds = (QAbstractButton, QAbstractSpinBox, QComboBox, QLabel, QTableWidget)
        shown = [w for w in scroll.widget().findChildren(QWidget) if isinstance(w, kinds) and w.isVisibleTo(view)
                 and w.width() > 0 and not isinstance(w.parentWidget(), kinds)]  # not a table's own parts
        assert len(shown) > 10
        for w in shown:
            left = w.mapTo(view, QPoint(0, 0)).x()
            assert 0 <= left and left + w.width() <= view.width(), (title, type(w).__name__, left, w.width(),
                                                                    view.width())


def test_a_panel_that_asks_for_more_than_its_share_scrolls_sideways_rather_than_squeeze_the_plot(qtbot, window):
    """The side panel is never narrower than its controls, up to 40% of the window: a class name of 150 letters
    (the priors' labels show it whole) or nine RBF weights in a row asked for more, and the panel took it from
    the plot (598 of 1100 pixels). The panel keeps to its share and scrolls sideways; the weights break after
    their commas."""
    from pressing import choose

    from probviz.app.widgets import PanelScroll

    window.resize(1100, 750)
    assert window.open_path("example:fruit")
    settle(window)
    width = window.dock.width()
    scroll = window.dock.widget()
    window.doc.rename_class(0, "a" * 150)  # (as the class table's cell takes it)
    settle(window)
    qtbot.wait(20)
    settle(window)
    assert window.dock.width() <= PanelScroll.MOST * window.width() + 1 < 598
    assert scroll.horizontalScrollBar().isVisible()  # the name is there, sideways
    window.doc.undo_stack.undo()
    window.doc.set_model("softmax")
    settle(window)
    basis = window.panel.param_widgets["basis"]
    choose(qtbot, basis, basis.findText("rbf"))
    settle(window)
    qtbot.wait(20)
    settle(window)
    assert window.result.fit.model.centers_.shape == (9, 2)  # the lattice's nine centres: nine weights a class
    assert window.dock.width() == width and not scroll.horizontalScrollBar().isVisible()


def test_the_panels_share_follows_the_window_as_it_narrows(qtbot, window):
    """A panel that asks for more than its share (a class name of 150 letters) keeps to its share of the window's
    width as the window narrows: narrowed by hand to the least it allows, the panel takes MOST of 900 pixels, not
    of the 1100 it had. (The window's width is watched by its own signal, not by a filter on the window's every
    event.)"""
    from probviz.app.widgets import PanelScroll

    window.resize(1100, 750)
    assert window.open_path("example:fruit")
    window.doc.rename_class(0, "a" * 150)
    settle(window)
    window.resizeDocks([window.dock], [1], Qt.Orientation.Horizontal)
    settle(window)
    assert abs(window.dock.width() - PanelScroll.MOST * 1100) <= 2  # as narrow as its share of 1100
    window.resize(900, 750)
    settle(window)
    qtbot.wait(20)
    window.resizeDocks([window.dock], [1], Qt.Orientation.Horizontal)
    settle(window)
    assert window.width() == 900
    assert abs(window.dock.width() - PanelScroll.MOST * 900) <= 2


def test_tabbing_into_the_panel_shows_where_the_focus_is(qtbot, window):
    """Tab used to vanish into the class table (and step the active class cell by cell) with no mark."""
    assert window.open_path("example:fruit")
    settle(window)
    panel, ring = window.panel, window.panel.focus_ring
    window.canvas.setFocus()
    visited = []
    for _ in range(12):  # Tab through the window, as a person does, until the focus is in the panel
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        settle(window)
        visited.append(QApplication.focusWidget())
        if panel.isAncestorOf(visited[-1]) and visited[-1] is not panel.classes:
            break
    assert panel.classes in visited and window.doc.active_class == 0  # Tab passed through, not down, the table
    target = QApplication.focusWidget()
    assert panel.isAncestorOf(target) and ring.isVisible()
    box = ring.geometry()
    where = target.rect().translated(target.mapTo(panel, QPoint(0, 0)))
    assert box.contains(where) and box.adjusted(6, 6, -6, -6).width() <= where.width()  # just around it
    shot = panel.grab().toImage()
    highlight = ring.palette().color(ring.palette().ColorRole.Highlight)
    def off(c):
        return abs(c.red() - highlight.red()) + abs(c.green() - highlight.green()) + abs(c.blue() - highlight.blue())
    assert min(off(shot.pixelColor(box.center().x(), box.top() + dy)) for dy in range(5)) < 30  # its top line
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    qtbot.mouseClick(panel.add_class, Qt.MouseButton.LeftButton)  # a click's focus: no ring
    settle(window)
    assert not ring.isVisible()


def test_a_step_of_a_log_slider_always_moves_the_value(qtbot):
    """Two positions of the η slider (a log scale rounded to round numbers) can mean the same 0.01: a Right
    arrow on the slider must still change the value, or the slider moves and nothing else does."""
    from probviz.app.widgets import NumberField

    field = NumberField(1e-4, 100.0, decimals=4, step=0.001, log_from=1e-4)
    qtbot.addWidget(field)
    field.show()
    seen = []
    field.valueChanged.connect(seen.append)
    field.setValue(0.01)
    field.slider.setFocus()
    for _ in range(3):
        before = field.value()
        qtbot.keyClick(field.slider, Qt.Key.Key_Right)
        assert field.value() > before, (before, field.value())
    for _ in range(3):
        before = field.value()
        qtbot.keyClick(field.slider, Qt.Key.Key_Left)
        assert field.value() < before
    assert len(seen) == 6 and seen == sorted(seen[:3]) + sorted(seen[3:], reverse=True)


def test_the_perceptron_on_three_classes_offers_no_step(qtbot, window):
    """The perceptron separates two classes (Bishop 4.1.7): with three, the Training dock and the Train
    menu are disabled and the readout says why; a key does nothing."""
    assert window.open_path("example:shared-vs-own-covariance")
    window.doc.set_model("perceptron")
    settle(window)
    t = window.training
    assert not t.step_button.isEnabled() and not t.play_button.isEnabled() and not t.active.isEnabled()
    assert "separates two classes" in t.readout.text()
    qtbot.keyClick(window, Qt.Key.Key_Period)
    settle(window)
    assert t.view is None and window.doc.view_state.training.steps == 0
    window.doc.set_model("logistic")  # one-vs-rest takes three classes
    settle(window)
    assert t.step_button.isEnabled()


def test_the_shortcut_sheet_in_presentation_mode_cuts_no_text(qtbot, window, monkeypatch):
    """F1 in F5 (large type) on a screen narrower than the sheet: the "Does" column wraps within the
    dialog; no cell's text is cut and the sheet does not scroll sideways."""
    from PySide6.QtGui import QFontMetrics

    seen = []

    def record(self):
        self.show()
        QApplication.processEvents()
        table, bad = self.table, []
        for r in range(table.rowCount()):
            for c in range(2):
                item = table.item(r, c)
                if item is None or table.columnSpan(r, c) > 1:
                    continue
                rect = table.visualRect(table.model().index(r, c))
                fm = QFontMetrics(item.font() if item.font() != QApplication.font() else table.font())
                text = fm.boundingRect(rect.adjusted(3, 0, -3, 0), int(Qt.TextFlag.TextWordWrap), item.text())
                if text.width() > rect.width() - 2 or text.height() > rect.height() + 1:
                    bad.append((item.text(), text.size().toTuple(), rect.size().toTuple()))
        seen.append((self.width() <= self.screen().availableGeometry().width(),
                     table.horizontalScrollBar().maximum(), bad))
        self.reject()
        return 0
    monkeypatch.setattr(ShortcutsDialog, "exec", record)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    try:
        qtbot.keyClick(window, Qt.Key.Key_F1)
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)
    fits, sideways, bad = seen[-1]
    assert fits and sideways == 0 and bad == [], bad[:3]


def test_an_examples_text_says_it_was_written_for_the_example_as_it_opened_once_it_changes(qtbot, window):
    """The fruit's text says "the probe x = (2.3, 1.5) gets p(apple|x) = 0.823"; after M (another model) or a
    point clicked in, the probe says otherwise and the text went on saying 0.823 as if it were so. A line under it
    says the text is about the example as it opened, until another document opens or the change is undone."""
    from guihelp import click, key
    from PySide6.QtCore import Qt

    from probviz.app.panel import Panel

    lesson = window.panel.lesson
    for act in (lambda: key(qtbot, window, Qt.Key.Key_M), lambda: click(qtbot, window, 0.5, 3.5)):
        assert window.open_path("example:fruit")
        settle(window)
        assert "0.823." in lesson.text() and Panel.CHANGED_SINCE not in lesson.text()
        act()
        settle(window)
        assert "0.823" in lesson.text() and lesson.text().endswith("\n" + Panel.CHANGED_SINCE)
        assert "0.823" not in window.canvas.probe_label.textItem.toPlainText()
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undone: as it opened again
        settle(window)
        assert "0.823." in lesson.text() and Panel.CHANGED_SINCE not in lesson.text()
        assert "0.823" in window.canvas.probe_label.textItem.toPlainText()
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        settle(window)  # redone: changed again
        assert lesson.text().endswith("\n" + Panel.CHANGED_SINCE)
    assert window.open_path("example:xor")
    settle(window)
    assert Panel.CHANGED_SINCE not in lesson.text()


@pytest.mark.parametrize("scrolled", [True, False])
def test_the_first_edit_of_an_example_leaves_the_scrolled_panel_where_it_was(qtbot, window, scrolled):
    """The first edit of an example adds a line to its text at the top of the Model panel. Scrolled down to the
    Parameters, a user saw everything under that line jump by it; the view now follows, and the Parameters stay
    where they were. Scrolled to the top the new line is in view, and what follows it moves down."""
    assert window.open_path("example:fruit")
    settle(window)
    scroll = window.panel.parentWidget().parentWidget()
    bar = scroll.verticalScrollBar()
    assert bar.maximum() > 200  # the panel is taller than its view
    bar.setValue(bar.maximum() // 2 if scrolled else 0)
    settle(window)
    params, lesson = window.panel.params, window.panel.lesson
    before, tall = params.mapTo(scroll.viewport(), QPoint(0, 0)).y(), lesson.height()
    click(qtbot, window, 0.5, 3.5)  # a point: the first edit
    qtbot.waitUntil(lambda: lesson.height() > tall)  # the line came
    qtbot.wait(20)
    settle(window)
    moved = params.mapTo(scroll.viewport(), QPoint(0, 0)).y() - before
    assert moved == (0 if scrolled else lesson.height() - tall)


def test_a_held_panel_view_does_not_follow_a_later_unrelated_layout(qtbot):
    """A hold whose change laid nothing out is dropped: a resize long after it (a part shown later, the window
    resized) moves the view as Qt moves it, not by a stale hold."""
    from PySide6.QtWidgets import QLabel, QVBoxLayout

    from probviz.app.widgets import HOLD_SECONDS, PanelScroll

    panel = QWidget()
    layout = QVBoxLayout(panel)
    top = QLabel("top")
    top.hide()
    layout.addWidget(top)
    for i in range(40):
        layout.addWidget(QLabel(f"row {i}"))
    scroll = PanelScroll(panel)
    qtbot.addWidget(scroll)
    scroll.resize(200, 300)
    scroll.show()
    qtbot.waitExposed(scroll)
    bar = scroll.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    value = bar.value()
    scroll.hold_view()  # nothing changes
    qtbot.wait(int(1000 * HOLD_SECONDS) + 200)
    top.show()  # a later change above the view: the panel grows
    qtbot.wait(50)
    assert bar.value() == value
