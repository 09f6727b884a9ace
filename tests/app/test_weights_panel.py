"""The Weights panel, pressed as a lecturer presses it on the fruit: the Bayesian view's weight space shown
from the View menu, a click in weight space drawing that point's boundary on the canvas, the number of
sampled weights, points added one by one from the truth (sequential learning) and taken back by Undo.
Each picture checked against Bishop's formulas written out here (eqs. 4.140, 4.143)."""

import numpy as np
import pytest
import pyqtgraph as pg
from guihelp import click_dock_tab, menu_action, settle
from pressing import choose, press_button, step
from PySide6.QtCore import QPointF, Qt
from scipy.special import expit

from probviz.models import MODEL_NAMES
from probviz.weight_space import LEVELS, WeightSpace

WEIGHTS = "Weights panel (the Bayesian view's weight space)"


def _weights_shown(qtbot, win):
    assert win.open_path("example:fruit")
    settle(win)
    choose(qtbot, win.panel.model, MODEL_NAMES.index("logistic"))
    settle(win)
    assert menu_action(win, WEIGHTS).isChecked()  # View > Weights panel: a tab beside the Model panel's
    click_dock_tab(qtbot, win, "Weights")
    assert "tick 'Bayesian view (Laplace)'" in win.weights.status.text()  # a plain fit has no weight space
    assert not win.weights._slot.isVisible()  # nor empty axes of made-up ranges beside that text
    press_button(qtbot, win.panel.param_widgets["bayes"])
    settle(win)
    assert isinstance(win.weights.frame.weights, WeightSpace)
    assert win.weights._slot.isVisible() and win.weights.plot.isVisible()
    return win.canvas.frame.fit.model.laplace_


def _precision(win, lap):
    """S_N^-1 = alpha I + sum_n y_n (1 - y_n) phi_n phi_n^T (eq. 4.143), on the prior's features."""
    Phi = np.column_stack([np.ones(len(win.doc.X)), (win.doc.X - lap.center) / lap.scale])
    y = expit(Phi @ lap.w_map[0])
    return lap.alpha * np.eye(3) + (Phi * (y * (1 - y))[:, None]).T @ Phi


def _items(win, style):
    return [c for c in win.weights.plot.plotItem.items
            if isinstance(c, pg.PlotDataItem) and c.opts["pen"].style() == style]


def test_the_panel_draws_the_laplace_ellipses_over_the_exact_posterior(qtbot, window):
    win = window
    lap = _weights_shown(qtbot, win)
    A = _precision(win, lap)[1:, 1:]  # the slice's precision at w_MAP's bias
    ellipses = _items(win, Qt.PenStyle.DashDotLine)
    assert len(ellipses) == len(LEVELS)
    for level, item in zip(LEVELS, ellipses):
        d = np.column_stack([item.xData, item.yData]) - lap.w_map[0][1:]
        np.testing.assert_allclose(np.einsum("ni,ij,nj->n", d, A, d), 2 * level, rtol=1e-6)
    # the exact posterior's contours (solid): ln p(t|w) + ln p(w) a level below its value at w_MAP
    X, t = win.doc.X, (win.doc.labels == 1)
    Phi = np.column_stack([np.ones(len(X)), (X - lap.center) / lap.scale])

    def log_post(w1, w2):
        w = np.array([lap.w_map[0][0], w1, w2])
        a = Phi @ w
        return np.sum(np.where(t, np.log(expit(a)), np.log(expit(-a)))) - 0.5 * lap.alpha * w @ w

    top = log_post(*lap.w_map[0][1:])
    ink = pg.mkColor(*win.canvas.style.foreground).name()  # the posterior's, the theme's
    solid = [c for c in _items(win, Qt.PenStyle.SolidLine) if c.opts["pen"].color().name() == ink]
    assert len(solid) == len(LEVELS)  # one closed curve per level on the fruit
    for level, item in zip(LEVELS, solid):
        for w1, w2 in list(zip(item.xData, item.yData))[::7]:  # to the grid's linear interpolation
            assert abs(log_post(w1, w2) - top + level) < 0.02 * level + 0.01
    # the dots: the canvas cloud's weights, q's draws
    dots = [c for c in win.weights.plot.plotItem.items if isinstance(c, pg.ScatterPlotItem)][0]
    assert len(dots.data) == win.doc.view_state.samples[0] == 30


