"""Lesson decks on the command line: ``probviz deck DECK`` lists the slides; ``probviz export DECK
--slide N`` draws one slide as ``probviz export`` draws a session, ``--slides -o handout.pdf`` all of
them, one page each with its title and notes.

Importing this module loads nothing heavy (``probviz --help`` builds its parser)."""

from __future__ import annotations

import argparse
import json
import os

HELP = "list a lesson deck's slides (a .probvizdeck file, deck:generative or deck:discriminant)"
#: export's options that a handout takes; any other is refused with --slides (each slide is its own session)
HANDOUT_OPTIONS = {"command", "input", "output", "width", "height", "dpi", "theme", "scale", "no_legend",
                   "transparent", "layers", "slides", "slide"}


def add_parser(sub):
    d = sub.add_parser("deck", help=HELP, description="Print a lesson deck's title and its slides, numbered as "
                                                      "probviz export DECK --slide N takes them.")
    d.add_argument("deck", help="a .probvizdeck file, or deck:NAME for a built-in deck (deck:generative, "
                                "deck:discriminant)")
    d.add_argument("--json", action="store_true", help="print JSON: the title and each slide's number, title, "
                                                       "notes, hidden panels, model and data")
    return d


def _slide_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def add_export_options(e) -> None:
    g = e.add_argument_group("lesson decks", "INPUT may be a lesson deck (a .probvizdeck file or deck:NAME)")
    g.add_argument("--slide", type=_slide_number, metavar="N",
                   help="draw slide N (from 1) of the deck, as probviz export draws a session")
    g.add_argument("--slides", action="store_true",
                   help="write a PDF handout: one page per slide, its title above the figure and its notes below")


def main(args) -> int:
    """``probviz deck``: the slides of a deck."""
    from probviz.data.deck import deck_name
    from probviz.data.decks import load_deck

    deck = load_deck(args.deck)
    if args.json:
        out = {"deck": args.deck, "title": deck.title, "slides": [
            {"number": n, "title": s.title, "notes": s.notes, "hide": list(s.hide), "model": s.session.model,
             "data": s.session.dataset.name, "points": int(len(s.session.dataset.X))}
            for n, s in enumerate(deck.slides, 1)]}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    count = len(deck.slides)
    print(f"{deck.title or deck_name(args.deck)}: {count} slide{'' if count == 1 else 's'}")
    width = len(str(count))
    for n, s in enumerate(deck.slides, 1):
        print(f"{n:>{width}}  {s.title}")
    return 0


def check_export(args) -> None:
    """--slide and --slides against the input: a deck needs one of them, anything else neither."""
    from probviz.data.deck import deck_name, is_deck

    if args.slide is not None and args.slides:
        raise ValueError("--slide and --slides do not combine: --slide N draws one slide, --slides the handout")
    if is_deck(args.input):
        if args.slide is None and not args.slides:
            raise ValueError(f"{deck_name(args.input)} is a lesson deck: add --slide N for one slide's figure, or "
                             "--slides -o HANDOUT.pdf for a page per slide (probviz deck "
                             f"{args.input} lists them)")
    elif args.slide is not None or args.slides:
        flag = "--slides" if args.slides else "--slide"
        raise ValueError(f"{flag} needs a lesson deck (a .probvizdeck file or deck:NAME), not {args.input}")


def chosen_slide(deck, spec: str, number: int):
    """Slide ``number`` (from 1) of ``deck``, or a ValueError saying how many there are."""
    from probviz.data.deck import deck_name

    count = len(deck.slides)
    if not 1 <= number <= count:
        raise ValueError(f"{deck_name(spec)} has {count} slide{'' if count == 1 else 's'}; --slide {number} is "
                         "not one of them")
    return deck.slides[number - 1]


def slide_session(args):
    """The session of --slide N of the deck INPUT: what ``probviz export`` then draws."""
    from probviz.data.decks import load_deck

    return chosen_slide(load_deck(args.input), args.input, args.slide).session


def export_handout(args) -> int:
    """``probviz export DECK --slides -o handout.pdf``."""
    from probviz.data.deck import deck_name
    from probviz.data.decks import load_deck
    from probviz.layers import parse_layers

    if os.path.splitext(args.output)[1].lower() != ".pdf":
        raise ValueError(f"--slides writes a PDF handout: give -o a .pdf file, not {os.path.basename(args.output)} "
                         "(--slide N draws one slide as PNG, SVG or PDF)")
    for dest, value in sorted(vars(args).items()):
        if dest not in HANDOUT_OPTIONS and value not in (None, False):
            raise ValueError(f"--{dest.replace('_', '-')} does not combine with --slides: each slide draws its "
                             "own session (use --slide N for one slide with other options)")
    layers = parse_layers(args.layers) if args.layers else None
    from probviz.app.export import _check

    _check(args.output, args.width, args.height, args.dpi)  # the size, the dpi and the target, before any work
    from probviz.data.outputs import check_outputs

    check_outputs({"the input": args.input}, {"-o": args.output})
    deck = load_deck(args.input)
    name = deck_name(args.input)
    if not deck.slides:
        raise ValueError(f"{name} has no slides")
    from PySide6.QtWidgets import QApplication

    from probviz import pipeline
    from probviz.app.export import figure_painter, shown_step
    from probviz.app.handout import write_handout
    from probviz.pipeline import session_spec
    from probviz.snapshot import frame_request, from_session
    from probviz.style import Style

    app = QApplication.instance() or QApplication(["probviz"])  # needed to draw
    style = Style(args.scale, args.theme == "dark")
    pages = []
    count = len(deck.slides)
    for n, slide in enumerate(deck.slides, 1):
        session = slide.session
        spec = session_spec(session, session.model)
        snap = from_session(session)
        # as probviz export draws a session: fitted (or trained) first, so that a slide that cannot fit says so
        first = pipeline.compute(frame_request(snap, (0.0, 1.0, 0.0, 1.0), (2, 2), specs=(spec,)))
        if first.training is not None and first.training.problem:
            raise ValueError(f"{name}: slide {n}: {first.training.problem}")
        if first.fit.error:
            raise ValueError(f"{name}: slide {n}: cannot fit: {first.fit.error}")
        _, draw = figure_painter(snap, args.width, args.height, layers=layers, legend=not args.no_legend,
                                 transparent=args.transparent, style=style, spec=spec, fits=first.fits,
                                 model_label=shown_step(first), training=first.training)
        footer = f"{deck.title + ' · ' if deck.title else ''}{n} / {count}"
        pages.append((slide.title, slide.notes, footer, draw))
    write_handout(args.output, pages, args.width, args.height, args.dpi or 96, style, args.transparent,
                  title=deck.title)
    app.processEvents()  # (the application lives until the handout is written)
    print(f"wrote {args.output} ({count} page{'' if count == 1 else 's'}, one per slide of {name})")
    return 0
