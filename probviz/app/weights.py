"""The Weights dock: the Bayesian view of two-class logistic regression over its slopes (w1, w2).

It draws what a frame carries (:mod:`probviz.weight_space`, computed with the fit off the GUI thread):
the prior, the likelihood and the exact posterior as contours, the Laplace ellipses over them, the
weights the canvas's boundary cloud was drawn with as dots, and w_MAP. A click in the plot picks a point
of weight space: the canvas draws its boundary (at w_MAP's bias). "Add from the truth" adds one
point drawn from the Lab's true model, one undo step each: sequential learning, the posterior narrowing
under the student's eyes (the story of Bishop figure 3.7, told for classification).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFormLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from probviz.app.teaching import unbroken
from probviz.app.widgets import NEEDS_TRUTH, IntBox, PlotSlot, SmallPlot, WhenSeen, guard_wheel
from probviz.layers import MAX_SAMPLES
from probviz.style import Style
from probviz.weight_space import WeightSpace, inner_box

#: how each surface is drawn: (colour, width, pen style); the posterior in the theme's foreground (None here), the
#: Laplace ellipses in the highlight colour
LOOKS = {"prior": ("#888888", 1.5, Qt.PenStyle.DotLine), "likelihood": ("#009E73", 1.8, Qt.PenStyle.DashLine),
         "posterior": (None, 2.2, Qt.PenStyle.SolidLine), "laplace": ("#CC79A7", 2.2, Qt.PenStyle.DashDotLine)}


def key_text(dark: bool = False, samples_drawn: bool = True) -> str:
    """The key under the plot: each surface by its colour and line, the posterior's colour the theme's foreground;
    the dots are the canvas's sampled boundaries only while that layer is on."""
    dots = ("reddish-purple dots the weights of the canvas's sampled boundaries" if samples_drawn else
            "reddish-purple dots weights drawn from q(w) (the layer 'Boundary samples' draws their boundaries)")
    return ("Over the slopes (w₁, w₂) at w_MAP's bias, 1, 2 and 3 standard deviations: grey dotted the prior "
            "N(w|0, α⁻¹I); green dashed the likelihood p(t|w) (Bishop eq. 4.89); " + ("white" if dark else "black")
            + " the exact posterior p(w|t) ∝ p(t|w)p(w) (eq. 4.140); reddish-purple dash-dot its Laplace "
            f"approximation q(w) (eq. 4.143); {dots}; + w_MAP. Click a point: × marks it and the canvas draws its "
            "boundary, dotted.")


