"""Every control a person can press, pressed in a real (offscreen) window, for every model.

Each press must raise nothing, warn nothing, and change something a person can see (the canvas,
the title, the status line, the undo text, a dock, a label, a control, the document, the clipboard,
or a dialog that opens); a control that can do nothing must be disabled. Between presses the window
goes back to where it started, so each control is judged on its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest
from PySide6.QtCore import QEvent, QtMsgType
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractButton, QAbstractSpinBox, QApplication, QComboBox, QDialog, QDockWidget, QFormLayout, QSlider,
)

from guihelp import settle
from pressing import (
    DialogCloser, all_menu_actions, changed, choose, fingerprint, press_button, step, toolbar_actions,
)
from probviz.data import examples
from probviz.layers import LAYER_LABELS
from probviz.models import MODEL_NAMES, REGISTRY
from probviz.models.training import DEFAULT_ETA

TWO_CLASSES, THREE_CLASSES = "fruit", "shared-vs-own-covariance"
TRAINABLE = ("logistic", "softmax", "perceptron")

#: controls whose value is a setting for a later action, not an action: stepping one changes only
#: the control itself (it shows when that action runs: a sample's size and seed, Play's speed, the brush)
SETTINGS_FOR_LATER = {
    ("Lab", "Points"), ("Lab", "Seed"), ("Lab", "Then"), ("Training", "Speed"),
}


#: what the offscreen platform cannot do (a real screen can): no fault of the program
OFFSCREEN_LIMITS = "This plugin does not support"


def settle_all(win, errors=False) -> None:
    """Every pending fit drawn; with ``errors``, the Lab's true errors too (the costliest numbers in the
    window, computed on its worker while the Lab is in front)."""
    import time

    from PySide6.QtWidgets import QApplication

    settle(win)
    deadline = time.monotonic() + 20
    while errors and win.result is not None and win.result.errors_pending and time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.005)
        win.refitter.flush()
    settle(win)


def _select_some(win):
    """Five points of the first class selected, the second class active: what the selection commands act on."""
    first = (win.doc.labels == 0).nonzero()[0][:5]
    win.canvas.set_selection(first)
    win.doc.set_active_class(1)


def _look_away(win):
    """The view moved off the data, for the commands that frame it."""
    x0, x1, y0, y1 = win.canvas.view_bounds()
    win.canvas.vb.setRange(xRange=(x1, 2 * x1 - x0), yRange=(y1, 2 * y1 - y0), padding=0)


def _an_edit(win):
    win.doc.add_points([[0.5, 0.5]], 0)


def _an_undone_edit(win):
    _an_edit(win)
    win.doc.undo_stack.undo()


#: what a control acts on, put there before it is pressed (the command has nothing to do otherwise)
PREPARE = {
    "Delete point or selection": _select_some,
    "Clear selection": _select_some,
    "Move selection to the active class": _select_some,
    "Undo": _an_edit,
    "Redo": _an_undone_edit,
    "Remove probe": lambda win: win.doc.set_probe((1.0, 1.0)),
    "Reset to frequencies": lambda win: win.doc.set_priors([0.2] + [0.8 / (len(win.doc.classes) - 1)]
                                                           * (len(win.doc.classes) - 1)),
    "Learning rate η": lambda win: win.training.step(3),  # a run on screen, which a new η starts again
    "Reset": lambda win: win.training.step(3) if win.training.trainable else None,
    "Reset training": lambda win: win.training.step(3) if win.training.trainable else None,
    "Fit view to data": _look_away,
    "Fit view": _look_away,
    "Clear the line": lambda win: win.doc.view_state.set_section(((0.0, 0.0), (2.0, 2.0))),
}


# --- the window at its starting point -------------------------------------------------------------------

def start(win, example: str, model: str) -> None:
    """The example with the model chosen, a clean history, every dock shown (as code: this is setup)."""
    session = examples.session(example)
    session.model = model
    win.files.path = None
    win.load_session(session)
    settle(win)


def reset_window(win, example, model, base_doc, base_view) -> None:
    """Back to the start: window state as code, the document reloaded only if a press changed it."""
    from pressing import document_state

    # a dialog left open by a press, modal or not (the ROC dialog from Tools: its controls would join the
    # Lab's); closing one may delete another: ask Qt again each time
    for _ in range(20):
        dialog = next((w for w in QApplication.topLevelWidgets()
                       if w is not win and w.isVisible() and (w.isModal() or isinstance(w, QDialog))), None)
        if dialog is None:
            break
        dialog.close()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    if win.isFullScreen():
        win.showNormal()
    if win.presentation_action.isChecked():
        win.set_presentation(False)
    if win.dark_action.isChecked():
        win.set_dark(False)
    if win.legend_action.isChecked():
        win.legend_action.setChecked(False)
        win._legend_toggled(False)
    for dock in (win.dock, win.training_dock, win.lab_dock):
        dock.setFloating(False)
        dock.show()
    win.set_tool("add")
    t = win.training
    t.play_button.setChecked(False)
    t.active.setChecked(False)
    if t.optimizer.currentIndex() != 0:
        t.optimizer.setCurrentIndex(0)
    t.eta.setValue(DEFAULT_ETA[t.name])
    t.speed.setValue(10)
    t.start.setCurrentIndex(0)
    lab = win.lab
    lab.n.setValue(250)
    lab.seed.setValue(0)
    lab.mode.setCurrentIndex(0)
    win.canvas.set_selection([])
    win.dock.raise_()
    if document_state(win.doc) != base_doc or win.doc.is_modified() or win.doc.undo_stack.count():
        start(win, example, model)
        t.reset()
    if win.canvas.view_bounds() != base_view:
        x0, x1, y0, y1 = base_view
        win.canvas.vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
    QGuiApplication.clipboard().clear()
    settle(win)


# --- what there is to press ----------------------------------------------------------------------------

def _label_of(w) -> str:
    """A control's name as a person reads it: its text, else its form label, else its tooltip."""
    if isinstance(w, QAbstractButton) and w.text():
        return w.text()
    p = w
    while p is not None:  # a spin box inside a NumberField is labelled in the form that holds the field
        parent = p.parentWidget()
        for form in parent.findChildren(QFormLayout) if parent is not None else ():
            label = form.labelForField(p)
            if label is not None and hasattr(label, "text") and label.text():
                return label.text()
        p = parent
    return (w.toolTip() or type(w).__name__)[:40]


