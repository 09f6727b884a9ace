"""What the window shows, File > Export draws: the compared model's boundary, the cross-section line, the
truth's boundary, the reject band, the held-out points and the probe, at the same data coordinates, in PNG,
SVG and PDF, each read back by an independent renderer. And no view builds a frame request of its own: one function makes them all."""

import pathlib

import numpy as np
import pytest
from PySide6.QtCore import Qt

from guihelp import drag, key, settle, type_into
from probviz.figure_layout import layout as figure_layout
from probviz.style import Style
from test_figures import raster

W, H = 560, 420


def _menu_action(window, *path):
    """A QAction reached through the menu bar by its texts (without '&'), as a person finds it."""
    actions = window.menuBar().actions()
    for name in path:
        action = next(a for a in actions if a.text().replace("&", "") == name)
        actions = action.menu().actions() if action.menu() is not None else []
    return action


def _export_through_the_menu(window, monkeypatch, path) -> str:
    """File › Export image…, its dialog filled in as a person would (W x H, no legend): the file's path."""
    def answer(dialog):
        dialog.path.setText(str(path))
        dialog.width_.setValue(W)
        dialog.height_.setValue(H)
        dialog.legend.setChecked(False)
        return True

    monkeypatch.setattr(window.files, "run_dialog", answer)
    _menu_action(window, "File", "Export image…").trigger()
    assert pathlib.Path(path).exists()
    return str(path)


def _lda_line(X, labels):
    """LDA's boundary w.x + w0 = 0 between two classes, from the ML estimates written out (Bishop 4.2.2,
    eqs. 4.66-4.67, 4.75-4.79): pooled covariance with 1/N, priors N_k/N."""
    m = [X[labels == k].mean(axis=0) for k in (0, 1)]
    n = [np.count_nonzero(labels == k) for k in (0, 1)]
    S = sum((X[labels == k] - m[k]).T @ (X[labels == k] - m[k]) for k in (0, 1)) / len(X)
    P = np.linalg.inv(S)
    w = P @ (m[1] - m[0])
    w0 = -0.5 * m[1] @ P @ m[1] + 0.5 * m[0] @ P @ m[0] + np.log(n[1] / n[0])
    return w, w0


def _dark(rgb, px, radius=2):
    """Whether the foreground (near black) is drawn within ``radius`` pixels of ``px``."""
    x, y = int(round(px[0])), int(round(px[1]))
    patch = rgb[max(y - radius, 0):y + radius + 1, max(x - radius, 0):x + radius + 1]
    return bool(patch.size) and patch.max(axis=2).min() < 90


@pytest.mark.parametrize("ext,kind", [("png", "png"), ("svg", "svg-resvg"), ("pdf", "pdf")])
def test_file_export_draws_what_the_screen_shows(qtbot, window, tmp_path, monkeypatch, ext, kind):
    assert window.open_path("example:fruit")
    settle(window)
    doc = window.doc
    _menu_action(window, "Model", "QDA (own covariances)").trigger()
    settle(window)
    # the Lab: LDA as the second model (chosen with the arrow keys), 30% held out
    window.lab_dock.show()
    window.lab_dock.raise_()
    combo = window.lab.compare
    assert combo.isEnabled()
    while combo.currentData() != "lda":  # the arrow keys step through the choices
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    settle(window)
    assert doc.view_state.compare == "lda"
    type_into(qtbot, window, window.lab.held, "0.3")
    # a cross-section drawn with the Section tool, across an empty corner of the view
    x0, x1, y0, y1 = window.canvas.view_bounds()
    a = (x0 + 0.08 * (x1 - x0), y1 - 0.1 * (y1 - y0))
    b = (x0 + 0.3 * (x1 - x0), y1 - 0.3 * (y1 - y0))
    key(qtbot, window, Qt.Key.Key_X)
    drag(qtbot, window, a, b)
    a, b = doc.view_state.section
    held = doc.held_out()
    assert held is not None and held.any()
    # what the screen shows
    frame = window.result
    assert [s.name for s in frame.request.specs] == ["qda", "lda"] and frame.overlays
    assert frame.request.section == (a, b)

    path = _export_through_the_menu(window, monkeypatch, tmp_path / f"figure.{ext}")
    rgb = raster(path, kind)
    bounds = window.canvas.view_bounds()
    lay = figure_layout(W, H, bounds, Style(window.canvas.style.scale).font_px, False)

    # the section line's ends: filled discs of the foreground at their data coordinates
    for end in (a, b):
        assert _dark(rgb, lay.to_px(np.array([end]))[0], radius=1), f"no section end at {end}"

    # the compared model: LDA fitted to the points that are not held out, its line dashed
    w, w0 = _lda_line(doc.X[~held], doc.labels[~held])
    xs = np.linspace(x0 + 0.15 * (x1 - x0), x1 - 0.15 * (x1 - x0), 60)
    line = np.column_stack([xs, -(w[0] * xs + w0) / w[1]])
    line = line[(line[:, 1] > y0 + 0.1 * (y1 - y0)) & (line[:, 1] < y1 - 0.1 * (y1 - y0))]
    shown = np.vstack([bd.xy for bd in frame.scene.boundaries])  # the solid QDA boundary: kept apart
    px_line, px_shown = lay.to_px(line), lay.to_px(shown[np.all(np.isfinite(shown), axis=1)])
    far = np.array([np.min(np.hypot(*(px_shown - p).T)) > 14 for p in px_line])
    assert far.sum() >= 10
    hits = [_dark(rgb, p) for p in px_line[far]]
    assert np.mean(hits) > 0.4, f"the dashed LDA boundary is missing ({np.mean(hits):.2f} of its samples drawn)"

    # held-out points are hollow: the background at their centre
    inside = [p for p in lay.to_px(doc.X[held]) if 30 < p[0] < W - 30 and 30 < p[1] < H - 30]
    centres = np.array([rgb[int(round(y)), int(round(x))] for x, y in inside])
    assert np.mean(np.all(centres > 225, axis=1)) > 0.6


