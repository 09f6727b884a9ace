"""Files through the GUI: open good and bad data, save and reopen sessions, autosave and restore."""

import os
import time
from pathlib import Path

import numpy as np
from guihelp import click, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from probviz.app.main_window import MainWindow

CSV = Path(__file__).parent.parent / "data" / "csv"


def quiet(win, monkeypatch, answer=QMessageBox.StandardButton.Discard):
    """Answer the window's questions and record its warnings instead of showing boxes."""
    seen = []
    monkeypatch.setattr(win, "error", lambda title, text: seen.append(text))
    monkeypatch.setattr(win.files, "ask_save", lambda: answer)
    return seen


def test_open_csv_then_a_bad_one_leaves_the_document(qtbot, window, monkeypatch):
    errors = quiet(window, monkeypatch)
    assert window.open_path(str(CSV / "good" / "semicolon_bom_crlf_index.csv"))
    settle(window)
    assert len(window.doc.X) == 3 and [c.name for c in window.doc.classes] == ["blau", "rot"]
    assert "semicolon_bom_crlf_index.csv" in window.windowTitle()
    before = window.doc.X.copy()
    for bad in sorted(os.listdir(CSV / "bad")):
        assert not window.open_path(str(CSV / "bad" / bad))
        np.testing.assert_array_equal(window.doc.X, before)
        assert errors[-1].startswith(bad), errors[-1]
    assert len(errors) == len(os.listdir(CSV / "bad"))


def test_ambiguous_csv_asks_for_columns(qtbot, window, monkeypatch, tmp_path):
    quiet(window, monkeypatch)
    p = tmp_path / "iris4.csv"
    p.write_text("sl,sw,pl,pw,species\n5.1,3.5,1.4,0.2,setosa\n7.0,3.2,4.7,1.4,versicolor\n")
    asked = []

    def answer(dialog):
        asked.append(dialog.windowTitle())
        dialog.show()
        qtbot.waitExposed(dialog)
        table = dialog.table  # every column of the preview in sight (a fourth was cut off)
        assert table.horizontalHeader().length() <= table.viewport().width()
        dialog.x.setCurrentText("pl")
        dialog.y.setCurrentText("pw")
        dialog.hide()
        return True

    monkeypatch.setattr(window.files, "run_dialog", answer)
    assert window.open_path(str(p))
    assert asked == ["Columns of iris4.csv"]
    np.testing.assert_allclose(window.doc.X, [[1.4, 0.2], [4.7, 1.4]])
    assert window.doc.axis_names == ("pl", "pw")
    monkeypatch.setattr(window.files, "run_dialog", lambda d: False)  # cancel: nothing changes
    assert not window.open_path(str(p))
    assert len(window.doc.X) == 2


def test_save_and_reopen_a_session(qtbot, window, monkeypatch, tmp_path):
    quiet(window, monkeypatch)
    click(qtbot, window, 1, 1)
    click(qtbot, window, -1, 2)
    window.doc.set_model("qda")
    window.doc.set_param("reg_covar", 0.3)
    window.doc.set_layer("density", True)
    path = tmp_path / "mine.probviz"
    monkeypatch.setattr("probviz.app.fileops.QFileDialog.getSaveFileName",
                        lambda *a, **k: (str(path), ""))
    assert window.isWindowModified()
    assert window.files.save()
    assert not window.isWindowModified() and "mine.probviz" in window.windowTitle()
    saved_view = window.canvas.view_bounds()

    other = MainWindow()
    qtbot.addWidget(other, before_close_func=lambda w: w.doc.mark_saved())
    other.files.autosave_enabled = False
    other.show()
    assert other.open_path(str(path))
    settle(other)
    np.testing.assert_array_equal(other.doc.X, window.doc.X)
    assert other.doc.model_name == "qda" and other.doc.params["qda"]["reg_covar"] == 0.3
    assert "density" in other.doc.layers
    np.testing.assert_allclose(other.canvas.view_bounds(), saved_view, atol=1e-6)


