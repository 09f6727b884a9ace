"""Small widgets the window and panel share: a label that elides, a number typed or slid, a small plot, a
guard that keeps the mouse wheel for scrolling unless a control has the focus, markers moved in place, a
tabbed dock's drawing put off while its tab is behind another, and a side panel's scroll area."""

from __future__ import annotations

import math
import time

import numpy as np
import pyqtgraph as pg
import shiboken6

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor, QFont, QFontMetrics, QIcon, QKeySequence, QPainter, QPainterPath, QPalette, QPen, QPixmap, QPolygonF,
    QValidator,
)
from PySide6.QtWidgets import (
    QAbstractItemView, QAbstractScrollArea, QAbstractSpinBox, QApplication, QDialog, QDialogButtonBox,
    QDockWidget, QDoubleSpinBox, QFormLayout, QGraphicsItem, QHBoxLayout, QHeaderView, QLabel, QLayout, QLineEdit,
    QMainWindow, QScrollArea, QSizePolicy, QSlider, QSpinBox, QStyle, QStyleOptionDockWidget, QStylePainter,
    QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from probviz.figure_layout import tick_labels


#: what a control that needs a true model says it needs, and where one comes from
NEEDS_TRUTH = ("a true model: File › Examples › fruit or xor has one, or From the data in the Lab's True model box "
               "makes one from the points")


def move_in_place(item: pg.ScatterPlotItem, pos: np.ndarray, shown: np.ndarray | None = None) -> bool:
    """New positions for the same number of identical markers, without rebuilding every spot
    (setData costs about 1 ms per thousand points, on every frame of a drag). ``shown`` says which are
    drawn (all if None). False when the count changed or this pyqtgraph keeps its points otherwise: then
    the caller calls setData. When nothing drawn has changed (a drag moves only hidden points) the
    item is not repainted."""
    data = getattr(item, "data", None)
    if data is None or getattr(data, "dtype", None) is None or data.dtype.names is None \
            or not {"x", "y", "visible"} <= set(data.dtype.names) or len(data) != len(pos):
        return False
    visible = data["visible"]
    if shown is None:
        shown = np.ones(len(pos), bool)
    still = (np.array_equal(visible, shown) and np.array_equal(data["x"][shown], pos[shown, 0])
             and np.array_equal(data["y"][shown], pos[shown, 1]))
    data["x"] = pos[:, 0]
    data["y"] = pos[:, 1]
    if still:
        return True
    data["visible"] = shown
    item.prepareGeometryChange()
    item.informViewBoundsChanged()
    item.bounds = [None, None]
    item.invalidate()
    return True


class WhenSeen:
    """A tabbed dock's drawing, put off while its tab is behind another's: behind it, a frame costs the dock
    nothing; brought forward, it draws the last frame that came meanwhile. Qt keeps a tabbed dock's widget
    "visible" behind its neighbour, so the dock's visibilityChanged says when it is seen: connect it to
    :meth:`set_on_screen`."""

    def __init__(self, draw, on_screen: bool = False):
        self._draw = draw
        self.on_screen = on_screen  # the dock's tab in front
        self.stale = False  # a frame came while it was behind another tab: drawn when it comes forward

    def show(self) -> None:
        """A new frame to draw: now if the dock is seen, else once it is."""
        self.stale = not self.on_screen
        if not self.stale:
            self._draw()

    def set_on_screen(self, visible: bool) -> None:
        self.on_screen = visible
        if visible and self.stale:
            self.stale = False
            self._draw()


class Dock(QDockWidget):
    """A dock widget whose title is drawn in the dock's own font. Qt draws a docked title in the font the
    application had for dock titles when the dock was made, whenever the dock's font is the application's:
    presentation mode's larger font left the titles small over a title bar made tall for them. A dock turned on
    from its View menu action, or floated and docked again, comes to the front among tabbed docks: Qt showed it
    behind another tab (F5 brings back the Training panel first), as if nothing had happened."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.topLevelChanged.connect(self._docked_again)
        self.toggleViewAction().triggered.connect(lambda on: self.raise_() if on else None)

    def _docked_again(self, floating: bool) -> None:
        if not floating and self.isVisible():
            QTimer.singleShot(0, self, self.raise_)  # once Qt has put it among the tabs

    def paintEvent(self, event):  # noqa: N802
        if self.isFloating() or self.titleBarWidget() is not None:
            super().paintEvent(event)  # a floating dock's frame and title: Qt's (or the window manager's)
            return
        painter = QStylePainter(self)  # in the dock's font
        option = QStyleOptionDockWidget()
        self.initStyleOption(option)
        painter.drawControl(QStyle.ControlElement.CE_DockWidgetTitle, option)


def main_window_of(widget: QWidget) -> QMainWindow | None:
    """The main window ``widget`` is in (a floating dock's too: its parent stays the window), or None."""
    frame = widget.parentWidget()
    while frame is not None and not isinstance(frame, QMainWindow):
        frame = frame.parentWidget()
    return frame


#: how long a panel's view waits for the layout of a change above it (PanelScroll.hold_view)
HOLD_SECONDS = 0.5


class PanelScroll(QScrollArea):
    """A side panel in a scroll area that is never narrower than the panel's controls: narrowed further, the
    panel's right-hand side was cut off (the Lab's Remove button) or hidden behind a sideways scroll bar. Its
    least width follows the panel's (fonts, texts), up to MOST of the window's width: a panel that asks for more
    (a long class name, a formula that cannot break) scrolls sideways rather than squeeze the plot."""

    #: of the main window's width, the most a panel's least width may take (presentation mode's larger text
    #: needs 42% of a projector's 1024 pixels)
    MOST = 0.45

    def __init__(self, widget: QWidget, parent=None):
        super().__init__(parent)
        self._frame = None  # the main window whose width bounds the panel's least width, once shown
        self.setWidget(widget)
        self.setWidgetResizable(True)
        widget.installEventFilter(self)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        hint = super().minimumSizeHint()
        widget = self.widget()
        if widget is None:
            return hint
        room = widget.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth()
        if self._frame is not None and self._frame.width() > 0:
            room = min(room, int(self.MOST * self._frame.width()))
        return QSize(max(hint.width(), room), hint.height())

    def showEvent(self, event):  # noqa: N802
        if self._frame is None:
            frame = main_window_of(self)
            handle = frame.windowHandle() if frame is not None else None
            if handle is not None:  # told of its width alone (a filter on the window took every event of it: ~1 ms
                self._frame = frame  # a frame of a drag, its paints and hover moves)
                handle.widthChanged.connect(self._frame_resized)
                self.updateGeometry()
        super().showEvent(event)

    def _frame_resized(self, _width: int) -> None:
        self.updateGeometry()  # the most the panel's least width may take has changed

    def forget_sizes(self) -> None:
        """Have the layouts from the panel up to the window ask its sizes anew: a hidden panel whose text changed
        (presentation mode folds the panels away) keeps its old least width in them until it is shown, and a
        layout restored before that (leaving presentation mode) made the dock as wide as the larger text's."""
        panel = self.widget()
        if panel is None:
            return
        chain = panel.findChildren(QWidget) + [panel]  # each widget's place in its parent's layout keeps its sizes
        widget = self
        while widget is not None and not widget.isWindow():
            chain.append(widget)
            widget = widget.parentWidget()
        for layout in panel.findChildren(QLayout):  # the layouts within layouts too (a form in a group box)
            layout.invalidate()
        for widget in chain:
            if widget.layout() is not None:
                widget.layout().invalidate()
            widget.updateGeometry()

    _held = None  # (the panel's part at the top of the view, its place) while a change above it lays it out

    def hold_view(self) -> None:
        """What the view shows stays where it is while a change above it lays the panel out again (a text at the
        top that gains a line): the view then scrolls by as much as the part at its top moved. Scrolled to the top,
        the change is in view, and what follows it moves down in front of the user."""
        panel, top = self.widget(), self.verticalScrollBar().value()
        if panel is None or top == 0:
            return
        parts = [w for w in panel.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
                 if w.isVisible() and w.y() >= top]
        if parts:
            part = min(parts, key=lambda w: w.y())
            self._held = (part, part.y(), time.monotonic())

    def _follow_held(self) -> None:
        if self._held is not None:
            (part, y, _), self._held = self._held, None
            bar = self.verticalScrollBar()
            bar.setValue(bar.value() + part.y() - y)

    def eventFilter(self, watched, event):  # noqa: N802
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # the panel's least width may have changed
        if watched is self.widget() and event.type() == QEvent.Type.Resize and self._held is not None:
            if time.monotonic() - self._held[2] < HOLD_SECONDS:
                QTimer.singleShot(0, self, self._follow_held)  # once its layout has placed its parts (after this event)
            else:  # a change that laid nothing out: a resize long after it (the window's) is not its
                self._held = None
        return super().eventFilter(watched, event)


class ElidedLabel(QLabel):
    """One line of plain text that ends in "…" when it does not fit (the whole text is its tooltip),
    so that a long message never pushes or overlaps its neighbours.

    It keeps its text itself and paints it: QLabel's own setText asks its layout to lay out again at every
    change, and a status bar then repaints all of itself, which the readout under the cursor would do at every
    move of the mouse. Its size asks for a line's height and a width of 40 pixels (it stretches)."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(parent)
        self._text = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setMinimumWidth(40)
        self.setText(text)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        if text == self._text:
            return
        self._text = text
        self.setToolTip(text)
        self._text_changed()
        self.update()

    def _text_changed(self) -> None:
        """The text changed: a width that follows it is asked for here."""

    def _line_height(self) -> int:
        m = self.contentsMargins()
        return self.fontMetrics().height() + m.top() + m.bottom() + 2 * self.margin()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(40, self._line_height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(40, self._line_height())

    def shown_text(self) -> str:
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width())

    def paintEvent(self, _ev):  # noqa: N802
        p = QPainter(self)
        p.setPen(self.palette().color(self.foregroundRole()))
        p.drawText(self.contentsRect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                   self.shown_text())


class ReadoutLabel(ElidedLabel):
    """An :class:`ElidedLabel` that asks for its whole text's width: beside a stretching message it takes what it
    needs up to its maximum width, and is cut with "…" beyond it.

    The width it asks for only grows, in steps of four average characters, until its text is emptied (the cursor
    left the canvas) or its font changes: a readout that changes at every move of the mouse then no longer lays
    the status bar out again at every move, and its neighbour does not shift by a digit's width."""

    _width = 0  # the width asked for

    def _text_changed(self) -> None:
        m = self.contentsMargins()
        need = (self.fontMetrics().horizontalAdvance(self.text()) + m.left() + m.right() + 2 * self.margin()
                if self.text() else 0)
        if need > self._width or not need:
            step = 4 * max(1, self.fontMetrics().averageCharWidth())
            width = step * -(-need // step)
            if width != self._width:
                self._width = width
                self.updateGeometry()

    def changeEvent(self, event):  # noqa: N802
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._width = 0
            self._text_changed()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(self._width, self._line_height())


class WheelGuard(QObject):
    """Installed on a slider, spin box or combo box: the wheel changes it only while it has the focus;
    otherwise the wheel scrolls the panel, as a person scrolling past it expects."""

    def eventFilter(self, obj, ev):  # noqa: N802
        if ev.type() == QEvent.Type.Wheel and not obj.hasFocus():
            area = obj.parentWidget()
            while area is not None and not isinstance(area, QAbstractScrollArea):
                area = area.parentWidget()
            if area is not None:  # to the scroll area, as if the control were not there
                QApplication.sendEvent(area.viewport(), ev)
            return True
        return False


_GUARD = WheelGuard()


def guard_wheel(*widgets) -> None:
    """Wheel only when focused, and no focus from a click: a click or a drag on a slider leaves the
    keyboard (the arrows move the probe) with the canvas; Tab still reaches it."""
    for w in widgets:
        w.installEventFilter(_GUARD)
        if isinstance(w, QSlider):
            w.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        elif w.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


class LabelsFollowFields(QObject):
    """Installed on a form row's field: its label is greyed when the field is (Qt greys a disabled control, not
    the words beside it, which then read as a setting that can be changed)."""

    def eventFilter(self, obj, ev):  # noqa: N802
        if ev.type() == QEvent.Type.EnabledChange:
            label = getattr(obj, "_row_label", None)
            if label is not None and shiboken6.isValid(label):
                label.setEnabled(obj.isEnabled())
        return False


_LABELS = LabelsFollowFields()


def labels_follow_fields(form: QFormLayout) -> None:
    """Each row's label of ``form`` greyed with its field, now and whenever the field is enabled or disabled (call
    it again after adding rows)."""
    for row in range(form.rowCount()):
        label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
        if label is None or field is None or label.widget() is None or field.widget() is None:
            continue
        w = field.widget()
        if getattr(w, "_row_label", None) is None:
            w.installEventFilter(_LABELS)
        w._row_label = label.widget()
        label.widget().setEnabled(w.isEnabled())


#: Ctrl with these keys stays with a number box's text (select all, the clipboard, undo and redo of typing)
_TEXT_KEYS = {Qt.Key.Key_A, Qt.Key.Key_C, Qt.Key.Key_V, Qt.Key.Key_X, Qt.Key.Key_Insert, Qt.Key.Key_Left,
              Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Backspace, Qt.Key.Key_Delete}


class WindowKeysFirst:
    """For a spin box: the window's shortcuts are not taken by the box's text editing when they mean nothing
    there. Undo and redo are the document's unless something typed is pending (not yet applied with Enter or
    by leaving the box): after Enter, Ctrl+Z undoes the change the number made, not the typing. Other Ctrl
    keys (Ctrl+E, the Emacs end of line a line edit takes on X11) are the window's, except select all, the
    clipboard and moving by words; so are letters (M after typing θ and Enter chose the next model no more).
    Esc drops what was typed and not applied, and gives the keys back to the canvas."""

    def _watch_typing(self):
        self._typing = False  # typed text not yet applied
        self.lineEdit().textEdited.connect(self._typed_text)
        self.editingFinished.connect(self._applied)

    def _typed_text(self, _text):
        self._typing = True

    def _applied(self):
        self._typing = False

    def event(self, ev):  # noqa: N802 (Qt's name)
        if ev.type() == QEvent.Type.ShortcutOverride:
            if self._window_key(ev):
                ev.ignore()  # not the box's: the window's shortcut runs
                return True
            if ev.key() == Qt.Key.Key_Escape and ev.modifiers() == Qt.KeyboardModifier.NoModifier:
                ev.accept()  # the box's (keyPressEvent), not a window shortcut's
                return True
        return super().event(ev)

    def _window_key(self, ev) -> bool:
        if ev.matches(QKeySequence.StandardKey.Undo) or ev.matches(QKeySequence.StandardKey.Redo):
            return not self._typing
        if ev.modifiers() in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier) and \
                len(ev.text()) == 1 and ev.text().isalpha() and ev.text() not in "eE":
            return True  # a letter is no part of a number (but an exponent's): the window's key, M the next model
        ctrl = ev.modifiers() & Qt.KeyboardModifier.ControlModifier
        return bool(ctrl) and ev.key() not in _TEXT_KEYS

    def keyPressEvent(self, ev):  # noqa: N802 (Qt's name)
        if ev.key() == Qt.Key.Key_Escape and ev.modifiers() == Qt.KeyboardModifier.NoModifier:
            self.setValue(self.value())  # what was typed and not applied is dropped
            self._typing = False
            frame = main_window_of(self)
            if frame is not None and frame.centralWidget() is not None:
                frame.centralWidget().setFocus(Qt.FocusReason.OtherFocusReason)  # the keys are the canvas's again
            return
        super().keyPressEvent(ev)


class IntBox(WindowKeysFirst, QSpinBox):
    """A whole number box whose Ctrl keys the window keeps (:class:`WindowKeysFirst`)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._watch_typing()


class ClampingSpinBox(WindowKeysFirst, QDoubleSpinBox):
    """A spin box that takes a number typed beyond its range as its nearest end ("1" in a box that
    stops at 0.99 gives 0.99), where Qt's own refuses the keystroke and keeps the old value."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._watch_typing()

    def validate(self, text, pos):
        state, text, pos = super().validate(text, pos)
        if state == QValidator.State.Invalid and self._typed_number(text) is not None:
            state = QValidator.State.Intermediate  # let it be typed; Enter or leaving the box clamps it
        return state, text, pos

    def _typed_number(self, text: str):
        body = text.strip().removeprefix(self.prefix()).removesuffix(self.suffix()).strip()
        value, ok = self.locale().toDouble(body)
        return value if ok and math.isfinite(value) else None

    def _clamp(self):
        value = self._typed_number(self.lineEdit().text())
        if value is not None and not self.minimum() <= value <= self.maximum():
            self.setValue(min(max(value, self.minimum()), self.maximum()))

    def keyPressEvent(self, ev):  # noqa: N802 (Qt's name)
        if ev.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._clamp()
        super().keyPressEvent(ev)

    def focusOutEvent(self, ev):  # noqa: N802
        self._clamp()
        super().focusOutEvent(ev)


class NumberField(QWidget):
    """A number set exactly by typing (a spin box: Up/Down step it, PageUp/PageDown step ten times) or
    roughly by a slider beside it, linear or logarithmic. ``valueChanged`` fires once per change,
    with the value shown."""

    valueChanged = Signal(float)

    def __init__(self, minimum: float, maximum: float, decimals: int = 2, step: float = 0.01,
                 log_from: float | None = None, suffix: str = "", parent=None):
        """``log_from``: a logarithmic slider from this value to ``maximum`` (the slider's first
        position is 0); the spin box then steps adaptively (by about a tenth of the value)."""
        super().__init__(parent)
        self.log_from = log_from
        self.spin = ClampingSpinBox()
        self.spin.setRange(minimum, maximum)
        self.spin.setDecimals(decimals)
        self.spin.setSingleStep(step)
        self.spin.setKeyboardTracking(False)  # typing "0.25" is one change, not three
        self.spin.setSuffix(suffix)
        self.spin.setAccelerated(True)
        # text that is no number (".", "-", nothing) left in the box keeps the number it had, not its nearest
        # value, which was 0 for "." (a "." meant for Step, typed into the box, set a parameter to 0); a number
        # beyond the range is clamped (ClampingSpinBox)
        self.spin.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToPreviousValue)
        if log_from is not None:
            self.spin.setStepType(QAbstractSpinBox.StepType.AdaptiveDecimalStepType)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setMinimumWidth(60)  # a form too narrow for it puts its label above, not a 5-pixel slider
        self.slider.setRange(0, 200 if log_from is not None else max(1, round((maximum - minimum) / step)))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.slider, 1)
        lay.addWidget(self.spin)
        guard_wheel(self.slider, self.spin)
        self.spin.valueChanged.connect(self._typed)
        self.slider.valueChanged.connect(self._slid)

    # the slider's positions
    def _to_pos(self, v: float) -> int:
        if self.log_from is None:
            lo, hi = self.spin.minimum(), self.spin.maximum()
            return round((v - lo) / (hi - lo) * self.slider.maximum()) if hi > lo else 0
        if v < self.log_from:
            return 0
        lo, hi = math.log10(self.log_from), math.log10(self.spin.maximum())
        return 1 + round((math.log10(v) - lo) / (hi - lo) * (self.slider.maximum() - 1))

    def _from_pos(self, pos: int) -> float:
        if self.log_from is None:
            lo, hi = self.spin.minimum(), self.spin.maximum()
            return lo + (hi - lo) * pos / self.slider.maximum()
        if pos == 0:
            return 0.0
        lo, hi = math.log10(self.log_from), math.log10(self.spin.maximum())
        v = 10 ** (lo + (hi - lo) * (pos - 1) / (self.slider.maximum() - 1))
        return float(f"{v:.2g}")  # round numbers along a log slider: 0.01, 0.012, 0.015...

    def _typed(self, v: float):
        self.slider.blockSignals(True)
        self.slider.setValue(self._to_pos(v))
        self.slider.blockSignals(False)
        self.valueChanged.emit(float(v))

    def _slid(self, pos: int):
        value = self._from_pos(pos)
        here = self.spin.value()
        if round(value, self.spin.decimals()) == here and pos != self._to_pos(here):
            # two positions of a log slider can round to one value: a step of the slider is a step of the box
            self.spin.stepBy(1 if pos > self._to_pos(here) else -1)
            return
        self.spin.setValue(value)  # emits through _typed, with the value as shown

    def value(self) -> float:
        return float(self.spin.value())

    def setValue(self, v: float) -> None:  # noqa: N802
        """Show ``v`` without emitting."""
        self.spin.blockSignals(True)
        self.slider.blockSignals(True)
        self.spin.setValue(v)
        self.slider.setValue(self._to_pos(v))
        self.spin.blockSignals(False)
        self.slider.blockSignals(False)

    def setToolTip(self, tip: str) -> None:  # noqa: N802
        super().setToolTip(tip)
        self.spin.setToolTip(tip)
        self.slider.setToolTip(tip)


