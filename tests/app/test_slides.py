"""Lesson decks in the window, through the menus and keys a teacher uses: File > Lesson decks, PageDown /
PageUp (a clicker), F5, the Slides menu, Ctrl+S. Every slide is checked against the deck's own sessions
(read from probviz.data.decks, not from the window)."""

import numpy as np
import pytest
from guihelp import click, click_dock_tab, menu_item, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QToolBar

from probviz.data import decks
from probviz.data.deck import read_deck, to_json, write_deck

GENERATIVE = decks.deck("generative")
N = len(GENERATIVE)


# --- pressing, as a person does -----------------------------------------------------------------------------

def press(win, *path):
    a = menu_item(win, *path)
    assert a.isEnabled(), f"{' > '.join(path)} is disabled"
    a.trigger()
    settle(win)


def key(qtbot, win, k, mod=Qt.KeyboardModifier.NoModifier):
    """A key pressed in the window, as a person presses it: the window active, its shortcuts live."""
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    qtbot.keyClick(win, k, mod)
    settle(win)


def add_a_point(qtbot, win):
    """A click on the canvas where no point is (the Add tool in hand): one point more."""
    x0, x1, y0, y1 = win.canvas.view_bounds()
    spots = np.array([(x, y) for x in np.linspace(x0, x1, 12)[1:-1] for y in np.linspace(y0, y1, 12)[1:-1]])
    n = len(win.doc.X)
    far = np.min(np.linalg.norm(spots[:, None] - win.doc.X[None], axis=2), axis=1) if n else np.zeros(len(spots))
    click(qtbot, win, *spots[np.argmax(far)])
    assert len(win.doc.X) == n + 1


def open_generative(win):
    press(win, "File", "Lesson decks", GENERATIVE.title)


@pytest.fixture
def win(settings_kept, window, monkeypatch):
    """The window, with no question ever answered unseen: any message box fails the test unless a test
    answers it."""
    window.files.autosave_enabled = False
    asked = []

    def refuse(box):
        asked.append(box.text())
        return QMessageBox.StandardButton.Cancel
    monkeypatch.setattr(QMessageBox, "exec", refuse)
    window.asked = asked
    yield window
    if window.slides.is_open():
        window.slides.stack.setClean()  # pytest-qt closes the window: nothing to ask about
    if window.presentation_action.isChecked():
        window.set_presentation(False)  # the application's font is the application's


# --- what a slide must restore -----------------------------------------------------------------------------

def shows_slide(win, i):
    """The window shows slide ``i`` of the generative deck exactly as its session says."""
    slide = GENERATIVE.slides[i]
    s = slide.session
    doc, vs = win.doc, win.doc.view_state
    assert doc.model_name == s.model, i
    assert len(doc.X) == len(s.dataset.X), i
    np.testing.assert_allclose(doc.X, s.dataset.X)
    assert doc.layers == set(s.layers), i
    assert vs.compare == s.compare and vs.split == tuple(s.split), i
    assert (vs.training.optimizer, vs.training.steps, vs.training.shown) == \
        (s.training.optimizer, s.training.steps, s.training.shown), i
    assert (tuple(doc.priors) if doc.priors is not None else None) == \
        (tuple(s.priors) if s.priors is not None else None), i
    x0, x1, y0, y1 = win.canvas.view_bounds()
    if s.view is not None:
        np.testing.assert_allclose((x0, x1, y0, y1), s.view, atol=1e-6)
    else:  # framed as it opens: every point in view
        X = s.dataset.X
        assert x0 <= X[:, 0].min() and X[:, 0].max() <= x1 and y0 <= X[:, 1].min() and X[:, 1].max() <= y1
    assert f"{i + 1}/{N}: {slide.title}" in win.windowTitle()
    assert win.message.text() == f"Slide {i + 1} of {N}: {slide.title}"
    assert not win.isWindowModified()


def hidden(win):
    panels = {"model": win.dock, "training": win.training_dock, "lab": win.lab_dock, "weights": win.weights_dock,
              "toolbar": win.findChild(QToolBar, "tools")}
    return {name for name, w in panels.items() if w.isHidden()}


def caption(win) -> str:
    return " ".join(win.caption_lines)