def test_the_screen_draws_the_cross_sections_ends_as_the_export_does(qtbot, window):
    """The exports mark a cross-section's two ends with filled discs; the canvas drew the dashed line alone, the
    same black dashes as a compared model's boundary. Read from the canvas's own pixels: beside each end, across
    the line, farther than the line's half width but within the disc's radius, the foreground is drawn."""
    from guihelp import to_pixel
    from probviz.style import SECTION_END

    assert window.open_path("example:fruit")
    settle(window)
    x0, x1, y0, y1 = window.canvas.view_bounds()
    key(qtbot, window, Qt.Key.Key_X)
    drag(qtbot, window, (x0 + 0.1 * (x1 - x0), y1 - 0.1 * (y1 - y0)), (x0 + 0.35 * (x1 - x0), y1 - 0.3 * (y1 - y0)))
    a, b = window.doc.view_state.section
    image = window.canvas.grab().toImage()
    rgb = np.array([[image.pixelColor(x, y).getRgb()[:3] for x in range(image.width())]
                    for y in range(image.height())])
    pa, pb = (np.array([to_pixel(window, *end).x(), to_pixel(window, *end).y()], float) for end in (a, b))
    along = (pb - pa) / np.hypot(*(pb - pa))
    across = np.array([-along[1], along[0]])
    reach = 0.5 * (SECTION_END * window.canvas.style.scale + window.canvas.style.width("section")) / 2
    assert reach > window.canvas.style.width("section") / 2 + 0.5  # beyond the line itself
    for end in (pa, pb):
        for side in (1, -1):
            assert _dark(rgb, end + side * reach * across, radius=0), (end, side)
    middle = (pa + pb) / 2  # the line alone, halfway: nothing that far across it
    assert not _dark(rgb, middle + reach * across + 1.5 * across, radius=0)


def test_no_view_builds_a_frame_request_of_its_own():
    """One function (probviz.snapshot.frame_request) makes every request: the window, its export and
    the command line cannot drift apart again."""
    root = pathlib.Path(__file__).resolve().parents[2] / "probviz"
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "snapshot.py" and "FrameRequest(" in p.read_text(encoding="utf-8")]
    assert offenders == []


def _truth_line(truth):
    """The Bayes boundary of two Gaussian classes sharing one covariance, from the truth's own numbers
    (Bishop eqs. 4.66-4.67): w = S^-1 (m1 - m0), w0 = -m1.S^-1.m1/2 + m0.S^-1.m0/2 + ln(p1/p0)."""
    m0, m1 = (np.asarray(m[0], float) for m in truth.means)
    S = np.asarray(truth.covariances[0][0], float)
    P = np.linalg.inv(S)
    return P @ (m1 - m0), -0.5 * m1 @ P @ m1 + 0.5 * m0 @ P @ m0 + np.log(truth.priors[1] / truth.priors[0])


