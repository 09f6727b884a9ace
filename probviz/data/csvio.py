"""Reading and writing point sets as CSV.

Real files are messy: header or none; comma, semicolon or tab; Excel's ``sep=;`` line,
decimal commas and UTF-16 "Unicode text"; a UTF-8 BOM; CRLF; quoted fields; ``#`` comment
lines; numeric or text labels; extra and index columns; NA cells. ``read_csv`` guesses the
columns (x and y by name, else the first two numeric non-index columns; the label is the first
text column, else the last remaining one), parses with numpy's C parser, and on any trouble
re-reads with the csv module to name the exact line. Labels are taken as the text they are
(never truncated at a ``#``, never empty), except that numbers equal in value ("2" and "2.0") are
one class and "nan", "NA", "null" are missing labels, refused by line.
Every failure is a :class:`DataError` with a one-line message.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import warnings
from dataclasses import dataclass, field

import numpy as np

from probviz.data.dataset import Dataset
from probviz.data.files import (MAX_ABS, MAX_BYTES, MAX_CLASSES, DataError, check_name, decode_table,
                                 read_bytes)

__all__ = ["DataError", "MAX_BYTES", "CsvLayout", "inspect_csv", "parse_csv", "read_csv", "write_csv"]

SNIFF_ROWS = 50
INDEX_NAMES = {"", "id", "index", "idx", "row", "unnamed: 0", "#"}
#: Cells that mean "no value" in spreadsheets and statistics packages: a column of numbers with
#: some of these is still a numeric column (and its rows are refused by line, not guessed).
MISSING = {"", "na", "n/a", "nan", "null", "none", "?", "-", "#n/a"}
#: Labels that mean "no label" (what pandas and spreadsheets write for a missing value); "none", "?"
#: and "-" can be real class names, so they stay labels.
MISSING_LABELS = {"nan", "na", "n/a", "#n/a", "null"}
_DECIMAL_COMMA = re.compile(r"^[+-]?\d*,\d+(?:[eE][+-]?\d+)?$")
_HAS_PREAMBLE = re.compile(r"^\s*sep=", re.I)
_COMMENT_LINE = re.compile(r"(?:^|\n)[ \t]*#")
csv.field_size_limit(MAX_BYTES)  # a long field is the label check's business, not a csv.Error


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
    decimal_comma: bool = False  # numbers written 1,5 (with ; or tab between the fields)
    header_line: int = 0  # the header's line number (1-based; 0 without a header)

    def column_name(self, i: int) -> str:
        return self.header[i] if self.header and i < len(self.header) and self.header[i] else f"column {i + 1}"


def _is_number(s: str, decimal_comma: bool = False) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return decimal_comma and bool(_DECIMAL_COMMA.match(s))


def _to_float(s: str, decimal_comma: bool) -> float:
    return float(s.replace(",", ".") if decimal_comma else s)


def read_text(path: str) -> str:
    """The file's text (UTF-8, UTF-16 or Windows-1252), or a DataError for missing, huge, special,
    binary or undecodable files."""
    return decode_table(read_bytes(path), os.path.basename(path))[0]


def _blank_preamble(text: str) -> tuple[str, str | None]:
    """Excel's ``sep=X`` first line and ``#`` comment lines made blank (so that line numbers stay
    true); returns the text and the delimiter the sep line names. A first line that starts with
    ``#`` but splits like the data (a header such as ``#,x,y``) is kept."""
    if not _HAS_PREAMBLE.search(text[:4096]) and ("#" not in text or not _COMMENT_LINE.search(text)):
        return text, None  # the common case, without splitting a big file into lines (or a regex over it)
    lines = text.split("\n")
    forced = None
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is not None and re.fullmatch(r"\s*sep=(.)\s*", lines[first], flags=re.I):
        forced = re.fullmatch(r"\s*sep=(.)\s*", lines[first], flags=re.I).group(1)
        lines[first] = ""
    comments = [i for i, ln in enumerate(lines) if ln.lstrip().startswith("#")]
    if not comments:
        return "\n".join(lines), forced
    content = [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]
    for i in comments:
        is_header = (content and i < content[0] and not any(ln.strip() for ln in lines[i + 1:content[0]])
                     and _fields(lines[i], forced) == _fields(lines[content[0]], forced) > 1)
        if not is_header:
            lines[i] = ""
    return "\n".join(lines), forced


