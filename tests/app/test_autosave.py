"""Autosaves: one per running instance; only work whose process is gone is offered back; a signal
ends the app like closing it, keeping unsaved work for the next start."""

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from guihelp import settle
from PySide6.QtWidgets import QMessageBox

import probviz.app.autosave as autosave
from probviz.app.main_window import MainWindow
from probviz.data.session import read_session


@pytest.fixture
def folder(tmp_path, monkeypatch):
    d = tmp_path / "autosave"
    d.mkdir()
    monkeypatch.setattr(autosave, "autosave_folder", lambda: str(d))
    return d


def new_window(qtbot, monkeypatch, answer=QMessageBox.StandardButton.Yes):
    win = MainWindow()
    qtbot.addWidget(win, before_close_func=lambda w: w.doc.mark_saved())
    win.show()
    win.doc.new()
    asked = []
    monkeypatch.setattr("probviz.app.fileops.QMessageBox.exec",  # the restore question: its text, answered
                        lambda box: asked.append(box.text()) or answer)
    return win, asked


def edit_and_autosave(qtbot, win, points):
    win.files.autosave_timer.setInterval(20)
    for p in points:
        win.doc.add_points([p], 0)
    qtbot.waitUntil(lambda: os.path.exists(win.files.autosave_file.path), timeout=3000)
    settle(win)