class WeightPanel(QWidget):
    message = Signal(str)
    reshaped = Signal()  # the plot's height over its width changed by more than ASPECT_STEP: a new weight space

    #: the relative change of the plot's shape that asks for a weight space of the new shape
    ASPECT_STEP = 0.04
    #: the plot's height (pixels) when the panel has no more room
    LEAST_PLOT = 220

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.frame = None
        self.seen = WhenSeen(self._draw)  # drawn while its tab is in front
        lay = QVBoxLayout(self)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.status)
        self._asked_aspect = 1.0  # the shape the last weight space was asked for
        # the window puts the panel in a PanelScroll: with presentation mode's large text (or in a short window)
        # it scrolls and the plot keeps this height, not squeezed under the text; a taller window gives it more
        self._slot = PlotSlot(self._make_plot, height=self.LEAST_PLOT)
        lay.addWidget(self._slot, 1)
        self.key = QLabel(unbroken(key_text()))
        self.key.setTextFormat(Qt.TextFormat.PlainText)
        self.key.setWordWrap(True)
        lay.addWidget(self.key)
        form = QFormLayout()
        self.samples = IntBox()
        self.samples.setRange(0, MAX_SAMPLES)
        self.samples.setValue(doc.view_state.samples[0])
        self.samples.setToolTip("How many weight vectors are drawn from q(w) (seeded): their boundaries on the "
                                "canvas (layer 'Boundary samples'), their slopes as dots here")
        guard_wheel(self.samples)
        self.samples.valueChanged.connect(lambda v: doc.view_state.set_samples(v))
        form.addRow("Samples", self.samples)
        lay.addLayout(form)
        row = QVBoxLayout()  # stacked: the dock keeps the Model panel's width
        self.add_button = QPushButton("Add from the truth")
        self.add_button.setToolTip("One point drawn from the Lab's true model (one undo step): watch the "
                                   "posterior narrow as the data grow")
        self.add_button.clicked.connect(self.add_from_truth)
        self.clear_button = QPushButton("Clear the point")
        self.clear_button.setToolTip("Remove the boundary of the clicked weights from the canvas")
        self.clear_button.clicked.connect(lambda: doc.view_state.set_weight_probe(None))
        row.addWidget(self.add_button)
        row.addWidget(self.clear_button)
        lay.addLayout(row)
        doc.view_state.weights_changed.connect(self._sync_controls)
        doc.truth_changed.connect(self._sync_controls)
        doc.reset.connect(self._sync_controls)
        self.apply_style(Style())
        self._sync_controls()
        self._describe()  # what it needs, until a frame comes
        self.seen.show()

    def _make_plot(self) -> SmallPlot:
        plot = SmallPlot(height=self.LEAST_PLOT)
        plot.setAspectLocked(True)
        plot.plotItem.vb.sigResized.connect(self._plot_resized)
        plot.setLabel("bottom", "w₁")
        plot.setLabel("left", "w₂")
        plot.scene().sigMouseClicked.connect(self._clicked)
        plot.setCursor(Qt.CursorShape.CrossCursor)
        plot.setToolTip("Click a point of weight space: the canvas draws the boundary of its weights "
                        "(at w_MAP's bias)")
        return plot

    @property
    def plot(self) -> SmallPlot:
        """Weight space's plot, made when the dock is first in front."""
        return self._slot.plot

    def aspect(self) -> float:
        """The plot's height over its width (its scales are equal): the weight space is computed over a box of
        that shape, so that its contours reach every edge (computed over a box of its own, they stopped short of
        the plot's edges, the prior's circles cut off)."""
        vb = self.plot.plotItem.vb
        w, h = vb.width(), vb.height()
        self._asked_aspect = h / w if w > 1 and h > 1 else 1.0
        return self._asked_aspect

    def _plot_resized(self, *_):
        vb = self.plot.plotItem.vb
        if vb.width() > 1 and vb.height() > 1 and self.seen.on_screen and \
                abs(vb.height() / vb.width() / self._asked_aspect - 1.0) > self.ASPECT_STEP:
            self.reshaped.emit()
        else:
            self._show_grid()  # a shape within the step: the largest box of it inside the grid

    def _show_grid(self):
        """Show the largest box of the plot's own shape inside the grid the weight space was computed over, about
        its middle: the plot shows its equal scales as a box of the view's shape, and one wider than the grid (the
        view's shape up to ASPECT_STEP off the one asked for) left bare strips where the contours stop short."""
        ws = getattr(self.frame, "weights", None)
        vb = self.plot.plotItem.vb
        if not isinstance(ws, WeightSpace):
            return
        x, y = (ws.w1[0], ws.w1[-1]), (ws.w2[0], ws.w2[-1])
        if vb.width() > 1 and vb.height() > 1:
            x, y = inner_box(x, y, vb.height() / vb.width())
        self.plot.setRange(xRange=x, yRange=y, padding=0)

    # --- the document's side -------------------------------------------------------------------
    def _sync_controls(self):
        vs = self.doc.view_state
        if self.samples.value() != vs.samples[0]:
            self.samples.blockSignals(True)
            self.samples.setValue(vs.samples[0])
            self.samples.blockSignals(False)
        self.clear_button.setEnabled(vs.weight_probe is not None)
        self.add_button.setEnabled(self.doc.usable_truth() is not None)
        self.add_button.setToolTip("One point drawn from the Lab's true model (one undo step): watch the posterior "
                                   "narrow as the data grow" if self.doc.usable_truth() is not None else
                                   "Needs " + NEEDS_TRUTH)

    def add_from_truth(self):
        """One point from the truth, its class drawn with the truth's priors; the seed is the number of points
        so far, so a replayed lesson draws the same sequence."""
        truth = self.doc.usable_truth()
        if truth is None:
            self.message.emit("No true model to sample from")
            return
        X, codes = truth.sample(1, seed=len(self.doc.X))
        self.doc.add_points(X, int(codes[0]))
        name = self.doc.classes[int(codes[0])].name
        self.message.emit(f"Added a point of {name} from the true model at ({X[0, 0]:.3g}, {X[0, 1]:.3g})")

    def _clicked(self, event):
        if event.button() != Qt.MouseButton.LeftButton or not isinstance(getattr(self.frame, "weights", None),
                                                                        WeightSpace):
            return
        p = self.plot.plotItem.vb.mapSceneToView(event.scenePos())
        self.doc.view_state.set_weight_probe((p.x(), p.y()))
        event.accept()

    # --- frames -------------------------------------------------------------------------------
    def show_result(self, frame):
        if frame is not None and frame.request.draft and frame.weights is None and self.frame is not None:
            return  # the hand is moving: the last weight space stays until the frame after it rests
        self.frame = frame
        self.seen.show()

    def apply_style(self, style) -> None:
        self._slot.apply_style(style)
        self._foreground = pg.mkColor(*style.foreground)
        self._dark = style.dark  # the posterior's ink and the key's word for it (the window redraws after a theme)

    def _describe(self):
        """The text above the plot and whether the key below it shows (they set the panel's width)."""
        frame = self.frame
        ws = getattr(frame, "weights", None)
        self.key.setVisible(isinstance(ws, WeightSpace))
        self._slot.setVisible(isinstance(ws, WeightSpace))  # no empty axes of made-up ranges: the text says why
        if not isinstance(ws, WeightSpace):
            nothing = frame is not None and frame.fit.model is None
            self.status.setText(ws if isinstance(ws, str) else
                                "Nothing is fitted yet: weight space needs points of two classes." if nothing else
                                "Weight space shows logistic regression's Bayesian view: choose logistic "
                                "regression and tick 'Bayesian view (Laplace)'.")
            return
        self.key.setText(unbroken(key_text(self._dark, "samples" in frame.request.layers)))  # "(eq. 4.140)" whole
        sd = np.sqrt(np.diag(ws.cov)[1:])
        features = "the standardized features" if np.any(ws.scale != 1.0) or np.any(ws.center != 0.0) else "x₁, x₂"
        self.status.setText(unbroken(  # "w_MAP = (0.600, 1.356)" whole
            f"{ws.n} points, α = {ws.alpha:.4g}; weights on {features}, the bias held at w₀ = {ws.bias:.3f}. "
            f"w_MAP = ({ws.w_map[1]:.3f}, {ws.w_map[2]:.3f}); q(w)'s standard deviations ({sd[0]:.3f}, {sd[1]:.3f}): "
            "they shrink as points are added."))

    def _draw(self):
        self._describe()
        ws = getattr(self.frame, "weights", None)
        if not isinstance(ws, WeightSpace):
            if self._slot.made:
                self.plot.clear()
            return
        plot = self.plot
        plot.clear()
        for name in ("prior", "likelihood", "posterior"):
            color, width, style = LOOKS[name]
            color = self._foreground if color is None else color
            for lines in ws.contours[name]:
                for line in lines:
                    plot.plot(line[:, 0], line[:, 1], pen=pg.mkPen(color, width=width, style=style))
        color, width, style = LOOKS["laplace"]
        for ellipse in ws.contours["laplace"]:
            plot.plot(ellipse[:, 0], ellipse[:, 1], pen=pg.mkPen(color, width=width, style=style))
        if len(ws.samples):
            plot.addItem(pg.ScatterPlotItem(ws.samples[:, 0], ws.samples[:, 1], size=6, pen=pg.mkPen(None),
                                            brush=pg.mkBrush(LOOKS["laplace"][0])))
        plot.addItem(pg.ScatterPlotItem([ws.w_map[1]], [ws.w_map[2]], symbol="+", size=16,
                                        pen=pg.mkPen(self._foreground, width=2.5)))
        probe = self.doc.view_state.weight_probe
        if probe is not None:
            plot.addItem(pg.ScatterPlotItem([probe[0]], [probe[1]], symbol="x", size=16,
                                            pen=pg.mkPen(self._foreground, width=3)))
        self._show_grid()
