"""The Training dock, driven as a student drives it: keys, buttons, Play; the canvas draws each step."""

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt

from guihelp import click, click_dock_tab, key, settle, type_into
from probviz.models import create
from probviz.models.training import OPTIMIZERS


def _open(qtbot, window, example, model):
    window.open_example(example)
    window.doc.set_model(model)
    settle(window)


def _shown(window):
    return window.result.fit.model


def _by_hand(window, steps, optimizer="gd"):
    """The model after ``steps`` steps of a trainer made here, from w = 0 on the document's points."""
    from probviz.models.training import Trainer

    t = Trainer(window.doc.model_name, window.doc.X, window.doc.labels, optimizer=optimizer)
    t.step(steps)
    return t.model()


def test_space_plays_and_pauses_and_the_canvas_draws_each_step(qtbot, window):
    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    t.speed.setValue(200)
    key(qtbot, window, Qt.Key.Key_Space)
    assert t.play_button.isChecked() and t.active.isChecked()
    qtbot.waitUntil(lambda: t.view.index >= 10, timeout=5000)
    key(qtbot, window, Qt.Key.Key_Space)
    assert not t.play_button.isChecked()
    settle(window)
    stopped = t.view.index
    qtbot.wait(100)
    assert t.view.index == stopped
    # the canvas shows that step's weights, not the fitted model
    X = window.doc.X
    step_model = _by_hand(window, stopped)
    np.testing.assert_allclose(_shown(window).predict_proba(X), step_model.predict_proba(X), atol=1e-12)
    fitted = create("logistic").fit(X, window.doc.labels)
    assert np.max(np.abs(_shown(window).predict_proba(X) - fitted.predict_proba(X))) > 1e-3
    assert f"step {stopped}" in t.readout.text()
    # T turns the step off: the fitted model is back
    key(qtbot, window, Qt.Key.Key_T)
    np.testing.assert_allclose(_shown(window).predict_proba(X), fitted.predict_proba(X), atol=1e-8)


def test_gd_sgd_and_newton_reach_the_same_boundary_at_their_own_pace(qtbot, window):
    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    X, y = window.doc.X, window.doc.labels
    fitted = create("logistic").fit(X, y).predict_proba(X)
    needed = {}
    for name, eta in (("newton", None), ("gd", 0.01), ("sgd", 0.05)):
        t.optimizer.setCurrentIndex(OPTIMIZERS.index(name))
        if eta is not None:
            type_into(qtbot, window, t.eta, str(eta))  # typed: a new run at this eta
        settle(window)
        steps = 0
        tolerance = {"newton": 1e-6, "gd": 0.02, "sgd": 0.05}[name]  # a constant eta leaves SGD jittering
        while np.max(np.abs(_shown(window).predict_proba(X) - fitted)) > tolerance if t.showing() else True:
            key(qtbot, window, Qt.Key.Key_Period) if steps < 20 else t.step(100 if steps < 1000 else 1000)
            settle(window)
            steps = t.view.index
            assert steps < 20000, name
        needed[name] = steps
    assert needed["newton"] <= 10 < needed["gd"]
    # the plot keeps each optimizer's run, so the paces are seen side by side
    labels = [c[0] for c in t.curves()]
    assert {"Newton / IRLS", "Gradient descent", "Stochastic gradient descent"} <= set(labels)


def test_sgd_rings_the_point_it_used(qtbot, window):
    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    t.optimizer.setCurrentIndex(OPTIMIZERS.index("sgd"))
    for _ in range(3):
        key(qtbot, window, Qt.Key.Key_Period)
    assert t.view.point == 2
    np.testing.assert_allclose(window.result.training.highlight, window.doc.X[2])
    np.testing.assert_allclose(window.canvas.spotlight.getData()[0], [window.doc.X[2][0]])
    text = t.readout.text()
    assert "point 3 (" in text and "(y_n − t_n) φ_n" in text.replace("\u00a0", " ")
    assert "(y_n − t_n) φ_n" not in text  # one term: no line breaks inside it ("(y_n − t_n)" ended a line)


def test_the_legend_keeps_off_the_ring_and_names_it(qtbot, window):
    """The legend went to the corner that hid the fewest points, over the ring of the point the SGD step used
    when that corner's one point was it. It now keeps off the ring first, and has a row for it. Every corner
    holds points; the top left only the first point, which the first step uses."""
    from guihelp import menu_action
    from pressing import choose, press_button

    from probviz.data.dataset import Dataset
    from probviz.models import REGISTRY

    X = np.array([[-4.0, 4.0], [4.0, 3.5], [-3.0, -4.2], [4.0, -3.5], [3.0, 4.0], [-4.0, -4.0], [3.0, -4.0],
                  [-1.0, 0.5], [1.0, -0.5]])
    window.load(Dataset(X, np.array([0, 0, 0, 0, 1, 1, 1, 0, 1]), ["a", "b"]))
    window.canvas.vb.setRange(xRange=(-5, 5), yRange=(-5, 5), padding=0)
    menu_action(window, REGISTRY["logistic"].label).trigger()
    menu_action(window, "Legend").trigger()
    click_dock_tab(qtbot, window, "Training")
    settle(window)
    canvas = window.canvas

    def legend_rect():
        return canvas.vb.mapRectFromScene(canvas.legend.sceneBoundingRect())

    first = X[0]
    ring_at = canvas.vb.mapFromView(QPointF(*first))
    assert legend_rect().contains(ring_at)  # (the fit's legend is in the top left corner, over the first point)
    t = window.training
    choose(qtbot, t.optimizer, t.optimizer.findData("sgd"))
    r = 1.1 * canvas.style.point_size + 3 * canvas.style.scale  # the ring's reach, its line included
    for step in range(len(X)):  # one point after another, in file order: the legend makes way for each
        press_button(qtbot, t.step_button)
        settle(window)
        np.testing.assert_array_equal(window.result.training.highlight, X[step])
        ring_at = canvas.vb.mapFromView(QPointF(*X[step]))
        assert not legend_rect().adjusted(-r, -r, r, r).contains(ring_at), (step, legend_rect(), ring_at)
    rows = [label.text for _sample, label in canvas.legend.items]
    assert "the point this SGD step used" in rows


def test_the_canvas_legend_names_the_optimizer_short(qtbot, window):
    """The legend's title names the step's optimizer by its short name ("Logistic regression, SGD, step 2"): the
    full name made the legend 525 pixels wide on a 790-pixel plot, over the boundary and the points."""
    from guihelp import menu_action
    from pressing import choose, press_button

    window.resize(1366, 740)
    _open(qtbot, window, "fruit", "logistic")
    menu_action(window, "Legend").trigger()
    click_dock_tab(qtbot, window, "Training")
    t = window.training
    choose(qtbot, t.optimizer, t.optimizer.findData("sgd"))
    for _ in range(2):
        press_button(qtbot, t.step_button)
    settle(window)
    canvas = window.canvas
    title = canvas.legend.items[0][1].text
    assert "SGD, step 2" in title and "Stochastic" not in title
    assert canvas.legend.sceneBoundingRect().width() < 0.45 * canvas.vb.sceneBoundingRect().width()


