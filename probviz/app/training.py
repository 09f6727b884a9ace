"""The Training dock: watch logistic regression, softmax regression or the perceptron learn, one step
at a time (Bishop 4.1.7, 4.3.2-4.3.4), with E(w) plotted against the step.

The dock holds no trainer and computes nothing: its controls say which run and which step to show
(the document's :class:`probviz.stepping.TrainingSpec`), the pipeline trains (on the window's worker
for large data), and the dock reads the step and its run from each frame (``show_frame``). Edits to
the points or the model start the run again from its start weights.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFormLayout, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy,
    QVBoxLayout, QWidget,
)

from probviz.app.teaching import unbroken
from probviz.app.widgets import (
    EdgeAxis, NumberField, PlotSlot, SmallPlot, WhenSeen, guard_wheel, labels_follow_fields, move_in_place,
)
from probviz.colors import OKABE_ITO
from probviz.models import REGISTRY
from probviz.models.training import DEFAULT_ETA, OPTIMIZER_LABELS, OPTIMIZERS, TRAINABLE
from probviz.style import Style

#: frames per second of Play at most: faster speeds take several steps per frame
MAX_FPS = 60


#: the perceptron's criterion E_P(w) (Bishop eq. 4.54), its P a subscript (axis labels are HTML)
CRITERION_LABEL = "E<sub>P</sub>(w)"


def _vector(v) -> str:
    return "(" + ", ".join(f"{a:.3g}" for a in np.ravel(v)) + ")"


class IntegerAxis(EdgeAxis):
    """An axis of counts (steps, points): ticks only at whole numbers, however far it is zoomed in, written
    out (3000, not 3 with "(x1000)" by the name)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.enableAutoSIPrefix(False)

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph's name)
        levels = [(spacing, offset) for spacing, offset in super().tickSpacing(minVal, maxVal, size) if spacing >= 1]
        return levels or [(1.0, 0.0)]


