"""The command line: no sub-command opens the GUI; ``fit``, ``examples``, ``export``, ``bench`` run headless."""

from __future__ import annotations

import argparse
import json
import os
import sys

from probviz import WINDOW_BLAS_ENV, __version__
from probviz.allocator import keep_freed_blocks
from probviz.cli_options import (
    add_model_options, add_training_options, model_overrides, training_args, whole_number,
)

COMMANDS = ("fit", "examples", "export", "deck", "sample", "curve", "roc", "bench", "install-desktop", "completion",
            "gui")


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line (the usage itself is one --help away)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _parser(light: bool = False) -> argparse.ArgumentParser:
    """The whole command line; ``light``: the commands and their own arguments only, not the model and
    training options (those need the models, numpy and scipy: --help answers without them)."""
    model_options, training_options = (lambda p: None, lambda p: None) if light else \
        (add_model_options, add_training_options)
    p = _Parser(
        prog="probviz",
        description="See probabilistic classifiers: place points, pick a model, watch the posterior.",
        epilog="Without a command, probviz opens its window (on FILE if given).")
    p.add_argument("--version", action="version", version=f"probviz {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    g = sub.add_parser("gui", help="open the window (the default)")
    g.add_argument("file", nargs="?", help="a CSV file, a .probviz session, example:NAME, or a lesson deck "
                                           "(a .probvizdeck file or deck:NAME)")

    f = sub.add_parser("fit", help="fit a model and print its parameters")
    f.add_argument("input", help="a CSV file, a .probviz session, example:NAME, or - for standard input")
    model_options(f)
    if not light:  # fit draws no figure: --width is free to name the rbf width (export spells it --rbf-width)
        from probviz.cli_options import add_width_alias

        add_width_alias(f)
    f.add_argument("--feature-space-out", metavar="OUT", help="with --basis rbf: also draw the points at (phi_1(x), "
                                                             "phi_2(x)) into this figure (.png, .svg or .pdf), with "
                                                             "the boundary, a straight line there when there are two "
                                                             "centres (Bishop figure 4.12)")
    f.add_argument("--json", action="store_true", help="print JSON")
    f.add_argument("--loss", metavar="L", help="a loss matrix, rows the true class and columns the choice, such as "
                                               "\"0,1;5,0\" (Bishop 1.5.2): report the expected loss of deciding "
                                               "argmin_j sum_k L_kj p(C_k|x), and with a truth the Bayes risk")
    f.add_argument("--reject-cost", type=float, metavar="LAMBDA",
                   help="the reject option (Bishop exercise 1.24): make no decision where the least expected loss "
                        "exceeds LAMBDA (with the 0-1 loss, where max_k p(C_k|x) < 1 - LAMBDA); a rejected point "
                        "costs LAMBDA")
    _column_options(f)
    training_options(f)
    if not light:
        from probviz.cli_options import add_bayes_options

        add_bayes_options(f)
    else:
        f.add_argument("--bayes", action="store_true")  # the light parser: commands only
        f.add_argument("--alpha")
        f.add_argument("--query")

    sub.add_parser("examples", help="list the built-in examples")
    from probviz.deck_cli import add_parser as add_deck

    add_deck(sub)

    s = sub.add_parser("sample", help="draw labelled points from a source's truth (or from a fitted model)",
                       description="Draw N labelled points from SOURCE's truth (the Gaussians its data come "
                                   "from: example:fruit carries Bishop's apple-and-peach model), or with --fitted "
                                   "from the generative model fitted to SOURCE's points, and write them as CSV "
                                   "(x, y, label). Each label is drawn with the priors, then x from its Gaussian; "
                                   "the same --seed gives the same points.")
    s.add_argument("source", help="a .probviz session or example:NAME with a truth (or, with --fitted, any input)")
    s.add_argument("-n", type=whole_number(0, 1_000_000), required=True, metavar="N", help="how many points")
    s.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=0, help="random seed (default 0)")
    s.add_argument("-o", "--output", required=True, help="the CSV file to write (- for standard output)")
    s.add_argument("--fitted", action="store_true", help="sample from the model fitted to SOURCE's points")
    s.add_argument("--model", help="with --fitted: a generative model, lda, qda or nb (default lda)")
    _column_options(s)

    c = sub.add_parser("curve", help="learning curves: the true error of models against the training-set size",
                       description="For each size n and seed, n points per class on average are drawn from "
                                   "SOURCE's truth (n K points shared by its priors, at least two a class); every "
                                   "model is fitted to that same set and its error under the truth computed "
                                   "exactly. Prints the mean and standard deviation per size, or JSON.")
    c.add_argument("source", help="a .probviz session or example:NAME with a truth")
    c.add_argument("--models", default="lda,logistic", help="comma-separated models (default lda,logistic)")
    c.add_argument("--sizes", default="4,8,16,32,64,128,256,512,1000",
                   help="points per class, comma-separated (default 4,8,...,512,1000)")
    c.add_argument("--seeds", type=int, default=20, help="training sets per size (default 20)")
    c.add_argument("--json", action="store_true", help="print JSON")
    c.add_argument("-o", "--output", help="also draw the curves into this figure (.png, .svg or .pdf)")
    c.add_argument("--width", type=int, default=1200, help="figure width in pixels (default 1200)")
    c.add_argument("--height", type=int, default=900, help="figure height in pixels (default 900)")

    r = sub.add_parser("roc", help="ROC curves of a fitted model's p(C_k|x): on the points, under the truth, and "
                                   "the Bayes-optimal one",
                       description="The ROC of the fitted p(C|x) of one class against the rest on the training "
                                   "points (every threshold; the AUC is the Mann-Whitney statistic), and with a "
                                   "truth the same score's ROC under it and the ROC of the true posterior (the "
                                   "Bayes-optimal one), each with its AUC.")
    r.add_argument("input", help="a CSV file, a .probviz session, example:NAME, or - for standard input")
    model_options(r)
    r.add_argument("--class", dest="positive", metavar="C",
                   help="the class scored against the rest: a name or a number from 1 (default the second class)")
    r.add_argument("--json", action="store_true", help="print JSON")
    r.add_argument("-o", "--output", help="also draw the curves into this figure (.png, .svg or .pdf)")
    r.add_argument("--width", type=int, default=900, help="figure width in pixels (default 900)")
    r.add_argument("--height", type=int, default=900, help="figure height in pixels (default 900)")
    _column_options(r)

    if light:
        from probviz.export_cli import HELP

        sub.add_parser("export", help=HELP)
    else:
        from probviz.export_cli import add_parser as add_export

        add_export(sub, _column_options, add_model_options)

    d = sub.add_parser("install-desktop", help="put probviz in the applications menu (desktop entry, "
                                                "metainfo and icon in ~/.local/share)")
    d.add_argument("--uninstall", action="store_true", help="remove them again")

    comp = sub.add_parser("completion", help="print a shell completion script (bash, zsh or tcsh)",
                          description="Print the completion script for SHELL: for bash, "
                                      "probviz completion bash > ~/.local/share/bash-completion/completions/probviz; "
                                      "for zsh, put the output of probviz completion zsh in a folder of your "
                                      "$fpath as _probviz.")
    comp.add_argument("shell", choices=("bash", "zsh", "tcsh"))

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

    from probviz.bayes_view import bayes_overrides, training_points
    from probviz.data.inputs import load_session
    from probviz.pipeline import fit_all, session_spec
    from probviz.report import counted, model_lines
    from probviz.snapshot import frame_request, from_session

    session = load_session(args.input, args.x, args.y, args.label)
    data = session.dataset
    name = args.model or session.model
    overrides = model_overrides(args, name)
    bayes = bayes_overrides(args, session, name, overrides)
    spec = session_spec(session, name, overrides, args.priors)
    training = training_args(args)
    if training is not None:
        if args.query is not None:
            raise ValueError("--query does not combine with --optimizer: --query reports the fitted model's "
                             "p(C_k|x), --optimizer the steps of a training run; run fit once for each")
        if args.loss is not None or args.reject_cost is not None:
            raise ValueError("--loss and --reject-cost do not combine with --optimizer")
        if args.feature_space_out is not None:
            raise ValueError("--feature-space-out does not combine with --optimizer")
        return _train(args, session, spec, *training)
    loss = None
    if args.reject_cost is not None and not (np.isfinite(args.reject_cost) and args.reject_cost >= 0):
        raise ValueError(f"--reject-cost must be a number from 0 up, got {args.reject_cost:g}")
    if args.loss is not None:
        from probviz.decision import parse_loss

        try:
            loss = parse_loss(args.loss, len(data.class_names))
        except ValueError as e:
            raise ValueError(f"--loss: {e}") from None
    if len(data.X) == 0:
        raise ValueError(f"{args.input}: no points to fit")
    # the window's and export's fit: on the points a session's split leaves for training
    fit = fit_all(frame_request(from_session(session), (0.0, 1.0, 0.0, 1.0), (2, 2), specs=(spec,)))[0]
    if fit.error:
        raise ValueError(f"{args.input}: cannot fit: {fit.error}")
    if fit.model is None:
        raise ValueError(f"{args.input}: no points to fit")
    model = fit.model
    fraction, seed = session.split
    n_held = fit.held_out.get("n", 0)
    lap, bases = getattr(model, "laplace_", None), None
    if lap is not None:  # --bayes, or a session saved with the Bayesian view on
        from probviz.bayes_view import basis_evidence

        X, labels = training_points(session)
        bases = basis_evidence(X, np.searchsorted(model.classes_, labels), len(model.classes_),
                               bayes if bayes is not None else lap.alpha, spec.kwargs["standardize"])
    elif bayes is not None:
        raise ValueError(f"{args.input}: the Bayesian view needs points of two classes or more")
    query = None
    if args.query is not None:
        from probviz.bayes_view import parse_query, query_json

        if not getattr(model, "probabilistic", True):
            raise ValueError(f"--query: {model.label} gives no p(C_k|x) (Bishop 4.1)")
        query = query_json(parse_query(args.query), model, lap)
    names = [data.class_names[c] for c in model.classes_]
    space = None
    if args.feature_space_out:  # Bishop figure 4.12: the points in the plane of two basis functions
        from probviz.feature_space import draw, feature_space

        space = feature_space(model, *training_points(session))
        draw(space, args.feature_space_out, data.class_names, data.colors, title=f"{model.label}: feature space")
    from probviz.decision import fit_report, report_lines, zero_one_loss

    try:  # the decision (with the loss matrix) on the training points, and under a truth
        decision = fit_report(model, *training_points(session), len(data.class_names),
                              data.truth if data.truth is not None and data.truth.K == len(data.class_names) else None,
                              loss if loss is not None or args.reject_cost is None
                              else zero_one_loss(len(data.class_names)), args.reject_cost)
    except ValueError as e:
        raise ValueError(f"--loss: {e}") from None
    if not args.json:  # the Parameters panel's lines, word for word
        print(f"{model.label} on {data.name or args.input}: {counted(len(data.X), 'point')}"
              + (f" ({n_held} held out, fraction {fraction:g}, seed {seed}; fitted to the rest)" if n_held else "")
              + f", classes {', '.join(data.class_names[c] for c in model.classes_)}")
        for line in model_lines(model, data.class_names, fit.summary):
            print(f"  {line}")
        if n_held:
            h = fit.held_out
            print(f"  held out: accuracy {h['accuracy']:.4g} on {counted(h['n'], 'point')}"
                  + (f", log-likelihood {h['log_likelihood']:.6g}" if "log_likelihood" in h else ""))
        if data.truth is not None and data.truth.K == len(data.class_names):
            from probviz.models.truth import error_rate

            print(f"  Bayes error of the truth: {data.truth.bayes_error():.4g}; this fit's error under the truth: "
                  f"{error_rate(data.truth, model, model.classes_):.4g}")
        for line in report_lines(decision, data.class_names):
            print(f"  {line}")
        for n in data.notices + fit.notices:
            print(f"  note: {n}")
        if space is not None:
            print(f"  wrote {args.feature_space_out} (the feature space)" + (f": {space.note}" if space.note else ""))
        if lap is not None:  # the Parameters lines gave alpha and the evidence; the bases beside them
            from probviz.bayes_view import basis_lines

            for line in basis_lines(bayes, bases):
                print(f"  {line}")
        if query is not None:
            from probviz.bayes_view import query_lines

            for line in query_lines(query, names):
                print(f"  {line}")
        return 0
    out = dict(fit.summary)
    out["notices"] = data.notices + list(out.get("notices", []))
    if data.truth is not None and data.truth.K == len(data.class_names):  # the best possible error, and this fit's
        from probviz.models.truth import error_rate

        out["bayes_error"] = data.truth.bayes_error()
        out["true_error"] = error_rate(data.truth, model, model.classes_)
    out.update(decision)
    out["classes"] = [data.class_names[c] for c in model.classes_]
    out["n_points"] = int(len(data.X))
    if n_held:
        out["split"] = {"fraction": fraction, "seed": seed}
        out["held_out"] = dict(fit.held_out)
    out["parameters"] = spec.kwargs
    shared = hasattr(model, "covariance_")
    for attr in ("priors_", "means_", "covariance_", "covariances_", "groups_", "group_covariances_", "coef_",
                 "intercept_", "n_iter_", "converged_", "start_", "separation_", "direction_", "mean_", "epochs_",
                 "centers_", "width_"):  # centers, width: the radial basis functions used (given or default)
        if hasattr(model, attr) and not (shared and attr == "covariances_"):
            v = getattr(model, attr)
            out[attr.rstrip("_")] = v.tolist() if isinstance(v, np.ndarray) else v
    if lap is not None:
        from probviz.bayes_view import bayes_json

        out["bayes"] = bayes_json(lap, bayes, names)
        out["bayes"]["evidence_by_basis"] = bases
    if query is not None:
        out["query"] = query
    if space is not None:
        out["feature_space"] = {"path": args.feature_space_out, "note": space.note,
                                "lines": [{"classes": [names[k], names[j]], "ends": seg.tolist()}
                                          for k, j, seg in space.lines]}
    print(json.dumps(out, indent=2, default=float, allow_nan=False))
    return 0