#: keys beyond the printable ones that a standard keyboard has (Qt also binds, say, Undo to F14 and to
#: the multimedia keyboard's Undo key: nobody looks for those on a shortcut sheet)
_KEYBOARD_KEYS = {getattr(Qt.Key, f"Key_{name}") for name in (
    "Escape", "Tab", "Backtab", "Backspace", "Return", "Enter", "Insert", "Delete", "Home", "End", "Left",
    "Up", "Right", "Down", "PageUp", "PageDown", "Space")} | {getattr(Qt.Key, f"Key_F{i}") for i in range(1, 13)}


def on_a_keyboard(sequence: QKeySequence) -> bool:
    """Whether every key of the sequence is on a standard keyboard."""
    return sequence.count() > 0 and all(
        sequence[i].key().value < 0x01000000 or sequence[i].key() in _KEYBOARD_KEYS for i in range(sequence.count()))


class ShortcutsDialog(QDialog):
    """Help > Keyboard shortcuts: a two-column sheet in large type, readable on a projector, in sections
    (the menus, then the canvas's own keys and gestures). Deleted when closed: opening it again makes
    a new one, never a pile of hidden ones."""

    def __init__(self, sections, parent=None):
        """``sections``: [(title, [(keys, what it does), ...]), ...]."""
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("Keyboard shortcuts")
        n = sum(1 + len(rows) for _, rows in sections)
        table = QTableWidget(n, 2)
        table.setHorizontalHeaderLabels(["Keys", "Does"])
        table.verticalHeader().setVisible(False)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        table.setWordWrap(False)
        font = table.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        table.setFont(font)
        bold = QFont(font)
        bold.setBold(True)
        self._rows, self._titles = [], []
        r = 0
        for title, rows in sections:
            head = QTableWidgetItem(title)
            head.setFont(bold)
            head.setBackground(self.palette().alternateBase())
            table.setItem(r, 0, head)
            table.setSpan(r, 0, 1, 2)
            self._titles.append((r, title))
            r += 1
            for keys, what in rows:
                k = QTableWidgetItem(keys)
                k.setFont(bold)
                table.setItem(r, 0, k)
                table.setItem(r, 1, QTableWidgetItem(what))
                self._rows.append((keys, what))
                r += 1
        h = table.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        h.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table = table
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(table)
        lay.addWidget(buttons)
        width = table.horizontalHeader().length() + table.verticalScrollBar().sizeHint().width() + 40
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        if screen is not None and width > screen.width() - 40:  # a projector's width in large type: the
            table.setWordWrap(True)  # "Does" column takes the room there is and wraps, never cut or scrolled
            h.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
            width = screen.width() - 40
        self.resize(width, min(720, screen.height() - 60) if screen else 640)

    def rows(self) -> list[tuple[str, str]]:
        """(keys, what they do), every section's, in order."""
        return list(self._rows)

    def section_titles(self) -> list[str]:
        return [t for _, t in self._titles]


def undo_icon(redo: bool = False) -> QIcon:
    """The desktop theme's undo (redo) icon, or a curved arrow turning back (forward) drawn here: not the
    back and forward triangles of a browser."""
    name = "edit-redo" if redo else "edit-undo"
    if QIcon.hasThemeIcon(name):
        return QIcon.fromTheme(name)
    icon = QIcon()
    palette = QApplication.palette()
    for mode, group in ((QIcon.Mode.Normal, QPalette.ColorGroup.Active),
                        (QIcon.Mode.Disabled, QPalette.ColorGroup.Disabled)):  # dimmed as the palette dims text
        color = palette.color(group, QPalette.ColorRole.WindowText)
        for size in (16, 22, 24, 32, 48):
            icon.addPixmap(_curved_arrow(size, redo, color), mode)
    return icon


def _curved_arrow(size: int, redo: bool, color: QColor) -> QPixmap:
    """An arrow in ``color`` that comes over the top from the right and points down-left at its end (undo); redo
    is its mirror image."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    if redo:
        p.translate(size, 0)
        p.scale(-1, 1)
    s = size / 24
    pen = QPen(color, 2.4 * s, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    arc = QPainterPath(QPointF(19 * s, 18 * s))  # from lower right, up and over to the left
    arc.cubicTo(QPointF(21 * s, 9 * s), QPointF(13 * s, 5 * s), QPointF(6 * s, 10 * s))
    p.drawPath(arc)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(color)
    p.drawPolygon(QPolygonF([QPointF(2.5 * s, 12.5 * s), QPointF(4.5 * s, 5 * s), QPointF(10.5 * s, 11 * s)]))
    p.end()
    return pix


class DocumentLineEdit(QLineEdit):
    """A field whose text is applied to the document on Enter: Ctrl+Z and Ctrl+Shift+Z (Undo and Redo) go to
    the document's history, as everywhere else in the window, not to the field's own typing history (which
    would empty the box and leave the applied value in force)."""

    def event(self, ev):
        if ev.type() == QEvent.Type.ShortcutOverride and (ev.matches(QKeySequence.StandardKey.Undo)
                                                         or ev.matches(QKeySequence.StandardKey.Redo)):
            ev.ignore()  # not the field's: the window's Edit > Undo (Redo) takes the key
            return False
        return super().event(ev)


def fit_on_screen(widget: QWidget, width: int, height: int) -> None:
    """Resize a window about to be shown to ``width`` x ``height``, or to what its screen's free area holds: 95% of
    its width and 92% of its height, leaving room for the window manager's title bar and frame (a dialog sized
    for a large screen put its buttons below the bottom of a projector's 1024 x 768)."""
    screen = widget.screen()
    room = screen.availableGeometry() if screen is not None else None
    if room is not None and room.width() > 0 and room.height() > 0:
        width, height = min(width, int(0.95 * room.width())), min(height, int(0.92 * room.height()))
    widget.resize(width, height)


def plain_ticks(axis: pg.AxisItem) -> None:
    """``axis``'s tick labels as the figures write them (:func:`~probviz.figure_layout.tick_labels`): the numbers
    they are, 0.25, not 250 with "(x0.001)" beside the axis's name; far from the origin or large, each its own,
    not "1e+06" at every tick. A logarithmic axis keeps pyqtgraph's labels (its values are exponents)."""
    axis.enableAutoSIPrefix(False)
    if getattr(axis, "_ticks_plain", False):
        return  # (an axis kept when another of its plot's is replaced)
    axis._ticks_plain = True
    own = axis.tickStrings
    axis.tickStrings = lambda values, scale, spacing: (
        own(values, scale, spacing) if axis.logMode else tick_labels([v * scale for v in values], spacing * scale))


class EdgeAxis(pg.AxisItem):
    """pyqtgraph's axis, whose labels may reach past its ends by ``hideOverlappingLabels`` pixels with a grid too
    (with one pyqtgraph ignores it, and leaves out a label at the axis's end: a run of ten steps read 0 to 9)."""

    def boundingRect(self):  # noqa: N802 (Qt's name)
        rect = super().boundingRect()
        reach = self.style["hideOverlappingLabels"]
        if self.grid is False or isinstance(reach, bool) or self.orientation not in ("bottom", "top"):
            return rect  # (pyqtgraph's own rule)
        return rect.adjusted(-reach, 0, reach, 0)


