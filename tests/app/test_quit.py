"""Quitting ends the program cleanly, whatever is still to be drawn."""

import os
import subprocess
import sys

import numpy as np
import pytest


def test_quitting_right_after_a_drag_through_many_points_exits_cleanly(tmp_path):
    """With more than 20,000 points the fits run on a worker thread. Quitting (File > Quit) as the hand lets go
    of a dragged point left the release's refit (and the resting hand's exact frame) to start a new worker
    after the window had stopped its own: Qt then aborted the program on the way out ("QThread: Destroyed
    while thread is still running", exit status 134), or hung there."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30_000, 2))
    data = tmp_path / "many.csv"
    data.write_text("x,y,label\n" + "".join(f"{a:.6f},{b:.6f},{'ab'[i % 2]}\n" for i, (a, b) in enumerate(X)))
    script = (
        "import sys\n"
        "from PySide6.QtCore import QPoint, QPointF, Qt, QTimer\n"
        "from PySide6.QtTest import QTest\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication(['probviz'])\n"
        "def drag_and_quit():\n"
        "    win = next(w for w in app.topLevelWidgets() if type(w).__name__ == 'MainWindow')\n"
        "    if win.result is None or win.result.revision < win.doc.revision or not len(win.doc.X):\n"
        "        QTimer.singleShot(200, drag_and_quit); return\n"
        "    c = win.canvas\n"
        "    vp = c.viewport()\n"
        "    at = c.mapFromScene(c.vb.mapViewToScene(QPointF(*win.doc.X[0])))\n"
        "    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)\n"
        "    for i in range(1, 6):\n"
        "        QTest.qWait(15)\n"
        "        QTest.mouseMove(vp, at + QPoint(3 * i, 2 * i))\n"
        "    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at + QPoint(15, 10))\n"
        "    print('MOVED', win.doc.undo_stack.count())\n"
        "    win.doc.mark_saved()  # no question on quitting\n"
        "    quit_ = next(a for m in win.menuBar().actions() for a in m.menu().actions()\n"
        "                 if a.text().replace('&', '') == 'Quit')\n"
        "    quit_.trigger()  # File > Quit\n"
        "    print('CLOSED', not win.isVisible())\n"
        "QTimer.singleShot(1500, drag_and_quit)\n"
        "from probviz.app.launch import run_gui\n"
        f"sys.exit(run_gui({str(data)!r}))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    try:
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired as e:  # (it also hung on the way out, instead of aborting)
        pytest.fail(f"the program had not ended 60 s after Quit: {e.stdout!r}")
    assert "MOVED 1" in out.stdout and "CLOSED True" in out.stdout, (out.stdout, out.stderr[-800:])
    assert out.returncode == 0, out.stderr[-800:]
    assert "Destroyed while thread" not in out.stderr