def test_an_sgd_step_names_each_class_row_of_its_gradient_term(qtbot, window):
    """Softmax on three classes, one SGD step from w = 0: the readout gave the point's gradient term as three
    unlabelled vectors. Each is on a line of its own, named by its class; at w = 0 every y_nk = 1/3, so each
    row's bias entry (φ_n0 = 1) is 1/3 - t_nk: -0.667 for the point's own class, 0.333 for the others."""
    import re

    _open(qtbot, window, "iris", "softmax")
    t = window.training
    click_dock_tab(qtbot, window, "Training")
    t.optimizer.setCurrentIndex(OPTIMIZERS.index("sgd"))
    qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
    settle(window)
    names = [c.name for c in window.doc.classes]
    own = names[window.doc.labels[0]]
    text = t.readout.text().replace("\u00a0", " ").replace("\u2060", "")  # (no-break spaces, word joiners)
    lines = text.split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("point 1 "))
    assert lines[at] == f"point 1 ({own}): (y_nk − t_nk) φ_n =", lines[at]
    rows = dict(re.fullmatch(r"  (\w+) \(([^)]*)\)", ln).groups() for ln in lines[at + 1:at + 4])  # a line each
    assert sorted(rows) == sorted(names), lines
    for name, values in rows.items():
        first = float(values.split(",")[0])
        assert first == pytest.approx(-2 / 3 if name == own else 1 / 3, abs=6e-4), (name, values)


def test_the_perceptron_cycles_on_overlapping_data_and_has_no_newton(qtbot, window):
    _open(qtbot, window, "fruit", "perceptron")
    t = window.training
    newton = t.optimizer.model().item(OPTIMIZERS.index("newton"))
    assert not newton.isEnabled()
    t.optimizer.setCurrentIndex(OPTIMIZERS.index("sgd"))
    t.step(2000)
    settle(window)
    assert "never settles" in t.readout.text()
    assert min(t.view.wrongs[1000:]) > 0
    assert window.result.scene.boundaries and window.result.scene.posterior is None


def test_an_edit_starts_the_run_again_and_a_fitted_model_cannot_be_trained(qtbot, window):
    """An edit with a step on the canvas starts the run again at w = 0, and the status line says so (two new
    users read the blank canvas as the classifier gone)."""
    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    for _ in range(5):
        key(qtbot, window, Qt.Key.Key_Period)
    settle(window)
    assert t.view.index == 5
    click(qtbot, window, 0.5, 3.5)
    assert t.view.index == 0 and t.view.n == 251
    assert "the edit restarted the run (it was at step 5)" in window.message.text()
    click(qtbot, window, 0.6, 3.5)  # another edit at step 0: the run is there, and the note stays
    assert t.showing() and t.view is not None and t.view.index == 0 and t.view.n == 252
    assert "it was at step 5" in window.message.text()
    key(qtbot, window, Qt.Key.Key_Period)  # a step taken: the note has said its piece
    settle(window)
    assert t.view.index == 1 and "restarted" not in window.message.text()
    window.doc.set_model("lda")
    settle(window)
    assert not t.play_button.isEnabled() and "fitted in one go" in t.readout.text()
    assert not t.showing() and _shown(window).name == "lda"


def test_undoing_the_edit_that_restarted_a_run_brings_the_run_back_at_its_step(qtbot, window):
    """Two SGD steps pressed after three of gradient descent, then a point dragged: the run starts again at w = 0.
    Ctrl+Z puts the point back and the run back at step 2, its weights those of two steps (a student's run is not
    lost to a slip of the mouse), and the error plot shows gradient descent's run again; Step goes on to 3;
    Ctrl+Shift+Z redoes the drag, and the run starts again."""
    from guihelp import drag
    from pressing import choose

    _open(qtbot, window, "fruit", "logistic")
    click_dock_tab(qtbot, window, "Training")
    t = window.training
    for _ in range(3):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
    settle(window)
    (gd_label, *gd), = t.curves()
    assert len(gd[0]) == 4
    choose(qtbot, t.optimizer, OPTIMIZERS.index("sgd"))
    window.activateWindow()  # the list's popup took the activation with it (offscreen): the keys go to the window
    qtbot.waitUntil(window.isActiveWindow)
    for _ in range(2):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
    settle(window)
    assert t.view.index == 2 and t.view.optimizer == "sgd"
    i = int(np.argmin(np.hypot(*(window.doc.X - window.doc.X.mean(0)).T)))
    before = window.doc.X.copy()
    drag(qtbot, window, tuple(before[i]), tuple(before[i] + [0.4, 0.3]))
    assert t.view.index == 0 and not np.array_equal(window.doc.X, before)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(window)
    np.testing.assert_array_equal(window.doc.X, before)
    assert t.view.index == 2 and t.view.optimizer == "sgd" and "restarted" not in window.message.text()
    want = _by_hand(window, 2, "sgd")
    np.testing.assert_allclose(_shown(window).predict_proba(before), want.predict_proba(before), atol=1e-12)
    curves = {label: xy for label, *xy in t.curves()}
    assert len(curves) == 2
    for a, b in zip(curves[gd_label], gd):
        np.testing.assert_array_equal(a, b)
    qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
    settle(window)
    assert t.view.index == 3
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    settle(window)
    assert not np.array_equal(window.doc.X, before) and t.view.index == 0
    assert "the edit restarted the run (it was at step 3)" in window.message.text()


def test_a_run_comes_back_only_to_the_points_it_was_trained_on(qtbot, window):
    """Three steps, a point added (A), four steps, a point added (B); undone twice, each run comes back in turn. A new
    point (C) then replaces A and B in the history: undo and redo of C never bring back the run of four steps, which
    was trained on points that are no longer there."""
    _open(qtbot, window, "fruit", "logistic")
    t = window.training

    def steps(n):
        for _ in range(n):
            qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)

    def undo(redo=False):
        mod = Qt.KeyboardModifier.ControlModifier | (Qt.KeyboardModifier.ShiftModifier if redo else
                                                     Qt.KeyboardModifier.NoModifier)
        qtbot.keyClick(window, Qt.Key.Key_Z, mod)
        settle(window)

    steps(3)
    click(qtbot, window, 0.5, 3.5)  # A
    steps(4)
    click(qtbot, window, 0.7, 3.2)  # B
    assert (t.view.index, t.view.n) == (0, 252)
    undo()
    assert (t.view.index, t.view.n) == (4, 251)
    undo()
    assert (t.view.index, t.view.n) == (3, 250)
    click(qtbot, window, 2.9, 0.0)  # C
    assert (t.view.index, t.view.n) == (0, 251)
    undo()
    assert (t.view.index, t.view.n) == (3, 250)
    undo(redo=True)
    assert (t.view.index, t.view.n) == (0, 251)


