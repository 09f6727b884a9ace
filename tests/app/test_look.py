"""One table of each line's look, read by the canvas and the figures alike; on screen the widths follow
the device pixel ratio, so a boundary is as thick at 200% scaling as at 100%."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from guihelp import settle
from probviz.style import LOOK, Style

MEASURE = r"""
import json, os, sys
import numpy as np
from PySide6.QtWidgets import QApplication
app = QApplication(["look"])
from probviz.app.main_window import MainWindow
from probviz.data import examples
w = MainWindow()
w.files.autosave_enabled = False
w.resize(900, 700)
w.show()
w.load_session(examples.session("fruit"))
w.doc.view_state.set_layers({"boundaries"})
w.doc.set_probe(None)  # its label would sit in the measured columns
for _ in range(5):
    app.processEvents()
    w.refitter.flush()
img = w.canvas.grab().toImage().convertToFormat(w.canvas.grab().toImage().Format.Format_RGB888)
h, wd = img.height(), img.width()
a = np.frombuffer(img.constBits(), np.uint8).reshape(h, img.bytesPerLine())[:, :3 * wd].reshape(h, wd, 3)
dark = a.max(axis=2) < 100
runs = []
for c in range(wd // 3, 2 * wd // 3, 7):  # columns across the middle: the boundary's dark core in each
    col = dark[h // 8: 7 * h // 8, c]
    if col.any():
        idx = np.flatnonzero(col)
        runs.append(int(idx[-1] - idx[0] + 1))
print(json.dumps({"ratio": w.canvas.devicePixelRatioF(), "runs": runs}))
w.doc.mark_saved()
w.close()
"""


def _thickness(factor: float) -> tuple[float, float]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": str(factor)}
    out = subprocess.run([sys.executable, "-c", MEASURE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(result["runs"]) >= 5
    return result["ratio"], float(np.median(result["runs"]))


def test_a_boundary_is_as_thick_at_200_percent_as_at_100():
    ratio1, one = _thickness(1)
    ratio2, two = _thickness(2)
    assert (ratio1, ratio2) == (1.0, 2.0)
    assert 2 <= one <= 8  # the 3-pixel line (a slanted run is a little longer)
    assert two == pytest.approx(2 * one, rel=0.25)  # twice the device pixels: the same on the screen


def test_the_canvas_draws_the_truths_boundary_with_the_figures_outline(qtbot, window):
    """Both renderers read one table: the Bayes boundary has its background outline on screen too."""
    assert window.open_path("example:fruit")
    window.doc.view_state.set_layers({"truth", "heatmap"})
    settle(window)
    style = window.canvas.style
    assert window.canvas.truth_outline.opts["pen"].widthF() == pytest.approx(
        (LOOK["truth_boundary"].width + LOOK["truth_boundary"].outline) * style.scale)
    xs, _ = window.canvas.truth_outline.getData()
    assert xs is not None and np.isfinite(xs).sum() > 10  # drawn where the boundary is
    np.testing.assert_array_equal(xs, window.canvas.truth_boundary.getData()[0])


def test_every_line_of_the_table_has_a_known_colour_role_and_dash():
    for name, stroke in LOOK.items():
        assert stroke.role in ("fg", "bg", "class") and stroke.dash in ("solid", "dash", "dot", "dashdot"), name
        assert Style(2.0).width(name) == 2 * Style().width(name) > 0
