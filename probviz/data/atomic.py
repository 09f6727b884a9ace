"""Atomic saves: write a temporary file in the same folder, flush it to disk, then rename.

A save through a symbolic link replaces the link's target (the link stays a link); the
file keeps its mode (a new file gets the usual umask mode); the rename is made durable by
flushing the folder too. Temporary files are named ``.probviz-PID-*``: one left behind by a
killed save (its process gone) is removed by the next save into that folder.

A target that is not a regular file is never renamed over: a named pipe (FIFO) or a character
device (a terminal, /dev/null) gets the bytes as a stream, so its reader receives them; a folder,
a block device or a socket is refused. A pipe with no reader is refused too, rather than waiting.
"""

from __future__ import annotations

import errno
import glob
import os
import re
import shutil
import stat
import tempfile

_TEMP = re.compile(r"\.probviz-(\d+)-[^/]*$")


def atomic_write(path: str, write, suffix: str = ".tmp") -> None:
    """Replace ``path`` with what ``write(tmp_path)`` writes, so that a failure or a crash leaves
    either the old file or the new one, never half of one. Errors name ``path``, not the temporary."""
    shown = path
    path = os.path.realpath(path)  # through symbolic links to the file they name
    kind = target_kind(path)
    if kind == "stream":
        _write_stream(shown, path, write, suffix)
        return
    if kind != "file":
        raise OSError(f"{shown}: {kind}; probviz writes only regular files, named pipes and character devices")
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise OSError(f"{shown}: directory does not exist")
    remove_stale_temporaries(folder)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".probviz-{os.getpid()}-", suffix=suffix, dir=folder)
    except OSError as e:
        raise OSError(f"{shown}: cannot write the file ({e.strerror or e})") from None
    os.close(fd)
    try:
        write(tmp)
        if os.path.getsize(tmp) == 0:
            raise OSError(f"{shown}: cannot write the file")
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.chmod(tmp, _mode(path))
        if target_kind(path) != "file":  # became a pipe or a device while we wrote: leave it be
            raise OSError(f"{shown}: is no longer a regular file; nothing written")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(folder)


def target_kind(path: str) -> str:
    """"file" (a regular file, or nothing yet), "stream" (a FIFO or a character device: written
    in place), else why it cannot be written."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "file"
    except OSError:
        return "file"  # let the write itself say what is wrong
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
        return "stream"
    if stat.S_ISDIR(mode):
        return "is a folder"
    if stat.S_ISBLK(mode):
        return "is a block device (a disk)"
    return "is a socket or another special file"


def _write_stream(shown: str, path: str, write, suffix: str) -> None:
    """Render into a private temporary folder, then copy the bytes into the pipe or device. The
    pipe is opened without blocking: with no reader that fails at once (ENXIO) instead of hanging."""
    with tempfile.TemporaryDirectory(prefix="probviz-") as folder:
        tmp = os.path.join(folder, "out" + suffix)
        write(tmp)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
        except OSError as e:
            if e.errno == errno.ENXIO:
                raise OSError(f"{shown}: a named pipe with no reader; start the reader first") from None
            raise OSError(f"{shown}: cannot write ({e.strerror or e})") from None
        try:
            os.set_blocking(fd, True)  # the reader sets the pace from here on
            with open(tmp, "rb") as src, os.fdopen(fd, "wb", closefd=False) as dst:
                shutil.copyfileobj(src, dst)
        except OSError as e:
            raise OSError(f"{shown}: cannot write ({e.strerror or e})") from None
        finally:
            os.close(fd)


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