def test_a_layout_saved_before_the_new_docks_is_not_restored(qtbot, window):
    """An older saved layout knew only the Model panel: restoring it would stack the Training, Lab and
    Weights docks in slivers under it. It is ignored; a layout saved now comes back."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QDockWidget, QMainWindow

    from probviz.app.main_window import MainWindow

    old = QMainWindow()  # what an older probviz saved: a window with the Model panel alone
    panel = QDockWidget("Model", old)
    panel.setObjectName("panel")
    old.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, panel)
    settings = QSettings()
    try:
        settings.setValue("state", old.saveState())
        fresh = MainWindow()
        qtbot.addWidget(fresh, before_close_func=lambda w: w.doc.mark_saved())
        assert set(fresh.tabifiedDockWidgets(fresh.dock)) == {fresh.training_dock, fresh.lab_dock, fresh.weights_dock}
        fresh.save_settings()  # the new version: restored as saved
        again = MainWindow()
        qtbot.addWidget(again, before_close_func=lambda w: w.doc.mark_saved())
        assert set(again.tabifiedDockWidgets(again.dock)) == {again.training_dock, again.lab_dock, again.weights_dock}
    finally:
        settings.remove("state")
        settings.remove("geometry")


def test_edits_while_the_fit_is_shown_cost_the_trainer_nothing(qtbot, window, monkeypatch):
    """With the fitted model on screen, a drag or click forgets the run instead of rebuilding it (no direct
    fit or separation test per mouse move); Step then trains on the points as they are."""
    import probviz.stepping as stepping

    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    made = []
    real = stepping.Trainer
    monkeypatch.setattr(stepping, "Trainer", lambda *a, **k: made.append(1) or real(*a, **k))
    for x in (0.3, 0.6, 0.9):
        window.doc.add_points([[x, 3.8]], 0)
        settle(window)
    window.doc.move_points([0], [[0.0, 0.0]])
    settle(window)
    assert made == [] and t.view is None and "Step" in t.readout.text()
    key(qtbot, window, Qt.Key.Key_Period)
    assert len(made) == 1 and t.view.index == 1 and t.view.n == 253
    assert t.showing()
    window.doc.add_points([[0.3, -0.5]], 0)  # now the step is on screen: an edit starts the run again at once
    settle(window)
    assert len(made) == 2 and t.view.index == 0 and t.view.n == 254


def test_the_dock_buttons_do_what_they_say_when_pressed(qtbot, window):
    """Step, Play and Reset pressed with the mouse, as a person presses them: Qt's clicked(checked=False)
    must not reach step() as its count."""
    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    left = Qt.MouseButton.LeftButton
    qtbot.mouseClick(t.step_button, left)
    settle(window)
    assert t.view.index == 1 and t.showing() and "step 1 " in t.readout.text()
    qtbot.mouseClick(t.step_button, left)
    settle(window)
    assert t.view.index == 2
    # the canvas draws that step's weights
    X = window.doc.X
    np.testing.assert_allclose(_shown(window).predict_proba(X), _by_hand(window, 2).predict_proba(X), atol=1e-12)
    t.speed.setValue(200)
    qtbot.mouseClick(t.play_button, left)
    assert t.play_button.isChecked() and t.play_button.text() == "Pause"
    qtbot.waitUntil(lambda: t.view.index >= 8, timeout=5000)
    qtbot.mouseClick(t.play_button, left)
    assert not t.play_button.isChecked() and t.play_button.text() == "Play"
    stopped = t.view.index
    qtbot.wait(100)
    assert t.view.index == stopped
    qtbot.mouseClick(t.reset_button, left)
    settle(window)
    assert t.view.index == 0 and t.view.steps == [0]
    assert t.readout.text().startswith("step 0 ")


def test_a_softmax_step_on_the_canvas_has_no_one_vs_rest_hatching(qtbot, window):
    """Three classes: softmax decides every x (Bishop 4.3.4); only one-vs-rest leaves regions undecided."""
    _open(qtbot, window, "shared-vs-own-covariance", "softmax")
    t = window.training
    for _ in range(3):
        key(qtbot, window, Qt.Key.Key_Period)
    assert t.showing() and t.view.index == 3
    assert _shown(window).name == "softmax" and not window.result.scene.hatched
    assert "hatched" not in window.message.text()
    window.doc.set_model("logistic")  # one-vs-rest: hatched where no class, or several, claims x
    settle(window)
    key(qtbot, window, Qt.Key.Key_Period)
    assert t.showing() and window.result.scene.ambiguous_rings
    assert "hatched: undecided" in window.message.text()  # the status line says what the hatching means


def _read(training) -> str:
    """The readout's text as words: it is wrapped between terms only (no-break spaces around "=", a word
    joiner after the bar of p(C|x))."""
    return training.readout.text().replace("\u00a0", " ").replace("\u2060", "")


def _accuracy(text):
    import re

    return float(re.search(r"accuracy (\d+\.\d)%", text).group(1))


def test_a_perceptron_sgd_step_on_a_point_on_its_side_says_it_moves_nothing(qtbot, window):
    """An SGD step of the perceptron on a point already on its side read "−t_n φ_n = (0, 0, 0)", which is not what
    −t_n φ_n is (φ_n holds the bias's 1): only a misclassified point's term moves w (Bishop eq. 4.55). A step whose
    weights did not move now says so; one whose weights moved gives the term, and the move is η times it."""
    from pressing import choose, press_button

    _open(qtbot, window, "fruit", "perceptron")
    click_dock_tab(qtbot, window, "Training")
    t = window.training
    choose(qtbot, t.optimizer, OPTIMIZERS.index("sgd"))
    settle(window)

    def weights():
        m = _shown(window)
        return np.r_[np.ravel(m.intercept_), np.ravel(m.coef_)]

    seen = set()
    for _ in range(14):
        before = weights()
        press_button(qtbot, t.step_button)
        settle(window)
        moved = not np.array_equal(weights(), before)
        line = [ln for ln in _read(t).splitlines() if ln.startswith(f"point {t.view.point + 1} ")]
        assert len(line) == 1, _read(t)
        if moved:
            assert "−t_n φ_n =" in line[0].replace("\u00a0", " ") and "no update" not in line[0], line
        else:
            assert line[0].endswith("on its side, so no update (only a misclassified point moves w, eq. 4.55)")
        seen.add(moved)
    assert seen == {True, False}  # steps of both kinds were read


def test_the_perceptron_readout_and_the_status_line_agree_and_the_count_has_its_own_axis(qtbot, window):
    _open(qtbot, window, "fruit", "perceptron")
    t = window.training
    N = len(window.doc.X)
    key(qtbot, window, Qt.Key.Key_T)  # step 0 on the canvas: w = 0
    assert t.showing() and t.view.index == 0
    readout, status = _read(t), window.message.text()
    assert "-0" not in readout and readout.splitlines()[0] == "step 0   perceptron criterion 0"
    assert f"misclassified {N} of {N} (accuracy 0.0%)" in readout and "w = 0 decides nothing" in readout
    assert _accuracy(status) == 0.0 and f"{N} points undecided" in status
    hatched = window.result.scene.ambiguous[..., 3] > 0  # the whole plane hatched: nothing decided
    assert hatched.any(axis=0).all() and hatched.any(axis=1).all()
    for _ in range(3):
        key(qtbot, window, Qt.Key.Key_Period)
    readout, status = _read(t), window.message.text()
    wrong = t.view.wrong
    assert 0 < wrong < N and f"misclassified {wrong} of {N}" in readout
    assert _accuracy(readout) == _accuracy(status) == round(100 * (N - wrong) / N, 1)
    # E_P has the left axis to itself; the count (0 to N) its own axis on the right
    item = t.plot.plotItem
    left, right, bottom = item.getAxis("left"), item.getAxis("right"), item.getAxis("bottom")
    assert right.isVisible() and right.labelText == "misclassified"
    errors = t.view.errors
    lo, hi = item.vb.viewRange()[1]
    assert (max(errors) - min(errors)) / (hi - lo) > 0.6  # the criterion fills its axis (the legend has room above)
    assert hi < N / 2
    c0, c1 = t.count_view.viewRange()[1]
    assert c0 <= 0 and N <= c1 < 1.2 * N
    counts = dict((c[0], c[2]) for c in t.curves())["misclassified (right axis)"]
    np.testing.assert_array_equal(counts, t.view.wrongs)
    # the axis label reads E with a subscript P, not the literal "E_P(w)"
    assert left.label.toPlainText().strip() == "EP(w)" and "vertical-align:sub" in left.label.toHtml()
    # steps are whole numbers: no tick at 0.5 on the step axis, nor half a point on the count axis
    for axis in (bottom, right):
        values = [v for _spacing, ticks in axis.tickValues(*axis.range, axis.width() or 200) for v in ticks]
        assert values and all(float(v).is_integer() for v in values)
    # another model: the right axis goes
    window.doc.set_model("logistic")
    settle(window)
    assert not right.isVisible() and "perceptron" not in t.readout.text()


def _train_menu(window, title="&Train"):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == title)
    return {a.text().replace("&", ""): a for a in menu.actions() if not a.isSeparator()}


def test_the_train_menu_says_what_the_dock_says(qtbot, window):
    """A model fitted in one go (LDA) cannot be stepped: the dock's controls are disabled, and so are the
    Train menu's Step, Play / pause, Show the training step and Reset; their keys change nothing, and "." (the
    key a teacher presses in F5, where the panels are away) brings the Training panel, which says why, and says
    it briefly in the status line."""
    _open(qtbot, window, "fruit", "lda")
    t = window.training
    actions = _train_menu(window)
    stepping = ("Show the training step", "Play / pause", "Step", "Reset training")
    assert not t.step_button.isEnabled() and not t.active.isEnabled()
    assert not any(actions[name].isEnabled() for name in stepping)
    assert "Training panel" not in actions and _train_menu(window, "&View")["Training panel"].isEnabled()
    before = (t.readout.text(), window.message.text(), window.doc.undo_stack.count())
    for k, mod in ((Qt.Key.Key_T, Qt.KeyboardModifier.NoModifier), (Qt.Key.Key_Space, Qt.KeyboardModifier.NoModifier),
                   (Qt.Key.Key_Period, Qt.KeyboardModifier.NoModifier), (Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)):
        key(qtbot, window, k, mod)
        qtbot.wait(50)
        settle(window)
        if k == Qt.Key.Key_Period:  # the Training panel comes to say why, and the status line says it briefly
            assert window.message.text() == "LDA (shared covariance) is fitted in one go: nothing to step"
            assert window.training_dock.isVisible() and "Choose logistic regression" in t.readout.text()
            window.flash(before[1])  # the status line as it was, for the keys after
        assert (t.readout.text(), window.message.text(), window.doc.undo_stack.count()) == before
        assert t.view is None and not t.active.isChecked() and not t.play_button.isChecked()
        assert _shown(window).name == "lda"
    # a model that learns step by step: the menu and its keys work again
    window.doc.set_model("logistic")
    settle(window)
    assert all(actions[name].isEnabled() for name in stepping)
    key(qtbot, window, Qt.Key.Key_Period)  # one meaning for the key: a step, not an ambiguous shortcut
    assert t.view.index == 1 and t.showing() and _shown(window).name == "logistic"
    assert "fitted in one go" not in window.message.text()
    window.doc.set_model("qda")
    settle(window)
    assert not any(actions[name].isEnabled() for name in stepping)


def _bright_pixels(text_item, background) -> int:
    """Light pixels of a text item drawn on ``background``: text a person can read on a dark theme.
    (Drawn alone: the test does not depend on where the legend lands in a plot of whatever size.)"""
    from PySide6.QtGui import QColor, QImage, QPainter

    document = text_item.document()
    image = QImage(document.size().toSize(), QImage.Format.Format_RGB32)
    image.fill(QColor(*background))
    painter = QPainter(image)
    document.drawContents(painter)
    painter.end()
    return sum(image.pixelColor(x, y).lightness() > 150 for x in range(image.width()) for y in range(image.height()))


def test_the_error_plot_reads_in_the_dark_theme(qtbot, window):
    """The legend's text takes the theme's colour when the theme changes after it was drawn."""
    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    window.training_dock.show()
    window.training_dock.raise_()
    dark = next(a for a in next(m.menu() for m in window.menuBar().actions() if m.text() == "&View").actions()
                if a.text() == "&Dark theme")
    was_dark = dark.isChecked()  # the first start follows the desktop: make it light, then switch
    if was_dark:
        dark.trigger()
    key(qtbot, window, Qt.Key.Key_Period)
    key(qtbot, window, Qt.Key.Key_Period)
    dark.trigger()
    settle(window)
    assert dark.isChecked()
    try:
        labels = [label for _sample, label in t.plot.plotItem.legend.items]
        assert [label.text for label in labels] == ["Gradient descent"]
        assert _bright_pixels(labels[0].item, window.canvas.style.background) > 20
    finally:
        if dark.isChecked() != was_dark:
            dark.trigger()


def test_the_error_plot_follows_each_press_of_step_and_keeps_the_other_run(qtbot, window):
    """Step pressed three times with gradient descent, then Newton chosen in the list and Step pressed twice:
    one curve per run, each holding E(w) at every step so far (as trainers made here give them), the current
    run solid and bold, the other dotted; the legend names each run once, in the list's order."""
    from pressing import choose
    from probviz.models.training import OPTIMIZER_LABELS, Trainer

    _open(qtbot, window, "fruit", "logistic")
    window.training_dock.raise_()
    settle(window)
    t = window.training

    def press_step(times):
        for _ in range(times):
            qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
            settle(window)

    def by_hand(optimizer, steps):
        trainer = Trainer("logistic", window.doc.X, window.doc.labels, optimizer=optimizer)
        return [trainer.current.error] + [trainer.step().error for _ in range(steps)]

    press_step(3)
    choose(qtbot, t.optimizer, OPTIMIZERS.index("newton"))
    settle(window)
    press_step(1)
    press_step(1)  # a second step of the same run: its curve grows, nothing is added
    gd, newton = OPTIMIZER_LABELS["gd"], OPTIMIZER_LABELS["newton"]
    assert [label for label, _, _ in t.curves()] == [gd, newton]  # each run once: no curve left behind
    curves = {label: (x, y) for label, x, y in t.curves()}
    for label, optimizer, steps in ((gd, "gd", 3), (newton, "newton", 2)):
        x, y = curves[label]
        np.testing.assert_array_equal(x, np.arange(steps + 1))
        np.testing.assert_allclose(y, by_hand(optimizer, steps), rtol=1e-12)
    assert [label.text for _, label in t.plot.plotItem.legend.items] == [gd, newton]
    pens = {item.name(): item.opts["pen"] for item in t.plot.plotItem.listDataItems()}
    assert pens[newton].style() == Qt.PenStyle.SolidLine and pens[newton].widthF() == 2.5
    assert pens[gd].style() == Qt.PenStyle.DotLine and pens[gd].widthF() == 1.5
    qtbot.mouseClick(t.reset_button, Qt.MouseButton.LeftButton)  # Newton's run starts again
    settle(window)
    press_step(1)
    x, y = {label: (x, y) for label, x, y in t.curves()}[newton]
    np.testing.assert_array_equal(x, [0, 1])
    np.testing.assert_allclose(y, by_hand("newton", 1), rtol=1e-12)


