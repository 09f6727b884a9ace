import pytest
from guihelp import settle

from probviz.app.main_window import MainWindow


@pytest.fixture(autouse=True)
def cursor_off_the_windows(qapp):
    """Each test starts with the mouse cursor away from every window, as at a fresh start. A cursor an earlier
    test left over a canvas gave the next window a readout under it (shown as the canvas is entered), and that
    readout shares the status line: a test of the status line's room then depended on the order tests ran in."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QCursor

    QCursor.setPos(QPoint(-1000, -1000))
    yield


@pytest.fixture
def window(qtbot):
    """The real main window, shown offscreen on a blank document, view (-5, 5) x (-5, 5), with the dock
    layout of a first start (a layout an earlier test left behind would change the canvas's size)."""
    from PySide6.QtCore import QEvent, QSettings
    from PySide6.QtWidgets import QApplication

    settings = QSettings()
    for key in ("state", "geometry", "export_legend"):
        settings.remove(key)
    win = MainWindow()
    # pytest-qt closes widgets before fixtures tear down: mark the work saved first
    qtbot.addWidget(win, before_close_func=lambda w: w.doc.mark_saved())
    win.resize(1100, 750)
    win.show()
    qtbot.waitExposed(win)
    win.doc.new()
    win.canvas.vb.setRange(xRange=(-5, 5), yRange=(-5, 5), padding=0)
    settle(win)
    yield win
    win.refitter.shutdown()
    # destroyed now, on this thread, not whenever (and wherever) its wrapper happens to be collected
    win.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def settings_kept():
    """The saved settings (window layout, theme, recent files) as they were before the test, once its
    windows have closed: a test that moves docks, switches themes or restarts leaves nothing behind.
    Ask for it before ``window``, so that it is put back after the window's own save on closing."""
    from PySide6.QtCore import QSettings

    settings = QSettings()
    saved = {k: settings.value(k) for k in settings.allKeys()}
    yield
    settings.clear()
    for k, v in saved.items():
        settings.setValue(k, v)
    settings.sync()


@pytest.fixture
def in_turn():
    """in_turn(steps): each (kind, act) acts on the next modal window of that kind, in order; an act may
    block in a nested dialog (Save opens a message box), so the next step is scheduled before it runs.
    Steps left at the test's end are dropped: no later test gets its dialogs answered."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    made = []

    def start(steps):
        made.append(steps)

        def run():
            if not steps:
                return
            w = QApplication.activeModalWidget()
            kind, act = steps[0]
            if not isinstance(w, kind) or not w.isVisible():
                QTimer.singleShot(20, run)
                return
            steps.pop(0)
            if steps:
                QTimer.singleShot(20, run)
            act(w)
        QTimer.singleShot(20, run)
        return steps

    yield start
    for steps in made:
        steps.clear()
