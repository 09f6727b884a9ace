"""Lesson decks (.probvizdeck): a lecture as an ordered list of slides, each a complete session.

A deck file is plain JSON::

    {"format": "probviz-deck", "version": 1, "title": "...",
     "slides": [{"title": "...", "notes": "...", "hide": ["training"], "session": {<a session file's JSON>}}]}

Each slide's ``session`` is exactly what a ``.probviz`` file holds, written and checked by
:mod:`probviz.data.session` (:func:`session_to_obj`, :func:`session_from_obj`), so a slide restores
what a session restores. Titles and notes are plain text; a file with anything wrong is refused whole,
with one line naming the file and the slide. Saving is atomic.

A :class:`Deck` is immutable: :func:`record`, :func:`move`, :func:`rename`, :func:`delete` and the
``with_*`` functions return a new deck, so an undo stack can keep the old ones. Pure: no Qt.
"""

from __future__ import annotations

import json
import os
import unicodedata
from dataclasses import dataclass, replace

from probviz.data.atomic import atomic_write_text
from probviz.data.files import DataError, read_text_file
from probviz.data.session import Session, session_from_obj, session_to_obj

FORMAT = "probviz-deck"
VERSION = 1
EXTENSION = ".probvizdeck"
MAX_SLIDES = 200
MAX_TITLE = 200
MAX_NOTES = 20_000
#: A deck holds up to 200 sessions; each may be as large as a session file.
MAX_DECK_BYTES = 256 * 1024 * 1024
#: The panels of the window a slide may hide while it is shown (the window maps each to its dock or bar).
PANELS = ("model", "training", "lab", "weights", "toolbar")


@dataclass(frozen=True, eq=False)
class Slide:
    """One state of a lecture: the session it restores, its title, the speaker's notes and the
    panels hidden while it is shown. Slides compare by identity (a session holds arrays)."""

    title: str
    notes: str
    session: Session
    hide: tuple = ()


@dataclass(frozen=True)
class Deck:
    """A lecture: a title and its slides, in order."""

    title: str = ""
    slides: tuple = ()

    def __len__(self) -> int:
        return len(self.slides)


def text_problem(text, what: str, limit: int, lines: bool) -> str | None:
    """Why ``text`` cannot be a title (``lines`` False: one line) or notes (``lines`` True: newlines and
    tabs allowed), or None when it can: plain text, at most ``limit`` characters, no control characters."""
    if not isinstance(text, str):
        return f"{what} must be text"
    if len(text) > limit:
        return f"{what}: {len(text):,} characters; the limit is {limit:,}"
    allowed = "\n\t" if lines else "\t"
    for c in text:
        if unicodedata.category(c) in ("Cc", "Cs") and c not in allowed:
            return f"{what}: a control character (U+{ord(c):04X}); only plain text is allowed"
    return None


def hide_problem(hide) -> str | None:
    """Why ``hide`` is not a list of panels to hide, or None."""
    if not isinstance(hide, (list, tuple)) or not all(isinstance(h, str) for h in hide):
        return f"hide must be a list of panel names ({', '.join(PANELS)})"
    for h in hide:
        if h not in PANELS:
            return f"hide names {h[:40]!r}, which is no panel; the panels are {', '.join(PANELS)}"
    if len(set(hide)) != len(hide):
        return "hide names a panel twice"
    return None


def check_slide(slide: Slide) -> Slide:
    """``slide``, or a ValueError saying what is wrong with its title, notes or hidden panels."""
    for problem in (text_problem(slide.title, "the title", MAX_TITLE, False),
                    text_problem(slide.notes, "the notes", MAX_NOTES, True), hide_problem(slide.hide)):
        if problem:
            raise ValueError(problem)
    if not isinstance(slide.session, Session):
        raise ValueError("a slide holds a session")
    return slide


def _new(deck: Deck, slides: list) -> Deck:
    if len(slides) > MAX_SLIDES:
        raise ValueError(f"a deck holds at most {MAX_SLIDES} slides")
    return replace(deck, slides=tuple(slides))


def _index(deck: Deck, i: int) -> int:
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(deck.slides):
        raise IndexError(f"the deck has {len(deck.slides)} slides; slide index {i!r} is none of them")
    return i


def record(deck: Deck, index: int, slide: Slide) -> Deck:
    """``deck`` with ``slide`` inserted after slide ``index`` (0-based; -1 puts it first)."""
    check_slide(slide)
    if isinstance(index, bool) or not isinstance(index, int) or not -1 <= index < len(deck.slides):
        raise IndexError(f"the deck has {len(deck.slides)} slides; cannot insert after slide index {index!r}")
    slides = list(deck.slides)
    slides.insert(index + 1, slide)
    return _new(deck, slides)


def move(deck: Deck, i: int, j: int) -> Deck:
    """``deck`` with slide ``i`` taken out and put back at position ``j`` (both 0-based)."""
    slides = list(deck.slides)
    slide = slides.pop(_index(deck, i))
    slides.insert(_index(deck, j), slide)
    return _new(deck, slides)


def rename(deck: Deck, i: int, title: str) -> Deck:
    """``deck`` with slide ``i`` titled ``title``."""
    return _with(deck, i, title=title)


def with_notes(deck: Deck, i: int, notes: str) -> Deck:
    """``deck`` with slide ``i``'s speaker notes replaced."""
    return _with(deck, i, notes=notes)


def with_hide(deck: Deck, i: int, hide) -> Deck:
    """``deck`` with slide ``i`` hiding the panels ``hide``."""
    return _with(deck, i, hide=tuple(hide))


def with_session(deck: Deck, i: int, session: Session) -> Deck:
    """``deck`` with slide ``i`` restoring ``session`` (a change made during the talk, recorded)."""
    return _with(deck, i, session=session)


def with_title(deck: Deck, title: str) -> Deck:
    """``deck`` titled ``title``."""
    problem = text_problem(title, "the deck's title", MAX_TITLE, False)
    if problem:
        raise ValueError(problem)
    return replace(deck, title=title)


def delete(deck: Deck, i: int) -> Deck:
    """``deck`` without slide ``i``."""
    slides = list(deck.slides)
    del slides[_index(deck, i)]
    return _new(deck, slides)


def _with(deck: Deck, i: int, **changes) -> Deck:
    slides = list(deck.slides)
    slides[_index(deck, i)] = check_slide(replace(slides[i], **changes))
    return _new(deck, slides)


def deck_to_obj(deck: Deck) -> dict:
    """The deck file's JSON object."""
    slides = []
    for slide in deck.slides:
        obj = {"title": slide.title, "notes": slide.notes}
        if slide.hide:
            obj["hide"] = list(slide.hide)
        obj["session"] = session_to_obj(slide.session)
        slides.append(obj)
    return {"format": FORMAT, "version": VERSION, "title": deck.title, "slides": slides}


def to_json(deck: Deck) -> str:
    return json.dumps(deck_to_obj(deck), indent=1, allow_nan=False)


def write_deck(path: str, deck: Deck) -> None:
    """Save ``deck`` atomically (a temporary file beside ``path``, then a rename)."""
    if len(deck.slides) > MAX_SLIDES:
        raise ValueError(f"a deck holds at most {MAX_SLIDES} slides")
    for slide in deck.slides:
        check_slide(slide)
    atomic_write_text(path, to_json(deck))


def _refuse(name: str, what: str):
    raise DataError(f"{name}: not a valid probviz deck ({what})")


def from_json(text: str, name: str = "deck") -> Deck:
    """A deck from its JSON text, every field and every slide's session checked; a DataError naming
    the file (and the slide: "lesson.probvizdeck: slide 3: ...") for anything wrong."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"{name}, line {e.lineno}: not valid JSON ({e.msg})") from None
    except RecursionError:
        _refuse(name, "nested too deeply")
    except ValueError:  # an integer of thousands of digits
        _refuse(name, "a number with thousands of digits")
    return deck_from_obj(doc, name)


def deck_from_obj(doc, name: str = "deck") -> Deck:
    """A deck from a deck file's parsed JSON, checked whole (see :func:`from_json`)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        if isinstance(doc, dict) and doc.get("format") == "probviz-session":
            _refuse(name, "a session, not a lesson deck: open it as a session")
        _refuse(name, "no probviz-deck header")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        _refuse(name, "no version")
    if version > VERSION:
        raise DataError(f"{name}: saved by a newer probviz (deck version {version}; this one reads up to "
                        f"{VERSION}); please update probviz")
    title = doc.get("title", "")
    problem = text_problem(title, "the deck's title", MAX_TITLE, False)
    if problem:
        _refuse(name, problem)
    slides = doc.get("slides")
    if not isinstance(slides, list):
        _refuse(name, "slides must be a list")
    if len(slides) > MAX_SLIDES:
        _refuse(name, f"{len(slides):,} slides; a deck holds at most {MAX_SLIDES}")
    out = []
    for n, obj in enumerate(slides, 1):
        where = f"{name}: slide {n}"
        if not isinstance(obj, dict):
            raise DataError(f"{where}: not a slide (a slide is an object with a title, notes and a session)")
        for problem in (text_problem(obj.get("title"), "the title", MAX_TITLE, False),
                        text_problem(obj.get("notes", ""), "the notes", MAX_NOTES, True),
                        hide_problem(obj.get("hide", []))):
            if problem:
                raise DataError(f"{where}: {problem}")
        if "session" not in obj:
            raise DataError(f"{where}: has no session")
        session = session_from_obj(obj["session"], where)
        out.append(Slide(obj["title"], obj.get("notes", ""), session, tuple(obj.get("hide", []))))
    return Deck(title, tuple(out))


def read_deck(path: str) -> Deck:
    """A deck file: a regular file of at most MAX_DECK_BYTES, UTF-8 JSON, checked whole."""
    name, text = read_text_file(path, MAX_DECK_BYTES, "deck")
    return from_json(text, name)


def is_deck(spec: str | None) -> bool:
    """Whether ``spec`` names a deck: ``deck:NAME`` or a file ending in .probvizdeck."""
    return bool(spec) and (spec.startswith("deck:") or spec.lower().endswith(EXTENSION))


def deck_name(spec: str) -> str:
    """How messages name the deck ``spec``: its file's name, or deck:NAME."""
    return spec if spec.startswith("deck:") else (os.path.basename(spec) or spec)
