"""One way in for every command: ``example:NAME``, a ``.probviz`` session, or a CSV file."""

from __future__ import annotations

import os

from probviz.data import examples
from probviz.data.csvio import DataError, read_csv
from probviz.data.dataset import Dataset


def load_dataset(spec: str, x=None, y=None, label=None) -> Dataset:
    """The data set named by ``spec``; raises DataError (a ValueError) with a one-line message."""
    if spec.startswith("example:"):
        try:
            return examples.load(spec.split(":", 1)[1])
        except ValueError as e:
            raise DataError(str(e)) from None
    if spec.lower().endswith(".probviz"):
        from probviz.data.session import read_session

        return read_session(spec).dataset
    if not os.path.exists(spec):
        raise DataError(f"{spec}: no such file")
    return read_csv(spec, x=x, y=y, label=label)


def read_stdin(stream=None):
    """Standard input ("-"): a session's JSON when it starts with "{", else CSV; bounded like a file."""
    import sys

    from probviz.data.csvio import noting, parse_csv
    from probviz.data.files import MAX_BYTES, decode_table, decode_text
    from probviz.data.session import Session, from_json

    raw = (stream or sys.stdin.buffer).read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise DataError(f"standard input: over {MAX_BYTES // 2**20} MB, the limit")
    text, notice = decode_table(raw, "standard input")
    if text.lstrip().startswith("{"):
        return from_json(decode_text(raw, "standard input"), "standard input")  # a session is UTF-8
    data = noting(parse_csv(text, "standard input"), notice)
    return Session(data, view=data.view)


def load_session(spec: str, x=None, y=None, label=None):
    """A session as ``spec`` names it: a ``.probviz`` file as saved, ``-`` (standard input), or data
    with the defaults."""
    from probviz.data.session import Session, read_session

    if spec == "-":
        return read_stdin()
    from probviz.data.deck import deck_name, is_deck

    if is_deck(spec):
        raise DataError(f"{deck_name(spec)} is a lesson deck, not data or a session: probviz export {spec} --slide N "
                        "draws one of its slides (probviz deck lists them)")
    if spec.lower().endswith(".probviz") and not spec.startswith("example:"):
        return read_session(spec)
    if spec.startswith("example:"):
        try:
            return examples.session(spec.split(":", 1)[1])
        except ValueError as e:
            raise DataError(str(e)) from None
    data = load_dataset(spec, x, y, label)
    return Session(data, view=data.view)