def test_close_with_unsaved_changes_asks(qtbot, window, monkeypatch):
    quiet(window, monkeypatch, answer=QMessageBox.StandardButton.Cancel)
    click(qtbot, window, 1, 1)
    window.close()
    assert window.isVisible()  # Cancel keeps it open, work intact
    assert len(window.doc.X) == 1
    monkeypatch.setattr(window.files, "ask_save", lambda: QMessageBox.StandardButton.Discard)
    window.close()
    assert not window.isVisible()


def _slow_big_file(monkeypatch, tmp_path):
    """A CSV of 60,000 points whose reading takes about a second whatever the machine (2 ms per piece of 1,000
    rows), with the progress bar shown at once."""
    import probviz.app.fileops as fileops
    from probviz.data import csvio

    monkeypatch.setattr(fileops, "PROGRESS_AFTER_MS", 0)
    monkeypatch.setattr(csvio, "CHUNK", 1000)
    pieces = csvio._chunks

    def slow_pieces(*a):
        for piece in pieces(*a):
            time.sleep(0.002)
            yield piece

    monkeypatch.setattr(csvio, "_chunks", slow_pieces)
    big = tmp_path / "big.csv"
    big.write_text("x,y,label\n" + "".join(f"{i % 97 / 10},{i % 89 / 10},{'ab'[i % 2]}\n" for i in range(60_000)))
    return big


def test_a_long_load_shows_progress_and_can_be_cancelled(qtbot, window, monkeypatch, tmp_path):
    """A big file loads on a worker thread: the window keeps running (timers fire), a progress bar
    with Cancel appears, and Cancel leaves the document as it was."""
    from probviz.data import csvio

    errors = quiet(window, monkeypatch)
    pieces = csvio._chunks
    big = _slow_big_file(monkeypatch, tmp_path)
    window.doc.add_points([[1.0, 1.0]], 0)
    before = (window.doc.X.copy(), window.doc.undo_stack.count())
    ticks, shown = [], []

    def press_cancel():
        ticks.append(1)
        dialog = window.files.progress_dialog
        if dialog is not None and len(ticks) > 3:
            shown.append(dialog.isVisible())
            dialog.cancel()

    from PySide6.QtCore import QTimer
    timer = QTimer(window, interval=5, timeout=press_cancel)
    timer.start()
    opened = window.open_path(str(big))
    timer.stop()
    assert not opened
    assert len(ticks) > 3 and shown[0]  # the event loop ran during the load, and the bar was up
    np.testing.assert_array_equal(window.doc.X, before[0])
    assert window.doc.undo_stack.count() == before[1] and not errors
    # without a cancel the same file loads whole
    monkeypatch.setattr(csvio, "_chunks", pieces)
    assert window.open_path(str(big))
    settle(window)
    assert len(window.doc.X) == 60_000 and [c.name for c in window.doc.classes] == ["a", "b"]


def test_the_labs_settings_are_unsaved_work_until_saved(qtbot, window, monkeypatch, tmp_path):
    """The compared model and the split are written into the session file: choosing them in the Lab marks
    the window modified, closing asks about them, and a save (or choosing them back) clears the mark."""
    from pressing import choose, step

    from probviz.data.examples import session
    from probviz.data.session import write_session

    asked = []
    monkeypatch.setattr(window, "error", lambda title, text: None)
    monkeypatch.setattr(window.files, "ask_save", lambda: asked.append(1) or QMessageBox.StandardButton.Cancel)
    path = tmp_path / "lesson.probviz"
    write_session(str(path), session("fruit"))
    assert window.open_path(str(path))
    settle(window)
    window.lab_dock.show()
    window.lab_dock.raise_()
    assert not window.isWindowModified()
    lab = window.lab
    choose(qtbot, lab.compare, lab.compare.findData("logistic"))
    settle(window)
    assert window.doc.view_state.compare == "logistic" and window.isWindowModified()
    window.close()  # refused: the question is answered Cancel
    assert asked == [1] and window.isVisible()
    choose(qtbot, lab.compare, lab.compare.findData(None))  # back as saved: nothing to save
    settle(window)
    assert window.doc.view_state.compare is None and not window.isWindowModified()
    step(qtbot, lab.held.spin)
    settle(window)
    assert window.doc.view_state.split[0] > 0 and window.isWindowModified()
    monkeypatch.setattr(window.files, "ask_save", lambda: QMessageBox.StandardButton.Save)
    from PySide6.QtWidgets import QApplication
    window.activateWindow()  # the combo box's list took the activation with it
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    settle(window)
    assert not window.isWindowModified()
    from probviz.data.session import read_session
    from probviz.snapshot import from_session
    assert from_session(read_session(str(path))).split == window.doc.view_state.split


