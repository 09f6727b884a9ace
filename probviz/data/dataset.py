"""A labelled 2-D data set: points, class indices, class names and colours, axis names."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from probviz.colors import class_color


@dataclass
class Dataset:
    """Points ``X`` (N, 2) with ``labels`` (N,) indexing ``class_names``.

    A class may have no points (a freshly added class); models see only the
    classes present.
    """

    X: np.ndarray
    labels: np.ndarray
    class_names: list[str]
    colors: list[str] = field(default_factory=list)
    axis_names: tuple[str, str] = ("x1", "x2")
    name: str = ""
    description: str = ""
    probe: tuple[float, float] | None = None
    view: tuple[float, float, float, float] | None = None
    truth: object = None  # a probviz.models.truth.Truth with one Gaussian per class, if the data's source is known
    notices: list = field(default_factory=list)  # what the loader noticed (e.g. one point per class)

    def __post_init__(self):
        self.X = np.asarray(self.X, dtype=float).reshape(-1, 2)
        self.labels = np.asarray(self.labels, dtype=np.int64).ravel()
        if len(self.labels) != len(self.X):
            raise ValueError("X and labels differ in length")
        if len(self.labels) and (self.labels.min() < 0 or self.labels.max() >= len(self.class_names)):
            raise ValueError("a label does not name a class")
        self.colors = list(self.colors) + [class_color(i) for i in range(len(self.colors), len(self.class_names))]

    @classmethod
    def from_labels(cls, X, y, **kw) -> "Dataset":
        """From arbitrary labels (strings or numbers): classes in sorted order."""
        names, codes = np.unique(np.asarray(y), return_inverse=True)
        return cls(X, codes.ravel(), [str(n) for n in names], **kw)

    def counts(self) -> np.ndarray:
        return np.bincount(self.labels, minlength=len(self.class_names))
