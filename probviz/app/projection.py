"""Fisher's projection, as Bishop's figure 4.6 shows it: each class's histogram on the line joining the
means beside its histogram on Fisher's direction w, with Fisher's criterion J for each."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout

from probviz.app.widgets import PlotSlot, SmallPlot
from probviz.style import Style


class FisherBox(QGroupBox):
    """Shown while Fisher's discriminant is the model: the two projections of the training points."""

    def __init__(self, doc, parent=None):
        super().__init__("Projections (Bishop figure 4.6)", parent)
        self.doc = doc
        self.setToolTip("Left of each pair: projected onto the line joining the class means; right: onto "
                        "Fisher's w ∝ S_W⁻¹(m₂ − m₁), which trades some separation of the means for much less "
                        "spread within each class. J = (m₂ − m₁)² / (s₁² + s₂²) (eq. 4.25); the dashed line is "
                        "the threshold, the projected overall mean.")
        lay = QVBoxLayout(self)
        self.labels, self._slots = {}, {}  # the plots are made when first shown: most windows never fit Fisher's
        for key, title in (("means", "onto the line joining the means"), ("fisher", "onto Fisher's w")):
            label = QLabel(title)
            label.setTextFormat(Qt.TextFormat.PlainText)
            slot = PlotSlot(_projection_plot, height=120)
            lay.addWidget(label)
            lay.addWidget(slot)
            self.labels[key], self._slots[key] = label, slot
        self.criteria: dict[str, float] = {}
        self._style = Style()
        self.setVisible(False)

    def apply_style(self, style: Style) -> None:
        self._style = style
        for slot in self._slots.values():
            slot.apply_style(style)

    def show_result(self, frame) -> None:
        model = frame.fit.model if frame is not None else None
        shown = model is not None and hasattr(model, "direction_") and len(model.classes_) == 2
        self.setVisible(shown)
        if not shown:
            return
        X, labels = frame.request.X, frame.request.labels
        colors = [frame.request.colors[i] for i in frame.fit.class_index]
        hist = model.histograms(X, labels)
        fg = self._style.foreground
        for key, (edges, counts, threshold) in hist.items():
            plot = self._slots[key].plot
            plot.clear()
            for k in range(2):
                c = pg.mkColor(colors[k])
                fill = pg.mkColor(colors[k])
                fill.setAlpha(110)
                plot.plot(edges, counts[k], stepMode="center", fillLevel=0, brush=fill, pen=pg.mkPen(c, width=1.5))
            plot.addItem(pg.InfiniteLine(threshold, angle=90, pen=pg.mkPen(fg, width=1.5, style=Qt.PenStyle.DashLine)))
            v = model.means_direction() if key == "means" else model.direction_
            self.criteria[key] = model.overlap(X, labels, v)
            self.labels[key].setText(("Onto the line joining the means" if key == "means" else "Onto Fisher's w")
                                     + f":  J = {self.criteria[key]:.4g}")

    def counts(self, key: str) -> np.ndarray:
        """The drawn histograms' counts, (2, bins): for tests."""
        items = self._slots[key].plot.plotItem.listDataItems()
        return np.array([item.yData for item in items])


def _projection_plot() -> SmallPlot:
    plot = SmallPlot(height=120)
    plot.hideAxis("left")  # counts: their heights are compared, not read
    return plot