@pytest.mark.parametrize("ext,kind", [("png", "png"), ("svg", "svg-resvg"), ("pdf", "pdf")])
def test_file_export_draws_the_truth_the_reject_band_and_the_probe(qtbot, window, tmp_path, monkeypatch, ext, kind):
    """The true model's Bayes boundary (dash-dotted), the reject option's grey band where max p(C_k|x) < θ,
    and the probe's ring: each where its own formula puts it, in every format."""
    assert window.open_path("example:fruit")
    settle(window)
    doc = window.doc
    doc.view_state.set_layers({"decision", "boundaries", "points", "truth"})  # setup: the layers to look at
    type_into(qtbot, window, window.panel.theta, "0.9")
    settle(window)
    assert doc.theta == 0.9 and window.result.truth is not None and doc.probe is not None
    path = _export_through_the_menu(window, monkeypatch, tmp_path / f"figure.{ext}")
    rgb = raster(path, kind).astype(int)
    x0, x1, y0, y1 = bounds = window.canvas.view_bounds()
    lay = figure_layout(W, H, bounds, Style(window.canvas.style.scale).font_px, False)
    w, w0 = _lda_line(doc.X, doc.labels)  # the fitted LDA: a = w.x + w0 is its log-odds

    # the truth's Bayes boundary, kept apart from the fitted one
    tw, tw0 = _truth_line(doc.truth)
    xs = np.linspace(x0 + 0.1 * (x1 - x0), x1 - 0.1 * (x1 - x0), 80)
    line = np.column_stack([xs, -(tw[0] * xs + tw0) / tw[1]])
    line = line[(line[:, 1] > y0 + 0.1 * (y1 - y0)) & (line[:, 1] < y1 - 0.1 * (y1 - y0))]
    fitted = np.column_stack([xs, -(w[0] * xs + w0) / w[1]])
    px_line, px_fit = lay.to_px(line), lay.to_px(fitted)
    far = np.array([np.min(np.hypot(*(px_fit - p).T)) > 10 for p in px_line])
    assert far.sum() >= 8
    hits = [_dark(rgb, p) for p in px_line[far]]
    assert np.mean(hits) > 0.35, f"the truth's boundary is missing ({np.mean(hits):.2f} of its samples drawn)"

    # the reject band: grey where |a| < logit(0.9) / 2, not grey where |a| > 2 logit(0.9), away from points
    grey = np.array(Style().reject)
    cut = np.log(0.9 / 0.1)
    rng = np.random.default_rng(0)
    inside, outside = [], []
    points_px = lay.to_px(doc.X)
    probe_px = lay.to_px(np.array([doc.probe]))[0]
    every = np.linspace(x0, x1, 400)  # both lines across the whole view
    px_line = lay.to_px(np.column_stack([every, -(tw[0] * every + tw0) / tw[1]]))
    px_fit = lay.to_px(np.column_stack([every, -(w[0] * every + w0) / w[1]]))
    for x, y in np.column_stack([rng.uniform(x0, x1, 4000), rng.uniform(y0, y1, 4000)]):
        a = w @ (x, y) + w0
        px, py = lay.to_px(np.array([[x, y]]))[0]
        if not (8 < px < W - 8 and 8 < py < H - 8) or np.min(np.hypot(*(points_px - (px, py)).T)) < 9:
            continue
        near_lines = min(np.min(np.hypot(*(px_fit - (px, py)).T)), np.min(np.hypot(*(px_line - (px, py)).T)))
        in_label = abs(px - probe_px[0]) < 190 and abs(py - probe_px[1]) < 42  # (on whichever diagonal it went)
        if near_lines < 10 or in_label:  # the lines with their halos, the probe with its label
            continue
        colour = rgb[int(round(py)), int(round(px))]
        (inside if abs(a) < cut / 2 else outside if abs(a) > 2 * cut else []).append(np.abs(colour - grey).max() < 25)
    assert len(inside) > 20 and len(outside) > 100
    assert np.mean(inside) > 0.9 and np.mean(outside) < 0.02, (np.mean(inside), np.mean(outside))

    # the probe: a dark ring around its data coordinates
    cx, cy = lay.to_px(np.array([doc.probe]))[0]
    ring = [_dark(rgb, (cx + r * np.cos(t), cy + r * np.sin(t)), radius=2)
            for t in np.linspace(0, 2 * np.pi, 16, endpoint=False) for r in (6,)]
    assert np.mean(ring) > 0.7, f"no probe ring at {doc.probe}"


