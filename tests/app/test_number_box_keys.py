"""A number typed into a box and applied with Enter leaves the keyboard in the box; the window's shortcuts
still work from there: Ctrl+Z undoes the change the number made, Ctrl+E opens Export image. While typing is
pending, Ctrl+Z undoes the typing. All pressed as a person presses them, on the focused box."""

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from guihelp import settle, show_lab, type_into
from probviz.app.export_dialog import ExportDialog

CTRL = Qt.KeyboardModifier.ControlModifier


def _ctrl_e_opens_export(qtbot, box):
    """Ctrl+E pressed on the box: True when the Export image dialog came up (closed again at once)."""
    seen = []

    def close():
        dialog = QApplication.activeModalWidget()
        seen.append(type(dialog).__name__)
        if dialog is not None:
            dialog.reject()
    QTimer.singleShot(50, close)
    qtbot.keyClick(box, Qt.Key.Key_E, CTRL)
    qtbot.wait(80)
    return seen == [ExportDialog.__name__]


def test_ctrl_z_undoes_a_typed_parameter_and_ctrl_e_exports_from_the_box(qtbot, window):
    window.open_example("fruit")
    settle(window)
    field = window.panel.param_widgets["reg_covar"]
    box = field.spin
    type_into(qtbot, window, field, "0.5")
    assert window.doc.params["lda"]["reg_covar"] == 0.5
    assert QApplication.focusWidget() is box  # the keyboard stays in the box after Enter
    qtbot.keyClick(box, Qt.Key.Key_Z, CTRL)
    settle(window)
    assert window.doc.params["lda"]["reg_covar"] == 0.0  # the document's undo
    assert box.value() == 0.0
    qtbot.keyClick(box, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)
    settle(window)
    assert window.doc.params["lda"]["reg_covar"] == 0.5  # and its redo
    assert _ctrl_e_opens_export(qtbot, box)


def test_ctrl_z_while_typing_undoes_the_typing(qtbot, window):
    """0.5 applied (one undo step of the document), then "9" typed at the end and not applied: Ctrl+Z takes
    the 9 back out of the box and leaves the document's 0.5 and its undo step alone."""
    window.open_example("fruit")
    settle(window)
    field = window.panel.param_widgets["reg_covar"]
    box = field.spin
    type_into(qtbot, window, field, "0.5")
    edit = box.lineEdit()
    applied, steps = edit.text(), window.doc.undo_stack.index()
    qtbot.keyClick(edit, Qt.Key.Key_End)
    qtbot.keyClicks(edit, "9")
    assert edit.text() == applied + "9"  # pending
    qtbot.keyClick(box, Qt.Key.Key_Z, CTRL)
    settle(window)
    assert edit.text() == applied  # the typing undone
    assert window.doc.params["lda"]["reg_covar"] == 0.5 and window.doc.undo_stack.index() == steps


def test_ctrl_e_from_the_labs_held_out_box(qtbot, window):
    window.open_example("fruit")
    settle(window)
    show_lab(window)
    box = window.lab.held.spin
    type_into(qtbot, window, window.lab.held, "0.3")
    assert QApplication.focusWidget() is box
    assert _ctrl_e_opens_export(qtbot, box)


def test_a_box_left_with_no_number_in_it_keeps_its_number(qtbot, window):
    """0.1 typed into L2 and applied, then "." pressed there (as for a training step: the text is selected
    after Enter, so the dot replaces it) or the box emptied, then Tab pressed: L2 stays 0.1 (it became
    0, the nearest value Qt found for "."). A number typed beyond the range is still clamped to it."""
    window.open_example("fruit")
    window.doc.set_model("logistic")
    settle(window)
    field = window.panel.param_widgets["l2"]
    type_into(qtbot, window, field, "0.1")
    assert window.doc.params["logistic"]["l2"] == 0.1
    edit = field.spin.lineEdit()
    for keys in (".", "-", ""):
        qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
        edit.selectAll()
        qtbot.keyClick(edit, Qt.Key.Key_Delete)
        if keys:
            qtbot.keyClicks(edit, keys)
        assert edit.text() == keys
        qtbot.keyClick(edit, Qt.Key.Key_Tab)  # the keyboard leaves the box
        settle(window)
        assert QApplication.focusWidget() is not field.spin
        assert window.doc.params["logistic"]["l2"] == 0.1 and field.value() == 0.1, keys
        assert edit.text().startswith("0.1")
    type_into(qtbot, window, field, "1000")
    assert window.doc.params["logistic"]["l2"] == field.spin.maximum()


def test_a_letter_typed_in_a_number_box_is_the_window_s_key_and_esc_gives_the_keys_back(qtbot, window):
    """Reject θ typed and applied with Enter, then M pressed (the next model, Help's keys): the box swallowed it,
    and Esc did not leave the box. A letter is no part of a number, so M is the window's; Esc drops what was typed
    and not applied and gives the keys back to the canvas, where M works too. The exponent's e stays the box's."""
    from probviz.models import MODEL_NAMES

    from PySide6.QtCore import QPoint

    window.open_example("fruit")
    settle(window)
    decision = window.panel.layer_boxes["decision"]
    qtbot.mouseClick(decision, Qt.MouseButton.LeftButton, pos=QPoint(8, decision.height() // 2))  # θ's layer
    settle(window)
    field = window.panel.theta
    box = field.spin
    type_into(qtbot, window, field, "0.90")
    assert window.doc.theta == 0.9 and QApplication.focusWidget() is box
    first = window.doc.model_name
    qtbot.keyClick(box, Qt.Key.Key_M)
    settle(window)
    second = MODEL_NAMES[(MODEL_NAMES.index(first) + 1) % len(MODEL_NAMES)]
    assert window.doc.model_name == second and box.text() == "0.90"  # the next model; nothing typed in the box
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), "0.5")  # typed, not applied
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    settle(window)
    assert window.doc.theta == 0.9 and box.text() == "0.90"  # dropped
    assert QApplication.focusWidget() is window.canvas or window.canvas.isAncestorOf(QApplication.focusWidget())
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_M)
    settle(window)
    assert window.doc.model_name == MODEL_NAMES[(MODEL_NAMES.index(second) + 1) % len(MODEL_NAMES)]
    l2 = window.panel.param_widgets.get("l2")
    if l2 is not None and l2.isVisible():  # an exponent typed: the box's own
        l2.spin.lineEdit().selectAll()
        qtbot.keyClicks(l2.spin.lineEdit(), "1e")
        assert l2.spin.lineEdit().text().endswith("1e")
