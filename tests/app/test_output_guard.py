"""Outputs never overwrite what the window has open: File › Export image, Export data and Save As refuse
the open session and the data file, also through a symbolic link, and a typed name that exists is asked
about before it is replaced; the export dialog keeps its Legend tick for the next export. Everything is
pressed: the menu, the dialog's field and its buttons."""

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QMessageBox

from guihelp import menu_action, settle
from probviz.app.export_dialog import ExportDialog

LEFT = Qt.MouseButton.LeftButton


def _press_save(qtbot, path):
    """Type ``path`` into the File field and click Save."""
    def act(dialog):
        dialog.path.selectAll()
        qtbot.keyClicks(dialog.path, path)
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), LEFT)
    return ExportDialog, act


def _answer(qtbot, seen, button):
    """Read the message box's text into ``seen`` and click ``button``."""
    def act(box):
        seen.append(box.text())
        if box.button(button) is None:  # another question than the one expected: closed, and the test fails
            box.reject()
        else:
            qtbot.mouseClick(box.button(button), LEFT)
    return QMessageBox, act


def _cancel(qtbot):
    def act(dialog):
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Cancel), LEFT)
    return ExportDialog, act


def _saved_session(qtbot, window, tmp_path, monkeypatch):
    window.open_example("fruit")
    settle(window)
    session = tmp_path / "good.probviz"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(session), ""))
    menu_action(window, "Save As…").trigger()
    settle(window)
    assert window.files.path == str(session)
    return session


def test_export_image_refuses_the_open_session_through_a_symbolic_link(qtbot, window, tmp_path, monkeypatch,
                                                                        in_turn):
    session = _saved_session(qtbot, window, tmp_path, monkeypatch)
    before = session.read_bytes()
    link = tmp_path / "sess.png"
    os.symlink(session, link)
    seen = []
    in_turn([_press_save(qtbot, str(link)), _answer(qtbot, seen, QMessageBox.StandardButton.Ok),
              _cancel(qtbot)])
    menu_action(window, "Export image…").trigger()
    settle(window)
    assert len(seen) == 1 and seen[0].startswith("The export ") and "the open session" in seen[0], seen
    assert "good.probviz" in seen[0]
    assert session.read_bytes() == before  # the session is whole
    assert os.path.islink(link)


def test_export_image_asks_before_replacing_a_file_typed_into_the_dialog(qtbot, window, tmp_path, in_turn):
    window.open_example("fruit")
    settle(window)
    other = tmp_path / "figure.png"
    other.write_bytes(b"someone's figure")
    seen = []
    in_turn([_press_save(qtbot, str(other)), _answer(qtbot, seen, QMessageBox.StandardButton.No),
              _cancel(qtbot)])
    menu_action(window, "Export image…").trigger()
    settle(window)
    assert seen == ["figure.png already exists. Replace it?"]
    assert other.read_bytes() == b"someone's figure"  # No: nothing written
    seen.clear()
    in_turn([_press_save(qtbot, str(other)), _answer(qtbot, seen, QMessageBox.StandardButton.Yes)])
    menu_action(window, "Export image…").trigger()
    settle(window)
    assert seen == ["figure.png already exists. Replace it?"]
    image = QImage(str(other))  # Yes: replaced by the figure
    assert not image.isNull() and image.width() >= 400


def test_export_image_refuses_an_unknown_type_and_stays_open_for_another_name(qtbot, window, tmp_path, in_turn):
    """A .jpg typed into File > Export image, then Save: the dialog closed and only then said it cannot draw a
    .jpg, so the size, title and look set in it were lost. It says why and stays open; the .png typed next is
    written, and nothing named .jpg."""
    window.open_example("fruit")
    settle(window)
    seen, titles = [], []

    def retitle(dialog):  # the dialog that refused the .jpg, still open: keep what was set, change the name
        titles.append(dialog.title.text())
        dialog.path.selectAll()
        qtbot.keyClicks(dialog.path, str(tmp_path / "figure.png"))
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), LEFT)

    def typed(dialog):
        qtbot.keyClicks(dialog.title, "Fruit")
        dialog.path.selectAll()
        qtbot.keyClicks(dialog.path, str(tmp_path / "figure.jpg"))
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), LEFT)

    def emptied(dialog):
        dialog.path.clear()
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), LEFT)

    in_turn([(ExportDialog, typed), _answer(qtbot, seen, QMessageBox.StandardButton.Ok),
             (ExportDialog, emptied), _answer(qtbot, seen, QMessageBox.StandardButton.Ok),
             (ExportDialog, retitle)])
    menu_action(window, "Export image…").trigger()
    settle(window)
    assert seen == ["figure.jpg: unknown figure type .jpg; use .png, .svg or .pdf",
                    "Name the file to write: a .png, .svg or .pdf."], seen
    assert titles == ["Fruit"]
    assert not (tmp_path / "figure.jpg").exists()
    assert QImage(str(tmp_path / "figure.png")).width() >= 400