def _train(args, session, spec, optimizer, eta, steps) -> int:
    """``probviz fit --optimizer``: the weights after ``steps`` steps from w = 0 and E after each, trained on
    the points a session's split leaves for training (as the window and export train)."""
    import numpy as np

    from probviz.models.training import OPTIMIZER_LABELS, separable_note
    from probviz.pipeline import Fit, evaluate_request
    from probviz.report import counted
    from probviz.snapshot import frame_request, from_session
    from probviz.stepping import TrainingSpec, make_trainer, training_alpha

    data = session.dataset
    snap = from_session(session)
    held = snap.held_out()
    train = slice(None) if held is None else ~held
    trainer = make_trainer(spec, TrainingSpec(optimizer, eta), data.X[train], data.labels[train], data.class_names)
    try:
        trainer.step(steps)
    except FloatingPointError as e:
        raise ValueError(f"{args.input}: {e}") from None
    scores = {}
    if held is not None:
        model = trainer.model()
        request = frame_request(snap, (0.0, 1.0, 0.0, 1.0), (2, 2), specs=(spec,))
        scores = evaluate_request(Fit(spec, model, np.asarray(model.classes_, dtype=int)), request).held_out
    last = trainer.current
    optimum, _ = trainer.optimum()
    note = separable_note(trainer)
    names = [data.class_names[c] for c in trainer.classes]
    if not args.json:
        alpha = training_alpha(spec)  # --bayes: the steps go toward w_MAP under the prior N(w|0, alpha^-1 I)
        print(f"{spec.label}{'' if alpha is None else f', Bayesian, α = {alpha:.4g}'}, {OPTIMIZER_LABELS[optimizer]}"
              f"{'' if optimizer == 'newton' else f', eta = {trainer.eta:g}'}, {steps} steps from w = 0 on "
              f"{data.name or args.input}: {counted(len(data.X), 'point')}"
              + (f" ({scores['n']} held out, fraction {snap.split[0]:g}, seed {snap.split[1]}; trained on the rest)"
                 if scores else "") + f", classes {', '.join(names)}")
        print(f"  E(w) = {last.error:.6g}" + ("" if optimum is None else f" (optimum {optimum:.6g})")
              + f", misclassified {last.wrong}, ‖w‖ = {last.norm:.4g} (biases left out"
              + (", on the standardized features z)" if trainer.standardize else ")"))
        raw = trainer.raw_weights()
        for c, b in zip(raw["coef"], raw["intercept"]):
            print(f"  w = ({', '.join(f'{v:.6g}' for v in c)}), w0 = {b:.6g}")
        if scores:
            print(f"  held out: accuracy {scores['accuracy']:.4g} on {counted(scores['n'], 'point')}")
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
    if scores:
        out["split"] = {"fraction": snap.split[0], "seed": snap.split[1]}
        out["held_out"] = dict(scores)
    print(json.dumps(out, indent=2, default=float, allow_nan=False))
    return 0


