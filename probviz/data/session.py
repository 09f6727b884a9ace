"""Session files (.probviz): a JSON document that restores exactly what was saved.

Loading never executes anything from the file: it is plain JSON, validated field
by field. Saving is atomic.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, replace

import numpy as np

from probviz.data.atomic import atomic_write_text
from probviz.data.dataset import Dataset
from probviz.data.files import MAX_ABS, MAX_CLASSES, DataError, check_name, read_text_file
from probviz.layers import LAYERS, MAX_SAMPLES, SAMPLES, SAMPLES_SEED, THETA_MAX
from probviz.models.registry import REGISTRY
from probviz.models.training import MAX_STEPS, OPTIMIZERS, START_LABELS, TrainingSpec

#: Session files are small (a million points is about 40 MB of JSON).
MAX_SESSION_BYTES = 256 * 1024 * 1024
MAX_TEXT = 10_000  # the description
MAX_DEPTH = 32  # a session is four levels deep; some Pythons parse far deeper nesting without complaint

FORMAT = "probviz-session"
VERSION = 1


@dataclass
class Session:
    """A data set plus everything about how it is being looked at: what a session file holds.

    ``params`` maps a model's name to its parameters; ``priors`` are hand-set p(C_k), one per class
    (None: the class frequencies); ``theta`` is the reject threshold; ``compare`` a second model drawn
    dashed; ``split`` the train/test split (held-out fraction, seed), (0, 0) for none; ``section`` a
    cross-section line ((x, y), (x, y)); ``training`` the training run's settings and step; ``source``
    the file an autosave was made from (Save writes it back there).
    """

    dataset: Dataset
    model: str = "lda"
    params: dict = field(default_factory=dict)  # model name -> {param: value}
    layers: list[str] = field(default_factory=list)
    view: tuple[float, float, float, float] | None = None
    priors: tuple[float, ...] | None = None
    theta: float = 0.0
    compare: str | None = None
    split: tuple[float, int] = (0.0, 0)
    section: tuple | None = None
    training: TrainingSpec = TrainingSpec()
    source: str | None = None
    loss: tuple | None = None  # a K x K loss matrix, rows the true class (Bishop 1.5.2); None: the 0-1 loss
    samples: tuple = (SAMPLES, SAMPLES_SEED)  # the Bayesian view's boundaries drawn from q(w): (count, seed)


#: The largest loss a loss matrix may hold (a finite scale: expected losses are sums of K of them)
MAX_LOSS = 1e12

#: The largest held-out fraction (the Lab's field goes this far: some points must be left to fit).
MAX_HELD_OUT = 0.9
#: Split seeds are what the Lab's seed field holds.
MAX_SEED = 2**31 - 1


def split_problem(split) -> str | None:
    """Why ``split`` is not a train/test split [held-out fraction, seed], or None when it is one."""
    if not isinstance(split, list) or len(split) != 2:
        return "split must be [held-out fraction, seed]"
    fraction, seed = split
    if not (isinstance(fraction, (int, float)) and not isinstance(fraction, bool) and math.isfinite(fraction)
            and 0 <= fraction <= MAX_HELD_OUT):
        return f"the split's held-out fraction must be a number from 0 to {MAX_HELD_OUT:g}"
    whole = isinstance(seed, int) or (isinstance(seed, float) and math.isfinite(seed) and seed.is_integer())
    if isinstance(seed, bool) or not whole or not 0 <= seed <= MAX_SEED:
        return f"the split's seed must be a whole number from 0 to {MAX_SEED}"
    return None


def to_json(s: Session) -> str:
    """The session file's text: :func:`session_to_obj` as JSON."""
    return json.dumps(session_to_obj(s), indent=1, allow_nan=False)


def session_to_obj(s: Session) -> dict:
    """The session file's JSON object (plain lists, numbers and strings), without writing a file: a
    lesson deck holds one per slide."""
    d = s.dataset
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "name": d.name,
        "description": d.description,
        "axis_names": list(d.axis_names),
        "classes": [{"name": n, "color": c} for n, c in zip(d.class_names, d.colors)],
        "points": {"x": d.X[:, 0].tolist(), "y": d.X[:, 1].tolist(), "label": d.labels.tolist()},
        "probe": list(d.probe) if d.probe is not None else None,
        "model": s.model,
        "params": s.params,
        "layers": sorted(s.layers),
        "view": list(s.view) if s.view is not None else None,
        "extra": _extra(s),
    }
    if d.truth is not None:
        doc["truth"] = d.truth.to_json()
    return doc