class SmallPlot(pg.PlotWidget):
    """A plot that asks for little room: the dock beside the canvas sets its size, not the plot."""

    def __init__(self, height: int = 220, parent=None):
        # no context menu: never made (a third of a plot's making); the axes that show (pyqtgraph shows those given)
        axes = {o: EdgeAxis(o) for o in ("left", "bottom")}
        super().__init__(parent, enableMenu=False, axisItems=axes)
        self._height = height
        self.setMouseEnabled(x=False, y=False)
        self.plotItem.hideButtons()  # pyqtgraph's "A" (auto-range): these plots frame themselves
        self._plain_ticks()
        self._cache_axes()
        self.setAxisItems = self._set_axis_items  # (pyqtgraph's PlotWidget sets its plot item's as its own)

    def _set_axis_items(self, axis_items=None):
        self.plotItem.setAxisItems(axis_items)
        self._plain_ticks()
        self._cache_axes()

    def _cache_axes(self):
        """Each axis kept as a pixmap until it changes. With a grid an axis spans the plot, and replaying its
        lines into the widget, clipped to the region a step repaints, cost the Training panel's plot of E(w)
        8.8 ms a paint, 1.7 without the grid and 2.3 with the axes cached (offscreen, 2 cores; a step then
        drawn in 12-27 ms against 22-33)."""
        for name in ("left", "bottom", "right", "top"):
            self.plotItem.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def _plain_ticks(self):
        for name in ("left", "bottom", "right", "top"):
            plain_ticks(self.plotItem.getAxis(name))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(300, self._height)

    def apply_style(self, style) -> None:
        """Background, axes and legend text in the window's theme, the axes' names and the legend in the
        panel's own text size (presentation mode's when it is on), as its tick labels are."""
        self.setBackground(style.background)
        fg = pg.mkColor(*style.foreground)
        font = QFont(self.font())
        for name in ("left", "bottom", "right"):
            ax = self.plotItem.getAxis(name)
            if name != "right":
                ax.setPen(fg)
                ax.setTextPen(fg)
            ax.setTickFont(font)
            ax.label.setFont(font)
            ax._updateLabel()  # its room follows the name's new size
        # a tick label is centred on its tick: at the bottom axis's right end half of it stands beyond the axis, and
        # pyqtgraph leaves it out (a run of ten steps ended at "9"): room kept for half a five-digit label, and the
        # axis draws a label that reaches into it
        right = QFontMetrics(font).horizontalAdvance("00000") // 2 + 1
        left, top, _, bottom = self.plotItem.layout.getContentsMargins()
        self.plotItem.layout.setContentsMargins(left, top, right, bottom)
        self.plotItem.getAxis("bottom").setStyle(hideOverlappingLabels=right)
        legend = self.plotItem.legend
        if legend is not None:
            legend.setLabelTextColor(fg)
            legend.setLabelTextSize(f"{font.pointSizeF():g}pt")
            for _sample, label in legend.items:  # a label takes its new size with its text
                label.setText(label.text)
            legend.updateSize()
        self.plotItem.titleLabel.setAttr("color", fg)


