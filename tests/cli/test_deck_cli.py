"""Lesson decks on the command line: `probviz deck`, `probviz export DECK --slide N` (the slide's session
as `probviz export` draws it) and `--slides` (a PDF handout, a page per slide with its title and notes)."""

import dataclasses
import json
import re
import subprocess
import sys

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from probviz import cli
from probviz.data import examples
from probviz.data.deck import Deck, Slide, write_deck
from probviz.data.decks import deck
from probviz.data.session import write_session

SIZE = ["--width", "640", "--height", "480"]


def run(*args):
    return subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, text=True, timeout=300)


def lesson(tmp_path, name="lesson.probvizdeck"):
    """A deck of two slides written by hand."""
    fruit = examples.session("fruit")
    d = Deck("A lesson", (Slide("First: the fruit", "Notes one.", fruit),
                          Slide("Second: QDA", "Notes\n\ttwo.", dataclasses.replace(fruit, model="qda"))))
    path = tmp_path / name
    write_deck(str(path), d)
    return path


def error_line(args, capsys) -> str:
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_deck_lists_the_slides(tmp_path, capsys):
    path = lesson(tmp_path)
    assert cli.main(["deck", str(path)]) == 0
    assert capsys.readouterr().out == "A lesson: 2 slides\n1  First: the fruit\n2  Second: QDA\n"
    assert cli.main(["deck", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["title"] == "A lesson"
    assert [(s["number"], s["title"], s["notes"], s["model"]) for s in out["slides"]] == [
        (1, "First: the fruit", "Notes one.", "lda"), (2, "Second: QDA", "Notes\n\ttwo.", "qda")]


def test_the_built_in_decks_are_listed_by_name(capsys):
    assert cli.main(["deck", "deck:generative"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Generative against discriminative: 11 slides"
    assert lines[1] == " 1  Apple or peach?" and lines[-1].startswith("11  ")
    assert error_line(["deck", "deck:nope"], capsys) == (
        "probviz: error: no deck named 'nope'; the built-in decks are deck:generative, deck:discriminant\n")


@pytest.mark.parametrize("args,message", [
    (["export", "{deck}", "-o", "{out}.png"],
     "lesson.probvizdeck is a lesson deck: add --slide N for one slide's figure, or --slides -o HANDOUT.pdf for a "
     "page per slide (probviz deck {deck} lists them)"),
    (["export", "{deck}", "--slide", "3", "-o", "{out}.png"],
     "lesson.probvizdeck has 2 slides; --slide 3 is not one of them"),
    (["export", "{deck}", "--slide", "0", "-o", "{out}.png"],
     "lesson.probvizdeck has 2 slides; --slide 0 is not one of them"),
    (["export", "{deck}", "--slides", "-o", "{out}.png"],
     "--slides writes a PDF handout: give -o a .pdf file, not out.png (--slide N draws one slide as PNG, SVG or PDF)"),
    (["export", "{deck}", "--slides", "--slide", "1", "-o", "{out}.pdf"],
     "--slide and --slides do not combine: --slide N draws one slide, --slides the handout"),
    (["export", "{deck}", "--slides", "--model", "qda", "-o", "{out}.pdf"],
     "--model does not combine with --slides: each slide draws its own session (use --slide N for one slide with "
     "other options)"),
    (["export", "example:fruit", "--slide", "1", "-o", "{out}.png"],
     "--slide needs a lesson deck (a .probvizdeck file or deck:NAME), not example:fruit"),
])
def test_deck_flags_say_what_to_do(args, message, tmp_path, capsys):
    path = lesson(tmp_path)
    args = [a.format(deck=path, out=tmp_path / "out") for a in args]
    assert error_line(args, capsys) == "probviz: error: " + message.format(deck=path) + "\n"
    assert not list(tmp_path.glob("out*"))


@pytest.mark.parametrize("name", ["generative", "discriminant"])
def test_slide_n_is_that_slides_session_exported(name, tmp_path, capsys):
    """`export DECK --slide N` draws exactly what `export` draws of slide N's session saved as a file."""
    d = deck(name)
    for n, slide in enumerate(d.slides, 1):
        write_session(str(tmp_path / "s.probviz"), slide.session)
        assert cli.main(["export", f"deck:{name}", "--slide", str(n), "-o", str(tmp_path / "a.png"), *SIZE]) == 0
        assert cli.main(["export", str(tmp_path / "s.probviz"), "-o", str(tmp_path / "b.png"), *SIZE]) == 0
        a, b = (np.asarray(Image.open(tmp_path / f).convert("RGBA")) for f in ("a.png", "b.png"))
        assert a.shape == (480, 640, 4) and np.array_equal(a, b), (name, n)
    capsys.readouterr()


def _pixels(page, scale):
    return np.asarray(page.render(scale=scale).to_pil().convert("RGB")).astype(int)


def _find(figure, page):
    """The row of ``page`` where ``figure`` lies whole, left-aligned, or None. Pixel for pixel: pdfium's
    anti-aliasing may round a few edge pixels (here at most 1 in 6,000) one level apart."""
    h, w = figure.shape[:2]
    for top in range(page.shape[0] - h + 1):
        d = np.abs(page[top:top + h, :w] - figure)
        if d.max() <= 2 and np.count_nonzero(d) <= 1e-3 * d.size:
            return top
    return None


@pytest.mark.parametrize("name", ["discriminant", "generative"])
def test_the_handout_has_a_page_per_slide_with_its_title_its_notes_and_its_figure(name, tmp_path, capsys):
    d = deck(name)
    out = tmp_path / "handout.pdf"
    size = ["--width", "800", "--height", "600"]
    assert cli.main(["export", f"deck:{name}", "--slides", "-o", str(out), *size]) == 0
    assert capsys.readouterr().out == f"wrote {out} ({len(d.slides)} pages, one per slide of deck:{name})\n"
    pdf = pdfium.PdfDocument(str(out))
    assert len(pdf) == len(d.slides)
    assert pdf.get_metadata_dict()["Title"] == d.title  # what a PDF reader calls the file
    scale = 96 / 72  # one pixel of the figure is one pixel of the rendering
    for n, slide in enumerate(d.slides, 1):
        page = pdf[n - 1]
        # (pdfium reads a hyphen it takes for a line-break hyphen as U+FFFE)
        text = " ".join(page.get_textpage().get_text_range().replace("\ufffe", "-").split())
        assert slide.title in text, (n, slide.title)
        assert " ".join(slide.notes.split()) in text, n
        single = tmp_path / "one.pdf"
        assert cli.main(["export", f"deck:{name}", "--slide", str(n), "-o", str(single), *size]) == 0
        one = pdfium.PdfDocument(str(single))
        figure = _pixels(one[0], scale)
        assert figure.shape == (600, 800, 3)
        top = _find(figure, _pixels(page, scale))
        assert top is not None, f"slide {n}: the page does not hold the slide's figure pixel for pixel"
        assert top > 0  # the title is above it
        one.close()
    pdf.close()
    capsys.readouterr()


def test_a_long_note_wraps_inside_the_page(tmp_path, capsys):
    words = " ".join(f"word{i}" for i in range(400)) + " " + "x" * 300  # and a word wider than the page
    d = Deck("", (Slide("Wrapped", words, examples.session("fruit")),))
    write_deck(str(tmp_path / "w.probvizdeck"), d)
    out = tmp_path / "w.pdf"
    assert cli.main(["export", str(tmp_path / "w.probvizdeck"), "--slides", "-o", str(out), *SIZE]) == 0
    page = pdfium.PdfDocument(str(out))[0]
    width, height = page.get_size()
    assert width == 640 * 72 / 96 and height > 480 * 72 / 96 + 100  # the notes take lines of their own
    text = page.get_textpage()
    assert "word399" in text.get_text_range()
    for i in range(text.count_chars()):  # every character lies on the page
        left, bottom, right, top = text.get_charbox(i)
        assert 0 <= left and right <= width and 0 <= bottom and top <= height, i


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d["slides"][1]["session"]["points"].update(x=[1.0]),
     "lesson.probvizdeck: slide 2: not a valid probviz session (points: 1 x, 250 y and 250 label values; they must "
     "be as many)"),
    (lambda d: d["slides"][0].update(title="bell\x07"),
     "lesson.probvizdeck: slide 1: the title: a control character (U+0007); only plain text is allowed"),
    (lambda d: d["slides"].extend(d["slides"][:1] * 199), "lesson.probvizdeck: not a valid probviz deck (201 slides; "
                                                          "a deck holds at most 200)"),
    (lambda d: d.update(slides="all"), "lesson.probvizdeck: not a valid probviz deck (slides must be a list)"),
])
def test_a_hostile_deck_gets_one_line_from_every_command(mutate, message, tmp_path):
    doc = json.loads(lesson(tmp_path).read_text())
    mutate(doc)
    (tmp_path / "lesson.probvizdeck").write_text(json.dumps(doc))
    for args in (["deck", "lesson.probvizdeck"], ["export", "lesson.probvizdeck", "--slide", "1", "-o", "f.png"],
                 ["export", "lesson.probvizdeck", "--slides", "-o", "h.pdf"]):
        r = subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, text=True, timeout=300,
                           cwd=tmp_path)
        assert (r.returncode, r.stderr) == (2, f"probviz: error: {message}\n"), args
    assert not (tmp_path / "f.png").exists() and not (tmp_path / "h.pdf").exists()