class TrainingPanel(QWidget):
    """Optimizer, learning rate, speed, Step / Play / Reset, the readout and the error plot."""

    changed = Signal()  # a new step (or run) to draw
    trainable_changed = Signal(bool)  # whether the model can be trained: the Train menu follows the dock
    _DOT = 7  # pixels from the centre of the step's dot on the error plot to the plot's edge, at least

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.view = None  # the step on screen and its run (a probviz.stepping.TrainingView), from the last frame
        self.runs: dict[str, tuple] = {}  # optimizer -> its last run (steps, errors, misclassified or None)
        self._per_tick = 1
        self._runs_started = 0  # run numbers are never reused: a forgotten run (0) and a new one differ
        self.restarted_at = 0  # the step an edit sent back to the start (0: none), until the next step is taken
        # runs an edit of the points restarted, to come back when the edit is undone: undo index -> (the command
        # below that index, the run's TrainingSpec, the error plot's runs). The command tells that index's document
        # (its points, model and settings: each change is a command) from one of another history (an edit after an
        # undo replaces the commands above it)
        self._restarted_runs: dict[int, tuple] = {}
        doc.undo_stack.indexChanged.connect(self._back_to)
        doc.reset.connect(self._restarted_runs.clear)
        self._drawn = None  # the run and step the error plot shows
        self._run_curves = {}  # optimizer -> its run's curve in the error plot
        self._curves_layout = None  # which runs have curves, which is current, whether the count is drawn

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
                              "whose form is the same (Bishop 4.2.1)")
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
        self.readout.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)  # kept taller in a run
        self._readout_lines = -1  # the readout's height for its width, when its text was last set
        self._readout_run = None  # the run (and the readout's width) that height was kept for
        self._measured = (None, -1)  # ((text, width, font), the readout's height for them)
        # the error plot, made and drawn while the dock is in front (behind another tab a step costs it nothing)
        self._style = None
        self.plot_slot = PlotSlot(self._make_plot)
        self.plot_slot.setMinimumHeight(160)
        self.seen = WhenSeen(lambda: self._draw_curves(self.view))  # the window tells it when the dock is seen

        form = self._form = QFormLayout()
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # a narrow dock: label above its field
        form.addRow("Optimizer", self.optimizer)
        form.addRow("Learning rate η", self.eta)
        form.addRow("Speed", self.speed)
        form.addRow("Start", self.start)
        labels_follow_fields(form)
        buttons = QHBoxLayout()
        for b in (self.step_button, self.play_button, self.reset_button):
            buttons.addWidget(b)
        controls = QWidget()
        top = QVBoxLayout(controls)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.active)
        top.addLayout(form)
        scroll = self.controls_scroll = QScrollArea()  # the settings scroll when the text is large
        # (presentation mode; the window widens the dock first); the plot stays
        scroll.setWidget(controls)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        controls.installEventFilter(self)  # its rows' sizes change (fonts, texts): the plot's room follows,
        self.readout.installEventFilter(self)  # as it does when the readout takes more or fewer lines
        lay = QVBoxLayout(self)
        lay.addWidget(scroll)
        lay.addLayout(buttons)  # never scrolled away: Step, Play and Reset are what a teacher presses
        lay.addWidget(self.readout)  # nor this: the step, E(w) and what the run means
        lay.addWidget(self.plot_slot, 1)

        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self.optimizer.currentIndexChanged.connect(self._optimizer_changed)
        self.eta.valueChanged.connect(lambda v: self._new_run(eta=float(v)))
        self.start.currentIndexChanged.connect(lambda _i: self._new_run(start=self.start.currentData()))
        self.speed.valueChanged.connect(lambda _v: self._set_timer())
        # clicked passes Qt's checked flag (False): connected straight to step(count) it would take 0 steps
        self.step_button.clicked.connect(lambda _checked=False: self.step())
        self.play_button.toggled.connect(self.play)
        self.reset_button.clicked.connect(lambda _checked=False: self.reset())
        self.active.toggled.connect(lambda on: self._set(shown=on))
        doc.view_state.training_changed.connect(self._show_settings)
        self.apply_style(Style())
        self.sync()

    # --- state ----------------------------------------------------------------------------
    def _make_plot(self) -> SmallPlot:
        plot = SmallPlot()
        plot.setAxisItems({"bottom": IntegerAxis("bottom"), "right": IntegerAxis("right")})
        plot.setLabel("bottom", "step")
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.plotItem.getAxis("right").setGrid(False)  # the grid follows E's axis, not the count's
        plot.addLegend(offset=(-10, 10))
        # the perceptron's misclassified count (0 to N) on its own right-hand axis: on E_P's axis the
        # criterion would be squashed flat
        item = plot.plotItem
        self.count_view = pg.ViewBox(enableMouse=False)
        item.scene().addItem(self.count_view)
        item.getAxis("right").linkToView(self.count_view)
        item.getAxis("right").setLabel("misclassified")
        self.count_view.setXLink(item.vb)
        item.vb.sigResized.connect(lambda *_: self.count_view.setGeometry(item.vb.sceneBoundingRect()))
        item.vb.sigResized.connect(lambda *_: self._fit_y_range())  # the legend's share of the height changed
        self.count_curve = pg.PlotDataItem(pen=pg.mkPen(OKABE_ITO[4], width=1.5, style=Qt.PenStyle.DashLine),
                                           name="misclassified (right axis)")
        self.count_view.addItem(self.count_curve)
        item.hideAxis("right")
        self.optimum_line = pg.InfiniteLine(angle=0, pen=pg.mkPen("#555555", width=1.5, style=Qt.PenStyle.DashLine))
        self.optimum_line.setVisible(False)
        plot.addItem(self.optimum_line)
        # the step on the canvas, on its run's curve (step 0 too, before the run has a curve)
        self.here = pg.ScatterPlotItem(size=2 * self._DOT - 4)
        self.here.setZValue(10)
        self._here_pen = pg.mkPen("#555555", width=1.5)  # the theme's foreground once styled
        plot.addItem(self.here)
        self._label_axes(plot)
        if self._style is not None:
            self._style_plot(plot, self._style)
        return plot

    @property
    def plot(self) -> SmallPlot:
        """The error plot (made when the dock is first in front)."""
        return self.plot_slot.plot

    def _label_axes(self, plot) -> None:
        """E(w)'s axis, or the perceptron's criterion's with the misclassified count on the right."""
        perceptron = self.doc.model_name == "perceptron"
        plot.setLabel("left", CRITERION_LABEL if perceptron else "E(w)")
        plot.plotItem.showAxis("right", perceptron)

    @property
    def spec(self):
        """The run and step the document asks for (a probviz.stepping.TrainingSpec)."""
        return self.doc.view_state.training

    @property
    def name(self) -> str:
        return self.optimizer.currentData()

    @property
    def trainable(self) -> bool:
        return self.doc.model_name in TRAINABLE

    def showing(self) -> bool:
        """Whether the canvas draws the training step instead of the fit."""
        return self.trainable and self.spec.shown

    def _set(self, **changes):
        self.doc.view_state.set_training(replace(self.spec, **changes))

    def _new_run(self, **changes):
        """A fresh run from the start weights (the curve starts again; playing goes on)."""
        self.restarted_at = 0
        self._set(steps=0, run=self._runs_started + 1, **changes)
        self._runs_started += 1

    def _show_settings(self):
        """The controls say what the document says (a session opened, a run started elsewhere)."""
        spec = self.spec
        with QSignalBlocker(self.optimizer), QSignalBlocker(self.start):
            self.optimizer.setCurrentIndex(OPTIMIZERS.index(spec.optimizer))
            self.start.setCurrentIndex(max(self.start.findData(spec.start), 0))
        self.active.setChecked(spec.shown and self.trainable)  # the Train menu's T follows it
        with QSignalBlocker(self.eta):
            self.eta.setValue(DEFAULT_ETA[spec.optimizer] if spec.eta is None else spec.eta)
        self.eta.setEnabled(self.can_train() and spec.optimizer != "newton")

    def can_train(self) -> bool:
        """Whether a run can start: a model trained step by step, on classes it takes (the perceptron
        separates two, Bishop 4.1.7)."""
        if not self.trainable:
            return False
        return self.doc.model_name != "perceptron" or len(np.unique(self.doc.labels)) <= 2

    def _enable(self):
        ok = self.can_train()
        for w in (self.optimizer, self.eta, self.speed, self.start, self.step_button, self.play_button,
                  self.reset_button, self.active):
            w.setEnabled(ok)
        self.eta.setEnabled(ok and self.spec.optimizer != "newton")
        if not ok:
            self.play_button.setChecked(False)
        self.trainable_changed.emit(ok)

    def sync(self, new_run: bool = True):
        """The model or its parameters changed (or, with ``new_run`` False, a document was opened with its
        own run): the controls follow, and a run starts again from its start weights."""
        self._enable()
        perceptron = self.doc.model_name == "perceptron"
        self.optimizer.model().item(OPTIMIZERS.index("newton")).setEnabled(not perceptron)
        self.start.model().item(1).setEnabled(not perceptron)
        if self.plot_slot.made:
            self._label_axes(self.plot)
        self.runs.clear()
        self.view = None
        changes = {}
        if perceptron and self.spec.optimizer == "newton":
            changes.update(optimizer="gd", eta=None)
        if perceptron and self.spec.start != "zero":
            changes["start"] = "zero"
        if not self.trainable:
            changes["shown"] = False  # (playing was stopped by _enable)
        if new_run and self.can_train():
            self._new_run(**changes)
        elif new_run:
            self._set(steps=0, run=0, **changes)  # no run to ask for
        elif changes:
            self._set(**changes)
        self._show_settings()
        self._describe(None)

    def data_changed(self):
        """Points were added, moved or removed: the run on screen starts again on the points as they are;
        one not on screen is forgotten (a drag with the fitted model on screen trains nothing)."""
        if self.trainable and self.doc.model_name == "perceptron":
            self._enable()  # a third class's first point, or its last
        if self.spec.steps:  # the run as it was before this edit, should the edit be undone
            stack = self.doc.undo_stack  # (the edit's command is being done: the index is still the one before it)
            i = stack.index()
            self._restarted_runs[i] = (stack.command(i - 1) if i else None, self.spec, dict(self.runs))
        self.runs.clear()
        if self.spec.steps or self.spec.shown:
            # the step on the canvas goes back to the start: the status line says why until the next step (two
            # new users read the blank canvas at w = 0 as the classifier gone), through a drag's every move
            was = (self.spec.steps if self.spec.shown else 0) or self.restarted_at
            self._new_run()
            self.restarted_at = was
        elif self.spec.run:
            self._set(run=0)  # forget the run: a drag with the fit on screen trains nothing

    def _back_to(self, index: int) -> None:
        """Undo or redo brought the document back to ``index``: a run an edit restarted there comes back at the
        step it had reached (the edit had sent it back to w = 0)."""
        saved = self._restarted_runs.get(index)
        if saved is None:
            return
        below, spec, runs = saved
        stack = self.doc.undo_stack
        if (stack.command(index - 1) if index else None) is not below:
            del self._restarted_runs[index]  # another history's
            return
        self.restarted_at = 0
        self._runs_started = max(self._runs_started, spec.run)
        self.runs = dict(runs)  # the other optimizers' last runs on these points, in the error plot again
        self.doc.view_state.set_training(spec)
        self._show_settings()

    def _optimizer_changed(self):
        name = self.name
        with QSignalBlocker(self.eta):
            self.eta.setValue(DEFAULT_ETA[name])
        self.eta.setEnabled(self.can_train() and name != "newton")
        self._new_run(optimizer=name, eta=None)

    # --- stepping -------------------------------------------------------------------------
    def step(self, count: int = 1):
        """``count`` more steps, shown on the canvas."""
        if not self.can_train() or not len(self.doc.X):
            return
        if self.view is not None and self.view.problem and self.view.index < self.spec.steps:
            self.play_button.setChecked(False)  # the run cannot go on (the weights overflowed)
            return
        self.restarted_at = 0
        self._set(steps=self.spec.steps + int(count), shown=True)

    def play(self, on: bool):
        self.play_button.setText("Pause" if on else "Play")
        if on and self.can_train() and len(self.doc.X):
            self._set(shown=True)
            self._set_timer()
            self.timer.start()
        else:
            self.timer.stop()
            if on:
                self.play_button.setChecked(False)
            elif self.view is not None and self.spec.steps > self.view.index:
                self._set(steps=self.view.index)  # paused where the canvas is: no steps drawn after the press

    def toggle_play(self):
        if self.play_button.isEnabled():
            self.play_button.setChecked(not self.play_button.isChecked())

    def _set_timer(self):
        rate = self.speed.value()
        self._per_tick = max(1, int(np.ceil(rate / MAX_FPS)))
        self.timer.setInterval(max(1, round(1000 * self._per_tick / rate)))

    def _tick(self):
        if self.view is not None and self.view.index < self.spec.steps and not self.view.problem:
            return  # the last step asked for is not drawn yet: wait for it rather than pile up steps
        self.step(self._per_tick)

    def reset(self):
        self._new_run()

    # --- what is shown --------------------------------------------------------------------
    def show_frame(self, frame):
        """The step on screen and its run, from the frame (None when no run is asked for)."""
        view = frame.training if frame is not None else None
        self.view = view
        if view is not None and view.index > 0:  # a run shows in the plot once it has taken a step
            self.runs[view.optimizer] = (view.steps, view.errors, view.wrongs)
        self._describe(view)
        if view is not None and view.problem and self.play_button.isChecked():
            self.play_button.setChecked(False)
        if view is not None and view.index < self.spec.steps and not view.problem and view.model == self.doc.model_name:
            self.changed.emit()  # a long replay is drawn in parts: ask for the rest

    def _readout_height(self) -> int:
        """The readout's height for its width, laid out again only when its text, width or font changed (a model
        fitted in one go sets the same text at every move of a drag: 0.2 ms a frame to lay it out again)."""
        key = (self.readout.text(), self.readout.width(), self.readout.font())
        if key != self._measured[0]:
            self._measured = (key, self.readout.heightForWidth(key[1]))
        return self._measured[1]

    def _describe(self, view):
        self.plot_slot.setVisible(self.trainable and self.can_train())  # no empty E(w) axes for a fit in one go
        if not self.trainable:
            self.readout.setText(f"{REGISTRY[self.doc.model_name].label} is fitted in one go. Choose logistic "
                                 "regression, softmax regression or the perceptron (Model menu) to watch one "
                                 "learn step by step.")
        elif not self.can_train():
            self.readout.setText(f"The perceptron separates two classes (Bishop 4.1.7); these points have "
                                 f"{len(np.unique(self.doc.labels))}. Least squares or softmax regression take more.")
        elif view is None:
            self.readout.setText("Step (.) or Play (Space) trains on the points as they are now."
                                 if len(self.doc.X) else "Add points of two classes to train.")
        elif view.model != self.doc.model_name:
            return  # a frame of the model before: the next one speaks of this one
        else:
            # wrapped between terms, never inside one ("p(C_k|" on one line and "x)" on the next)
            self.readout.setText(unbroken(readout_text(view, [c.name for c in self.doc.classes])))
        lines = self._readout_height()
        # within a run the readout only grows: an SGD step's numbers wrap to more or fewer lines, and the plot under
        # it jumped (drawn anew, axes and all); step 0's note on w = 0 is a line that goes at step 1
        run = (view.key, view.zero, self.readout.width()) if view is not None else None
        if run is not None and run == self._readout_run:
            lines = max(lines, self._readout_lines)
        self._readout_run = run
        if lines != self._readout_lines:  # more or fewer lines: the plot's room follows (a readout that shrinks
            self._readout_lines = lines  # keeps its height, the plot held at its largest: no resize tells)
            QTimer.singleShot(0, self, self._fit_controls)
        self.seen.show()  # the error plot: now if the dock is in front, else once it is

    def _draw_curves(self, view):
        key = (view.key, view.index, view.optimum) if view is not None else None
        drawn = (key, tuple((k, len(v[0])) for k, v in self.runs.items()))
        if drawn == self._drawn:
            return  # the same run at the same step (a pan, a probe move): nothing new to plot
        self._drawn = drawn
        current = view.optimizer if view is not None else None
        count = current in self.runs and self.runs[current][2] is not None
        layout = (tuple(name for name in OPTIMIZERS if name in self.runs), current, count)
        if layout != self._curves_layout:  # a run more or less, or another one current: the curves anew
            self._make_curves(*layout)
        for name, curve in self._run_curves.items():  # a step: the curves' data, items and legend kept
            steps, errors, _ = self.runs[name]
            curve.setData(steps, errors)
        if count:
            steps, _, wrong = self.runs[current]
            self.count_curve.setData(steps, wrong)
        else:
            self.count_curve.setData([], [])
        if view is not None and np.isfinite(view.error) and current in OPTIMIZERS:
            look = (current, self._here_pen.color().rgba())
            at = np.array([[view.index, view.error]], float)
            if getattr(self.here, "_look", None) != look or not move_in_place(self.here, at):
                self.here.setData([view.index], [view.error], pen=self._here_pen,
                                  brush=pg.mkBrush(OKABE_ITO[OPTIMIZERS.index(current)]))
                self.here._look = look  # (a step moves it in place: its marker is made once a run)
        else:
            self.here.setData([], [])
            self.here._look = None
        optimum = view.optimum if view is not None else None
        self.optimum_line.setVisible(optimum is not None)
        if optimum is not None:
            self.optimum_line.setValue(optimum)
        last = max((steps[-1] for steps, _, _ in self.runs.values()), default=1)
        width = self.plot.plotItem.vb.sceneBoundingRect().width()
        edge = min(max(0.02, self._DOT / width if width > 0 else 0.02), 0.2)  # the dot on step 0 whole
        # to 1, 2, 5, 10, 20, 50... steps: the run grows into its axis, which is drawn anew (with its grid, 5 ms a
        # step) only when a run passes its end; step 0 too: the axis reads 0 and 1
        self.plot.setXRange(0, _steps_axis_end(last), padding=edge)
        self._fit_y_range()
        if view is not None:
            self.count_view.setYRange(0, view.n, padding=0.05)

    def _fit_y_range(self):
        """E(w)'s axis: every curve and the optimum in view (the line does not count for auto-range), with room
        above the curves under the legend (top right): a slow run's curve ends high, where the legend is."""
        optimum = self.optimum_line.value() if self.optimum_line.isVisible() else None
        runs = [(np.asarray(steps, float), np.asarray(errors, float)) for steps, errors, _ in self.runs.values()]
        here = self.here.getData()[1]
        values = np.concatenate([errors for _, errors in runs] + [np.asarray(here, float)]
                                + [np.atleast_1d(optimum if optimum is not None else [])])
        values = values[np.isfinite(values)]
        if not len(values):  # no run: no range kept from the last one (another document's E is another scale)
            self.plot.setYRange(0, 1, padding=0)
            return
        lo, hi = float(values.min()), float(values.max())
        vb, legend = self.plot.plotItem.vb, self.plot.plotItem.legend
        box, key = vb.sceneBoundingRect(), legend.sceneBoundingRect() if legend is not None else None
        d = min(self._DOT / box.height(), 0.2) if box.height() > 0 else 0.0  # the step's dot whole at either end
        pad = max(0.05, d / (1 - 2 * d)) * (hi - lo) if hi > lo else max(abs(hi), 1.0) * 0.5
        top = hi + pad
        legend_top = lambda bottom: -np.inf  # noqa: E731 (the least top for a bottom with the legend off the curves)
        if key is not None and legend.isVisible() and box.height() > 0 and box.width() > 0 and key.height() > 0:
            share = min((key.bottom() + 4 - box.top()) / box.height(), 0.6)  # of the height, from the top (at most)
            (x0, x1), _ = vb.viewRange()
            left = x0 + (key.left() - box.left()) / box.width() * (x1 - x0)  # the first step under the legend
            # each curve's vertices right of the legend's left edge, and where its segment crosses that edge
            under = [np.r_[errors[steps >= left], np.interp(left, steps, errors) if steps[0] < left < steps[-1] else []]
                     for steps, errors in runs if len(steps)]
            under = np.concatenate(under) if under else np.empty(0)
            under = under[np.isfinite(under)]
            if len(under) and share > 0:  # the highest of them below the legend: top - max >= share * (top - bottom)
                highest = float(under.max())
                legend_top = lambda bottom: (highest - share * bottom) / (1.0 - share)  # noqa: E731
                top = max(top, legend_top(lo - pad))
        bottom, span = lo - pad, top - (lo - pad)
        (now_bottom, now_top) = vb.viewRange()[1]
        if (now_bottom <= bottom and now_top >= hi + pad and now_top - now_bottom <= (1 + 4 * Y_SLACK) * span
                and legend_top(now_bottom) <= now_top):
            return  # the runs still fit the axis as drawn: its ticks and grid are not drawn anew (3-7 ms a paint)
        self.plot.setYRange(bottom - Y_SLACK * span, top + Y_SLACK * span, padding=0)

    def _make_curves(self, shown, current, count):
        """One curve per run in ``shown`` (the current run's bold and solid, the others dotted), in the
        optimizers' order, with the legend in that order and the misclassified count after the current run."""
        self._curves_layout = (shown, current, count)
        for curve in self._run_curves.values():
            self.plot.removeItem(curve)
        self._run_curves = {}
        legend = self.plot.plotItem.legend
        if legend is not None:
            legend.clear()
        for name in shown:
            mine = name == current
            pen = pg.mkPen(OKABE_ITO[OPTIMIZERS.index(name)], width=2.5 if mine else 1.5,
                           style=Qt.PenStyle.SolidLine if mine else Qt.PenStyle.DotLine)
            self._run_curves[name] = self.plot.plot(pen=pen, name=OPTIMIZER_LABELS[name])
            if mine and count and legend is not None:
                legend.addItem(self.count_curve, self.count_curve.name())

    def _fit_controls(self):
        """The controls whole above the plot (Step, Play and Reset in view, also in presentation mode's large
        text), up to 55% of the panel's height; beyond that they scroll. The plot's largest height gives way,
        not a smallest height of the controls: that would hold the whole window above the size it is given."""
        scroll = self.controls_scroll
        controls = scroll.widget()
        width = scroll.width() - 2 * scroll.frameWidth()  # the form wraps its rows when narrow: taller then
        high = controls.heightForWidth(width) if controls.hasHeightForWidth() else -1
        need = max(high, controls.sizeHint().height()) + 2 * scroll.frameWidth()
        lay = self.layout()
        margins = lay.contentsMargins()
        readout = self.readout.heightForWidth(self.readout.width()) if self.readout.hasHeightForWidth() else -1
        readout = readout if readout >= 0 else self.readout.sizeHint().height()  # its lines at its width
        # or the most a run's steps took: the plot gives up that room and the readout takes it (not a least height
        # of the readout: that held the whole window taller, and F5's large text made it grow past the screen)
        readout = max(readout, self._readout_lines)
        buttons = lay.itemAt(1).sizeHint().height()  # the row of Step, Play and Reset
        # the room the controls and the plot share: the panel less its margins, the buttons, the readout and
        # the three gaps between the four rows (what the layout gives them, so nothing is left over)
        rest = self.height() - margins.top() - margins.bottom() - buttons - readout - 3 * max(lay.spacing(), 0)
        scroll.setMaximumHeight(need)  # never taller than the controls: no gap above the buttons
        plot = max(0, int(0.45 * rest), rest - need)
        if plot > rest - need:  # the controls scroll: they show whole rows, the plot takes what a cut row would
            room = rest - max(plot, self.plot_slot.minimumHeight()) - 2 * scroll.frameWidth()
            whole = [b for b in self._row_bottoms() if b <= room]
            if whole:
                plot = rest - max(whole) - 2 * scroll.frameWidth()
        self.plot_slot.setMaximumHeight(plot)

    def _row_bottoms(self) -> list[int]:
        """Where each row of the settings ends, in the scrolled widget: the checkbox, then each field (a narrow
        panel puts a field under its label: the row ends under the field)."""
        form = self._form
        fields = [form.itemAt(i, QFormLayout.ItemRole.FieldRole) for i in range(form.rowCount())]
        rows = [self.active.geometry()] + [item.geometry() for item in fields if item is not None]
        return [r.bottom() + 1 for r in rows]

    def resizeEvent(self, ev):
        super().resizeEvent(ev)
        self._forget_readout_height()
        self._fit_controls()

    def _forget_readout_height(self):
        """The readout's kept height is for its width and text size: another width or size starts afresh."""
        self._readout_run, self._readout_lines = None, -1

    def eventFilter(self, obj, ev):  # noqa: N802 (Qt's name)
        if ((obj is self.controls_scroll.widget() and ev.type() == QEvent.Type.LayoutRequest)
                or (obj is self.readout and ev.type() == QEvent.Type.Resize)):
            QTimer.singleShot(0, self, self._fit_controls)  # once the rows have their new sizes
        return super().eventFilter(obj, ev)

    def changeEvent(self, ev):
        super().changeEvent(ev)
        if ev.type() == QEvent.Type.FontChange:  # presentation mode's text: the controls grow
            self._forget_readout_height()
            QTimer.singleShot(0, self, self._fit_controls)  # (not called once the panel is gone)

    def apply_style(self, style):
        """The plot in the window's theme (light or dark) and text size."""
        self._style = style
        if self.plot_slot.made:
            self._style_plot(self.plot, style)

    def _style_plot(self, plot, style):
        plot.apply_style(style)
        fg = pg.mkColor(*style.foreground)
        right = plot.plotItem.getAxis("right")
        right.setPen(fg)
        right.setTextPen(fg)
        for _sample, label in plot.plotItem.legend.items:  # a label takes a new colour only with its text
            label.setText(label.text, color=fg)
        self.optimum_line.setPen(pg.mkPen(fg, width=1.5, style=Qt.PenStyle.DashLine))
        self._here_pen = pg.mkPen(fg, width=1.5)
        self.here.setPen(self._here_pen)

    def curves(self):
        """What the error plot shows, as (label, steps, values) per curve, for tests and export."""
        items = [item for item in self.plot.plotItem.listDataItems() if item is not self.here]
        if self.count_curve.xData is not None and len(self.count_curve.xData):
            items.append(self.count_curve)
        return [(item.name(), *item.getData()) for item in items]


