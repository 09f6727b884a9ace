"""Atomic saves: write a temporary file in the same folder, flush it to disk, then rename."""

from __future__ import annotations

import os
import tempfile


def atomic_write_text(path: str, text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` so that a crash leaves either the old file or the new one."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".probviz-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
