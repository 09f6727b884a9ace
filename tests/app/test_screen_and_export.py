"""What the window shows, File > Export draws: the compared model's boundary, the cross-section line,
the held-out points and the probe, at the same data coordinates, in PNG, SVG and PDF, each read back by
an independent renderer. And no view builds a frame request of its own: one function makes them all."""

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

    path = str(tmp_path / f"figure.{ext}")

    def answer(dialog):  # the export dialog, filled in as a person would
        dialog.path.setText(path)
        dialog.width_.setValue(W)
        dialog.height_.setValue(H)
        dialog.legend.setChecked(False)
        return True

    monkeypatch.setattr(window.files, "run_dialog", answer)
    _menu_action(window, "File", "Export image…").trigger()
    assert pathlib.Path(path).exists()
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


def test_no_view_builds_a_frame_request_of_its_own():
    """One function (probviz.snapshot.frame_request) makes every request: the window, its export and
    the command line cannot drift apart again."""
    root = pathlib.Path(__file__).resolve().parents[2] / "probviz"
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "snapshot.py" and "FrameRequest(" in p.read_text(encoding="utf-8")]
    assert offenders == []
