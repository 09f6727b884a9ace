"""Command-line options shared by `probviz fit` and `probviz export`, made from the registry's
parameter specifications (one list of parameters for the panel and the command line)."""

from __future__ import annotations

import argparse
import math


def _specs():
    from probviz.models import REGISTRY

    seen = {}
    for model in REGISTRY.values():
        for spec in model.params:
            if spec.cli:
                seen.setdefault(spec.name, spec)
    return seen


def _flag(name: str) -> str:
    spec = _specs().get(name)
    return spec.flag if spec is not None and spec.flag else "--" + name.replace("_", "-")


def _dest(name: str) -> str:
    """Where argparse keeps a parameter's flag: its own name, or its flag's (``--rbf-width``: rbf_width)."""
    return _flag(name)[2:].replace("-", "_")


def _float_in(spec):
    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        lo = -math.inf if spec.minimum is None else spec.minimum
        hi = math.inf if spec.maximum is None else spec.maximum
        if not (math.isfinite(v) and lo <= v <= hi):
            raise argparse.ArgumentTypeError(f"{v:g} is out of range ({lo:g} to {hi:g})")
        return v
    return parse


def _text(spec):
    def parse(text: str) -> str:
        try:
            return spec.check(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return parse


def _priors(text: str) -> list[float]:
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text!r}") from None
    if not all(math.isfinite(v) and v > 0 for v in values):
        raise argparse.ArgumentTypeError("priors must be positive numbers")
    return values


def add_model_options(p) -> None:
    """--model and one flag per model parameter (--l2, --basis, --standardize, --reg-covar, --groups), --priors."""
    from probviz.models import REGISTRY

    names = ", ".join(REGISTRY)
    p.add_argument("--model", choices=tuple(REGISTRY), help=f"one of {names} (default: the session's, else lda)")
    for name, spec in _specs().items():
        users = ", ".join(name for name, model in REGISTRY.items() if spec in model.params)
        help_ = f"{spec.help} (for {users}; default {spec.default})"
        if spec.kind == "bool":
            p.add_argument(_flag(name), dest=_dest(name), action=argparse.BooleanOptionalAction, default=None, help=help_)
        elif spec.kind == "choice":
            p.add_argument(_flag(name), dest=_dest(name), choices=spec.choices, default=None, help=help_)
        elif spec.kind == "text":
            p.add_argument(_flag(name), dest=_dest(name), type=_text(spec), default=None, metavar=name.upper(),
                           help=f"{spec.help} (for {users}; default none)")
        else:
            p.add_argument(_flag(name), dest=_dest(name), type=_float_in(spec), default=None, metavar="X", help=help_)
    p.add_argument("--priors", type=_priors, default=None, metavar="P1,P2,...",
                   help="p(C_k) of each class, in the order of the classes (generative models; renormalised)")


def add_width_alias(p) -> None:
    """``fit``'s --width: the same as --rbf-width (a command that draws a figure has its own --width)."""
    spec = _specs()["width"]
    p.add_argument("--width", dest=_dest("width"), type=_float_in(spec), default=None, metavar="S",
                   help=f"the same as {_flag('width')}")


def model_overrides(args, model: str) -> dict:
    """The parameters given on the command line; a flag the chosen model does not take is an error."""
    from probviz.models import info

    own = {spec.name for spec in info(model).params}  # an unknown model fails here, listing the models
    out = {}
    for name in _specs():
        value = getattr(args, _dest(name), None)
        if value is None:
            continue
        if name not in own:
            takes = ", ".join(_flag(n) for n in sorted(own)) or "no parameters"
            raise ValueError(f"{_flag(name)} does not apply to {model} (it takes {takes})")
        out[name] = value
    return out


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (math.isfinite(v) and v > 0):
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return v


def whole_number(lo: int, hi: int):
    """An argparse type: a whole number from lo to hi, or a one-line reason."""
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{v} is out of range ({lo} to {hi})")
        return v
    return parse


TRAINING_HELP = (
    "Training from w = 0 (logistic, softmax, perceptron): E(w) is the summed cross-entropy plus "
    "(l2/2)||w||^2, biases not penalised (the perceptron: its criterion -sum over misclassified points of "
    "w^T phi_n t_n, t_n = +1 for the second class); gd is w <- w - eta grad E; sgd takes one point per step "
    "in file order, cycling, w <- w - eta (grad E_n + l2 w / N); newton is w <- w - H^-1 grad E (no eta). "
    "The steps are taken on the features the model fits (standardized when --standardize is on: "
    "z = (x - center) / scale, reported as center and scale).")


def add_training_options(p, curve: bool = False) -> None:
    """--optimizer, --eta, --steps (and for export --curve): one step of a trainer instead of the fit."""
    from probviz.models.training import DEFAULT_ETA, OPTIMIZERS

    g = p.add_argument_group("training, step by step", TRAINING_HELP)
    g.add_argument("--optimizer", choices=OPTIMIZERS, help="gd, sgd or newton: take --steps steps of it from w = 0")
    g.add_argument("--eta", type=_positive, metavar="E",
                   help="learning rate of gd and sgd (default " +
                        ", ".join(f"{k} {v:g}" for k, v in DEFAULT_ETA.items() if k != "newton") + ")")
    g.add_argument("--steps", type=whole_number(0, 100_000), metavar="S", help="how many steps (default 100)")
    if curve:
        g.add_argument("--curve", metavar="OUT", help="also draw E(w) against the step into this figure "
                                                      "(.png, .svg or .pdf)")


def training_args(args):
    """(optimizer, eta, steps) from the command line, or None when no training was asked for."""
    if args.optimizer is None:
        if args.eta is not None or args.steps is not None or getattr(args, "curve", None):
            raise ValueError("--eta, --steps and --curve need --optimizer gd, sgd or newton")
        return None
    if args.optimizer == "newton" and args.eta is not None:
        raise ValueError("--eta does not apply to newton: its step is H^-1 grad E")
    return args.optimizer, args.eta, 100 if args.steps is None else args.steps


BAYES_HELP = (
    "The Laplace approximation to the posterior over w of logistic regression under the prior N(w|0, alpha^-1 I) "
    "on every weight of the fitted features, the bias included (Bishop 4.4, 4.5): the fit becomes w_MAP, with "
    "S_N (eq. 4.143), the evidence (eq. 4.137) and BIC (eq. 4.139).")


def add_bayes_options(p, export: bool = False) -> None:
    """--bayes, --alpha (and for fit --query; for export --samples, --seed)."""
    g = p.add_argument_group("the Bayesian view (logistic regression)", BAYES_HELP)
    g.add_argument("--bayes", action="store_true",
                   help="the Bayesian view (needs --model logistic)" + (
                       ": the heatmap shows the predictive p(C_k|x,D) (eq. 4.155)" if export else ""))
    g.add_argument("--alpha", metavar="A", help="the prior precision: a positive number, or 'evidence' for the alpha "
                                                "that maximises the evidence (default: the session's, else 1)")
    if export:
        g.add_argument("--samples", type=whole_number(1, 1000), metavar="S",
                       help="with --bayes: also draw the boundaries of S weight vectors drawn from q(w)")
        g.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=None, metavar="R",
                       help="the seed of --samples (default 0)")
    else:
        g.add_argument("--query", metavar="X,Y;X,Y", help="points at which to report p(C_k|x): the plug-in "
                                                           "posterior, and with --bayes mu_a, sigma_a^2 and the "
                                                           "moderated and exact predictive probabilities "
                                                           "(eqs. 4.149-4.155)")
