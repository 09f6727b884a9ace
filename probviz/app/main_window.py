"""The main window: canvas in the centre, the panel docked on the right, menus, toolbar, status line."""

from __future__ import annotations

import html
import math
import os
import re

import numpy as np
from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction, QActionGroup, QColor, QFont, QFontMetricsF, QGuiApplication, QKeySequence, QShortcut,
)
from PySide6.QtWidgets import (
    QApplication, QDialog, QLabel, QMainWindow, QMessageBox, QWidget,
)

from probviz import __version__
from probviz.app.canvas import Canvas
from probviz.colors import class_marker
from probviz.style import Style
from probviz.app.export import export_figure, figure_format
from probviz.figure_layout import legend_key, shown_label
from probviz.app.export_dialog import ExportDialog
from probviz.app.theme import apply_theme, desktop_prefers_dark
from probviz.app.document import MAX_CLASSES, Document
from probviz.app.fileops import FileOps
from probviz.app.panel import Panel
from probviz.app.refit import FrameSource, Paced, Refitter
from probviz.app.slides import SlideShow
from probviz.app.lab import LabPanel
from probviz.app.training import TrainingPanel
from probviz.app.weights import WeightPanel
from probviz.app.widgets import (
    NEEDS_TRUTH, Dock, ElidedLabel, NumberField, PanelScroll, ReadoutLabel, ShortcutsDialog, on_a_keyboard, undo_icon,
)
from probviz.data import examples
from probviz.layers import BAYESIAN_ONLY, GENERATIVE_ONLY, LAYER_LABELS, LAYER_SETS, LAYERS, TRUTH_ONLY
from probviz.models import MODEL_NAMES, REGISTRY
from probviz.report import at_pixel, decimals

PRESENTATION_SCALE = 1.8
PRESENTATION_FONT = 1.6  # menus, panel, status line
READOUT_SHARE = 0.55  # of the status bar's width, at most, for the readout under the cursor: the rest keeps the counts
CAPTION_SCALE = 1.3  # the presentation caption's text, against the plot's (never smaller than the plot's)
LAYOUT_VERSION = 3  # of the saved dock layout: 2 has the Training and Lab docks beside the Model panel, 3 Weights
MAX_PANEL_SHARE = 0.4  # of the window's width, at most, for a side panel restored from the last session


def likelihood_symbol(kind: str) -> str:
    """The short form of a summary's likelihood kind, for the status line."""
    return "Σ_k ln p(t_k|X)" if "one-vs-rest" in kind else kind.split(" ", 1)[1]


CAPTION_SEP = "  ·  "  # between the caption's parts


def _pieces(parts, sep: str = CAPTION_SEP, split: bool = False) -> list[tuple[str, str]]:
    """The caption as (text, what joins it to the text before it on a line): its parts, joined by ``sep``; with
    ``split``, each part also broken after its commas ("Logistic regression, Gradient descent, step 3")."""
    out = []
    for part in parts:
        pieces = re.split(r"(?<=,) ", part) if split else [part]
        out += [(piece, sep if i == 0 else " ") for i, piece in enumerate(pieces)]
    return out


def _packed(parts, fm: QFontMetricsF, room: float, sep: str = CAPTION_SEP, title: bool = False,
            wrap: bool = False, split: bool = False) -> list[str]:
    """The caption's parts on as few lines of at most ``room`` pixels as they fit, in order; with ``title``,
    the first part (a slide's title) is a line of its own unless everything fits on one; with ``split``, a
    line may also break after a comma inside a part; with ``wrap``, a part wider than ``room`` is broken
    between its words."""
    if title and len(parts) > 1 and fm.horizontalAdvance(sep.join(parts)) > room:
        first = _wrapped(parts[0], fm, room) if wrap else [parts[0]]
        return first + _packed(parts[1:], fm, room, sep, wrap=wrap, split=split)
    lines = []
    for piece, joint in _pieces(parts, sep, split):
        if lines and fm.horizontalAdvance(lines[-1] + joint + piece) <= room:
            lines[-1] += joint + piece
        else:
            lines.extend(_wrapped(piece, fm, room) if wrap else [piece])
    return lines