def dock_controls(win, dock: QDockWidget):
    """(name, control) of every control shown in the dock: buttons, combo boxes, spin boxes, sliders."""
    out = []
    for w in dock.widget().findChildren(QAbstractButton) + dock.widget().findChildren(QComboBox) + \
            dock.widget().findChildren(QAbstractSpinBox) + dock.widget().findChildren(QSlider):
        if w.metaObject().className() == "QTableCornerButton" or not w.isVisibleTo(dock):
            continue  # Qt's own select-all corner of a table, not a control of the program
        out.append(((dock.windowTitle(), _label_of(w)), w))
    return out


# --- pressing one control ---------------------------------------------------------------------------------

class Walk:
    def __init__(self, qtbot, qtlog, capfd, win, example, model):
        self.qtbot, self.qtlog, self.capfd, self.win = qtbot, qtlog, capfd, win
        self.example, self.model = example, model
        self.problems: list[str] = []
        self.wanted = lambda name: True  # which controls this walk presses, by their names
        self.pressed: list[str] = []
        from pressing import document_state
        start(win, example, model)
        self.base_doc = document_state(win.doc)
        self.base_view = win.canvas.view_bounds()

    def reset(self):
        reset_window(self.win, self.example, self.model, self.base_doc, self.base_view)

    def prepare(self, name):
        """The window back at the start, with what the control ``name`` acts on put there."""
        self.reset()
        for part in name:
            if part in PREPARE:
                PREPARE[part](self.win)
        settle_all(self.win)

    def press(self, name, do, own=(), expect_change=True, dock=None, prepared=False):
        """Press (``do``) and judge: nothing raised or warned, and something a person sees changed. The window
        is put back to the start and what the control acts on is prepared first, unless the caller has just
        done both (``prepared``)."""
        win, qtbot = self.win, self.qtbot
        if not self.wanted(name):
            return []
        t0 = time.perf_counter()
        if not prepared:
            self.prepare(name)
        if dock is not None:
            dock.raise_()
        settle_all(win, errors=dock is win.lab_dock)
        own = own() if callable(own) else own
        before = fingerprint(win, skip=own)
        warned = len(self.qtlog.records)
        self.capfd.readouterr()
        with DialogCloser() as closer, qtbot.captureExceptions() as raised:
            do()
            settle_all(win, errors=dock is win.lab_dock)
        after = fingerprint(win, skip=own)
        label = " > ".join(name)
        self.pressed.append((label, time.perf_counter() - t0))
        warnings = [r.message for r in self.qtlog.records[warned:]
                    if r.type != QtMsgType.QtDebugMsg and not r.message.startswith(OFFSCREEN_LIMITS)]
        err = self.capfd.readouterr().err
        if raised:
            self.problems.append(f"{label}: raised {raised[0][1]!r}")
        if warnings:
            self.problems.append(f"{label}: Qt warned {warnings[:2]}")
        if "Traceback" in err:
            self.problems.append(f"{label}: printed a traceback: {err.strip().splitlines()[-1]}")
        what = changed(before, after) + (["a dialog"] if closer.seen else [])
        if expect_change and not what:
            self.problems.append(f"{label}: enabled, yet nothing a person can see changed")
        return what

    def action(self, name, a):
        self.prepare(name)
        if not a.isEnabled() or not a.isVisible():
            return
        if a.isCheckable() and a.isChecked() and a.actionGroup() is not None and a.actionGroup().isExclusive():
            return  # the current choice of a group (the model shown, the tool in hand) stays chosen
        # a Train command is judged with the Training dock in front: bringing it forward is not a step
        dock = self.win.training_dock if name[0] == "Train" else None
        self.press(name, a.trigger, dock=dock, prepared=True)

    def control(self, key, dock):
        """Press the control ``key`` names (found again after each reset: forms are rebuilt)."""
        name = key[0]
        w = find(self.win, dock, key)
        if w is None or not any(self.wanted(n) for n in _press_names(name, w)):
            return  # nothing of it is pressed in this walk
        self.prepare(name)
        w = find(self.win, dock, key)
        if w is None or not w.isEnabled():
            return
        expect = name not in SETTINGS_FOR_LATER

        def again(do):
            def run():
                do(find(self.win, dock, key))
            return run

        def own():
            # a NumberField's spin box and slider are one control: one moving the other is no effect
            w = find(self.win, dock, key)
            field = w.parentWidget()
            if isinstance(w, (QAbstractSpinBox, QSlider)) and field is not None and hasattr(field, "slider"):
                return {w, field.spin, field.slider}
            return {w}

        if isinstance(w, QComboBox):
            enabled = [w.model().item(i).isEnabled() if hasattr(w.model(), "item") else True for i in range(w.count())]
            others = [i for i in range(w.count()) if i != w.currentIndex() and enabled[i]]
            for n, i in enumerate(others):  # the first choice from the window as prepared, the rest from a reset
                self.press(name + (w.itemText(i),), again(lambda c, i=i: choose(self.qtbot, c, i)), own, expect, dock,
                           prepared=n == 0)
        elif isinstance(w, (QAbstractSpinBox, QSlider)):
            self.press(_press_names(name, w)[0], again(lambda c: step(self.qtbot, c)), own, expect, dock,
                       prepared=True)
        else:
            self.press(name, again(lambda c: press_button(self.qtbot, c)), own, expect, dock, prepared=True)


