"""The Training dock: watch logistic regression, softmax regression or the perceptron learn, one step
at a time (Bishop 4.1.7, 4.3.2-4.3.4), with E(w) plotted against the step.

The steps come from :class:`probviz.models.training.Trainer` (pure); this dock only holds one, says
when to step, and hands the window the step to draw (``fits_for``). Edits to the points or the model
start the run again from its start weights.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFormLayout, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy,
    QVBoxLayout, QWidget,
)

from probviz.app.widgets import NumberField, SmallPlot, guard_wheel
from probviz.colors import OKABE_ITO
from probviz.models import REGISTRY
from probviz.models.training import DEFAULT_ETA, OPTIMIZER_LABELS, OPTIMIZERS, TRAINABLE, Trainer, separable_note
from probviz.pipeline import trainer_fit
from probviz.style import Style

#: frames per second of Play at most: faster speeds take several steps per frame
MAX_FPS = 60


#: the perceptron's criterion E_P(w) (Bishop eq. 4.54), its P a subscript (axis labels are HTML)
CRITERION_LABEL = "E<sub>P</sub>(w)"


def _vector(v) -> str:
    return "(" + ", ".join(f"{a:.3g}" for a in np.ravel(v)) + ")"


class IntegerAxis(pg.AxisItem):
    """An axis of counts (steps, points): ticks only at whole numbers, however far it is zoomed in."""

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph's name)
        levels = [(spacing, offset) for spacing, offset in super().tickSpacing(minVal, maxVal, size) if spacing >= 1]
        return levels or [(1.0, 0.0)]


class TrainingPanel(QWidget):
    """Optimizer, learning rate, speed, Step / Play / Reset, the readout and the error plot."""

    changed = Signal()  # a new step (or run) to draw
    trainable_changed = Signal(bool)  # whether the model can be trained: the Train menu follows the dock

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.trainer: Trainer | None = None
        self.runs: dict[str, tuple] = {}  # optimizer -> its last run (steps, errors, misclassified or None)
        self._optimum = None
        self._note = ""
        self.error = ""

        self.active = QCheckBox("Show the training step on the canvas")
        self.active.setToolTip("On: the canvas draws the current step's weights; off: the fitted model (T)")
        self.optimizer = QComboBox()
        for name in OPTIMIZERS:
            self.optimizer.addItem(OPTIMIZER_LABELS[name], name)
        self.optimizer.setToolTip("Gradient descent: w ← w − η∇E over all points (Bishop eq. 4.91); stochastic: one "
                                  "point per step in file order, cycling (eq. 3.22); Newton / IRLS: w ← w − H⁻¹∇E "
                                  "(eqs. 4.92-4.99)")
        self.eta = NumberField(1e-4, 100.0, decimals=4, step=0.001, log_from=1e-4)
        self.eta.setValue(DEFAULT_ETA["gd"])
        self.eta.setToolTip("Learning rate η of gradient descent and SGD (Newton's step has none)")
        self.speed = NumberField(1, 600, decimals=0, step=1, suffix=" /s")
        self.speed.setValue(10)
        self.speed.setToolTip("Steps per second while playing")
        self.start = QComboBox()
        self.start.addItem("w = 0", "zero")
        self.start.addItem("the Gaussian model's log-odds", "generative")
        self.start.setToolTip("Where Reset puts the weights: zero, or the log-odds of LDA (QDA for curved bases), "
                              "whose form is the same (Bishop 4.2.2)")
        guard_wheel(self.optimizer, self.start)
        self.step_button = QPushButton("Step")
        self.step_button.setToolTip("One step (.)")
        self.play_button = QPushButton("Play")
        self.play_button.setCheckable(True)
        self.play_button.setToolTip("Play / pause (Space)")
        self.reset_button = QPushButton("Reset")
        self.reset_button.setToolTip("Back to the start weights; the curve starts again (Ctrl+R)")
        self.readout = QLabel()
        self.readout.setTextFormat(Qt.TextFormat.PlainText)  # class names are text, never markup
        self.readout.setWordWrap(True)
        self.readout.setMinimumWidth(120)  # a long note wraps; it never widens the dock
        self.readout.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.plot = SmallPlot()
        self.plot.setMinimumHeight(160)
        self.plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.plot.setAxisItems({"bottom": IntegerAxis("bottom"), "right": IntegerAxis("right")})
        self.plot.setLabel("bottom", "step")
        self.plot.setLabel("left", "E(w)")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.plotItem.getAxis("right").setGrid(False)  # the grid follows E's axis, not the count's
        self.plot.addLegend(offset=(-10, 10))
        # the perceptron's misclassified count (0 to N) on its own right-hand axis: on E_P's axis the
        # criterion would be squashed flat
        item = self.plot.plotItem
        self.count_view = pg.ViewBox(enableMouse=False)
        item.scene().addItem(self.count_view)
        item.getAxis("right").linkToView(self.count_view)
        item.getAxis("right").setLabel("misclassified")
        self.count_view.setXLink(item.vb)
        item.vb.sigResized.connect(lambda *_: self.count_view.setGeometry(item.vb.sceneBoundingRect()))
        self.count_curve = pg.PlotDataItem(pen=pg.mkPen(OKABE_ITO[4], width=1.5, style=Qt.PenStyle.DashLine),
                                           name="misclassified (right axis)")
        self.count_view.addItem(self.count_curve)
        item.hideAxis("right")
        self.optimum_line = pg.InfiniteLine(angle=0, pen=pg.mkPen("#555555", width=1.5, style=Qt.PenStyle.DashLine))
        self.plot.addItem(self.optimum_line)

        form = QFormLayout()
        form.addRow("Optimizer", self.optimizer)
        form.addRow("Learning rate η", self.eta)
        form.addRow("Speed", self.speed)
        form.addRow("Start", self.start)
        buttons = QHBoxLayout()
        for b in (self.step_button, self.play_button, self.reset_button):
            buttons.addWidget(b)
        controls = QWidget()
        top = QVBoxLayout(controls)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.active)
        top.addLayout(form)
        top.addLayout(buttons)
        scroll = QScrollArea()  # the controls scroll when the text is large (presentation mode); the plot stays
        scroll.setWidget(controls)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        lay = QVBoxLayout(self)
        lay.addWidget(scroll)
        lay.addWidget(self.readout)  # never scrolled away: the step, E(w) and what the run means
        lay.addWidget(self.plot, 1)

        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self.optimizer.currentIndexChanged.connect(self._optimizer_changed)
        self.eta.valueChanged.connect(lambda _v: self.restart())
        self.start.currentIndexChanged.connect(lambda _i: self.restart())
        self.speed.valueChanged.connect(lambda _v: self._set_timer())
        # clicked passes Qt's checked flag (False): connected straight to step(count) it would take 0 steps
        self.step_button.clicked.connect(lambda _checked=False: self.step())
        self.play_button.toggled.connect(self.play)
        self.reset_button.clicked.connect(lambda _checked=False: self.reset())
        self.active.toggled.connect(lambda _on: self.changed.emit())
        self.apply_style(Style())
        self.sync()

    # --- state ----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.optimizer.currentData()

    @property
    def trainable(self) -> bool:
        return self.doc.model_name in TRAINABLE

    def showing(self) -> bool:
        """Whether the canvas should draw the training step instead of the fit."""
        return self.active.isChecked() and self.trainer is not None

    def sync(self):
        """The document changed (points, classes, model or its parameters): start again."""
        ok = self.trainable
        for w in (self.optimizer, self.eta, self.speed, self.start, self.step_button, self.play_button,
                  self.reset_button, self.active):
            w.setEnabled(ok)
        self.trainable_changed.emit(ok)
        perceptron = self.doc.model_name == "perceptron"
        newton = self.optimizer.model().item(OPTIMIZERS.index("newton"))
        newton.setEnabled(not perceptron)
        if perceptron and self.name == "newton":
            self.optimizer.setCurrentIndex(OPTIMIZERS.index("gd"))
        self.start.model().item(1).setEnabled(not perceptron)
        if perceptron:
            self.start.setCurrentIndex(0)
        self.eta.setEnabled(ok and self.name != "newton")
        self.plot.setLabel("left", CRITERION_LABEL if perceptron else "E(w)")
        self.plot.plotItem.showAxis("right", perceptron)
        self.runs.clear()
        if not ok:
            self.play_button.setChecked(False)
            self.trainer, self.error, self._optimum, self._note = None, "", None, ""
            self.readout.setText(f"{REGISTRY[self.doc.model_name].label} is fitted in one go. Choose logistic "
                                 "regression, softmax regression or the perceptron (Model menu) to watch one "
                                 "learn step by step.")
            self._draw_curves()
            self.changed.emit()
            return
        self.restart()

    def restart(self):
        """A fresh run from the start weights with the current settings (playing goes on)."""
        self.trainer, self.error = None, ""
        doc = self.doc
        if self.trainable and len(doc.X):
            spec = doc.model_spec()
            params = {k: v for k, v in spec.kwargs.items() if k in ("l2", "basis", "standardize")}
            names = [c.name for c in doc.classes]
            try:
                self.trainer = Trainer(spec.name, doc.X, doc.labels, optimizer=self.name,
                                       eta=None if self.name == "newton" else self.eta.value(), names=names, **params)
                if self.start.currentData() == "generative":
                    W0 = self.trainer.generative_start()
                    if W0 is not None:
                        self.trainer = Trainer(spec.name, doc.X, doc.labels, optimizer=self.name,
                                               eta=None if self.name == "newton" else self.eta.value(), names=names,
                                               start=W0, **params)
            except ValueError as e:
                self.error = str(e)
        self._optimum = self.trainer.optimum()[0] if self.trainer is not None else None
        self._note = separable_note(self.trainer) if self.trainer is not None else ""
        self._refresh()

    def data_changed(self):
        """Points were added, moved or removed: start again if training is on screen; otherwise only
        forget the run (a drag then costs nothing here) and start when Step or Play is pressed."""
        if self.active.isChecked() or self.play_button.isChecked():
            self.restart()
            return
        self.trainer, self.error, self._optimum, self._note = None, "", None, ""
        self.runs.clear()
        if self.trainable:
            self.readout.setText("Step (.) or Play (Space) trains on the points as they are now.")
        self._draw_curves()

    def _ensure(self) -> bool:
        """A trainer for the current points, made now if an edit forgot it."""
        if self.trainer is None and self.trainable and len(self.doc.X) and not self.error:
            self.restart()
        return self.trainer is not None

    def _optimizer_changed(self):
        self.eta.setValue(DEFAULT_ETA[self.name])
        self.eta.setEnabled(self.trainable and self.name != "newton")
        self.restart()

    # --- stepping -------------------------------------------------------------------------
    def step(self, count: int = 1):
        if not self._ensure():
            return
        self.active.setChecked(True)
        try:
            self.trainer.step(count)
        except FloatingPointError as e:
            self.play_button.setChecked(False)
            self.error = str(e)
        self._refresh()

    def play(self, on: bool):
        self.play_button.setText("Pause" if on else "Play")
        if on and self._ensure():
            self.active.setChecked(True)
            self._set_timer()
            self.timer.start()
        else:
            self.timer.stop()
            if on:
                self.play_button.setChecked(False)

    def toggle_play(self):
        if self.play_button.isEnabled():
            self.play_button.setChecked(not self.play_button.isChecked())

    def _set_timer(self):
        rate = self.speed.value()
        self._per_tick = max(1, int(np.ceil(rate / MAX_FPS)))
        self.timer.setInterval(max(1, round(1000 * self._per_tick / rate)))

    def _tick(self):
        self.step(self._per_tick)

    def reset(self):
        self.restart()

    # --- what is shown --------------------------------------------------------------------
    def fits_for(self, request):
        """The pipeline fits of the current step, for ``request`` (the document's points), or None."""
        if not self.showing():
            return None
        spec = request.specs[0]
        return [trainer_fit(self.trainer, spec, request.X, request.labels)]

    def highlight(self):
        """The point the last stochastic step used, (x, y), or None."""
        if not self.showing() or self.trainer.current.point < 0:
            return None
        return tuple(self.trainer.X[self.trainer.current.point])

    def _refresh(self):
        t = self.trainer
        if t is None:
            self.readout.setText(self.error or "Add points of two classes to train.")
        else:
            s = t.current
            N = len(t.X)
            perceptron = t.name == "perceptron"
            lines = [f"step {s.index}   " + ("perceptron criterion" if perceptron else "E(w) =") + f" {s.error:.5g}"
                     + ("" if self._optimum is None else f"   (optimum {self._optimum:.5g})"),
                     f"misclassified {s.wrong} of {N} (accuracy {100 * (N - s.wrong) / N:.1f}%)   "
                     f"||w|| = {s.norm:.4g}"]
            tied = t.on_boundary(s.W)
            if perceptron and not np.any(s.W):
                lines.append("w = 0 decides nothing: every point lies on the boundary wᵀφ = 0, so every point "
                             "counts as misclassified (it is in M, Bishop eq. 4.54)")
            elif tied:
                lines.append(f"{tied} of them on the boundary wᵀφ = 0: undecided, counted as misclassified")
            if s.point >= 0:
                name = t.names[t.classes[t.codes[s.point]]] if t.names is not None else str(t.classes[t.codes[s.point]])
                term = "−t_n φ_n" if t.name == "perceptron" else "(y_n − t_n) φ_n"
                lines.append(f"point {s.point + 1} ({name}): {term} = "
                             + "; ".join(_vector(r) for r in s.contribution))
            if s.index > 0 and s.error > t.history[-2].error * (1 + 1e-12) and t.optimizer != "sgd":
                lines.append("E(w) rose on this step: " + (
                    "the pure Newton step overshot (far from the optimum it need not descend)"
                    if t.optimizer == "newton" else "η is too large for the curvature of E here"))
            if self._note:
                lines.append(self._note)
            if self.error:
                lines.append(self.error)
            self.readout.setText("\n".join(lines))
        if t is not None and len(t.history) > 1:  # a run shows in the plot once it has taken a step
            self.runs[t.optimizer] = ([h.index for h in t.history], [h.error for h in t.history],
                                      [h.wrong for h in t.history] if t.name == "perceptron" else None)
        self._draw_curves()
        self.changed.emit()

    def _draw_curves(self):
        self.plot.clear()
        self.plot.addItem(self.optimum_line)
        legend = self.plot.plotItem.legend
        if legend is not None:
            legend.clear()
        self.count_curve.setData([], [])
        for i, name in enumerate(OPTIMIZERS):
            if name not in self.runs:
                continue
            steps, errors, wrong = self.runs[name]
            current = self.trainer is not None and name == self.trainer.optimizer
            pen = pg.mkPen(OKABE_ITO[i], width=2.5 if current else 1.5,
                           style=Qt.PenStyle.SolidLine if current else Qt.PenStyle.DotLine)
            self.plot.plot(steps, errors, pen=pen, name=OPTIMIZER_LABELS[name])
            if wrong is not None and current:
                self.count_curve.setData(steps, wrong)
                if legend is not None:
                    legend.addItem(self.count_curve, self.count_curve.name())
        self.optimum_line.setVisible(self._optimum is not None)
        if self._optimum is not None:
            self.optimum_line.setValue(self._optimum)
        values = [v for steps, errors, wrong in self.runs.values() for v in errors]
        values += [] if self._optimum is None else [self._optimum]
        values = [v for v in values if np.isfinite(v)]
        if values:  # every curve and the optimum in view (the line does not count for auto-range)
            lo, hi = min(values), max(values)
            pad = 0.05 * (hi - lo) if hi > lo else max(abs(hi), 1.0) * 0.5
            self.plot.setYRange(lo - pad, hi + pad, padding=0)
        last = max((steps[-1] for steps, _, _ in self.runs.values()), default=1)
        self.plot.setXRange(0, max(last, 1), padding=0.02)  # step 0 too: the axis reads 0 and 1
        if self.trainer is not None:
            self.count_view.setYRange(0, len(self.trainer.X), padding=0.05)

    def apply_style(self, style):
        """The plot in the window's theme (light or dark) and text size."""
        self.plot.apply_style(style)
        fg = pg.mkColor(*style.foreground)
        right = self.plot.plotItem.getAxis("right")
        right.setPen(fg)
        right.setTextPen(fg)
        for _sample, label in self.plot.plotItem.legend.items:  # a label takes a new colour only with its text
            label.setText(label.text, color=fg)
        self.optimum_line.setPen(pg.mkPen(fg, width=1.5, style=Qt.PenStyle.DashLine))

    def curves(self):
        """What the error plot shows, as (label, steps, values) per curve, for tests and export."""
        items = self.plot.plotItem.listDataItems()
        if self.count_curve.xData is not None and len(self.count_curve.xData):
            items.append(self.count_curve)
        return [(item.name(), *item.getData()) for item in items]
