"""Outputs that would destroy something: a file a command reads, or another output of the same run.

Two names are one file when they resolve to the same path (symbolic links followed) or, when the
file exists, have the same device and inode (hard links, bind mounts, different spellings).
"""

from __future__ import annotations

import os


def _identity(path: str):
    real = os.path.realpath(path)
    try:
        info = os.stat(real)
        return real, (info.st_dev, info.st_ino)
    except OSError:
        return real, None


def _same(a, b) -> bool:
    return a[0] == b[0] or (a[1] is not None and a[1] == b[1])


def _is_file_name(spec: str | None) -> bool:
    """Standard input or output ("-") and the built-in examples are no files."""
    return bool(spec) and spec != "-" and not spec.startswith("example:")


def check_outputs(inputs: dict[str, str | None], outputs: dict[str, str | None]) -> None:
    """Refuse (ValueError, one line naming both) when an output is an input or another output.

    ``inputs`` and ``outputs`` map what each is (``"the input"``, ``"-o"``, ``"--curve"``) to its path;
    None, ``-`` and ``example:NAME`` are skipped. A named pipe or a device written twice is refused
    too: its reader would get two files run together.
    """
    seen_in = [(what, path, _identity(path)) for what, path in inputs.items() if _is_file_name(path)]
    seen_out = []
    for what, path in outputs.items():
        if not _is_file_name(path):
            continue
        me = _identity(path)
        for other, other_path, ident in seen_in:
            if _same(me, ident):
                raise ValueError(f"{what} {path} is {other} {other_path}: writing it would destroy it; "
                                 "choose another output file")
        for other, other_path, ident in seen_out:
            if _same(me, ident):
                raise ValueError(f"{what} {path} and {other} {other_path} are the same file: the second "
                                 "would overwrite the first; give each its own file")
        seen_out.append((what, path, me))


def check_target(path: str) -> None:
    """A one-line reason (OSError) why ``path`` cannot be written, before any work is done. A named
    pipe or a character device is written in place, so its folder need not be writable."""
    from probviz.data.atomic import target_kind

    kind = target_kind(os.path.realpath(path))
    if kind == "stream":
        return
    if kind != "file":
        raise OSError(f"{path}: {kind}; probviz writes only regular files, named pipes and character devices")
    folder = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(folder):
        raise OSError(f"{path}: directory does not exist")
    if not os.access(folder, os.W_OK):
        raise OSError(f"{path}: directory is not writable")