def run_instance(folder, body, sig=None):
    """A real probviz window in another process (offscreen) running ``body``; returns its exit code."""
    script = textwrap.dedent(f"""
        import os, signal, sys
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication
        import probviz.app.autosave as autosave
        autosave.autosave_folder = lambda: {str(folder)!r}
        from probviz.app.launch import end_on_signals
        from probviz.app.main_window import MainWindow
        app = QApplication([])
        win = MainWindow()
        win.show()
        win.doc.new()
        ends = end_on_signals(win.end_by_signal)
        def go():
    """) + textwrap.indent(textwrap.dedent(body), "    ") + textwrap.dedent("""
        QTimer.singleShot(100, go)
        code = app.exec()
        ends.close()
        sys.exit(code)
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    return r


def test_two_instances_have_their_own_autosaves(qtbot, monkeypatch, folder):
    """A second window neither offers the first one's live work as a crash nor overwrites it, and
    its clean exit does not delete it."""
    a, _ = new_window(qtbot, monkeypatch)
    edit_and_autosave(qtbot, a, [(1, 1), (2, -1)])
    b, asked = new_window(qtbot, monkeypatch)
    assert not b.files.offer_restore() and asked == []  # A is alive: nothing to restore
    edit_and_autosave(qtbot, b, [(-3, 0)])
    assert a.files.autosave_file.path != b.files.autosave_file.path
    b.doc.mark_saved()
    b.close()
    assert not os.path.exists(b.files.autosave_file.path)
    kept = read_session(a.files.autosave_file.path).dataset
    np.testing.assert_allclose(kept.X, a.doc.X)  # A's work is still there, and still A's


def test_a_killed_instance_is_offered_back_once(qtbot, monkeypatch, folder):
    r = run_instance(folder, """
        win.files.autosave_timer.setInterval(10)
        win.doc.add_points([[1.0, 2.0], [3.0, -1.0]], 0)
        win.doc.add_points([[0.5, 0.5]], 1)
        QTimer.singleShot(300, lambda: os.kill(os.getpid(), signal.SIGKILL))
    """)
    assert r.returncode == -signal.SIGKILL, r.stderr
    win, asked = new_window(qtbot, monkeypatch)
    assert win.files.offer_restore() and len(asked) == 1
    assert asked[0].startswith("probviz ended with unsaved work on “untitled” (3 points, kept automatically on ")
    settle(win)
    np.testing.assert_allclose(win.doc.X, [[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
    assert win.isWindowModified()  # restored work is not saved work
    assert "untitled" in win.windowTitle()  # the work's own name, not "restored"
    # it is now this instance's autosave; the dead one's file is gone
    assert sorted(p.suffix for p in folder.iterdir()) == [".lock", ".probviz"]
    other, asked2 = new_window(qtbot, monkeypatch)
    assert not other.files.offer_restore() and asked2 == []


def test_the_locks_of_instances_gone_with_nothing_unsaved_are_removed(qtbot, monkeypatch, folder):
    """A killed instance with nothing unsaved leaves its lock and no autosave; the next start removes that lock
    (they piled up, one per kill or crash) and leaves a live instance's lock and a dead one's autosave alone."""
    r = run_instance(folder, """
        win.held = autosave.Autosave()  # its lock, and nothing to save yet
        QTimer.singleShot(100, lambda: os.kill(os.getpid(), signal.SIGKILL))
    """)
    assert r.returncode == -signal.SIGKILL, r.stderr
    r = run_instance(folder, """
        win.files.autosave_timer.setInterval(10)
        win.doc.add_points([[1.0, 2.0]], 0)
        QTimer.singleShot(300, lambda: os.kill(os.getpid(), signal.SIGKILL))
    """)
    assert r.returncode == -signal.SIGKILL, r.stderr
    assert sorted(p.suffix for p in folder.iterdir()) == [".lock", ".lock", ".probviz"]
    kept = next(folder.glob("*.probviz"))
    live = autosave.Autosave(str(folder))
    orphans = autosave.Autosave(str(folder)).orphans()
    assert [o.path for o in orphans] == [str(kept)]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [kept.name, kept.stem + ".lock", os.path.basename(live.lock.fileName())])  # the orphan's, now held
    for o in orphans:
        o.keep()


def test_declining_drops_the_autosave(qtbot, monkeypatch, folder):
    r = run_instance(folder, """
        win.files.autosave_timer.setInterval(10)
        win.doc.add_points([[1.0, 2.0]], 0)
        QTimer.singleShot(300, lambda: os.kill(os.getpid(), signal.SIGKILL))
    """)
    assert r.returncode == -signal.SIGKILL
    win, asked = new_window(qtbot, monkeypatch, answer=QMessageBox.StandardButton.No)
    assert not win.files.offer_restore() and len(asked) == 1
    assert [p.name for p in folder.iterdir()] == [os.path.basename(win.files.autosave_file.lock.fileName())]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_the_app_keeping_unsaved_work(qtbot, monkeypatch, folder, sig):
    r = run_instance(folder, f"""
        win.doc.add_points([[1.0, 2.0], [2.0, 1.0]], 0)
        os.kill(os.getpid(), {int(sig)})
    """)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    (kept,) = folder.glob("*.probviz")
    assert not list(folder.glob("*.lock"))  # released: the next start may take it
    np.testing.assert_allclose(read_session(str(kept)).dataset.X, [[1.0, 2.0], [2.0, 1.0]])
    win, asked = new_window(qtbot, monkeypatch)
    assert win.files.offer_restore() and len(asked) == 1


def test_a_signal_with_nothing_unsaved_leaves_nothing(qtbot, monkeypatch, folder):
    r = run_instance(folder, """
        win.doc.add_points([[1.0, 2.0]], 0)
        win.doc.mark_saved()
        os.kill(os.getpid(), signal.SIGTERM)
    """)
    assert r.returncode == 0, r.stderr
    assert list(folder.iterdir()) == []
    win, asked = new_window(qtbot, monkeypatch)
    assert not win.files.offer_restore() and asked == []


def test_restored_work_keeps_its_file_name_and_saves_back_there(qtbot, monkeypatch, folder, tmp_path):
    from probviz.data import examples
    from probviz.data.session import write_session

    lesson = tmp_path / "lesson.probviz"
    write_session(str(lesson), examples.session("xor"))
    r = run_instance(folder, f"""
        win.files.autosave_timer.setInterval(10)
        win.files.open_path({str(lesson)!r})
        win.doc.add_points([[9.0, 9.0]], 0)
        QTimer.singleShot(300, lambda: os.kill(os.getpid(), signal.SIGKILL))
    """)
    assert r.returncode == -signal.SIGKILL, r.stderr
    win, _ = new_window(qtbot, monkeypatch)
    assert win.files.offer_restore()
    settle(win)
    assert win.windowTitle().startswith("probviz — lesson.probviz") and win.isWindowModified()
    assert win.files.path == str(lesson)
    assert win.files.save()
    assert read_session(str(lesson)).dataset.X[-1].tolist() == [9.0, 9.0]


def test_a_file_where_the_data_folder_belongs_leaves_the_window_working(tmp_path):
    """A bundle once installed its executable at ~/.local/share/probviz/probviz, exactly Qt's data folder
    for the app: the window never opened ("Not a directory: .../autosave"). Now it opens with the first
    lesson, says autosave is off and why, and quits cleanly; the window names its desktop entry."""
    import subprocess
    import sys

    home = tmp_path / "home"
    (home / ".local" / "share" / "probviz").mkdir(parents=True)
    (home / ".local" / "share" / "probviz" / "probviz").write_bytes(b"\x7fELF not a folder")
    script = (
        "import sys\n"
        "from PySide6.QtCore import QTimer\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication(['probviz'])\n"
        "def look():\n"
        "    win = next(w for w in app.topLevelWidgets() if type(w).__name__ == 'MainWindow')\n"
        "    print('TITLE', win.windowTitle()); print('STATUS', win.message.text())\n"
        "    print('DESKTOP', app.desktopFileName()); win.close()\n"
        "QTimer.singleShot(1500, look)\n"
        "from probviz.app.launch import run_gui\n"
        "sys.exit(run_gui())\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-800:]
    assert "TITLE probviz — fruit" in out.stdout
    assert "autosave is off:" in out.stdout and "Not a directory" in out.stdout
    assert "DESKTOP io.github.probviz.probviz" in out.stdout
    assert (home / ".local" / "share" / "probviz" / "probviz").read_bytes() == b"\x7fELF not a folder"