def _press_names(name, w):
    """The names a control is pressed under: a combo box's once per choice, any other's once."""
    if isinstance(w, QComboBox):
        return [name + (w.itemText(i),) for i in range(w.count())]
    if isinstance(w, (QAbstractSpinBox, QSlider)):
        return [name + (f"step the {'slider' if isinstance(w, QSlider) else 'box'}",)]
    return [name]


def control_keys(win, dock):
    """A key for each control of the dock: its name, its type, and which of that name it is."""
    keys, seen = [], {}
    for name, w in dock_controls(win, dock):
        n = seen[(name, type(w).__name__)] = seen.get((name, type(w).__name__), -1) + 1
        keys.append((name, type(w).__name__, n, w))
    return keys


def find(win, dock, key):
    for k in control_keys(win, dock):
        if k[:3] == key[:3]:
            return k[3]
    return None


def walk(walker: Walk, wanted=lambda name: True):
    """Press every action of the menus and toolbars, then every control of each dock (those ``wanted``
    says), and Quit last; the problems found."""
    win = walker.win
    walker.wanted = wanted
    quit_action = None
    for name, a in list(all_menu_actions(win)):
        if not wanted(name):
            continue
        if name[-1] == "Quit":
            quit_action = (name, a)
            continue
        if name[:2] == ("File", "Examples") and name[-1] == walker.example:
            continue  # reopening the example on screen shows the same thing
        walker.action(name, a)
    for name, a, button in list(toolbar_actions(win)):
        if wanted(name):
            walker.reset()
            if button.isEnabled() and not (a.isChecked() and a.actionGroup() is not None):
                walker.press(name, lambda b=button: press_button(walker.qtbot, b))
    for dock in (win.dock, win.training_dock, win.lab_dock):
        walker.reset()
        dock.raise_()
        settle(win)
        for key in control_keys(win, dock):
            walker.control(key, dock)  # pressed if ``wanted`` (a combo box's choices are named one by one)
    if quit_action is not None:  # last: the window closes
        walker.reset()
        walker.press(quit_action[0], quit_action[1].trigger)
        if win.isVisible():
            walker.problems.append("File > Quit left the window open")
    return walker.problems


@pytest.fixture
def coarse(monkeypatch):
    """A coarser posterior image: the walk judges controls, not pixels, and makes hundreds of fits."""
    monkeypatch.setattr("probviz.app.refit.FrameSource.GRID", (64, 64))
    monkeypatch.setattr("probviz.app.refit.FrameSource.DRAFT_GRID", (64, 64))  # a drag's frames too