def test_the_error_plot_forgets_the_last_documents_scale(qtbot, window):
    """Three steps on fruit (E(w) in the hundreds), then File › New: no run, so the plot's axes are back to
    0-1, not the old run's range."""
    from guihelp import menu_action
    from PySide6.QtWidgets import QMessageBox

    _open(qtbot, window, "fruit", "logistic")
    window.training_dock.raise_()
    settle(window)
    t = window.training
    for _ in range(3):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)
    lo, hi = t.plot.plotItem.vb.viewRange()[1]
    assert hi > 10  # the run's E(w)
    window.files.ask_save = lambda: QMessageBox.StandardButton.Discard
    menu_action(window, "New").trigger()
    window.doc.set_model("logistic")
    settle(window)
    assert t.curves() == []
    np.testing.assert_allclose(t.plot.plotItem.vb.viewRange()[1], (0, 1))


def test_the_error_plots_legend_never_covers_a_slow_runs_curve(qtbot, window):
    """Gradient descent with the smallest learning rate: E(w) hardly falls, so the curve ends near the top of the
    plot, where the legend is. Step pressed a dozen times: no vertex of the curve lies under the legend (both
    read in the plot's scene, as drawn), and the curve keeps more than half the plot's height."""
    _open(qtbot, window, "fruit", "logistic")
    window.training_dock.raise_()
    settle(window)
    t = window.training
    type_into(qtbot, window, t.eta, "0.0001")
    vb, legend = t.plot.plotItem.vb, t.plot.plotItem.legend
    qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)  # one step: a single segment under the legend
    settle(window)
    (label, x, y), = t.curves()
    key = legend.sceneBoundingRect()
    left = vb.mapSceneToView(key.bottomLeft()).x()
    crossing = np.interp(left, x, y)  # where the segment passes the legend's left edge
    assert not key.contains(vb.mapViewToScene(QPointF(left, crossing)))
    for _ in range(11):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)
    (label, x, y), = t.curves()
    assert len(x) == 13 and y[-1] > y[0] - 0.25 * (y[0] - window.training.optimum_line.value())  # a slow run
    key = legend.sceneBoundingRect()
    assert key.width() > 0 and key.height() > 0
    under = [i for i, (a, b) in enumerate(zip(x, y)) if key.contains(vb.mapViewToScene(QPointF(a, b)))]
    assert under == []
    top, bottom = vb.mapViewToScene(QPointF(0, y.max())).y(), vb.mapViewToScene(QPointF(0, y.min())).y()
    line = vb.mapViewToScene(QPointF(0, t.optimum_line.value())).y()
    assert bottom - top + (line - bottom) > 0.5 * vb.sceneBoundingRect().height()  # the run still fills the plot


