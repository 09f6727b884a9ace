"""Press every control of the window as a person does, and see what changed.

Used by the walker (test_press_everything.py) and the round trips: a fingerprint of everything a
person can see, a closer that answers the modal dialogs a press opens, and one way to press each
kind of control (a button is clicked, a combo box's choice is clicked in its popup, a spin box or a
slider is stepped with the arrow key, an action is triggered from its menu or toolbar).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QTimer, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractButton, QAbstractSpinBox, QApplication, QCheckBox, QComboBox, QDialog, QDockWidget, QLabel,
    QMenu, QSlider, QStyle, QStyleOptionButton, QTabBar, QToolBar, QToolButton, QWidget,
)

from guihelp import settle


# --- what a person sees ---------------------------------------------------------------------------

def _digest(data) -> str:
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def canvas_digest(win) -> str:
    image = win.canvas.grab().toImage()
    return _digest(bytes(image.constBits()))


def document_state(doc) -> tuple:
    """The document as values: points, classes, model and its settings, truth, view state."""
    vs = doc.view_state
    truth = doc.truth
    truth_key = None if truth is None else _digest(repr(
        [np.round(np.asarray(a, float), 12).tolist() for a in (truth.priors, truth.means_, truth.covariances_)]
        if truth.single else repr(truth)).encode())
    return (_digest(np.ascontiguousarray(doc.X).tobytes()), _digest(np.ascontiguousarray(doc.labels).tobytes()),
            tuple((c.name, c.color) for c in doc.classes), doc.model_name, repr(sorted(doc.params[doc.model_name].items())),
            None if doc.priors is None else tuple(np.round(doc.priors, 9)), doc.theta, doc.probe, truth_key,
            tuple(sorted(vs.layers)), vs.active_class, vs.compare, vs.split, vs.section, doc.title)


def _shown(w: QWidget) -> bool:
    return w.isVisible() and w.window().isVisible()


def control_states(win, skip=()) -> tuple:
    """The state of every enabled, visible control a person reads off the window: checked, value,
    choice (``skip``: the control just pressed, whose own change is no effect)."""
    out = []
    for w in win.findChildren(QWidget):
        if w in skip or not _shown(w) or not w.isEnabled():
            continue
        if isinstance(w, QAbstractButton) and w.isCheckable():
            out.append((w.objectName(), type(w).__name__, w.text(), w.isChecked()))
        elif isinstance(w, QAbstractSpinBox):
            out.append((type(w).__name__, w.text()))
        elif isinstance(w, QSlider):
            out.append(("slider", w.value()))
        elif isinstance(w, QComboBox):
            out.append(("combo", w.currentText()))
        elif isinstance(w, QTabBar):
            out.append(("tab", w.tabText(w.currentIndex())))
    return tuple(out)


def label_texts(win) -> tuple:
    return tuple(label.text() for label in win.findChildren(QLabel) if _shown(label))


def clipboard_state() -> tuple:
    data = QGuiApplication.clipboard().mimeData()
    if data is None:
        return ()
    image = QGuiApplication.clipboard().image()
    return (data.text(), None if image.isNull() else _digest(bytes(image.constBits())))


def fingerprint(win, skip=()) -> dict:
    """Everything a person can see of the window, as comparable values (each part named, so a test
    can say what changed)."""
    docks = [d for d in win.findChildren(QDockWidget)]
    app = QApplication.instance()
    return {
        "canvas": canvas_digest(win),
        "title": win.windowTitle(),
        "modified": win.isWindowModified(),
        "status": win.message.text(),
        "undo": (win.doc.undo_stack.undoText(), win.doc.undo_stack.index()),
        "docks": tuple((d.objectName(), d.isVisible(), d.isFloating()) for d in docks),
        "window": (int(win.windowState().value), win.isVisible(), app.font().pointSizeF(),
                   app.palette().window().color().name()),
        "labels": label_texts(win),
        "controls": control_states(win, skip),
        "document": document_state(win.doc),
        "clipboard": clipboard_state(),
    }


def changed(before: dict, after: dict) -> list[str]:
    return [k for k in before if before[k] != after[k]]


# --- modal dialogs ----------------------------------------------------------------------------------

@dataclass
class DialogCloser:
    """Answers every modal dialog with Cancel/Close (Escape) as soon as it is up, and remembers which
    appeared: file dialogs, message boxes, the export dialog, learning curves, About, the key sheet."""

    seen: list = field(default_factory=list)

    def __post_init__(self):
        self.timer = QTimer()
        self.timer.setInterval(15)
        self.timer.timeout.connect(self._close)

    def _close(self):
        w = QApplication.activeModalWidget()
        if w is None:
            return
        self.seen.append((type(w).__name__, w.windowTitle()))
        if isinstance(w, QDialog):
            w.reject()
        else:
            w.close()

    def __enter__(self):
        self.timer.start()
        return self

    def __exit__(self, *exc):
        self.timer.stop()


# --- pressing -------------------------------------------------------------------------------------------

def menu_actions(menu: QMenu, path=()):
    """(path, action) for every action of ``menu`` and its submenus, as a person opens them (a submenu
    fills itself when it is about to show)."""
    for a in menu.actions():
        if a.isSeparator():
            continue
        sub = a.menu()
        name = path + (a.text().replace("&", ""),)
        if sub is not None:
            sub.aboutToShow.emit()  # what opening it does: Open Recent lists the files now
            yield from menu_actions(sub, name)
        else:
            yield name, a


def all_menu_actions(win):
    for top in win.menuBar().actions():
        if top.menu() is not None:
            yield from menu_actions(top.menu(), (top.text().replace("&", ""),))


def toolbar_actions(win):
    for tb in win.findChildren(QToolBar):
        for a in tb.actions():
            button = tb.widgetForAction(a)
            if a.isSeparator() or not isinstance(button, QToolButton):
                continue  # a widget of its own (the brush radius) is not an action
            yield ("toolbar " + tb.windowTitle(), a.text().replace("&", "") or a.toolTip()), a, button


def choose(qtbot, combo: QComboBox, index: int) -> None:
    """Open the combo box's list and click the choice, as a person picks it."""
    combo.showPopup()
    view = combo.view()
    model_index = combo.model().index(index, combo.modelColumn(), combo.rootModelIndex())
    view.scrollTo(model_index)
    rect = view.visualRect(model_index)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    if view.isVisible():  # a choice that is disabled leaves the list open
        combo.hidePopup()


def step(qtbot, w) -> None:
    """One step up of a spin box or slider (one step down at its maximum), by the arrow keys."""
    if isinstance(w, QSlider):
        up = w.value() < w.maximum()
        qtbot.keyClick(w, Qt.Key.Key_Right if up else Qt.Key.Key_Left)
    else:
        up = w.value() < w.maximum()
        qtbot.keyClick(w, Qt.Key.Key_Up if up else Qt.Key.Key_Down)


def press_button(qtbot, button: QAbstractButton) -> None:
    """Click where a person clicks: a check box on its box (its row may be much wider than its text)."""
    pos = button.rect().center()
    if isinstance(button, QCheckBox):
        opt = QStyleOptionButton()
        button.initStyleOption(opt)
        pos = button.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, opt, button).center()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=pos)


def wait_quiet(win, ms: int = 0) -> None:
    settle(win)
    if ms:
        from PySide6.QtTest import QTest
        QTest.qWait(ms)
        settle(win)
