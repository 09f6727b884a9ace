"""Files: open (CSV or session, also by drag and drop), save, recent files, data export, autosave.

Nothing is lost: saves are atomic, closing with unsaved changes asks
Save / Discard / Cancel, and an autosave a few seconds after each change (one file per
running instance, see ``autosave.py``) lets a later start restore work that a crash, a
kill or a logout left unsaved. FileOps knows the document, not the window:
what it opens and what it has to say goes out through its signals.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import replace

import numpy as np
import shiboken6
from PySide6.QtCore import QEventLoop, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QShortcut
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QProgressDialog

from probviz.app.autosave import Autosave
from probviz.app.columns import ColumnDialog
from probviz.data import examples
from probviz.data.csvio import Cancelled, DataError, inspect_csv, read_csv, write_csv
from probviz.data.deck import deck_name, is_deck
from probviz.data.inputs import load_dataset
from probviz.data.outputs import check_outputs
from probviz.data.session import read_session, write_session
from probviz.report import counted

SESSION_FILTER = "probviz session (*.probviz)"
OPEN_FILTER = ("Sessions, lesson decks and data (*.probviz *.probvizdeck *.csv *.tsv *.txt);;"
               "probviz session (*.probviz);;probviz lesson deck (*.probvizdeck);;CSV data (*.csv *.tsv *.txt);;"
               "All files (*)")
MAX_RECENT = 8
AUTOSAVE_DELAY_MS = 3000
PROGRESS_AFTER_MS = 500  # loads that take longer show a progress bar with Cancel


class FileOps(QObject):
    """The File menu's work for one document; ``parent`` (a widget) owns its dialogs."""

    session_opened = Signal(object)  # a Session to show
    data_opened = Signal(object)  # a Dataset to show
    deck_opened = Signal(object, object, str)  # a lesson Deck to show, its file (None: built in), its name
    message = Signal(str)  # a passing status message
    failed = Signal(str, str)  # (title, one-line reason): nothing was changed
    title_changed = Signal()

    def __init__(self, doc, parent):
        super().__init__(parent)
        self.dialog_parent = parent
        self.doc = doc
        self.path: str | None = None  # the session file this document was saved to
        self.data_path: str | None = None  # the data file (CSV) this document was read from
        self.settings = QSettings()
        self.autosave_timer = QTimer(self, singleShot=True, interval=AUTOSAVE_DELAY_MS)
        self.autosave_timer.timeout.connect(self.autosave)
        self.doc.undo_stack.indexChanged.connect(self._edited)
        self.doc.view_state.analysis_changed.connect(self._edited)
        self._example_data = None
        self.doc.reset.connect(self._on_reset)
        self._autosave: Autosave | None = None  # made on first use: one file and lock per instance
        # a test may turn autosave off: the window decides
        self.autosave_enabled = True
        self.autosave_problem: str | None = None
        # the window's SlideShow: while it has a lesson deck open, the deck is the document (saved, asked
        # about), and what changes on a slide is temporary (not autosaved, not asked about)
        self.deck = None

    def _deck_open(self) -> bool:
        return self.deck is not None and self.deck.is_open()

    @property
    def autosave_file(self) -> Autosave | None:
        """This instance's autosave, made on first use; None when its folder cannot be made (a file where
        the folder belongs, no permission): autosave is then off, and the status line says why."""
        if self._autosave is None and self.autosave_enabled:
            try:
                self._autosave = Autosave()
            except OSError as e:
                self.autosave_enabled = False
                self.autosave_problem = f"autosave is off: {e.filename or 'its folder'}: {e.strerror or e}"
                self.message.emit(self.autosave_problem)
        return self._autosave

    # --- asking ---------------------------------------------------------------------------
    def ask_save(self) -> QMessageBox.StandardButton:
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        title = self.doc.title or "untitled"
        # a document from a data file is saved as a session, beside it: the file itself is never written
        from_file = self.path is None and os.path.splitext(title)[1] != ""  # a CSV's name (an example's has none)
        text = (f"Save the changes to “{title}” as a probviz session before closing it? The file itself stays as "
                "it is." if from_file else f"Save the changes to “{title}” before closing it?")
        box = QMessageBox(QMessageBox.Icon.Question, "Unsaved changes", text, buttons, self.dialog_parent)
        box.setTextFormat(Qt.TextFormat.PlainText)  # a file's name is text, never markup
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        box.button(QMessageBox.StandardButton.Save).setText("&Save")  # Alt+S
        box.button(QMessageBox.StandardButton.Discard).setText("&Discard")  # Alt+D; Esc cancels
        return QMessageBox.StandardButton(box.exec())

    def _data_fingerprint(self):
        doc = self.doc
        return (doc.X.tobytes(), doc.labels.tobytes(), tuple((c.name, c.color) for c in doc.classes), doc.truth)

    def _on_reset(self):
        """A built-in example's data as opened: until they change, the document is not the user's work.
        (Restored or saved work that started from an example has other points: it is work.)"""
        doc, self._example_data = self.doc, None
        if doc.title in examples.EXAMPLES:
            original = examples.load(doc.title)
            if (np.array_equal(original.X, doc.X) and np.array_equal(original.labels, doc.labels)
                    and list(original.class_names) == [c.name for c in doc.classes]):
                self._example_data = self._data_fingerprint()

    def is_users_work(self) -> bool:
        """Unsaved changes worth asking about: anything but a built-in example whose points, classes and
        truth are as it opened them (a model, a layer set or a probe tried in class is not work); with a
        lesson deck open, the deck's changes only."""
        if self._deck_open():
            return self.deck.is_modified()
        if not self.doc.is_modified():
            return False
        return not (self.path is None and self._example_data is not None
                    and self._example_data == self._data_fingerprint())

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded, or not the user's work)."""
        if not self.is_users_work():
            return True
        if self._deck_open():
            return self.deck.maybe_save()
        answer = self.ask_save()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # --- open ----------------------------------------------------------------------------------
    def open_dialog(self):
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self.dialog_parent, "Open", self.folder(), OPEN_FILTER)
        if path:
            self.open_path(path)

    def open_path(self, path: str) -> bool:
        """Open a session, a lesson deck or a CSV file; on failure say why and leave the document untouched."""
        try:
            if is_deck(path):  # deck:NAME or a .probvizdeck file: shown from its first slide
                from probviz.data.decks import load_deck

                deck = load_deck(path)
                if not deck.slides:
                    raise DataError(f"{deck_name(path)}: a lesson deck without slides; nothing to show")
                self.path = self.data_path = None  # the deck's file is the slide show's
                self.deck_opened.emit(deck, None if path.startswith("deck:") else path, path)
                if not path.startswith("deck:"):
                    self.add_recent(path)
                return True
            if path.lower().endswith(".probviz"):
                session = read_session(path)
                self.session_opened.emit(session)
                self.path, self.data_path = path, None
                self.doc.title = os.path.basename(path)  # the file's name, as after a save
            elif path.startswith("example:") and path[len("example:"):] in examples.EXAMPLES:
                self.session_opened.emit(examples.session(path[len("example:"):]))  # as File > Examples opens it
                self.path = self.data_path = None
            else:
                self.message.emit(f"Loading {os.path.basename(path)}…")
                data = self._read_data(path)
                if data is None:
                    self.message.emit(f"Did not open {os.path.basename(path)}")
                    return False  # the person cancelled the column choice or the load
                self.data_opened.emit(data)
                self.path, self.data_path = None, path
        except (DataError, ValueError, OSError) as e:
            self.failed.emit("Cannot open", str(e))
            return False
        self.add_recent(path)
        self.title_changed.emit()
        notices = [] if path.lower().endswith(".probviz") or path.startswith("example:") else list(data.notices)
        self.message.emit("  ·  ".join([f"Opened {os.path.basename(path)}: {len(self.doc.X)} points"] + notices))
        return True

    def _read_data(self, path: str):
        if path.startswith("example:") or not os.path.exists(path):
            return load_dataset(path)
        layout = inspect_csv(path)
        if not layout.ambiguous:
            return self._load(path)
        dialog = ColumnDialog(layout, os.path.basename(path), self.dialog_parent)
        if not self.run_dialog(dialog):
            return None
        x, y, label = dialog.choice()
        return self._load(path, x=x, y=y, label="" if label is None else label)

    def _load(self, path: str, **columns):
        """read_csv on a worker thread while the window keeps running; a load that takes longer than
        PROGRESS_AFTER_MS shows a progress bar with Cancel. None when cancelled; errors re-raised."""
        state = {"fraction": 0.0}
        cancel = threading.Event()

        def work():
            def progress(f):
                state["fraction"] = f
                return not cancel.is_set()
            try:
                state["data"] = read_csv(path, progress=progress, **columns)
            except Cancelled:
                state["cancelled"] = True
            except Exception as e:  # noqa: BLE001 - handed to the GUI thread, which re-raises it
                state["error"] = e

        thread = threading.Thread(target=work, name="probviz-load", daemon=True)
        thread.start()
        dialog = QProgressDialog(f"Loading {os.path.basename(path)}…", "Cancel", 0, 1000, self.dialog_parent)
        dialog.setWindowTitle("Loading")
        dialog.setWindowModality(Qt.WindowModality.WindowModal)  # the document cannot change meanwhile
        dialog.setMinimumDuration(PROGRESS_AFTER_MS)
        dialog.setAutoReset(False)
        dialog.setValue(0)
        # the bar blocks the window, and with it the window's Quit keys (Ctrl+Q): the bar takes them, cancels the
        # load, and the window quits
        quitting = []
        quit_action = getattr(self.dialog_parent, "quit_action", None)
        for key in quit_action.shortcuts() if quit_action is not None else ():
            QShortcut(key, dialog, lambda: (quitting.append(True), dialog.cancel()))
        self.progress_dialog = dialog
        while thread.is_alive():
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 30)
            thread.join(0.01)
            dialog.setValue(int(1000 * state["fraction"]))
            if dialog.wasCanceled():
                cancel.set()
        dialog.close()
        self.progress_dialog = None
        if quitting:
            QTimer.singleShot(0, self.dialog_parent.close)
        if "error" in state:
            raise state["error"]
        return state.get("data")

    def run_dialog(self, dialog) -> bool:
        """Modal dialogs go through here, so tests can answer them."""
        return dialog.exec() == dialog.DialogCode.Accepted

    # --- save ------------------------------------------------------------------------------------
    def save(self) -> bool:
        if self._deck_open():  # File > Save, Ctrl+S: the deck is the document
            return self.deck.save()
        return self.save_as() if self.path is None else self._write(self.path)

    def save_as(self) -> bool:
        if self._deck_open():
            return self.deck.save_as()
        start = self.path or os.path.join(self.folder(), (self.doc.title or "untitled").rsplit(".", 1)[0] + ".probviz")
        path, _ = QFileDialog.getSaveFileName(self.dialog_parent, "Save session", start, SESSION_FILTER)
        if not path:
            return False
        if not path.lower().endswith(".probviz"):
            path += ".probviz"
        return self._write(path)

    def _write(self, path: str) -> bool:
        try:
            self.check_output(path, "the session", keep="the open session")
        except ValueError as e:
            self.failed.emit("Cannot save", str(e))
            return False
        session = self.doc.to_session()  # named as the file it goes to, as the window is after a save (it kept
        session = replace(session, dataset=replace(session.dataset, name=os.path.basename(path)))  # the name before)
        try:
            write_session(path, session)
        except OSError as e:
            self.failed.emit("Cannot save", f"{os.path.basename(path)}: {e.strerror or e}")
            return False
        self.path = path
        self.doc.title = os.path.basename(path)
        self.doc.mark_saved()
        self.add_recent(path)
        self.title_changed.emit()
        self.message.emit(f"Saved {os.path.basename(path)}")
        self.clear_autosave()
        return True

    def export_data(self):
        start = os.path.join(self.export_folder(), (self.doc.title or "points").rsplit(".", 1)[0] + ".csv")
        path, _ = QFileDialog.getSaveFileName(self.dialog_parent, "Export data as CSV", start, "CSV (*.csv)")
        if not path:
            return
        try:
            self.check_output(path, "the export")
            write_csv(path, self.doc.dataset())
        except ValueError as e:
            self.failed.emit("Cannot export", str(e))
            return
        except OSError as e:
            self.failed.emit("Cannot export", f"{os.path.basename(path)}: {e.strerror or e}")
            return
        self.remember_export(path)
        self.message.emit(f"Wrote {len(self.doc.X)} points to {os.path.basename(path)}")

    # --- what an output must not be -------------------------------------------------------------------
    def forget_files(self):
        """A new document, or one not from a file (an example): no session or data file is open."""
        self.path = self.data_path = None

    def open_files(self) -> dict[str, str | None]:
        """The files this window reads and writes back: the session, the data file, the lesson deck and the
        autosave, by what they are (None: none open)."""
        deck = getattr(self.deck, "path", None) if self._deck_open() else None
        autosave = self._autosave.path if self._autosave is not None else None
        return {"the open session": self.path, "the data file": self.data_path, "the open lesson deck": deck,
                "this window's autosave": autosave}

    def check_output(self, path: str, what: str, keep: str = "") -> None:
        """ValueError (one line naming both files) when writing ``path`` would overwrite a file the window
        has open: by name, through a symbolic link or a hard link. ``keep`` is the one it may write (Save
        writes the open session)."""
        try:
            check_outputs({k: v for k, v in self.open_files().items() if k != keep}, {what: path})
        except ValueError as e:  # a sentence in a message box: it starts with a capital
            text = str(e)
            raise ValueError(text[:1].upper() + text[1:]) from None

    # --- recent files --------------------------------------------------------------------------
    def recent(self) -> list[str]:
        value = self.settings.value("recent", [])
        items = [value] if isinstance(value, str) else list(value or [])
        return [p for p in items if os.path.exists(p)]

    def add_recent(self, path: str):
        path = os.path.abspath(path)
        items = [path] + [p for p in self.recent() if p != path]
        self.settings.setValue("recent", items[:MAX_RECENT])
        self.settings.setValue("folder", os.path.dirname(path))

    def folder(self) -> str:
        """Where Open and Save start: the folder of the last file opened or saved."""
        return str(self.settings.value("folder", os.path.expanduser("~")))

    def export_folder(self) -> str:
        """Where an export starts (an image, the points as CSV, the learning curves): the folder of the last
        export (remembered between runs), at first the folder of the last file opened or saved."""
        return str(self.settings.value("export_folder", self.folder()))

    def remember_export(self, path: str) -> None:
        """The next export starts in ``path``'s folder."""
        self.settings.setValue("export_folder", os.path.dirname(os.path.abspath(path)))

    # --- autosave ------------------------------------------------------------------------------
    def _edited(self, *_):
        if not shiboken6.isValid(self.doc.undo_stack):  # the window is being torn down
            return
        if self.autosave_enabled and self.doc.is_modified() and not self._deck_open():
            self.autosave_timer.start()

    def autosave(self):
        if not self.autosave_enabled or self._deck_open():  # a slide's changes during a talk are not work
            return
        if not self.doc.is_modified():
            self.clear_autosave()
            return
        session = self.doc.to_session()
        session.source = os.path.abspath(self.path) if self.path else None  # where to save it back
        saver = self.autosave_file
        if saver is None:
            return
        try:
            saver.write(session)
        except (OSError, ValueError):
            pass  # autosave is a safety net; the status line is no place for its failures

    def clear_autosave(self):
        if self._autosave is not None:
            self._autosave.clear()

    def end(self, keep_unsaved: bool = False):
        """The window is closing. With ``keep_unsaved`` (a signal ended the app, nobody was asked)
        unsaved work is written to the autosave and kept for the next start; otherwise it goes."""
        self.autosave_timer.stop()
        if not self.autosave_enabled:
            return
        unsaved = keep_unsaved and self.doc.is_modified() and not self._deck_open()
        if unsaved:
            self.autosave()
        saver = self.autosave_file if self._autosave is not None or unsaved else None
        if saver is not None:
            saver.release(keep=unsaved)

    def offer_restore(self) -> bool:
        """Offer the newest autosave that an ended instance left behind. True when it was restored."""
        if not self.autosave_enabled:
            return False
        saver = self.autosave_file
        orphans = saver.orphans() if saver is not None else []
        if not orphans:
            return False
        newest, rest = orphans[0], orphans[1:]
        for other in rest:
            other.keep()  # offered at a later start: nothing is deleted unseen
        when = time.strftime("%d %b %Y, %H:%M", time.localtime(newest.mtime))
        try:
            session = read_session(newest.path)
        except DataError as e:
            self.failed.emit("Cannot restore", str(e))
            newest.keep()
            return False
        source = session.source
        name = os.path.basename(source) if source else (session.dataset.name or "untitled")
        points = counted(len(session.dataset.X), "point")
        box = QMessageBox(QMessageBox.Icon.Question, "Restore unsaved work?",
                          f"probviz ended with unsaved work on “{name}” ({points}, kept automatically on {when}). "
                          "Restore it?",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.dialog_parent)
        box.setTextFormat(Qt.TextFormat.PlainText)  # a document's name is text, never markup
        box.setDefaultButton(QMessageBox.StandardButton.Yes)
        answer = box.exec()
        if getattr(self.dialog_parent, "ending", False):  # a signal closed the question: nobody answered
            newest.keep()
            return False
        if answer != QMessageBox.StandardButton.Yes:
            newest.drop()
            return False
        self.session_opened.emit(session)
        self.data_path = None
        source = session.source
        if source is not None and source.lower().endswith(".probviz") and os.path.isfile(source):
            self.path = source  # Save writes it back where it came from
            self.doc.title = os.path.basename(source)
        else:
            self.path = None
            self.doc.title = session.dataset.name or "untitled"
        self.doc.mark_unsaved()  # restored work is unsaved work
        self.autosave()  # now ours, before the old copy goes
        newest.drop()
        self.title_changed.emit()
        return True