def test_the_error_plots_legend_keeps_off_a_steep_first_step_on_a_projector(qtbot, window):
    """F5 at 1024 x 768, "." once: E(w) falls steeply from step 0 to step 1, and the segment between them passes
    the legend's left edge high up, where the legend is (its vertices alone are not under it). The segment's
    crossing lies below the legend."""
    from guihelp import present

    present(qtbot, window, "example:fruit")
    window.doc.set_model("logistic")
    settle(window)
    qtbot.keyClick(window, Qt.Key.Key_Period)
    settle(window)
    t = window.training
    assert window.training_dock.isVisible()
    (label, x, y), = t.curves()
    assert list(x) == [0, 1] and y[1] < y[0]
    vb, legend = t.plot.plotItem.vb, t.plot.plotItem.legend
    key = legend.sceneBoundingRect()
    left = vb.mapSceneToView(key.bottomLeft()).x()
    assert 0 < left < 1
    for a in np.linspace(left, 1, 9):  # along the segment under the legend's width
        assert not key.contains(vb.mapViewToScene(QPointF(a, np.interp(a, x, y)))), a


def test_the_error_plots_two_row_legend_keeps_off_the_curves_on_a_projector(qtbot, window):
    """F5 at 1024 x 768: four gradient-descent steps, then three of stochastic gradient descent. The legend has
    two rows, in large type, over a short plot: more than a third of its height. The room kept above the curves
    was at most a third of the plot, and the slow SGD curve ran under the legend. No vertex of either curve, and
    no point of their segments, lies under it."""
    from guihelp import present
    from pressing import choose

    present(qtbot, window, "example:fruit")
    window.doc.set_model("logistic")
    settle(window)
    for _ in range(4):
        qtbot.keyClick(window, Qt.Key.Key_Period)
        settle(window)
    t = window.training
    choose(qtbot, t.optimizer, t.optimizer.findData("sgd"))
    for _ in range(3):
        qtbot.keyClick(window, Qt.Key.Key_Period)
        settle(window)
    curves = t.curves()
    assert len(curves) == 2
    vb, legend = t.plot.plotItem.vb, t.plot.plotItem.legend
    key = legend.sceneBoundingRect()
    assert key.height() > 0.35 * vb.sceneBoundingRect().height()  # (the case: a legend taller than a third)
    for _label, x, y in curves:
        for a in np.linspace(x[0], x[-1], 60):
            point = vb.mapViewToScene(QPointF(a, np.interp(a, x, y)))
            assert not key.contains(point), (_label, a)


def test_at_w_zero_logistic_and_softmax_decide_nothing_and_say_so(qtbot, window):
    """Step 0 on the canvas (T) from w = 0: every class has p(C_k|x) = 1/K, so nothing is decided. The accuracy
    is 0 with every point undecided and crossed, in the status line and the readout alike, not the share of the
    first class (a tie used to go to it: 33.3% on three equal classes, its points uncrossed)."""
    for model in ("logistic", "softmax"):
        _open(qtbot, window, "shared-vs-own-covariance", model)
        t = window.training
        key(qtbot, window, Qt.Key.Key_T)  # step 0 on the canvas: w = 0
        settle(window)
        N = len(window.doc.X)
        assert t.showing() and t.view.index == 0 and t.view.zero
        readout, status = _read(t), window.message.text()
        assert f"misclassified {N} of {N} (accuracy 0.0%)" in readout and "w = 0 decides nothing" in readout
        assert _accuracy(status) == 0.0 and f"{N} points undecided" in status
        assert window.result.wrong.all()  # every point crossed
        key(qtbot, window, Qt.Key.Key_Period)  # one step: the classes come apart, decided again
        settle(window)
        assert t.view.index == 1 and "points undecided" not in window.message.text()
        assert _accuracy(window.message.text()) > 50.0


