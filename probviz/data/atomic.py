"""Atomic saves: write a temporary file in the same folder, flush it to disk, then rename."""

from __future__ import annotations

import os
import tempfile


def atomic_write(path: str, write, suffix: str = ".tmp") -> None:
    """Replace ``path`` with what ``write(tmp_path)`` writes, so that a failure or a crash leaves
    either the old file or the new one, never half of one. The new file gets the usual mode."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".probviz-", suffix=suffix, dir=folder)
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


def atomic_write_text(path: str, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` atomically."""
    def write(tmp):
        with open(tmp, "w", encoding=encoding, newline="") as f:
            f.write(text)
    atomic_write(path, write)


def _mode(path: str) -> int:
    """The file's own mode when it exists, else the mode a new file gets (0666 less the umask)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask
