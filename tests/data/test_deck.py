"""Lesson decks (.probvizdeck): every slide round-trips exactly, the deck's operations behave as the same
operations on a list, and a hostile file is refused with one line naming the file and the slide."""

import dataclasses
import json
import os
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from hypo import examples as budget
from probviz.data import examples
from probviz.data.dataset import Dataset
from probviz.data.deck import (
    MAX_NOTES, MAX_SLIDES, MAX_TITLE, PANELS, Deck, Slide, delete, from_json, move, read_deck, record, rename,
    with_notes, write_deck,
)
from probviz.data.decks import DECKS, deck
from probviz.data.files import DataError
from probviz.data.session import Session, session_to_obj
from probviz.layers import LAYERS
from probviz.models.registry import REGISTRY
from probviz.models.training import OPTIMIZERS, START_LABELS, TrainingSpec
from probviz.snapshot import Snapshot, from_session

# ---------------------------------------------------------------------------------------------- round trips


def assert_same_state(a: Session, b: Session, where=""):
    """The two sessions give the same snapshot, field by field; the points bit for bit."""
    sa, sb = from_session(a), from_session(b)
    for f in dataclasses.fields(Snapshot):
        va, vb = getattr(sa, f.name), getattr(sb, f.name)
        if f.name == "dataset":
            assert va.X.tobytes() == vb.X.tobytes(), where  # bit for bit, -0.0 and subnormals too
            assert va.labels.tolist() == vb.labels.tolist(), where
            for g in ("class_names", "colors", "axis_names", "name", "description", "probe", "view"):
                assert getattr(va, g) == getattr(vb, g), (where, g)
            assert (va.truth is None) == (vb.truth is None), where
            if va.truth is not None:
                assert va.truth.to_json() == vb.truth.to_json(), where
        else:
            assert va == vb, (where, f.name, va, vb)
    assert a.source == b.source, where


def assert_same_deck(a: Deck, b: Deck):
    assert a.title == b.title
    assert len(a.slides) == len(b.slides)
    for n, (x, y) in enumerate(zip(a.slides, b.slides), 1):
        assert (x.title, x.notes, x.hide) == (y.title, y.notes, y.hide), n
        assert_same_state(x.session, y.session, f"slide {n}")


@pytest.mark.parametrize("name", ["generative", "discriminant"])
def test_every_slide_of_the_built_in_decks_round_trips_exactly(name, tmp_path):
    d = deck(name)
    path = tmp_path / f"{name}.probvizdeck"
    write_deck(str(path), d)
    back = read_deck(str(path))
    assert_same_deck(d, back)
    write_deck(str(tmp_path / "again.probvizdeck"), back)  # and the file written again is the same file
    assert (tmp_path / "again.probvizdeck").read_bytes() == path.read_bytes()


def test_a_slides_session_is_exactly_a_session_files_json(tmp_path):
    """A slide holds what a .probviz file holds: its session object is the session file's JSON."""
    from probviz.data.session import write_session

    d = deck("generative")
    write_deck(str(tmp_path / "d.probvizdeck"), d)
    doc = json.loads((tmp_path / "d.probvizdeck").read_text())
    assert doc["format"] == "probviz-deck" and doc["version"] == 1 and doc["title"] == d.title
    for n, slide in enumerate(d.slides):
        write_session(str(tmp_path / "s.probviz"), slide.session)
        assert doc["slides"][n]["session"] == json.loads((tmp_path / "s.probviz").read_text())
        assert doc["slides"][n]["title"] == slide.title and doc["slides"][n]["notes"] == slide.notes


PLAIN = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30)
NOTES = st.text(st.one_of(st.characters(blacklist_categories=("Cc", "Cs")), st.sampled_from("\n\t")), max_size=200)
COORD = st.floats(min_value=-1e100, max_value=1e100, allow_nan=False, allow_infinity=False)