#: room kept beyond the runs at either end of E(w)'s axis, a share of their span: a step that ends a little lower (or
#: higher) than any before stays inside, and the axis is drawn anew only when a run leaves it or takes up less than
#: 1 / (1 + 4 Y_SLACK) of it
Y_SLACK = 0.08


def _steps_axis_end(last: int) -> int:
    """The E(w) plot's last step on its axis: the first of 1, 2, 5, 10, 20, 50, 100... at least ``last``."""
    end, factors = 1, itertools.cycle((2, 2.5, 2))  # 1 -> 2 -> 5 -> 10 -> 20 -> ...
    while end < last:
        end = round(end * next(factors))
    return end


def error_text(v: float) -> str:
    """E(w) (or the perceptron's criterion) to five significant digits, in plain decimals from 0.001 to a
    million (207940 and its optimum 44556, not 2.0794e+05 beside 44556), beyond them in powers of ten."""
    v = float(v) + 0.0  # + 0.0: no -0
    if v == 0 or not math.isfinite(v) or not 1e-3 <= abs(v) < 1e6:
        return f"{v:.5g}"
    places = max(0, 4 - math.floor(math.log10(abs(v))))
    return f"{v:.{places}f}"


def _name(names, k: int) -> str:
    return names[k] if 0 <= k < len(names) else str(k)