def _need_truth(session, source: str):
    truth = session.dataset.truth
    if truth is None:
        raise ValueError(f"{source} has no truth (the model its points were drawn from); example:fruit, "
                         "example:shared-vs-own-covariance and example:xor have one, and a session saved with "
                         "a truth keeps it")
    if truth.K != len(session.dataset.class_names):
        raise ValueError(f"{source}: its truth has {truth.K} classes but the data {len(session.dataset.class_names)}")
    return truth


def _sample(args) -> int:
    """``probviz sample``: labelled points from the truth (or the fitted model), as CSV."""
    import numpy as np

    from probviz.data.csvio import csv_text, write_csv
    from probviz.data.dataset import Dataset
    from probviz.data.inputs import load_session
    from probviz.models.truth import fitted_truth
    from probviz.pipeline import fit_all, session_spec
    from probviz.report import counted
    from probviz.snapshot import frame_request, from_session

    from probviz.data.outputs import check_outputs, check_target

    if args.output != "-":
        check_target(args.output)
        check_outputs({"the input": args.source}, {"-o": args.output})
    session = load_session(args.source, args.x, args.y, args.label)
    data = session.dataset
    if args.fitted:
        spec = session_spec(session, args.model or "lda")
        if len(data.X) == 0:
            raise ValueError(f"{args.source}: no points to fit")
        fit = fit_all(frame_request(from_session(session), (0.0, 1.0, 0.0, 1.0), (2, 2), specs=(spec,)),
                      evaluate=False)[0]
        if fit.error:
            raise ValueError(f"{args.source}: cannot fit: {fit.error}")
        truth = fitted_truth(fit.model)
        names = [data.class_names[c] for c in fit.model.classes_]
    else:
        if args.model:
            raise ValueError("--model goes with --fitted")
        truth = _need_truth(session, args.source)
        names = list(data.class_names)
    X, labels = truth.sample(args.n, args.seed)
    out = Dataset(X, labels, names, axis_names=data.axis_names)
    if args.output == "-":
        sys.stdout.write(csv_text(out))
    else:
        write_csv(args.output, out)
        print(f"wrote {args.output} ({counted(args.n, 'point')}, "
              + ", ".join(f"{n} {c}" for n, c in zip(names, np.bincount(labels, minlength=len(names)))) + ")")
    return 0