def test_the_error_plot_marks_the_step_on_the_canvas_from_step_0(qtbot, window):
    """The E(w) plot marks the step the canvas shows with a dot in its run's colour on its curve, step 0 too
    (a run draws its curve only from its first step: at step 0 the plot showed only the optimum's line, with
    its axis far from E(0)). Its axis takes in E at that step."""
    from PySide6.QtGui import QColor

    from probviz.colors import OKABE_ITO

    _open(qtbot, window, "shared-vs-own-covariance", "logistic")
    click_dock_tab(qtbot, window, "Training")  # the plot in view
    t = window.training
    key(qtbot, window, Qt.Key.Key_T)  # step 0 on the canvas
    settle(window)
    for index in (0, 1, 2):
        assert t.view.index == index
        xs, ys = t.here.getData()
        assert list(xs) == [index] and list(ys) == [t.view.error]
        (x0, x1), (y0, y1) = t.plot.plotItem.vb.viewRange()
        assert x0 <= index <= x1 and y0 < t.view.error < y1 and y0 < t.view.optimum < y1
        image = t.plot.grab().toImage()
        at = t.plot.mapFromScene(t.plot.plotItem.vb.mapViewToScene(QPointF(index, t.view.error)))
        ratio = image.devicePixelRatio()
        want = QColor(OKABE_ITO[OPTIMIZERS.index(t.view.optimizer)]).getRgb()[:3]
        near = [QColor(image.pixel(round((at.x() + dx) * ratio), round((at.y() + dy) * ratio))).getRgb()[:3]
                for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        # the dot (gradient descent's blue), whole around its centre; the grid's faint lines may cross it
        assert want[2] - want[0] > 150 and all(b - r > 80 for r, _, b in near), (index, near, want)
        assert sum(max(abs(a - b) for a, b in zip(got, want)) <= 12 for got in near) >= 3
        key(qtbot, window, Qt.Key.Key_Period)
        settle(window)


def test_a_readout_that_loses_a_line_gives_the_plot_its_room_back(qtbot, window):
    """Step 0 from w = 0 says in a line more why nothing is decided; at step 1 that line goes. The readout
    shrinks to its text and the E(w) plot takes the room back (the plot was held at its largest height and the
    readout kept its three lines' height: no resize told the panel)."""
    window.resize(1366, 740)
    _open(qtbot, window, "fruit", "logistic")
    window.training_dock.raise_()
    t = window.training
    key(qtbot, window, Qt.Key.Key_T)  # step 0
    qtbot.wait(30)
    settle(window)
    assert t.view.index == 0 and t.readout.text().count("\n") == 2
    tall, plot0 = t.readout.height(), t.plot.height()
    key(qtbot, window, Qt.Key.Key_Period)
    qtbot.wait(30)
    settle(window)
    assert t.view.index == 1 and t.readout.text().count("\n") == 1
    assert t.readout.height() == t.readout.heightForWidth(t.readout.width()) < tall
    assert t.plot.height() > plot0


def test_the_error_plots_axes_follow_each_step_as_drawn_afresh(qtbot, window):
    """The E(w) plot's axes (with their grid) are kept as pixmaps until they change: each step that moves the
    plot's range draws them anew, pixel for pixel as the plot drawn with no pixmap kept, and not as they were."""
    from PySide6.QtWidgets import QGraphicsItem

    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    axes = [t.plot.plotItem.getAxis(name) for name in ("left", "bottom")]
    kept = QGraphicsItem.CacheMode.DeviceCoordinateCache
    assert [axis.cacheMode() for axis in axes] == [kept, kept]  # the bottom one is the panel's own (steps)
    shots = []
    for _ in range(3):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)
        t.plot.grab()  # painted once, then from the pixmaps
        cached = t.plot.grab().toImage()
        for axis in axes:
            axis.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        afresh = t.plot.grab().toImage()
        for axis in axes:
            axis.setCacheMode(kept)
        assert cached == afresh
        shots.append(cached)
    assert shots[0] != shots[1] != shots[2]  # the steps moved the range: the axes were drawn anew


def test_the_model_panel_behind_the_training_panel_shows_the_last_step_once_brought_forward(qtbot, window):
    """With the Training panel in front (the Step key brings it), the Model panel behind its tab is not laid out
    at every step; brought forward, its numbers are those of the step the canvas shows, the weights of three
    steps of gradient descent from w = 0 (a trainer made here), not those of the fit it showed before."""
    import re

    from guihelp import click_dock_tab

    _open(qtbot, window, "fruit", "logistic")

    def weights():
        m = re.search(r"w = \((\S+), (\S+)\),\s+w0 = (\S+)", window.panel.params.text.plain())
        return np.array([float(v) for v in m.groups()])

    fitted = weights()
    for _ in range(3):
        key(qtbot, window, Qt.Key.Key_Period)
        settle(window)
    assert window.training.view.index == 3 and window.dock.visibleRegion().isEmpty()  # behind its tab
    np.testing.assert_array_equal(weights(), fitted)  # not redone there
    click_dock_tab(qtbot, window, "Model")
    model = _by_hand(window, 3)
    want = -np.r_[model.coef_.ravel(), model.intercept_.ravel()]  # the box gives p(apple|x), the first class's
    np.testing.assert_allclose(weights(), want, rtol=2e-3)  # as the box rounds them (4 significant digits)
    assert np.abs(weights() - fitted).max() > 0.1
    assert "Gradient descent steps: 3 from zero weights (not converged)" in window.panel.params.text.plain()


def test_the_error_plots_step_axis_ends_at_1_2_5_10_and_the_run_grows_into_it(qtbot, window):
    """The step axis ends at the first of 1, 2, 5, 10, 20, 50... steps that holds the run: it stays put while the
    run grows into it (each change of its range drew the axis and its grid anew, 5 ms a step), the step's dot
    always inside it."""
    from probviz.app.training import _steps_axis_end

    assert [_steps_axis_end(n) for n in (0, 1, 2, 3, 5, 6, 10, 11, 21, 50, 51, 101, 201, 501, 1001)] == \
        [1, 1, 2, 5, 5, 10, 10, 20, 50, 50, 100, 200, 500, 1000, 2000]
    _open(qtbot, window, "fruit", "logistic")
    click_dock_tab(qtbot, window, "Training")
    t = window.training
    ranges = {}
    for step in range(1, 12):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)
        assert t.view.index == step
        (x0, x1), _ = t.plot.plotItem.vb.viewRange()
        end = 1 if step <= 1 else 2 if step == 2 else 5 if step <= 5 else 10 if step <= 10 else 20
        assert x0 < 0 and end <= x1 < 1.25 * end, (step, x1)  # its end, and the room for the dot beyond it
        ranges.setdefault(end, set()).add((round(x0, 9), round(x1, 9)))
    assert all(len(seen) == 1 for seen in ranges.values())  # one range for each end: the axis stayed put


def test_the_readout_writes_e_of_w_and_its_optimum_alike():
    """Five significant digits in plain decimals from 0.001 to a million, so a run's E(w) and its optimum read
    alike (a new user met "E(w) = 2.0794e+05 (optimum 44556)"); tiny and huge values in powers of ten."""
    from probviz.app.training import error_text

    cases = {207940.38: "207940", 44556.12: "44556", 62.16834: "62.168", 0.6931472: "0.69315", 0.0012345: "0.0012345",
             999999.4: "999999", 1234567.0: "1.2346e+06", 1.23456e-9: "1.2346e-09", 0.0: "0", -0.0: "0", 1.0: "1.0000"}
    for value, text in cases.items():
        assert error_text(value) == text, (value, error_text(value))


def test_a_side_panel_saved_wide_leaves_the_plot_room_at_the_next_start(qtbot, window):
    """A panel widened to 560 pixels on a wide screen (the Weights panel widens its dock) came back as wide on a
    1024-pixel screen, the plot 410 pixels beside it. Restored wider than 40% of the window, it is narrowed."""
    from PySide6.QtCore import QSettings

    from probviz.app.main_window import MAX_PANEL_SHARE, MainWindow

    window.resize(1366, 740)
    settle(window)
    window.resizeDocks([window.dock], [560], Qt.Orientation.Horizontal)
    settle(window)
    assert window.dock.width() >= 550
    settings = QSettings()
    try:
        window.save_settings()
        again = MainWindow()
        qtbot.addWidget(again, before_close_func=lambda w: w.doc.mark_saved())
        again.resize(1024, 700)
        again.show()
        settle(again)
        assert again.dock.width() <= MAX_PANEL_SHARE * again.width() + 2
        assert again.canvas.width() >= 0.5 * again.width()
    finally:
        settings.remove("state")
        settings.remove("geometry")


