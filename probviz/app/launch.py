"""Start the GUI: check that Qt can open a window, then show the main window."""

from __future__ import annotations

import ctypes.util
import os
import sys


def display_problem() -> str | None:
    """A one-line hint when Qt would abort for lack of a screen or of libxcb-cursor0, else None."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return None
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return ("no display found (DISPLAY is not set); run probviz on a desktop, or use "
                "'probviz export' for figures without a screen")
    if os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY") and not ctypes.util.find_library("xcb-cursor"):
        return ("Qt needs the X11 library libxcb-cursor0 to open a window; install it with "
                "'sudo apt install libxcb-cursor0' (Debian, Ubuntu) or your system's equivalent")
    return None


def run_gui(path: str | None = None) -> int:
    problem = display_problem()
    if problem:
        print(f"probviz: error: {problem}", file=sys.stderr)
        return 1
    from PySide6.QtWidgets import QApplication

    from probviz.app.main_window import MainWindow
    from probviz.data import examples

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("probviz")
    app.setOrganizationName("probviz")
    from probviz.desktop import APP_ID

    app.setDesktopFileName(APP_ID)  # Wayland matches the window to its menu entry by this name
    from PySide6.QtGui import QIcon

    from probviz.resources import asset_path

    app.setWindowIcon(QIcon(str(asset_path("icons", "probviz.svg"))))
    win = MainWindow()
    first = examples.session("fruit")  # the first screen already teaches something
    win.load_session(first)
    win.show()
    win.show_view(first.view)  # again at the plot's own size: the view File > Examples opens it with
    if os.environ.get("PROBVIZ_SAY_SHOWN"):  # `probviz bench` times the start-up from outside
        from PySide6.QtCore import QTimer

        def say():
            win.refitter.flush()
            print("probviz: window shown", flush=True)
        QTimer.singleShot(0, say)
    closed = []
    win.closed.connect(lambda: closed.append(True))
    ends = end_on_signals(win.end_by_signal)
    if not win.files.offer_restore() and path and not closed:  # (a signal may end it during the question)
        win.open_path(path)  # on failure a message says why and the example stays open
    # closed while its file loaded (Ctrl+Q before the progress bar): Qt's quit on the last window closed has
    # come and gone, and the event loop would wait for ever with no window on screen
    code = 0 if closed else app.exec()
    ends.close()
    return code


def end_on_signals(end):
    """Call ``end`` in Qt's event loop on SIGTERM or SIGINT (POSIX). Python runs signal handlers only
    between bytecodes, so the signal writes a byte to a socket that wakes a notifier in the loop."""
    import signal
    import socket

    from PySide6.QtCore import QSocketNotifier

    class Ends:
        def __init__(self):
            self.read, self.write = socket.socketpair()
            for s in (self.read, self.write):
                s.setblocking(False)
            signal.set_wakeup_fd(self.write.fileno(), warn_on_full_buffer=False)
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, lambda *_: None)  # the wakeup byte does the work
            self.notifier = QSocketNotifier(self.read.fileno(), QSocketNotifier.Type.Read)
            self.notifier.activated.connect(self.woken)

        def woken(self):
            try:
                self.read.recv(64)
            except OSError:
                pass
            end()

        def close(self):
            signal.set_wakeup_fd(-1)
            self.notifier.setEnabled(False)
            self.read.close()
            self.write.close()

    return Ends()
