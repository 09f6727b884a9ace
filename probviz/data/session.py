"""Session files (.probviz): a JSON document that restores exactly what was saved.

Loading never executes anything from the file: it is plain JSON, validated field
by field. Saving is atomic.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field

import numpy as np

from probviz.data.atomic import atomic_write_text
from probviz.data.csvio import DataError
from probviz.data.dataset import Dataset

FORMAT = "probviz-session"
VERSION = 1


@dataclass
class Session:
    """A data set plus everything about how it is being looked at."""

    dataset: Dataset
    model: str = "lda"
    params: dict = field(default_factory=dict)  # model name -> {param: value}
    layers: list[str] = field(default_factory=list)
    view: tuple[float, float, float, float] | None = None
    extra: dict = field(default_factory=dict)  # options of later features (priors, probe, theme...)


def session_priors(s: Session) -> list[float] | None:
    """The hand-set priors a session holds (one positive number per class), else None."""
    priors = s.extra.get("priors")
    if isinstance(priors, list) and len(priors) == len(s.dataset.class_names) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0
            for v in priors):
        return [float(v) for v in priors]
    return None


def session_theta(s: Session) -> float:
    """The session's reject threshold in [0, 1] (0 when it holds none)."""
    theta = s.extra.get("theta", 0.0)
    ok = isinstance(theta, (int, float)) and not isinstance(theta, bool) and 0 <= theta <= 1
    return float(theta) if ok else 0.0


def to_json(s: Session) -> str:
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
        "extra": s.extra,
    }
    return json.dumps(doc, indent=1, allow_nan=False)


def write_session(path: str, s: Session) -> None:
    atomic_write_text(path, to_json(s))


def _need(cond: bool, name: str, what: str):
    if not cond:
        raise DataError(f"{name}: not a valid probviz session ({what})")


def _numbers(v, n=None) -> bool:
    return (isinstance(v, list) and (n is None or len(v) == n)
            and all(isinstance(a, (int, float)) and not isinstance(a, bool) and math.isfinite(a) for a in v))


def from_json(text: str, name: str = "session") -> Session:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"{name}, line {e.lineno}: not valid JSON ({e.msg})") from None
    _need(isinstance(doc, dict) and doc.get("format") == FORMAT, name, "no probviz-session header")
    version = doc.get("version")
    _need(isinstance(version, int), name, "no version")
    if version > VERSION:
        raise DataError(f"{name}: saved by a newer probviz (session version {version}; this one reads "
                        f"up to {VERSION}); please update probviz")
    classes = doc.get("classes")
    _need(isinstance(classes, list) and classes and all(
        isinstance(c, dict) and isinstance(c.get("name"), str) and isinstance(c.get("color"), str)
        for c in classes), name, "classes")
    pts = doc.get("points")
    _need(isinstance(pts, dict), name, "points")
    xs, ys, labels = pts.get("x"), pts.get("y"), pts.get("label")
    _need(_numbers(xs) and _numbers(ys, len(xs)) and isinstance(labels, list) and len(labels) == len(xs)
          and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(classes) for v in labels),
          name, "points")
    axis = doc.get("axis_names", ["x1", "x2"])
    _need(isinstance(axis, list) and len(axis) == 2 and all(isinstance(a, str) for a in axis), name, "axis names")
    probe = doc.get("probe")
    _need(probe is None or _numbers(probe, 2), name, "probe")
    view = doc.get("view")
    _need(view is None or _numbers(view, 4), name, "view")
    model = doc.get("model", "lda")
    _need(isinstance(model, str), name, "model")
    params = doc.get("params", {})
    _need(isinstance(params, dict) and all(isinstance(v, dict) for v in params.values()), name, "params")
    layers = doc.get("layers", [])
    _need(isinstance(layers, list) and all(isinstance(v, str) for v in layers), name, "layers")
    extra = doc.get("extra", {})
    _need(isinstance(extra, dict), name, "extra")
    try:
        data = Dataset(np.c_[xs, ys] if xs else np.empty((0, 2)), np.asarray(labels, dtype=np.int64),
                       [c["name"] for c in classes], [c["color"] for c in classes], tuple(axis),
                       str(doc.get("name", "")), str(doc.get("description", "")),
                       tuple(probe) if probe else None, tuple(view) if view else None)
    except ValueError as e:
        raise DataError(f"{name}: not a valid probviz session ({e})") from None
    return Session(data, model, params, layers, tuple(view) if view else None, extra)


def read_session(path: str) -> Session:
    name = os.path.basename(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise DataError(f"{name}: not a probviz session (not UTF-8 text)") from None
    except OSError as e:
        raise DataError(f"{name}: cannot read the file ({e.strerror or e})") from None
    return from_json(text, name)