def test_a_name_typed_without_a_folder_goes_to_the_folder_the_dialog_shows(qtbot, window, tmp_path, monkeypatch,
                                                                            in_turn):
    """File > Export image starts in the last export's folder; "fig.png" typed alone went to the program's working
    folder instead (wherever it was started from), and the status line named only the file."""
    window.open_example("fruit")
    settle(window)
    figures, elsewhere = tmp_path / "figures", tmp_path / "started here"
    figures.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    shown = []
    for name in (str(figures / "first.png"), "fig.png"):
        in_turn([(ExportDialog, lambda d: shown.append(d.path.text()) or _press_save(qtbot, name)[1](d))])
        menu_action(window, "Export image…").trigger()
        settle(window)
    assert os.path.dirname(shown[1]) == str(figures)  # the second dialog showed the first export's folder
    assert QImage(str(figures / "fig.png")).width() >= 400 and not (elsewhere / "fig.png").exists()
    assert window.message.text() == f"Wrote fig.png in {figures}"


def test_save_as_and_export_data_refuse_the_data_file_through_a_link(qtbot, window, tmp_path, monkeypatch,
                                                                      in_turn):
    """A CSV opened, then Save As onto a .probviz name that links to it, and Export data onto the CSV
    itself: both refused with the reason, the CSV unchanged, no session path taken."""
    data = tmp_path / "points.csv"
    data.write_text("x,y,class\n0,0,a\n1,0,a\n0,1,b\n1,1,b\n")
    assert window.open_path(str(data))
    settle(window)
    link = tmp_path / "points.probviz"
    os.symlink(data, link)
    before = data.read_bytes()
    seen = []
    for action, target in (("Save As…", link), ("Export data as CSV…", data)):
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, t=target, **k: (str(t), ""))
        in_turn([_answer(qtbot, seen, QMessageBox.StandardButton.Ok)])
        menu_action(window, action).trigger()
        settle(window)
    assert len(seen) == 2 and all("the data file" in s and "points.csv" in s for s in seen), seen
    assert data.read_bytes() == before
    assert window.files.path is None


def test_the_export_dialog_keeps_the_legend_ticked_for_the_next_export(qtbot, settings_kept, window, tmp_path,
                                                                       in_turn):
    """View › Legend off: the first export's Legend box is unticked; ticked by a click and saved, the next
    export starts ticked (a PNG, then its SVG, used to lose the legend); unticked and saved, it starts
    unticked again."""
    from pressing import press_button

    window.open_example("fruit")
    settle(window)
    assert not window.legend_action.isChecked()
    states = []

    def tick(want):
        def act(dialog):
            states.append(dialog.legend.isChecked())
            if dialog.legend.isChecked() != want:
                press_button(qtbot, dialog.legend)
            dialog.path.selectAll()
            qtbot.keyClicks(dialog.path, str(tmp_path / f"f{len(states)}.png"))
            qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), LEFT)
        return ExportDialog, act

    for want in (True, True, False, False):
        in_turn([tick(want)])
        menu_action(window, "Export image…").trigger()
        settle(window)
    assert states == [False, True, True, False]
    assert all((tmp_path / f"f{i}.png").exists() for i in range(1, 5))


def test_the_export_dialog_starts_from_the_documents_last_export(qtbot, settings_kept, window, tmp_path, in_turn):
    """A PNG exported with a title, a size, a resolution and a transparent background, then File > Export image
    again for its SVG: the title was gone (the SVG and PDF came out without it). The dialog starts from the last
    export's options; another document starts afresh."""
    from pressing import press_button

    window.open_example("fruit")
    settle(window)
    seen = []

    def fill(dialog):
        dialog.path.selectAll()
        qtbot.keyClicks(dialog.path, str(tmp_path / "fruit.png"))
        for box, text in ((dialog.width_, "640"), (dialog.height_, "480"), (dialog.dpi, "300")):
            box.selectAll()
            qtbot.keyClicks(box, text)
        qtbot.keyClicks(dialog.title, "Fruit, resampled")
        press_button(qtbot, dialog.transparent)
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Save), LEFT)

    def look(dialog):
        seen.append((dialog.path.text(), dialog.width_.value(), dialog.height_.value(), dialog.dpi.value(),
                     dialog.title.text(), dialog.transparent.isChecked()))
        qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Cancel), LEFT)

    for act in (fill, look):
        in_turn([(ExportDialog, act)])
        menu_action(window, "Export image…").trigger()
        settle(window)
    assert QImage(str(tmp_path / "fruit.png")).width() == 640
    assert seen[0] == (str(tmp_path / "fruit.png"), 640, 480, 300, "Fruit, resampled", True)
    window.open_example("xor")
    settle(window)
    in_turn([(ExportDialog, look)])
    menu_action(window, "Export image…").trigger()
    settle(window)
    assert seen[1][4] == "" and not seen[1][5] and seen[1][0].endswith("xor.png")