def test_a_slide_that_cannot_fit_is_named_and_nothing_is_written(tmp_path, capsys):
    iris = examples.session("iris")
    d = Deck("", (Slide("fine", "", examples.session("fruit")),
                  Slide("Fisher on three classes", "", dataclasses.replace(iris, model="fisher"))))
    write_deck(str(tmp_path / "lesson.probvizdeck"), d)
    err = error_line(["export", str(tmp_path / "lesson.probvizdeck"), "--slides", "-o", str(tmp_path / "h.pdf")],
                     capsys)
    assert re.fullmatch(r"probviz: error: lesson\.probvizdeck: slide 2: cannot fit: .+\n", err), err
    assert not (tmp_path / "h.pdf").exists()


def test_a_deck_given_where_a_session_goes_says_what_it_is(tmp_path, capsys):
    path = lesson(tmp_path)
    for command in ("fit", "sample", "roc"):
        args = [command, str(path)] + (["-n", "3", "-o", "-"] if command == "sample" else [])
        assert error_line(args, capsys) == (
            f"probviz: error: lesson.probvizdeck is a lesson deck, not data or a session: probviz export {path} "
            "--slide N draws one of its slides (probviz deck lists them)\n")


def test_a_slide_showing_a_training_step_names_the_step(tmp_path, capsys):
    """The Newton slide draws step 2 of the run from w = 0: its legend says so, in --slide and the handout."""
    n = next(i for i, s in enumerate(deck("generative").slides, 1) if s.session.training.shown)
    assert deck("generative").slides[n - 1].session.training.steps == 2
    one, handout = tmp_path / "one.pdf", tmp_path / "h.pdf"
    assert cli.main(["export", "deck:generative", "--slide", str(n), "-o", str(one), *SIZE]) == 0
    assert cli.main(["export", "deck:generative", "--slides", "-o", str(handout), *SIZE]) == 0
    for path, page in ((one, 0), (handout, n - 1)):
        text = pdfium.PdfDocument(str(path))[page].get_textpage().get_text_range()
        assert "Logistic regression, Newton / IRLS, step 2" in " ".join(text.split()), path
    capsys.readouterr()


def test_a_deck_without_slides_is_listed_but_has_no_handout(tmp_path, capsys):
    path = tmp_path / "empty.probvizdeck"
    write_deck(str(path), Deck("Nothing yet"))
    assert cli.main(["deck", str(path)]) == 0
    assert capsys.readouterr().out == "Nothing yet: 0 slides\n"
    assert error_line(["export", str(path), "--slides", "-o", str(tmp_path / "h.pdf")], capsys) == (
        "probviz: error: empty.probvizdeck has no slides\n")
    assert error_line(["export", str(path), "--slide", "1", "-o", str(tmp_path / "f.png")], capsys) == (
        "probviz: error: empty.probvizdeck has 0 slides; --slide 1 is not one of them\n")
    assert not list(tmp_path.glob("h.pdf")) and not list(tmp_path.glob("f.png"))
