"""The Training dock's Step button, clicked as a person clicks it."""

from PySide6.QtCore import Qt

from guihelp import settle
from probviz.data import examples


def test_each_click_of_step_takes_one_step(qtbot, settings_kept, window):
    session = examples.session("fruit")
    session.model = "logistic"
    window.load_session(session)
    window.training_dock.raise_()
    settle(window)
    t = window.training
    for clicks in (1, 2, 3):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)
        assert t.view is not None and t.view.index == clicks
        assert f"step {clicks}" in t.readout.text()