def _fields(line: str, delimiter: str | None) -> int:
    return max(line.count(d) for d in ([delimiter] if delimiter else ",;\t")) + 1


def _numeric_column(cells: list[str], decimal_comma: bool) -> bool:
    """Numbers, perhaps with some missing-value cells (NA, empty...), and at least one number."""
    cells = [c.strip() for c in cells]
    return (any(_is_number(c, decimal_comma) for c in cells)
            and all(_is_number(c, decimal_comma) or c.lower() in MISSING for c in cells))


def sniff(rows: list[list[str]], name: str, decimal_comma: bool = False) -> tuple[list[str] | None, list[bool]]:
    """Header (or None) and which columns are numeric, from the first rows."""
    first, rest = rows[0], rows[1:]

    def numbers_in(body, width):
        return [_numeric_column([r[i] for r in body if i < len(r)], decimal_comma) for i in range(width)]

    def is_value(c):
        return _is_number(c.strip(), decimal_comma) or c.strip().lower() in MISSING

    if not rest and not any(_is_number(c.strip(), decimal_comma) for c in first):
        raise DataError(f"{name}: the file has a header but no data rows")
    width = len(first) if rest else max(len(r) for r in rows)
    numeric = numbers_in(rest if rest else rows, width)
    header_like = any(not is_value(c) and numeric[i] for i, c in enumerate(first))
    all_text = rest and all(not is_value(c) for c in first)
    if header_like or all_text:
        return [c.strip() for c in first], numeric
    return None, numbers_in(rows, max(len(r) for r in rows))


def _looks_like_index(rows: list[list[str]], i: int, header) -> bool:
    if header is not None and i < len(header) and header[i].strip().lower() in INDEX_NAMES:
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
        found = sum(numeric)
        index = [_name(header, i) for i in range(width) if numeric[i] and _looks_like_index(body, i, header)]
        text = [f"{_name(header, i)} ({_first_text(body, i)!r})" for i in range(width) if not numeric[i]]
        usable = found - len(index)
        raise DataError(f"{name}: needs two numeric columns for x and y; found {usable} numeric "
                        f"column{'s' if usable != 1 else ''}"
                        + (f" besides the row index {', '.join(index)} (name the columns to use it)" if index else "")
                        + (f"; not numbers: {', '.join(text[:3])}" if text else ""))
    if li is None and not no_label:
        rest = [i for i in range(width) if i not in (xi, yi)]
        text = [i for i in rest if not numeric[i]]
        # a name or a note differs on every row; a class is shared by several points
        repeated = [i for i in text if _repeats(body, i)]
        plain = [i for i in rest if not _looks_like_index(body, i, header)]
        li = (repeated or text)[0] if text else (plain[-1] if plain else None)
    return xi, yi, li


def _repeats(body, i) -> bool:
    """Whether some value of column ``i`` occurs on more than one row."""
    values = [r[i].strip() for r in body if i < len(r)]
    return len(set(values)) < len(values)


def _name(header, i):
    return header[i] if header and i < len(header) and header[i] else f"column {i + 1}"


def _first_text(body, i):
    return next((r[i].strip() for r in body if i < len(r) and not _is_number(r[i].strip())), "")


def inspect_csv(path: str, x=None, y=None, label=None) -> CsvLayout:
    """Sniff a CSV file: delimiter, header, the guessed columns and whether the guess is obvious."""
    text, _ = _blank_preamble(read_text(path))
    return _inspect(text, os.path.basename(path), x, y, label)