@pytest.fixture
def no_quitting():
    app = QApplication.instance()
    app.setQuitOnLastWindowClosed(False)  # File > Quit closes the window, never the test run
    yield
    app.setQuitOnLastWindowClosed(True)


def _depends_on_the_model(name) -> bool:
    """What a model changes: its Train menu, its layers, its panel (form, priors, projections), the
    Training dock; not the File, Edit, Tools or Help menus, nor the Lab (the same for every model)."""
    head = name[0]
    if head in ("Train", "Training"):
        return True
    if head == "View":
        return name[-1] in LAYER_MENU_LABELS
    if head == "Model":  # the panel's controls, not the choice of model (menu, M, the panel's list)
        return name[1] not in MODEL_LABELS | {"Next model"} and not name[1].startswith("The classifier fitted")
    return False


LAYER_MENU_LABELS = {label for label, _ in LAYER_LABELS.values()}
MODEL_LABELS = {REGISTRY[m].label for m in MODEL_NAMES}

#: (example, model, what is pressed): every control in two windows, the model's own controls in the rest
#: (example, model, what is pressed): every control once; then each model's own controls with two
#: classes, and with three where a third class changes what the model does (one-vs-rest, one-vs-one,
#: the perceptron's and Fisher's two-class limit, softmax with the Lab's three-class truth); LDA and
#: naive Bayes with three classes differ from QDA only in their fits, not in their controls
CASES = ([(TWO_CLASSES, "lda", "everything"), (THREE_CLASSES, "softmax", "the model's controls and the Lab")]
         + [(TWO_CLASSES, m, "the model's controls") for m in MODEL_NAMES if m != "lda"]
         + [(THREE_CLASSES, m, "the model's controls") for m in ("qda", "logistic", "leastsquares", "fisher",
                                                                  "perceptron")])

SCOPES = {
    "everything": lambda name: True,
    "the model's controls": lambda name: _depends_on_the_model(name),
    "the model's controls and the Lab": lambda name: _depends_on_the_model(name) or name[0] == "Lab",
}


def _case_id(case):
    short = {"everything": "all", "the model's controls": "model"}.get(case[2], "model+lab")
    return f"{case[1]}-{case[0]}-{short}"


def known(example, model, label) -> str | None:
    """The reason a control is known to fail in this window (fixed elsewhere), else None."""
    for bug in KNOWN_BUGS:
        if example in bug.examples and model in bug.models and label in bug.controls:
            return bug.reason
    return None


@dataclass(frozen=True)
class Bug:
    reason: str
    models: tuple
    controls: frozenset
    examples: tuple = (TWO_CLASSES, THREE_CLASSES)


NOT_TRAINABLE = tuple(m for m in MODEL_NAMES if m not in TRAINABLE)
TRAINING_CONTROLS = frozenset({
    "Train > Show the training step", "Train > Play / pause", "Train > Step", "Train > Reset training",
    "Training > Show the training step on the canvas", "Training > Step", "Training > Play", "Training > Reset",
    "Training > Learning rate η > step the box", "Training > Learning rate η > step the slider"})

#: bugs known and not fixed here: the walk leaves these controls out, and each has a strict xfail test
#: (test_known_bug below) that turns red when the fix lands: then drop the entry
KNOWN_BUGS: list = []  # none today; a bug found by the walk goes here with the controls it names


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_every_control_does_something(qtbot, qtlog, capfd, coarse, no_quitting, settings_kept, window, case):
    example, model, scope = case
    walker = Walk(qtbot, qtlog, capfd, window, example, model)
    wanted = SCOPES[scope]
    problems = walk(walker, lambda name: wanted(name) and known(example, model, " > ".join(name)) is None)
    print(len(walker.pressed), "pressed in", f"{sum(t for _, t in walker.pressed):.1f} s")
    assert len(walker.pressed) > (60 if scope == "everything" else 8)  # the walk found the controls
    assert not problems, "\n".join(problems)


#: one window for each known bug (the first model and example it names): the fix turns it red
KNOWN_CASES = [pytest.param(bug, bug.examples[0], bug.models[0], id=f"{bug.models[0]}-{bug.examples[0]}",
                            marks=pytest.mark.xfail(strict=True, reason=bug.reason)) for bug in KNOWN_BUGS]


@pytest.mark.parametrize("bug, example, model", KNOWN_CASES)
def test_known_bug(qtbot, qtlog, capfd, coarse, settings_kept, window, bug, example, model):
    """Each control a known bug names, pressed in that window: red (XPASS) once the bug is fixed."""
    walker = Walk(qtbot, qtlog, capfd, window, example, model)
    problems = walk(walker, lambda name: " > ".join(name) in bug.controls)
    assert not problems, "\n".join(problems)
