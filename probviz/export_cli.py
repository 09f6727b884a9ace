"""`probviz export`: the GUI's figure, headless."""

from __future__ import annotations

import os
from dataclasses import replace

from probviz.layers import LAYERS, THETA_MAX, parse_layers


HELP = "draw a figure (PNG, SVG or PDF) without opening a window"


def add_parser(sub, column_options, model_options):
    e = sub.add_parser("export", help=HELP)
    e.add_argument("input", help="a CSV file, a .probviz session, example:NAME, or a lesson deck (.probvizdeck or "
                                 "deck:NAME) with --slide N or --slides")
    e.add_argument("-o", "--output", required=True, help="the figure file; .png, .svg or .pdf")
    e.add_argument("--width", type=int, default=1200, help="width in pixels (default 1200)")
    e.add_argument("--height", type=int, default=900, help="height in pixels (default 900)")
    e.add_argument("--layers", help=f"comma-separated, from {','.join(LAYERS)}")
    e.add_argument("--title", help="a title above the plot")
    e.add_argument("--no-legend", action="store_true", help="leave out the legend")
    e.add_argument("--transparent", action="store_true", help="transparent background (PNG, SVG)")
    e.add_argument("--dpi", type=int, help="resolution stored in the PNG")
    e.add_argument("--theme", choices=("light", "dark"), default="light", help="colour theme (default light)")
    e.add_argument("--scale", type=float, default=1.0,
                   help="size of text, markers and lines (1.8 is presentation mode; default 1)")
    column_options(e)
    model_options(e)
    from probviz.cli_options import add_training_options

    add_training_options(e, curve=True)
    from probviz.cli_options import add_bayes_options

    add_bayes_options(e, export=True)
    g = e.add_argument_group("comparing and looking closer")
    g.add_argument("--compare", metavar="M2", help="overlay a second model's boundaries, dashed (any model name)")
    g.add_argument("--section", metavar="X1,Y1,X2,Y2", help="a cross-section line, drawn on the figure")
    g.add_argument("--section-out", metavar="OUT", help="with --section: the plot of p(C_k|x) (and, for "
                                                        "generative models, p(x|C_k)p(C_k)) along the line")
    g.add_argument("--loss", metavar="L", help="decide with a loss matrix, rows the true class: \"0,1;5,0\" "
                                               "(Bishop eq. 1.81); the regions and boundaries follow it")
    g.add_argument("--reject-cost", type=float, metavar="LAMBDA",
                   help="the reject option (Bishop exercise 1.24), as fit's: no decision where the least expected "
                        "loss exceeds LAMBDA (with the 0-1 loss, where max_k p(C_k|x) < 1 - LAMBDA), drawn grey "
                        f"over the decision regions (added to the layers); from {1 - THETA_MAX:g} to 1 "
                        "(the window's Reject θ = 1 - LAMBDA)")
    from probviz.deck_cli import add_export_options

    add_export_options(e)
    return e