def _delimiter(head: list[str], forced: str | None) -> str:
    """The sep= line's delimiter; else ';' or tab when every line has the same number of them
    (commas are then decimal marks or text); else what csv's sniffer says."""
    if forced:
        return forced
    for d in ";\t":
        counts = {ln.count(d) for ln in head}
        if len(counts) == 1 and counts != {0}:
            return d
    try:
        return csv.Sniffer().sniff("\n".join(head[:20]), delimiters=",;\t").delimiter
    except csv.Error:
        return max(",;\t", key=lambda d: head[0].count(d))


def _inspect(text: str, name: str, x=None, y=None, label=None, forced: str | None = None) -> CsvLayout:
    lines = text.splitlines()
    head = [ln for ln in lines[: SNIFF_ROWS * 4] if ln.strip()][:SNIFF_ROWS]
    if not head:
        raise DataError(f"{name}: the file is empty")
    delimiter = _delimiter(head, forced)
    rows = list(csv.reader(head, delimiter=delimiter))
    decimal_comma = delimiter != "," and any(_DECIMAL_COMMA.match(c.strip()) for r in rows for c in r)
    header, numeric = sniff(rows, name, decimal_comma)
    xi, yi, li = choose_columns(rows, header, numeric, name, x, y, label)
    body = rows[1:] if header else rows
    lower = [h.lower() for h in header] if header else []
    candidates = [i for i in range(len(numeric)) if numeric[i] and not _looks_like_index(body, i, header)]
    texts = [i for i in range(len(numeric)) if not numeric[i]]
    ambiguous = (x is None and y is None and not {"x", "y"} <= set(lower)
                 and (len(candidates) > 3 or (len(candidates) == 3 and texts) or len(texts) > 1))
    header_line = 1 + next(i for i, ln in enumerate(lines) if ln.strip()) if header else 0
    return CsvLayout(delimiter, header, len(numeric), xi, yi, li, numeric, body[:8], ambiguous, decimal_comma,
                     header_line)


class Cancelled(Exception):
    """The person cancelled a load (``progress`` returned False)."""


def read_csv(path: str, x=None, y=None, label=None, progress=None) -> Dataset:
    """Read a labelled point set. Raises DataError with the file name and line on bad input.

    ``x``, ``y`` and ``label`` name columns (header names, any case, or 1-based numbers);
    None guesses, and ``label=""`` reads every point into one class. ``progress(fraction)`` is
    called as the rows are parsed (from the thread that reads); when it returns False the read
    stops with :class:`Cancelled`.
    """
    name = os.path.basename(path)
    text, notice = decode_table(read_bytes(path), name)
    return noting(parse_csv(text, name, x, y, label, progress), notice)


def noting(data: Dataset, notice: str | None) -> Dataset:
    """``data`` with the reader's ``notice`` (the encoding it read) first among its notices."""
    if notice:
        data.notices.insert(0, notice)
    return data


def parse_csv(text: str, name: str, x=None, y=None, label=None, progress=None) -> Dataset:
    """:func:`read_csv` on text already read (standard input); ``name`` stands for the file in messages."""
    text, forced = _blank_preamble(text)
    layout = _inspect(text, name, x, y, label, forced)
    header, xi, yi = layout.header, layout.x, layout.y
    parsing = None if progress is None else (lambda f: progress(0.85 * f))  # the labels' classes: the rest
    X, labels = _parse_fast(text, layout, parsing)
    if X is None:
        X, labels = _parse_slow(text, layout, name)
    if len(X) == 0:
        raise DataError(f"{name}: the file has a header but no data rows")
    axis = (layout.column_name(xi), layout.column_name(yi)) if header else ("x1", "x2")
    for a in axis:
        problem = check_name(a, f"the column name {a[:20]!r}")
        if problem:
            raise DataError(f"{name}, line 1: {problem}")
    if labels is None:
        return Dataset(X, np.zeros(len(X), dtype=np.int64), ["1"], axis_names=axis, name=name)
    names, first, codes = np.unique(labels, return_index=True, return_inverse=True)
    if progress is not None and progress(1.0) is False:
        raise Cancelled()
    for n in names:
        if str(n).lower() in MISSING_LABELS:
            raise DataError(f"{name}, line {_line_of(text, layout, str(n))}: the label "
                            f"({layout.column_name(layout.label)}) is {str(n)!r} (a missing value); "
                            "every point needs a label")
    names, codes = _merge_numeric(names, first, codes.ravel())
    if len(names) > MAX_CLASSES:
        raise DataError(f"{name}: {len(names):,} different labels in the label column "
                        f"({layout.column_name(layout.label)}); "
                        f"probviz shows at most {MAX_CLASSES} classes (is that the label column?)")
    for n in names:
        problem = check_name(str(n), "a label")
        if problem:
            line = _line_of(text, layout, str(n))
            raise DataError(f"{name}, line {line}: {problem}")
    order = sorted(range(len(names)), key=lambda i: _label_key(str(names[i])))
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    notices = []
    if len(names) > 1 and len(names) == len(X):
        notices.append(f"every class has a single point: is {layout.column_name(layout.label)} the label "
                       "column? (name another one with --label)")
    return Dataset(X, rank[codes.ravel()], [str(names[i]) for i in order], axis_names=axis, name=name,
                   notices=notices)


