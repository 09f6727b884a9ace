"""The Lab dock: generative against discriminative with the truth known (Bishop 4.2-4.3).

The true model (edit it here or drag its handles on the canvas), samples drawn from it or from the
fitted model, the Bayes error beside each model's true error, a second model to compare, a
train/test split, learning curves, and a cross-section of p(C_k|x) along a line. Everything it shows
comes from the pure layers (probviz.models.truth, probviz.models.learning, probviz.scene); the dock
holds the widgets and the timing.
"""

from __future__ import annotations

import os

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QDialog, QFileDialog, QFormLayout, QGridLayout, QGroupBox, QHBoxLayout,
    QHeaderView, QLabel, QLineEdit, QMessageBox, QProgressBar, QPushButton, QSpinBox, QTableWidget,
    QTableWidgetItem, QVBoxLayout, QWidget,
)
from shiboken6 import isValid

from probviz.app.collect import collect_on_gui_thread
from probviz.app.teaching import unbroken
from probviz.models.learning import shown_labels
from probviz.app.widgets import (
    NEEDS_TRUTH, IntBox, NumberField, PanelScroll, PlotSlot, SmallPlot, WhenSeen, fit_on_screen, guard_wheel,
    labels_follow_fields,
)
from probviz.colors import OKABE_ITO
from probviz.figure_layout import drawn_step
from probviz.models import MODEL_NAMES, REGISTRY, create
from probviz.models.learning import MAX_SEEDS, MAX_SIZE, learning_curve
from probviz.models.truth import Truth, fitted_truth
from probviz.report import comparison_column, comparison_rows, section_key
from probviz.style import Style

TRUTH_COLUMNS = ("p(C)", "μ₁", "μ₂", "σ₁²", "σ₁₂", "σ₂²")


def _fit_height(table: QTableWidget) -> None:
    """A table as tall as its rows (no empty space, no vertical scroll bar; room for a sideways one)."""
    table.resizeRowsToContents()
    h = table.horizontalHeader().sizeHint().height() + sum(table.rowHeight(r) for r in range(table.rowCount()))
    bar = table.horizontalScrollBar()
    if bar.maximum() > bar.minimum():
        h += bar.sizeHint().height()
    table.setFixedHeight(h + 2 * table.frameWidth() + 2)


