"""Reading and writing point sets as CSV.

Real files are messy: header or none; comma, semicolon or tab; a UTF-8 BOM; CRLF;
quoted fields; numeric or text labels; extra and index columns. ``read_csv``
guesses the columns (x and y by name, else the first two numeric non-index
columns; the label is the first text column, else the last remaining one), parses
with numpy's C parser, and on any trouble re-reads with the csv module to name the
exact line. Every failure is a :class:`DataError` with a one-line message.
"""

from __future__ import annotations

import csv
import io
import math
import os
import warnings
from dataclasses import dataclass, field

import numpy as np

from probviz.data.dataset import Dataset

#: Files above this size are refused: far more than a person can place or see.
MAX_BYTES = 512 * 1024 * 1024
SNIFF_ROWS = 50
INDEX_NAMES = {"", "id", "index", "idx", "row", "unnamed: 0", "#"}


class DataError(ValueError):
    """A file could not be used; the message names the file and, where it can, the line."""


@dataclass
class CsvLayout:
    """What the sniffing found: the delimiter, whether there is a header, the columns to use."""

    delimiter: str
    header: list[str] | None
    n_columns: int
    x: int
    y: int
    label: int | None
    numeric: list[bool]
    preview: list[list[str]] = field(default_factory=list)  # the first data rows, as text
    ambiguous: bool = False  # more than one sensible choice of columns: let the person pick

    def column_name(self, i: int) -> str:
        return self.header[i] if self.header else f"column {i + 1}"


