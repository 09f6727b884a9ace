"""The document: what a session is about, every change undoable; and the view state beside it.

``Document`` holds the points, labels, classes, the model and its parameters, hand-set priors,
the reject threshold and the probe. Every edit is a QUndoCommand pushed on its QUndoStack (as in
Orange's Paint Data), so undo texts, the clean state and merging a whole drag or brush stroke into
one step come from Qt. Widgets call the public edit methods; the commands change the fields, say
what they changed through a typed signal, and record it in the document's ``EditLog``.

``ViewState`` holds what is not undoable: the layers shown, the view rectangle, the active class.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from probviz.colors import class_color
from probviz.data.dataset import Dataset
from probviz.data.files import MAX_ABS, MAX_CLASSES, check_name
from probviz.data.session import MAX_LOSS, Session
from probviz.layers import DEFAULT_LAYERS, LAYERS, MAX_SAMPLES, SAMPLES, SAMPLES_SEED, THETA_MAX
from probviz.models import MODEL_NAMES, REGISTRY
from probviz.pipeline import ModelSpec, model_spec
from probviz.snapshot import Snapshot, from_session
from probviz.stepping import TrainingSpec

MOVE_LOG = 256  # moves remembered for incremental refits


@dataclass(frozen=True)
class ClassInfo:
    name: str
    color: str


def default_params(name: str) -> dict:
    return REGISTRY[name].defaults()


class EditLog:
    """The document's revisions as a refit sees them: a revision per change that needs a refit,
    and the moves since the last other change of the points, so that a drag can update the
    Gaussian models from their sufficient statistics. The commands record into it explicitly."""

    def __init__(self):
        self.revision = 0
        self.points_revision = 0  # the revision of the last change of the points (a move, any other)
        self._moves: list[tuple[int, np.ndarray, np.ndarray]] = []  # (revision after, indices, old rows)
        self._valid_from = 0

    def moved(self, indices: np.ndarray, old: np.ndarray) -> None:
        self.revision += 1
        self.points_revision = self.revision
        self._moves.append((self.revision, indices.copy(), old.copy()))
        del self._moves[:-MOVE_LOG]
        self._valid_from = max(self._valid_from, self._moves[0][0] - 1)

    def replaced(self) -> None:
        """Points added, deleted, relabelled, or classes changed: indices mean other points now."""
        self.revision += 1
        self.points_revision = self.revision
        self._moves.clear()
        self._valid_from = self.revision

    def touched(self) -> None:
        """The model, its parameters or the priors changed; the points did not."""
        self.revision += 1

    def moves_since(self, revision: int):
        """(indices, rows before) of the points moved since ``revision`` (both empty when none
        moved), if moves are all that happened to the points since then; else None."""
        if revision < self._valid_from:
            return None
        moves = self._moves
        start = len(moves)
        while start and moves[start - 1][0] > revision:  # (most asks are of the last move or two: from the end)
            start -= 1
        first: dict[int, np.ndarray] = {}
        for _, indices, old in moves[start:]:
            for i, row in zip(indices.tolist(), old):
                first.setdefault(i, row)
        idx = np.fromiter(first, dtype=np.int64, count=len(first))
        return idx, np.array([first[i] for i in idx]).reshape(-1, 2)


class ViewState(QObject):
    """How the document is being looked at: not part of its undo history."""

    layers_changed = Signal()
    active_class_changed = Signal()
    analysis_changed = Signal()  # the compared model, the train/test split or the cross-section
    training_changed = Signal()  # the training run or the step shown
    weights_changed = Signal()  # the weight-space probe or the number of boundaries drawn from q(w)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.layers: set[str] = set(DEFAULT_LAYERS)
        self.view: tuple[float, float, float, float] | None = None
        self.active_class = 0
        self.compare: str | None = None  # a second model overlaid by its boundaries
        self.split = (0.0, 0)  # (held-out fraction, seed): 0 keeps every point for the fit
        self.section: tuple | None = None  # ((x, y), (x, y)) of the cross-section line
        self.training = TrainingSpec()  # the training run and the step the canvas shows
        self.weight_probe: tuple | None = None  # (w1, w2) clicked in weight space: its boundary on the canvas
        self.samples = (SAMPLES, SAMPLES_SEED)  # the Bayesian view's boundary cloud: (count, seed)

    def set_weight_probe(self, w) -> None:
        w = None if w is None else (float(w[0]), float(w[1]))
        if w != self.weight_probe:
            self.weight_probe = w
            self.weights_changed.emit()

    def set_samples(self, count: int, seed: int | None = None) -> None:
        value = (int(count), self.samples[1] if seed is None else int(seed))
        if not 0 <= value[0] <= MAX_SAMPLES:
            raise ValueError(f"the number of sampled boundaries must be from 0 to {MAX_SAMPLES}")
        if value != self.samples:
            self.samples = value
            self.weights_changed.emit()

    def set_compare(self, name: str | None) -> None:
        if name is not None and name not in REGISTRY:
            raise ValueError(f"unknown model {name!r}")
        if name != self.compare:
            self.compare = name
            self.analysis_changed.emit()

    def set_split(self, fraction: float, seed: int = 0) -> None:
        fraction = float(fraction)
        if not 0.0 <= fraction <= 0.9:
            raise ValueError("the held-out fraction must be from 0 to 0.9")
        if (fraction, int(seed)) != self.split:
            self.split = (fraction, int(seed))
            self.analysis_changed.emit()

    def set_section(self, line) -> None:
        line = None if line is None else tuple(tuple(float(v) for v in p) for p in line)
        if line != self.section:
            self.section = line
            self.analysis_changed.emit()

    def set_training(self, spec: TrainingSpec) -> None:
        if spec != self.training:
            self.training = spec
            self.training_changed.emit()

    def set_layer(self, layer: str, visible: bool) -> None:
        if (layer in self.layers) != visible:
            (self.layers.add if visible else self.layers.discard)(layer)
            self.layers_changed.emit()

    def set_layers(self, layers) -> None:
        layers = {layer for layer in layers if layer in LAYERS}
        if layers != self.layers:
            self.layers = layers
            self.layers_changed.emit()

    def set_active_class(self, index: int) -> None:
        self.active_class = index
        self.active_class_changed.emit()


class Document(QObject):
    """The editable state of one probviz session."""

    reset = Signal()  # a new document: everything changed
    points_changed = Signal()  # points added, deleted or relabelled: counts may differ
    points_moved = Signal()  # the same points in new places
    classes_changed = Signal()  # names, colours or number of classes
    model_changed = Signal()  # the model, its parameters or the priors
    probe_changed = Signal()
    theta_changed = Signal()
    loss_changed = Signal()  # the loss matrix of the decision stage (Bishop 1.5.2)
    truth_changed = Signal()  # the truth the points are drawn from (set, edited or removed)
    modified_changed = Signal(bool)  # unsaved changes appeared or went (edits, or the Lab's saved settings)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.view_state = ViewState(self)
        self.log = EditLog()
        self.X = np.empty((0, 2))
        self.labels = np.empty(0, dtype=np.int64)
        self._frozen = None  # (when, X, labels): the points as the snapshots have them (_frozen_points)
        self.classes: list[ClassInfo] = []
        self.axis_names = ("x1", "x2")
        self.title = ""
        self.description = ""
        self.model_name = "lda"
        self.params = {name: default_params(name) for name in MODEL_NAMES}
        self.probe: tuple[float, float] | None = None
        self.priors: list[float] | None = None  # p(C_k) per class for the generative models; None: frequencies
        self.theta = 0.0  # reject threshold of the decision layer
        self.loss: tuple | None = None  # a loss matrix over the classes, rows the truth; None: the 0-1 loss
        self.truth = None  # a probviz.models.truth.Truth: the model the points come from, if known
        self._stroke = 0
        self.read_notes: list[str] = []
        self._saved_analysis = self._analysis()
        self._modified = False
        self.undo_stack.cleanChanged.connect(self._check_modified)
        self.view_state.analysis_changed.connect(self._check_modified)

    # the view state's fields, for the many readers that only look
    @property
    def layers(self) -> set[str]:
        return self.view_state.layers

    @property
    def view(self):
        return self.view_state.view

    @property
    def active_class(self) -> int:
        return self.view_state.active_class

    # --- saved or not -------------------------------------------------------------
    def _analysis(self):
        """What the Lab adds to a session file (the compared model, the split, the section line): not undo
        steps (they are ways of looking), but a file saved without them would lose them."""
        vs = self.view_state
        return vs.compare, vs.split, vs.section

    def is_modified(self) -> bool:
        """Anything a save would write that the file (or the opened data) does not hold yet."""
        return not self.undo_stack.isClean() or self._analysis() != self._saved_analysis

    def mark_saved(self) -> None:
        """What is open now is what the file holds."""
        self.undo_stack.setClean()
        self._saved_analysis = self._analysis()
        self._check_modified()

    def mark_unsaved(self) -> None:
        """Restored work: nothing holds it yet."""
        self.undo_stack.resetClean()
        self._check_modified()

    def _check_modified(self, *_):
        if self.is_modified() != self._modified:
            self._modified = not self._modified
            self.modified_changed.emit(self._modified)

    # --- whole-document operations (not undoable: they start a new history) ---------
    def load(self, data: Dataset) -> None:
        """A new document of these points and classes: the model, parameters and layers of a fresh
        start (a data file says nothing about them), a clean history."""
        self.load_session(Session(data, view=data.view))

    def _replace(self, data: Dataset) -> None:
        self.X = data.X.copy()
        self.labels = data.labels.copy()
        self.classes = [ClassInfo(n, c) for n, c in zip(data.class_names, data.colors)]
        self.axis_names = tuple(data.axis_names)
        self.title = data.name
        self.description = data.description
        self.probe = data.probe
        self.truth = data.truth
        self.read_notes = list(data.notices)  # what the reader said (an encoding): shown until the next file
        self.priors = None
        self.view_state.view = data.view
        self.view_state.active_class = 0
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.log.replaced()

    def load_session(self, session) -> None:
        """Open a session: data, model and parameters, priors, theta, layers, view, the Lab's compared
        model, split and section, exactly as it says; what it does not say takes the defaults, never what
        the previous document had."""
        snap = from_session(session)
        self.params = {name: default_params(name) for name in MODEL_NAMES}
        for name, values in snap.params.items():
            if name in self.params:
                known = {k: v for k, v in values.items() if k in self.params[name]}
                self.params[name].update(known)
        self.model_name = snap.model if snap.model in REGISTRY else "lda"
        self.view_state.layers = set(snap.layers)
        self._replace(snap.dataset)
        if snap.view is not None:
            self.view_state.view = snap.view
        self.priors = list(snap.priors) if snap.priors is not None else None
        self.theta = snap.theta
        self.loss = snap.loss
        self.view_state.samples = tuple(snap.samples)
        vs = self.view_state
        vs.compare, vs.split, vs.section = snap.compare, snap.split, snap.section
        vs.weight_probe = None  # a point of the last document's weight space means nothing here
        vs.training = replace(snap.training, run=vs.training.run + 1)  # a new run: never the last document's
        self.mark_saved()
        self.reset.emit()
        vs.training_changed.emit()

    def snapshot(self, view=None) -> Snapshot:
        """Everything a picture of this document depends on, frozen (the points copied)."""
        vs = self.view_state
        return Snapshot(self.dataset(), self.model_name, {k: dict(v) for k, v in self.params.items()},
                        tuple(self.priors) if self.priors is not None else None, frozenset(self.layers), self.theta,
                        view if view is not None else self.view, vs.compare, vs.split, vs.section, vs.training,
                        vs.samples, vs.weight_probe, self.usable_loss())

    def to_session(self, view=None) -> Session:
        return self.snapshot(view).to_session()

    def new(self) -> None:
        self.load(Dataset(np.empty((0, 2)), np.empty(0, int), ["1", "2"], name="untitled"))

    def dataset(self) -> Dataset:
        X, labels = self._frozen_points()
        return Dataset(X, labels, [c.name for c in self.classes],
                       [c.color for c in self.classes], self.axis_names, self.title, self.description, probe=self.probe,
                       view=self.view, truth=self.usable_truth())

    def _frozen_points(self) -> tuple[np.ndarray, np.ndarray]:
        """The points and their labels as they are now, read-only copies made once per change of the points: the
        snapshots of every frame in between share them (a pan among 1,000,000 points copied 24 MB, 4-5 ms, on the
        GUI thread). Every change of the points is recorded in the log (the commands do it), which says when."""
        key = (self.log.points_revision, id(self.X), id(self.labels))
        if self._frozen is None or self._frozen[0] != key:
            X, labels = self.X.copy(), self.labels.copy()
            X.setflags(write=False)
            labels.setflags(write=False)
            self._frozen = (key, X, labels)
        return self._frozen[1], self._frozen[2]

    # --- queries ------------------------------------------------------------------
    @property
    def revision(self) -> int:
        return self.log.revision

    def moves_since(self, revision: int):
        return self.log.moves_since(revision)

    def model_spec(self, name: str | None = None) -> ModelSpec:
        """The model these settings mean (or model ``name`` with its settings), as the pipeline fits it."""
        name = name or self.model_name
        priors = self.effective_priors() if self.priors is not None else None
        return model_spec(name, self.params[name], priors, self.labels)

    def counts(self) -> np.ndarray:
        return np.bincount(self.labels, minlength=len(self.classes))

    def usable_truth(self):
        """The truth, when it has one class per class of the document (else None: say why elsewhere)."""
        t = self.truth
        return t if t is not None and t.K == len(self.classes) else None

    def held_out(self):
        """The train/test split's held-out mask over the points, or None."""
        from probviz.pipeline import held_out_mask

        return held_out_mask(len(self.X), *self.view_state.split)

    def new_stroke(self) -> int:
        """An id shared by the commands of one drag or brush stroke, so they merge."""
        self._stroke += 1
        return self._stroke

    # --- edits (each one undoable) -----------------------------------------------------
    # Every edit checks its arguments before it touches the document: a point that is not finite
    # could not be saved, and a parameter out of range would leave every later fit failing.
    def add_points(self, X, label: int, stroke: int | None = None) -> None:
        X = _points(X)
        if not 0 <= label < MAX_CLASSES:
            raise ValueError(f"class index {label} is outside 0..{MAX_CLASSES - 1}")
        if len(X):
            self.ensure_classes(label + 1)
            self._push(AddPoints(self, X, label, stroke))

    def move_points(self, indices, X, stroke: int | None = None) -> None:
        indices, X = np.asarray(indices, dtype=np.int64).ravel(), _points(X)
        if len(indices) != len(X) or (len(indices) and (indices.min() < 0 or indices.max() >= len(self.X))):
            raise ValueError("move_points needs one destination per existing point")
        self._push(MovePoints(self, indices, X, stroke))

    def delete_points(self, indices) -> None:
        indices = np.unique(np.asarray(indices, dtype=np.int64))
        if len(indices):
            self._push(DeletePoints(self, indices))

    def relabel_points(self, indices, label: int) -> None:
        indices = np.unique(np.asarray(indices, dtype=np.int64))
        if len(indices):
            self.ensure_classes(label + 1)
            self._push(Relabel(self, indices, label))

    def ensure_classes(self, n: int) -> None:
        """Add classes (one undo step) until there are ``n``."""
        n = min(n, MAX_CLASSES)
        if n > len(self.classes):
            new = [ClassInfo(str(i + 1), class_color(i)) for i in range(len(self.classes), n)]
            self._push(SetClasses(self, self.classes + new, f"Add class {new[-1].name}" if len(new) == 1
                                  else f"Add {len(new)} classes"))

    def add_class(self) -> None:
        self.ensure_classes(len(self.classes) + 1)

    def rename_class(self, index: int, name: str) -> None:
        name = name.strip()
        problem = check_name(name, "the class name")
        if problem:
            raise ValueError(problem)
        if name and name != self.classes[index].name:
            old = self.classes[index].name
            classes = list(self.classes)
            classes[index] = replace(classes[index], name=name)
            renamed = self._groups_renamed(old, name, [c.name for c in classes])
            self.undo_stack.beginMacro(f"Rename class to {name}")  # the class and the groups naming it: one step
            self._push(SetClasses(self, classes, f"Rename class to {name}"))
            for model, text in renamed.items():
                self._push(SetParam(self, model, "groups", text))
            self.undo_stack.endMacro()

    def _groups_renamed(self, old: str, new: str, names) -> dict:
        """The models' groups texts (the tied model's) with class ``old`` called ``new``: {model: text} for
        those that name it. Left as they are when ``old`` still names another class or ``new`` could not be
        written in a groups text (a ',' or ';' in it): the fit then says which name is no class."""
        from probviz.models.gaussian import parse_groups

        if old in names or "," in new or ";" in new:
            return {}
        out = {}
        for model, params in self.params.items():
            text = params.get("groups")
            if not isinstance(text, str) or not text.strip():
                continue
            groups = parse_groups(text)
            if any(old in group for group in groups):
                out[model] = ";".join(",".join(new if n == old else n for n in group) for group in groups)
        return out

    def recolor_class(self, index: int, color: str) -> None:
        if not (isinstance(color, str) and len(color) == 7 and color[0] == "#"
                and all(c in "0123456789abcdefABCDEF" for c in color[1:])):
            raise ValueError(f"a colour is #RRGGBB, got {color!r}")
        if color != self.classes[index].color:
            classes = list(self.classes)
            classes[index] = replace(classes[index], color=color)
            self._push(SetClasses(self, classes, f"Recolour class {classes[index].name}"))

    def remove_class(self, index: int) -> None:
        """Remove a class and its points (one undo step)."""
        if len(self.classes) > 1:
            self._push(RemoveClass(self, index))

    def set_model(self, name: str) -> None:
        if name != self.model_name:
            self._push(SetModel(self, name))

    def set_param(self, name: str, value, stroke: int | None = None) -> None:
        """Set a parameter of the shown model; the sets of one drag (``stroke``, an RBF centre dragged on the
        canvas) merge into one undo step, and none merges with a set of another stroke or none."""
        spec = {p.name: p for p in REGISTRY[self.model_name].params}.get(name)
        if spec is None:
            raise ValueError(f"{REGISTRY[self.model_name].label} has no parameter {name!r}")
        value = spec.check(value)
        if self.params[self.model_name].get(name) != value:
            self._push(SetParam(self, self.model_name, name, value, stroke))

    def set_truth(self, truth, text: str = "Set the true model", stroke: int | None = None) -> None:
        """Set or remove (None) the truth the points are drawn from (one undo step; the edits of one
        drag, sharing ``stroke``, merge into one)."""
        if truth is not None and truth.K != len(self.classes):
            raise ValueError(f"the truth has {truth.K} classes, the document {len(self.classes)}")
        if truth is not self.truth:
            self._push(SetAttr(self, "truth", truth, text, stroke))

    def replace_points(self, X, labels, text: str) -> None:
        """All the points at once (a sample drawn from a truth): one undo step."""
        X = _points(X)
        labels = np.asarray(labels, dtype=np.int64).ravel()
        if len(labels) != len(X) or (len(labels) and (labels.min() < 0 or labels.max() >= len(self.classes))):
            raise ValueError("replace_points needs one existing class per point")
        self._push(SetPoints(self, X, labels, text))

    def set_layer(self, layer: str, visible: bool) -> None:
        """Show or hide a layer: a view option like zoom, so not an undo step."""
        self.view_state.set_layer(layer, visible)

    def set_probe(self, xy, stroke: int | None = None) -> None:
        """Pin (or with None remove) the probe point whose p(C_k|x) the panel explains."""
        xy = None if xy is None else tuple(float(v) for v in _points(xy)[0])
        if xy != self.probe:
            text = "Remove probe" if xy is None else ("Place probe" if self.probe is None else "Move probe")
            self._push(SetAttr(self, "probe", xy, text, stroke))

    def set_priors(self, priors) -> None:
        """Override p(C_k) (one value per class, renormalised), or None to use the class frequencies."""
        if priors is not None:
            p = np.asarray(priors, dtype=float).ravel()
            if p.shape != (len(self.classes),) or not np.all(np.isfinite(p)) or np.any(p <= 0):
                raise ValueError(f"priors must be {len(self.classes)} positive numbers, one per class")
            p = np.clip(p, 1e-6, None)
            priors = [float(v) for v in p / p.sum()]
        if priors != self.priors:
            self._push(SetAttr(self, "priors", priors, "Set priors" if priors else "Reset priors"))

    def effective_priors(self) -> np.ndarray:
        """The priors the generative models use, per class: the override, else the frequencies."""
        if self.priors is not None and len(self.priors) == len(self.classes):
            return np.asarray(self.priors)
        counts = self.counts().astype(float)
        return counts / counts.sum() if counts.sum() else np.full(len(self.classes), 1 / max(len(self.classes), 1))

    def set_theta(self, theta: float) -> None:
        if not np.isfinite(theta):
            raise ValueError(f"theta must be a number from 0 to 1, got {theta!r}")
        theta = float(min(max(theta, 0.0), THETA_MAX))
        if theta != self.theta:
            self._push(SetAttr(self, "theta", theta, "Set reject threshold"))

    def usable_loss(self) -> tuple | None:
        """The loss matrix when it has a row and a column for every class (else None: the 0-1 loss decides,
        and the panel says why)."""
        L = self.loss
        return L if L is not None and len(L) == len(self.classes) else None

    def set_loss(self, L, stroke: int | None = None) -> None:
        """Decide with the loss matrix L (K x K over the classes, rows the truth, Bishop 1.5.2), None for
        the 0-1 loss; one undo step (the settings of one drag, sharing ``stroke``, merge into one)."""
        if L is not None:
            L = np.asarray(L, dtype=float)
            K = len(self.classes)
            if L.shape != (K, K):
                raise ValueError(f"the loss matrix needs {K} rows of {K} numbers, one row per class")
            if not np.all(np.isfinite(L)) or np.any(L < 0) or np.any(L > MAX_LOSS):
                raise ValueError(f"the loss matrix's numbers must be from 0 to {MAX_LOSS:g}")
            L = tuple(tuple(float(v) for v in row) for row in L)
        if L != self.loss:
            self._push(SetAttr(self, "loss", L, "Set the loss matrix" if L is not None else "Use the 0-1 loss",
                               stroke))

    def set_active_class(self, index: int) -> None:
        """Choose the class new points get; keys 1-9 add classes up to that number."""
        self.ensure_classes(index + 1)
        self.view_state.set_active_class(min(index, len(self.classes) - 1))

    def _push(self, command: QUndoCommand) -> None:
        self.undo_stack.push(command)


def _points(X) -> np.ndarray:
    """(N, 2) floats, every coordinate finite and within the data limit, else a ValueError."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if not np.all(np.abs(X) <= MAX_ABS):  # also false for NaN
        raise ValueError(f"points must be finite numbers within ±{MAX_ABS:g}")
    return X


# --- commands ------------------------------------------------------------------------

def _points_changed(d: Document) -> None:
    d.log.replaced()
    d.points_changed.emit()


def _classes_changed(d: Document, classes) -> None:
    d.classes = list(classes)
    if d.view_state.active_class >= len(d.classes):
        d.view_state.set_active_class(len(d.classes) - 1)
    d.log.replaced()
    d.classes_changed.emit()


def _model_changed(d: Document) -> None:
    d.log.touched()
    d.model_changed.emit()


class _Command(QUndoCommand):
    def __init__(self, doc: Document, text: str):
        super().__init__(text)
        self.doc = doc


class AddPoints(_Command):
    ID = 1

    def __init__(self, doc, X, label, stroke):
        super().__init__(doc, "Add point" if len(X) == 1 and stroke is None else "Add points")
        self.X, self.label, self.stroke = X, label, stroke
        self.start = len(doc.X)

    def redo(self):
        d = self.doc
        d.X = np.vstack([d.X[:self.start], self.X])
        d.labels = np.r_[d.labels[:self.start], np.full(len(self.X), self.label)]
        _points_changed(d)

    def undo(self):
        d = self.doc
        d.X, d.labels = d.X[:self.start].copy(), d.labels[:self.start].copy()
        _points_changed(d)

    def id(self):
        return self.ID

    def mergeWith(self, other):
        if self.stroke is None or other.stroke != self.stroke or other.start != self.start + len(self.X):
            return False
        self.X = np.vstack([self.X, other.X])
        self.setText("Add points")
        return True


class MovePoints(_Command):
    ID = 2

    def __init__(self, doc, indices, X, stroke):
        super().__init__(doc, "Move point" if len(indices) == 1 else "Move points")
        self.indices, self.new, self.stroke = indices, X, stroke
        self.old = doc.X[indices].copy()

    def _place(self, rows):
        d = self.doc
        d.log.moved(self.indices, d.X[self.indices])
        d.X[self.indices] = rows
        d.points_moved.emit()

    def redo(self):
        self._place(self.new)

    def undo(self):
        self._place(self.old)

    def id(self):
        return self.ID

    def mergeWith(self, other):
        if self.stroke is None or other.stroke != self.stroke or not np.array_equal(other.indices, self.indices):
            return False
        self.new = other.new
        return True


class DeletePoints(_Command):
    def __init__(self, doc, indices):
        super().__init__(doc, "Delete point" if len(indices) == 1 else f"Delete {len(indices)} points")
        self.indices = indices
        self.X, self.labels = doc.X[indices].copy(), doc.labels[indices].copy()

    def redo(self):
        d = self.doc
        keep = np.ones(len(d.X), bool)
        keep[self.indices] = False
        d.X, d.labels = d.X[keep], d.labels[keep]
        _points_changed(d)

    def undo(self):
        d = self.doc
        n = len(d.X) + len(self.indices)
        X, labels = np.empty((n, 2)), np.empty(n, np.int64)
        mask = np.ones(n, bool)
        mask[self.indices] = False
        X[mask], labels[mask] = d.X, d.labels
        X[self.indices], labels[self.indices] = self.X, self.labels
        d.X, d.labels = X, labels
        _points_changed(d)


class Relabel(_Command):
    def __init__(self, doc, indices, label):
        super().__init__(doc, f"Change class of {len(indices)} point{'s' if len(indices) > 1 else ''}")
        self.indices, self.label = indices, label
        self.old = doc.labels[indices].copy()

    def redo(self):
        self.doc.labels[self.indices] = self.label
        _points_changed(self.doc)

    def undo(self):
        self.doc.labels[self.indices] = self.old
        _points_changed(self.doc)


class SetClasses(_Command):
    def __init__(self, doc, classes, text):
        super().__init__(doc, text)
        self.new, self.old = list(classes), list(doc.classes)

    def redo(self):
        _classes_changed(self.doc, self.new)

    def undo(self):
        _classes_changed(self.doc, self.old)


class RemoveClass(_Command):
    def __init__(self, doc, index):
        super().__init__(doc, f"Remove class {doc.classes[index].name}")
        self.index = index
        self.state = (doc.X.copy(), doc.labels.copy(), list(doc.classes))

    def redo(self):
        d = self.doc
        X, labels, classes = self.state
        keep = labels != self.index
        d.X, d.labels = X[keep].copy(), labels[keep] - (labels[keep] > self.index)
        _classes_changed(d, classes[:self.index] + classes[self.index + 1:])
        _points_changed(d)

    def undo(self):
        d = self.doc
        X, labels, classes = self.state
        d.X, d.labels = X.copy(), labels.copy()
        _classes_changed(d, classes)
        _points_changed(d)


class SetModel(_Command):
    def __init__(self, doc, name):
        super().__init__(doc, f"Model {REGISTRY[name].label}")
        self.new, self.old = name, doc.model_name

    def redo(self):
        self.doc.model_name = self.new
        _model_changed(self.doc)

    def undo(self):
        self.doc.model_name = self.old
        _model_changed(self.doc)


class SetParam(_Command):
    ID = 3

    def __init__(self, doc, model, name, value, stroke=None):
        spec = {p.name: p for p in REGISTRY[model].params}.get(name)
        super().__init__(doc, f"Set {spec.label if spec else name}")
        self.model, self.name, self.new, self.stroke = model, name, value, stroke
        self.old = doc.params[model].get(name)

    def _set(self, value):
        self.doc.params[self.model][self.name] = value
        _model_changed(self.doc)

    def redo(self):
        self._set(self.new)

    def undo(self):
        self._set(self.old)

    def id(self):
        return self.ID

    def mergeWith(self, other):  # a slider's many small steps are one edit
        if (other.model, other.name, other.stroke) != (self.model, self.name, self.stroke):
            return False
        self.new = other.new
        return True


class SetAttr(_Command):
    """Set one document attribute; consecutive sets of the same attribute (a slider, a drag) merge."""

    ID = 4

    def __init__(self, doc, attr, value, text, stroke=None):
        super().__init__(doc, text)
        self.attr, self.new, self.stroke = attr, value, stroke
        self.old = getattr(doc, attr)

    def _set(self, value):
        setattr(self.doc, self.attr, value)
        if self.attr == "priors":
            _model_changed(self.doc)
        else:
            getattr(self.doc, f"{self.attr}_changed").emit()  # probe_changed, theta_changed, truth_changed

    def redo(self):
        self._set(self.new)

    def undo(self):
        self._set(self.old)

    def id(self):
        return self.ID

    def mergeWith(self, other):
        if other.attr != self.attr or (self.attr in ("probe", "truth", "loss")
                                       and (self.stroke is None or other.stroke != self.stroke)):
            return False
        self.new = other.new
        return True


class SetPoints(_Command):
    """Replace every point and label (a sample from the truth or from the fitted model)."""

    def __init__(self, doc, X, labels, text):
        super().__init__(doc, text)
        self.new = (X.copy(), labels.copy())
        self.old = (doc.X.copy(), doc.labels.copy())

    def _set(self, state):
        self.doc.X, self.doc.labels = state[0].copy(), state[1].copy()
        _points_changed(self.doc)

    def redo(self):
        self._set(self.new)

    def undo(self):
        self._set(self.old)
