"""Atomic saves: write a temporary file in the same folder, flush it to disk, then rename.

A save through a symbolic link replaces the link's target (the link stays a link); the
file keeps its mode (a new file gets the usual umask mode); the rename is made durable by
flushing the folder too. Temporary files are named ``.probviz-PID-*``: one left behind by a
killed save (its process gone) is removed by the next save into that folder.
"""

from __future__ import annotations

import glob
import os
import re
import tempfile

_TEMP = re.compile(r"\.probviz-(\d+)-[^/]*$")


def atomic_write(path: str, write, suffix: str = ".tmp") -> None:
    """Replace ``path`` with what ``write(tmp_path)`` writes, so that a failure or a crash leaves
    either the old file or the new one, never half of one."""
    path = os.path.realpath(path)  # through symbolic links to the file they name
    folder = os.path.dirname(path)
    remove_stale_temporaries(folder)
    fd, tmp = tempfile.mkstemp(prefix=f".probviz-{os.getpid()}-", suffix=suffix, dir=folder)
    os.close(fd)
    try:
        write(tmp)
        if os.path.getsize(tmp) == 0:
            raise OSError(f"{path}: cannot write the file")
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.chmod(tmp, _mode(path))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(folder)


def atomic_write_text(path: str, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` atomically."""
    def write(tmp):
        with open(tmp, "w", encoding=encoding, newline="") as f:
            f.write(text)
    atomic_write(path, write)


def remove_stale_temporaries(folder: str) -> list[str]:
    """Delete the temporary files of saves whose process no longer runs; returns their paths."""
    removed = []
    for tmp in glob.glob(os.path.join(glob.escape(folder), ".probviz-*")):
        m = _TEMP.search(tmp)
        if m and not _alive(int(m.group(1))):
            try:
                os.unlink(tmp)
                removed.append(tmp)
            except OSError:
                pass
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # on Windows signal 0 is not a probe
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError):
        return True  # someone else's process, or no way to tell: leave its file alone
    return True


def _sync_folder(folder: str) -> None:
    """Make the rename durable (POSIX); a no-op where folders cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _mode(path: str) -> int:
    """The file's own mode when it exists, else the mode a new file gets (0666 less the umask)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask
