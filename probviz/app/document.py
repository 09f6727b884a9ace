"""The document: points, labels, classes, model choice and view options.

Every edit is a QUndoCommand pushed on the document's QUndoStack (as in Orange's
Paint Data), so undo texts, the clean state and merging a whole drag or brush
stroke into one step come from Qt. Widgets call the public ``edit`` methods;
only the commands touch the ``_apply`` internals. ``changed`` says what changed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from probviz.colors import class_color
from probviz.data.dataset import Dataset
from probviz.models import MODEL_NAMES, REGISTRY

LAYERS = ("heatmap", "decision", "boundaries", "ellipses", "density", "points")
DEFAULT_LAYERS = frozenset({"heatmap", "boundaries", "ellipses", "points"})
MAX_CLASSES = 9
MOVE_LOG = 256  # moves remembered for incremental refits


@dataclass(frozen=True)
class ClassInfo:
    name: str
    color: str


def default_params(name: str) -> dict:
    params = {p.name: p.default for p in REGISTRY[name].params}
    if "standardize" in params:
        params["standardize"] = True  # l2 then means the same at any data scale
    return params


class Document(QObject):
    """The editable state of one probviz session."""

    changed = Signal(str)  # "points", "classes", "model", "layers", "all"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.X = np.empty((0, 2))
        self.labels = np.empty(0, dtype=np.int64)
        self.classes: list[ClassInfo] = []
        self.axis_names = ("x1", "x2")
        self.title = ""
        self.description = ""
        self.model_name = "lda"
        self.params = {name: default_params(name) for name in MODEL_NAMES}
        self.layers = set(DEFAULT_LAYERS)
        self.probe: tuple[float, float] | None = None
        self.priors: list[float] | None = None  # p(C_k) per class for the generative models; None: frequencies
        self.theta = 0.0  # reject threshold of the decision layer
        self.view: tuple[float, float, float, float] | None = None
        self.active_class = 0
        self._stroke = 0
        # the edit history as the refitter sees it: a revision per change, and the moves since
        # the last other change, so a drag can update the Gaussian models from their statistics
        self.revision = 0
        self._moves: list[tuple[int, np.ndarray, np.ndarray]] = []  # (revision after, indices, old rows)
        self._moves_valid_from = 0
        self._moving = None
        self.changed.connect(self._track)

    # --- whole-document operations (not undoable: they start a new history) ---------
    def load(self, data: Dataset) -> None:
        """Replace the points and classes; a new, clean history."""
        self.X = data.X.copy()
        self.labels = data.labels.copy()
        self.classes = [ClassInfo(n, c) for n, c in zip(data.class_names, data.colors)]
        self.axis_names = tuple(data.axis_names)
        self.title = data.name
        self.description = data.description
        self.probe = data.probe
        self.priors = None
        self.view = data.view
        self.active_class = 0
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.changed.emit("all")

    def load_session(self, session) -> None:
        """Restore a saved session: data, model and parameters, layers, view."""
        for name, values in session.params.items():
            if name in self.params:
                known = {k: v for k, v in values.items() if k in self.params[name]}
                self.params[name].update(known)
        if session.model in REGISTRY:
            self.model_name = session.model
        self.layers = {layer for layer in session.layers if layer in LAYERS} or set(DEFAULT_LAYERS)
        self.load(session.dataset)
        if session.view is not None:
            self.view = session.view
        priors = session.extra.get("priors")
        if isinstance(priors, list) and len(priors) == len(self.classes) and all(
                isinstance(v, (int, float)) and v > 0 for v in priors):
            self.priors = [float(v) for v in priors]
        theta = session.extra.get("theta", 0.0)
        self.theta = float(theta) if isinstance(theta, (int, float)) and 0 <= theta <= 1 else 0.0

    def to_session(self, view=None):
        from probviz.data.session import Session

        return Session(self.dataset(), self.model_name, {k: dict(v) for k, v in self.params.items()},
                       sorted(self.layers), view, {"priors": self.priors, "theta": self.theta})

    def new(self) -> None:
        self.load(Dataset(np.empty((0, 2)), np.empty(0, int), ["1", "2"], name="untitled"))

    def dataset(self) -> Dataset:
        return Dataset(self.X.copy(), self.labels.copy(), [c.name for c in self.classes],
                       [c.color for c in self.classes], self.axis_names, self.title, self.description, probe=self.probe,
                       view=self.view)

    # --- queries ------------------------------------------------------------------
    def _track(self, what: str) -> None:
        if what not in ("points", "classes", "all", "model", "priors"):
            return
        self.revision += 1
        if what == "points" and self._moving is not None:
            indices, old = self._moving
            self._moves.append((self.revision, indices, old))
            del self._moves[:-MOVE_LOG]
            self._moves_valid_from = max(self._moves_valid_from, self._moves[0][0] - 1)
        elif what != "model" and what != "priors":
            self._moves.clear()
            self._moves_valid_from = self.revision
        self._moving = None

    def moves_since(self, revision: int):
        """(indices, rows before) of the points moved since ``revision`` (both empty when none
        moved), if moves are all that happened to the points since then; else None."""
        if revision < self._moves_valid_from:
            return None
        first: dict[int, np.ndarray] = {}
        for rev, indices, old in self._moves:
            if rev > revision:
                for i, row in zip(indices.tolist(), old):
                    first.setdefault(i, row)
        idx = np.fromiter(first, dtype=np.int64, count=len(first))
        return idx, np.array([first[i] for i in idx]).reshape(-1, 2)

    def counts(self) -> np.ndarray:
        return np.bincount(self.labels, minlength=len(self.classes))

    def new_stroke(self) -> int:
        """An id shared by the commands of one drag or brush stroke, so they merge."""
        self._stroke += 1
        return self._stroke

    # --- edits (each one undoable) -----------------------------------------------------
    def add_points(self, X, label: int, stroke: int | None = None) -> None:
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        if len(X):
            self.ensure_classes(label + 1)
            self._push(AddPoints(self, X, label, stroke))

    def move_points(self, indices, X, stroke: int | None = None) -> None:
        self._push(MovePoints(self, np.asarray(indices), np.asarray(X, float).reshape(-1, 2), stroke))

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
        if name and name != self.classes[index].name:
            classes = list(self.classes)
            classes[index] = replace(classes[index], name=name)
            self._push(SetClasses(self, classes, f"Rename class to {name}"))

    def recolor_class(self, index: int, color: str) -> None:
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

    def set_param(self, name: str, value) -> None:
        if self.params[self.model_name].get(name) != value:
            self._push(SetParam(self, self.model_name, name, value))

    def set_layer(self, layer: str, visible: bool) -> None:
        """Show or hide a layer: a view option like zoom, so not an undo step."""
        if (layer in self.layers) != visible:
            (self.layers.add if visible else self.layers.discard)(layer)
            self.changed.emit("layers")

    def set_probe(self, xy, stroke: int | None = None) -> None:
        """Pin (or with None remove) the probe point whose p(C_k|x) the panel explains."""
        xy = None if xy is None else (float(xy[0]), float(xy[1]))
        if xy != self.probe:
            text = "Remove probe" if xy is None else ("Place probe" if self.probe is None else "Move probe")
            self._push(SetAttr(self, "probe", xy, text, "probe", stroke))

    def set_priors(self, priors) -> None:
        """Override p(C_k) (one value per class, renormalised), or None to use the class frequencies."""
        if priors is not None:
            p = np.clip(np.asarray(priors, dtype=float), 1e-6, None)
            priors = [float(v) for v in p / p.sum()]
        if priors != self.priors:
            self._push(SetAttr(self, "priors", priors, "Set priors" if priors else "Reset priors", "priors"))

    def effective_priors(self) -> np.ndarray:
        """The priors the generative models use, per class: the override, else the frequencies."""
        if self.priors is not None and len(self.priors) == len(self.classes):
            return np.asarray(self.priors)
        counts = self.counts().astype(float)
        return counts / counts.sum() if counts.sum() else np.full(len(self.classes), 1 / max(len(self.classes), 1))

    def set_theta(self, theta: float) -> None:
        theta = float(min(max(theta, 0.0), 1.0))
        if theta != self.theta:
            self._push(SetAttr(self, "theta", theta, "Set reject threshold", "theta"))

    def set_active_class(self, index: int) -> None:
        """Choose the class new points get; keys 1-9 add classes up to that number."""
        self.ensure_classes(index + 1)
        self.active_class = min(index, len(self.classes) - 1)
        self.changed.emit("active")

    def _push(self, command: QUndoCommand) -> None:
        self.undo_stack.push(command)


# --- commands ------------------------------------------------------------------------

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
        d.changed.emit("points")

    def undo(self):
        d = self.doc
        d.X, d.labels = d.X[:self.start].copy(), d.labels[:self.start].copy()
        d.changed.emit("points")

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
        d._moving = (self.indices.copy(), d.X[self.indices].copy())
        d.X[self.indices] = rows
        d.changed.emit("points")

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
        d.changed.emit("points")

    def undo(self):
        d = self.doc
        n = len(d.X) + len(self.indices)
        X, labels = np.empty((n, 2)), np.empty(n, np.int64)
        mask = np.ones(n, bool)
        mask[self.indices] = False
        X[mask], labels[mask] = d.X, d.labels
        X[self.indices], labels[self.indices] = self.X, self.labels
        d.X, d.labels = X, labels
        d.changed.emit("points")


class Relabel(_Command):
    def __init__(self, doc, indices, label):
        super().__init__(doc, f"Change class of {len(indices)} point{'s' if len(indices) > 1 else ''}")
        self.indices, self.label = indices, label
        self.old = doc.labels[indices].copy()

    def redo(self):
        self.doc.labels[self.indices] = self.label
        self.doc.changed.emit("points")

    def undo(self):
        self.doc.labels[self.indices] = self.old
        self.doc.changed.emit("points")


class SetClasses(_Command):
    def __init__(self, doc, classes, text):
        super().__init__(doc, text)
        self.new, self.old = list(classes), list(doc.classes)

    def redo(self):
        self.doc.classes = list(self.new)
        self.doc.changed.emit("classes")

    def undo(self):
        self.doc.classes = list(self.old)
        self.doc.active_class = min(self.doc.active_class, len(self.old) - 1)
        self.doc.changed.emit("classes")


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
        d.classes = classes[:self.index] + classes[self.index + 1:]
        d.active_class = min(d.active_class, len(d.classes) - 1)
        d.changed.emit("all")

    def undo(self):
        d = self.doc
        X, labels, classes = self.state
        d.X, d.labels, d.classes = X.copy(), labels.copy(), list(classes)
        d.changed.emit("all")


class SetModel(_Command):
    def __init__(self, doc, name):
        super().__init__(doc, f"Model {REGISTRY[name].label}")
        self.new, self.old = name, doc.model_name

    def redo(self):
        self.doc.model_name = self.new
        self.doc.changed.emit("model")

    def undo(self):
        self.doc.model_name = self.old
        self.doc.changed.emit("model")


class SetParam(_Command):
    ID = 3

    def __init__(self, doc, model, name, value):
        spec = {p.name: p for p in REGISTRY[model].params}.get(name)
        super().__init__(doc, f"Set {spec.label if spec else name}")
        self.model, self.name, self.new = model, name, value
        self.old = doc.params[model].get(name)

    def _set(self, value):
        self.doc.params[self.model][self.name] = value
        self.doc.changed.emit("model")

    def redo(self):
        self._set(self.new)

    def undo(self):
        self._set(self.old)

    def id(self):
        return self.ID

    def mergeWith(self, other):  # a slider's many small steps are one edit
        if (other.model, other.name) != (self.model, self.name):
            return False
        self.new = other.new
        return True


class SetAttr(_Command):
    """Set one document attribute; consecutive sets of the same attribute (a slider, a drag) merge."""

    ID = 4

    def __init__(self, doc, attr, value, text, what, stroke=None):
        super().__init__(doc, text)
        self.attr, self.new, self.what, self.stroke = attr, value, what, stroke
        self.old = getattr(doc, attr)

    def redo(self):
        setattr(self.doc, self.attr, self.new)
        self.doc.changed.emit(self.what)

    def undo(self):
        setattr(self.doc, self.attr, self.old)
        self.doc.changed.emit(self.what)

    def id(self):
        return self.ID

    def mergeWith(self, other):
        if other.attr != self.attr or (self.attr == "probe" and (self.stroke is None or other.stroke != self.stroke)):
            return False
        self.new = other.new
        return True
