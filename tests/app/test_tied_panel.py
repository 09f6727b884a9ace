"""The tied model's groups in the window: a line edit built from the registry's "text" parameter, applied
on Enter as one undo step; a text the parameter refuses is said and not taken; a name that is no class
is the fit's one-line message in the status line."""

import numpy as np
from guihelp import settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit


def _type(qtbot, field, text):
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def test_the_groups_field_fits_undoes_and_refuses(qtbot, window):
    window.open_example("tied")  # File › Examples: the example's session, its groups for the tied model set
    window.doc.set_model("tied")
    settle(window)
    field = window.panel.param_widgets["groups"]
    assert isinstance(field, QLineEdit) and field.text() == "red,green"  # the example's groups
    model = window.result.fit.model
    assert model.groups_ == [["red", "green"], ["blue"]]
    # the scene draws the boundary between red and green straight
    xy = next(b.xy for b in window.result.scene.boundaries if (b.k, b.j) == (0, 1))
    pts = xy[np.all(np.isfinite(xy), axis=1)]
    u = (pts[-1] - pts[0]) / np.linalg.norm(pts[-1] - pts[0])
    assert np.abs((pts - pts[0]) @ np.array([u[1], -u[0]])).max() < 1e-9

    _type(qtbot, field, "green;blue,red")
    settle(window)
    assert window.doc.params["tied"]["groups"] == "green;blue,red"
    assert window.result.fit.model.groups_ == [["red", "blue"], ["green"]]
    window.doc.undo_stack.undo()
    settle(window)
    assert field.text() == "red,green" and window.result.fit.model.groups_ == [["red", "green"], ["blue"]]

    _type(qtbot, field, "red;red")  # refused by the parameter itself: nothing changes
    settle(window)
    assert window.doc.params["tied"]["groups"] == "red,green" and field.text() == "red,green"

    _type(qtbot, field, "red,purple")  # a well-formed text naming no class: the fit says so
    settle(window)
    assert window.doc.params["tied"]["groups"] == "red,purple"
    assert "cannot fit: groups name no class 'purple' (the classes are red, green, blue)" in window.message.text()
    window.doc.rename_class(2, "purple")  # ... until there is one
    settle(window)
    assert window.result.fit.model.groups_ == [["red", "purple"], ["green"]]


def test_the_groups_are_saved_and_reopened(qtbot, window, monkeypatch, tmp_path):
    window.open_example("tied")
    window.doc.set_model("tied")
    settle(window)
    _type(qtbot, window.panel.param_widgets["groups"], "blue, green")
    settle(window)
    path = tmp_path / "tied.probviz"
    monkeypatch.setattr("probviz.app.fileops.QFileDialog.getSaveFileName", lambda *a, **k: (str(path), ""))
    assert window.files.save()
    window.doc.new()
    settle(window)
    assert window.doc.model_name == "lda" and window.doc.params["tied"]["groups"] == ""
    assert window.open_path(str(path))
    settle(window)
    assert window.doc.model_name == "tied" and window.panel.param_widgets["groups"].text() == "blue, green"
    assert window.result.fit.model.groups_ == [["red"], ["green", "blue"]]


def test_an_example_opened_by_its_path_sets_what_file_examples_sets(qtbot, window):
    """`probviz example:tied` (the window's open_path) opens as File > Examples does: the tied model finds
    red and green grouped."""
    from guihelp import settle

    assert window.open_path("example:tied")
    settle(window)
    assert window.doc.params["tied"]["groups"] == "red,green"
    assert window.doc.title == "tied" and len(window.doc.X) == 300


def test_renaming_a_class_renames_it_in_the_groups_in_one_undo_step(qtbot, window):
    from guihelp import settle

    assert window.open_path("example:tied")
    settle(window)
    window.doc.set_model("tied")
    settle(window)
    item = window.panel.classes.item(0, 1)  # red, renamed as a person renames it: in its cell
    window.panel.classes.editItem(item)
    editor = window.panel.classes.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, "crimson")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    settle(window)
    assert window.doc.classes[0].name == "crimson"
    assert window.doc.params["tied"]["groups"] == "crimson,green"
    assert not window.canvas.frame.fit.error and window.canvas.frame.fit.model.groups_ is not None
    undo = [a for a in window.menuBar().actions() if a.text().replace("&", "") == "Edit"][0].menu().actions()[0]
    assert undo.text().replace("&", "") == "Undo Rename class to crimson"
    undo.trigger()  # Edit > Undo: the name and the groups together
    settle(window)
    assert window.doc.classes[0].name == "red" and window.doc.params["tied"]["groups"] == "red,green"