def _merge_numeric(names, first, codes):
    """Labels that are the same number ("2", "2.0", "2e0") as one class, named as the file first
    writes it; text labels stay as they are."""
    groups: dict = {}
    for i, n in enumerate(names):
        key = _label_key(str(n))
        groups.setdefault(key[:2] if key[0] == 0 else key, []).append(i)
    if len(groups) == len(names):
        return names, codes
    merged = np.empty(len(names), dtype=np.int64)
    out = []
    for members in groups.values():
        merged[members] = len(out)
        out.append(names[min(members, key=lambda i: first[i])])
    return np.array(out), merged[codes]


def _label_key(text: str):
    """Numeric labels in numeric order (2 before 10), then text labels in text order."""
    try:
        v = float(text)
        if math.isfinite(v):
            return (0, v, text)
    except ValueError:
        pass
    return (1, 0.0, text)


def _line_of(text: str, layout: CsvLayout, label: str) -> int:
    reader = csv.reader(io.StringIO(text), delimiter=layout.delimiter)
    for row in reader:
        if layout.label is not None and len(row) > layout.label and row[layout.label].strip() == label:
            return reader.line_num
    return 0


#: Files are parsed in pieces of about this many characters, so that a load can report progress
#: and be cancelled between them.
CHUNK = 4 * 2**20


def _chunks(text: str, skip_lines: int):
    """The text after its first ``skip_lines`` lines, in pieces of about CHUNK characters that end
    at line ends."""
    start = 0
    for _ in range(skip_lines):
        start = text.find("\n", start) + 1
        if start == 0:
            return
    while start < len(text):
        end = text.find("\n", min(start + CHUNK, len(text) - 1))
        end = len(text) if end < 0 else end + 1
        yield start, text[start:end]
        start = end


def _parse_fast(text: str, layout: CsvLayout, progress=None):
    """numpy's C parser, piece by piece; None when the file needs the careful path (quotes,
    blanks, errors)."""
    if '"' in text or layout.decimal_comma:
        return None, None
    parts_x, parts_l = [], []
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Input line", UserWarning)  # blank lines are fine here
            for start, piece in _chunks(text, layout.header_line):
                parts_x.append(np.loadtxt(io.StringIO(piece), delimiter=layout.delimiter, comments=None,
                                          usecols=(layout.x, layout.y), dtype=float, ndmin=2))
                if layout.label is not None:
                    parts_l.append(np.loadtxt(io.StringIO(piece), delimiter=layout.delimiter, comments=None,
                                              usecols=layout.label, dtype=str, ndmin=1))
                if progress is not None and progress((start + len(piece)) / len(text)) is False:
                    raise Cancelled()
    except (ValueError, IndexError):
        return None, None
    X = np.concatenate(parts_x) if parts_x else np.empty((0, 2))
    labels = None
    if layout.label is not None:
        labels = np.char.strip(np.concatenate(parts_l)) if parts_l else np.empty(0, dtype=str)
    if not np.all(np.abs(X) <= MAX_ABS) or (labels is not None and (len(labels) != len(X)
                                                                     or np.any(labels == ""))):
        return None, None  # the careful path names the line
    if _ragged(text, layout):
        return None, None
    return X, labels


