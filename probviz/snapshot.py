"""A snapshot: everything a picture depends on, frozen, and the one function that makes its frame request.

The window's document produces a :class:`Snapshot` on every change; a session file is its
serialisation (:func:`from_session`, :meth:`Snapshot.to_session`). :func:`frame_request` turns a
snapshot, the view's bounds and the colours of a style into the pipeline's request. The window, its
File > Export, ``probviz export`` and ``probviz fit`` all call it, so the same snapshot gives the same
fit and the same picture everywhere::

    snap = from_session(read_session("lesson.probviz"))
    request = frame_request(snap, bounds=(-1, 4, -1, 4), shape=(256, 256))
    frame = pipeline.compute(request)

Pure: no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from probviz.data.dataset import Dataset
from probviz.data.session import Session, session_priors, session_theta
from probviz.layers import DEFAULT_LAYERS, LAYERS
from probviz.models import REGISTRY
from probviz.models.training import MAX_STEPS, OPTIMIZERS, TRAINABLE
from probviz.pipeline import FrameRequest, ModelSpec, held_out_mask, model_spec, session_split
from probviz.stepping import START_LABELS, TrainingSpec


@dataclass(frozen=True)
class Snapshot:
    """A document's complete state as a picture sees it.

    ``params`` maps every model name to its parameters (a model without an entry takes the registry's
    defaults); ``priors`` are one per class of ``dataset`` (hand-set p(C_k)) or None for the class
    frequencies; ``compare`` names a second model overlaid by its boundaries; ``split`` is the train/test
    split (held-out fraction, seed); ``section`` a cross-section line ((x, y), (x, y)); ``training`` the
    training run's settings and the step drawn instead of the fit while ``training.shown``.
    """

    dataset: Dataset
    model: str = "lda"
    params: dict = field(default_factory=dict)
    priors: tuple | None = None
    layers: frozenset = DEFAULT_LAYERS
    theta: float = 0.0
    view: tuple | None = None
    compare: str | None = None
    split: tuple = (0.0, 0)
    section: tuple | None = None
    training: TrainingSpec = TrainingSpec()

    def spec(self, name: str | None = None) -> ModelSpec:
        """Model ``name`` (the shown model by default) with this snapshot's parameters and priors."""
        name = name or self.model
        return model_spec(name, self.params.get(name, {}), self.priors, self.dataset.labels)

    @property
    def specs(self) -> tuple:
        """The shown model's spec, then the compared model's (when it is another model)."""
        specs = (self.spec(),)
        if self.compare is not None and self.compare != self.model:
            specs += (self.spec(self.compare),)
        return specs

    def held_out(self) -> np.ndarray | None:
        """Which points the split keeps out of the fit, or None."""
        return held_out_mask(len(self.dataset.X), *self.split)

    @property
    def truth(self):
        """The truth, when it has one class per class of the data (else None)."""
        t = self.dataset.truth
        return t if t is not None and t.K == len(self.dataset.class_names) else None

    def to_session(self, view=None) -> Session:
        """The session file's contents: a snapshot saved is the same snapshot opened."""
        extra = {"priors": list(self.priors) if self.priors is not None else None, "theta": self.theta}
        if self.compare is not None:
            extra["compare"] = self.compare
        if self.split[0] > 0:
            extra["split"] = list(self.split)
        if self.section is not None:
            extra["section"] = [list(p) for p in self.section]
        if replace(self.training, run=0) != TrainingSpec():
            t = self.training
            extra["training"] = {"optimizer": t.optimizer, "eta": t.eta, "start": t.start, "steps": t.steps,
                                 "shown": t.shown}
        view = view if view is not None else self.view
        return Session(self.dataset, self.model, {k: dict(v) for k, v in self.params.items()},
                       sorted(self.layers), view, extra)


def from_session(session: Session) -> Snapshot:
    """The snapshot a session file holds: what it does not say takes the defaults."""
    data = session.dataset
    compare = session.extra.get("compare")
    priors = session_priors(session)
    return Snapshot(
        data, session.model, {k: dict(v) for k, v in session.params.items()},
        tuple(priors) if priors is not None else None,
        frozenset(v for v in session.layers if v in LAYERS) or DEFAULT_LAYERS, session_theta(session),
        session.view, compare if isinstance(compare, str) and compare in REGISTRY else None,
        session_split(session), _section(session.extra.get("section")), _training(session.extra.get("training")))


def _section(value) -> tuple | None:
    """A saved cross-section line, or None when the session holds none (or nothing usable)."""
    try:
        (x0, y0), (x1, y1) = value
        line = ((float(x0), float(y0)), (float(x1), float(y1)))
    except (TypeError, ValueError):
        return None
    ok = all(np.isfinite(v) and abs(v) <= 1e100 for p in line for v in p) and line[0] != line[1]
    return line if ok else None


def _training(value) -> TrainingSpec:
    """A saved training run's settings; the defaults for anything missing or unusable."""
    if not isinstance(value, dict):
        return TrainingSpec()
    d = TrainingSpec()
    optimizer = value.get("optimizer")
    eta, steps = value.get("eta"), value.get("steps")

    def number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v)

    return TrainingSpec(
        optimizer if optimizer in OPTIMIZERS else d.optimizer,
        float(eta) if number(eta) and eta > 0 else None,
        value.get("start") if value.get("start") in START_LABELS else d.start,
        int(steps) if number(steps) and 0 <= steps <= MAX_STEPS else 0,
        0, value.get("shown") is True)


def frame_request(snap: Snapshot, bounds, shape=(256, 256), background=(255, 255, 255), reject=(170, 170, 170),
                  *, specs: tuple | None = None, generation: int = 0, revision: int = 0,
                  errors: bool = False) -> FrameRequest:
    """The pipeline's request for ``snap`` seen through ``bounds`` on a grid of ``shape``: the one place
    where a request is made. ``specs`` replaces the snapshot's models (a command line's --model);
    ``errors`` asks for the fits' true errors (the ones known; see :mod:`probviz.analysis`)."""
    data = snap.dataset
    specs = specs or snap.specs
    t = snap.training
    training = t if specs[0].name in TRAINABLE and (t.shown or t.steps > 0 or t.run > 0) else None
    return FrameRequest(
        data.X, data.labels, tuple(data.class_names), tuple(data.colors), specs,
        tuple(float(v) for v in bounds), tuple(shape), frozenset(snap.layers) or DEFAULT_LAYERS, snap.theta,
        data.probe, tuple(background), tuple(reject), generation, revision, snap.truth, snap.section,
        snap.held_out(), training, errors)


def with_model(snap: Snapshot, name: str | None = None, params: dict | None = None) -> Snapshot:
    """``snap`` showing model ``name`` with ``params`` laid over its saved parameters."""
    name = name or snap.model
    merged = {**snap.params.get(name, {}), **(params or {})}
    return replace(snap, model=name, params={**snap.params, name: merged})