def _is_number(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


def read_text(path: str) -> str:
    """The file's text, or a DataError for missing, huge, binary or undecodable files."""
    name = os.path.basename(path)
    try:
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            raise DataError(f"{name}: file is {size / 2**20:.0f} MB; the limit is {MAX_BYTES // 2**20} MB")
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise DataError(f"{name}: cannot read the file ({e.strerror or e})") from None
    if b"\x00" in raw[:65536]:
        raise DataError(f"{name}: this is a binary file, not CSV text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise DataError(f"{name}, line {line}: not UTF-8 text (save the file as UTF-8)") from None


def sniff(rows: list[list[str]], name: str) -> tuple[list[str] | None, list[bool]]:
    """Header (or None) and which columns are numeric, from the first rows."""
    first, rest = rows[0], rows[1:]
    if not rest and not any(_is_number(c.strip()) for c in first):
        raise DataError(f"{name}: the file has a header but no data rows")
    width = max(len(r) for r in rows)
    body = rest if rest else rows
    numeric = [all(_is_number(r[i].strip()) for r in body if i < len(r) and r[i].strip() != "")
               for i in range(width)]
    header_like = any(not _is_number(c.strip()) and numeric[i] for i, c in enumerate(first) if i < width)
    all_text = rest and all(not _is_number(c.strip()) for c in first)
    if header_like or all_text:
        if not rest:
            raise DataError(f"{name}: the file has a header but no data rows")
        return [c.strip() for c in first], numeric
    numeric = [all(_is_number(r[i].strip()) for r in rows if i < len(r) and r[i].strip() != "")
               for i in range(width)]
    return None, numeric


def _looks_like_index(rows: list[list[str]], i: int, header) -> bool:
    if header is not None and header[i].strip().lower() in INDEX_NAMES:
        return True
    vals = [r[i] for r in rows if i < len(r)]
    try:
        ints = [int(v) for v in vals]
    except ValueError:
        return False
    return len(ints) > 2 and (ints == list(range(ints[0], ints[0] + len(ints))))


def choose_columns(rows, header, numeric, name, x=None, y=None, label=None) -> tuple[int, int, int | None]:
    """The x, y and label columns; explicit names or numbers win over the guesses."""
    width = len(numeric)
    lower = [h.lower() for h in header] if header else []

    def resolve(spec, what):
        if spec is None:
            return None
        spec = str(spec)  # a name, or a 1-based number given as text or as an int
        if header and spec.lower() in lower:
            return lower.index(spec.lower())
        if str(spec).isdigit() and 1 <= int(spec) <= width:
            return int(spec) - 1
        known = ", ".join(header) if header else f"1..{width}"
        raise DataError(f"{name}: no {what} column {spec!r} (columns: {known})")

    no_label = label == ""  # explicitly none: every point in one class
    xi, yi, li = resolve(x, "x"), resolve(y, "y"), resolve(label or None, "label")
    body = rows[1:] if header else rows
    if xi is None and "x" in lower:
        xi = lower.index("x")
    if yi is None and "y" in lower:
        yi = lower.index("y")
    candidates = [i for i in range(width) if numeric[i] and i not in (xi, yi, li)
                  and not _looks_like_index(body, i, header)]
    if xi is None:
        xi = candidates.pop(0) if candidates else None
    if yi is None:
        candidates = [c for c in candidates if c != xi]
        yi = candidates.pop(0) if candidates else None
    if xi is None or yi is None:
        raise DataError(f"{name}: needs two numeric columns for x and y; found "
                        f"{sum(numeric)} numeric column{'s' if sum(numeric) != 1 else ''}")
    if li is None and not no_label:
        rest = [i for i in range(width) if i not in (xi, yi)]
        text = [i for i in rest if not numeric[i]]
        plain = [i for i in rest if not _looks_like_index(body, i, header)]
        li = text[0] if text else (plain[-1] if plain else None)
    return xi, yi, li


def inspect_csv(path: str, x=None, y=None, label=None) -> CsvLayout:
    """Sniff a CSV file: delimiter, header, the guessed columns and whether the guess is obvious."""
    return _inspect(read_text(path), os.path.basename(path), x, y, label)


def _inspect(text: str, name: str, x=None, y=None, label=None) -> CsvLayout:
    lines = text.splitlines()
    head = [ln for ln in lines[: SNIFF_ROWS * 4] if ln.strip()][:SNIFF_ROWS]
    if not head:
        raise DataError(f"{name}: the file is empty")
    try:
        dialect = csv.Sniffer().sniff("\n".join(head[:20]), delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = max(",;\t", key=lambda d: head[0].count(d))
    rows = list(csv.reader(head, delimiter=delimiter))
    header, numeric = sniff(rows, name)
    xi, yi, li = choose_columns(rows, header, numeric, name, x, y, label)
    body = rows[1:] if header else rows
    lower = [h.lower() for h in header] if header else []
    candidates = [i for i in range(len(numeric)) if numeric[i] and not _looks_like_index(body, i, header)]
    texts = [i for i in range(len(numeric)) if not numeric[i]]
    ambiguous = (x is None and y is None and not {"x", "y"} <= set(lower)
                 and (len(candidates) > 3 or (len(candidates) == 3 and texts) or len(texts) > 1))
    return CsvLayout(delimiter, header, len(numeric), xi, yi, li, numeric, body[:8], ambiguous)


def read_csv(path: str, x=None, y=None, label=None) -> Dataset:
    """Read a labelled point set. Raises DataError with the file name and line on bad input.

    ``x``, ``y`` and ``label`` name columns (header names, any case, or 1-based numbers);
    None guesses, and ``label=""`` reads every point into one class.
    """
    name = os.path.basename(path)
    text = read_text(path)
    layout = _inspect(text, name, x, y, label)
    header, xi, yi = layout.header, layout.x, layout.y
    X, labels = _parse_fast(text, layout)
    if X is None:
        X, labels = _parse_slow(text, layout, name)
    if len(X) == 0:
        raise DataError(f"{name}: the file has a header but no data rows")
    axis = (layout.column_name(xi), layout.column_name(yi)) if header else ("x1", "x2")
    if labels is None:
        labels = np.zeros(len(X), dtype=np.int64)
        return Dataset(X, labels, ["1"], axis_names=axis, name=name)
    if labels.dtype.kind == "f" and np.all(labels == np.round(labels)):
        labels = labels.astype(np.int64)
    return Dataset.from_labels(X, labels, axis_names=axis, name=name)


def _parse_fast(text: str, layout: CsvLayout):
    """numpy's C parser; None when the file needs the careful path (quotes, blanks, errors)."""
    if '"' in text:
        return None, None
    skip = 1 if layout.header else 0
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Input line", UserWarning)  # blank lines are fine here
            X = np.loadtxt(io.StringIO(text), delimiter=layout.delimiter, skiprows=skip,
                           usecols=(layout.x, layout.y), dtype=float, ndmin=2)
            labels = None
            if layout.label is not None:
                kind = float if layout.numeric[layout.label] else str
                labels = np.loadtxt(io.StringIO(text), delimiter=layout.delimiter, skiprows=skip,
                                    usecols=layout.label, dtype=kind, ndmin=1)
                if kind is str:
                    labels = np.char.strip(labels)
    except (ValueError, IndexError):
        return None, None
    if not np.all(np.isfinite(X)) or (labels is not None and len(labels) != len(X)):
        return None, None
    if labels is not None and labels.dtype.kind == "f" and not np.all(np.isfinite(labels)):
        return None, None
    return X, labels


def _parse_slow(text: str, layout: CsvLayout, name: str):
    """The csv module, row by row, to say exactly which line is wrong."""
    need = max(i for i in (layout.x, layout.y, layout.label) if i is not None)
    X, labels = [], []
    reader = csv.reader(io.StringIO(text), delimiter=layout.delimiter)
    for row in reader:
        line = reader.line_num
        if layout.header and line == 1:
            continue
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) <= need:
            raise DataError(f"{name}, line {line}: has {len(row)} field{'s' if len(row) != 1 else ''}, "
                            f"expected {layout.n_columns}")
        point = []
        for i in (layout.x, layout.y):
            cell = row[i].strip()
            try:
                v = float(cell)
            except ValueError:
                raise DataError(f"{name}, line {line}: {layout.column_name(i)} is {cell!r}, "
                                "not a number") from None
            if not math.isfinite(v):
                raise DataError(f"{name}, line {line}: {layout.column_name(i)} is {cell}; "
                                "values must be finite")
            point.append(v)
        X.append(point)
        if layout.label is not None:
            cell = row[layout.label].strip()
            if cell == "":
                raise DataError(f"{name}, line {line}: the label ({layout.column_name(layout.label)}) is empty")
            labels.append(cell)
    X = np.array(X, dtype=float).reshape(-1, 2)
    if layout.label is None:
        return X, None
    if layout.numeric[layout.label]:
        vals = np.array([float(v) for v in labels])
        bad = np.flatnonzero(~np.isfinite(vals))
        if bad.size:
            raise DataError(f"{name}: label {labels[bad[0]]!r} is not a usable class")
        return X, vals
    return X, np.array(labels)


def write_csv(path: str, data: Dataset) -> None:
    """Write x, y, label (class names) with the axis names as header; atomic."""
    from probviz.data.atomic import atomic_write_text

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([data.axis_names[0], data.axis_names[1], "label"])
    names = np.asarray(data.class_names, dtype=object)
    for (a, b), lab in zip(data.X.tolist(), names[data.labels]):
        w.writerow([repr(a), repr(b), lab])
    atomic_write_text(path, buf.getvalue())