def test_the_readout_never_breaks_a_line_inside_a_term(qtbot, window):
    """A narrow Training panel wrapped "||w|| = 3.2" after a bar ("||" at a line's end, "w|| = 3.2" on the
    next), and at the window's least size "p(C_k|" on one line and "x)" on the next: line breaking may break
    after '|'. Laid out as Qt lays the label's text at every width the readout can take, no line breaks inside
    p(C_k|x), inside the norm and its value, or around an equals sign."""
    import re

    from PySide6.QtGui import QTextLayout, QTextOption

    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    broken = []
    for step in range(2):  # w = 0 (the readout says p(C_k|x) = 1/K), then a step
        key(qtbot, window, Qt.Key.Key_T if step == 0 else Qt.Key.Key_Period)
        text = t.readout.text()
        plain = text.replace("\u00a0", " ").replace("\u2060", "")
        assert "p(C_k|x) = 1/K" in plain if step == 0 else "‖w‖ = " in plain, plain
        for line in text.splitlines():
            spans = [m.span() for m in re.finditer(r"p\([^()]*\)|\(optimum[^()]*\)|‖w‖\W+[0-9.e+-]+|\S+\W=\W\S+",
                                                   line)]
            for width in range(t.readout.minimumWidth(), 400, 3):
                layout = QTextLayout(line, t.readout.font())
                layout.setTextOption(option)
                layout.beginLayout()
                while (row := layout.createLine()).isValid():
                    row.setLineWidth(width)
                layout.endLayout()
                for i in range(1, layout.lineCount()):
                    at = layout.lineAt(i).textStart()
                    if any(a < at < b for a, b in spans):
                        broken.append((width, line[:at] + " / " + line[at:]))
    assert not broken, broken[:3]


def test_the_error_plot_is_made_when_first_seen_and_shows_the_steps_taken_behind_another_tab(qtbot, window):
    """The window starts without the plots of the panels behind other tabs (each costs about 20 ms to make);
    the error plot is made when its tab comes forward, and a run played on while the Model tab was in front
    shows whole in it then: every step the trainer took, none left behind."""
    assert not any(slot.made for slot in (window.training.plot_slot, window.lab._section_slot,
                                          window.weights._slot))
    _open(qtbot, window, "fruit", "logistic")
    t = window.training
    click_dock_tab(qtbot, window, "Training")
    assert t.plot_slot.made
    t.speed.setValue(100)
    qtbot.mouseClick(t.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: t.view is not None and t.view.index >= 3, timeout=5000)
    click_dock_tab(qtbot, window, "Model")
    shown = t.view.index
    qtbot.waitUntil(lambda: t.view.index >= shown + 5, timeout=5000)
    ((_, x, _),) = t.curves()
    assert x[-1] < t.view.index  # behind the Model tab the plot was left as it was
    click_dock_tab(qtbot, window, "Training")
    key(qtbot, window, Qt.Key.Key_Space)  # pause
    settle(window)
    steps, errors, _ = t.runs[t.name]
    ((_, x, y),) = t.curves()
    assert x[-1] == t.view.index >= shown + 5
    np.testing.assert_array_equal(x, steps)
    np.testing.assert_array_equal(y, errors)
    # the errors are E(w) of the trainer's own steps, written out here
    from probviz.models.training import Trainer

    by_hand = Trainer("logistic", window.doc.X, window.doc.labels, optimizer=t.name).step(int(x[-1])).error
    assert abs(by_hand - y[-1]) <= 1e-9 * max(1.0, abs(y[-1]))


def test_plots_made_after_f5_and_the_dark_theme_have_their_look(qtbot, settings_kept, window):
    """A side panel's plot made only when its tab is first clicked, after F5 and the dark theme: its background
    is the dark theme's and its ticks are in presentation mode's text size, as if it had been there all along."""
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QApplication

    from guihelp import menu_action

    _open(qtbot, window, "fruit", "logistic")
    small = QApplication.font().pointSizeF()
    dark = menu_action(window, "Dark theme")
    if not dark.isChecked():
        dark.trigger()
    key(qtbot, window, Qt.Key.Key_F5)
    settle(window)
    assert window.presentation_action.isChecked() and dark.isChecked()
    background = QColor(*window.canvas.style.background)
    assert background.lightness() < 80
    from guihelp import drag

    key(qtbot, window, Qt.Key.Key_X)  # a cross-section for the Lab to plot (without one it shows no plot)
    drag(qtbot, window, (0.0, 0.0), (2.5, 3.5))
    assert window.doc.view_state.section is not None
    # F5 folds the panels away: each comes back from the View menu, as the only panel on screen
    for tab, slot in (("Training panel", window.training.plot_slot),
                      ("Weights panel (the Bayesian view's weight space)", window.weights._slot),
                      ("Lab panel (true model, samples, comparison)", window.lab._section_slot)):
        assert not slot.made
        for dock in (window.training_dock, window.weights_dock, window.lab_dock):
            dock.hide()
        menu_action(window, tab).trigger()
        settle(window)
        assert slot.made, tab
        plot = slot.plot
        image = plot.grab().toImage()
        corner = image.pixelColor(3, 3)  # inside the plot's frame, outside its axes' text
        assert max(abs(corner.red() - background.red()), abs(corner.green() - background.green()),
                   abs(corner.blue() - background.blue())) <= 2, (tab, corner.name(), background.name())
        tick = plot.plotItem.getAxis("bottom").style["tickFont"].pointSizeF()
        assert tick == QApplication.font().pointSizeF() > 1.3 * small, (tab, tick, small)
    key(qtbot, window, Qt.Key.Key_F5)
    dark.trigger()


def test_sgd_steps_leave_the_error_plot_where_it_is(qtbot, window):
    """Stochastic gradient descent, Step pressed again and again: the readout's line of the point's gradient term
    wraps to more or fewer lines as its numbers change, and the E(w) plot under it jumped up and down (13 times
    in 60 steps), each jump drawing its axes and grid anew; its axis also moved with every new low
    or high of E. Within a run the readout now only grows and the axis keeps a margin: the plot stays put."""
    from probviz.data.dataset import Dataset
    from probviz.data.synthetic import blobs

    window.resize(1000, 700)  # the bench's window and points: the readout's last line wraps there now and then
    window.load(Dataset(*blobs(1000, 2), ["1", "2"]))
    window.doc.set_model("logistic")
    settle(window)
    t = window.training
    click_dock_tab(qtbot, window, "Training")
    t.optimizer.setCurrentIndex(t.optimizer.findData("sgd"))
    settle(window)
    heights, ranges, texts = [], [], set()
    for _ in range(40):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)
        qtbot.wait(1)  # the plot's room follows the readout on the next turn of the event loop
        settle(window)
        heights.append(t.plot.height())
        ranges.append(tuple(t.plot.plotItem.vb.viewRange()[1]))
        texts.add(t.readout.heightForWidth(t.readout.width()))
        assert t.readout.height() >= t.readout.heightForWidth(t.readout.width())  # its text whole
        lo, hi = ranges[-1]
        assert lo <= min(np.min(e) for _, e, _ in t.runs.values()) and hi >= t.view.error  # every step in view
    assert t.view.index == 40 and t.view.optimizer == "sgd"
    changes = lambda v: sum(a != b for a, b in zip(v, v[1:]))  # noqa: E731
    assert changes(heights) <= 2, heights
    assert changes(ranges) <= 3, ranges
    # a run that starts near the optimum (the Gaussian model's log-odds): the axis is not kept that loose
    from pressing import choose

    choose(qtbot, t.start, t.start.findData("generative"))
    qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
    settle(window)
    shown = np.r_[[t.view.optimum], np.concatenate([e for _, e, _ in t.runs.values()])]
    lo, hi = t.plot.plotItem.vb.viewRange()[1]
    assert lo <= shown.min() and hi >= shown.max() and hi - lo < 3 * np.ptp(shown), (lo, hi, shown)