def _extra(s: Session) -> dict:
    """The file's "extra" object: the options added after the first version, written only when set."""
    extra = {"priors": list(s.priors) if s.priors is not None else None, "theta": s.theta}
    if s.compare is not None:
        extra["compare"] = s.compare
    if s.split[0] > 0:
        extra["split"] = list(s.split)
    if s.section is not None:
        extra["section"] = [list(p) for p in s.section]
    t = s.training
    if replace(t, run=0) != TrainingSpec():
        extra["training"] = {"optimizer": t.optimizer, "eta": t.eta, "start": t.start, "steps": t.steps,
                             "shown": t.shown}
    if s.source is not None:
        extra["source"] = s.source
    if s.loss is not None:
        extra["loss"] = [list(row) for row in s.loss]
    if tuple(s.samples) != (SAMPLES, SAMPLES_SEED):
        extra["samples"] = list(s.samples)
    return extra


def write_session(path: str, s: Session) -> None:
    atomic_write_text(path, to_json(s))


def _need(cond: bool, name: str, what: str):
    if not cond:
        raise DataError(f"{name}: not a valid probviz session ({what})")


def _numbers(v, n=None) -> bool:
    return (isinstance(v, list) and (n is None or len(v) == n)
            and all(isinstance(a, (int, float)) and not isinstance(a, bool) and math.isfinite(a) for a in v))


def _points_problem(xs, ys, labels, K: int) -> str | None:
    """What is wrong with a session's points (lists x, y and label, the labels class indices below K), naming
    the first point at fault (counted from 1, as a CSV's rows are read), or None."""
    for key, v in (("x", xs), ("y", ys), ("label", labels)):
        if not isinstance(v, list):
            return f"points: no list of {key} values"
    if not len(xs) == len(ys) == len(labels):
        return f"points: {len(xs):,} x, {len(ys):,} y and {len(labels):,} label values; they must be as many"

    def shown(a) -> str:  # a value as the file has it, cut short
        text = json.dumps(a)
        return text if len(text) <= 24 else text[:23] + "…"

    for key, v in (("x", xs), ("y", ys)):
        for i, a in enumerate(v):
            if not (isinstance(a, (int, float)) and not isinstance(a, bool) and math.isfinite(a)):
                return f"point {i + 1}: its {key} is {shown(a)}, not a finite number"
    for i, a in enumerate(labels):
        if not (isinstance(a, int) and not isinstance(a, bool) and 0 <= a < K):
            return f"point {i + 1}: its label is {shown(a)}, not a class number from 0 to {K - 1}"
    return None


def _deeper_than(doc, limit: int) -> bool:
    """Whether lists and dicts nest more than ``limit`` levels (iteratively: no recursion limit)."""
    stack = [(doc, 1)] if isinstance(doc, (list, dict)) else []
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        children = node.values() if isinstance(node, dict) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, (list, dict)))
    return False