def test_a_windows_csv_opens_and_the_status_line_names_its_encoding(qtbot, window, monkeypatch, tmp_path):
    quiet(window, monkeypatch)
    path = tmp_path / "fruit.csv"
    path.write_bytes("x,y,fruit\n1,2,pomme\n2,3,pêche\n3,1,pêche\n0,0,pomme\n".encode("cp1252"))
    assert window.open_path(str(path))
    settle(window)
    assert [c.name for c in window.doc.classes] == ["pomme", "pêche"]
    assert "fruit.csv is not UTF-8: read as Windows-1252 text" in window.message.text()


def test_a_session_saved_as_another_file_is_named_after_that_file(qtbot, window, monkeypatch, tmp_path):
    """Save As twice: each file says its own name (`probviz fit` prints it); the second said the first's."""
    import subprocess
    import sys

    from probviz.data.session import read_session

    quiet(window, monkeypatch)
    click(qtbot, window, 1, 1)
    click(qtbot, window, -1, 2)
    for name in ("first.probviz", "second.probviz"):
        path = tmp_path / name
        monkeypatch.setattr("probviz.app.fileops.QFileDialog.getSaveFileName", lambda *a, p=path, **k: (str(p), ""))
        window.files.save_as()
        assert read_session(str(path)).dataset.name == name
    out = subprocess.run([sys.executable, "-m", "probviz", "fit", str(tmp_path / "second.probviz")],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert " on second.probviz:" in out.splitlines()[0]


def test_ctrl_q_while_the_progress_bar_is_up_cancels_the_load_and_quits(qtbot, window, monkeypatch, tmp_path):
    """The progress bar of a long load blocks the window (window-modal), and with it the window's Ctrl+Q: the key
    was lost. The bar now takes Ctrl+Q itself: the load is cancelled (the document as it was) and the window
    closes."""
    from PySide6.QtCore import QTimer
    from PySide6.QtTest import QTest

    errors = quiet(window, monkeypatch)
    big = _slow_big_file(monkeypatch, tmp_path)
    before = window.doc.X.copy()
    window.quit_action.setShortcut("Ctrl+Q")  # a desktop's Quit key (the offscreen platform has none)
    pressed = []

    def press_ctrl_q():
        dialog = window.files.progress_dialog
        if dialog is not None and dialog.isVisible() and not pressed:
            pressed.append(True)
            dialog.activateWindow()  # as the window manager makes the bar active when it shows
            qtbot.waitUntil(dialog.isActiveWindow, timeout=2000)
            QTest.keyClick(dialog, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)

    timer = QTimer(window, interval=5, timeout=press_ctrl_q)
    timer.start()
    opened = window.open_path(str(big))
    timer.stop()
    assert pressed and not opened  # pressed while the bar was up; the load cancelled
    np.testing.assert_array_equal(window.doc.X, before)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)  # and the window quits
    assert not errors


