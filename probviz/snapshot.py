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
from probviz.data.session import Session
from probviz.layers import DEFAULT_LAYERS, LAYERS, SAMPLES, SAMPLES_SEED
from probviz.models.training import TRAINABLE, TrainingSpec
from probviz.pipeline import FrameRequest, ModelSpec, held_out_mask, model_spec


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
    samples: tuple = (SAMPLES, SAMPLES_SEED)  # the Bayesian view's boundary cloud: (count, seed)
    weight_probe: tuple | None = None  # (w1, w2): a point of weight space whose boundary is drawn (not saved)
    loss: tuple | None = None  # a loss matrix over the dataset's classes, rows the truth (None: the 0-1 loss)

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
        return Session(self.dataset, self.model, {k: dict(v) for k, v in self.params.items()},
                       sorted(self.layers), view if view is not None else self.view, self.priors, self.theta,
                       self.compare, self.split, self.section, replace(self.training, run=0), loss=self.loss,
                       samples=tuple(self.samples))


def from_session(session: Session) -> Snapshot:
    """The snapshot a session holds (a session file's fields are checked when it is read)."""
    return Snapshot(
        session.dataset, session.model, {k: dict(v) for k, v in session.params.items()}, session.priors,
        frozenset(v for v in session.layers if v in LAYERS) or DEFAULT_LAYERS, session.theta, session.view,
        session.compare, session.split, session.section, session.training, samples=tuple(session.samples),
        loss=session.loss)


def frame_request(snap: Snapshot, bounds, shape=(256, 256), background=(255, 255, 255), reject=(170, 170, 170),
                  *, specs: tuple | None = None, generation: int = 0, revision: int = 0,
                  errors: bool = False, draft: bool = False, weights: float = 0.0) -> FrameRequest:
    """The pipeline's request for ``snap`` seen through ``bounds`` on a grid of ``shape``: the one place
    where a request is made. ``specs`` replaces the snapshot's models (a command line's --model);
    ``errors`` asks for the fits' true errors (the ones known; see :mod:`probviz.analysis`); ``draft`` for
    curved boundaries as a coarse grid traces them (the window while the hand moves; never an export);
    ``weights`` for the weight space of a Bayesian logistic fit (the window's Weight space panel): its plot's height
    over its width (True: square; 0 or False: not asked)."""
    data = snap.dataset
    specs = specs or snap.specs
    t = snap.training
    training = t if specs[0].name in TRAINABLE and (t.shown or t.steps > 0 or t.run > 0) else None
    return FrameRequest(
        data.X, data.labels, tuple(data.class_names), tuple(data.colors), specs,
        tuple(float(v) for v in bounds), tuple(shape), frozenset(snap.layers) or DEFAULT_LAYERS, snap.theta,
        data.probe, tuple(background), tuple(reject), generation, revision, snap.truth, snap.section,
        snap.held_out(), training, errors, draft, tuple(snap.samples), weights, snap.weight_probe, snap.loss)


def with_model(snap: Snapshot, name: str | None = None, params: dict | None = None) -> Snapshot:
    """``snap`` showing model ``name`` with ``params`` laid over its saved parameters."""
    name = name or snap.model
    merged = {**snap.params.get(name, {}), **(params or {})}
    return replace(snap, model=name, params={**snap.params, name: merged})