@pytest.mark.parametrize("ext,kind", [("png", "png"), ("svg", "svg-resvg"), ("pdf", "pdf")])
def test_an_exports_probe_label_goes_where_it_hides_no_points(qtbot, window, tmp_path, monkeypatch, ext, kind):
    """A cluster just above the probe and towards the plot's middle, where the export first put its label: the
    label covered it. Like the canvas's, it goes to the diagonal that hides no point: every point's centre keeps
    its class's colour in the file, read back by another renderer; the label's dark text is beside the ring."""
    from probviz.data.dataset import Dataset

    # above and to the right of (-2, 0), apart enough that no marker covers another's centre
    cluster = np.array([(x, y) for x in (-1.6, -1.1, -0.6, -0.1) for y in (0.45, 0.8)])
    X = np.vstack([cluster, [[3.0, -3.0], [3.5, -3.5], [4.0, -3.0]]])
    window.load(Dataset(X, np.r_[[0] * 8, [1] * 3], ["a", "b"]))
    window.doc.view_state.set_layers({"points"})  # setup: the points alone on white, and the probe
    window.canvas.vb.setRange(xRange=(-5, 5), yRange=(-5, 5), padding=0)
    settle(window)
    from guihelp import to_pixel
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     to_pixel(window, -2.0, 0.0))
    settle(window)
    assert window.doc.probe is not None
    path = _export_through_the_menu(window, monkeypatch, tmp_path / f"probe.{ext}")
    rgb = raster(path, kind).astype(int)
    lay = figure_layout(W, H, window.canvas.view_bounds(), Style(window.canvas.style.scale).font_px, False)
    colour = np.array([int(window.doc.classes[0].color[i:i + 2], 16) for i in (1, 3, 5)])
    for x, y in lay.to_px(cluster):
        assert np.abs(rgb[int(round(y)), int(round(x))] - colour).max() < 40, (x, y)
    cx, cy = lay.to_px(np.array([[-2.0, 0.0]]))[0]
    near = rgb[int(cy) - 45:int(cy) + 45, int(cx) - 200:int(cx) + 200].max(axis=2) < 90
    assert near.sum() > 40  # the label's text (and the ring) beside the probe


@pytest.mark.parametrize("ext,kind", [("png", "png"), ("svg", "svg-resvg"), ("pdf", "pdf")])
def test_file_export_rings_the_point_an_sgd_step_used(qtbot, window, tmp_path, monkeypatch, ext, kind):
    """The canvas rings the point a stochastic gradient descent step used; File › Export drew the step's
    boundary without the ring. Read back from every format: round the point, at the ring's radius, the ink is
    drawn nearly all the way round, and between the point's marker and the ring it is not."""
    from pressing import choose, press_button

    from probviz.data.dataset import Dataset
    from probviz.models import REGISTRY
    from probviz.style import SGD_RING, SGD_RING_WIDTH

    X = np.array([[-3.0, -2.0], [-1.0, 2.5], [-2.5, 1.0], [2.0, -2.5], [3.0, 1.5], [1.0, 2.0]])
    window.load(Dataset(X, np.array([0, 0, 0, 1, 1, 1]), ["a", "b"]))
    _menu_action(window, "Model", REGISTRY["logistic"].label).trigger()
    window.training_dock.show()
    window.training_dock.raise_()
    settle(window)
    t = window.training
    choose(qtbot, t.optimizer, t.optimizer.findData("sgd"))
    for _ in range(2):
        press_button(qtbot, t.step_button)
        settle(window)
    spot = np.asarray(window.result.training.highlight)
    assert any(np.array_equal(spot, x) for x in window.doc.X)  # one of the points, ringed on the canvas too
    np.testing.assert_allclose(window.canvas.spotlight.getData()[0], [spot[0]])
    path = _export_through_the_menu(window, monkeypatch, tmp_path / f"figure.{ext}")
    rgb = raster(path, kind).astype(int)
    style = Style(window.canvas.style.scale)
    lay = figure_layout(W, H, window.canvas.view_bounds(), style.font_px, False)
    (cx, cy), = lay.to_px(spot[None, :])
    r = SGD_RING * style.point_size / 2
    turn = np.linspace(0, 2 * np.pi, 48, endpoint=False)

    def inked(radius):
        return np.mean([_dark(rgb, (cx + radius * np.cos(a), cy + radius * np.sin(a)), radius=0) for a in turn])

    assert inked(r) > 0.9, inked(r)
    gap = (style.point_size / 2 + r - SGD_RING_WIDTH * style.scale / 2) / 2  # past the marker's edge, inside the ring
    assert gap > style.point_size / 2 + 1
    assert inked(gap) < 0.2, inked(gap)
