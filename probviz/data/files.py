"""Reading user files safely: only regular files, a bounded number of bytes, text in the
encodings spreadsheets write, and the limits every loader enforces (documented in the README).

Every failure is a :class:`DataError`: one line that names the file (and the line, where known).
"""

from __future__ import annotations

import codecs
import os
import stat

#: Files above this size are refused: far more than a person can place or see.
MAX_BYTES = 512 * 1024 * 1024
#: At most this many classes: a picture with more is unreadable, and a wrong label column
#: (an id, a float) would otherwise make one class per row.
MAX_CLASSES = 10
#: Class and axis names longer than this are refused (they are shown in the legend).
MAX_NAME = 200
#: Coordinates are bounded so that squares and sums of squares of the data stay finite.
MAX_ABS = 1e100


class DataError(ValueError):
    """A file could not be used; the message names the file and, where it can, the line."""


def read_bytes(path: str, limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` (default MAX_BYTES) bytes.

    FIFOs, devices and folders are refused before they are opened (a FIFO would block,
    /dev/zero never ends); the read itself is bounded too, in case the file grows.
    """
    limit = MAX_BYTES if limit is None else limit
    name = os.path.basename(path) or path
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise DataError(f"{name}: is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise DataError(f"{name}: not a regular file (a device, pipe or socket)")
        if info.st_size > limit:
            raise DataError(f"{name}: file is {info.st_size / 2**20:.0f} MB; the limit is {limit // 2**20} MB")
        with open(path, "rb") as f:
            raw = f.read(info.st_size + 1)  # one byte more tells whether it grew since
            while len(raw) > info.st_size and len(raw) <= limit:
                more = f.read(1 << 20)
                if not more:
                    break
                raw += more
    except FileNotFoundError:
        raise DataError(f"{name}: no such file") from None
    except OSError as e:
        raise DataError(f"{name}: cannot read the file ({e.strerror or e})") from None
    if len(raw) > limit:
        raise DataError(f"{name}: file is over {limit // 2**20} MB, the limit")
    return raw


def decode_text(raw: bytes, name: str) -> str:
    """Text from UTF-8 (with or without a BOM) or UTF-16 with a BOM (what Excel's "Unicode text"
    writes); a DataError for binary data or another encoding, with the line of the first bad byte."""
    for bom, codec in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                       (codecs.BOM_UTF16_BE, "utf-16")):
        if raw.startswith(bom):
            break
    else:
        codec = "utf-8"
        if b"\x00" in raw[:65536]:
            if _looks_like_utf16(raw[:4096]):
                codec = "utf-16-le" if raw[1:2] == b"\x00" else "utf-16-be"
            else:
                raise DataError(f"{name}: this is a binary file, not text")
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        what = "UTF-16" if codec.startswith("utf-16") else "UTF-8"
        raise DataError(f"{name}, line {line}: not {what} text (save the file as UTF-8)") from None
    if "\x00" in text:
        raise DataError(f"{name}: this is a binary file, not text")
    return text


def read_text_file(path: str, limit: int, kind: str) -> tuple[str, str]:
    """(name, text) of one of probviz's own JSON files: a regular file of at most ``limit`` bytes, UTF-8; else
    a DataError naming the file as "not a probviz ``kind``"."""
    name = os.path.basename(path) or path
    raw = read_bytes(path, limit)
    try:
        return name, decode_text(raw, name)
    except DataError:
        raise DataError(f"{name}: not a probviz {kind} (not UTF-8 text)") from None


def decode_table(raw: bytes, name: str) -> tuple[str, str | None]:
    """A CSV's text and, when it was not UTF-8, a notice naming the encoding read: UTF-16 (Excel's
    "Unicode text"), or Windows-1252, what Excel on Windows writes as plain "CSV" (é, ü, € and the
    curly quotes as single bytes), tried only when the bytes are not UTF-8."""
    try:
        text = decode_text(raw, name)
    except DataError:
        if b"\x00" in raw[:65536] or raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            raise  # binary, or UTF-16 that does not decode: Windows-1252 would read it as noise
        try:
            text = raw.decode("cp1252")
        except UnicodeDecodeError as e:
            line = raw[: e.start].count(b"\n") + 1
            raise DataError(f"{name}, line {line}: neither UTF-8 nor Windows-1252 text (save the file as UTF-8)") \
                from None
        return text, f"{name} is not UTF-8: read as Windows-1252 text"
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in raw[:4096]:
        return text, f"{name}: read as UTF-16 text"
    return text, None


def _looks_like_utf16(head: bytes) -> bool:
    """Mostly ASCII text written as UTF-16 without a BOM: every other byte is zero."""
    if len(head) < 4:
        return False
    even, odd = head[0::2], head[1::2]
    return even.count(0) > 0.9 * len(even) or odd.count(0) > 0.9 * len(odd)


def check_name(text: str, what: str) -> str | None:
    """Why ``text`` cannot be a class or axis name, or None when it can."""
    if len(text) > MAX_NAME:
        return f"{what} is {len(text):,} characters long; the limit is {MAX_NAME}"
    if any(ord(c) < 32 and c not in "\t" for c in text):
        return f"{what} contains a control character"
    return None