def _wrapped(part: str, fm: QFontMetricsF, room: float) -> list[str]:
    """One caption part on lines of at most ``room`` pixels, broken between words: a part cut with "…"
    would lose its end, and the end is what changes (a training run's "step 3")."""
    lines = []
    for word in part.split(" "):
        if lines and fm.horizontalAdvance(lines[-1] + " " + word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _counted(name: str) -> str:
    """A class's name where the status line counts its points: "class 3" for a name that is a number."""
    try:
        float(name)
    except ValueError:
        return name
    return f"class {name}"


def decided_text(decided: dict) -> str:
    """The status line's account of the decision drawn (a loss matrix's, the reject option's): its accuracy (a
    rejected point is not right), how many it rejects and its expected loss per point (Bishop eq. 1.80)."""
    # "decided": in presentation mode the line starts here (the caption names the model), and must say what it is
    how = "decided by the loss" if decided.get("loss") else "decided with the 0-1 loss"
    rejected, cost = "", decided.get("reject_cost")
    if cost is not None:
        how, rejected = f"{how}, rejecting at λ = {cost:.3g}", f", {decided['rejected']} rejected"
    return (f"{how}: accuracy {100 * decided['accuracy']:.1f}%{rejected}, expected loss "
            f"{decided['expected_loss']:.4g} per point (eq. 1.80)")


class MainWindow(QMainWindow):
    closed = Signal()  # the window closed for good (its work saved, or kept for the next start)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.doc = Document(self)
        self.canvas = Canvas(self.doc)
        self.setCentralWidget(self.canvas)
        self.panel = Panel(self.doc)
        scroll = PanelScroll(self.panel)
        self.training = TrainingPanel(self.doc)
        self.lab = LabPanel(self.doc)
        self.weights = WeightPanel(self.doc)
        # three docks on the right, tabbed: the model's panel first
        self.dock = self._dock("Model", "panel", scroll)
        self.training_dock = self._dock("Training", "training", self.training)
        self.lab_dock = self._dock("Lab", "lab", self.lab)
        self.weights_dock = self._dock("Weights", "weights", PanelScroll(self.weights))
        self.tabifyDockWidget(self.dock, self.training_dock)
        self.tabifyDockWidget(self.training_dock, self.lab_dock)
        self.tabifyDockWidget(self.lab_dock, self.weights_dock)
        self.dock.raise_()
        self.dock.visibilityChanged.connect(self._dock_shown)
        self.training_dock.visibilityChanged.connect(self._dock_shown)  # "." shows it, in F5 too

        self.message = ElidedLabel()  # the fit's summary: cut with "…" (whole in its tooltip), never overlapped
        self.hover = ReadoutLabel()  # the readout under the cursor: at most READOUT_SHARE of the bar (resizeEvent)
        for label in (self.message, self.hover):
            label.setTextFormat(Qt.TextFormat.PlainText)  # class names are text, never markup
        self.statusBar().addWidget(self.message, 1)
        self.busy_label = QLabel()
        self.statusBar().addPermanentWidget(self.hover)
        self.statusBar().addPermanentWidget(self.busy_label)
        self._flash_timer = QTimer(self, singleShot=True, interval=4000)
        self._flash_timer.timeout.connect(self._show_status)

        self.refitter = Refitter(FrameSource(self.doc, self.canvas, lambda: self.lab.seen.on_screen,
                                             lambda: self.weights.aspect() if self.weights.seen.on_screen else 0.0),
                                 self)
        self.canvas.rested.connect(self.refitter.redraw)  # the hand stopped: the exact curves, same fits
        # a drag's edit is fitted in its own mouse event: the paint that follows shows the point with its fit (a
        # zero-delay timer fires after that paint, and the fit waited for the next one)
        self.canvas.dragged.connect(self.refitter.flush)
        # every frame goes straight to the views that show it; the window shows its status line and caption
        self._paced_panel = Paced(self.panel.show_result, parent=self)  # its numbers, at most 10 times a second in a drag
        self._paced_numbers = Paced(self._show_numbers, parent=self)  # the status line's, likewise
        self._paced_hover = Paced(lambda _frame: self._refresh_hover(), parent=self)  # the readout's, likewise
        for view_of_frame in (self.canvas.show_frame, self._paced_panel, self.lab.show_result,
                              self.weights.show_result, self.training.show_frame, self._on_result,
                              self._paced_numbers):
            self.refitter.ready.connect(view_of_frame)
        self.refitter.busy.connect(self._on_busy)
        self.result = None  # the Frame on screen
        self.result_summary_shown = None
        self._n_points = 0

        self.files = FileOps(self.doc, self)
        self.lab.files = self.files  # its exports start where the window's go and never overwrite an open file
        self.files.session_opened.connect(self.load_session)
        self.files.data_opened.connect(self.load)
        self.files.message.connect(self.flash)
        self.files.failed.connect(self.error)
        self.files.title_changed.connect(self.update_title)
        self.slides = SlideShow(self)  # a lesson deck, shown slide by slide (the deck is then the document)
        self.files.deck_opened.connect(self.slides.open)
        self.files.deck = self.slides
        self.slides.changed.connect(self.update_title)
        self.slides.changed.connect(self._update_caption)
        self.setAcceptDrops(True)
        self._build_actions()
        doc, view = self.doc, self.doc.view_state
        doc.reset.connect(self._on_reset)
        doc.points_changed.connect(self._on_points_changed)
        # the drag path runs one way: document -> canvas and refitter -> pipeline -> views
        doc.points_moved.connect(self.canvas.show_document_points)
        doc.points_moved.connect(self.refitter.refit)
        doc.classes_changed.connect(self._on_classes_changed)
        doc.model_changed.connect(self._on_model_changed)
        doc.reset.connect(lambda: self.training.sync(new_run=False))  # an opened session's run as saved
        for signal in (doc.model_changed, doc.classes_changed):
            signal.connect(self.training.sync)
        for signal in (doc.points_changed, doc.points_moved):
            signal.connect(self.training.data_changed)
        view.training_changed.connect(self.refitter.refit)
        self.lab_dock.visibilityChanged.connect(self.refitter.redraw)  # its true errors
        self.lab_dock.visibilityChanged.connect(self.lab.seen.set_on_screen)  # its table and plot, when seen
        self.dock.visibilityChanged.connect(self.panel.seen.set_on_screen)  # its numbers, likewise
        self.training_dock.visibilityChanged.connect(self.training.seen.set_on_screen)  # its error plot
        self.weights_dock.visibilityChanged.connect(self.weights.seen.set_on_screen)  # before the redraw it asks for
        self.weights_dock.visibilityChanged.connect(self.refitter.redraw)  # its weight space, computed when seen
        self.weights.reshaped.connect(self.refitter.redraw)  # ... and for the plot's shape
        view.weights_changed.connect(self.refitter.redraw)
        self.weights.message.connect(self.flash)
        self.training.changed.connect(self.refitter.refit)
        self.lab.message.connect(self.flash)
        self.panel.message.connect(self.flash)
        doc.probe_changed.connect(self.refitter.redraw)
        doc.theta_changed.connect(self.refitter.redraw)
        doc.loss_changed.connect(self.refitter.redraw)  # the same fits, decided with other losses
        view.layers_changed.connect(self._on_layers_changed)
        view.analysis_changed.connect(self.refitter.refit)
        doc.truth_changed.connect(self.refitter.redraw)
        doc.truth_changed.connect(self._sync_layer_actions)  # the error against the truth needs one
        view.active_class_changed.connect(self._on_active_class)
        self.doc.modified_changed.connect(self._on_modified_changed)
        self.canvas.hovered.connect(self._hovered)
        self.canvas.left.connect(self._refresh_hover)
        self.canvas.vb.sigRangeChanged.connect(self._cursor_moved_in_view)  # a cursor at rest over a zoom,
        self.canvas.vb.sigResized.connect(self._cursor_moved_in_view)  # Fit view, or a plot that F5 moved
        self.canvas.vb.sigRangeChanged.connect(lambda *_: self._view_moved())
        self.canvas.vb.sigResized.connect(lambda *_: self._update_caption())  # F9 narrows the canvas
        self._base_font = QApplication.font()
        self._before_presentation = None  # (dock layout, view, legend shown) while presenting
        self._restore_settings()

    # --- actions ------------------------------------------------------------------------
    def _build_actions(self):
        mb = self.menuBar()
        stack = self.doc.undo_stack

        file = mb.addMenu("&File")
        self._action(file, "&New", self.new_document, QKeySequence.StandardKey.New)
        self._action(file, "&Open…", self.files.open_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = file.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        ex = file.addMenu("&Examples")
        for name, (lesson, _) in examples.EXAMPLES.items():
            a = self._action(ex, name, lambda checked=False, n=name: self.open_example(n))
            a.setToolTip(lesson)
            a.setStatusTip(lesson)
        self.slides.add_deck_menu(file)
        file.addSeparator()
        self._action(file, "&Save", self.files.save, QKeySequence.StandardKey.Save)
        self._action(file, "Save &As…", self.files.save_as, QKeySequence("Ctrl+Shift+S"))
        self._action(file, "Export &image…", self.export_dialog, QKeySequence("Ctrl+E"))
        self._action(file, "Export &data as CSV…", self.files.export_data)
        file.addSeparator()
        self.quit_action = self._action(file, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        edit = mb.addMenu("&Edit")
        undo = stack.createUndoAction(self, "&Undo")
        undo.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Undo))
        redo = stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit.addAction(undo)
        edit.addAction(redo)
        self.undo_action, self.redo_action = undo, redo
        edit.addSeparator()
        self._action(edit, "&Copy plot as image", self.copy_plot, QKeySequence.StandardKey.Copy)
        self._action(edit, "&Delete point or selection", self.canvas.delete_under_cursor_or_selection,
                     [QKeySequence(Qt.Key.Key_Delete), QKeySequence(Qt.Key.Key_Backspace)])
        self._action(edit, "Select &all", lambda: self.canvas.set_selection(np.arange(len(self.doc.X))),
                     QKeySequence.StandardKey.SelectAll)
        self._action(edit, "Clear selection", self._escape, QKeySequence(Qt.Key.Key_Escape))
        self._action(edit, "Move selection to the active &class", self.relabel_selection, QKeySequence("C"))
        edit.addSeparator()
        self._action(edit, "Add c&lass", self.doc.add_class)

        view = mb.addMenu("&View")
        self.layer_actions = {}
        for layer in LAYERS:
            a = self._action(view, LAYER_LABELS[layer][0],
                             lambda on, n=layer: self.doc.set_layer(n, on), checkable=True)
            a.setStatusTip(LAYER_LABELS[layer][1])
            self.layer_actions[layer] = a
        self._action(view, "Cycle layer sets", self.cycle_layers, QKeySequence("L"))
        view.addSeparator()
        self.legend_action = self._action(view, "&Legend", self._legend_toggled, checkable=True)
        self.presentation_action = self._action(view, "&Presentation mode", self.set_presentation,
                                                QKeySequence(Qt.Key.Key_F5), checkable=True)
        self.dark_action = self._action(view, "&Dark theme", self.set_dark, checkable=True)
        self._action(view, "F&ull screen", self.toggle_full_screen, QKeySequence(Qt.Key.Key_F11))
        panel = self.dock.toggleViewAction()
        panel.setText("Model &panel")
        panel.setShortcut(QKeySequence(Qt.Key.Key_F9))
        view.addAction(panel)
        training_panel = self.training_dock.toggleViewAction()  # every panel's toggle is here, in View
        training_panel.setText("&Training panel")
        view.addAction(training_panel)
        view.addSeparator()
        self.slides.add_notes_action(view)
        view.addSeparator()
        # Home is the first slide while a lesson deck is presented (slides.py sets the keys)
        self.fit_view_action = self._action(view, "&Fit view to data", self.canvas.fit_view,
                                            [QKeySequence("F"), QKeySequence(Qt.Key.Key_Home)])

        model = mb.addMenu("&Model")
        group = QActionGroup(self)
        self.model_actions = {}
        for name in MODEL_NAMES:
            a = self._action(model, REGISTRY[name].label, lambda checked=False, n=name: self.doc.set_model(n),
                             checkable=True)
            a.setStatusTip(REGISTRY[name].description)
            group.addAction(a)
            self.model_actions[name] = a
        model.addSeparator()
        self._action(model, "&Next model", self.cycle_model, QKeySequence("M"))

        tools = mb.addMenu("&Tools")
        tb = self.addToolBar("Tools")
        tb.setObjectName("tools")
        group = QActionGroup(self)
        self.tool_actions = {}
        for tool, label, key, tip in (
                ("add", "Add / move", "P", "Click to add a point of the active class; drag a point to move it"),
                ("brush", "Brush", "B", "Drag to spray points of the active class"),
                ("select", "Select", "S", "Drag a rectangle to select points; drag the selection to move it"),
                ("section", "Section", "X", "Drag a line across the canvas: the Lab panel plots p(C_k|x) along it")):
            a = self._action(tools, label, lambda checked=False, t=tool: self.set_tool(t), QKeySequence(key),
                             checkable=True)
            a.setToolTip(f"{tip} ({key})")
            a.setStatusTip(tip)
            group.addAction(a)
            tb.addAction(a)
            self.tool_actions[tool] = a
        self.tool_actions["add"].setChecked(True)
        self.brush_radius = NumberField(2, 200, decimals=0, step=1)
        self.brush_radius.setValue(self.canvas.brush_radius)
        self.brush_radius.setToolTip("Brush radius in screen pixels: type a value, or use Up/Down")
        self.brush_radius.setMaximumWidth(220)
        self.brush_radius.valueChanged.connect(lambda v: setattr(self.canvas, "brush_radius", float(v)))
        tb.addWidget(QLabel(" radius "))
        tb.addWidget(self.brush_radius)
        tb.addSeparator()
        self._history_actions = (undo, redo)  # their icons drawn in the theme's ink (_restyle)
        for action, icon in ((undo, undo_icon()), (redo, undo_icon(redo=True))):
            action.setIcon(icon)
            tb.addAction(action)
            # "Undo Move point" is a menu's text: the toolbar shows the icon, the tooltip the text
            tb.widgetForAction(action).setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        tb.addSeparator()
        fit = QAction("Fit view", self)
        fit.setToolTip("Frame the data (F)")
        fit.triggered.connect(self.canvas.fit_view)
        tb.addAction(fit)

        tools.addSeparator()  # the Lab's dialogs, reachable in presentation mode too (where the Lab folds away)
        curves = self._action(tools, "&Learning curves…", lambda *_: self._open_curves())
        curves.setStatusTip("The true error of the model and the compared one against the training-set size "
                            "(needs a true model)")  # always enabled: pressed without one, it says where one is
        judge = self._action(tools, "&ROC and calibration…", lambda *_: self.lab.open_judge())
        judge.setStatusTip("The shown fit's ROC, confusion and calibration, on the points and under the truth")
        tools.aboutToShow.connect(self._enable_lab_tools)
        self._judge_action = judge

        train = mb.addMenu("&Train")
        t = self.training
        self.train_show_action = self._action(
            train, "&Show the training step", lambda *_: t.active.setChecked(self.train_show_action.isChecked()),
            QKeySequence("T"), checkable=True)
        t.active.toggled.connect(self.train_show_action.setChecked)
        # Space is the next slide while a lesson deck is presented (slides.py sets the keys)
        self.play_action = self._action(train, "&Play / pause", self._toggle_play, QKeySequence(Qt.Key.Key_Space))
        steps = [self.train_show_action, self.play_action,
                 self._action(train, "S&tep", self._train_step, QKeySequence(".")),
                 self._action(train, "&Reset training", lambda *_: t.reset(), QKeySequence("Ctrl+R"))]

        # "." with a model fitted in one go: the Step action is off; this brings the Training panel, which says why
        # and names the models that train, and says it briefly in the status line (in F5 the panels are away)
        untrainable = QShortcut(QKeySequence("."), self)
        untrainable.activated.connect(self._nothing_to_step)

        def follow_the_dock(trainable: bool):  # a model fitted in one go has nothing to step
            for a in steps:
                a.setEnabled(trainable)
            untrainable.setEnabled(not trainable)  # never both: one key, one meaning

        t.trainable_changed.connect(follow_the_dock)
        follow_the_dock(t.trainable)
        lab = self.lab_dock.toggleViewAction()
        lab.setText("&Lab panel (true model, samples, comparison)")
        view.addAction(lab)
        weights = self.weights_dock.toggleViewAction()
        weights.setText("&Weights panel (the Bayesian view's weight space)")
        view.addAction(weights)

        help_ = mb.addMenu("&Help")
        self.slides.add_menu(mb, before=help_.menuAction())
        self.shortcuts_action = self._action(help_, "&Keyboard shortcuts", self.show_shortcuts,
                                             [QKeySequence(Qt.Key.Key_F1), QKeySequence("?")])
        self._action(help_, "&About probviz", self.about)

        for i in range(MAX_CLASSES):  # keys 1-9, and 0 for the tenth class
            sc = QShortcut(QKeySequence(str((i + 1) % 10)), self)
            sc.activated.connect(lambda i=i: self.doc.set_active_class(i))

    def resizeEvent(self, event):  # noqa: N802
        super().resizeEvent(event)
        self.hover.setMaximumWidth(max(160, int(READOUT_SHARE * self.width())))

    def _dock(self, title: str, name: str, widget) -> Dock:
        dock = Dock(title, self)
        dock.setObjectName(name)  # the saved layout finds it by this name
        dock.setWidget(widget)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        return dock

    def _action(self, menu, text, slot, shortcut=None, checkable=False) -> QAction:
        a = QAction(text, self)
        a.setCheckable(checkable)
        if shortcut is not None:
            if isinstance(shortcut, list):
                a.setShortcuts(shortcut)
            else:
                a.setShortcut(shortcut)
        a.triggered.connect(slot)
        menu.addAction(a)
        return a

    # --- commands -------------------------------------------------------------------------
    def _nothing_to_step(self):
        self._show_training()
        self.flash(f"{REGISTRY[self.doc.model_name].label} is fitted in one go: nothing to step")

    def _show_training(self):
        self.training_dock.show()
        self.training_dock.raise_()

    def _toggle_play(self):
        self._show_training()
        self.training.toggle_play()

    def _enable_lab_tools(self):
        """Tools > ROC and calibration…, enabled as the Lab's button would be now (the Lab refreshes it only
        while it is in front)."""
        self._judge_action.setEnabled(self.result is not None and self.result.fit.model is not None)

    def _open_curves(self):
        """Tools > Learning curves…: the dialog, or without a true model a message saying where one is (a greyed
        menu entry could not say why)."""
        if self.doc.usable_truth() is None:
            self.error("Learning curves", "Learning curves need " + NEEDS_TRUTH + ".", QMessageBox.Icon.Information)
        else:
            self.lab.open_curves()

    def _train_step(self):
        self._show_training()
        self.training.step()

    def _escape(self):
        """Esc: the selection cleared; with nothing selected in presentation mode, F5 left (as a slide show
        ends on Esc)."""
        if len(self.canvas.selection) == 0 and self.presentation_action.isChecked():
            self.presentation_action.trigger()
        else:
            self.canvas.set_selection([])

    def set_tool(self, tool: str):
        self.canvas.tool = tool
        self.tool_actions[tool].setChecked(True)

    def cycle_layers(self):
        """L: step through layer sets that tell the story one stage at a time."""
        names = [n for n, _ in LAYER_SETS]
        current = next((i for i, (_, ls) in enumerate(LAYER_SETS) if ls == self.doc.layers), -1)
        name, layers = LAYER_SETS[(current + 1) % len(LAYER_SETS)]
        self.doc.view_state.set_layers(layers)
        spec = REGISTRY[self.doc.model_name]
        why = ""  # a discriminative model has no class-conditionals: the set would show the points alone, unsaid
        if not spec.generative and layers - {"points"} and layers - {"points"} <= GENERATIVE_ONLY:
            why = f" — {spec.label} has no p(x|C_k) to draw: it models p(C_k|x) directly"
        # the reason before the count: a status line shared with the readout under the cursor ends in "…"
        self.flash(f"Layers: {name}{why}  ({names.index(name) + 1}/{len(names)}, L for the next)")

    def legend_entries(self):
        return [(c.name, c.color, class_marker(k))
                for k, (c, n) in enumerate(zip(self.doc.classes, self.doc.counts())) if n > 0]

    def _legend_toggled(self, on: bool):
        self._legend_shown = (on, self._legend_title(), tuple(self.legend_entries()), self._legend_key())
        self.canvas.set_legend(*self._legend_shown)

    def _legend_title(self) -> str:
        """Presenting, the caption names the model: the legend need not say it again; else the model, with its
        optimizer's short name while a step is drawn (the full one made a legend half as wide as the plot; the
        status line says it whole)."""
        return "" if self.presentation_action.isChecked() else self._shown_label(short=True)

    def _shown_label(self, frame=None, short: bool = False) -> str:
        """The model on screen, and the training step while one is drawn instead of its fit (``short``: its
        optimizer's short name)."""
        frame = frame if frame is not None else self.result
        if frame is None or frame.request is None or not frame.request.specs:
            return REGISTRY[self.doc.model_name].label
        return shown_label(frame, short)

    def _legend_key(self) -> tuple:
        """The legend's rows for the other line styles and markers on screen, as the exported figure has them."""
        frame = self.result
        if frame is None or frame.request is None:
            return ()
        presenting = self.presentation_action.isChecked()
        key = legend_key(frame.request.specs, frame, frame.request, brief=presenting)
        if presenting:  # on a projector the legend stays small: lines only, by the models' short names
            key = [(text, kind) for text, kind in key if kind not in ("cross", "plus")]
        return tuple(key)

    def set_presentation(self, on: bool):
        """F5: everything legible from the back of a room. Menus, panel, status line and dialogs
        grow with the application font; the canvas draws thick lines, large markers and text, a
        legend in its emptiest corner, and a caption with the model, its accuracy and the layers.
        The side panels fold away (F9 brings the model's back, large too)."""
        self.presentation_action.setChecked(on)
        self.slides.release_panels()  # the layout saved and restored here is the user's, not a slide's
        entering = on and self._before_presentation is None
        if entering:
            # the docks, their tabs and sizes, and the view, as they are (before the larger text: saved after it,
            # the side panel's width was its larger least width, and it came back wider each round trip)
            self._before_presentation = (self.saveState(LAYOUT_VERSION), self.canvas.view_bounds(),
                                         self.legend_action.isChecked())
        font = QFont(self._base_font)
        if on:
            font.setPointSizeF(self._base_font.pointSizeF() * PRESENTATION_FONT)
        QApplication.setFont(font)
        for w in self.findChildren(QWidget):  # widgets that set their own font keep it otherwise
            if w.font().pointSizeF() != font.pointSizeF() and w is not self.canvas:
                f = QFont(w.font())
                f.setPointSizeF(font.pointSizeF())
                w.setFont(f)
        self._restyle()
        if entering:  # leaving gives them back
            for dock in (self.dock, self.training_dock, self.lab_dock, self.weights_dock):  # "." brings training back
                dock.setVisible(False)
            self.canvas.fit_view()  # the data fills the larger plot
        legend = on
        if not on and self._before_presentation is not None:
            state, (x0, x1, y0, y1), legend = self._before_presentation
            self._before_presentation = None
            # the panels' least widths in the desk's text before their old widths come back (in the larger text's,
            # the side panel came back wider each round trip)
            for scroll in self.findChildren(PanelScroll):
                scroll.forget_sizes()
            self.restoreState(state, LAYOUT_VERSION)
            if x0 is None:  # a slide or a file opened while presenting: framed as it opens
                self.canvas.fit_view()
            else:
                self.canvas.vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
        self.slides.presentation_changed()  # the slide's panels hidden again, the keys of F5
        self.legend_action.setChecked(legend)  # presenting, a legend; after, the legend as it was before
        self._legend_toggled(legend)
        if not self._flash_timer.isActive():  # (a passing message, such as the slide's, stays its time)
            self._show_status()  # presenting, the caption names the model and its accuracy, not the status line
        self._update_caption()
        self.canvas.setFocus()

    def _dock_shown(self, visible: bool):
        """F9 (the Model panel) or "." (the Training panel) while presenting: the panel's text is larger, so
        its dock widens to show its controls whole (up to PanelScroll.MOST of the window; beyond, they scroll),
        after Qt has laid it out."""
        if visible and self.presentation_action.isChecked():
            QTimer.singleShot(0, self._widen_docks)

    def _widen_docks(self):
        for dock, scroll in ((self.dock, self.dock.widget()), (self.training_dock, self.training.controls_scroll)):
            if not dock.isVisible() or dock.visibleRegion().isEmpty():
                continue  # a dock tabbed behind the other widens when its tab is chosen
            need = (scroll.widget().minimumSizeHint().width() + scroll.verticalScrollBar().sizeHint().width()
                    + 2 * scroll.frameWidth() + (dock.width() - scroll.width()) + 4)
            width = min(need, int(PanelScroll.MOST * self.width()))
            if width > dock.width():
                self.resizeDocks([dock], [width], Qt.Orientation.Horizontal)

    def caption_parts(self, short: bool = False) -> list[str]:
        """What presentation mode writes above the plot: the model, its accuracy, the layer set (``short``: a
        training step's optimizer by its short name)."""
        parts = [self._shown_label(short=short)]
        res = self.result.fit if self.result is not None else None
        if self.result is not None and self.result.decided:  # decided with a loss matrix or the reject option
            decided = self.result.decided
            rejected = f" ({decided['rejected']} rejected)" if decided.get("reject_cost") is not None else ""
            parts.append(f"accuracy {100 * decided['accuracy']:.1f}%{rejected}")
        elif res is not None and res.summary:
            parts.append(f"accuracy {100 * res.summary['accuracy']:.1f}%")
        elif res is not None and res.model is not None:  # many points: it comes once the hand rests
            parts.append("accuracy …")
        scene = self.result.scene if self.result is not None else None
        wrong = scene is not None and scene.miscalibration is not None
        if wrong:  # the map replaces the heatmap: say what its colours are
            parts.append("where p(C_k|x) is wrong")
        if self.slides.is_open():  # a lesson deck: the slide's title first (it says what is shown), 3/10 last
            return self.slides.caption_parts(parts)
        layers = self._caption_layers()
        return parts + [layers] if layers and not wrong else parts

    def _caption_layers(self) -> str:
        """The layer set's part of the caption (its name, not every layer: a long list would not fit a projector's
        width); none for a model without p(C_k|x), whose sets' names ("posterior") would say what is not drawn."""
        doc = self.doc
        if not REGISTRY[doc.model_name].probabilistic:
            return ""
        name = next((n.split(":")[0] for n, ls in LAYER_SETS if ls == doc.layers), None)
        return f"layers: {name}" if name else "layers of your choice"

    def caption_text(self) -> str:
        return CAPTION_SEP.join(self.caption_parts())

    def _update_caption(self):
        """The presentation caption, redone only when its text, style or width changed (it is called
        with every frame, and a new title relays the plot). Its font is CAPTION_SCALE times the
        presentation's text, or smaller down to that text's own size to fit one line; then two lines; then the
        same without the layer set's name; then two or three lines broken after a part's commas too, then so with
        a training step's optimizer named short; then one a part, a part too wide broken between its words; cut
        with "…" only where one word does not fit."""
        presenting = self.presentation_action.isChecked()
        key = ((tuple(self.caption_parts()), self.canvas.style, self.canvas.width(),
                self.canvas.plotItem.getAxis("left").width()) if presenting else None)
        if key == getattr(self, "_caption_key", None):
            return
        self._caption_key = key
        if not presenting:
            self.canvas.plotItem.setTitle(None)
            return
        s = self.canvas.style
        item = self.canvas.plotItem
        parts = key[0]
        room = self.canvas.width() - item.getAxis("left").width() - 30  # the title sits over the plot only
        font = QFont(self.canvas.font())
        sizes = [CAPTION_SCALE * s.font_size]
        while sizes[-1] > s.font_size:
            sizes.append(max(float(s.font_size), sizes[-1] * 0.92))
        titled = self.slides.is_open()
        # the layer set's name goes first when the caption would take more than two lines (L's message names it
        # too): on a projector the plot's height matters more; then a part may break after a comma
        layers = self._caption_layers()
        short = [p for p in parts if p != layers]
        brief = [p for p in self.caption_parts(short=True) if p != layers]  # a Bayesian step took four lines
        tries = [(parts, 1, False), (parts, 2, False), (short, 1, False), (short, 2, False), (short, 2, True),
                 (short, 3, True), (brief, 2, True), (brief, 3, True), (short, len(short), False),
                 (brief, len(_pieces(brief, split=True)), True)]
        for shown, most, split in tries:  # the fewest lines at any size allowed, the largest size for them
            for size in sizes:
                font.setPointSizeF(size)
                fm = QFontMetricsF(font)
                lines = _packed(shown, fm, room, title=titled, split=split)
                if len(lines) <= most and all(fm.horizontalAdvance(line) <= room for line in lines):
                    break
            else:
                continue
            break
        else:  # a part too wide even alone at the smallest size: broken between its words
            lines = _packed(brief, fm, room, title=titled, wrap=True)
        lines = [fm.elidedText(line, Qt.TextElideMode.ElideRight, room) for line in lines]  # a narrow window
        item.setTitle("<br>".join(html.escape(line) for line in lines), size=f"{size:.1f}pt",
                      color=QColor(*s.foreground))
        # pyqtgraph's title row is 30 px: too low for this; as tall as the text drawn (its lines in the font pyqtgraph
        # chose, and the document's margins), which a line count times our metrics' spacing fell short of by 2 px
        height = math.ceil(max(fm.lineSpacing() * len(lines) + 8, item.titleLabel.item.boundingRect().height()))
        item.titleLabel.setMaximumHeight(height)
        item.layout.setRowFixedHeight(0, height)
        self.caption_lines, self.caption_font = lines, QFont(font)  # what is shown, for a look from outside

    def show_shortcuts(self):
        """F1 or ?: every key the window knows, on one sheet, in large type, by menu."""
        ShortcutsDialog(self.shortcut_sections(), self).exec()  # deleted when closed

    def shortcut_sections(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """(menu, [(keys, what they do), ...]) for every menu with shortcuts, in the menu bar's order, then
        the canvas's own keys and gestures. Only keys a standard keyboard has are listed."""
        sections = []
        for top in self.menuBar().actions():
            rows = []
            self._collect_shortcuts(top.menu(), rows)
            if rows:
                sections.append((top.text().replace("&", ""), rows))
        sections.append(self.slides.presenting_keys())  # keys a lesson deck takes only while presented
        sections.append(("Canvas", [
            ("1-9, 0", "Choose the class that clicks add (classes 1-10)"),
            ("←  →  ↑  ↓", "Move the probe (Shift: finer steps)"),
            ("Shift+click", "Pin the probe there"),
            ("Click / drag", "Add a point / move a point or the probe"),
            ("Right-click", "Delete the point"),
            ("Wheel, drag on empty canvas", "Zoom, pan"),
        ]))
        return sections

    def _collect_shortcuts(self, menu, rows):
        for a in menu.actions():
            if a.menu() is not None:
                self._collect_shortcuts(a.menu(), rows)
                continue
            keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in a.shortcuts() if on_a_keyboard(k)]
            if keys and a.text():
                text = {self.undo_action: "Undo", self.redo_action: "Redo"}.get(a, a.text().replace("&", ""))
                rows.append((", ".join(keys), text))

    def _restore_settings(self):
        """Window size and panel layout as last time; dark or light as the desktop prefers on the
        first start, then as chosen."""
        settings = QSettings()
        screen = QGuiApplication.primaryScreen()
        avail = screen.availableGeometry() if screen is not None else None
        w, h = 1200, 800
        if avail is not None and avail.width() > 0:
            w, h = min(w, int(avail.width() * 0.95)), min(h, int(avail.height() * 0.9))
        self.resize(w, h)
        geometry, state = settings.value("geometry"), settings.value("state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:  # a layout saved before the Training and Lab docks is not restored
            self.restoreState(state, LAYOUT_VERSION)
            QTimer.singleShot(0, self, self._keep_room_for_the_plot)
        if settings.contains("dark"):
            dark = settings.value("dark", False, type=bool)
        else:
            dark = desktop_prefers_dark()
        if dark:
            self.set_dark(True)

    def _keep_room_for_the_plot(self):
        """A side panel restored wider than 40% of the window (saved on a wider screen, or after the Weights
        panel widened it) is narrowed to that: at 1024 pixels a panel saved at 560 left the plot 410."""
        most = int(MAX_PANEL_SHARE * self.width())
        docks = [d for d in (self.dock, self.training_dock, self.lab_dock, self.weights_dock)
                 if d.isVisible() and not d.isFloating() and self.dockWidgetArea(d) in
                 (Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.LeftDockWidgetArea)]
        wide = [d for d in docks if d.width() > most]
        if wide:
            self.resizeDocks(wide, [most] * len(wide), Qt.Orientation.Horizontal)

    def save_settings(self):
        """Window size and panel layout for the next start; while presenting, the layout from before
        it (presentation folds the docks away, and the next start would open without them)."""
        settings = QSettings()
        settings.setValue("geometry", self.slides.presenter.geometry_before() or self.saveGeometry())
        self.slides.before_saving_layout()  # the panels a slide hid are the user's again
        before = self._before_presentation
        settings.setValue("state", before[0] if before is not None else self.saveState(LAYOUT_VERSION))

    def set_dark(self, on: bool):
        self.dark_action.setChecked(on)
        QSettings().setValue("dark", on)
        self._restyle()

    def _restyle(self):
        presenting = self.presentation_action.isChecked()
        dark = self.dark_action.isChecked()
        scale = PRESENTATION_SCALE if presenting else 1.0
        apply_theme(dark)  # the panel folds away when presenting: only the canvas grows
        for action, redo in zip(self._history_actions, (False, True)):
            action.setIcon(undo_icon(redo))  # drawn in the new palette's ink
        self.canvas.apply_style(Style(scale, dark))
        self.training.apply_style(Style(scale, dark))
        self.panel.fisher.apply_style(Style(scale, dark))
        self.lab.apply_style(Style(scale, dark))
        self.weights.apply_style(Style(scale, dark))
        self.refitter.schedule(refit=False)  # the heatmap is blended over the new background
        if self.legend_action.isChecked():
            self._legend_toggled(True)

    def toggle_full_screen(self):
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def copy_plot(self):
        """Ctrl+C: the plot as an image on the clipboard, for pasting into slides."""
        QGuiApplication.clipboard().setImage(self.canvas.grab().toImage())
        self.flash("Copied the plot to the clipboard")

    def export_dialog(self):
        settings = self.files.settings  # the legend ticked when the window shows one or the last export had one
        legend = self.legend_action.isChecked() or settings.value("export_legend", False, type=bool)
        dialog = ExportDialog(self, self.files.export_folder(), self.doc.title, self.canvas.size(),
                              legend=legend, scale=self.canvas.style.scale,
                              check=self._check_figure_path, last=self._last_export)
        if not self.files.run_dialog(dialog):
            return
        opts = dialog.options()
        self._last_export = dict(opts)  # the next export of this document starts from it
        try:
            self.files.check_output(opts["path"], "the export")
            export_figure(self.doc.snapshot(self.canvas.view_bounds()),
                          style=Style(opts.pop("scale"), self.dark_action.isChecked()), **opts)
        except (ValueError, OSError) as e:
            self.error("Cannot export", str(e))
            return
        self.files.remember_export(opts["path"])
        settings.setValue("export_legend", bool(opts["legend"]))
        self.flash(f"Wrote {os.path.basename(opts['path'])} in {os.path.dirname(opts['path'])}")

    def _check_figure_path(self, path: str) -> None:
        """A figure's name the export dialog may take: a type it draws, and no file the window has open."""
        figure_format(path)
        self.files.check_output(path, "the export")

    def cycle_model(self):
        i = MODEL_NAMES.index(self.doc.model_name)
        self.doc.set_model(MODEL_NAMES[(i + 1) % len(MODEL_NAMES)])

    def relabel_selection(self):
        sel = self.canvas.selection
        if len(sel):
            self.doc.relabel_points(sel, self.doc.active_class)

    def new_document(self):
        if self.files.maybe_save():
            self.doc.new()
            self.files.forget_files()
            self.canvas.fit_view()

    def open_example(self, name: str):
        if self.files.maybe_save():
            self.files.forget_files()
            self.load_session(examples.session(name))

    def open_path(self, path: str) -> bool:
        return self.files.open_path(path)

    def _fill_recent(self):
        self.recent_menu.clear()
        items = self.files.recent()
        for path in items:
            a = self.recent_menu.addAction(os.path.basename(path))
            a.setToolTip(path)
            a.triggered.connect(lambda checked=False, p=path: self.files.maybe_save() and self.files.open_path(p))
        if not items:
            self.recent_menu.addAction("(none)").setEnabled(False)

    def error(self, title: str, text: str, icon=QMessageBox.Icon.Warning):
        """Say what went wrong in one short message; the document stays as it was."""
        self.flash(text)
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # file names and messages are text, never markup
        box.exec()

    def update_title(self):
        """The document's name, or while a lesson deck is open the deck's and the slide's; [*] for unsaved
        work (of the deck, then: a slide's changes during the talk are not)."""
        self.setWindowTitle(f"probviz — {self.slides.window_title() or self.doc.title or 'untitled'}[*]")
        self._on_modified_changed()

    def load_session(self, session):
        self.doc.load_session(session)  # the reset clears the selection and retitles the window
        self.show_view(session.view)
        if self._before_presentation is not None:  # leaving F5 shows this session's view, not the last one's
            self._before_presentation = (self._before_presentation[0], session.view or (None,) * 4,
                                         self._before_presentation[2])

    def show_view(self, view):
        """Show the plot's range ``view`` (x0, x1, y0, y1), or frame the points when it is None."""
        if view is not None:
            x0, x1, y0, y1 = view
            self.canvas.vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
        else:
            self.canvas.fit_view()

    def load(self, data):
        self.doc.load(data)
        self.canvas.fit_view()

    def about(self):
        """Help > About: the version, every model there is (from the registry), the licence, how to cite."""
        models = "".join(f"<li>{html.escape(REGISTRY[n].label, quote=False)}</li>" for n in MODEL_NAMES)
        box = QMessageBox(QMessageBox.Icon.NoIcon, "About probviz",
                          f"<b>probviz {__version__}</b><p>See probabilistic classifiers at work, following "
                          "Bishop, <i>Pattern Recognition and Machine Learning</i> (2006), chapter 4. "
                          f"Models:</p><ul>{models}</ul><p>Licence: MIT.</p><p>To cite: The probviz developers, "
                          f"<i>probviz: probabilistic classifiers in two dimensions</i>, version {__version__}; "
                          "for the mathematics, C. M. Bishop, <i>Pattern Recognition and Machine Learning</i>, "
                          "Springer, 2006.</p>", QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.exec()

    def end_by_signal(self):
        """SIGTERM or SIGINT (a logout, Ctrl+C in the terminal): nobody can be asked, so unsaved work
        is kept in the autosave for the next start, and the window closes without a question. A question
        already on screen (restore unsaved work? save changes?) is closed unanswered: its dialog would
        otherwise keep the program running with nobody there to answer."""
        self.ending = True
        self.refitter.shutdown()
        self.files.end(keep_unsaved=True)
        self.close()
        for _ in range(10):  # a question within a question at most, in practice
            modal = QApplication.activeModalWidget()
            if modal is None:
                break
            modal.reject() if isinstance(modal, QDialog) else modal.close()

    def closeEvent(self, ev):
        saved = getattr(self, "ending", False) or self.files.maybe_save()
        if getattr(self, "ending", False):  # a signal ends the program (perhaps while "save the changes?" was up:
            self.save_settings()  # its question is then closed unanswered, and the work kept by end_by_signal)
            ev.accept()
        elif saved:
            self.refitter.shutdown()
            self.save_settings()
            self.files.end()  # closed normally: nothing to restore
            ev.accept()
        else:
            ev.ignore()
        if ev.isAccepted():
            self.lab.stop_dialogs()  # the ROC dialog's integrals stop at their next line
            self.closed.emit()
        if ev.isAccepted() and self.presentation_action.isChecked():
            self.set_presentation(False)  # the application's font is the application's: back to normal

    def dragEnterEvent(self, ev):
        if ev.mimeData().hasUrls() and any(u.isLocalFile() for u in ev.mimeData().urls()):
            ev.acceptProposedAction()

    def dropEvent(self, ev):
        paths = [u.toLocalFile() for u in ev.mimeData().urls() if u.isLocalFile()]
        if paths and self.files.maybe_save():
            self.files.open_path(paths[0])
            ev.acceptProposedAction()

    def _on_busy(self, busy: bool):
        """Large fits run on a worker thread: say so while one is under way."""
        self.busy_label.setText("fitting…" if busy else "")

    def _on_modified_changed(self, *_):
        self.setWindowModified(self.slides.is_modified() if self.slides.is_open() else self.doc.is_modified())

    # --- document -> view -------------------------------------------------------------------
    #: File > Export image's last options for this document (its title, size and look), None for a new one
    _last_export: dict | None = None

    def _on_reset(self):
        self.dock.widget().verticalScrollBar().setValue(0)  # a new document: its description in view
        self._last_export = None
        self.canvas.set_selection([])
        self._n_points = len(self.doc.X)
        self.canvas.show_document_points()
        self.canvas.set_axis_names(self.doc.axis_names)
        self.update_title()
        self._on_model_changed()  # legend, model menu, layer actions, refit

    def _on_points_changed(self):
        if len(self.doc.X) != self._n_points and len(self.canvas.selection):  # indices no longer mean the same
            self.canvas.set_selection([], redraw=False)  # points (drawn next, once)
        self._n_points = len(self.doc.X)
        self.canvas.show_document_points()
        if self.legend_action.isChecked():
            self._legend_toggled(True)  # a class may have got its first point, or lost its last
        self.refitter.schedule(refit=True)

    def _on_classes_changed(self):
        self._sync_layer_actions()  # a truth of another number of classes is not used
        self.canvas.show_document_points()
        if self.legend_action.isChecked():
            self._legend_toggled(True)
        self.refitter.schedule(refit=True)

    def _on_model_changed(self):
        if self.legend_action.isChecked():
            self._legend_toggled(True)
        self.model_actions[self.doc.model_name].setChecked(True)
        self._sync_layer_actions()
        self.refitter.schedule(refit=True)

    def _on_layers_changed(self):
        self._sync_layer_actions()
        self.canvas.show_document_points()
        self.refitter.redraw()

    def _sync_layer_actions(self):
        generative = REGISTRY[self.doc.model_name].generative
        for layer, a in self.layer_actions.items():
            a.setChecked(layer in self.doc.layers)
            a.setEnabled((generative or layer not in GENERATIVE_ONLY)
                         and (layer not in TRUTH_ONLY or self.doc.usable_truth() is not None)
                         and (layer not in BAYESIAN_ONLY or bool(self.doc.params[self.doc.model_name].get("bayes"))))

    def _on_active_class(self):
        doc = self.doc
        c = doc.classes[doc.active_class]
        self.flash(f"Adding points to class {c.name} (key {doc.active_class + 1})")

    def _view_moved(self):
        self.doc.view_state.view = self.canvas.view_bounds()
        if len(self.doc.X) == 0 or self.canvas.dense:
            self.canvas.update_points()
        self.refitter.schedule(refit=False)

    def _on_result(self, frame):
        """The window's own views of a frame: the hover readout, the caption, the legend (the status line
        follows, paced: ``_show_numbers``)."""
        self.result = frame
        shown = getattr(self, "_legend_shown", (None,) * 4)
        label = self._legend_title()
        # while a frame's summary is to come (a drag's, among many points) its misclassified row stays, as the crosses
        pending = frame.fit.model is not None and not frame.fit.summary
        if self.legend_action.isChecked() and (shown[1] != label or not pending and shown[3] != self._legend_key()):
            self._legend_toggled(True)  # a compared model, the truth, a split or a training step came or went
        # the point in hand is under the cursor: its readout follows, paced as the status line (its digits cannot
        # be read at every move, and the posterior under the cursor and the label's text cost 1.2 ms a frame)
        self._paced_hover(frame)
        self._update_caption()

    def _show_numbers(self, frame):
        """The status line of the frame on screen. While a hand drags points it follows at most ten times a
        second, as the side panel's numbers (``Paced``): digits that change at every move cannot be read, and
        repainting the status bar at every move costs the drag's frame about a millisecond."""
        if frame.fit.summary is not self.result_summary_shown:
            self._flash_timer.stop()  # a new fit says more than a passing message
        self.result_summary_shown = frame.fit.summary
        if not self._flash_timer.isActive():
            self._show_status()

    def flash(self, text: str):
        """A passing message in the status line; the fit's summary comes back after a few seconds."""
        self.message.setText(text)
        self._flash_timer.start()

    def _show_status(self):
        if self.result is not None:
            self.message.setText(self.status_text(self.result))

    def status_text(self, frame) -> str:
        doc = self.doc
        res = frame.fit
        counts = doc.counts()
        # "name: count", and a class named by a number (a new class, a CSV's label) "class 3: 5", not "3: 5"
        per_class = ", ".join(f"{_counted(c.name)}: {n}" for c, n in zip(doc.classes, counts))
        # presenting, the caption above the plot names the model and its accuracy: the status line keeps to the
        # rest, so that on a projector's width in large text it is not cut
        captioned = self.presentation_action.isChecked()
        parts = [] if captioned else [self._shown_label(frame)]
        if len(doc.X) and not res.error and res.summary and frame.decided:  # the decision drawn, before the counts:
            parts.append(decided_text(frame.decided))  # a narrow window's status line keeps its numbers
        parts.append(per_class or "no classes")
        view = frame.training
        if view is not None and view.index == 0 and self.training.restarted_at and self.training.showing():
            parts.append(f"the edit restarted the run (it was at step {self.training.restarted_at})")
        if len(doc.X) == 0:
            parts.append("press 1 and click to add points")
        elif res.error:
            parts.append(f"cannot fit: {res.error}")
        elif res.summary:
            if frame.decided:  # decided with the loss matrix or the reject option (said above), and the fit's own
                parts.append(f"by the largest p(C_k|x): accuracy {100 * res.summary['accuracy']:.1f}%")
            elif not captioned:
                parts.append(f"accuracy {100 * res.summary['accuracy']:.1f}%")
            if "log_likelihood" in res.summary:
                parts.append(f"{likelihood_symbol(res.summary['log_likelihood_kind'])} = "
                             f"{decimals(res.summary['log_likelihood'], 2)}")
            if res.summary.get("undecided"):
                parts.append(f"{res.summary['undecided']} points undecided")
        elif res.model is not None and not captioned:  # many points: their summary comes once the hand rests
            parts.append("accuracy …")
        if frame.scene is not None and frame.scene.hatched:
            parts.append("hatched: undecided")  # as the figures' legends say
        if self.canvas.dense:
            parts.append(f"{len(doc.X):,} points drawn as a density image")
        lonely = [c.name for c, n in zip(doc.classes, counts) if n == 1]
        notices = [n for n in doc.read_notes if "single point" not in n] + list(res.notices)  # how the file was read
        if self.files.autosave_problem:
            notices.append(self.files.autosave_problem)
        if lonely and not any("single point" in n for n in notices):
            notices.append(f"class {', '.join(lonely)} has a single point")
        return "  ·  ".join(parts + notices)

    def _cursor_moved_in_view(self, *_):
        """The view or the plot moved under a resting cursor: the readout of what is under it now."""
        self._refresh_hover()

    def _hovered(self, *_):
        """The cursor moved: the readout under it, unless it carries points. Then the move's own frame (which
        follows in the same event, or from the worker) redoes it, from the fit the points make now."""
        if not self.canvas.drafting:
            self._refresh_hover()

    def _refresh_hover(self):
        """The readout under the cursor, from the frame on screen: redone on every frame, so it never
        names a class that an undo removed."""
        pos = self.canvas.hover_position()
        if pos is None:
            self.hover.setText("")
            return
        x, y = pos
        pw, ph = self.canvas.vb.viewPixelSize()  # to the pixel: a steady width, and exact far from the origin
        text = f"x = {at_pixel(x, pw)}, y = {at_pixel(y, ph)}"
        if self.result is not None and len(self.doc.X):
            values = self.result.readout_at(x, y)
            if values:
                text += "   " + values
        self.hover.setText(text)