class PlotSlot(QWidget):
    """The place of a SmallPlot in a panel's layout, the plot made the first time it is asked for (``plot``):
    a pyqtgraph plot takes about 20 ms to make, and a panel behind another tab, or one a model never shows,
    need not cost the window's start that. Before then the slot asks for the plot's room, so the panel's
    layout is the same either way; the window's style reaches the plot once it is made."""

    def __init__(self, make, height: int = 220, parent=None):
        super().__init__(parent)
        self._make, self._height = make, height
        self._plot: SmallPlot | None = None
        self._style = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        QVBoxLayout(self).setContentsMargins(0, 0, 0, 0)

    @property
    def made(self) -> bool:
        return self._plot is not None

    @property
    def plot(self) -> SmallPlot:
        if self._plot is None:
            plot = self._plot = self._make()
            if self._style is not None:
                plot.apply_style(self._style)
            self.layout().addWidget(plot)
        return self._plot

    def apply_style(self, style) -> None:
        self._style = style
        if self._plot is not None:
            self._plot.apply_style(style)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return self._plot.sizeHint() if self._plot is not None else QSize(300, self._height)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        if self._plot is not None:
            return self._plot.minimumSizeHint()
        if PlotSlot._least is None:  # a plot's least size is its view's (its frame and scroll bars)
            PlotSlot._least = pg.GraphicsView().minimumSizeHint()
        return PlotSlot._least

    _least: QSize | None = None


