"""The command line: no sub-command opens the GUI; ``fit``, ``examples``, ``export``, ``bench`` run headless."""

from __future__ import annotations

import argparse
import json
import os
import sys

from probviz import __version__
from probviz.cli_options import add_model_options, add_training_options, model_overrides, training_args

COMMANDS = ("fit", "examples", "export", "bench", "install-desktop", "gui")


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line (the usage itself is one --help away)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="probviz",
        description="See probabilistic classifiers: place points, pick a model, watch the posterior.",
        epilog="Without a command, probviz opens its window (on FILE if given).")
    p.add_argument("--version", action="version", version=f"probviz {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    g = sub.add_parser("gui", help="open the window (the default)")
    g.add_argument("file", nargs="?", help="a CSV file, a .probviz session or example:NAME")

    f = sub.add_parser("fit", help="fit a model and print its parameters")
    f.add_argument("input", help="a CSV file, a .probviz session, example:NAME, or - for standard input")
    add_model_options(f)
    f.add_argument("--json", action="store_true", help="print JSON")
    _column_options(f)
    add_training_options(f)

    sub.add_parser("examples", help="list the built-in examples")

    from probviz.export_cli import add_parser as add_export

    add_export(sub, _column_options, add_model_options)

    d = sub.add_parser("install-desktop", help="put probviz in the applications menu (desktop entry, "
                                                "metainfo and icon in ~/.local/share)")
    d.add_argument("--uninstall", action="store_true", help="remove them again")

    b = sub.add_parser("bench", help="time fits and posterior grids beside scikit-learn")
    b.add_argument("--json", action="store_true", help="print JSON")
    b.add_argument("--repeat", type=int, default=15, help="runs per measurement (default 15)")
    b.add_argument("--quick", action="store_true", help="only the fit + grid table (no window, no 1M points)")
    return p


def _column_options(p):
    p.add_argument("--x", help="x column (name or 1-based number)")
    p.add_argument("--y", help="y column (name or 1-based number)")
    p.add_argument("--label", help="label column (name or 1-based number)")


def _fit(args) -> int:
    import numpy as np

    from probviz.data.inputs import load_session
    from probviz.pipeline import fit_model, session_spec
    from probviz.report import model_lines

    session = load_session(args.input, args.x, args.y, args.label)
    data = session.dataset
    name = args.model or session.model
    spec = session_spec(session, name, model_overrides(args, name), args.priors)
    training = training_args(args)
    if training is not None:
        return _train(args, session, spec, *training)
    fit = fit_model(spec, data.X, data.labels, names=data.class_names)
    if fit.error:
        raise ValueError(f"{args.input}: cannot fit: {fit.error}")
    model = fit.model
    if not args.json:  # the Parameters panel's lines, word for word
        print(f"{model.label} on {data.name or args.input}: {len(data.X)} points, "
              f"classes {', '.join(data.class_names[c] for c in model.classes_)}")
        for line in model_lines(model, data.class_names, fit.summary):
            print(f"  {line}")
        for n in fit.notices:
            print(f"  note: {n}")
        return 0
    out = dict(fit.summary)
    out["classes"] = [data.class_names[c] for c in model.classes_]
    out["n_points"] = int(len(data.X))
    out["parameters"] = spec.kwargs
    shared = hasattr(model, "covariance_")
    for attr in ("priors_", "means_", "covariance_", "covariances_", "coef_", "intercept_", "n_iter_",
                 "converged_", "start_", "separation_", "direction_", "mean_", "epochs_"):
        if hasattr(model, attr) and not (shared and attr == "covariances_"):
            v = getattr(model, attr)
            out[attr.rstrip("_")] = v.tolist() if isinstance(v, np.ndarray) else v
    print(json.dumps(out, indent=2, default=float, allow_nan=False))
    return 0


def _train(args, session, spec, optimizer, eta, steps) -> int:
    """``probviz fit --optimizer``: the weights after ``steps`` steps from w = 0 and E after each."""
    from probviz.models.training import OPTIMIZER_LABELS, separable_note
    from probviz.pipeline import session_trainer

    data = session.dataset
    trainer = session_trainer(session, spec, optimizer, eta)
    try:
        trainer.step(steps)
    except FloatingPointError as e:
        raise ValueError(f"{args.input}: {e}") from None
    last = trainer.current
    optimum, _ = trainer.optimum()
    note = separable_note(trainer)
    names = [data.class_names[c] for c in trainer.classes]
    if not args.json:
        print(f"{spec.label}, {OPTIMIZER_LABELS[optimizer]}"
              f"{'' if optimizer == 'newton' else f', eta = {trainer.eta:g}'}, {steps} steps from w = 0 on "
              f"{data.name or args.input}: {len(data.X)} points, classes {', '.join(names)}")
        print(f"  E(w) = {last.error:.6g}" + ("" if optimum is None else f" (optimum {optimum:.6g})")
              + f", misclassified {last.wrong}, ||w|| = {last.norm:.4g}")
        raw = trainer.raw_weights()
        for c, b in zip(raw["coef"], raw["intercept"]):
            print(f"  w = ({', '.join(f'{v:.6g}' for v in c)}), w0 = {b:.6g}")
        if note:
            print(f"  note: {note}")
        return 0
    out = {"model": spec.name, "classes": names, "n_points": int(len(data.X)), "parameters": spec.kwargs,
           "optimizer": optimizer, "eta": None if optimizer == "newton" else trainer.eta, "steps": steps,
           "basis": trainer.basis, "standardize": trainer.standardize,
           "center": trainer.frame[0].tolist(), "scale": trainer.frame[1].tolist(),
           "weights": last.W.tolist(), **trainer.raw_weights(),
           "error": last.error, "error_curve": [s.error for s in trainer.history[1:]],
           "misclassified_curve": [s.wrong for s in trainer.history[1:]],
           "norm_curve": [s.norm for s in trainer.history[1:]],
           "optimum_error": optimum, "gradient": trainer.gradient_norm(), "notices": [note] if note else []}
    print(json.dumps(out, indent=2, default=float, allow_nan=False))
    return 0


def _examples(args) -> int:
    from probviz.data.examples import EXAMPLES

    width = max(map(len, EXAMPLES))
    for name, (lesson, _) in EXAMPLES.items():
        print(f"{name:<{width}}  {lesson}")
    return 0


def _gui(args) -> int:
    from probviz.app.launch import run_gui

    return run_gui(getattr(args, "file", None))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-") and argv[0] not in COMMANDS:
        word = argv[0]
        if not (os.path.exists(word) or word.startswith("example:")):
            print(f"probviz: error: {word!r} is neither a command ({', '.join(COMMANDS)}) nor an existing "
                  "file; see probviz --help", file=sys.stderr)
            return 2
        argv = ["gui", *argv]  # `probviz data.csv` opens the window on it
    parser = _parser()
    args = parser.parse_args(argv)
    command = args.command or "gui"
    try:
        if command == "fit":
            return _fit(args)
        if command == "examples":
            return _examples(args)
        if command == "bench":
            from probviz import bench

            return bench.main(args)
        if command == "install-desktop":
            from probviz.desktop import main as desktop_main

            return desktop_main(args)
        if command == "export":
            from probviz.export_cli import main as export_main

            return export_main(args)
        return _gui(args)
    except (ValueError, OSError) as e:  # DataError is a ValueError
        print(f"probviz: error: {e}", file=sys.stderr)
        return 2


def gui_main() -> int:
    """Entry point of the ``probviz-gui`` launcher (no console on Windows)."""
    args = sys.argv[1:]
    return main(args if args[:1] in (["--version"], ["--help"], ["-h"]) else ["gui", *args])
