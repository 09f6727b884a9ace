"""Lesson decks in the window: a lecture shown slide by slide (File > Lesson decks, the Slides menu).

A deck (:mod:`probviz.data.deck`) is an ordered list of slides, each a complete session. While one is
open, the window shows one slide at a time: moving to a slide restores its session exactly, as File >
Open restores a ``.probviz`` file, hides the panels the slide hides, and names the slide in the window's
title, in the presentation caption (F5) and in the status line.

What the teacher changes on a slide during the talk is temporary: leaving the slide and coming back
shows it as recorded, and moving between slides never asks to save. The deck file is the document:
Slides > Record current state into this slide (or Add slide from current state after this one),
renaming, reordering, deleting a slide or editing its notes change the deck, and only those changes
count as unsaved work (File > Save, Ctrl+S, writes the ``.probvizdeck``; closing asks, as for a session).

Undo: the deck's changes have their own history, Slides > Undo deck change (Ctrl+Alt+Z) and Redo
(Ctrl+Alt+Shift+Z), a QUndoStack of whole decks (a :class:`~probviz.data.deck.Deck` is immutable).
Edit > Undo keeps its one meaning, the edits on the canvas and in the panels of the slide on screen
(whose history starts again on every slide, as on opening a file). The two never mix: a deck change
undone restores a deck, a canvas edit undone restores points.

Keys: PageDown / PageUp (what presentation clickers send) always move between slides; in presentation
mode (F5) also Right / Left and Space (next), Home / End (first, last). Outside F5 those keys keep their
meanings (the arrows move the probe, Space plays the training, Home fits the view), and Ctrl+Home /
Ctrl+End go to the first and last slide. View > Speaker notes (F8; F9 toggles the Model panel) shows the
slide's notes in a bar below the plot, larger in presentation mode.

Two screens: in presentation mode the notes go to the presenter window (:mod:`probviz.app.presenter`, Slides >
Presenter view and Swap screens) on the laptop's screen, with the next slide's title and a clock, while the
slides go full screen on the projector; the notes bar then stays hidden (the class sees the main window).
The presenter window follows every slide shown, every change of the deck and its closing (``changed``).

The :class:`SlideShow` knows the window; the window knows it only through a few calls (its menus, the
caption, the title, presentation mode's layout and the settings it saves).
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QFont, QFontMetrics, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QApplication, QDialog, QDialogButtonBox, QDockWidget, QFileDialog, QInputDialog, QLabel, QLineEdit,
    QMessageBox, QPlainTextEdit, QScrollArea, QToolBar, QVBoxLayout,
)

from probviz.app.presenter import Presenter
from probviz.app.widgets import Dock
from probviz.data import deck as decks_io
from probviz.data.deck import EXTENSION, MAX_NOTES, MAX_TITLE, PANELS, Deck, Slide, deck_name
from probviz.models import REGISTRY

DECK_FILTER = f"probviz lesson deck (*{EXTENSION})"
NOTES_SCALE = 1.25  # the speaker notes' text against the window's (presenting: the presentation's text)
PANEL_TITLES = {"model": "Model panel", "training": "Training panel", "lab": "Lab panel",
                "weights": "Weights panel", "toolbar": "tool bar"}


class DeckEdit(QUndoCommand):
    """One change of the deck: the whole deck and the slide shown, before and after."""

    def __init__(self, slides: "SlideShow", text: str, before: tuple, after: tuple):
        """``before``, ``after``: (deck, index of the slide shown)."""
        super().__init__(text)
        self.slides, self.before, self.after = slides, before, after

    def redo(self):
        self.slides._set_deck(*self.after)

    def undo(self):
        self.slides._set_deck(*self.before)


class NotesDialog(QDialog):
    """Slides > Edit speaker notes: the notes as plain text, OK or Cancel."""

    def __init__(self, title: str, notes: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(f"Speaker notes: {title}")
        self.edit = QPlainTextEdit()
        self.edit.setPlainText(notes)
        self.edit.setTabChangesFocus(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.edit)
        layout.addWidget(buttons)
        self.resize(640, 360)


class SlideShow(QObject):
    """The lesson deck open in the window (if any), the slide shown, the deck's undo history, and the
    actions of the Slides menu, File > Lesson decks and View > Speaker notes."""

    changed = Signal()  # the deck, the slide shown or the deck's saved state changed: title, caption, menus

    def __init__(self, window):
        super().__init__(window)
        self.win = window
        self.deck: Deck | None = None
        self.path: str | None = None  # the .probvizdeck it was read from or saved to; None: built in, unsaved
        self.spec: str = ""  # how messages name it: the file's name or deck:NAME
        self.index = 0
        self.stack = QUndoStack(self)  # the deck's changes (not the canvas's: those are the document's)
        self.stack.cleanChanged.connect(self._clean_changed)  # a bound slot: dropped with this object
        self._loading = False  # True while a slide's session is being put on screen
        self._shown_session = None  # the session the slide on screen was loaded from (or recorded as)
        self._hidden: dict[str, object] = {}  # panels the slide hid that were shown: given back on leaving
        self._front: list = []  # the docks in front of their tab groups before the slide hid panels
        self._announce: str | None = None  # said in the status line once the slide's fit is drawn
        self._notes_wanted = QSettings().value("speaker_notes", False, type=bool)
        self._notes_dock()
        self.presenter = Presenter(self)  # the notes on a second screen while presenting (presenter.py)
        window.doc.reset.connect(self._on_reset)
        window.refitter.ready.connect(self._on_frame)

    def _clean_changed(self, _clean: bool) -> None:
        self.changed.emit()

    # --- what the window asks ------------------------------------------------------------------------
    def is_open(self) -> bool:
        return self.deck is not None

    def is_modified(self) -> bool:
        return self.is_open() and not self.stack.isClean()

    @property
    def slide(self) -> Slide | None:
        return self.deck.slides[self.index] if self.deck is not None else None

    def name(self) -> str:
        return (self.deck.title or self.spec) if self.deck is not None else ""

    def window_title(self) -> str | None:
        """The window's title while a deck is open: the deck, then the slide (None without a deck)."""
        if self.deck is None:
            return None
        return f"{self.name()} — {self.index + 1}/{len(self.deck)}: {self.slide.title}"

    def caption_parts(self, parts: list[str]) -> list[str]:
        """The presentation caption's parts with the slide's title first and its number (3/10) last (the
        window gives the title a line of its own when the caption takes more than one)."""
        if self.deck is None:
            return parts
        return [self.slide.title or f"Slide {self.index + 1}"] + parts + [f"{self.index + 1}/{len(self.deck)}"]

    # --- menus ---------------------------------------------------------------------------------------
    def add_deck_menu(self, file_menu) -> None:
        """File > Lesson decks: the built-in decks (their titles read when the menu opens)."""
        self.decks_menu = file_menu.addMenu("&Lesson decks")
        self.decks_menu.aboutToShow.connect(self._fill_decks)  # not at start-up: making a deck takes a while

    def _fill_decks(self):
        from probviz.data import decks

        menu = self.decks_menu
        if menu.actions():
            return  # filled once: the built-in decks do not change while the program runs
        for name, (summary, make) in decks.DECKS.items():
            a = menu.addAction(make().title or name)
            a.setToolTip(f"deck:{name}: {summary}")
            a.setStatusTip(summary)
            a.triggered.connect(lambda checked=False, n=name: self.win.files.maybe_save()
                                and self.win.files.open_path(f"deck:{n}"))

    def add_notes_action(self, view_menu) -> None:
        """View > Speaker notes (F8): the notes bar below the plot."""
        a = self.notes_action = QAction("Speaker &notes", self.win)
        a.setCheckable(True)
        a.setChecked(self._notes_wanted)
        a.setShortcut(QKeySequence(Qt.Key.Key_F8))
        a.setStatusTip("The slide's speaker notes in a bar below the plot (while a lesson deck is open)")
        a.toggled.connect(self._notes_toggled)
        view_menu.addAction(a)

    def add_menu(self, menubar, before=None) -> None:
        """The Slides menu, before the menu ``before`` (an action of the menu bar) if given."""
        from PySide6.QtWidgets import QMenu

        menu = QMenu("S&lides", self.win)
        if before is not None:
            menubar.insertMenu(before, menu)
        else:
            menubar.addMenu(menu)
        self.menu = menu
        w = self.win

        def act(text, slot, keys=(), tip=""):
            a = QAction(text, w)
            a.setShortcuts([QKeySequence(k) for k in keys])
            a.triggered.connect(lambda checked=False: slot())
            if tip:
                a.setStatusTip(tip)
            menu.addAction(a)
            return a

        self.next_action = act("&Next slide", self.next, tip="The next slide (PageDown; in F5 also Right, Space)")
        self.prev_action = act("&Previous slide", self.previous, tip="The slide before (PageUp; in F5 also Left)")
        self.first_action = act("&First slide", lambda: self.go(0), tip="Slide 1 (Ctrl+Home; in F5 also Home)")
        self.last_action = act("&Last slide", lambda: self.go(len(self.deck) - 1),
                               tip="The last slide (Ctrl+End; in F5 also End)")
        self.list_menu = menu.addMenu("&Go to slide")
        self.list_menu.aboutToShow.connect(self._fill_list)
        menu.addSeparator()
        self.record_action = act("&Record current state into this slide", self.record,
                                 tip="The slide restores what is on screen now (Undo deck change takes it back)")
        self.add_action = act("&Add slide from current state after this one", self.add_slide,
                              tip="A new slide after this one, restoring what is on screen now")
        self.rename_action = act("Re&name slide…", self.rename, [Qt.Key.Key_F2])
        self.notes_edit_action = act("Edit speaker n&otes…", self.edit_notes)
        self.up_action = act("Move slide &up", lambda: self.move(-1))
        self.down_action = act("Move slide &down", lambda: self.move(1))
        self.delete_action = act("D&elete slide", self.delete)
        self.hide_menu = menu.addMenu("&Hide on this slide")
        self.hide_actions = {}
        for panel in PANELS:
            a = self.hide_menu.addAction(f"The {PANEL_TITLES[panel]}")
            a.setCheckable(True)
            a.triggered.connect(lambda on, p=panel: self.set_hidden(p, on))
            self.hide_actions[panel] = a
        menu.addSeparator()
        self.undo_action = self.stack.createUndoAction(w, "Undo deck change")
        self.undo_action.setShortcut(QKeySequence("Ctrl+Alt+Z"))
        self.redo_action = self.stack.createRedoAction(w, "Redo deck change")
        self.redo_action.setShortcut(QKeySequence("Ctrl+Alt+Shift+Z"))
        menu.addAction(self.undo_action)
        menu.addAction(self.redo_action)
        menu.addSeparator()
        self.save_action = act("&Save deck", self.save, tip="Write the lesson deck (File > Save does too while "
                                                            "a deck is open)")
        self.save_as_action = act("Save deck &as…", self.save_as)
        self.close_action = act("&Close deck", self.close_deck,
                                tip="Back to one document: the slide on screen, as an untitled session")
        menu.addSeparator()
        self.presenter.add_actions(menu)  # Presenter view, Swap screens
        self.changed.connect(self._sync_actions)
        self._sync_actions()

    def _fill_list(self):
        menu = self.list_menu
        menu.clear()
        if self.deck is None:
            menu.addAction("(no lesson deck open)").setEnabled(False)
            return
        group = QActionGroup(menu)
        for i, slide in enumerate(self.deck.slides):
            a = menu.addAction(f"{i + 1}. {slide.title}")
            a.setCheckable(True)
            a.setChecked(i == self.index)
            group.addAction(a)
            a.triggered.connect(lambda checked=False, i=i: self.go(i))

    def _sync_actions(self):
        """Enable what the deck on screen allows; the keys of presentation mode; the hidden panels' checks."""
        if not hasattr(self, "menu"):
            return
        on = self.deck is not None
        n = len(self.deck) if on else 0
        for a in (self.record_action, self.add_action, self.rename_action, self.notes_edit_action,
                  self.save_action, self.save_as_action, self.close_action):
            a.setEnabled(on)
        self.next_action.setEnabled(on and self.index < n - 1)
        self.prev_action.setEnabled(on and self.index > 0)
        self.first_action.setEnabled(on and self.index > 0)
        self.last_action.setEnabled(on and self.index < n - 1)
        self.up_action.setEnabled(on and self.index > 0)
        self.down_action.setEnabled(on and self.index < n - 1)
        self.delete_action.setEnabled(on and n > 1)  # a deck keeps one slide at least
        self.hide_menu.setEnabled(on)
        for panel, a in self.hide_actions.items():
            a.setEnabled(on)
            a.setChecked(on and panel in self.slide.hide)
        self.notes_action.setEnabled(on)
        self._sync_keys()

    def _sync_keys(self):
        """Right / Left, Space, Home and End move through the slides only while a deck is presented (F5):
        otherwise they keep their own meanings (the probe, Play / pause, Fit view)."""
        w = self.win
        deck_keys = self.deck is not None and w.presentation_action.isChecked()

        def keys(*names):
            return [QKeySequence(k) for k in names]

        extra = deck_keys
        self.next_action.setShortcuts(keys(Qt.Key.Key_PageDown) + (keys(Qt.Key.Key_Right, Qt.Key.Key_Space)
                                                                   if extra else []))
        self.prev_action.setShortcuts(keys(Qt.Key.Key_PageUp) + (keys(Qt.Key.Key_Left) if extra else []))
        self.first_action.setShortcuts(keys("Ctrl+Home") + (keys(Qt.Key.Key_Home) if extra else []))
        self.last_action.setShortcuts(keys("Ctrl+End") + (keys(Qt.Key.Key_End) if extra else []))
        w.play_action.setShortcuts([] if extra else keys(Qt.Key.Key_Space))
        w.fit_view_action.setShortcuts(keys("F") + ([] if extra else keys(Qt.Key.Key_Home)))

    @staticmethod
    def presenting_keys() -> tuple[str, list[tuple[str, str]]]:
        """The shortcut sheet's section for the keys a lesson deck takes only in presentation mode."""
        return ("Presenting a lesson deck (F5)", [
            ("PgDown, →, Space", "Next slide"),
            ("PgUp, ←", "Previous slide"),
            ("Home, End", "First slide, last slide"),
            ("Esc", "End the presentation (in the main window: once nothing is selected)"),
            ("R (presenter window)", "Reset the elapsed time"),
        ])

    # --- the notes bar ------------------------------------------------------------------------------
    def _notes_dock(self):
        w = self.win
        label = self.notes_label = QLabel()
        label.setTextFormat(Qt.TextFormat.PlainText)  # notes are text, never markup
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setMargin(6)
        scroll = QScrollArea()
        scroll.setWidget(label)
        scroll.setWidgetResizable(True)
        dock = self.notes_dock = Dock("Speaker notes", w)
        dock.setObjectName("notes")
        dock.setWidget(scroll)
        # only View > Speaker notes shows or hides it: a close button would leave the action's check wrong
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        w.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
        dock.hide()

    def _notes_toggled(self, on: bool):
        self._notes_wanted = on
        QSettings().setValue("speaker_notes", on)
        self._show_notes()

    def _show_notes(self, resize: bool = False):
        """The notes bar: shown while a deck is open and the teacher wants it; the slide's notes, large.
        Made four lines high when it appears (or ``resize``), else left as the teacher sized it."""
        slide = self.slide
        self.notes_label.setText((slide.notes or "(no notes for this slide)") if slide is not None else "")
        presenting = self.win.presentation_action.isChecked()
        font = QFont(QApplication.font())  # presenting, the application's font is already large
        if not presenting:
            font.setPointSizeF(font.pointSizeF() * NOTES_SCALE)
        self.notes_label.setFont(font)
        # never on the main window while the presenter window has the notes: the class sees the main window
        want = slide is not None and self._notes_wanted and not self.presenter.is_up()
        if want != self.notes_dock.isVisible():
            self.notes_dock.setVisible(want)
            resize = want
        if resize and want:  # four lines, and a quarter of the window at most: the plot stays the larger part
            title = QFontMetrics(self.notes_dock.font()).height() + 10  # the dock's own title bar
            lines = QFontMetrics(font).lineSpacing() * 4 + 2 * self.notes_label.margin() + title + 8
            self.win.resizeDocks([self.notes_dock], [min(lines, self.win.height() // 4)], Qt.Orientation.Vertical)

    # --- opening and closing --------------------------------------------------------------------------
    def open(self, deck: Deck, path: str | None, spec: str) -> None:
        """Show ``deck`` (of one slide at least) from its first slide (the caller has asked to save the work
        on screen)."""
        self.deck, self.path, self.spec, self.index = deck, path, deck_name(spec), 0
        self.stack.clear()
        self.stack.setClean()
        self._show(0)

    def close_deck(self) -> bool:
        """Slides > Close deck: the slide on screen stays, as an untitled session; the deck is asked about
        first if it has unsaved changes. True when it closed."""
        if self.deck is None:
            return True
        if not self.maybe_save():
            return False
        self._close()
        self.win.files.path = None  # File > Save asks where: the slide on screen is in no session file
        self.win.update_title()
        self.win.flash("Closed the lesson deck: the slide on screen stays, as an untitled session")
        return True

    def _close(self):
        """Back to one document: the panels the slide hid come back, the notes bar goes."""
        self.release_panels()
        self.deck, self.path, self.spec, self.index = None, None, "", 0
        self._shown_session = None
        self._announce = None
        self.stack.clear()
        self._show_notes()
        self.changed.emit()

    def _on_reset(self):
        """A document opened by anything but a slide (File > New, Open, an example, a restored autosave)
        closes the deck: the window is back to one document."""
        if self.deck is not None and not self._loading:
            self._close()

    # --- moving -----------------------------------------------------------------------------------------
    def next(self):
        if self.deck is not None and self.index < len(self.deck) - 1:
            self.go(self.index + 1)

    def previous(self):
        if self.deck is not None and self.index > 0:
            self.go(self.index - 1)

    def go(self, index: int):
        """Show slide ``index`` as recorded: what was changed on the slide left is dropped, unasked."""
        if self.deck is not None and 0 <= index < len(self.deck):
            self._show(index)

    def _show(self, index: int):
        self.index = index
        slide = self.slide
        # a training run playing on the slide left stops: the next slide shows the step it recorded
        self.win.training.play_button.setChecked(False)
        self._loading = True
        try:
            self.win.load_session(slide.session)
        finally:
            self._loading = False
        self._shown_session = slide.session
        self._refresh()
        self._announce = f"Slide {index + 1} of {len(self.deck)}: {slide.title}"
        self.win.flash(self._announce)

    def _on_frame(self, frame):
        """The slide's first frame replaces the status line's message with its fit: say the slide again."""
        if self._announce is not None:
            text, self._announce = self._announce, None
            self.win.flash(text)

    def _refresh(self):
        """Everything but the session: hidden panels, notes, title, caption, menus."""
        self.apply_panels()
        self._show_notes()
        self.changed.emit()

    # --- hidden panels ----------------------------------------------------------------------------------
    def _panel(self, name: str):
        w = self.win
        return {"model": w.dock, "training": w.training_dock, "lab": w.lab_dock, "weights": w.weights_dock,
                "toolbar": w.findChild(QToolBar, "tools")}[name]

    def _docks(self):
        w = self.win
        return (w.dock, w.training_dock, w.lab_dock, w.weights_dock)

    def apply_panels(self):
        """Hide what the slide on screen hides (remembering what was shown), give back what it does not
        (a dock that was in front of its tabs before comes back in front)."""
        want = set(self.slide.hide) if self.slide is not None else set()
        self._give_back([self._hidden.pop(n) for n in [n for n in self._hidden if n not in want]])
        if not self._hidden:
            self._front = []
        for name in PANELS:  # (one the teacher showed again on the slide before is hidden again)
            widget = self._panel(name)
            if name in want and widget is not None and not widget.isHidden():
                if not self._hidden:  # the first panel this slide hides: which tabs were in front
                    self._front = [d for d in self._docks() if not d.isHidden() and not d.visibleRegion().isEmpty()]
                widget.setVisible(False)
                self._hidden.setdefault(name, widget)

    def _give_back(self, widgets):
        for widget in widgets:
            widget.setVisible(True)
        for widget in widgets:  # once all are back: showing a dock may bring it before its tab group
            if widget in self._front:
                widget.raise_()

    def release_panels(self):
        """Show again every panel the slide hid (before presentation mode saves or restores the layout,
        before the window saves it for the next start, and when the deck closes)."""
        self._give_back(list(self._hidden.values()))
        self._hidden.clear()
        self._front = []

    def presentation_changed(self):
        """F5 on or off (after the window laid itself out): the slide's panels hidden again, the keys
        of presentation mode, the notes' size; with two screens the presenter window (before the notes bar)."""
        self.presenter.sync()
        self.apply_panels()
        self._show_notes(resize=True)
        self._sync_keys()

    def before_saving_layout(self):
        """The window saves its layout for the next start: without the slide's hiding and the notes bar."""
        self.release_panels()
        self.notes_dock.hide()

    # --- changing the deck --------------------------------------------------------------------------
    def _set_deck(self, deck: Deck, index: int):
        """The deck after a change, or an undo or redo of one: the slide ``index`` is shown; its session is
        loaded again only when it is not what is on screen (a rename keeps the edits in progress)."""
        self.deck, self.index = deck, index
        if self.slide.session is not self._shown_session:
            self._show(index)
        else:
            self._refresh()

    def _change(self, text: str, deck: Deck, index: int):
        self.stack.push(DeckEdit(self, text, (self.deck, self.index), (deck, index)))

    def _session_on_screen(self):
        return self.win.doc.to_session(self.win.canvas.view_bounds())

    def record(self):
        """The slide restores what is on screen now: the change made during the talk, kept."""
        if self.deck is None:
            return
        session = self._session_on_screen()
        self._shown_session = session  # already on screen: recording does not load it again
        self._change(f"Record slide {self.index + 1}", decks_io.with_session(self.deck, self.index, session),
                     self.index)
        self.win.doc.mark_saved()  # what is on screen is what the slide holds
        self.win.flash(f"Recorded the screen into slide {self.index + 1}: {self.slide.title}")

    def add_slide(self):
        """A new slide after this one, restoring what is on screen; the screen moves on to it."""
        if self.deck is None:
            return
        doc = self.win.doc
        title = f"{REGISTRY[doc.model_name].label}: {doc.title or 'untitled'}"[:MAX_TITLE]
        session = self._session_on_screen()
        try:
            deck = decks_io.record(self.deck, self.index, Slide(title, "", session, self.slide.hide))
        except ValueError as e:  # a full deck
            self.win.error("Cannot add a slide", str(e))
            return
        self._shown_session = session
        self._change(f"Add slide {self.index + 2}", deck, self.index + 1)
        doc.mark_saved()
        self.win.flash(f"Added slide {self.index + 1} of {len(self.deck)}: {title} (Slides > Rename slide to "
                       "name it)")

    def rename(self):
        if self.deck is None:
            return
        dialog = QInputDialog(self.win)
        dialog.setWindowTitle("Rename slide")
        dialog.setLabelText(f"Title of slide {self.index + 1}:")
        dialog.setTextValue(self.slide.title)
        dialog.findChild(QLineEdit).setMaxLength(MAX_TITLE)
        if not self.win.files.run_dialog(dialog):
            return
        title = " ".join(dialog.textValue().split())  # one line, as the caption shows it
        if title == self.slide.title:
            return
        try:
            deck = decks_io.rename(self.deck, self.index, title)
        except ValueError as e:
            self.win.error("Cannot rename the slide", str(e))
            return
        self._change(f"Rename slide {self.index + 1}", deck, self.index)

    def edit_notes(self):
        if self.deck is None:
            return
        dialog = NotesDialog(self.slide.title, self.slide.notes, self.win)
        if not self.win.files.run_dialog(dialog):
            return
        notes = dialog.edit.toPlainText()[:MAX_NOTES]
        if notes == self.slide.notes:
            return
        try:
            deck = decks_io.with_notes(self.deck, self.index, notes)
        except ValueError as e:
            self.win.error("Cannot keep these notes", str(e))
            return
        self._change(f"Edit the notes of slide {self.index + 1}", deck, self.index)

    def move(self, step: int):
        """Move the slide on screen one place earlier (-1) or later (+1); it stays on screen."""
        j = self.index + step
        if self.deck is None or not 0 <= j < len(self.deck):
            return
        self._change(f"Move slide {self.index + 1} {'up' if step < 0 else 'down'}",
                     decks_io.move(self.deck, self.index, j), j)
        self.win.flash(f"Slide {j + 1} of {len(self.deck)}: {self.slide.title}")

    def delete(self):
        """Delete the slide on screen (never the last one left); the next one (or the one before) shows."""
        if self.deck is None or len(self.deck) < 2:
            return
        title = self.slide.title
        deck = decks_io.delete(self.deck, self.index)
        self._change(f"Delete slide {self.index + 1}", deck, min(self.index, len(deck) - 1))
        self.win.flash(f"Deleted slide “{title}” (Slides > Undo deck change brings it back)")

    def set_hidden(self, panel: str, hide: bool):
        """Slides > Hide on this slide: the slide hides (or shows) ``panel``."""
        if self.deck is None:
            return
        current = [p for p in self.slide.hide if p != panel] + ([panel] if hide else [])
        hide_now = tuple(p for p in PANELS if p in current)
        if hide_now != tuple(self.slide.hide):
            verb = "Hide" if hide else "Show"
            self._change(f"{verb} the {PANEL_TITLES[panel]} on slide {self.index + 1}",
                         decks_io.with_hide(self.deck, self.index, hide_now), self.index)

    # --- saving --------------------------------------------------------------------------------------
    def save(self) -> bool:
        return self.save_as() if self.path is None else self._write(self.path)

    def save_as(self) -> bool:
        if self.deck is None:
            return False
        files = self.win.files
        stem = os.path.splitext(os.path.basename(self.path))[0] if self.path else (
            self.spec.split(":", 1)[-1] if self.spec else "lesson")
        start = self.path or os.path.join(files.folder(), stem + EXTENSION)
        path, _ = QFileDialog.getSaveFileName(self.win, "Save lesson deck", start, DECK_FILTER)
        if not path:
            return False
        if not path.lower().endswith(EXTENSION):
            path += EXTENSION
        return self._write(path)

    def _write(self, path: str) -> bool:
        try:
            self.win.files.check_output(path, "the lesson deck", keep="the open lesson deck")
            decks_io.write_deck(path, self.deck)  # atomic: a temporary file, then a rename
        except (OSError, ValueError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            self.win.error("Cannot save", f"{os.path.basename(path)}: {reason}")
            return False
        self.path, self.spec = path, deck_name(path)
        self.stack.setClean()
        self.win.files.add_recent(path)
        self.changed.emit()
        self.win.flash(f"Saved {os.path.basename(path)}: {len(self.deck)} slides")
        return True

    def maybe_save(self) -> bool:
        """True when the deck may go: saved, discarded, or without unsaved changes. The slide's own edits
        during the talk are not asked about: they were never part of the deck."""
        if not self.is_modified():
            return True
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        box = QMessageBox(QMessageBox.Icon.Question, "Unsaved changes",
                          f"Save the changes to the lesson deck “{self.name()}” before closing it?",
                          buttons, self.win)
        box.setTextFormat(Qt.TextFormat.PlainText)  # a title is text, never markup
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = QMessageBox.StandardButton(box.exec())
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard
