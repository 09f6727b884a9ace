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


def test_a_training_step_on_screen_is_named_as_such_in_the_legend_the_status_line_and_the_export(
        qtbot, settings_kept, window, monkeypatch, tmp_path):
    """Three clicks on Step draw step 3 instead of the fit: the legend, the status line and File › Export
    say "Logistic regression, Gradient descent, step 3" (as `probviz export --steps 3` does), not the
    fitted model's name alone; showing the fit again names the model only."""
    import pypdfium2 as pdfium
    from pressing import press_button
    from test_screen_and_export import _menu_action

    session = examples.session("fruit")
    session.model = "logistic"
    window.load_session(session)
    window.training_dock.raise_()
    settle(window)
    for _ in range(3):
        qtbot.mouseClick(window.training.step_button, Qt.MouseButton.LeftButton)
        settle(window)
    named = "Logistic regression, Gradient descent, step 3"
    assert window.message.text().split("·")[0].strip() == named
    _menu_action(window, "View", "Legend").trigger()  # View › Legend on
    settle(window)
    legend = [label.text for _, label in window.canvas.legend.items]
    assert f"<b>{named}</b>" in legend, legend

    def answer(dialog):
        dialog.path.setText(str(tmp_path / "step.pdf"))
        dialog.legend.setChecked(True)
        return True

    monkeypatch.setattr(window.files, "run_dialog", answer)
    _menu_action(window, "File", "Export image…").trigger()
    text = pdfium.PdfDocument(str(tmp_path / "step.pdf"))[0].get_textpage().get_text_range()
    assert named in " ".join(text.split())
    press_button(qtbot, window.training.active)  # untick "Show the training step": the fit again
    settle(window)
    assert window.message.text().split("·")[0].strip() == "Logistic regression"
    assert "<b>Logistic regression</b>" in [label.text for _, label in window.canvas.legend.items]
