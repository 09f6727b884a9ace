"""The side panel: classes, model and its parameters, layers, and the fit's numbers.

Two-way sync without feedback loops: widgets write to the Document; when the
Document changes, widgets are refreshed with their signals blocked.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap, QTransform
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QCheckBox, QColorDialog, QComboBox, QFormLayout, QGroupBox, QHBoxLayout,
    QHeaderView, QLabel, QPushButton, QTableWidget, QTableWidgetItem, QToolTip, QVBoxLayout, QWidget,
)

from probviz.app.document import MAX_CLASSES, Document
from probviz.app.figure import marker_path
from probviz.colors import class_marker
from probviz.app.teaching import ParamsBox, PriorsBox, ProbeBox, unbroken
from probviz.app.widgets import FocusRing, NumberField, guard_wheel
from probviz.layers import BAYESIAN_ONLY, GENERATIVE_ONLY, LAYER_LABELS, LAYERS, THETA_MAX
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


class Panel(QWidget):
    """Everything a person sets beside the canvas."""

    message = Signal(str)  # a line for the status bar

    def __init__(self, doc: Document, parent=None):
        super().__init__(parent)
        self.doc = doc
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
        self.model = QComboBox()
        guard_wheel(self.model)
        for name in MODEL_NAMES:
            self.model.addItem(REGISTRY[name].label, name)
        self.model.setToolTip("The classifier fitted to the points (M cycles through them)")
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
        doc.view_state.layers_changed.connect(self._sync_layers)
        self._on_reset()

    # --- document -> widgets --------------------------------------------------------------
    def _on_reset(self):
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
                else:
                    w.setChecked(bool(v))
        if "bayes" in self.param_widgets:  # the Bayesian view's prior replaces the penalty, not the other way
            bayes = bool(values.get("bayes"))
            self.param_widgets["l2"].setEnabled(not bayes)
            self.param_widgets["alpha"].setEnabled(bayes)

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
            else:
                w = QCheckBox()
                w.toggled.connect(lambda v, n=spec.name: self.doc.set_param(n, bool(v)))
            w.setToolTip(spec.help + (" Type a value, or use Up/Down." if spec.kind == "float" else ""))
            label = QLabel(spec.label)
            label.setToolTip(spec.help)
            self.form.addRow(label, w)
            self.param_widgets[spec.name] = w
        if "alpha" in self.param_widgets:
            self.evidence_button = QPushButton("Choose α by the evidence")
            self.evidence_button.setToolTip(
                "Set α to the value that maximises the Laplace evidence ln p(D|α) (Bishop eq. 4.137) of the "
                "points as they are (one undo step)")
            self.evidence_button.clicked.connect(self._choose_alpha)
            self.form.addRow(self.evidence_button)
        self._form_model = info.name

    def _choose_alpha(self):
        """Set alpha to the evidence's maximum for the points the fit sees (a split's training points)."""
        from probviz.bayes_view import evidence_fit

        doc = self.doc
        X, labels = doc.X, doc.labels
        held = doc.held_out()
        if held is not None:
            X, labels = X[~held], labels[~held]
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            lap = evidence_fit(X, labels, doc.params[doc.model_name])
        except ValueError as e:
            self.message.emit(f"Choose α: {e}")
            return
        finally:
            QApplication.restoreOverrideCursor()
        doc.undo_stack.beginMacro("Choose α by the evidence")
        doc.set_param("bayes", True)
        doc.set_param("alpha", float(lap.alpha))
        doc.undo_stack.endMacro()  # the Parameters box says the new alpha and its evidence

    def _sync_layers(self):
        generative = REGISTRY[self.doc.model_name].generative
        bayesian = bool(self.doc.params[self.doc.model_name].get("bayes"))
        for layer, cb in self.layer_boxes.items():
            with QSignalBlocker(cb):
                cb.setChecked(layer in self.doc.layers)
            if layer in BAYESIAN_ONLY:
                available = bayesian
                why = "Logistic regression's Bayesian view (Model > Bayesian view) draws it"
            else:
                available = generative or layer not in GENERATIVE_ONLY
                why = (f"{REGISTRY[self.doc.model_name].label} models p(C_k|x) directly: "
                       "it has no class densities to draw")
            cb.setEnabled(available)
            cb.setToolTip(LAYER_LABELS[layer][1] if available else why)
        self.theta.setValue(self.doc.theta)
        self.theta.setEnabled("decision" in self.doc.layers)

    def show_result(self, frame):
        self.params.show_result(frame)
        self.fisher.show_result(frame)
        self.probe.show_result(frame)
