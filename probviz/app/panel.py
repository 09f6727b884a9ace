"""The side panel: classes, model and its parameters, layers, and the fit's numbers.

Two-way sync without feedback loops: widgets write to the Document; when the
Document changes, widgets are refreshed with their signals blocked.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap, QTransform
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QColorDialog, QComboBox, QFormLayout, QGroupBox, QHBoxLayout,
    QHeaderView, QLabel, QPushButton, QTableWidget, QTableWidgetItem, QToolTip, QVBoxLayout, QWidget,
)

from probviz.app.document import MAX_CLASSES, Document
from probviz.app.figure import marker_path
from probviz.colors import class_marker
from probviz.app.teaching import ParamsBox, PriorsBox, ProbeBox, unbroken
from probviz.app.widgets import (
    NEEDS_TRUTH, DocumentLineEdit, FocusRing, NumberField, PanelScroll, WhenSeen, guard_wheel, labels_follow_fields,
)
from probviz.layers import BAYESIAN_ONLY, GENERATIVE_ONLY, LAYER_LABELS, LAYERS, THETA_MAX, TRUTH_ONLY
from probviz.app.projection import FisherBox
from probviz.models import MODEL_NAMES, REGISTRY

def swatch_icon(color: str, marker: str, size: int = 16) -> QIcon:
    """The class's marker in its colour, as on the canvas: unlike a cell background it stays visible
    when the row is selected."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(color))
    p.drawPath(QTransform(size - 1, 0, 0, size - 1, size / 2, size / 2).map(marker_path(marker)))
    p.end()
    icon = QIcon(pix)
    icon.addPixmap(pix, QIcon.Mode.Selected)  # no selection tint on the colour itself
    return icon


class ClassTable(QTableWidget):
    """One row a class: colour swatch, editable name, point count. The selected row is the active class."""

    def __init__(self, doc: Document, parent=None):
        super().__init__(0, 3, parent)
        self.doc = doc
        self.setHorizontalHeaderLabels(["", "Class", "N"])
        self.verticalHeader().setVisible(False)
        h = self.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        h.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setTabKeyNavigation(False)  # Tab moves on through the panel, not from cell to cell (and class)
        self.setToolTip("Keys 1-9 choose the class new points get; double-click a name to rename it, "
                        "the swatch to recolour it")
        self.itemChanged.connect(self._renamed)
        self.itemSelectionChanged.connect(self._selected)
        self.cellDoubleClicked.connect(self._double_clicked)

    def refresh(self):
        doc = self.doc
        counts = doc.counts()
        with QSignalBlocker(self):
            self.setRowCount(len(doc.classes))
            for i, c in enumerate(doc.classes):
                swatch = QTableWidgetItem(swatch_icon(c.color, class_marker(i)), "")
                swatch.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                swatch.setToolTip("Double-click to change the colour")
                name = QTableWidgetItem(c.name)
                name.setToolTip(f"Key {i + 1}" if i < 9 else "")
                n = QTableWidgetItem(str(counts[i]))
                n.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                n.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                for col, item in enumerate((swatch, name, n)):
                    self.setItem(i, col, item)
            if doc.classes:
                self.selectRow(doc.active_class)

    def _renamed(self, item):
        if item.column() == 1:
            try:
                self.doc.rename_class(item.row(), item.text())
            except ValueError as e:  # a name the document refuses (too long, a control character)
                where = self.viewport().mapToGlobal(self.visualItemRect(item).center())
                self.refresh()  # back to the name it has
                QToolTip.showText(where, f"Not renamed: {e}", self)

    def _selected(self):
        rows = {i.row() for i in self.selectedIndexes()}
        if rows:
            self.doc.set_active_class(rows.pop())

    def _double_clicked(self, row, col):
        if col == 0:
            color = QColorDialog.getColor(QColor(self.doc.classes[row].color), self, "Class colour")
            if color.isValid():
                self.doc.recolor_class(row, color.name().upper())


class _WideListCombo(QComboBox):
    """A combo box whose open list is as wide as its longest entry in the font of the moment (presentation
    mode's is larger), however narrow the box itself."""

    def showPopup(self):  # noqa: N802 (Qt's name)
        view = self.view()
        view.setMinimumWidth(view.sizeHintForColumn(0) + view.verticalScrollBar().sizeHint().width() + 8)
        super().showPopup()