@st.composite
def sessions(draw):
    k = draw(st.integers(1, 4))
    n = draw(st.integers(0, 12))
    X = np.array(draw(st.lists(st.tuples(COORD, COORD), min_size=n, max_size=n)), float).reshape(-1, 2)
    labels = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    names = [f"c{i}" for i in range(k)]
    x0, y0 = draw(st.floats(-1e6, 1e6)), draw(st.floats(-1e6, 1e6))
    view = draw(st.none() | st.just((x0, x0 + 1.5, y0, y0 + 2.25)))
    data = Dataset(X, labels, names, name=draw(PLAIN), description=draw(NOTES),
                   probe=draw(st.none() | st.tuples(COORD, COORD)), view=view)  # a session's view is its data's
    model = draw(st.sampled_from(tuple(REGISTRY)))
    params = {}
    if model in ("logistic", "softmax", "probit"):
        params[model] = REGISTRY[model].check({"l2": draw(st.floats(0, 100)), "standardize": draw(st.booleans())})
    training = draw(st.just(TrainingSpec()) | st.builds(
        TrainingSpec, st.sampled_from(OPTIMIZERS), st.none() | st.floats(1e-6, 10),
        st.sampled_from(sorted(START_LABELS)), st.integers(0, 1000), st.just(0), st.booleans()))
    priors = draw(st.none() | st.lists(st.floats(1e-3, 1e3), min_size=k, max_size=k).map(tuple))
    return Session(data, model, params, sorted(draw(st.sets(st.sampled_from(LAYERS), min_size=1))), view,
                   priors=priors, theta=draw(st.sampled_from([0.0, 0.25, 0.5, 0.99])),
                   compare=draw(st.none() | st.sampled_from(tuple(REGISTRY))),
                   split=draw(st.just((0.0, 0)) | st.tuples(st.floats(0.05, 0.9), st.integers(0, 2**31 - 1))),
                   training=training)


@st.composite
def decks(draw):
    slides = draw(st.lists(st.builds(Slide, PLAIN, NOTES, sessions(), st.lists(
        st.sampled_from(PANELS), unique=True).map(tuple)), max_size=4))
    return Deck(draw(PLAIN), tuple(slides))


@settings(max_examples=budget(60), deadline=None)
@given(decks())
def test_generated_decks_round_trip_exactly(tmp_path_factory, d):
    path = str(tmp_path_factory.mktemp("decks") / "g.probvizdeck")
    write_deck(path, d)
    assert_same_deck(d, read_deck(path))


# ---------------------------------------------------------------------------------------------- operations


def _slide(title="s", notes=""):
    return Slide(title, notes, examples.session("fruit"))


class DeckAgainstAList(RuleBasedStateMachine):
    """Every operation on a Deck does what the same operation does on a Python list of its slides, and
    never changes a deck made before it (an undo stack keeps them)."""

    def __init__(self):
        super().__init__()
        self.session = examples.session("three-in-a-line")
        self.deck, self.model = Deck("lesson"), []
        self.history = []  # (deck, its slides as a list, their titles and notes) before each operation
        self.count = 0

    def _keep(self):
        self.history.append((self.deck, list(self.model), [(s.title, s.notes) for s in self.model]))

    @rule(where=st.integers(-1, 12))
    def record(self, where):
        self.count += 1
        slide = Slide(f"slide {self.count}", f"notes {self.count}", self.session)
        if where >= len(self.model):
            with pytest.raises(IndexError):
                record(self.deck, where, slide)
            return
        self._keep()
        self.deck = record(self.deck, where, slide)
        self.model.insert(where + 1, slide)

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def move(self, data):
        i = data.draw(st.integers(0, len(self.model) - 1))
        j = data.draw(st.integers(0, len(self.model) - 1))
        self._keep()
        self.deck = move(self.deck, i, j)
        slide = self.model.pop(i)
        self.model.insert(j, slide)

    @precondition(lambda self: self.model)
    @rule(data=st.data(), title=PLAIN)
    def rename(self, data, title):
        i = data.draw(st.integers(0, len(self.model) - 1))
        self._keep()
        self.deck = rename(self.deck, i, title)
        old = self.model[i]
        self.model[i] = Slide(title, old.notes, old.session, old.hide)

    @precondition(lambda self: self.model)
    @rule(data=st.data(), notes=NOTES)
    def notes(self, data, notes):
        i = data.draw(st.integers(0, len(self.model) - 1))
        self._keep()
        self.deck = with_notes(self.deck, i, notes)
        old = self.model[i]
        self.model[i] = Slide(old.title, notes, old.session, old.hide)

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def delete(self, data):
        i = data.draw(st.integers(0, len(self.model) - 1))
        self._keep()
        self.deck = delete(self.deck, i)
        del self.model[i]

    @rule(i=st.integers(-3, 15))
    def out_of_range_changes_nothing(self, i):
        if 0 <= i < len(self.model):
            return
        before = self.deck
        for op in (lambda: move(self.deck, i, 0), lambda: rename(self.deck, i, "x"), lambda: delete(self.deck, i)):
            with pytest.raises(IndexError):
                op()
        assert self.deck is before

    @precondition(lambda self: self.history)
    @rule()
    def undo(self):
        self.deck, self.model, _ = self.history.pop()

    @invariant()
    def same_as_the_list(self):
        assert [(s.title, s.notes) for s in self.deck.slides] == [(s.title, s.notes) for s in self.model]
        assert all(s.session is self.session for s in self.deck.slides)
        assert self.deck.title == "lesson"

    @invariant()
    def old_decks_are_untouched(self):
        for old, _, shown in self.history:
            assert [(s.title, s.notes) for s in old.slides] == shown