def test_a_click_in_weight_space_draws_its_boundary_on_the_canvas(qtbot, window):
    win = window
    lap = _weights_shown(qtbot, win)
    plot = win.weights.plot
    target = (1.0, 2.0)
    pos = plot.mapFromScene(plot.plotItem.vb.mapViewToScene(QPointF(*target)))
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    settle(win)
    w1, w2 = win.doc.view_state.weight_probe
    span = win.weights.frame.weights.w1[-1] - win.weights.frame.weights.w1[0]
    assert abs(w1 - target[0]) < 0.01 * span and abs(w2 - target[1]) < 0.01 * span
    xy = np.column_stack(win.canvas.weight_line.getData())
    xy = xy[np.isfinite(xy[:, 0])]
    assert len(xy) >= 2
    a = lap.w_map[0][0] + ((xy - lap.center) / lap.scale) @ np.array([w1, w2])  # its activation: zero on it
    np.testing.assert_allclose(a, 0.0, atol=1e-9)
    x0, x1, _, _ = win.canvas.view_bounds()
    assert xy[:, 0].max() - xy[:, 0].min() > 0.5 * (x1 - x0)  # across the view
    press_button(qtbot, win.weights.clear_button)
    settle(win)
    assert win.doc.view_state.weight_probe is None and not np.size(win.canvas.weight_line.getData()[0])


def test_points_from_the_truth_narrow_the_posterior_and_undo_takes_them_back(qtbot, window):
    win = window
    _weights_shown(qtbot, win)
    step(qtbot, win.weights.samples)  # one more sampled weight vector: the dots and the canvas's cloud
    settle(win)
    assert win.doc.view_state.samples[0] == 31 and len(win.weights.frame.weights.samples) == 31
    before = np.linalg.det(win.weights.frame.weights.cov[1:, 1:])
    n = len(win.doc.X)
    for _ in range(40):
        press_button(qtbot, win.weights.add_button)
    settle(win)
    assert len(win.doc.X) == n + 40 and win.weights.frame.weights.n == n + 40
    lap = win.canvas.frame.fit.model.laplace_
    np.testing.assert_allclose(np.linalg.inv(win.weights.frame.weights.cov), _precision(win, lap), rtol=1e-8)
    assert np.linalg.det(win.weights.frame.weights.cov[1:, 1:]) < before  # 290 points know w better than 250
    undo = [a for a in win.menuBar().actions() if a.text().replace("&", "") == "Edit"][0].menu().actions()[0]
    undo.trigger()  # Edit > Undo: the last point, alone
    settle(win)
    assert len(win.doc.X) == n + 39


@pytest.mark.parametrize("ext,dpi,reader", [("png", 96, "png"), ("pdf", 300, "pdf"), ("svg", 150, "svg-resvg")])
def test_the_clicked_weights_boundary_is_exported_where_the_axes_say(qapp, tmp_path, ext, dpi, reader):
    """A snapshot with a point of weight space: the figure draws its boundary -- the zero of
    w0_MAP + w . (x - center) / scale, written out here -- and every inked pixel of the plot lies on it,
    in each format as an independent renderer reads it."""
    from dataclasses import replace

    from test_figures import BLUE, H, ORANGE, VIEW, W, inked_points, raster

    from probviz.app.export import export_figure
    from probviz.data.dataset import Dataset
    from probviz.data.session import Session
    from probviz.snapshot import from_session
    from probviz.style import Style

    rng = np.random.default_rng(4)
    X = np.vstack([rng.normal([1.0, 1.0], 0.7, (8, 2)), rng.normal([2.2, 1.4], 0.7, (8, 2))])
    data = Dataset(X, np.repeat([0, 1], 8), ["a", "b"], [BLUE, ORANGE], ("x", "y"))
    session = Session(data, "logistic", params={"logistic": {"bayes": True, "alpha": 1.0}}, layers=["samples"],
                      view=VIEW)
    snap = replace(from_session(session), weight_probe=(2.0, -1.0), samples=(0, 0))
    path = str(tmp_path / f"w.{ext}")
    style = Style(1.0, False)
    frame = export_figure(snap, path, W, H, legend=False, dpi=dpi, style=style)
    lap = frame.fit.model.laplace_
    px, dx = inked_points(raster(path, reader), style.foreground)
    assert len(px) > 50
    n = np.array([2.0, -1.0]) / lap.scale  # the line n . x = n . center - w0: its distance from each pixel
    distance = np.abs(px @ n - (n @ lap.center - lap.w_map[0][0])) / np.hypot(*n)
    assert np.mean(distance < 3.0 / dx) > 0.99
    # and it runs across the plot: inked near both ends of the view's x range (the line is steep or flat)
    span = px[:, 0].max() - px[:, 0].min() + px[:, 1].max() - px[:, 1].min()
    assert span > 0.8 * (VIEW[1] - VIEW[0])


