"""The first screen: `probviz` opens on the fruit example as File > Examples > fruit shows it."""

import ast
import os
import subprocess
import sys

from probviz.data import examples

_PROGRAM = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(['probviz'])

def look():
    win = next(w for w in app.topLevelWidgets() if type(w).__name__ == 'MainWindow')
    print('START', win.canvas.vb.viewRange(), flush=True)
    file_menu = next(a.menu() for a in win.menuBar().actions() if a.text() == '&File')
    examples = next(a.menu() for a in file_menu.actions() if a.text() == '&Examples')
    next(a for a in examples.actions() if a.text() == 'fruit').trigger()
    print('EXAMPLE', win.canvas.vb.viewRange(), flush=True)
    win.doc.mark_saved()
    win.close()
QTimer.singleShot(300, look)
from probviz.app.launch import run_gui
sys.exit(run_gui())
"""


def _ranges(out: str, tag: str):
    line = next(s for s in out.splitlines() if s.startswith(tag + " "))
    return ast.literal_eval(line[len(tag) + 1:])  # [[x0, x1], [y0, y1]], printed by the program above


def test_the_first_screen_shows_the_fruit_example_as_file_examples_does(tmp_path):
    """At start-up the window framed the points again once shown (y up to about 5.1), where File > Examples >
    fruit shows the example's own view (x from -1 to 3.5, y from -1 to 4.5): two pictures of one example."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", _PROGRAM], capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr[-800:]
    start, example = _ranges(out.stdout, "START"), _ranges(out.stdout, "EXAMPLE")
    x0, x1, y0, y1 = examples.session("fruit").view
    assert example == [[x0, x1], [y0, y1]]
    assert start == example