def test_a_model_fitted_in_one_go_shows_no_empty_error_plot(qtbot, window):
    """LDA in the Training panel: the readout says it is fitted in one go, and the E(w) plot under it was an
    empty 0-1 square. It shows only for a model that trains; choosing one from the Model menu brings it."""
    from guihelp import menu_action

    from probviz.models import REGISTRY

    window.open_example("fruit")
    settle(window)
    click_dock_tab(qtbot, window, "Training")
    t = window.training
    assert window.doc.model_name == "lda" and "fitted in one go" in t.readout.text()
    assert not t.plot_slot.isVisible()
    menu_action(window, REGISTRY["logistic"].label).trigger()
    settle(window)
    assert t.plot_slot.isVisible() and t.plot.isVisible()
    menu_action(window, REGISTRY["qda"].label).trigger()
    settle(window)
    assert not t.plot_slot.isVisible()


@pytest.mark.parametrize("lo, hi", [(1_000_000.0, 1_000_004.0), (2.0e6, 9.0e6), (0.0, 0.25)])
def test_the_error_plots_ticks_read_as_the_canvas_and_the_figures_do(qtbot, window, lo, hi):
    """E(w) of many points is large and, near the optimum, changes little: pyqtgraph wrote "1e+06" at every tick of
    a span of a few units there. The side plots label their ticks as the canvas and the figures do: each label is
    its tick's value, no two alike, in whichever form is shorter."""
    _open(qtbot, window, "fruit", "logistic")
    click_dock_tab(qtbot, window, "Training")
    plot = window.training.plot
    plot.setYRange(lo, hi, padding=0)
    settle(window)
    axis = plot.plotItem.getAxis("left")
    for spacing, values in axis.tickValues(lo, hi, plot.plotItem.vb.height()):
        labels = axis.tickStrings(values, 1.0, spacing)
        assert len(set(labels)) == len(labels), labels
        np.testing.assert_allclose([float(t) for t in labels], values, rtol=0, atol=spacing / 2)


def _ink(label) -> int:
    """The darkest grey level of ``label`` as drawn (its text's ink)."""
    from PySide6.QtGui import QImage

    image = label.grab().toImage().convertToFormat(QImage.Format.Format_Grayscale8)
    ptr = image.constBits()
    rows = np.frombuffer(ptr, np.uint8, image.bytesPerLine() * image.height()).reshape(image.height(), -1)
    return int(rows[:, :image.width()].min())


def test_a_disabled_settings_label_is_greyed_with_its_control(qtbot, window):
    """Naive Bayes is fitted in one go: the Training panel's controls are greyed, and now their labels too (they read
    as settings one could change). Logistic regression: all are back; Newton has no learning rate: its label greys
    with its field. Each label's ink is read from the label as drawn."""
    from guihelp import menu_action
    from pressing import choose
    from probviz.models import REGISTRY

    _open(qtbot, window, "fruit", "nb")
    click_dock_tab(qtbot, window, "Training")
    t = window.training
    form = t._form
    labels = {form.labelForField(w).text(): form.labelForField(w) for w in (t.optimizer, t.eta, t.speed, t.start)}
    settle(window)
    assert all(not label.isEnabled() for label in labels.values())
    grey = {name: _ink(label) for name, label in labels.items()}
    menu_action(window, REGISTRY["logistic"].label).trigger()
    settle(window)
    assert all(label.isEnabled() for label in labels.values())
    dark = {name: _ink(label) for name, label in labels.items()}
    assert all(dark[name] + 60 < grey[name] for name in labels), (dark, grey)
    choose(qtbot, t.optimizer, OPTIMIZERS.index("newton"))
    settle(window)
    assert [name for name, label in labels.items() if not label.isEnabled()] == ["Learning rate η"]
    assert _ink(labels["Learning rate η"]) > dark["Learning rate η"] + 60


@pytest.mark.parametrize("presenting", [False, True])
def test_the_error_plot_labels_the_step_at_its_axis_end(qtbot, window, presenting):
    """Ten steps: the step axis runs to 10 and the dot of step 10 sits at its end, but the axis read 0 to 9 (pyqtgraph
    leaves out a label that reaches past the axis's end); likewise 20 after twenty. The end is labelled, on the
    desk and in presentation mode's larger text."""
    from guihelp import drawn_tick_labels
    from pressing import press_button

    _open(qtbot, window, "fruit", "logistic")
    if presenting:
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        qtbot.keyClick(window, Qt.Key.Key_F5)
        settle(window)
        qtbot.keyClick(window, Qt.Key.Key_Period)  # the Training panel, in the larger text (and a step)
    else:
        click_dock_tab(qtbot, window, "Training")
    t = window.training
    axis = t.plot.plotItem.getAxis("bottom")
    for end in (10, 20):
        while t.view is None or t.view.index < end:
            press_button(qtbot, t.step_button)
            settle(window)
        assert t.plot.plotItem.vb.viewRange()[0][1] >= end > t.plot.plotItem.vb.viewRange()[0][1] - 1
        assert str(end) in drawn_tick_labels(axis), drawn_tick_labels(axis)


def test_at_w_zero_the_legend_names_no_boundary_of_the_fit(qtbot, window):
    """Step 0 of logistic regression on the fruit draws no boundary (w = 0 decides nothing), but the legend listed
    one for it, beside the truth's. It lists the truth's alone, and the fit's from the first step."""
    from guihelp import menu_action
    from pressing import press_button

    _open(qtbot, window, "fruit", "logistic")
    menu_action(window, "Legend").trigger()
    menu_action(window, "True model").trigger()  # its Bayes boundary beside the fit's
    click_dock_tab(qtbot, window, "Training")
    t = window.training
    qtbot.keyClick(window.canvas, Qt.Key.Key_T)  # step 0 on the canvas
    settle(window)
    assert t.showing() and t.view.index == 0 and not window.result.scene.boundaries

    def rows():
        return [label.text for _sample, label in window.canvas.legend.items]

    assert not any(r.startswith("Logistic regression: boundary") for r in rows()), rows()
    assert "true model: Bayes boundary" in rows()
    press_button(qtbot, t.step_button)
    settle(window)
    assert window.result.scene.boundaries and "Logistic regression: boundary" in rows(), rows()
