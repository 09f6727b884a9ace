"""The "Error against the truth" layer as a person sees it: pressed in the panel and drawn where the axes say
on the canvas, and in every export format read back by another renderer (see tests/test_miscalibration.py
for the map's numbers)."""

import numpy as np
import pytest
from guihelp import settle, to_pixel
from pressing import press_button
from reference import gap_colour as ramp
from reference import posterior_gap as gap
from test_figures import BLUE, ORANGE, H, VIEW, W, plot_to_data, raster, to_array

from probviz.app.export import export_figure
from probviz.data.dataset import Dataset
from probviz.data.session import Session
from probviz.models import create
from probviz.models.truth import Truth
from probviz.style import Style


@pytest.mark.parametrize("ext,dpi,reader", [("png", 150, "png"), ("pdf", 96, "pdf"), ("svg", 96, "svg-resvg")])
def test_exported_map_pixels_have_the_colour_of_the_gap_where_the_ticks_say(qapp, tmp_path, ext, dpi, reader):
    """Each plot pixel, mapped back to data through the axes' ticks, has the ramp's colour of max_k |p^ - p_k|
    there (a different covariance per class: LDA is wrong most where they differ)."""
    truth = Truth.make([0.5, 0.5], [[1.0, 1.0], [2.5, 1.5]], [np.diag([0.2, 1.0]), np.diag([1.2, 0.15])])
    X, labels = truth.sample(40, seed=2)
    data = Dataset(X, labels, ["a", "b"], [BLUE, ORANGE], ("x", "y"), truth=truth)
    session = Session(data, "lda", layers=["miscalibration"], view=VIEW)
    path = str(tmp_path / f"m.{ext}")
    style = Style(1.0, False)
    export_figure(session, path, W, H, legend=False, dpi=dpi, style=style)
    rgb = raster(path, reader)
    to_data, xt, yt, row, col = plot_to_data(rgb, style.foreground)
    rows, cols = np.mgrid[int(yt[0]) + 3:row - 3:4, col + 4:int(xt[-1]):4]
    rows, cols = rows.ravel(), cols.ravel()
    xy = to_data(rows, cols)  # pixel -> data, through the ticks
    model = create("lda").fit(X, labels)
    expected = ramp(gap(model, [0, 1], truth, xy))
    err = np.abs(rgb[rows, cols] - expected).max(axis=1)
    assert np.median(err) <= 3 and np.quantile(err, 0.98) <= 16, (np.median(err), np.quantile(err, 0.98))
    assert np.ptp(expected[:, 1]) > 120  # the picture spans the ramp: a flat colour would not pass


def test_the_layer_is_pressed_in_the_panel_and_drawn_where_the_axes_say(qtbot, window):
    """On XOR (a truth) the panel's checkbox draws the map: the canvas pixel at a spot far from the points has
    the ramp's colour of LDA's gap there; the hover readout says it; unticking brings the heatmap back; on a
    document with no truth the box is greyed and says why."""
    win = window
    assert win.open_path("example:xor")
    settle(win)
    box = win.panel.layer_boxes["miscalibration"]
    assert box.isEnabled()
    for other in ("boundaries", "ellipses"):  # lines drawn over the map: off, to read the map's own pixels
        press_button(qtbot, win.panel.layer_boxes[other])
    press_button(qtbot, box)
    settle(win)
    assert win.doc.layers == {"heatmap", "points", "miscalibration"}
    assert win.caption_parts()[-1] == "where p(C_k|x) is wrong"  # what presentation mode's caption says
    model, idx = win.canvas.frame.fit.model, win.canvas.frame.fit.class_index
    x0, x1, y0, y1 = win.canvas.view_bounds()
    u, v = np.meshgrid(np.linspace(x0, x1, 25)[2:-2], np.linspace(y0, y1, 25)[2:-2])
    spots = np.c_[u.ravel(), v.ravel()]
    clear = np.min(np.linalg.norm(spots[:, None] - win.doc.X[None], axis=2), axis=1) > 0.2 * (x1 - x0) / 10
    spots = spots[clear]  # clear of the points (drawn over the map) and of the legend's corner
    spots = spots[~((spots[:, 0] < x0 + 0.45 * (x1 - x0)) & (spots[:, 1] > y1 - 0.3 * (y1 - y0)))]
    # and off the steep band along the truth's boundaries (the axes), where a grid cell spans much of the ramp
    spots = spots[np.min(np.abs(spots), axis=1) > 0.2]
    assert len(spots) > 20
    img = to_array(win.canvas.grab().toImage())
    ratio = win.canvas.devicePixelRatioF()
    expected = ramp(gap(model, idx, win.doc.truth, spots), win.canvas.style.background)
    err = []
    for (x, y), want in zip(spots, expected):
        p = to_pixel(win, x, y)
        err.append(np.abs(img[round(p.y() * ratio), round(p.x() * ratio)] - want).max())
    assert np.median(err) <= 3 and np.max(err) <= 12, (np.median(err), spots[np.asarray(err) > 12])
    assert np.ptp(expected[:, 0]) > 20  # the spots differ: one flat colour would not pass
    readout = win.canvas.frame.readout_at(*spots[0])
    assert f"|fitted − true| = {gap(model, idx, win.doc.truth, spots[:1])[0]:.3f}" in readout
    press_button(qtbot, box)
    settle(win)
    assert win.canvas.frame.scene.miscalibration is None
    win.new_document()
    settle(win)
    assert not box.isEnabled() and "true model" in box.toolTip()


def test_the_true_model_layer_is_greyed_without_a_truth(qtbot, window):
    """The "True model" layer draws the truth: with none (a new document) its box in the panel and its View
    menu entry are greyed, saying why; example:fruit has a truth, and both can be pressed again."""
    from PySide6.QtWidgets import QMessageBox

    win = window
    box, action = win.panel.layer_boxes["truth"], win.layer_actions["truth"]
    win.open_example("fruit")
    settle(win)
    assert box.isEnabled() and action.isEnabled()
    win.files.ask_save = lambda: QMessageBox.StandardButton.Discard
    win.new_document()
    settle(win)
    assert not box.isEnabled() and not action.isEnabled() and "true model" in box.toolTip()