def _color(c):
    """'#rrggbb' from '#rrggbb' or '#rgb' (any case); None for anything else."""
    if isinstance(c, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", c):
        return c.upper()
    if isinstance(c, str) and re.fullmatch(r"#[0-9a-fA-F]{3}", c):
        return "#" + "".join(ch * 2 for ch in c[1:]).upper()
    return None


def from_json(text: str, name: str = "session") -> Session:
    """A session from its JSON text; every field is checked, and anything wrong refuses the whole
    file with one line naming the file and the field."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"{name}, line {e.lineno}: not valid JSON ({e.msg})") from None
    except RecursionError:
        raise DataError(f"{name}: not a valid probviz session (nested too deeply)") from None
    except ValueError:  # Python refuses integers of more than 4300 digits (sys.get_int_max_str_digits)
        raise DataError(f"{name}: not a valid probviz session (a number with thousands of digits)") from None
    return session_from_obj(doc, name)


def session_from_obj(doc, name: str = "session") -> Session:
    """A session from a session file's parsed JSON object (see :func:`from_json`), checked field by field;
    ``name`` begins every message (a file's name, or a deck's file and slide)."""
    _need(not _deeper_than(doc, MAX_DEPTH), name, "nested too deeply")
    _need(isinstance(doc, dict) and doc.get("format") == FORMAT, name, "no probviz-session header")
    version = doc.get("version")
    _need(isinstance(version, int) and not isinstance(version, bool), name, "no version")
    if version > VERSION:
        raise DataError(f"{name}: saved by a newer probviz (session version {version}; this one reads "
                        f"up to {VERSION}); please update probviz")
    classes = doc.get("classes")
    _need(isinstance(classes, list) and classes and all(
        isinstance(c, dict) and isinstance(c.get("name"), str) and isinstance(c.get("color"), str)
        for c in classes), name, "classes")
    _need(len(classes) <= MAX_CLASSES, name, f"{len(classes):,} classes; probviz shows at most {MAX_CLASSES}")
    colors = []
    for i, c in enumerate(classes):
        problem = check_name(c["name"], f"the name of class {i + 1}")
        _need(problem is None, name, problem or "")
        color = _color(c["color"])
        _need(color is not None, name, f"the colour of class {c['name']!r} is {c['color'][:20]!r}, not #RRGGBB")
        colors.append(color)
    pts = doc.get("points")
    _need(isinstance(pts, dict), name, "points")
    xs, ys, labels = pts.get("x"), pts.get("y"), pts.get("label")
    problem = _points_problem(xs, ys, labels, len(classes))
    _need(problem is None, name, problem or "")
    _need(all(abs(v) <= MAX_ABS for v in xs) and all(abs(v) <= MAX_ABS for v in ys), name,
          f"a coordinate beyond ±{MAX_ABS:g}")
    axis = doc.get("axis_names", ["x1", "x2"])
    _need(isinstance(axis, list) and len(axis) == 2 and all(isinstance(a, str) for a in axis), name, "axis names")
    for a in axis:
        problem = check_name(a, "an axis name")
        _need(problem is None, name, problem or "")
    title, description = doc.get("name", ""), doc.get("description", "")
    _need(isinstance(title, str) and isinstance(description, str), name, "name or description")
    _need(len(title) <= MAX_TEXT and len(description) <= MAX_TEXT, name, "name or description too long")
    probe = doc.get("probe")
    _need(probe is None or (_numbers(probe, 2) and all(abs(v) <= MAX_ABS for v in probe)), name, "probe")
    view = doc.get("view")
    _need(view is None or (_numbers(view, 4) and all(abs(v) <= MAX_ABS for v in view)
                           and view[0] < view[1] and view[2] < view[3]), name, "view")
    model = doc.get("model", "lda")
    _need(isinstance(model, str), name, "model")
    _need(model in REGISTRY, name, f"unknown model {model[:40]!r}; probviz has {', '.join(REGISTRY)}")
    params = doc.get("params", {})
    _need(isinstance(params, dict) and all(isinstance(v, dict) for v in params.values()), name, "params")
    checked = {}
    for key, values in params.items():
        if key in REGISTRY:  # parameters of models this version does not have are dropped
            try:
                checked[key] = REGISTRY[key].check(values)
            except ValueError as e:
                raise DataError(f"{name}: not a valid probviz session ({key}: {e})") from None
    layers = doc.get("layers", [])
    _need(isinstance(layers, list) and all(isinstance(v, str) for v in layers), name, "layers")
    layers = [v for v in layers if v in LAYERS]  # layers of a later version are dropped
    extra = doc.get("extra", {})
    _need(isinstance(extra, dict), name, "extra")
    options = _options(extra, len(classes), name)
    truth = _truth(doc.get("truth"), len(classes), name)
    try:
        data = Dataset(np.c_[xs, ys] if xs else np.empty((0, 2)), np.asarray(labels, dtype=np.int64),
                       [c["name"] for c in classes], colors, tuple(axis), title, description,
                       tuple(probe) if probe else None, tuple(view) if view else None, truth)
    except ValueError as e:
        raise DataError(f"{name}: not a valid probviz session ({e})") from None
    return Session(data, model, checked, layers, tuple(view) if view else None, **options)


def _options(extra: dict, n_classes: int, name: str) -> dict:
    """The typed options of a file's "extra" object. Priors, theta and the split refuse the file when
    wrong; a compared model this version lacks, an unusable section line or training run's settings
    open as none (or the defaults), as options of a later version do."""
    options = {}
    if extra.get("priors") is not None:
        priors = extra["priors"]
        _need(isinstance(priors, list) and len(priors) == n_classes and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 < v < 1e300
            for v in priors), name, f"priors must be {n_classes} positive numbers, one per class")
        options["priors"] = tuple(float(v) for v in priors)
    if "theta" in extra:
        theta = extra["theta"]
        _need(isinstance(theta, (int, float)) and not isinstance(theta, bool) and 0 <= theta <= 1, name,
              "theta must be a number from 0 to 1")
        options["theta"] = min(float(theta), THETA_MAX)
    if extra.get("split") is not None:
        problem = split_problem(extra["split"])
        _need(problem is None, name, problem or "")
        options["split"] = (float(extra["split"][0]), int(extra["split"][1]))
    compare = extra.get("compare")
    if isinstance(compare, str) and compare in REGISTRY:
        options["compare"] = compare
    options["section"] = _section(extra.get("section"))
    options["training"] = _training(extra.get("training"))
    source = extra.get("source")
    if isinstance(source, str):
        options["source"] = source
    if extra.get("loss") is not None:
        options["loss"] = _loss(extra["loss"], n_classes, name)
    samples = extra.get("samples")
    if isinstance(samples, list) and len(samples) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in samples) and 0 <= samples[0] <= MAX_SAMPLES \
            and 0 <= samples[1] < 2 ** 63:
        options["samples"] = (samples[0], samples[1])  # unusable values open as the default, as a later option
    return options


def _loss(value, n_classes: int, name: str) -> tuple:
    """A saved loss matrix: n_classes rows of n_classes finite, non-negative numbers (refused otherwise)."""
    _need(isinstance(value, list) and len(value) == n_classes and all(
        isinstance(row, list) and len(row) == n_classes and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 <= v <= MAX_LOSS
            for v in row) for row in value), name,
        f"loss must be {n_classes} rows of {n_classes} numbers from 0 to {MAX_LOSS:g}, one row per true class")
    return tuple(tuple(float(v) for v in row) for row in value)


def _section(value) -> tuple | None:
    """A saved cross-section line, or None when there is none (or nothing usable)."""
    try:
        (x0, y0), (x1, y1) = value
        line = ((float(x0), float(y0)), (float(x1), float(y1)))
    except (TypeError, ValueError):
        return None
    ok = all(math.isfinite(v) and abs(v) <= 1e100 for p in line for v in p) and line[0] != line[1]
    return line if ok else None


def _training(value) -> TrainingSpec:
    """A saved training run's settings; the defaults for anything missing or unusable."""
    if not isinstance(value, dict):
        return TrainingSpec()
    d = TrainingSpec()
    optimizer, eta, steps = value.get("optimizer"), value.get("eta"), value.get("steps")

    def number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)

    return TrainingSpec(
        optimizer if optimizer in OPTIMIZERS else d.optimizer,
        float(eta) if number(eta) and eta > 0 else None,
        value.get("start") if value.get("start") in START_LABELS else d.start,
        int(steps) if number(steps) and 0 <= steps <= MAX_STEPS else 0,
        0, value.get("shown") is True)


def _truth(value, n_classes: int, name: str):
    """The session's truth (one Gaussian and prior per class), checked; None when it has none."""
    if value is None:
        return None
    from probviz.models.truth import Truth

    def numbers_only(v) -> bool:
        if isinstance(v, dict):
            return all(numbers_only(x) for x in v.values())
        if isinstance(v, list):
            return all(numbers_only(x) for x in v)
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    _need(isinstance(value, dict) and numbers_only(value), name, "truth must hold numbers only")
    try:
        truth = Truth.from_json(value)
    except (ValueError, TypeError) as e:
        raise DataError(f"{name}: not a valid probviz session ({e})") from None
    _need(truth.K == n_classes, name, f"the truth has {truth.K} classes, the session {n_classes}")
    _need(all(np.all(np.abs(m) <= MAX_ABS) for m in truth.means)
          and all(np.all(np.abs(S) <= MAX_ABS) for S in truth.covariances), name, f"a truth's number beyond ±{MAX_ABS:g}")
    return truth


def read_session(path: str) -> Session:
    """A session file: a regular file, at most MAX_SESSION_BYTES, UTF-8 JSON, checked whole."""
    name, text = read_text_file(path, MAX_SESSION_BYTES, "session")
    return from_json(text, name)