def readout_text(view, names) -> str:
    """The readout of one step: E(w) and the optimum, the misclassified count, ||w||, the SGD point's
    gradient term, and what the run means (Bishop 4.1.7, 4.3.2)."""
    N = max(view.n, 1)
    perceptron = view.model == "perceptron"
    optimum = "" if view.optimum is None else f"   (optimum\u00a0{error_text(view.optimum)})"  # one term
    lines = [f"step {view.index}   " + ("perceptron criterion" if perceptron else "E(w) =") + f" {error_text(view.error)}"
             + optimum,
             f"misclassified {view.wrong} of {view.n} (accuracy {100 * (view.n - view.wrong) / N:.1f}%)   "
             f"‖w‖ = {view.norm:#.4g}"]  # as many digits at every step: the line wraps alike
    if perceptron and view.zero:
        lines.append("w = 0 decides nothing: every point lies on the boundary wᵀφ = 0, so every point "
                     "counts as misclassified (it is in M, Bishop eq. 4.54)")
    elif view.zero:
        lines.append("w = 0 decides nothing: every class has p(C_k|x) = 1/K at every point, so every point is "
                     "undecided and counts as misclassified")
    elif view.tied and perceptron:
        lines.append(f"{view.tied} of them on the boundary wᵀφ = 0: undecided, counted as misclassified")
    elif view.tied:
        lines.append(f"{view.tied} of them on a boundary, their largest p(C_k|x) shared: undecided, counted as "
                     "misclassified")
    if view.point >= 0:
        name = _name(names, view.point_class)
        rows = view.contribution
        if perceptron and not np.any(rows[0]):  # (-t_n phi_n is never zero: phi_n holds the bias's 1)
            term, values = "on its side, so no update (only a misclassified point moves w, eq. 4.55)", ""
        elif perceptron:
            term, values = "−t_n φ_n", " " + _vector(rows[0])
        elif len(rows) == 1:
            term, values = "(y_n − t_n) φ_n", " " + _vector(rows[0])
        else:  # a line per class, each named: unlabelled, three vectors read as one; on one line a name that ended
            term = "(y_nk − t_nk) φ_n"  # a line read as the vector's under it
            values = "".join(f"\n  {_name(names, c)} {_vector(r)}" for c, r in zip(view.row_classes, rows))
        # one term, never broken inside: "(y_n − t_n)" at a line's end read as if φ_n were the vector after it
        if values:
            lines.append(f"point {view.point + 1} ({name}): {term.replace(' ', chr(0xA0))} ={values}")
        else:
            lines.append(f"point {view.point + 1} ({name}): {term}")
    if view.rose:
        lines.append("E(w) rose on this step: " + (
            "the pure Newton step overshot (far from the optimum it need not descend)"
            if view.optimizer == "newton" else "η is too large for the curvature of E here"))
    if view.note:
        lines.append(view.note)
    if view.problem:
        lines.append(view.problem)
    return "\n".join(lines)