def test_the_number_of_sampled_boundaries_is_saved_with_the_session(qtbot, window, tmp_path, monkeypatch):
    """Samples set to 45 in the Weights panel, File > Save As, reopened: 45 boundaries again."""
    from guihelp import menu_action

    from probviz.data.session import read_session

    win = window
    _weights_shown(qtbot, win)
    spin = win.weights.samples
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), "45")
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    settle(win)
    assert win.doc.view_state.samples == (45, 0)
    path = tmp_path / "b.probviz"
    monkeypatch.setattr("probviz.app.fileops.QFileDialog.getSaveFileName", lambda *a, **k: (str(path), ""))
    menu_action(win, "Save As…").trigger()
    assert read_session(str(path)).samples == (45, 0)
    win.doc.view_state.set_samples(30)
    assert win.open_path(str(path))
    settle(win)
    assert win.doc.view_state.samples == (45, 0) and win.weights.samples.value() == 45


def test_with_no_fit_the_panel_says_what_it_needs(qtbot, window):
    """Every point deleted (Edit > Select all, Delete): the panel asks for points, not for the view that is on."""
    from guihelp import key

    win = window
    _weights_shown(qtbot, win)
    win.activateWindow()  # the model list's popup had the keyboard: a person's next key goes to the window
    qtbot.waitUntil(win.isActiveWindow, timeout=2000)
    key(qtbot, win, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    key(qtbot, win, Qt.Key.Key_Delete)
    settle(win)
    assert len(win.doc.X) == 0
    assert win.weights.status.text() == "Nothing is fitted yet: weight space needs points of two classes."
    assert not win.weights._slot.isVisible()  # the text alone, no axes left from the weight space before


def test_with_points_of_one_class_the_panel_asks_for_two_classes(qtbot, window):
    """The Bayesian view ticked and every point of one class (four sampled points, all apples): the panel told a
    teacher to choose logistic regression and tick the Bayesian view, both done. It asks for two classes."""
    win = window
    _weights_shown(qtbot, win)
    win.doc.delete_points(np.flatnonzero(win.doc.labels == 1))  # the peaches gone (as Delete takes them)
    settle(win)
    assert win.doc.params["logistic"]["bayes"] and set(win.doc.labels) == {0}
    assert win.weights.status.text() == ("Weight space needs points of two classes; these are all of one class "
                                         "(add a point of another).")


def test_the_clicked_weights_do_not_follow_into_another_document(qtbot, window):
    win = window
    _weights_shown(qtbot, win)
    win.doc.view_state.set_weight_probe((1.0, 2.0))  # (a click, as the test above presses it)
    settle(win)
    assert win.canvas.frame.weight_line
    assert win.open_path("example:xor")
    settle(win)
    assert win.doc.view_state.weight_probe is None and not win.canvas.frame.weight_line


def test_the_contours_reach_every_edge_of_the_plot_whatever_its_shape(qtbot, window):
    """The plot keeps equal scales (the prior's circles round), so it shows more than the box the weight space was
    computed over: the prior's circles and the likelihood's contours stopped short of its edges. The weight space
    is computed over the plot's own shape: what the plot shows lies within its grid, also after the panel is
    made wider or the window taller."""
    from PySide6.QtCore import Qt as _Qt

    win = window
    _weights_shown(qtbot, win)

    def shown_inside_the_grid():
        ws = win.weights.frame.weights
        (x0, x1), (y0, y1) = win.weights.plot.plotItem.vb.viewRange()
        tol = 1e-6 * max(ws.w1[-1] - ws.w1[0], ws.w2[-1] - ws.w2[0])  # (rounding)
        return (ws.w1[0] - tol <= x0 and x1 <= ws.w1[-1] + tol and ws.w2[0] - tol <= y0 and y1 <= ws.w2[-1] + tol,
                ((x0, x1), (y0, y1)), ((ws.w1[0], ws.w1[-1]), (ws.w2[0], ws.w2[-1])))
    inside, shown, grid = shown_inside_the_grid()
    assert inside, (shown, grid)
    dock = win.weights_dock
    for width, height in ((dock.width() + 220, 750), (dock.width() - 120, 950)):
        win.resize(win.width(), height)
        win.resizeDocks([dock], [width], _Qt.Orientation.Horizontal)
        settle(win)
        qtbot.waitUntil(lambda: shown_inside_the_grid()[0], timeout=5000)
    # a shape within the step asks for no new weight space (each would cost a refit): the plot still shows no
    # more than its grid (it showed up to 4% more of one axis, bare strips at two edges). The window is made
    # taller, not the panel wider: a wider panel rewraps its text, which moves the plot's height by a line
    vb = win.weights.plot.plotItem.vb
    for grow in (5, -10):  # about 2% taller, then 2% shorter than asked for
        asked = win.weights._asked_aspect
        win.resize(win.width(), win.height() + grow)
        settle(win)
        assert 0.005 < abs(vb.height() / vb.width() / asked - 1.0) < win.weights.ASPECT_STEP  # the case meant
        inside, shown, grid = shown_inside_the_grid()
        assert inside, (shown, grid)


def test_weight_space_keeps_its_room_in_f5_and_its_key_never_widens_the_dock(qtbot, settings_kept, window):
    """The Weights tab clicked with the Bayesian view on: the canvas keeps its width (the key's long text asked
    the dock for 155 pixels more the moment it showed); in presentation mode's large text the plot keeps a
    usable height (it was squeezed to about 20 pixels under the text), the panel scrolling instead."""
    window.open_path("example:fruit")
    window.doc.set_model("logistic")
    window.doc.set_param("bayes", True)
    settle(window)
    width = window.canvas.width()
    click_dock_tab(qtbot, window, "Weights")
    qtbot.waitUntil(lambda: window.weights.key.isVisible(), timeout=10_000)
    settle(window)
    assert window.canvas.width() == width
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    menu_action(window, "Weights panel (the Bayesian view's weight space)").trigger()
    settle(window)
    qtbot.waitUntil(lambda: window.weights.key.isVisible(), timeout=10_000)
    settle(window)
    vb = window.weights.plot.plotItem.vb
    assert vb.height() >= 150 and vb.width() >= 150, (vb.width(), vb.height())
    qtbot.keyClick(window, Qt.Key.Key_F5)


def test_a_panel_turned_on_from_the_view_menu_comes_to_the_front(qtbot, settings_kept, window):
    """F5 folds the panels away and "." brings back the Training panel; View > Lab panel, then View > Weights
    panel, each came back as a tab behind it, and nothing seemed to happen: each comes to the front."""
    window.open_path("example:fruit")
    window.doc.set_model("logistic")
    settle(window)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    settle(window)
    qtbot.keyClick(window, Qt.Key.Key_Period)
    settle(window)
    assert window.training.seen.on_screen
    for text, seen in (("Lab panel (true model, samples, comparison)", window.lab.seen),
                       ("Weights panel (the Bayesian view's weight space)", window.weights.seen)):
        menu_action(window, text).trigger()
        settle(window)
        assert seen.on_screen, text
    assert not window.training.seen.on_screen and not window.lab.seen.on_screen
    qtbot.keyClick(window, Qt.Key.Key_F5)


def test_weight_space_says_why_it_is_empty_while_a_training_step_is_shown(qtbot, window):
    """With the Bayesian view on and the Weights tab in front, T (Train > Show the training step) puts the training
    step on the canvas: the panel is empty then, and it said to tick the Bayesian view, which was ticked. It says
    the step is shown, and T brings the fit and its weight space back."""
    lap = _weights_shown(qtbot, win := window)
    assert lap is not None and win.weights.seen.on_screen
    show_step = menu_action(win, "Show the training step")  # Train > Show the training step (T)
    show_step.trigger()
    settle(win)
    assert win.training.showing() and win.weights.seen.on_screen
    assert "training step" in win.weights.status.text() and "T shows the fit" in win.weights.status.text()
    assert not win.weights.key.isVisible()
    press_button(qtbot, win.panel.param_widgets["bayes"])  # the Bayesian view off: the step says nothing of it
    settle(win)
    assert win.training.showing() and "tick 'Bayesian view (Laplace)'" in win.weights.status.text()
    press_button(qtbot, win.panel.param_widgets["bayes"])
    settle(win)
    assert win.training.showing() and "training step" in win.weights.status.text()
    show_step.trigger()
    settle(win)
    assert isinstance(win.weights.frame.weights, WeightSpace) and win.weights.key.isVisible()


def test_the_posterior_and_the_key_follow_the_theme_and_the_samples_layer(qtbot, window):
    """The exact posterior was drawn in near-black (#222222) on the dark theme's near-black plot, unseen, while the
    key called it black; and the key said the dots were the canvas's sampled boundaries while that layer was off.
    The posterior is drawn in the theme's ink and the key says its colour; the dots' words follow the layer."""
    win = window
    _weights_shown(qtbot, win)

    def posterior_colours():
        return {c.opts["pen"].color().name() for c in _items(win, Qt.PenStyle.SolidLine)}

    assert "samples" not in win.doc.layers
    assert "(eq.\u00a04.140)" in win.weights.key.text()  # never broken between "eq." and its number
    assert "black the exact posterior" in win.weights.key.text() and "draws their boundaries" in win.weights.key.text()
    ink = pg.mkColor(*win.canvas.style.foreground)
    assert posterior_colours() == {ink.name()} and ink.lightness() < 40  # black enough to be called black
    menu_action(win, "Dark theme").trigger()
    settle(win)
    try:
        assert win.canvas.style.dark
        ink, paper = (pg.mkColor(*c) for c in (win.canvas.style.foreground, win.canvas.style.background))
        assert posterior_colours() == {ink.name()} and ink.lightness() - paper.lightness() > 150
        assert "white the exact posterior" in win.weights.key.text()
    finally:
        menu_action(win, "Dark theme").trigger()
        settle(win)
    press_button(qtbot, win.panel.layer_boxes["samples"])  # the canvas draws the sampled boundaries now
    settle(win)
    assert "samples" in win.doc.layers
    assert "dots the weights of the canvas's sampled boundaries" in win.weights.key.text()


def test_a_panel_floated_and_docked_again_comes_back_in_front(qtbot, window):
    """The Weights panel floated with its title bar's float button, then docked again with the same button: Qt
    put it back behind the Lab's tab, as if it had gone. It comes back in front, drawn."""
    from PySide6.QtWidgets import QAbstractButton

    _weights_shown(qtbot, window)
    dock = window.weights_dock
    button = dock.findChild(QAbstractButton, "qt_dockwidget_floatbutton")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    settle(window)
    assert dock.isFloating()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    settle(window)
    qtbot.wait(20)
    settle(window)
    assert not dock.isFloating()
    assert not dock.visibleRegion().isEmpty() and window.lab_dock.visibleRegion().isEmpty()
    assert window.weights.seen.on_screen and isinstance(window.weights.frame.weights, WeightSpace)