# --- the tests --------------------------------------------------------------------------------------------

def test_open_from_the_menu_and_page_through_every_slide(qtbot, win):
    open_generative(win)
    shows_slide(win, 0)
    for i in range(1, N):
        key(qtbot, win, Qt.Key.Key_PageDown)
        shows_slide(win, i)
    key(qtbot, win, Qt.Key.Key_PageDown)  # past the last: it stays
    shows_slide(win, N - 1)
    for i in reversed(range(N - 1)):
        key(qtbot, win, Qt.Key.Key_PageUp)
        shows_slide(win, i)
    key(qtbot, win, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    shows_slide(win, N - 1)
    key(qtbot, win, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    shows_slide(win, 0)
    press(win, "Slides", "Go to slide", f"4. {GENERATIVE.slides[3].title}")
    shows_slide(win, 3)
    assert win.asked == []  # moving never asks anything


def test_an_edit_is_gone_after_leaving_the_slide_and_coming_back(qtbot, win):
    open_generative(win)
    key(qtbot, win, Qt.Key.Key_PageDown)
    n = len(win.doc.X)
    add_a_point(qtbot, win)
    key(qtbot, win, Qt.Key.Key_M)  # another model, tried in class
    assert len(win.doc.X) == n + 1 and win.doc.model_name != "lda"
    assert not win.isWindowModified()  # a change during the talk is not the deck's
    key(qtbot, win, Qt.Key.Key_PageDown)
    key(qtbot, win, Qt.Key.Key_PageUp)
    shows_slide(win, 1)
    assert win.asked == []


def test_record_keeps_the_edit_and_undo_deck_change_takes_it_back(qtbot, win):
    open_generative(win)
    n = len(win.doc.X)
    add_a_point(qtbot, win)
    press(win, "Slides", "Record current state into this slide")
    assert win.isWindowModified() and "Slide" not in win.message.text()
    key(qtbot, win, Qt.Key.Key_PageDown)
    key(qtbot, win, Qt.Key.Key_PageUp)
    assert len(win.doc.X) == n + 1  # as recorded
    assert win.slides.deck.slides[0].session is not GENERATIVE.slides[0].session
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert len(win.doc.X) == n  # the slide as it was, on screen
    assert not win.isWindowModified()
    key(qtbot, win, Qt.Key.Key_PageDown)
    key(qtbot, win, Qt.Key.Key_PageUp)
    shows_slide(win, 0)
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        | Qt.KeyboardModifier.ShiftModifier)  # redo: recorded again, and shown
    assert len(win.doc.X) == n + 1 and win.isWindowModified()


def test_add_rename_move_delete_and_notes_each_undo(qtbot, win, monkeypatch):
    open_generative(win)
    titles = lambda: [s.title for s in win.slides.deck.slides]  # noqa: E731
    original = titles()
    undo = (Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)

    def answer(text):
        def run(dialog):
            if hasattr(dialog, "edit"):
                dialog.edit.setPlainText(text)
            else:
                dialog.setTextValue(text)
            return True
        monkeypatch.setattr(win.files, "run_dialog", run)

    answer("Fruit, <b>renamed</b>")
    key(qtbot, win, Qt.Key.Key_F2)
    assert titles()[0] == "Fruit, <b>renamed</b>" and f"1/{N}: Fruit, <b>renamed</b>" in win.windowTitle()
    key(qtbot, win, *undo)
    assert titles() == original
    press(win, "Slides", "Move slide down")
    assert titles()[:2] == original[1::-1] and f"2/{N}: Apple" in win.windowTitle()
    key(qtbot, win, *undo)
    assert titles() == original and f"1/{N}: Apple" in win.windowTitle()
    press(win, "Slides", "Add slide from current state after this one")
    assert len(titles()) == N + 1 and f"2/{N + 1}" in win.windowTitle()
    key(qtbot, win, *undo)
    assert titles() == original
    press(win, "Slides", "Delete slide")
    assert titles() == original[1:]
    shows_slide_session = win.doc.model_name, len(win.doc.X)
    assert shows_slide_session == (GENERATIVE.slides[1].session.model, len(GENERATIVE.slides[1].session.dataset.X))
    key(qtbot, win, *undo)
    assert titles() == original
    answer("Say it slowly.\nThen the priors.")
    press(win, "Slides", "Edit speaker notes…")
    assert win.slides.deck.slides[0].notes == "Say it slowly.\nThen the priors."
    key(qtbot, win, *undo)
    assert win.slides.deck.slides[0].notes == GENERATIVE.slides[0].notes
    assert not win.isWindowModified()


def test_hidden_panels_come_back_as_they_were(qtbot, win):
    click_dock_tab(qtbot, win, "Lab")  # the teacher had the Lab in front
    assert hidden(win) == set()
    open_generative(win)
    assert hidden(win) == set(GENERATIVE.slides[0].hide) == {"training", "lab", "weights"}
    key(qtbot, win, Qt.Key.Key_PageDown)
    assert hidden(win) == set(GENERATIVE.slides[1].hide) == {"training", "weights"}
    assert not win.lab_dock.visibleRegion().isEmpty()  # back in front of its tabs
    key(qtbot, win, Qt.Key.Key_F5)
    key(qtbot, win, Qt.Key.Key_F5)  # F5 twice: as before
    assert hidden(win) == {"training", "weights"}
    press(win, "View", "Training panel")  # the teacher shows it on this slide
    assert hidden(win) == {"weights"}
    key(qtbot, win, Qt.Key.Key_PageDown)  # the next slide hides it too
    assert hidden(win) == set(GENERATIVE.slides[2].hide) == {"training", "weights"}
    key(qtbot, win, Qt.Key.Key_PageUp)
    press(win, "Slides", "Hide on this slide", "The tool bar")
    assert hidden(win) == {"training", "weights", "toolbar"}
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert hidden(win) == {"training", "weights"}
    press(win, "File", "New")
    assert not win.slides.is_open()
    assert hidden(win) == set() and not win.lab_dock.visibleRegion().isEmpty()


def caption_is_whole(win, i):
    """The caption of slide ``i``: nothing cut, the title alone on the first line when it takes more."""
    title = GENERATIVE.slides[i].title
    lines = win.caption_lines
    assert "…" not in caption(win) and f"{i + 1}/{N}" in lines[-1], lines
    if len(lines) == 1:
        assert lines[0].startswith(title), lines
    else:  # the title on lines of its own (broken between words when one line cannot hold it)
        assert any(" ".join(lines[:k]) == title for k in range(1, len(lines))), lines


def test_presenting_with_a_clicker_and_the_keyboard(qtbot, win):
    win.resize(1024, 768)  # a projector's screen
    open_generative(win)
    key(qtbot, win, Qt.Key.Key_F5)
    assert {"model", "training", "lab", "weights"} <= hidden(win)  # presentation folds the docks
    assert GENERATIVE.slides[0].title in caption(win) and f"1/{N}" in caption(win)
    folded = {"model", "training", "lab", "weights"}
    key(qtbot, win, Qt.Key.Key_PageDown)
    shows_slide(win, 1)
    assert folded <= hidden(win)  # a slide hiding fewer panels brings none back while presenting
    assert GENERATIVE.slides[1].title in caption(win) and f"2/{N}" in caption(win)
    assert "LDA (shared covariance)" in caption(win)  # the model still said
    key(qtbot, win, Qt.Key.Key_Right)
    shows_slide(win, 2)
    key(qtbot, win, Qt.Key.Key_Space)
    shows_slide(win, 3)
    for i in range(4, N):  # every caption whole on a projector's width
        key(qtbot, win, Qt.Key.Key_Right)
        caption_is_whole(win, i)
    for i in reversed(range(3, N - 1)):
        key(qtbot, win, Qt.Key.Key_Left)
    shows_slide(win, 3)
    key(qtbot, win, Qt.Key.Key_Left)
    shows_slide(win, 2)
    press(win, "Slides", "Go to slide", f"7. {GENERATIVE.slides[6].title}")
    assert folded <= hidden(win) and GENERATIVE.slides[6].hide == ("weights",)
    key(qtbot, win, Qt.Key.Key_End)
    shows_slide(win, N - 1)
    assert f"{N}/{N}" in caption(win)
    key(qtbot, win, Qt.Key.Key_Home)
    shows_slide(win, 0)
    press(win, "Slides", "Go to slide", f"5. {GENERATIVE.slides[4].title}")
    assert GENERATIVE.slides[4].session.view is None  # other data, framed as they open
    key(qtbot, win, Qt.Key.Key_F5)  # back: the panels the user had, but those slide 5 hides
    assert hidden(win) == set(GENERATIVE.slides[4].hide)
    shows_slide(win, 4)  # and the slide's own view, not the view from before F5
    # out of presentation mode Space plays the training and the arrows move the probe: no slide moves
    assert win.doc.probe is None
    qtbot.keyClick(win.canvas, Qt.Key.Key_Right)  # the canvas has the keyboard
    settle(win)
    assert win.slides.index == 4 and win.doc.probe is not None
    press(win, "Slides", "Go to slide", f"7. {GENERATIVE.slides[6].title}")  # logistic regression: trainable
    key(qtbot, win, Qt.Key.Key_Space)
    assert win.slides.index == 6 and win.training.play_button.isChecked()
    key(qtbot, win, Qt.Key.Key_Space)


def test_a_run_playing_stops_at_the_next_slide(qtbot, win):
    open_generative(win)
    press(win, "Slides", "Go to slide", f"7. {GENERATIVE.slides[6].title}")  # logistic regression
    key(qtbot, win, Qt.Key.Key_Space)  # Train > Play / pause
    assert win.training.play_button.isChecked()
    key(qtbot, win, Qt.Key.Key_PageDown)  # Newton's steps: two of them, as recorded
    qtbot.wait(400)  # the play timer would have stepped on by now
    settle(win)
    shows_slide(win, 7)
    assert not win.training.play_button.isChecked() and win.doc.view_state.training.steps == 2


def test_ctrl_s_writes_the_deck_and_reading_it_gives_it_back(qtbot, win, monkeypatch, tmp_path):
    path = tmp_path / "lesson.probvizdeck"
    monkeypatch.setattr("probviz.app.slides.QFileDialog.getSaveFileName", lambda *a, **k: (str(path), ""))
    open_generative(win)
    add_a_point(qtbot, win)
    press(win, "Slides", "Record current state into this slide")
    key(qtbot, win, Qt.Key.Key_PageDown)
    add_a_point(qtbot, win)  # a change during the talk, not recorded: not saved
    key(qtbot, win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert path.exists() and not win.isWindowModified()
    assert "lesson.probvizdeck" in win.message.text()
    back = read_deck(str(path))
    assert to_json(back) == to_json(win.slides.deck)
    assert len(back.slides[0].session.dataset.X) == len(GENERATIVE.slides[0].session.dataset.X) + 1
    assert len(back.slides[1].session.dataset.X) == len(GENERATIVE.slides[1].session.dataset.X)
    assert [s.title for s in back.slides] == [s.title for s in GENERATIVE.slides]
    # the file opens as a deck, where a person starts it from (probviz lesson.probvizdeck, Open Recent)
    press(win, "File", "New")
    assert win.open_path(str(path))
    settle(win)
    assert win.slides.is_open() and len(win.doc.X) == len(back.slides[0].session.dataset.X)
    assert f"Generative against discriminative — 1/{N}" in win.windowTitle()


def test_unsaved_deck_changes_are_asked_about(qtbot, win, monkeypatch):
    open_generative(win)
    key(qtbot, win, Qt.Key.Key_PageDown)
    press(win, "Slides", "Move slide up")
    press(win, "File", "New")  # the answer is Cancel: the deck stays
    assert len(win.asked) == 1 and "lesson deck" in win.asked[0]
    assert win.slides.is_open() and f"1/{N}: LDA" in win.windowTitle()
    press(win, "File", "Examples", "xor")
    assert len(win.asked) == 2 and win.slides.is_open()
    win.close()
    assert len(win.asked) == 3 and win.isVisible()
    monkeypatch.setattr(QMessageBox, "exec", lambda box: QMessageBox.StandardButton.Discard)
    press(win, "File", "Examples", "xor")
    assert not win.slides.is_open() and win.doc.title == "xor" and f"/{N}" not in win.windowTitle()


def test_speaker_notes_bar(qtbot, win):
    open_generative(win)
    assert not win.slides.notes_dock.isVisible()
    key(qtbot, win, Qt.Key.Key_F8)
    label = win.slides.notes_label
    assert win.slides.notes_dock.isVisible() and label.text() == GENERATIVE.slides[0].notes
    assert label.textFormat() == Qt.TextFormat.PlainText
    key(qtbot, win, Qt.Key.Key_PageDown)
    assert label.text() == GENERATIVE.slides[1].notes
    small = label.font().pointSizeF()
    key(qtbot, win, Qt.Key.Key_F5)
    assert win.slides.notes_dock.isVisible() and label.font().pointSizeF() > small
    key(qtbot, win, Qt.Key.Key_F9)  # F9 is still the Model panel's
    assert win.dock.isVisible()
    key(qtbot, win, Qt.Key.Key_F5)
    assert win.slides.notes_dock.isVisible()
    press(win, "File", "New")
    assert not win.slides.notes_dock.isVisible()
    key(qtbot, win, Qt.Key.Key_F8)  # without a deck: nothing to show
    assert not win.slides.notes_dock.isVisible()


def test_the_keys_are_on_the_shortcut_sheet(win):
    sections = dict(win.shortcut_sections())
    rows = dict((what, keys) for keys, what in sections["Slides"])
    assert "PgDown" in rows["Next slide"] and "PgUp" in rows["Previous slide"]
    assert any("F8" in keys and what == "Speaker notes" for keys, what in sections["View"])
    assert rows["Undo deck change"] == "Ctrl+Alt+Z"
    presenting = dict((what, keys) for keys, what in sections["Presenting a lesson deck (F5)"])
    assert "Space" in presenting["Next slide"]


def test_probviz_deck_name_opens_the_window_on_it(monkeypatch):
    from probviz import cli

    opened = []
    monkeypatch.setattr("probviz.app.launch.run_gui", lambda path=None: opened.append(path) or 0)
    assert cli.main(["deck:generative"]) == 0
    assert opened == ["deck:generative"]


def test_a_deck_that_cannot_be_read_leaves_the_window_as_it_was(qtbot, win, tmp_path):
    bad = tmp_path / "broken.probvizdeck"
    bad.write_text('{"format": "probviz-deck", "version": 1, "slides": [{"title": "x"}]}')
    assert not win.open_path(str(bad))
    assert len(win.asked) == 1 and "broken.probvizdeck: slide 1" in win.asked[0]
    assert not win.slides.is_open()
    empty = tmp_path / "empty.probvizdeck"
    empty.write_text('{"format": "probviz-deck", "version": 1, "slides": []}')
    assert not win.open_path(str(empty))
    assert "empty.probvizdeck: a lesson deck without slides" in win.asked[-1] and not win.slides.is_open()
    good = tmp_path / "good.probvizdeck"
    write_deck(str(good), GENERATIVE)
    assert win.open_path(str(good))
    settle(win)
    shows_slide(win, 0)


def slides_menu_actions(win):
    """(path, action) of every entry of the Slides menu and its submenus, as a person opens them."""
    out = []

    def walk(menu, path):
        menu.aboutToShow.emit()
        for a in menu.actions():
            if a.isSeparator():
                continue
            name = path + (a.text().replace("&", ""),)
            if a.menu() is not None:
                walk(a.menu(), name)
            else:
                out.append((name, a))
    walk(menu_item(win, "Slides").menu(), ("Slides",))
    return out


def test_every_slides_entry_does_something_a_person_sees(qtbot, win, monkeypatch, tmp_path):
    """With a deck open on slide 2, each entry of the Slides menu, pressed on its own, changes what a person
    sees (the title, the slide, the panels, the notes, the status line) or is disabled."""
    monkeypatch.setattr("probviz.app.slides.QFileDialog.getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "walk.probvizdeck"), ""))

    def answer(dialog):
        if hasattr(dialog, "edit"):
            dialog.edit.setPlainText("Other notes")
        else:
            dialog.setTextValue("Another title")
        return True
    monkeypatch.setattr(win.files, "run_dialog", answer)

    def seen():
        deck = win.slides.deck
        return (win.windowTitle(), win.isWindowModified(), win.message.text(), frozenset(hidden(win)),
                win.slides.notes_dock.isVisible(), len(win.doc.X), win.slides.index,
                tuple((s.title, s.notes, s.hide, id(s.session)) for s in deck.slides) if deck else None)

    pressed = []
    open_generative(win)
    for name, _ in slides_menu_actions(win):
        if win.slides.is_open():
            win.slides.stack.setClean()  # setup, as code: the last press's deck changes are not asked about
        open_generative(win)
        key(qtbot, win, Qt.Key.Key_PageDown)
        win.slides.stack.clear()
        action = dict(slides_menu_actions(win))[name]  # the list is made again as the menu opens
        if not action.isEnabled():
            # nothing to undo yet; one screen here: nothing to swap
            assert name[-1] in ("Undo deck change", "Redo deck change", "Swap screens"), name
            continue
        if name[1] == "Go to slide" and action.isChecked():
            continue  # the slide on screen, checked in the list
        before = seen()
        action.trigger()
        settle(win)
        assert seen() != before, " > ".join(name)
        pressed.append(name[-1])
    assert len(pressed) >= 20 and "Close deck" in pressed and "The tool bar" in pressed


def test_file_open_offers_and_opens_a_deck_file(qtbot, win, monkeypatch, tmp_path):
    path = tmp_path / "lesson.probvizdeck"
    write_deck(str(path), GENERATIVE)
    offered = []

    def dialog(parent, caption, folder, filters):
        offered.append(filters)
        return str(path), ""
    monkeypatch.setattr("probviz.app.fileops.QFileDialog.getOpenFileName", dialog)
    key(qtbot, win, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert "*.probvizdeck" in offered[0].split(";;")[0]  # the first filter, the one shown
    shows_slide(win, 0)
    assert str(path) in win.files.recent()


def test_page_keys_in_a_number_box_step_the_box_not_the_slides(qtbot, win):
    """A number box that has the keyboard keeps PageUp/PageDown (ten steps): the slides do not move (Qt's spin
    box takes the keys before the window's shortcuts; checked on a real X display too)."""
    from probviz.app.widgets import ClampingSpinBox

    open_generative(win)
    spin = next(s for s in win.dock.widget().findChildren(ClampingSpinBox) if s.isVisible() and s.isEnabled())
    win.activateWindow()  # the window's shortcuts live, as on a desktop
    qtbot.waitUntil(win.isActiveWindow)
    qtbot.mouseClick(spin.lineEdit(), Qt.MouseButton.LeftButton)
    assert spin.hasFocus()
    before = spin.value()
    qtbot.keyClick(spin, Qt.Key.Key_PageDown if before > spin.minimum() else Qt.Key.Key_PageUp)
    settle(win)
    assert spin.value() != before and win.slides.index == 0
    key(qtbot, win, Qt.Key.Key_PageDown)  # elsewhere, the next slide
    assert win.slides.index == 1


def test_opening_a_deck_asks_to_save_the_work_on_screen_first(qtbot, win):
    add_a_point(qtbot, win)  # the user's own work, unsaved
    open_generative(win)  # answered Cancel: nothing changes
    assert len(win.asked) == 1 and "untitled" in win.asked[0]
    assert not win.slides.is_open() and len(win.doc.X) == 1


def test_quitting_with_deck_changes_discarded_closes_cleanly(qtbot, settings_kept, monkeypatch):
    """File > Quit with an unsaved deck change, answered Discard: the window closes and is destroyed without an
    error (a slot outliving the slide show once raised "Signal source has been deleted" on the way out)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from probviz.app.main_window import MainWindow

    win = MainWindow()  # not the fixture's: this one is destroyed here, as the program's is at its end
    win.files.autosave_enabled = False
    win.show()
    qtbot.waitExposed(win)
    open_generative(win)
    press(win, "Slides", "Move slide down")
    assert win.slides.is_modified()
    monkeypatch.setattr(QMessageBox, "exec", lambda box: QMessageBox.StandardButton.Discard)
    with qtbot.capture_exceptions() as raised:
        press(win, "File", "Quit")
        assert not win.isVisible()
        win.refitter.shutdown()
        win.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QApplication.processEvents()
    assert not raised, raised
