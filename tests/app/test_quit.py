"""Quitting ends the program cleanly, whatever is still to be drawn or read."""

import os
import subprocess
import sys

import numpy as np
import pytest

_PROGRAM = """
import sys
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
app = QApplication(['probviz'])

def window():
    return next(w for w in app.topLevelWidgets() if type(w).__name__ == 'MainWindow')

def quit_(win):
    win.doc.mark_saved()  # no question on quitting
    action = next(a for m in win.menuBar().actions() for a in m.menu().actions()
                  if a.text().replace('&', '') == 'Quit')
    action.trigger()  # File > Quit
    print('CLOSED', not win.isVisible(), flush=True)

{script}
from probviz.app.launch import run_gui
sys.exit(run_gui({path!r}))
"""


def _run(tmp_path, n: int, script: str):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    data = tmp_path / "many.csv"
    data.write_text("x,y,label\n" + "".join(f"{a:.6f},{b:.6f},{'ab'[i % 2]}\n" for i, (a, b) in enumerate(X)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    program = _PROGRAM.format(script=script, path=str(data))
    try:
        return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the program had not ended 60 s after Quit: {e.stdout!r}")


def test_quitting_right_after_a_drag_through_many_points_exits_cleanly(tmp_path):
    """With more than 20,000 points the fits run on a worker thread. Quitting (File > Quit) as the hand lets go
    of a dragged point left the release's refit (and the resting hand's exact frame) to start a new worker
    after the window had stopped its own: Qt then aborted the program on the way out ("QThread: Destroyed
    while thread is still running", exit status 134), or it hung there."""
    out = _run(tmp_path, 30_000, """
def drag_and_quit():
    win = window()
    if len(win.doc.X) != 30_000 or win.result is None or win.result.revision < win.doc.revision:
        QTimer.singleShot(100, drag_and_quit)  # the file is still being read, or fitted
        return
    c = win.canvas
    vp = c.viewport()
    at = c.mapFromScene(c.vb.mapViewToScene(QPointF(*win.doc.X[0])))
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    for i in range(1, 6):
        QTest.qWait(15)
        QTest.mouseMove(vp, at + QPoint(3 * i, 2 * i))
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at + QPoint(15, 10))
    print('MOVED', win.doc.undo_stack.count(), flush=True)
    quit_(win)
QTimer.singleShot(500, drag_and_quit)
""")
    assert "MOVED 1" in out.stdout and "CLOSED True" in out.stdout, (out.stdout, out.stderr[-800:])
    assert out.returncode == 0, out.stderr[-800:]
    assert "Destroyed while thread" not in out.stderr


def test_quitting_while_a_file_is_read_ends_the_program(tmp_path):
    """`probviz many.csv`, then Quit before the file is read (in its first half second, before the progress
    bar): the window closed, and the program then waited for ever with no window on screen."""
    out = _run(tmp_path, 400_000, """
def quit_while_reading():
    win = window()
    print('READING', len(win.doc.X) != 400_000, flush=True)
    quit_(win)
QTimer.singleShot(200, quit_while_reading)
""")
    assert "READING True" in out.stdout and "CLOSED True" in out.stdout, (out.stdout, out.stderr[-800:])
    assert out.returncode == 0, out.stderr[-800:]


def test_a_signal_during_the_restore_question_ends_the_program_and_keeps_the_work(tmp_path):
    """SIGTERM (a logout) while the window asks "Restore unsaved work?": the window closed, but the question
    stayed on screen and the program waited for an answer nobody would give. Now the question closes unanswered,
    the program ends, and the kept work is offered again at the next start (the question's No would delete it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    folder = tmp_path / "home" / ".local" / "share" / "probviz" / "probviz" / "autosave"

    def start(script):
        program = ("import os, signal, sys\nfrom PySide6.QtCore import QTimer\nfrom PySide6.QtWidgets import "
                   "QApplication\napp = QApplication(['probviz'])\n" + script
                   + "\nfrom probviz.app.launch import run_gui\nsys.exit(run_gui())\n")
        try:
            return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60,
                                  env=env)
        except subprocess.TimeoutExpired as e:
            pytest.fail(f"the program had not ended 60 s after SIGTERM: {e.stdout!r}")

    edit_then_end = """
def edit():
    win = next(w for w in app.topLevelWidgets() if type(w).__name__ == 'MainWindow')
    win.doc.add_points([[0.5, 0.5]], 0)  # unsaved work
    os.kill(os.getpid(), signal.SIGTERM)
QTimer.singleShot(300, edit)
"""
    out = start(edit_then_end)
    assert out.returncode == 0, out.stderr[-800:]
    kept = sorted(p.name for p in folder.glob("*.probviz"))
    assert len(kept) == 1  # the unsaved work, kept by the signal's end
    end_during_question = """
def end():
    modal = app.activeModalWidget()
    print('ASKED', modal.windowTitle() if modal is not None else None, flush=True)
    os.kill(os.getpid(), signal.SIGTERM)
QTimer.singleShot(300, end)
"""
    out = start(end_during_question)
    assert "ASKED Restore unsaved work?" in out.stdout, (out.stdout, out.stderr[-800:])
    assert out.returncode == 0, out.stderr[-800:]
    assert sorted(p.name for p in folder.glob("*.probviz")) == kept  # still there, to be offered again
    out = start(end_during_question)
    assert "ASKED Restore unsaved work?" in out.stdout  # and it is


def test_a_signal_during_the_save_changes_question_ends_the_program_and_keeps_the_work(tmp_path):
    """Quit with unsaved work asks "save the changes?"; a SIGTERM then (a logout) closes the question unanswered,
    ends the program and keeps the work for the next start."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    folder = tmp_path / "home" / ".local" / "share" / "probviz" / "probviz" / "autosave"
    program = """
import os, signal, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(['probviz'])

def asked():
    modal = app.activeModalWidget()
    print('ASKED', modal.windowTitle() if modal is not None else None, flush=True)
    os.kill(os.getpid(), signal.SIGTERM)

def edit_and_quit():
    win = next(w for w in app.topLevelWidgets() if type(w).__name__ == 'MainWindow')
    win.doc.add_points([[0.5, 0.5]], 0)  # unsaved work
    QTimer.singleShot(300, asked)
    action = next(a for m in win.menuBar().actions() for a in m.menu().actions()
                  if a.text().replace('&', '') == 'Quit')
    action.trigger()  # File > Quit: the question
QTimer.singleShot(300, edit_and_quit)
from probviz.app.launch import run_gui
sys.exit(run_gui())
"""
    try:
        out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the program had not ended 60 s after SIGTERM: {e.stdout!r}")
    assert "ASKED " in out.stdout and "ASKED None" not in out.stdout, (out.stdout, out.stderr[-800:])
    assert out.returncode == 0, out.stderr[-800:]
    assert len(list(folder.glob("*.probviz"))) == 1  # the unsaved work, kept
