"""Autosaves: one file per running instance, guarded by a lock that dies with its process.

Each window writes ``autosave-ID.probviz`` beside ``autosave-ID.lock`` (a QLockFile holding the
process id) in the application's data folder. A second instance never sees the first one's live
work as a crash: only an autosave whose lock is stale (its process gone: a crash, a kill, a
logout) is offered back, and only one instance at a time can take it.
"""

from __future__ import annotations

import glob
import os
import uuid

from PySide6.QtCore import QLockFile, QStandardPaths

from probviz.data.session import Session, write_session

PREFIX = "autosave-"


def autosave_folder() -> str:
    folder = os.path.join(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation),
                          "autosave")
    os.makedirs(folder, exist_ok=True)
    return folder


def _lock(path: str) -> QLockFile:
    lock = QLockFile(path)
    lock.setStaleLockTime(0)  # stale only when its process is gone, never by age: work can sit for days
    return lock


class Autosave:
    """This instance's autosave file and its lock."""

    def __init__(self, folder: str | None = None):
        self.folder = folder or autosave_folder()
        key = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.path = os.path.join(self.folder, f"{PREFIX}{key}.probviz")
        self.lock = _lock(os.path.join(self.folder, f"{PREFIX}{key}.lock"))
        self.lock.tryLock(0)

    def write(self, session: Session) -> None:
        write_session(self.path, session)

    def clear(self) -> None:
        try:
            os.unlink(self.path)
        except OSError:
            pass

    def release(self, keep: bool) -> None:
        """At exit: keep the file (unsaved work, offered at the next start) or remove it; unlock."""
        if not keep:
            self.clear()
        self.lock.unlock()

    def orphans(self) -> list["Orphan"]:
        """Autosaves of instances that ended without cleaning up, newest first; each one locked for
        this instance until it is taken or dropped. The stale locks of instances that ended with nothing
        unsaved (killed, or crashed) are removed."""
        self._sweep_stale_locks()
        found = []
        for path in glob.glob(os.path.join(glob.escape(self.folder), f"{PREFIX}*.probviz")):
            if path == self.path:
                continue
            lock = _lock(path[: -len(".probviz")] + ".lock")
            if lock.tryLock(0):  # free or stale: its owner is gone
                found.append(Orphan(path, lock))
        return sorted(found, key=lambda o: o.mtime, reverse=True)

    def _sweep_stale_locks(self) -> None:
        """Remove the locks with no autosave beside them whose process is gone (a lock is taken before its
        instance's first autosave, so a live instance's lock, this one's too, is never stale)."""
        for path in glob.glob(os.path.join(glob.escape(self.folder), f"{PREFIX}*.lock")):
            if os.path.exists(path[: -len(".lock")] + ".probviz"):
                continue
            lock = _lock(path)
            if lock.tryLock(0):  # its owner is gone
                lock.unlock()  # removes the file


class Orphan:
    """An autosave left behind by an instance that is gone."""

    def __init__(self, path: str, lock: QLockFile):
        self.path, self.lock = path, lock
        try:
            self.mtime = os.path.getmtime(path)
        except OSError:
            self.mtime = 0.0

    def drop(self) -> None:
        """Delete it (taken into a window, or declined)."""
        try:
            os.unlink(self.path)
        except OSError:
            pass
        self.lock.unlock()  # removes the lock file

    def keep(self) -> None:
        """Leave it for a later start."""
        self.lock.unlock()