class FittedTable(QTableWidget):
    """A table kept as tall as its rows (:func:`_fit_height`) when its font changes too: leaving presentation
    mode, the rows kept the larger text's height, with an empty band below them. Its headers stay as they are
    when a cell is selected: Qt bolds the label of a selected cell's column and row, wider than the section
    made to fit the label's own font ("LDA (shared covariance)" lost its closing parenthesis)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.horizontalHeader().setHighlightSections(False)
        self.verticalHeader().setHighlightSections(False)
        # narrower than its columns, it scrolls by pixels: by whole columns a click on a cell moved the first
        # column half out of sight
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)

    def changeEvent(self, event):  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            QTimer.singleShot(0, self, lambda: _fit_height(self))  # once the headers have the new font too


def _wrapped(text: str, fm, width: float) -> str:
    """``text`` broken at spaces into lines at most ``width`` pixels wide (a longer word keeps a line)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and fm.horizontalAdvance(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return "\n".join(lines)


def _item(text: str, editable: bool = False) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
    item.setFlags(flags | Qt.ItemFlag.ItemIsEditable if editable else flags)
    return item


class LabPanel(QWidget):
    """Truth, sampling, comparison, split, learning curves, cross-section."""

    message = Signal(str)  # a passing status message

    def __init__(self, doc, parent=None, files=None):
        super().__init__(parent)
        self.doc = doc
        self.files = files  # the window's files: where exports start, and which files an export must not overwrite
        self.frame = None
        self.seen = WhenSeen(self._draw_frame)  # behind another tab (its default) the Lab costs a frame nothing
        self.section = None  # the cross-section drawn
        self.errors: dict = {}  # spec -> true error of the frame on screen (and "bayes"), from the frame
        self._columns: dict = {}  # id(model) -> (what they depend on, the comparison's cells)
        inner = QWidget()
        lay = QVBoxLayout(inner)

        # the true model
        box = QGroupBox("True model")
        box.setToolTip("The Gaussians the points are drawn from, when known (File › Examples › fruit has Bishop's "
                       "apple-and-peach model). Edit the numbers, or show the True model layer and drag a "
                       "mean (diamond) or an end of an ellipse axis (the rings) on the canvas.")
        v = QVBoxLayout(box)
        self.truth_status = QLabel()
        self.truth_status.setTextFormat(Qt.TextFormat.PlainText)
        self.truth_status.setWordWrap(True)
        v.addWidget(self.truth_status)
        self.truth_table = FittedTable(0, len(TRUTH_COLUMNS))
        self.truth_table.setHorizontalHeaderLabels(TRUTH_COLUMNS)
        # each column as wide as its numbers (never "0.5…"); a narrow
        # dock or presentation mode's large font scrolls the table sideways instead of eliding
        self.truth_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.truth_table.horizontalHeader().setStretchLastSection(False)
        self.truth_table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.truth_table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # as tall as its rows
        self.truth_table.horizontalScrollBar().rangeChanged.connect(lambda *_: _fit_height(self.truth_table))
        self.truth_table.setToolTip("Per class: prior p(C_k), mean and covariance of p(x|C_k). Type a number and "
                                    "press Enter (one undo step).")
        self.truth_table.itemChanged.connect(self._truth_edited)
        v.addWidget(self.truth_table)
        row = QHBoxLayout()
        self.from_data = QPushButton("From the data")
        self.from_data.setToolTip("Make the true model the Gaussians fitted to the points (each class its own "
                                  "covariance, maximum likelihood)")
        self.remove_truth = QPushButton("Remove")
        self.remove_truth.setToolTip("Forget the true model (undoable)")
        row.addWidget(self.from_data)
        row.addWidget(self.remove_truth)
        v.addLayout(row)
        self.errors_label = QLabel()
        self.errors_label.setTextFormat(Qt.TextFormat.PlainText)
        self.errors_label.setWordWrap(True)
        self.errors_label.setToolTip("The Bayes error is the least error any classifier can have under the true "
                                     "model; a model's true error is its error under the true model, not on its "
                                     "training points (computed numerically, exact to about 1e-9)")
        v.addWidget(self.errors_label)
        lay.addWidget(box)
        self.from_data.clicked.connect(self._truth_from_data)
        self.remove_truth.clicked.connect(lambda: self.doc.set_truth(None, "Remove the true model"))

        # sampling
        box = QGroupBox("Sample")
        form = QFormLayout(box)
        self.n = IntBox()
        self.n.setRange(1, 100_000)
        self.n.setValue(250)
        self.n.setToolTip("How many points to draw")
        self.seed = IntBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setToolTip("The same seed draws the same points")
        self.mode = QComboBox()
        self.mode.addItem("replace the points", "replace")
        self.mode.addItem("add to the points", "add")
        guard_wheel(self.n, self.seed, self.mode)
        form.addRow("Points", self.n)
        form.addRow("Seed", self.seed)
        form.addRow("Then", self.mode)
        row = QVBoxLayout()
        self.sample_truth = QPushButton("From the true model")
        self.sample_truth.setToolTip("Draw labelled points from the true model: a label with the priors, then x "
                                     "from its Gaussian (one undo step)")
        self.sample_fitted = QPushButton("From the fitted model")
        self.sample_fitted.setToolTip("Draw points from what the fitted generative model believes the data look "
                                      "like (LDA, QDA, naive Bayes; Bishop 4.2)")
        row.addWidget(self.sample_truth)
        row.addWidget(self.sample_fitted)
        form.addRow(row)
        labels_follow_fields(form)
        lay.addWidget(box)
        self.sample_truth.clicked.connect(lambda: self.sample(False))
        self.sample_fitted.clicked.connect(lambda: self.sample(True))

        # comparing
        box = QGroupBox("Compare")
        v = QVBoxLayout(box)
        form = QFormLayout()
        self.compare = QComboBox()
        self.compare.addItem("(none)", None)
        for name in MODEL_NAMES:
            self.compare.addItem(REGISTRY[name].label, name)
        self.compare.setToolTip("A second model, fitted to the same points and drawn by its boundaries (dashed)")
        # as wide as the panel lets it (the longest model name made the Lab at least 400 pixels wide: narrowed
        # further, its right-hand side was cut off, the Remove button and the error rates with it)
        self.compare.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.compare.setMinimumContentsLength(12)
        self.held = NumberField(0.0, 0.9, decimals=2, step=0.05)
        self.held.setToolTip("Hold out this fraction of the points (drawn hollow): the models are fitted to the "
                             "others and scored on both")
        self.split_seed = IntBox()
        self.split_seed.setRange(0, 2**31 - 1)
        self.split_seed.setToolTip("Which points are held out (the same seed, the same points)")
        guard_wheel(self.compare, self.split_seed)
        form.addRow("Second model", self.compare)
        self.compare_note = QLabel()  # says why the second model chosen is not drawn (it is the model shown)
        self.compare_note.setWordWrap(True)
        self.compare_note.setTextFormat(Qt.TextFormat.PlainText)
        self.compare_note.hide()
        form.addRow("", self.compare_note)
        form.addRow("Held out", self.held)
        form.addRow("Split seed", self.split_seed)
        labels_follow_fields(form)
        v.addLayout(form)
        rows = comparison_rows(2)
        self.table = FittedTable(len(rows), 0)  # a column per model, a row per measure
        self.table.setVerticalHeaderLabels(rows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # as tall as its rows
        self.table.horizontalScrollBar().rangeChanged.connect(lambda *_: _fit_height(self.table))
        self.table.setToolTip("The shown model and the second one: free parameters, accuracy on the points they "
                              "were fitted to and on the held-out ones, the conditional log-likelihood "
                              "ln p(t|X) = Σ ln p(t_n|x_n) of every probabilistic model (a generative one's through "
                              "its posterior; minus the cross-entropy, Bishop eqs. 4.90 and 4.108) on both, the "
                              "joint ln p(X,t) of a generative model (Bishop eq. 4.71: it also counts ln p(x), so "
                              "it does not compare with the conditional), and the error under the true model")
        _fit_height(self.table)
        v.addWidget(self.table)
        self.curves_button = QPushButton("Learning curves…")
        self.curves_button.setToolTip("The true error of the two models against the training-set size, drawn from "
                                      "the true model over many seeds")
        v.addWidget(self.curves_button)
        self.judge_button = QPushButton("ROC and calibration…")
        self.judge_button.setToolTip("How good is the shown fit, really: its ROC on the points, under the true "
                                     "model and against the Bayes-optimal one, with the decision's operating point, "
                                     "and its calibration (Bishop 1.5)")
        self.judge_button.clicked.connect(self.open_judge)
        v.addWidget(self.judge_button)
        lay.addWidget(box)
        self.compare.currentIndexChanged.connect(lambda _i: self.doc.view_state.set_compare(self.compare.currentData()))
        self.held.valueChanged.connect(lambda _v: self._split_changed())
        self.split_seed.valueChanged.connect(lambda _v: self._split_changed())
        self.curves_button.clicked.connect(self.open_curves)

        # the cross-section
        box = QGroupBox("Cross-section")
        v = QVBoxLayout(box)
        self.section_hint = QLabel("Choose the Section tool (X) and drag a line across the canvas.")
        self.section_hint.setWordWrap(True)
        v.addWidget(self.section_hint)
        self._section_slot = PlotSlot(self._make_section_plot, height=200)
        self.section_key = QLabel(unbroken(section_key(None, [])))
        self.section_key.setTextFormat(Qt.TextFormat.PlainText)  # class names are text, never markup
        self.section_key.setWordWrap(True)
        v.addWidget(self.section_key)
        v.addWidget(self._section_slot)
        self.clear_section = QPushButton("Clear the line")
        self.clear_section.clicked.connect(lambda: self.doc.view_state.set_section(None))
        v.addWidget(self.clear_section)
        lay.addWidget(box)
        lay.addStretch(1)

        scroll = PanelScroll(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

        doc.reset.connect(self.sync)
        doc.truth_changed.connect(self.sync)
        doc.classes_changed.connect(self.sync)
        doc.view_state.analysis_changed.connect(self._sync_analysis)
        doc.model_changed.connect(self._sync_analysis)  # the shown model is no second model to itself
        self.apply_style(Style())
        self.sync()

    # --- document -> widgets ----------------------------------------------------------------
    def sync(self):
        doc = self.doc
        truth, usable = doc.truth, doc.usable_truth()
        if truth is None:
            self.truth_status.setText("No true model: these points' source is not known. Make one from the data, "
                                      "or open File › Examples › fruit (Bishop's apple-and-peach model).")
        elif usable is None:
            self.truth_status.setText(f"The true model has {truth.K} classes but the points have {len(doc.classes)}: "
                                      "make it again from the data.")
        elif not truth.single:
            self.truth_status.setText(f"A mixture: {', '.join(str(len(w)) for w in truth.weights)} Gaussians per "
                                      "class (not a Gaussian a class: shown, not edited here).")
        else:
            self.truth_status.setText(f"{truth.K} Gaussian classes: the points' source.")
        t = self.truth_table
        t.blockSignals(True)
        editable = usable is not None and usable.single
        rows = usable.K if editable else 0
        t.setRowCount(rows)
        t.setVerticalHeaderLabels([c.name for c in doc.classes[:rows]])
        for k in range(rows):
            S = usable.covariances_[k]
            values = (usable.priors[k], *usable.means_[k], S[0, 0], S[0, 1], S[1, 1])
            for j, v in enumerate(values):
                item = _item(f"{v:.4g}", editable=True)
                item.setToolTip(repr(float(v)))  # the shown digits are rounded; an edit keeps the rest exact
                t.setItem(k, j, item)
        t.setVisible(editable)
        _fit_height(t)
        t.blockSignals(False)
        self.remove_truth.setEnabled(truth is not None)
        self.sample_truth.setEnabled(usable is not None)
        self._sync_analysis()

    def _sync_analysis(self):
        vs = self.doc.view_state
        self.compare.blockSignals(True)
        items = self.compare.model()
        for i in range(1, self.compare.count()):  # the shown model is greyed: beside itself it draws nothing new
            mine = self.compare.itemData(i) == self.doc.model_name
            items.item(i).setEnabled(not mine)
            items.item(i).setToolTip("The model shown: choose another to compare" if mine else "")
        self.compare.setCurrentIndex(max(0, self.compare.findData(vs.compare)))
        self.compare.blockSignals(False)
        same = vs.compare is not None and vs.compare == self.doc.model_name
        self.compare_note.setText(f"{REGISTRY[vs.compare].label} is the model shown now: nothing to compare until "
                                  "you choose another (here or in the Model menu)" if same else "")
        self.compare_note.setVisible(same)
        self.held.setValue(vs.split[0])
        self.split_seed.blockSignals(True)
        self.split_seed.setValue(vs.split[1])
        self.split_seed.blockSignals(False)
        self.clear_section.setEnabled(vs.section is not None)
        self.curves_button.setEnabled(self.doc.usable_truth() is not None)
        self.curves_button.setToolTip("The true error of the two models against the training-set size"
                                      if self.doc.usable_truth() is not None else "Needs " + NEEDS_TRUTH)

    @staticmethod
    def _make_section_plot() -> SmallPlot:
        plot = SmallPlot(height=200)
        plot.setLabel("bottom", "distance along the line")
        plot.setLabel("left", "p(C_k|x)")
        return plot

    @property
    def section_plot(self) -> SmallPlot:
        """The cross-section's plot (made when the Lab is first drawn)."""
        return self._section_slot.plot

    def apply_style(self, style: Style) -> None:
        self.style = style  # the theme of the dialogs it opens
        self._section_slot.apply_style(style)

    # --- edits --------------------------------------------------------------------------------
    def _truth_edited(self, item):
        doc = self.doc
        truth = doc.usable_truth()
        if truth is None:
            return
        try:
            # the truth's own values, not the table's rounded text: only the edited cell changes
            values = np.array([(truth.priors[k], *truth.means_[k], S[0, 0], S[0, 1], S[1, 1])
                               for k, S in enumerate(truth.covariances_)], dtype=float)
            values[item.row(), item.column()] = float(item.text())
            covs = np.stack([[[r[3], r[4]], [r[4], r[5]]] for r in values])
            new = Truth.make(values[:, 0], values[:, 1:3], covs)
        except ValueError as e:
            self.message.emit(f"Not a valid true model: {e}")
            self.sync()
            return
        doc.set_truth(new, "Edit the true model")

    def _truth_from_data(self):
        doc = self.doc
        counts = doc.counts()
        if len(doc.classes) == 0 or np.any(counts < 3):
            self.message.emit("Each class needs at least 3 points to estimate its Gaussian")
            return
        m = create("qda").fit(doc.X, doc.labels)
        try:
            doc.set_truth(Truth.make(m.priors_, m.means_, m.covariances_), "True model from the data")
        except ValueError as e:
            self.message.emit(f"Cannot make a true model from these points: {e}")

    def _split_changed(self):
        try:
            self.doc.view_state.set_split(self.held.value(), self.split_seed.value())
        except ValueError as e:
            self.message.emit(str(e))

    def sample(self, fitted: bool):
        """Draw points from the truth or the fitted model: replace or add, one undo step."""
        doc = self.doc
        if fitted:
            fit = self.frame.fit if self.frame is not None else None
            if fit is None or fit.model is None:
                self.message.emit("Nothing is fitted yet")
                return
            try:
                truth = fitted_truth(fit.model)
            except ValueError as e:
                self.message.emit(str(e))
                return
            index = np.asarray(fit.class_index)
            what = f"Sample from the fitted {fit.model.label}"
        else:
            truth = doc.usable_truth()
            if truth is None:
                self.message.emit("No true model to sample from")
                return
            index = np.arange(truth.K)
            what = "Sample from the true model"
        X, codes = truth.sample(self.n.value(), self.seed.value())
        labels = index[codes]
        if self.mode.currentData() == "add":
            X, labels = np.vstack([doc.X, X]), np.r_[doc.labels, labels]
        doc.replace_points(X, labels, f"{what} ({self.n.value()} points)")
        self.message.emit(f"{what}: {self.n.value()} points, seed {self.seed.value()}")

    # --- frames -------------------------------------------------------------------------------
    def show_result(self, frame):
        self.frame = frame
        judge = getattr(self, "judge", None)
        if judge is not None and isValid(judge):
            judge.follow()  # the ROC dialog judges what the canvas shows
        fitted = frame.fit.model if frame is not None else None
        self.sample_fitted.setEnabled(fitted is not None and getattr(fitted, "generative", False))
        self._show_errors()
        self.seen.show()

    def _draw_frame(self):
        """The comparison table and the cross-section of the frame on screen."""
        self._fill_table()
        self._draw_section()

    def _fill_table(self):
        frame = self.frame
        fits = [f for f in frame.fits if f.model is not None] if frame is not None else []
        t = self.table
        t.setColumnCount(len(fits))
        # the registry's labels, as the rest of the app names the models, in lines no wider than their
        # longest word: the columns (as wide as their contents) stay narrow enough for two in the dock
        fm = t.horizontalHeader().fontMetrics()
        t.setHorizontalHeaderLabels([_wrapped(f.spec.label, fm, max(fm.horizontalAdvance(w) for w in
                                                                    f.spec.label.split(" "))) for f in fits])
        for c, f in enumerate(fits):
            t.horizontalHeaderItem(c).setToolTip(f.spec.label)
        if fits:
            t.setVerticalHeaderLabels(comparison_rows(len(fits[0].model.classes_)))
        req = frame.request if frame is not None else None
        for c, f in enumerate(fits):
            for r, text in enumerate(self._column(f, req)):
                t.setItem(r, c, _item(text))
        _fit_height(t)

    def _column(self, fit, request) -> list:
        """A fit's comparison cells, remembered while the fit (its model and its summary: one that comes
        later, as the hand rests after a drag, makes new cells), the points and the split stay (a probe move or
        a redraw makes a new frame of the same fits)."""
        err = self.errors.get(fit.spec)
        key = (fit.model, fit.summary, request.X, request.labels, request.held_out, err)
        hit = self._columns.get(id(fit.model))
        if hit is not None and all(a is b for a, b in zip(hit[0], key)):
            return hit[1]
        cells = comparison_column(fit, request.X, request.labels, request.held_out, err)
        if len(self._columns) > 16:
            self._columns.clear()
        self._columns[id(fit.model)] = (key, cells)
        return cells

    def _show_errors(self):
        """The Bayes error and each fit's true error, as the frame carries them (computed on the window's
        worker; one still being computed reads "…", in the same words, so the label keeps its lines and the
        panel below it does not jump at every move of a drag)."""
        frame = self.frame
        self.errors = dict(frame.errors) if frame is not None else {}
        if frame is None or frame.request.truth is None or not frame.request.errors:
            self.errors_label.setText("")
            return

        def value(key):
            # as many digits for each (1 read "1" beside "0.07387")
            return f"{self.errors[key]:#.4g}" if key in self.errors else "…" if frame.errors_pending else None

        view = drawn_step(frame)  # the canvas shows a training step: its error is the step's, not the fit's
        step = f" at step {view.index}" if view is not None else ""
        parts = [("Bayes error", value("bayes"))] + [(f"{f.model.label}{step if i == 0 else ''}: true error",
                                                      value(f.spec))
                                                     for i, f in enumerate(frame.fits) if f.model is not None]
        self.errors_label.setText("  ·  ".join(f"{name} {v}" for name, v in parts if v is not None))

    def _draw_section(self):
        frame = self.frame
        line = self.doc.view_state.section
        self.section_hint.setVisible(line is None)
        self.section_key.setVisible(line is not None)
        self.section = None
        drawn = frame is not None and line is not None and frame.fit.model is not None and frame.section is not None
        probabilistic = drawn and getattr(frame.fit.model, "probabilistic", True)
        self._section_slot.setVisible(probabilistic)  # no empty axes (their 1.0 cut in half): the hint says why
        if self._section_slot.made:
            self.section_plot.clear()
        if not drawn:
            return
        if not probabilistic:
            self.section_hint.setText("A discriminant function has no p(C_k|x) to plot (Bishop 4.1).")
            self.section_hint.setVisible(True)
            self.section_key.setVisible(False)  # (the key of curves not drawn)
            return
        plot = self.section_plot
        self.section_hint.setText("Choose the Section tool (X) and drag a line across the canvas.")
        names = [frame.request.class_names[i] for i in frame.fit.class_index]
        self.section_key.setText(unbroken(section_key(frame.section, names, self.style.dark)))  # p(C_k|x,D) whole
        theta = frame.request.theta if "decision" in frame.request.layers else 0.0
        sec = self.section = frame.section
        names = [frame.request.class_names[i] for i in frame.fit.class_index]
        colors = [frame.request.colors[i] for i in frame.fit.class_index]
        for t0, t1 in sec.reject:
            region = pg.LinearRegionItem((t0, t1), movable=False, brush=pg.mkBrush(170, 170, 170, 90),
                                         pen=pg.mkPen(None))
            plot.addItem(region)
        if sec.band is not None:  # the central 68% of p(C_k|x) under q(w), under the curves
            for k, (lo, hi) in enumerate(((1.0 - sec.band[:, 1], 1.0 - sec.band[:, 0]), (sec.band[:, 0], sec.band[:, 1]))):
                color = QColor(colors[k])
                color.setAlpha(60)
                low, high = pg.PlotCurveItem(sec.t, lo, pen=pg.mkPen(None)), pg.PlotCurveItem(sec.t, hi, pen=pg.mkPen(None))
                plot.addItem(pg.FillBetweenItem(low, high, brush=pg.mkBrush(color)))
        for k, (n, c) in enumerate(zip(names, colors)):
            plot.plot(sec.t, sec.posterior[:, k], pen=pg.mkPen(c, width=2.5), name=f"p({n}|x)")
        if sec.predictive is not None:
            for k, (n, c) in enumerate(zip(names, colors)):
                plot.plot(sec.t, sec.predictive[:, k], pen=pg.mkPen(c, width=2.5, style=Qt.PenStyle.DashDotLine),
                          name=f"p({n}|x,D)")
        if sec.link is not None:
            ink = pg.mkColor(*self.style.foreground)  # the theme's: black on light, white on dark
            plot.plot(sec.t, sec.link[1], pen=pg.mkPen(ink, width=1.2, style=Qt.PenStyle.DotLine), name=sec.link[0])
        if sec.joint is not None:
            top = float(sec.joint.max()) or 1.0
            for k, (n, c) in enumerate(zip(names, colors)):
                plot.plot(sec.t, sec.joint[:, k] / top, pen=pg.mkPen(c, width=1.5, style=Qt.PenStyle.DashLine),
                          name=f"p(x|{n})p({n}), scaled")
        if sec.true_posterior is not None:  # the truth's own posterior: what the fit is trying to reach
            for k in range(sec.true_posterior.shape[1]):
                plot.plot(sec.t, sec.true_posterior[:, k], pen=pg.mkPen("#777777", width=1.2, style=Qt.PenStyle.DotLine))
        for x in sec.changes:
            plot.addItem(pg.InfiniteLine(x, angle=90, pen=pg.mkPen("#555555", width=1.5)))
        if theta > 0:
            plot.addItem(pg.InfiniteLine(theta, angle=0, pen=pg.mkPen("#555555", width=1, style=Qt.PenStyle.DashLine)))
        plot.setYRange(0, 1.05, padding=0)
        plot.setXRange(0, float(sec.t[-1]), padding=0.01)

    # --- ROC and calibration ---------------------------------------------------------------------
    def judged(self):
        """What the ROC dialog judges: the shown fit on its training points, the truth, and the decision's loss
        matrix and rejection cost (theta's, while the decision regions are shown)."""
        from probviz.app.judge import Judged

        doc, frame = self.doc, self.frame
        model = frame.fit.model if frame is not None else None
        X, labels = doc.X, doc.labels
        held = doc.held_out()
        kept = None
        if held is not None and held.any():
            X, labels, kept = X[~held], labels[~held], (X[held], labels[held])
        theta = doc.theta if "decision" in doc.layers else 0.0
        return Judged(model, X, labels, [c.name for c in doc.classes], doc.usable_truth(), doc.usable_loss(),
                      1.0 - theta if theta > 0 else None, kept)

    def stop_dialogs(self):
        """The window is closing: the ROC dialog's work stops."""
        judge = getattr(self, "judge", None)
        if judge is not None and isValid(judge):
            judge.stop()

    def open_judge(self):
        from probviz.app.judge import JudgeDialog

        if self.frame is None or self.frame.fit.model is None:
            self.message.emit("Nothing is fitted yet")
            return
        self.judge = JudgeDialog(self.judged, self, getattr(self, "style", Style()),
                                 decide=lambda L, stroke: self.doc.set_loss(L, stroke), new_stroke=self.doc.new_stroke)
        window = self.window()
        for name in ("undo_action", "redo_action"):  # Ctrl+Z in the dialog is the document's Undo too
            action = getattr(window, name, None)
            if action is not None:
                self.judge.addAction(action)
        self.judge.show()

    # --- learning curves -------------------------------------------------------------------------
    def open_curves(self):
        truth = self.doc.usable_truth()
        if truth is None:
            self.message.emit("Learning curves need " + NEEDS_TRUTH)
            return
        vs = self.doc.view_state
        first = self.doc.model_name
        second = vs.compare or ("logistic" if first != "logistic" else "lda")
        dialog = LearningDialog(truth, [(first, self.doc.params[first]), (second, self.doc.params[second])], self,
                                names=[c.name for c in self.doc.classes], files=self.files,
                                params=self.doc.params)
        dialog.exec()


class _CurveWorker(QObject):
    progress = Signal(int, int)
    done = Signal(object)

    def __init__(self, truth, models, sizes, seeds, names=None):
        super().__init__()
        self.args = (truth, models, sizes, seeds)
        self.names = names
        self.cancelled = False

    @Slot()
    def run(self):
        try:
            result = learning_curve(*self.args, progress=self._progress, names=self.names)
        except ValueError as e:
            result = str(e)
        self.done.emit(result)

    def _progress(self, done, total):
        self.progress.emit(done, total)
        return not self.cancelled


#: what the learning curves dialog says when both its models are the same one
SAME_MODEL = "Choose two different models: the same model twice draws one curve twice"


class LearningDialog(QDialog):
    """Two models' true error against the training-set size, computed on a worker thread one size at a
    time, each size drawn as soon as it is done. Closing the dialog deletes it. ``models``: the two (name,
    parameters) chosen first; ``params``: every model's parameters (the document's), those a model chosen
    in the dialog is fitted with, and said under its name (the defaults for a model in neither)."""

    def __init__(self, truth, models, parent=None, names=None, files=None, params=None):
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # each opening makes a new one: none piles up
        self.files = files  # the window's files (probviz.app.fileops.FileOps): the export's folder and its guard
        self.setWindowTitle("Learning curves")
        self.truth = truth
        self.names = names  # the classes' names: a model's parameters may name them (the tied model's groups)
        self.result = None  # the whole run, once every size is done
        self.partial = None  # the sizes done so far, as learning_curve returns them
        self._thread = None
        self._sizes, self._at, self._cancelled = [], 0, False
        self.models, self.settings = [], []
        self.params = {name: dict(p) for name, p in (params or {}).items()}
        self.params.update({name: dict(p) for name, p in models})
        form = QGridLayout()  # the two models side by side, each over its settings: the plot keeps the height
        for i, (name, _params) in enumerate(models):
            combo = QComboBox()
            for m in MODEL_NAMES:
                combo.addItem(REGISTRY[m].label, m)
            combo.setCurrentIndex(combo.findData(name))
            settings = QLabel()  # which settings it is fitted with: the Bayesian view, the basis, ...
            settings.setTextFormat(Qt.TextFormat.PlainText)
            settings.setWordWrap(True)
            settings.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            form.addWidget(QLabel(f"Model {i + 1}"), 0, 2 * i)
            form.addWidget(combo, 0, 2 * i + 1)
            form.addWidget(settings, 1, 2 * i + 1)
            form.setColumnStretch(2 * i + 1, 1)
            combo.currentIndexChanged.connect(self._show_settings)
            combo.currentIndexChanged.connect(self._gate_run)
            self.models.append(combo)
            self.settings.append(settings)
        self._show_settings()
        self.sizes = QLineEdit("4,8,16,32,64,128,256,512,1000")
        self.sizes.setToolTip("Points per class on average (n K points shared by the priors, at least 2 a class)")
        self.seeds = QSpinBox()
        self.seeds.setRange(1, MAX_SEEDS)
        self.seeds.setValue(20)
        self.seeds.setToolTip("Training sets drawn per size")
        form.addWidget(QLabel("Sizes"), 2, 0)
        form.addWidget(self.sizes, 2, 1)
        form.addWidget(QLabel("Seeds"), 2, 2)
        form.addWidget(self.seeds, 2, 3)
        self.run_button = QPushButton("Run")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.export_button = QPushButton("Export…")
        self.export_button.setEnabled(False)
        self.progress = QProgressBar()
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.plot = SmallPlot(height=320)
        self.plot.setLogMode(x=True, y=False)
        self.plot.setLabel("bottom", "points per class")
        self.plot.setLabel("left", "true error")
        self.plot.getAxis("left").enableAutoSIPrefix(False)  # an error rate reads 0.08, not 80 (x0.001)
        self.plot.addLegend(offset=(-10, 10))
        self._foreground = pg.mkColor("#555555")
        style = getattr(parent, "style", None)
        if isinstance(style, Style):  # the Lab's theme, and its text size (presentation mode's larger one too)
            self.plot.apply_style(style)
            self._foreground = pg.mkColor(*style.foreground)
        row = QHBoxLayout()
        for b in (self.run_button, self.cancel_button, self.export_button):
            row.addWidget(b)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addLayout(row)
        lay.addWidget(self.progress)
        lay.addWidget(self.status)
        lay.addWidget(self.plot, 1)
        # as large as its text asks (presentation mode's left the plot 140 pixels tall at 1024 x 768), on the screen
        hint = self.sizeHint()
        fit_on_screen(self, max(640, hint.width()), max(640, hint.height() + 160))
        self.run_button.clicked.connect(lambda _checked=False: self.run())
        self.cancel_button.clicked.connect(lambda _checked=False: self.cancel())
        self.export_button.clicked.connect(lambda _checked=False: self.export())
        self.sizes.textChanged.connect(self._frame_the_sizes)
        self._frame_the_sizes()
        self._gate_run()

    def _typed_sizes(self) -> list[int] | None:
        """The sizes typed, or None when they are not whole numbers from 1 to MAX_SIZE."""
        try:
            sizes = [int(v) for v in self.sizes.text().split(",") if v.strip()]
        except ValueError:
            return None
        return sizes if sizes and all(1 <= n <= MAX_SIZE for n in sizes) else None

    def _frame_the_sizes(self):
        """Before a run, the empty plot spans the sizes typed (it showed 1 to 10, ticks 2 to 9, for sizes 4 to
        1000); a run's curves then reframe it."""
        sizes = self._typed_sizes()
        if sizes is not None and self.partial is None and self.result is None:
            self._frame_x(sizes)
            self.plot.setYRange(0.0, 0.5, padding=0.05)  # (clear of the edges: a label there was cut in half)

    def _frame_x(self, sizes):
        """The size axis over ``sizes``, ticked at them, with room beyond the first and last for their labels (at
        the edge pyqtgraph leaves a label out: "1000" was missing in presentation mode's text)."""
        lo, hi = min(sizes), max(sizes)
        self.plot.setXRange(np.log10(lo / 1.4), np.log10(hi * 1.4), padding=0)  # the axis is logarithmic
        self.plot.getAxis("bottom").setTicks([[(float(np.log10(n)), f"{n:g}") for n in sorted(set(sizes))]])

    def _show_settings(self, *_):
        for combo, label in zip(self.models, self.settings):
            text = REGISTRY[combo.currentData()].settings_text(self.params.get(combo.currentData(), {}))
            label.setText("Fitted with " + text if text else "No settings")

    def _gate_run(self, *_):
        """Run waits, saying why, for two different models (not while a run goes on: its end does this)."""
        if self._thread is not None:
            return
        same = self._same_model()
        self.run_button.setEnabled(not same)
        if same:
            self.status.setText(SAME_MODEL)
        elif self.status.text() == SAME_MODEL:
            self.status.setText("")

    def _same_model(self) -> bool:
        """Both models alike: their curves would be one curve drawn twice."""
        return len({c.currentData() for c in self.models}) < len(self.models)

    def chosen(self):
        names = [c.currentData() for c in self.models]
        return [(n, self.params.get(n, {})) for n in names]

    def run(self):
        sizes = self._typed_sizes()
        if self._same_model():
            self.status.setText(SAME_MODEL)
            return
        if sizes is None:
            self.status.setText(f"Sizes: whole numbers from 1 to {MAX_SIZE:,}, separated by commas")
            return
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.export_button.setEnabled(False)
        self.result, self.partial, self._sizes, self._cancelled = None, None, sizes, False
        self.progress.setRange(0, len(sizes) * self.seeds.value())
        self.progress.setValue(0)
        self._start(0)

    def _start(self, i):
        """The worker for size ``i`` alone (each (size, seed) draws its own set, so one size at a time gives
        the same curves as the whole run at once)."""
        self._at = i
        collect_on_gui_thread()
        self.status.setText(f"Fitting size {self._sizes[i]} ({i + 1} of {len(self._sizes)})…")
        self._thread = QThread(self)
        self._worker = _CurveWorker(self.truth, self.chosen(), [self._sizes[i]], self.seeds.value(), self.names)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.progress.connect(self._progress)
        self._worker.done.connect(self._size_done)
        self._thread.start()

    def _progress(self, done, total):
        self.progress.setValue(self._at * total + done)

    def cancel(self):
        self._cancelled = True
        if self._thread is not None:
            self._worker.cancelled = True

    def _stop_thread(self):
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait(10_000)
            self._thread = None

    def _size_done(self, result):
        self._stop_thread()
        if isinstance(result, dict):
            self.partial = self._joined(self.partial, result)
            self.draw(self.partial)
        done = 0 if self.partial is None else len(self.partial["sizes"])
        if isinstance(result, dict) and not self._cancelled and done < len(self._sizes):
            self._start(done)
            return
        self.run_button.setEnabled(not self._same_model())
        self.cancel_button.setEnabled(False)
        if isinstance(result, str):
            self.status.setText(result)
        elif done < len(self._sizes):
            self.status.setText(f"Cancelled: {done} of {len(self._sizes)} sizes drawn")
        else:
            self.result = self.partial
            self.export_button.setEnabled(True)
            self.status.setText(f"Bayes error {self.result['bayes_error']:.4g}; the mean over "
                                f"{self.result['seeds']} seeds, 10% and 90% dotted")

    def draw(self, r=None):
        r = self.result if r is None else r
        plot = self.plot
        plot.clear()
        legend = plot.plotItem.legend
        if legend is not None:
            legend.clear()
        sizes = np.asarray(r["sizes"], float)
        self._frame_x(sizes)  # ticks at the sizes run (the log axis's own minor labels crowd into each other)
        shown = [r["bayes_error"]]
        for i, (label, m) in enumerate(shown_labels(r).items()):
            c = OKABE_ITO[i % len(OKABE_ITO)]
            E = np.asarray(m["errors"], float)
            plot.plot(sizes, m["mean"], pen=pg.mkPen(c, width=2.5), symbol="o", symbolBrush=c, symbolSize=6,
                      name=label)
            shown += list(m["mean"])
            with np.errstate(invalid="ignore"):
                for q in (10, 90):
                    band = np.nanpercentile(E, q, axis=1)
                    plot.plot(sizes, band, pen=pg.mkPen(c, width=1, style=Qt.PenStyle.DotLine))
                    shown += list(band)
        plot.addItem(pg.InfiniteLine(r["bayes_error"], angle=0,
                                     pen=pg.mkPen(self._foreground, width=1.5, style=Qt.PenStyle.DashLine)))
        shown = np.asarray(shown, float)
        shown = shown[np.isfinite(shown)]
        if len(shown):  # every line whole, the dotted 10% and 90% too (they ran out of the top)
            plot.setYRange(float(shown.min()), float(shown.max()), padding=0.06)

    def export(self):
        from probviz.app.export import export_curves, learning_curves

        start = "learning-curves.png"
        if self.files is not None:  # where the last export went
            start = os.path.join(self.files.export_folder(), start)
        path, _ = QFileDialog.getSaveFileName(self, "Export the learning curves", start, "Figures (*.png *.svg *.pdf)")
        if not path:
            return
        curves, axes, bounds, ticks = learning_curves(self.result)
        try:
            if self.files is not None:
                self.files.check_output(path, "the export")
            export_curves(path, curves, axes, bounds=bounds, x_labels=ticks, title="Learning curves")
        except (OSError, ValueError) as e:
            QMessageBox.warning(self, "Export failed", str(e))
            return
        if self.files is not None:
            self.files.remember_export(path)

    def closeEvent(self, ev):  # noqa: N802
        self.cancel()
        self._stop_thread()
        super().closeEvent(ev)

    def reject(self):
        self.cancel()
        self._stop_thread()
        super().reject()

    @staticmethod
    def _joined(a, b: dict) -> dict:
        """learning_curve's results over consecutive sizes as one (``a`` None: ``b`` alone). A size at
        which a model never fitted has no mean: NaN keeps its place."""
        def mean(m, n):
            return m["mean"] or [float("nan")] * n

        b = {**b, "models": {k: {**m, "mean": mean(m, len(b["sizes"]))} for k, m in b["models"].items()}}
        if a is None:
            return b
        models = {label: {**m, **{k: m[k] + b["models"][label][k] for k in ("mean", "sd", "errors")}}
                  for label, m in a["models"].items()}
        return {**a, "sizes": a["sizes"] + b["sizes"], "models": models}

