"""The feature space beside the canvas (Bishop 4.3.1, figure 4.12, right): the points of a radial-basis fit
drawn at (phi_1(x), phi_2(x)), where with two basis functions the curved boundary of the input space is a
straight line. The numbers come from :func:`probviz.feature_space.feature_space`; this dialog draws them and
follows the canvas (each new frame redraws it)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout

from probviz.app.figure import marker_path
from probviz.app.widgets import SmallPlot, fit_on_screen
from probviz.colors import class_marker
from probviz.style import Style


class FeatureSpaceDialog(QDialog):
    """The shown fit's points in the plane of its first two basis functions, with its boundaries there."""

    def __init__(self, parent=None, style=None):
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Feature space (Bishop figure 4.12)")
        self.style_ = style or Style()
        self.space = None  # the FeatureSpace drawn, or None
        lay = QVBoxLayout(self)
        self.plot = SmallPlot(height=420)
        self.plot.setAspectLocked(True)
        self.plot.setLabel("bottom", "φ₁(x)")
        self.plot.setLabel("left", "φ₂(x)")
        self.plot.addLegend(offset=(-10, 10))  # top right: the points crowd the axes (phi near 0)
        self.plot.apply_style(self.style_)
        self.plot.setToolTip("Each point x at (φ₁(x), φ₂(x)), φ_m(x) = exp(−‖x − μ_m‖² / 2s²): the scores are linear "
                             "in the φ, so with two centres the boundary is a straight line here, however curved it is "
                             "on the canvas (Bishop 4.3.1)")
        lay.addWidget(self.plot, 1)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay.addWidget(buttons)
        fit_on_screen(self, 560, 600)

    def show_frame(self, frame) -> None:
        """Draw the frame's fit in its feature space, or say why there is none."""
        from probviz.feature_space import feature_space

        plot = self.plot.plotItem
        plot.clear()
        self.space = None
        fit = frame.fit if frame is not None else None
        if fit is None or fit.model is None:
            self.note.setText("Nothing is fitted yet")
            return
        req = frame.request
        try:
            fs = feature_space(fit.model, req.X, req.labels)
        except ValueError as e:
            self.note.setText(f"No feature space: {e}")
            return
        self.space = fs
        names, colors = req.class_names, req.colors
        s = self.style_
        for k, (name, color) in enumerate(zip(names, colors)):
            mask = fs.labels == k
            if mask.any():
                plot.addItem(pg.ScatterPlotItem(fs.points[mask, 0], fs.points[mask, 1], size=s.point_size,
                                                symbol=marker_path(class_marker(k)), brush=pg.mkBrush(color),
                                                pen=pg.mkPen(s.background, width=1.2), name=name))
        idx = fit.class_index
        for k, j, seg in fs.lines:
            plot.plot(seg[:, 0], seg[:, 1], pen=pg.mkPen(s.foreground, width=2.5 * s.scale),
                      name=f"boundary {names[idx[k]]} | {names[idx[j]]}")
        plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.03)
        scores = fit.model.scores_
        centres = "; ".join(f"({x:.3g}, {y:.3g})" for x, y in np.asarray(scores.mus)[:2])
        said = f"Centres μ₁, μ₂ = {centres}, width s = {scores.width:.3g}."
        self.note.setText(said + (" " + fs.note if fs.note else
                                  " With two basis functions the scores are linear in (φ₁, φ₂): the boundary is a line."))
