"""Round trips a person makes: presentation mode on and off, a dock hidden and shown, the theme switched
twice, a restart; each leaves the window as it was."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QTabBar

from guihelp import settle
from probviz.app.main_window import MainWindow


def layout(win) -> dict:
    """What a person sees of the window's arrangement."""
    tabs = sorted(tuple(b.tabText(i) for i in range(b.count())) for b in win.findChildren(QTabBar)
                  if b.isVisible() and b.geometry().intersects(win.rect()))  # Qt parks unused bars off the window
    return {
        "docks": {d.objectName(): d.isVisible() for d in win.findChildren(QDockWidget)},
        "tabs": tabs,
        "view": tuple(round(v, 6) for v in win.canvas.view_bounds()),
        "font": QApplication.font().pointSizeF(),
        "legend": win.canvas.legend is not None and win.canvas.legend.isVisible(),
        "caption": win.canvas.plotItem.titleLabel.isVisible(),
        "dark": win.dark_action.isChecked(),
    }


def _menu_action(win, *path):
    actions = win.menuBar().actions()
    for part in path:
        a = next(a for a in actions if a.text().replace("&", "").startswith(part))
        actions = a.menu().actions() if a.menu() is not None else []
    return a


def _every_dock(win):
    """Every dock shown and that layout saved: a test that hid one (a known bug does) leaves no trace."""
    for d in (win.dock, win.training_dock, win.lab_dock):
        d.show()
    win.dock.raise_()
    win.save_settings()


@pytest.fixture
def fruit(settings_kept, window):
    _every_dock(window)
    assert window.open_path("example:fruit")
    settle(window)
    yield window
    if window.presentation_action.isChecked():
        window.set_presentation(False)
    _every_dock(window)


def test_presentation_mode_on_and_off_leaves_the_window_as_it_was(qtbot, fruit):
    before = layout(fruit)
    for _ in range(2):
        qtbot.keyClick(fruit, Qt.Key.Key_F5)
        settle(fruit)
    assert layout(fruit) == before


@pytest.mark.parametrize("path", [("View", "Model panel"), ("View", "Training panel"), ("View", "Lab panel")])
def test_each_dock_hidden_and_shown_from_its_menu_comes_back(qtbot, fruit, path):
    before = layout(fruit)
    action = _menu_action(fruit, *path)
    action.trigger()
    settle(fruit)
    hidden = layout(fruit)
    assert hidden["docks"] != before["docks"]  # the menu hid it
    action.trigger()
    settle(fruit)
    assert layout(fruit) == before


def test_the_theme_switched_twice_leaves_the_window_as_it_was(qtbot, fruit):
    before, grab = layout(fruit), fruit.canvas.grab().toImage()
    dark = _menu_action(fruit, "View", "Dark theme")
    dark.trigger()
    settle(fruit)
    assert fruit.canvas.grab().toImage() != grab  # it did switch
    dark.trigger()
    settle(fruit)
    assert layout(fruit) == before
    assert fruit.canvas.grab().toImage() == grab


def test_a_restart_opens_the_window_as_it_was_closed(qtbot, fruit):
    _menu_action(fruit, "View", "Lab panel").trigger()  # one dock hidden: a layout of the person's own
    settle(fruit)
    before = layout(fruit)
    fruit.save_settings()
    again = MainWindow()
    qtbot.addWidget(again, before_close_func=lambda w: w.doc.mark_saved())
    again.show()
    qtbot.waitExposed(again)
    settle(again)
    assert layout(again)["docks"] == before["docks"]
    assert layout(again)["tabs"] == before["tabs"]
    assert layout(again)["font"] == before["font"] and layout(again)["dark"] == before["dark"]
    _every_dock(again)  # it saves its layout again when it closes
    again.refitter.shutdown()


def test_presentation_on_and_off_then_a_restart_keeps_every_dock(qtbot, fruit):
    before = layout(fruit)
    for _ in range(2):
        qtbot.keyClick(fruit, Qt.Key.Key_F5)
        settle(fruit)
    fruit.save_settings()
    again = MainWindow()
    qtbot.addWidget(again, before_close_func=lambda w: w.doc.mark_saved())
    again.show()
    qtbot.waitExposed(again)
    try:
        assert layout(again)["docks"] == before["docks"]
    finally:
        _every_dock(again)  # it saves its layout again when it closes: no hidden dock for the next test
        again.refitter.shutdown()