def _progress_line(what: str):
    """A progress callback that keeps one line of a terminal's standard error up to date (and clears it
    at the end); the computation goes on as long as it returns True."""
    def progress(done: int, total: int) -> bool:
        sys.stderr.write(f"\r{done} of {total} {what}" + (" " if done < total else "\r\033[K"))
        sys.stderr.flush()
        return True
    return progress


def _check_figure_output(output: str, source: str) -> None:
    """A command's figure file (-o), checked before anything is computed: its format, a place it can be
    written, and not the input itself."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from probviz.app.export import figure_format
    from probviz.data.outputs import check_outputs, check_target

    figure_format(output)
    check_target(output)
    check_outputs({"the input": source}, {"-o": output})


def _curve(args) -> int:
    """``probviz curve``: learning curves against the truth."""
    from probviz.data.inputs import load_session
    from probviz.models.learning import learning_curve
    from probviz.models.registry import info

    if args.output:
        _check_figure_output(args.output, args.source)
    names = [m.strip() for m in args.models.split(",") if m.strip()]
    if not names:
        raise ValueError(f"--models needs at least one model name, got {args.models!r}")
    for n in names:
        info(n)
        if names.count(n) > 1:
            raise ValueError(f"--models lists {n} {names.count(n)} times; name each model once")
    try:
        sizes = [int(v) for v in args.sizes.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"--sizes must be whole numbers separated by commas, got {args.sizes!r}") from None
    session = load_session(args.source)
    truth = _need_truth(session, args.source)
    params = session.params
    result = learning_curve(truth, [(n, params.get(n, {})) for n in names], sizes, args.seeds,
                            progress=_progress_line("training sets") if sys.stderr.isatty() else None,
                            names=session.dataset.class_names)
    if args.output:
        from PySide6.QtWidgets import QApplication

        from probviz.app.export import export_curves, learning_curves

        app = QApplication.instance() or QApplication(["probviz"])  # noqa: F841 - needed to draw
        curves, axes, bounds, ticks = learning_curves(result)
        export_curves(args.output, curves, axes, args.width, args.height, bounds=bounds, x_labels=ticks,
                      title=f"Learning curves on {session.dataset.name or args.source}")
    if args.json:
        print(json.dumps(result, indent=2, allow_nan=False, default=lambda v: None))
        return 0
    print(f"true error (mean ± sd over {args.seeds} seeds) against points per class; Bayes error "
          f"{result['bayes_error']:.4g}")
    print(f"{'size':>6} " + " ".join(f"{m:>20}" for m in result["models"]))
    for i, n in enumerate(result["sizes"]):
        print(f"{n:>6} " + " ".join(f"{r['mean'][i]:>11.4f} ± {r['sd'][i]:<6.4f}" for r in result["models"].values()))
    if args.output:
        print(f"wrote {args.output}")
    return 0


def _chosen_class(text, names) -> int:
    """--class: a class name, else a number from 1; the second class by default."""
    if text is None:
        return 1
    if text in names:
        return list(names).index(text)
    try:
        k = int(text)
    except ValueError:
        k = 0
    if not 1 <= k <= len(names):
        raise ValueError(f"--class: no class {text!r}; the classes are {', '.join(names)} (or 1 to {len(names)})")
    return k - 1


def _roc(args) -> int:
    """``probviz roc``: the fitted score's ROC on the points, under the truth, and the Bayes-optimal ROC."""
    from probviz import decision
    from probviz.bayes_view import training_points
    from probviz.data.inputs import load_session
    from probviz.pipeline import fit_all, session_spec
    from probviz.snapshot import frame_request, from_session

    if args.output:
        _check_figure_output(args.output, args.input)
    session = load_session(args.input, args.x, args.y, args.label)
    data = session.dataset
    name = args.model or session.model
    spec = session_spec(session, name, model_overrides(args, name), args.priors)
    names = list(data.class_names)
    if len(names) < 2:
        raise ValueError(f"{args.input}: a ROC needs two classes or more")
    c = _chosen_class(args.positive, names)
    if len(data.X) == 0:
        raise ValueError(f"{args.input}: no points to fit")
    fit = fit_all(frame_request(from_session(session), (0.0, 1.0, 0.0, 1.0), (2, 2), specs=(spec,)))[0]
    if fit.error:
        raise ValueError(f"{args.input}: cannot fit: {fit.error}")
    model = fit.model
    X, labels = training_points(session)
    truth = data.truth if data.truth is not None and data.truth.K == len(names) else None
    try:
        out = {"model": spec.name, "class": names[c], "classes": names,
               **decision.roc_report(model, X, labels, len(names), c, truth)}
    except ValueError as e:
        raise ValueError(f"{args.input}: {e}") from None
    out = decision.json_safe(out)
    if args.output:
        from PySide6.QtWidgets import QApplication

        from probviz.app.export import export_curves

        app = QApplication.instance() or QApplication(["probviz"])  # needed to draw
        export_curves(args.output, decision.roc_plot(out), ("false positive rate", "true positive rate"),
                      args.width, args.height, bounds=(0.0, 1.0, 0.0, 1.0),
                      title=f"ROC of {model.label}: {names[c]} against the rest")
        app.processEvents()  # (the application lives until the figure is written)
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
        return 0
    print(f"ROC of {model.label} on {data.name or args.input}, {names[c]} against the rest "
          f"(score p({names[c]}|x)):")
    print(f"  on the {len(X)} training points: AUC {out['points']['auc']:.4f}")
    if truth is not None:
        print(f"  under the truth: AUC {out['truth']['auc']:.4f}")
        print(f"  Bayes-optimal (the true posterior): AUC {out['bayes']['auc']:.4f}")
    cal = out["calibration"]
    print(f"  calibration of p({names[c]}|x) on the training points, 10 bins: expected calibration error "
          f"{cal['ece']:.4f}" + (f"; against the true posterior {cal['ece_true']:.4f} (mean |p - p_true| "
                                 f"{cal['mean_abs_error_true']:.4f})" if "ece_true" in cal else ""))
    if args.output:
        print(f"wrote {args.output}")
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
        if not (os.path.exists(word) or word.startswith(("example:", "deck:"))):
            print(f"probviz: error: {word!r} is neither a command ({', '.join(COMMANDS)}) nor an existing "
                  "file; see probviz --help", file=sys.stderr)
            return 2
        argv = ["gui", *argv]  # `probviz data.csv` opens the window on it
    if argv[:1] in (["--version"], ["-h"], ["--help"]):  # answered without numpy, scipy or Qt
        _parser(light=True).parse_args(argv[:1])
    _print_anything()
    keep_freed_blocks()  # every frame's arrays reuse the last frame's memory (no page faults)
    if (not argv or argv[0] == "gui") and "numpy" not in sys.modules:  # before the parser loads numpy
        for name, value in WINDOW_BLAS_ENV.items():
            os.environ.setdefault(name, value)
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code = _run(parser, args)
        if sys.stdout is not None:  # None in a windowed program on Windows
            sys.stdout.flush()  # a reader that left early: found here, not at exit
        return code
    except BrokenPipeError:
        # the reader (`| head`) has what it wanted: end quietly, as a filter does (Python's recipe)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _print_anything() -> None:
    """Text any console can print: a character its encoding lacks ('π' on a Windows code page, an
    emoji in a class name) is written as an escape instead of ending the command."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _run(parser, args) -> int:
    command = args.command or "gui"
    try:
        if command == "fit":
            return _fit(args)
        if command == "deck":
            from probviz.deck_cli import main as deck_main

            return deck_main(args)
        if command == "examples":
            return _examples(args)
        if command == "sample":
            return _sample(args)
        if command == "completion":
            import shtab

            print(shtab.complete(parser, shell=args.shell))
            return 0
        if command == "curve":
            return _curve(args)
        if command == "roc":
            return _roc(args)
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
    except BrokenPipeError:
        raise
    except (ValueError, OSError) as e:  # DataError is a ValueError
        print(f"probviz: error: {e}", file=sys.stderr)
        return 2


def gui_main() -> int:
    """Entry point of the ``probviz-gui`` launcher (no console on Windows)."""
    args = sys.argv[1:]
    return main(args if args[:1] in (["--version"], ["--help"], ["-h"]) else ["gui", *args])