DeckAgainstAList.TestCase.settings = settings(max_examples=budget(80), stateful_step_count=25, deadline=None)
TestDeckAgainstAList = DeckAgainstAList.TestCase


def test_move_puts_the_slide_at_the_new_position():
    """Written out: slides a b c d, move(0, 2) gives b c a d and move(3, 1) gives a d b c."""
    a, b, c, d = (_slide(t) for t in "abcd")
    dk = Deck("t", (a, b, c, d))
    assert [s.title for s in move(dk, 0, 2).slides] == list("bcad")
    assert [s.title for s in move(dk, 3, 1).slides] == list("adbc")
    assert [s.title for s in record(dk, -1, _slide("z")).slides] == list("zabcd")
    assert [s.title for s in record(dk, 3, _slide("z")).slides] == list("abcdz")
    assert [s.title for s in dk.slides] == list("abcd")  # unchanged


def test_operations_refuse_what_a_file_may_not_hold():
    dk = Deck("t", (_slide("a"),))
    with pytest.raises(ValueError, match=r"the title: a control character \(U\+000A\)"):
        rename(dk, 0, "two\nlines")
    with pytest.raises(ValueError, match=r"the title: 201 characters; the limit is 200"):
        rename(dk, 0, "t" * (MAX_TITLE + 1))
    with pytest.raises(ValueError, match=r"the notes: a control character \(U\+001B\)"):
        with_notes(dk, 0, "\x1b[31mred")
    with pytest.raises(ValueError, match="the notes: 20,001 characters"):
        with_notes(dk, 0, "n" * (MAX_NOTES + 1))
    assert with_notes(dk, 0, "line one\n\tline two").slides[0].notes == "line one\n\tline two"
    full = Deck("t", tuple(_slide(str(i)) for i in range(MAX_SLIDES)))
    with pytest.raises(ValueError, match="a deck holds at most 200 slides"):
        record(full, 0, _slide("one more"))


def test_a_failed_save_leaves_the_old_deck_whole(tmp_path, monkeypatch):
    path = tmp_path / "l.probvizdeck"
    write_deck(str(path), Deck("old", (_slide("a"),)))
    before = path.read_bytes()

    def broken(*a):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        write_deck(str(path), Deck("new", (_slide("b"),)))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["l.probvizdeck"]  # no temporary left behind


# ---------------------------------------------------------------------------------------------- the built-in decks


