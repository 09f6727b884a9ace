"""Files: open (CSV or session, also by drag and drop), save, recent files, data export, autosave.

Nothing is lost: saves are atomic, closing with unsaved changes asks
Save / Discard / Cancel, and an autosave a few seconds after each change lets the
next start restore a crashed session. FileOps knows the document, not the window:
what it opens and what it has to say goes out through its signals.
"""

from __future__ import annotations

import os

import shiboken6
from PySide6.QtCore import QObject, QSettings, QStandardPaths, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from probviz.app.columns import ColumnDialog
from probviz.data.csvio import DataError, inspect_csv, read_csv, write_csv
from probviz.data.inputs import load_dataset
from probviz.data.session import read_session, write_session

SESSION_FILTER = "probviz session (*.probviz)"
OPEN_FILTER = "Sessions and data (*.probviz *.csv *.tsv *.txt);;probviz session (*.probviz);;CSV data (*.csv *.tsv *.txt);;All files (*)"
MAX_RECENT = 8
AUTOSAVE_DELAY_MS = 3000


def autosave_path() -> str:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "autosave.probviz")


class FileOps(QObject):
    """The File menu's work for one document; ``parent`` (a widget) owns its dialogs."""

    session_opened = Signal(object)  # a Session to show
    data_opened = Signal(object)  # a Dataset to show
    message = Signal(str)  # a passing status message
    failed = Signal(str, str)  # (title, one-line reason): nothing was changed
    title_changed = Signal()

    def __init__(self, doc, parent):
        super().__init__(parent)
        self.dialog_parent = parent
        self.doc = doc
        self.path: str | None = None  # the session file this document was saved to
        self.settings = QSettings()
        self.autosave_timer = QTimer(self, singleShot=True, interval=AUTOSAVE_DELAY_MS)
        self.autosave_timer.timeout.connect(self.autosave)
        self.doc.undo_stack.indexChanged.connect(self._edited)
        # a test or a second window must not clobber a person's autosave: the window decides
        self.autosave_enabled = True

    # --- asking ---------------------------------------------------------------------------
    def ask_save(self) -> QMessageBox.StandardButton:
        return QMessageBox.question(
            self.dialog_parent, "Unsaved changes", "Save the changes to this session before closing it?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, discarded, or clean)."""
        if self.doc.undo_stack.isClean():
            return True
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
        """Open a session or a CSV file; on failure say why and leave the document untouched."""
        try:
            if path.lower().endswith(".probviz"):
                session = read_session(path)
                self.session_opened.emit(session)
                self.path = path
            else:
                self.message.emit(f"Loading {os.path.basename(path)}…")
                QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
                QApplication.processEvents()  # show the message before the parse
                try:
                    data = self._read_data(path)
                finally:
                    QApplication.restoreOverrideCursor()
                if data is None:
                    return False  # the person cancelled the column choice
                self.data_opened.emit(data)
                self.path = None
        except (DataError, ValueError, OSError) as e:
            self.failed.emit("Cannot open", str(e))
            return False
        self.add_recent(path)
        self.title_changed.emit()
        self.message.emit(f"Opened {os.path.basename(path)}: {len(self.doc.X)} points")
        return True

    def _read_data(self, path: str):
        if path.startswith("example:") or not os.path.exists(path):
            return load_dataset(path)
        layout = inspect_csv(path)
        if not layout.ambiguous:
            return read_csv(path)
        dialog = ColumnDialog(layout, os.path.basename(path), self.dialog_parent)
        if not self.run_dialog(dialog):
            return None
        x, y, label = dialog.choice()
        return read_csv(path, x=x, y=y, label="" if label is None else label)

    def run_dialog(self, dialog) -> bool:
        """Modal dialogs go through here, so tests can answer them."""
        return dialog.exec() == dialog.DialogCode.Accepted

    # --- save ------------------------------------------------------------------------------------
    def save(self) -> bool:
        return self.save_as() if self.path is None else self._write(self.path)

    def save_as(self) -> bool:
        start = self.path or os.path.join(self.folder(), (self.doc.title or "untitled").rsplit(".", 1)[0] + ".probviz")
        path, _ = QFileDialog.getSaveFileName(self.dialog_parent, "Save session", start, SESSION_FILTER)
        if not path:
            return False
        if not path.lower().endswith(".probviz"):
            path += ".probviz"
        return self._write(path)

    def _write(self, path: str) -> bool:
        try:
            write_session(path, self.doc.to_session())
        except OSError as e:
            self.failed.emit("Cannot save", f"{os.path.basename(path)}: {e.strerror or e}")
            return False
        self.path = path
        self.doc.title = os.path.basename(path)
        self.doc.undo_stack.setClean()
        self.add_recent(path)
        self.title_changed.emit()
        self.message.emit(f"Saved {os.path.basename(path)}")
        self.clear_autosave()
        return True

    def export_data(self):
        start = os.path.join(self.folder(), (self.doc.title or "points").rsplit(".", 1)[0] + ".csv")
        path, _ = QFileDialog.getSaveFileName(self.dialog_parent, "Export data as CSV", start, "CSV (*.csv)")
        if not path:
            return
        try:
            write_csv(path, self.doc.dataset())
        except OSError as e:
            self.failed.emit("Cannot export", f"{os.path.basename(path)}: {e.strerror or e}")
            return
        self.message.emit(f"Wrote {len(self.doc.X)} points to {os.path.basename(path)}")

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
        return str(self.settings.value("folder", os.path.expanduser("~")))

    # --- autosave ------------------------------------------------------------------------------
    def _edited(self, _index):
        if not shiboken6.isValid(self.doc.undo_stack):  # the window is being torn down
            return
        if self.autosave_enabled and not self.doc.undo_stack.isClean():
            self.autosave_timer.start()

    def autosave(self):
        if not self.autosave_enabled:
            return
        if self.doc.undo_stack.isClean():
            self.clear_autosave()
            return
        try:
            write_session(autosave_path(), self.doc.to_session())
        except OSError:
            pass  # autosave is a safety net; the status line is no place for its failures

    def clear_autosave(self):
        try:
            os.unlink(autosave_path())
        except OSError:
            pass

    def offer_restore(self) -> bool:
        """After a crash: offer the autosaved session. True when it was restored."""
        path = autosave_path()
        if not self.autosave_enabled or not os.path.exists(path):
            return False
        answer = QMessageBox.question(
            self.dialog_parent, "Restore unsaved work?",
            "probviz did not close normally last time. Restore the unsaved work it kept?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            self.clear_autosave()
            return False
        try:
            session = read_session(path)
        except DataError as e:
            self.failed.emit("Cannot restore", str(e))
            self.clear_autosave()
            return False
        self.session_opened.emit(session)
        self.doc.title = "restored"
        self.doc.undo_stack.resetClean()  # restored work is unsaved work
        self.title_changed.emit()
        return True