def main(args) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no screen needed
    layers = parse_layers(args.layers) if args.layers else None
    if not 0.25 <= args.scale <= 5:
        raise ValueError(f"--scale {args.scale} is out of range (0.25 to 5)")
    from probviz.deck_cli import check_export, export_handout, slide_session

    check_export(args)  # a deck needs --slide N or --slides
    if args.slides:
        return export_handout(args)
    from probviz.app.export import export_figure, figure_format, shown_step

    figure_format(args.output)
    from PySide6.QtWidgets import QApplication

    from probviz.style import Style
    from probviz.data.inputs import load_session

    from probviz import pipeline
    from probviz.cli_options import model_overrides
    from probviz.pipeline import session_spec
    from probviz.snapshot import frame_request, from_session
    from probviz.stepping import TrainingSpec

    from probviz.cli_options import training_args

    training = training_args(args)
    section = _section(args)
    from probviz.data.outputs import check_outputs, check_target

    outputs = {"-o": args.output, "--curve": args.curve if training is not None else None,
               "--section-out": args.section_out}
    for out in outputs.values():
        if out:  # every output checked before anything is written
            figure_format(out)
            check_target(out)
    check_outputs({"the input": args.input}, outputs)
    session = slide_session(args) if args.slide is not None else load_session(args.input, args.x, args.y, args.label)
    name = args.model or session.model
    overrides = model_overrides(args, name)
    from probviz.bayes_view import bayes_overrides

    bayes = bayes_overrides(args, session, name, overrides)
    if bayes is None and (args.samples is not None or args.seed is not None):
        raise ValueError("--samples and --seed need --bayes")
    spec = session_spec(session, name, overrides, args.priors)
    snap = replace(from_session(session), model=name)  # --model's: the one a compared model is set beside
    if bayes is not None:  # the predictive heatmap, and the boundary cloud when asked for
        from probviz.layers import SAMPLES, SAMPLES_SEED

        extra = {"predictive"} | ({"samples"} if args.samples is not None else set())
        layers = (layers if layers is not None else snap.layers) | extra
        snap = replace(snap, samples=(args.samples or SAMPLES, SAMPLES_SEED if args.seed is None else args.seed))
    if args.compare:
        compare = session_spec(session, args.compare).name
        if compare == name:
            raise ValueError(f"--compare {args.compare} is the model shown ({name}): compare it with another model")
        snap = replace(snap, compare=compare)
    if section is not None:
        snap = replace(snap, section=section)
    if args.loss is not None:
        from probviz.decision import parse_loss

        try:
            loss = parse_loss(args.loss, len(session.dataset.class_names))
        except ValueError as e:
            raise ValueError(f"--loss: {e}") from None
        snap = replace(snap, loss=tuple(map(tuple, loss.tolist())))
    if args.reject_cost is not None:
        lam = args.reject_cost
        if not 1 - THETA_MAX <= lam <= 1:  # (NaN too)
            raise ValueError(f"--reject-cost must be a number from {1 - THETA_MAX:g} to 1, got {lam:g}")
        snap = replace(snap, theta=1.0 - lam)  # drawn over the decision regions, as the window draws it
        layers = (layers if layers is not None else snap.layers) | {"decision"}
    if training is not None:
        optimizer, eta, steps = training
        snap = replace(snap, training=TrainingSpec(optimizer, eta, "zero", steps, shown=True))
    # fitted (or trained) here first, so that a model that cannot fit refuses before anything is written
    first = pipeline.compute(frame_request(snap, (0.0, 1.0, 0.0, 1.0), (2, 2), specs=(spec,)))
    if first.training is not None and first.training.problem:
        raise ValueError(f"{args.input}: {first.training.problem}")
    if first.fit.error:
        raise ValueError(f"{args.input}: cannot fit: {first.fit.error}")
    label = shown_step(first)  # the step shown, as the window's legend names it (with the Bayesian view's prior)
    app = QApplication.instance() or QApplication(["probviz"])  # noqa: F841 - needed to draw
    style = Style(args.scale, args.theme == "dark")
    if training is not None and args.curve:
        from probviz.app.export import export_curves, training_curves

        export_curves(args.curve, *training_curves([first.training]), width=args.width, height=args.height, x_step=1,
                      title=args.title, dpi=args.dpi, style=style, transparent=args.transparent)
    frame = export_figure(snap, args.output, args.width, args.height, layers=layers, title=args.title,
                          legend=not args.no_legend, transparent=args.transparent, dpi=args.dpi,
                          style=style, spec=spec, fits=first.fits, model_label=label, training=first.training)
    if section is not None and args.section_out:
        from probviz.app.export import export_curves, section_curves
        from probviz.scene import cross_section

        if frame.fit.model is None:
            raise ValueError(f"{args.input}: cannot fit: {frame.fit.error}")
        theta = session.theta
        truth = frame.request.truth if frame.request.truth is not None and \
            frame.request.truth.K == len(session.dataset.class_names) else None
        sec = cross_section(frame.fit.model, *section, theta=theta, truth=truth,
                            loss=pipeline.shown_loss(frame.request, frame.fit))
        data = session.dataset
        names = [data.class_names[c] for c in frame.fit.class_index]
        colors = [data.colors[c] for c in frame.fit.class_index]
        curves, axes, bands, fills = section_curves(sec, names, colors, theta)
        export_curves(args.section_out, curves, axes, args.width, args.height, title=args.title, dpi=args.dpi,
                      style=style, transparent=args.transparent, bands=bands, fills=fills,
                      bounds=(0.0, float(sec.t[-1]), 0.0, 1.05))
    notices = list(frame.fit.notices)
    if section is not None and not _crosses(section, frame.request.bounds):
        notices.append("the section line lies outside the figure's view (its plot shows the whole line)")
    notes = "; ".join(notices)
    shown = label or frame.fit.spec.name
    if len(frame.fits) > 1:
        shown += f"; {frame.fits[1].spec.label} dashed"
    print(f"wrote {args.output} ({args.width}x{args.height}, {shown}{', ' + notes if notes else ''})")
    if training is not None and args.curve:
        print(f"wrote {args.curve} (E(w) against the step)")
    if section is not None and args.section_out:
        print(f"wrote {args.section_out} (the cross-section)")
    return 0


def _crosses(line, bounds) -> bool:
    """Whether the segment ``line`` ((x, y), (x, y)) passes through the view ``bounds`` (x0, x1, y0, y1)."""
    import numpy as np

    from probviz.figure_layout import clip_polyline

    x0, x1, y0, y1 = bounds
    return bool(clip_polyline(np.asarray(line, float), (x0, y0, x1 - x0, y1 - y0)))


def _section(args):
    """--section X1,Y1,X2,Y2 as two points, checked; --section-out needs it."""
    if args.section is None:
        if args.section_out:
            raise ValueError("--section-out needs --section X1,Y1,X2,Y2")
        return None
    try:
        v = [float(t) for t in args.section.split(",")]
    except ValueError:
        v = []
    import math

    if len(v) != 4 or not all(math.isfinite(t) for t in v) or (v[0], v[1]) == (v[2], v[3]):
        raise ValueError(f"--section needs four numbers X1,Y1,X2,Y2 (two different points), got {args.section!r}")
    return ((v[0], v[1]), (v[2], v[3]))