def test_the_built_in_decks_tell_their_lessons():
    gen, dis = deck("generative"), deck("discriminant")
    assert set(DECKS) == {"generative", "discriminant"}
    assert gen.title == "Generative against discriminative" and dis.title == "Discriminant functions"
    s = [x.session for x in gen.slides]
    assert s[0].dataset.name == "fruit"
    assert [x.model for x in s[:4]] == ["lda", "lda", "lda", "qda"]
    assert s[1].priors is None and s[2].priors == (0.3, 0.7)  # the same model, the priors moved by hand
    assert s[4].dataset.name == "shared-vs-own-covariance" and s[4].model == "qda" and s[4].compare == "lda"
    assert s[5].model == "tied" and s[5].params["tied"]["groups"] == "red,green"
    assert s[6].model == "logistic"
    assert (s[7].model, s[7].training.optimizer, s[7].training.shown) == ("logistic", "newton", True)
    assert s[7].training.steps >= 1
    assert "truth" in s[8].layers and s[8].dataset.truth is not None
    d = [x.session for x in dis.slides]
    assert (d[0].dataset.name, d[0].model, d[0].params.get("leastsquares", {}).get("scheme", "k-class")) == (
        "three-in-a-line", "leastsquares", "k-class")
    assert (d[3].dataset.name, d[3].model) == ("fisher-projection", "fisher")
    assert {"perceptron"} <= {x.model for x in d}
    schemes = [x.params["leastsquares"]["scheme"] for x in d if "scheme" in x.params.get("leastsquares", {})]
    assert {"one-vs-rest", "one-vs-one"} <= set(schemes)


@pytest.mark.parametrize("name", ["generative", "discriminant"])
def test_speaker_notes_cite_bishop_in_two_to_five_sentences(name):
    for n, slide in enumerate(deck(name).slides, 1):
        notes = slide.notes
        assert "Bishop" in notes and re.search(r"\beqs?\. \d", notes) or re.search(r"\bfigure \d", notes), (n, notes)
        assert re.search(r"\b(Bishop|section) \d\.\d", notes), (n, notes)  # a section
        # sentences end with a full stop followed by a capital (not "eq. 4.9" or "Bishop 4.1.2")
        sentences = len(re.findall(r"[.!?](?:\s+(?=[A-Z])|$)", notes))
        assert 2 <= sentences <= 5, (n, sentences, notes)
        assert not re.search(r"\bthe notes\b|\b00[0-4]\b", notes, re.IGNORECASE), (n, notes)
        assert slide.title and len(slide.title) <= MAX_TITLE


# ---------------------------------------------------------------------------------------------- hostile files


def good_doc():
    return {"format": "probviz-deck", "version": 1, "title": "lesson", "slides": [
        {"title": f"slide {n}", "notes": "two\nlines\tand a tab", "session": session_to_obj(examples.session("fruit"))}
        for n in (1, 2, 3)]}


def refused(doc_or_text, name="bad.probvizdeck") -> str:
    text = doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text)
    with pytest.raises(DataError) as e:
        from_json(text, name)
    return str(e.value)