def _alive(widget) -> bool:
    """Whether Qt still has the C++ object behind ``widget`` (a rebuilt form deletes its old buttons)."""
    from shiboken6 import isValid

    return isValid(widget)


class Panel(QWidget):
    """Everything a person sets beside the canvas."""

    message = Signal(str)  # a line for the status bar

    def __init__(self, doc: Document, parent=None):
        super().__init__(parent)
        self.doc = doc
        self._frame = None
        self.seen = WhenSeen(lambda: self._show_boxes(self._frame), on_screen=True)  # its numbers, while in front
        # no fixed minimum width: the layout's own (the widest formula, a form row) is what the scroll
        # area around the panel keeps, so nothing is squeezed out of sight in a narrow or presenting dock
        lay = QVBoxLayout(self)
        self.lesson = QLabel()
        self.lesson.setTextFormat(Qt.TextFormat.PlainText)  # a file's description is text, never markup
        font = self.lesson.font()
        font.setItalic(True)
        self.lesson.setFont(font)
        self.lesson.setWordWrap(True)
        self.lesson.setToolTip("What this example shows")
        lay.addWidget(self.lesson)

        box = QGroupBox("Classes")
        v = QVBoxLayout(box)
        self.classes = ClassTable(doc)
        v.addWidget(self.classes)
        row = QHBoxLayout()
        self.add_class = QPushButton("Add")
        self.add_class.setToolTip("Add a class (keys 1-9 also add classes up to that number)")
        self.remove_class = QPushButton("Remove")
        self.remove_class.setToolTip("Remove the selected class and its points (undoable)")
        row.addWidget(self.add_class)
        row.addWidget(self.remove_class)
        v.addLayout(row)
        lay.addWidget(box)
        self.add_class.clicked.connect(doc.add_class)
        self.remove_class.clicked.connect(lambda: doc.remove_class(doc.active_class))

        box = QGroupBox("Model")
        v = QVBoxLayout(box)
        self.model = _WideListCombo()
        guard_wheel(self.model)
        for name in MODEL_NAMES:
            self.model.addItem(REGISTRY[name].label, name)
        self.model.setToolTip("The classifier fitted to the points (M cycles through them)")
        # the longest name does not set the panel's width (in presentation mode it would make the dock scroll
        # sideways): the box is as wide as the panel lets it be, its list as wide as its longest entry
        self.model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model.setMinimumContentsLength(18)
        v.addWidget(self.model)
        self.description = QLabel()
        self.description.setWordWrap(True)
        v.addWidget(self.description)
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # a narrow panel: label above
        v.addWidget(self.form_host)
        lay.addWidget(box)
        self.model.currentIndexChanged.connect(lambda i: doc.set_model(self.model.itemData(i)))
        self.param_widgets: dict[str, QWidget] = {}

        box = QGroupBox("Layers")
        v = QVBoxLayout(box)
        self.layer_boxes: dict[str, QCheckBox] = {}
        for layer in LAYERS:
            cb = QCheckBox(LAYER_LABELS[layer][0])
            cb.setToolTip(LAYER_LABELS[layer][1])
            cb.toggled.connect(lambda on, name=layer: doc.set_layer(name, on))
            v.addWidget(cb)
            self.layer_boxes[layer] = cb
        lay.addWidget(box)

        row = QHBoxLayout()
        self.theta_label = QLabel("Reject θ")
        self.theta = NumberField(0.0, THETA_MAX, decimals=2, step=0.01)  # the range says where θ stops
        tip = ("Decision stage (Bishop 1.5.3): no decision where max_k p(C_k|x) < θ; 0 = always decide. "
               "Type a value, or use Up/Down")
        self.theta.setToolTip(tip)
        self.theta_label.setToolTip(tip)
        self.theta.valueChanged.connect(lambda v: doc.set_theta(round(float(v), 2)))
        row.addWidget(self.theta_label)
        row.addWidget(self.theta, 1)
        v.addLayout(row)
        row = QHBoxLayout()
        self.loss_label = QLabel("Loss L")
        self.loss = DocumentLineEdit()
        self.loss.setPlaceholderText("0-1, or e.g. 0,1;5,0")
        tip = ("Decision stage with losses (Bishop 1.5.2): row k, column j is the loss of choosing class j when "
               "the truth is class k, rows and columns in the order of the classes above, ';' between rows. "
               "The regions and boundaries show argmin_j Σ_k L_kj p(C_k|x) (eq. 1.81); with a reject θ, no "
               "decision where the least expected loss exceeds λ = 1 − θ. Empty: the 0-1 loss (the largest "
               "posterior). Press Enter to apply.")
        self.loss.setToolTip(tip)
        self.loss_label.setToolTip(tip)
        self.loss.editingFinished.connect(self._set_loss)
        row.addWidget(self.loss_label)
        row.addWidget(self.loss, 1)
        v.addLayout(row)
        self.loss_note = QLabel()
        self.loss_note.setWordWrap(True)
        self.loss_note.setTextFormat(Qt.TextFormat.PlainText)
        self.loss_note.hide()
        v.addWidget(self.loss_note)

        self.priors = PriorsBox(doc)
        lay.addWidget(self.priors)
        self.params = ParamsBox(doc)
        lay.addWidget(self.params)
        self.fisher = FisherBox(doc)
        lay.addWidget(self.fisher)
        self.probe = ProbeBox(doc)
        lay.addWidget(self.probe)
        lay.addStretch(1)
        self.focus_ring = FocusRing(self)  # where Tab has taken the keyboard, plainly

        doc.reset.connect(self._on_reset)
        doc.points_changed.connect(self._on_counts_changed)  # not points_moved: a drag changes no count
        doc.classes_changed.connect(self._on_counts_changed)
        doc.view_state.active_class_changed.connect(self._sync_classes)
        doc.model_changed.connect(self._on_model_changed)
        doc.theta_changed.connect(self._sync_layers)
        doc.loss_changed.connect(self._sync_loss)
        doc.classes_changed.connect(self._sync_loss)
        doc.view_state.layers_changed.connect(self._sync_layers)
        doc.truth_changed.connect(self._sync_layers)  # the error against the truth needs one
        doc.classes_changed.connect(self._sync_layers)
        for changed in (doc.points_changed, doc.points_moved, doc.classes_changed, doc.model_changed,
                        doc.view_state.analysis_changed):  # the points the evidence saw, or its alpha, changed
            changed.connect(self._evidence_outdated)
        for changed in (doc.points_changed, doc.points_moved, doc.classes_changed, doc.model_changed,
                        doc.truth_changed):  # a lesson's text quotes the example's numbers as it opened
            changed.connect(self._lesson_outdated)
        doc.undo_stack.indexChanged.connect(self._lesson_at)  # undone back to it: true again
        self._on_reset()

    # --- document -> widgets --------------------------------------------------------------
    def _set_loss(self):
        """The loss field's text applied (Enter or leaving the field): the document's loss matrix, or the 0-1
        loss when empty; a matrix it cannot take says why beside the field and goes back to the one in use."""
        from probviz.decision import parse_loss

        text = self.loss.text().strip()
        try:
            self.doc.set_loss(parse_loss(text, len(self.doc.classes)) if text else None)
        except ValueError as e:
            QToolTip.showText(self.loss.mapToGlobal(self.loss.rect().bottomLeft()), f"Not applied: {e}", self.loss)
            self.message.emit(f"Loss matrix not applied: {e}")
        self._sync_loss()

    def _sync_loss(self):
        L = self.doc.loss
        text = "" if L is None else ";".join(",".join(f"{v:g}" for v in row) for row in L)
        if self.loss.text() != text:
            with QSignalBlocker(self.loss):
                self.loss.setText(text)
        stale = L is not None and self.doc.usable_loss() is None
        self.loss_note.setText(f"The loss matrix has {len(L)} rows; the data have {len(self.doc.classes)} classes: "
                               f"the 0-1 loss decides until it has one row and column per class." if stale else "")
        self.loss_note.setVisible(stale)

    #: added under a file's description once the document has changed: its numbers are the opened example's
    CHANGED_SINCE = "(Written for the example as it opened: its numbers change with the points and the model.)"

    def _on_reset(self):
        self._sync_loss()
        self.lesson.setText(unbroken(self.doc.description))
        self.lesson.setVisible(bool(self.doc.description))
        self._on_counts_changed()
        self._on_model_changed()

    def _on_counts_changed(self):
        self._sync_classes()
        self._refresh_priors()

    def _on_model_changed(self):
        self._sync_model()
        self._sync_layers()
        self._refresh_priors()

    def _refresh_priors(self):
        """"Reset to frequencies" disables itself; Qt would hand its focus to the next control down the
        panel and scroll there. The first prior's field, just above, takes it instead: nothing moves."""
        reset = self.priors.reset
        if reset.hasFocus() and self.doc.priors is None and self.priors.fields:
            self.priors.fields[0].spin.setFocus(Qt.FocusReason.OtherFocusReason)
        self.priors.refresh()

    def _sync_classes(self):
        self.classes.refresh()
        self.remove_class.setEnabled(len(self.doc.classes) > 1)
        self.add_class.setEnabled(len(self.doc.classes) < MAX_CLASSES)

    def _sync_model(self):
        doc = self.doc
        info = REGISTRY[doc.model_name]
        with QSignalBlocker(self.model):
            self.model.setCurrentIndex(MODEL_NAMES.index(doc.model_name))
        self.description.setText(info.description)
        if getattr(self, "_form_model", None) != doc.model_name:
            self._build_form(info)
        values = doc.params[doc.model_name]
        for spec in info.params:
            w = self.param_widgets[spec.name]
            with QSignalBlocker(w):
                v = values[spec.name]
                if spec.kind == "float":
                    w.setValue(float(v))
                elif spec.kind == "choice":
                    w.setCurrentIndex(list(spec.choices).index(v))
                elif spec.kind == "text":
                    w.setText(str(v))
                else:
                    w.setChecked(bool(v))
        if "bayes" in self.param_widgets:  # the Bayesian view's prior replaces the penalty, not the other way
            bayes = bool(values.get("bayes"))
            self.param_widgets["l2"].setEnabled(not bayes)
            self.param_widgets["alpha"].setEnabled(bayes)
        if "centers" in self.param_widgets:  # the radial basis's centres and width: for the rbf basis only
            rbf = values.get("basis") == "rbf"
            for name in ("centers", "width"):
                self.param_widgets[name].setEnabled(rbf)
            self.feature_button.setEnabled(rbf)
            self.param_widgets["standardize"].setEnabled(not rbf)  # the Gaussians are in the units of x
            if "bayes" in self.param_widgets:  # the Laplace view takes the polynomial bases only
                box = self.param_widgets["bayes"]
                box.setEnabled(not rbf or box.isChecked())  # once on, it can always be turned off
                box.setToolTip(self._bayes_tip if not rbf else "The Bayesian view (Laplace) takes the linear, "
                               "quadratic and cubic bases; choose one of those for it")
                self.evidence_button.setEnabled(not rbf)
                self.evidence_button.setToolTip(self._alpha_tip if not rbf else "The evidence for α is the "
                                                "Bayesian view's: choose a linear, quadratic or cubic basis")

    def _build_form(self, info):
        while self.form.rowCount():
            self.form.removeRow(0)
        self.param_widgets = {}
        for spec in info.params:
            if spec.kind == "float" and spec.log_scale:
                w = NumberField(spec.minimum, spec.maximum, decimals=4, step=0.001, log_from=1e-4)
                w.valueChanged.connect(lambda v, n=spec.name: self.doc.set_param(n, v))
            elif spec.kind == "float":
                w = NumberField(spec.minimum, spec.maximum, decimals=3, step=0.01)
                w.valueChanged.connect(lambda v, n=spec.name: self.doc.set_param(n, v))
            elif spec.kind == "choice":
                w = QComboBox()
                w.addItems(list(spec.choices))
                guard_wheel(w)
                w.currentTextChanged.connect(lambda v, n=spec.name: self.doc.set_param(n, v))
            elif spec.kind == "text":  # applied on Enter or leaving the field; a bad text is said, not taken
                w = DocumentLineEdit()
                w.setPlaceholderText("none")
                w.editingFinished.connect(lambda n=spec.name: self._set_text_param(n))
            else:
                w = QCheckBox()
                w.toggled.connect(lambda v, n=spec.name: self.doc.set_param(n, bool(v)))
            w.setToolTip(spec.help + (" Type a value, or use Up/Down." if spec.kind == "float" else ""))
            label = QLabel(spec.label)
            label.setToolTip(spec.help)
            self.form.addRow(label, w)
            self.param_widgets[spec.name] = w
        if "width" in self.param_widgets:  # 0: the default width, said as such
            self.param_widgets["width"].spin.setSpecialValueText("auto")
            self.feature_button = QPushButton("Feature space (φ₁, φ₂)…")
            self.feature_button.setToolTip("The points at (φ₁(x), φ₂(x)) of the first two basis functions, where "
                                           "with two centres the curved boundary is a straight line (Bishop 4.3.1, "
                                           "figure 4.12)")
            self.feature_button.clicked.connect(self._open_feature_space)
            self.form.addRow(self.feature_button)
        if "alpha" in self.param_widgets:
            self.evidence_button = QPushButton("Choose α by the evidence")
            self.evidence_button.setToolTip(
                "Set α to the value that maximises the Laplace evidence ln p(D|α) (Bishop eq. 4.137) of the "
                "points as they are, turning the Bayesian view on (one undo step)")
            self.evidence_button.clicked.connect(self._choose_alpha)
            self._alpha_tip = self.evidence_button.toolTip()
            if "bayes" in self.param_widgets:
                self._bayes_tip = self.param_widgets["bayes"].toolTip()
            self.form.addRow(self.evidence_button)
            self.basis_button = QPushButton("Choose the basis by the evidence")
            self.basis_button.setToolTip(
                "Fit the linear, quadratic and cubic bases, each at the α that maximises its evidence, and keep "
                "the basis whose evidence ln p(D) is largest (Bishop 4.4.1: which model do the data support; "
                "one undo step)")
            self.basis_button.clicked.connect(self._choose_basis)
            self.form.addRow(self.basis_button)
            self.evidence_note = QLabel()  # what the evidence said, until the form is rebuilt
            self.evidence_note.setWordWrap(True)
            self.evidence_note.setTextFormat(Qt.TextFormat.PlainText)
            self.evidence_note.hide()
            self.form.addRow(self.evidence_note)
        labels_follow_fields(self.form)
        self._form_model = info.name

    def _set_text_param(self, name: str):
        w = self.param_widgets.get(name)
        if w is None or all(p.name != name for p in REGISTRY[self.doc.model_name].params):
            return  # the field of a model no longer chosen, losing focus as its form goes
        try:
            self.doc.set_param(name, w.text())
        except ValueError as e:
            QToolTip.showText(w.mapToGlobal(w.rect().bottomLeft()), f"Not applied: {e}", w)
            with QSignalBlocker(w):
                w.setText(str(self.doc.params[self.doc.model_name][name]))

    def _choose_alpha(self):
        """Set alpha to the evidence's maximum for the points the fit sees (a split's training points)."""
        from probviz.bayes_view import evidence_fit

        def apply(lap):
            self.doc.set_param("alpha", float(lap.alpha))
            return (f"α = {lap.alpha:.4g} maximises the evidence ln p(D|α) = {lap.total_log_evidence:.4f} "
                    "(Bishop eq. 4.137)")

        self._evidence_search(self.evidence_button, "Choose α", "Choosing α…",
                              lambda X, labels, params: evidence_fit(X, labels, params), apply)

    def _choose_basis(self):
        """Set the basis (and its alpha) whose evidence, each at its own best alpha, is the largest."""
        from probviz.bayes_view import basis_evidence

        def work(X, labels, params):
            present = np.unique(labels)
            if len(present) < 2:
                raise ValueError("the evidence needs points of two classes or more")
            codes = np.searchsorted(present, labels)
            return basis_evidence(X, codes, len(present), "evidence", params["standardize"])

        def apply(by_basis):
            best = max(by_basis, key=lambda b: by_basis[b]["log_evidence"])
            self.doc.set_param("basis", best)
            self.doc.set_param("alpha", float(by_basis[best]["alpha"]))
            each = ", ".join(f"{b} {v['log_evidence']:.2f}" for b, v in by_basis.items())
            return f"The evidence ln p(D) (Bishop eq. 4.137), each basis at its best α: {each}: {best} it is"

        self._evidence_search(self.basis_button, "Choose the basis", "Choosing the basis…", work, apply)

    def _evidence_search(self, button, what: str, busy: str, work, apply):
        """Run ``work(X, labels, params)`` on the points the fit sees (a split's training points) on a thread
        of its own (seconds for 100,000 points): the window stays live. Its answer goes to ``apply``, with the
        Bayesian view on, as one undo step named by the button -- unless the points or the model changed
        meanwhile, which is said instead. ``apply`` returns the status line's message."""
        from probviz.app.background import Background

        doc = self.doc
        X, labels = doc.X, doc.labels
        held = doc.held_out()
        if held is not None:
            X, labels = X[~held], labels[~held]
        asked = (doc.revision, doc.model_name, dict(doc.params[doc.model_name]))
        params = dict(doc.params[doc.model_name])
        idle = button.text()
        button.setEnabled(False)
        button.setText(busy)
        self.message.emit(busy)

        def answer(result):
            if not _alive(button):  # the model's form was rebuilt meanwhile
                return
            button.setEnabled(True)
            button.setText(idle)
            if isinstance(result, Exception):
                self.message.emit(f"{what}: {result}")
            elif (doc.revision, doc.model_name, doc.params[doc.model_name]) != asked:
                self.message.emit(f"{what}: the points or the model changed meanwhile; press it again")
            else:
                doc.undo_stack.beginMacro(idle)
                doc.set_param("bayes", True)
                said = apply(result)
                doc.undo_stack.endMacro()  # the Parameters box says the new alpha and its evidence
                self.message.emit(said)
                note = getattr(self, "evidence_note", None)
                if note is not None and _alive(note):  # kept in view: the status line soon shows the fit
                    note.setText(said)
                    note.show()

        self._evidence_job = Background(lambda: work(X, labels, params), self)
        self._evidence_job.done.connect(answer)
        self._evidence_job.start()

    def _lesson_outdated(self, *_):
        """The document changed since it opened: its description (the fruit's "the probe gets p(apple|x) =
        0.823") says so under it, instead of contradicting the probe a sample or another model has changed. Every
        change is a step of the undo history, which opening a file empties: undone back to its start, the document
        is as it opened, and the line goes."""
        self._lesson_at(self.doc.undo_stack.index())

    def _lesson_at(self, index: int) -> None:
        """The lesson's text at the undo history's step ``index`` (0: as the document opened). (The index comes
        with the stack's signal: a stack being destroyed empties itself, and is not asked.)"""
        if not self.doc.description:
            return
        text = unbroken(self.doc.description) + ("\n" + self.CHANGED_SINCE if index != 0 else "")
        if self.lesson.text() != text:
            scroll = self.parentWidget().parentWidget() if self.parentWidget() is not None else None
            if isinstance(scroll, PanelScroll):  # the first edit adds a line at the top: what is read stays put
                scroll.hold_view()
            self.lesson.setText(text)

    def _evidence_outdated(self):
        """What the evidence said (alpha maximises it) held for the points and the model it saw: gone once they
        change (after brushing in more points it went on claiming an alpha that no longer maximises anything)."""
        note = getattr(self, "evidence_note", None)
        if note is not None and _alive(note):
            note.hide()

    def _sync_layers(self):
        generative = REGISTRY[self.doc.model_name].generative
        bayesian = bool(self.doc.params[self.doc.model_name].get("bayes"))
        for layer, cb in self.layer_boxes.items():
            with QSignalBlocker(cb):
                cb.setChecked(layer in self.doc.layers)
            if layer in BAYESIAN_ONLY:
                available = bayesian
                why = "Logistic regression's Bayesian view (Model > Bayesian view) draws it"
            elif layer in TRUTH_ONLY:
                available = self.doc.usable_truth() is not None
                why = "It needs " + NEEDS_TRUTH
            else:
                available = generative or layer not in GENERATIVE_ONLY
                why = (f"{REGISTRY[self.doc.model_name].label} models p(C_k|x) directly: "
                       "it has no class densities to draw")
            cb.setEnabled(available)
            cb.setToolTip(LAYER_LABELS[layer][1] if available else why)
        self.theta.setValue(self.doc.theta)
        self.theta.setEnabled("decision" in self.doc.layers)

    def _open_feature_space(self):
        from probviz.app.feature_view import FeatureSpaceDialog

        canvas = getattr(self.window(), "canvas", None)  # the window's theme (its canvas holds the Style)
        self.feature_space = FeatureSpaceDialog(self, canvas.style if canvas is not None else None)
        self.feature_space.show_frame(getattr(self, "_frame", None))
        self.feature_space.show()

    def show_result(self, frame):
        self._frame = frame
        view = getattr(self, "feature_space", None)
        if view is not None and _alive(view):
            view.show_frame(frame)  # the feature space follows the canvas
        # behind the Training panel (as the Step key brings it) a step leaves the boxes alone: their texts
        # laid the hidden panel out again at every step (about 3 ms)
        self.seen.show()

    def _show_boxes(self, frame):
        self.params.show_result(frame)
        self.fisher.show_result(frame)
        self.probe.show_result(frame)