class FocusRing(QWidget):
    """A ring in the highlight colour around the control that Tab (or Shift+Tab) has moved the keyboard
    focus to, inside ``host``: Fusion's own focus frame is a faint line, easy to lose on a projector.
    A click's focus shows no ring, as on the web (:focus-visible): Qt marks a window whose focus last
    moved by keyboard with WA_KeyboardFocusChange, and clears the mark on a click."""

    def __init__(self, host: QWidget):
        super().__init__(host)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.host, self.target = host, None
        self.hide()
        QApplication.instance().focusChanged.connect(self._focus_moved)

    def _focus_moved(self, _old, new):
        if not shiboken6.isValid(self) or not shiboken6.isValid(self.host):
            return  # the panel is gone; Qt disconnects on its own only after this
        if self.target is not None and shiboken6.isValid(self.target):
            self.target.removeEventFilter(self)
        keyboard = new is not None and new.window().testAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange)
        self.target = new if keyboard and self.host.isAncestorOf(new) else None
        if self.target is not None:
            self.target.installEventFilter(self)  # follow it when the layout moves it
        self._follow()

    def eventFilter(self, obj, ev):  # noqa: N802 (Qt's name)
        if obj is self.target and ev.type() in (QEvent.Type.Move, QEvent.Type.Resize, QEvent.Type.Hide,
                                                QEvent.Type.Show):
            self._follow()
        return False

    def _follow(self):
        t = self.target
        if t is None or not t.isVisible():
            self.hide()
            return
        pad = 3
        self.setGeometry(t.rect().translated(t.mapTo(self.host, QPoint(0, 0))).adjusted(-pad, -pad, pad, pad))
        self.raise_()
        self.show()
        self.update()

    def paintEvent(self, _ev):  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), 2.5))
        p.drawRoundedRect(QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5), 4, 4)