def test_closing_a_changed_csv_asks_to_save_it_as_a_session_not_over_the_file(qtbot, window, monkeypatch, tmp_path):
    """A document opened from a CSV is saved as a session (Save opens Save session…): the question says so,
    rather than offering to save the changes "to copy.csv"; a session's own question names it plainly."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    monkeypatch.setattr(window, "error", lambda title, text: None)
    path = tmp_path / "copy.csv"
    path.write_text("x,y,label\n0,0,a\n1,1,b\n2,0,a\n", encoding="utf-8")
    assert window.open_path(str(path))
    settle(window)
    window.doc.add_points([[0.5, 0.5]], 0)
    settle(window)
    asked = []

    def answer():
        box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())
        asked.append(box.text())
        qtbot.keyClick(box, Qt.Key.Key_Escape)  # Cancel

    QTimer.singleShot(200, answer)
    window.close()  # the question, answered Cancel: the window stays
    assert window.isVisible()
    assert asked == ["Save the changes to “copy.csv” as a probviz session before closing it? The file itself "
                     "stays as it is."]
    assert path.read_text(encoding="utf-8") == "x,y,label\n0,0,a\n1,1,b\n2,0,a\n"
    window.doc.mark_saved()


def test_the_unsaved_changes_question_answers_to_alt_keys(qtbot, window):
    """File › New with unsaved work asks; Alt+D (Discard) answers it from the keyboard and the new document
    comes; asked again, Escape cancels and the work stays."""
    import shiboken6
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from guihelp import menu_action

    window.doc.add_points([[0.5, 0.5], [1.0, 1.0]], 0)
    settle(window)
    seen = []

    def press(key, mod=Qt.KeyboardModifier.NoModifier):
        def act():
            box = QApplication.activeModalWidget()
            seen.append(box.windowTitle() if box is not None else None)
            if box is not None:
                qtbot.keyClick(box, key, mod)
                QTimer.singleShot(200, lambda: shiboken6.isValid(box) and box.isVisible()
                                  and (seen.append("still open"), box.reject()))  # fails, never hangs
        QTimer.singleShot(50, act)

    press(Qt.Key.Key_Escape)
    menu_action(window, "New").trigger()
    settle(window)
    assert seen == ["Unsaved changes"] and len(window.doc.X) == 2  # cancelled: the work stays
    press(Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    menu_action(window, "New").trigger()
    settle(window)
    assert seen == ["Unsaved changes"] * 2 and len(window.doc.X) == 0  # discarded: a new document


def test_every_export_starts_where_the_last_export_went(qtbot, window, monkeypatch, tmp_path):
    """File > Export data as CSV… started in the folder of the last file opened (not the last export's), and the
    learning curves' Export… in the working directory; neither was remembered for the next export. Each now
    starts in the last export's folder and moves it to its own."""
    from probviz.app import lab
    from guihelp import menu_action

    assert window.open_path("example:fruit")
    settle(window)
    figures, data, curves = (tmp_path / name for name in ("figures", "data", "curves"))
    for folder in (figures, data, curves):
        folder.mkdir()
    window.files.settings.setValue("export_folder", str(figures))  # an image exported there before
    starts = []

    def save_as(target):
        return lambda parent, caption, start, *a, **k: starts.append(start) or (str(target), "")

    monkeypatch.setattr("probviz.app.fileops.QFileDialog.getSaveFileName", save_as(data / "fruit.csv"))
    menu_action(window, "Export data as CSV…").trigger()
    settle(window)
    assert os.path.dirname(starts[-1]) == str(figures) and (data / "fruit.csv").exists()

    opened = []
    monkeypatch.setattr(lab.LearningDialog, "exec", lambda self: opened.append(self) or self.show())
    tools = next(a for a in window.menuBar().actions() if a.text().replace("&", "") == "Tools").menu()
    tools.aboutToShow.emit()
    next(a for a in tools.actions() if a.text().replace("&", "") == "Learning curves…").trigger()
    dialog = opened[0]
    qtbot.addWidget(dialog)
    dialog.sizes.setText("4,8")
    dialog.seeds.setValue(2)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=20_000)
    monkeypatch.setattr(lab.QFileDialog, "getSaveFileName", save_as(curves / "curves.svg"))
    qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    assert starts[-1] == str(data / "learning-curves.png") and (curves / "curves.svg").exists()
    assert window.files.export_folder() == str(curves)