def _set(path, value):
    def mutate(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


BAD = "bad.probvizdeck: not a valid probviz deck ("
S3 = "bad.probvizdeck: slide 3: "


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.pop("format"), BAD + "no probviz-deck header)"),
    (_set(["format"], "probviz-session"), BAD + "a session, not a lesson deck: open it as a session)"),
    (_set(["version"], "1"), BAD + "no version)"),
    (_set(["version"], 2), "bad.probvizdeck: saved by a newer probviz (deck version 2; this one reads up to 1); "
                           "please update probviz"),
    (_set(["title"], 7), BAD + "the deck's title must be text)"),
    (_set(["title"], "a\u0085b"), BAD + "the deck's title: a control character (U+0085); only plain text "
                                        "is allowed)"),
    (_set(["slides"], {"1": {}}), BAD + "slides must be a list)"),
    (lambda d: d["slides"].extend([d["slides"][0]] * 198), BAD + "201 slides; a deck holds at most 200)"),
    (_set(["slides", 2], "slide"), S3 + "not a slide (a slide is an object with a title, notes and a session)"),
    (lambda d: d["slides"][2].pop("title"), S3 + "the title must be text"),
    (_set(["slides", 2, "title"], ["a"]), S3 + "the title must be text"),
    (_set(["slides", 2, "title"], "bell\x07"), S3 + "the title: a control character (U+0007); only plain "
                                                    "text is allowed"),
    (_set(["slides", 2, "title"], "two\nlines"), S3 + "the title: a control character (U+000A); only plain "
                                                      "text is allowed"),
    (_set(["slides", 2, "title"], "t" * 201), S3 + "the title: 201 characters; the limit is 200"),
    (_set(["slides", 2, "notes"], "crlf\r\n"), S3 + "the notes: a control character (U+000D); only plain "
                                                    "text is allowed"),
    (_set(["slides", 2, "notes"], "n" * 20_001), S3 + "the notes: 20,001 characters; the limit is 20,000"),
    (_set(["slides", 2, "notes"], None), S3 + "the notes must be text"),
    (_set(["slides", 2, "hide"], "lab"), S3 + "hide must be a list of panel names (model, training, lab, weights, "
                                              "toolbar)"),
    (_set(["slides", 2, "hide"], ["lab", "canvas"]), S3 + "hide names 'canvas', which is no panel; the panels are "
                                                          "model, training, lab, weights, toolbar"),
    (_set(["slides", 2, "hide"], ["lab", "lab"]), S3 + "hide names a panel twice"),
    (lambda d: d["slides"][2].pop("session"), S3 + "has no session"),
    (_set(["slides", 2, "session"], None), S3 + "not a valid probviz session (no probviz-session header)"),
    (_set(["slides", 2, "session", "points", "x"], [1, 2]), S3 + "not a valid probviz session (points: 2 x, 250 y "
                                                                  "and 250 label values; they must be as many)"),
    (_set(["slides", 2, "session", "model"], "svm"), S3 + "not a valid probviz session (unknown model 'svm'; "
                                                         "probviz has " + ", ".join(REGISTRY) + ")"),
    (_set(["slides", 2, "session", "extra", "theta"], 2), S3 + "not a valid probviz session (theta must be a "
                                                               "number from 0 to 1)"),
    (_set(["slides", 2, "session", "version"], 9), S3 + "saved by a newer probviz (session version 9; this one "
                                                        "reads up to 1); please update probviz"),
    (_set(["slides", 2, "session", "extra", "deep"], json.loads("[" * 40 + "]" * 40)),
     S3 + "not a valid probviz session (nested too deeply)"),
])
def test_a_hostile_deck_is_refused_in_one_line_naming_the_file_and_slide(mutate, message):
    doc = good_doc()
    mutate(doc)
    assert refused(doc) == message


def test_limits_are_inclusive():
    doc = good_doc()
    doc["title"] = "d" * MAX_TITLE
    doc["slides"][0].update(title="t" * MAX_TITLE, notes="n\t\n" * (MAX_NOTES // 3) + "nn", hide=list(PANELS))
    d = from_json(json.dumps(doc), "ok.probvizdeck")
    assert len(d.slides[0].notes) == MAX_NOTES and d.slides[0].hide == PANELS
    doc["slides"] = doc["slides"][:1] * MAX_SLIDES
    assert len(from_json(json.dumps(doc), "ok.probvizdeck").slides) == MAX_SLIDES


@pytest.mark.parametrize("text,message", [
    ('{"format": "probviz-deck",\n oops}', "bad.probvizdeck, line 2: not valid JSON (Expecting property name "
                                           "enclosed in double quotes)"),
    ("[" * 100_000 + "]" * 100_000, BAD + "nested too deeply)"),
    ("[1]", BAD + "no probviz-deck header)"),
    ('{"format": "probviz-deck", "version": 1, "slides": [], "title": ' + "9" * 5000 + "}",
     BAD + "a number with thousands of digits)"),
])
def test_text_that_is_no_deck_is_refused(text, message):
    assert refused(text) == message


def test_unreadable_deck_files_say_why(tmp_path):
    p = tmp_path / "latin.probvizdeck"
    p.write_bytes(b'{"title": "caf\xe9"}')
    with pytest.raises(DataError, match=r"^latin.probvizdeck: not a probviz deck \(not UTF-8 text\)$"):
        read_deck(str(p))
    (tmp_path / "dir.probvizdeck").mkdir()
    with pytest.raises(DataError, match=r"^dir.probvizdeck: is a folder, not a file$"):
        read_deck(str(tmp_path / "dir.probvizdeck"))
    fifo = tmp_path / "pipe.probvizdeck"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="pipe.probvizdeck"):  # refused at once, not waited on
        read_deck(str(fifo))