def _ragged(text: str, layout: CsvLayout) -> bool:
    """Whether any row has more fields than the header (numpy reads the columns it is asked for)."""
    if layout.delimiter not in text:
        return False
    if ord(layout.delimiter) > 127:  # not one byte in UTF-8: count the slow way
        return any(ln.count(layout.delimiter) > layout.n_columns - 1 for ln in text.splitlines())
    b = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    ends = np.flatnonzero(b == ord("\n"))
    delims = np.flatnonzero(b == ord(layout.delimiter))
    per_line = np.diff(np.searchsorted(delims, np.r_[-1, ends, len(b)]))
    return bool(np.any(per_line > layout.n_columns - 1))


def _parse_slow(text: str, layout: CsvLayout, name: str):
    """The csv module, row by row, to say exactly which line is wrong."""
    need = max(i for i in (layout.x, layout.y, layout.label) if i is not None)
    X, labels = [], []
    reader = csv.reader(io.StringIO(text), delimiter=layout.delimiter)
    line = 0
    try:
        for row in reader:
            first, line = line + 1, reader.line_num  # a quoted field may run over several lines: first to line
            if line <= layout.header_line:
                continue
            if not row or all(not c.strip() for c in row):
                continue
            if len(row) <= need or (len(row) > layout.n_columns and any(c.strip() for c in row[layout.n_columns:])):
                if line > first:  # a quote left open took the lines after it into one field
                    raise DataError(f"{name}, line {first}: a quote (\") opened on this line is not closed; it runs "
                                    f"to line {line}")
                raise DataError(f"{name}, line {line}: has {len(row)} field{'s' if len(row) != 1 else ''}, "
                                f"expected {layout.n_columns}")
            point = []
            for i in (layout.x, layout.y):
                cell = row[i].strip()
                try:
                    v = _to_float(cell, layout.decimal_comma)
                except ValueError:
                    what = "is empty" if not cell else (f"is {cell!r} (a missing value); every point needs x and y"
                                                        if cell.lower() in MISSING else f"is {cell!r}, not a number")
                    raise DataError(f"{name}, line {line}: {layout.column_name(i)} {what}") from None
                if not math.isfinite(v):
                    raise DataError(f"{name}, line {line}: {layout.column_name(i)} is {cell}; "
                                    "values must be finite")
                if abs(v) > MAX_ABS:
                    raise DataError(f"{name}, line {line}: {layout.column_name(i)} is {cell}; "
                                    f"probviz handles values up to ±{MAX_ABS:g}")
                point.append(v)
            X.append(point)
            if layout.label is not None:
                cell = row[layout.label].strip()
                if cell == "":
                    raise DataError(f"{name}, line {line}: the label ({layout.column_name(layout.label)}) is empty")
                labels.append(cell)
    except csv.Error as e:
        raise DataError(f"{name}, line {reader.line_num}: {e}") from None
    X = np.array(X, dtype=float).reshape(-1, 2)
    return X, (np.array(labels) if layout.label is not None else None)


def csv_text(data: Dataset) -> str:
    """x, y, label (class names) with the axis names as header, every number exactly (repr)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([data.axis_names[0], data.axis_names[1], "label"])
    names = np.asarray(data.class_names, dtype=object)
    for (a, b), lab in zip(data.X.tolist(), names[data.labels]):
        w.writerow([repr(a), repr(b), lab])
    return buf.getvalue()


def write_csv(path: str, data: Dataset) -> None:
    """Write :func:`csv_text` atomically."""
    from probviz.data.atomic import atomic_write_text

    atomic_write_text(path, csv_text(data))
