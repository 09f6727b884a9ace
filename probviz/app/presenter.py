"""The presenter window: a lesson deck's speaker notes on a second screen while the slides are presented.

In presentation mode (F5) with a lesson deck open and two screens or more, the slides (the main window)
go full screen on one screen and the presenter window opens on another: the slide's number and title,
its speaker notes, the next slide's title, a clock and the time since the presentation started. With
one screen (or Slides > Presenter view off) nothing moves and the notes bar (View > Speaker notes, F8)
stays the place for the notes. The screens are chosen as PowerPoint, Keynote and Impress choose them
(:func:`presenter_screens`): the presenter window on the primary screen (the laptop), the slides on a
projector; Slides > Swap screens exchanges them. A projector plugged in or pulled out while presenting
opens or closes the presenter window; leaving F5 puts the main window back where it was.

The presenter window takes the keys of the slide show (PageDown / PageUp, the arrows, Space, Home, End,
F5) through the main window's own actions, added to it: the teacher's keyboard drives the slides from
either window. Esc there ends the presentation.
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QObject, QSettings, Qt, QTime, QTimer, Signal
from PySide6.QtGui import QAction, QFont, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QFrame, QGridLayout, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSizePolicy, QVBoxLayout, QWidget,
)

RESET_KEY = Qt.Key.Key_R  # resets the elapsed time, in the presenter window


def presenter_screens(screens, primary, current=None, swap: bool = False):
    """Where the slides and the presenter window go: ``(slides_screen, presenter_screen)``, or None with
    fewer than two screens (the notes bar is then the place for the notes).

    ``screens``: the screens, in the system's order; ``primary``: the primary screen (the laptop's, as a
    rule); ``current``: the screen the main window is on before presenting. As presentation programs do,
    the presenter window goes on the primary screen and the slides on another: the one the main window
    already is on when that is not the primary (the teacher put it on the projector), else the first
    screen that is not the primary. ``swap`` exchanges the two. Works on any values compared with ``==``
    (QScreens, or names in a test).
    """
    screens = list(screens)
    if len(screens) < 2:
        return None
    if primary not in screens:
        primary = screens[0]
    others = [s for s in screens if s != primary]
    slides = current if current in others else others[0]
    return (primary, slides) if swap else (slides, primary)


def elapsed_text(ms: int) -> str:
    """mm:ss (minutes beyond 59 keep counting: 75:03)."""
    seconds = max(0, int(ms)) // 1000
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


class PresenterWindow(QWidget):
    """What the teacher reads at the lectern: ``3 / 10`` and the slide's title, its notes (plain text),
    ``Next: …`` (or ``End of the deck``), the time of day and the time since the presentation began, and
    a button (or R) that starts that time again. Its clock ticks only while it is shown."""

    closed_by_user = Signal()  # its title bar's close button: the Presenter turns Presenter view off

    def __init__(self, parent, elapsed: QElapsedTimer):
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("presenter")
        self.setWindowTitle("probviz — presenter view")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the keys come here, not to the notes or the button
        self.elapsed = elapsed

        def label(name, wrap=False):
            w = QLabel()
            w.setObjectName(name)
            w.setTextFormat(Qt.TextFormat.PlainText)  # titles are user strings, never markup
            w.setWordWrap(wrap)
            return w

        self.number_label = label("number")
        self.title_label = label("title", wrap=True)
        self.title_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.clock_label = label("clock")
        self.clock_label.setToolTip("The time of day")
        self.elapsed_label = label("elapsed")
        self.elapsed_label.setToolTip("Time since the presentation started (R, or the button, starts it again)")
        for w in (self.clock_label, self.elapsed_label):
            w.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.reset_button = QPushButton("Reset timer (R)")
        self.reset_button.setObjectName("reset")
        self.reset_button.setToolTip("Start the elapsed time again from 00:00 (R)")
        self.reset_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Space stays the next slide
        self.reset_button.clicked.connect(self.reset_elapsed)
        self.notes_view = QPlainTextEdit()  # plain text: notes are user strings, never markup
        self.notes_view.setObjectName("notes")
        self.notes_view.setReadOnly(True)
        self.notes_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # PageDown is the next slide, not a scroll
        self.notes_view.setFrameShape(QFrame.Shape.NoFrame)
        self.next_label = label("next", wrap=True)

        self.clock_caption, self.elapsed_caption = label("clock_caption"), label("elapsed_caption")
        self.clock_caption.setText("time")
        self.elapsed_caption.setText("elapsed")
        for w in (self.number_label, self.title_label, self.clock_caption, self.elapsed_caption):
            w.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        top = QHBoxLayout()
        top.addWidget(self.number_label, 0, Qt.AlignmentFlag.AlignTop)
        top.addSpacing(28)
        top.addWidget(self.title_label, 1, Qt.AlignmentFlag.AlignTop)
        top.addSpacing(28)
        times = QGridLayout()
        times.setVerticalSpacing(0)
        times.addWidget(self.clock_caption, 0, 0)
        times.addWidget(self.clock_label, 0, 1)
        times.addWidget(self.elapsed_caption, 1, 0)
        times.addWidget(self.elapsed_label, 1, 1)
        times.addWidget(self.reset_button, 2, 0, 1, 2, Qt.AlignmentFlag.AlignRight)
        times.setRowStretch(3, 1)  # the clock stays at the top beside a long title
        top.addLayout(times)
        rule = QFrame()
        rule.setFrameShape(QFrame.Shape.HLine)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(28, 20, 28, 20)
        layout.addLayout(top)
        layout.addWidget(rule)
        layout.addWidget(self.notes_view, 1)
        layout.addWidget(self.next_label)

        reset = QAction("Reset the elapsed time", self)
        reset.setShortcut(QKeySequence(RESET_KEY))
        reset.triggered.connect(lambda checked=False: self.reset_elapsed())
        self.addAction(reset)

        self.ticker = QTimer(self)  # runs only while the window is shown
        self.ticker.setInterval(1000)
        self.ticker.timeout.connect(self.tick)

    def show_slide(self, index: int, count: int, title: str, notes: str, next_title: str | None) -> None:
        """Slide ``index`` (from 0) of ``count``; ``next_title`` None on the last slide."""
        self.number_label.setText(f"{index + 1} / {count}")
        self.title_label.setText(title or f"Slide {index + 1}")
        if self.notes_view.toPlainText() != (notes or "(no notes for this slide)"):
            self.notes_view.setPlainText(notes or "(no notes for this slide)")
        self.next_label.setText("End of the deck" if next_title is None else f"Next: {next_title}")
        self.tick()

    def restyle(self) -> None:
        """Text sized from the screen it is on (its height: 768 pixels give notes of 34 pixels), in the
        application's palette (light or dark, as the window's theme)."""
        screen = self.screen()
        height = screen.geometry().height() if screen is not None else 768
        unit = max(12, height // 22)  # the notes' pixel size

        def font(scale, bold=False):
            f = QFont(QGuiApplication.font())
            f.setPixelSize(int(unit * scale))
            f.setBold(bold)
            return f
        self.number_label.setFont(font(1.3, True))
        self.title_label.setFont(font(1.3, True))
        self.clock_label.setFont(font(1.3, True))
        self.elapsed_label.setFont(font(1.3, True))
        for w in (self.clock_caption, self.elapsed_caption, self.reset_button):
            w.setFont(font(0.55))
        self.notes_view.setFont(font(1.0))
        self.next_label.setFont(font(1.0, True))

    def reset_elapsed(self) -> None:
        self.elapsed.restart()
        self.tick()

    def tick(self) -> None:
        self.clock_label.setText(QTime.currentTime().toString("HH:mm"))
        self.elapsed_label.setText(elapsed_text(self.elapsed.elapsed() if self.elapsed.isValid() else 0))

    def showEvent(self, ev):
        super().showEvent(ev)
        self.tick()
        self.ticker.start()

    def hideEvent(self, ev):
        self.ticker.stop()
        super().hideEvent(ev)

    def closeEvent(self, ev):
        """Closing it by its title bar's button turns Slides > Presenter view off: the notes bar is back.
        (A close the program asks for only hides it; it is never deleted on closing.)"""
        super().closeEvent(ev)
        if ev.spontaneous():
            self.closed_by_user.emit()


class Presenter(QObject):
    """Slides > Presenter view and Swap screens, and what they do while a deck is presented: the main
    window full screen on the slides' screen, the presenter window on the other, both put back after."""

    def __init__(self, slides):
        super().__init__(slides)
        self.slides = slides
        self.win = slides.win
        self.elapsed = QElapsedTimer()  # since the presentation started (R restarts it)
        self.window: PresenterWindow | None = None
        self._saved = None  # (geometry, window state, screen) of the main window before it moved
        self._presenting = False
        self._syncing = False
        app = QGuiApplication.instance()
        for signal in (app.screenAdded, app.screenRemoved, app.primaryScreenChanged):
            signal.connect(self._screens_changed)  # a bound slot: dropped with this object
        slides.changed.connect(self.sync)

    def _screens_changed(self, *_):
        """A projector plugged in or pulled out: the presenter window opens or closes (once Qt has moved the
        windows of a screen that went away)."""
        QTimer.singleShot(0, self, self.sync)
        QTimer.singleShot(0, self, self._sync_swap)

    def _sync_swap(self):
        """Swap screens is for two screens: greyed, saying so, with one."""
        if not hasattr(self, "swap_action"):
            return
        two = len(self.available_screens()) >= 2
        self.swap_action.setEnabled(two)
        self.swap_action.setStatusTip("Two screens: the slides and the presenter window change places" if two else
                                      "Swap screens needs a second screen (a projector); there is one now")

    # --- menus ---------------------------------------------------------------------------------------
    def add_actions(self, menu) -> None:
        settings = QSettings()
        a = self.view_action = QAction("Presenter &view", self.win)
        a.setCheckable(True)
        a.setChecked(settings.value("presenter_view", True, type=bool))
        a.setStatusTip("F5 on two screens: the notes, next slide and a clock on the laptop, the slides on the "
                       "projector")
        a.setToolTip(a.statusTip())
        a.toggled.connect(lambda on: self._setting("presenter_view", on, self._view_message(on)))
        self.swap_action = s = QAction("S&wap screens", self.win)
        s.setCheckable(True)
        s.setChecked(settings.value("presenter_swap", False, type=bool))
        s.setStatusTip("Two screens: the slides and the presenter window change places")
        s.setToolTip(s.statusTip())
        self._sync_swap()
        s.toggled.connect(lambda on: self._setting("presenter_swap", on, (
            "Presenter view: the slides on the primary screen, the presenter window on the other" if on else
            "Presenter view: the presenter window on the primary screen, the slides on the other")))
        menu.addAction(a)
        menu.addAction(s)

    def _setting(self, key: str, on: bool, message: str):
        QSettings().setValue(key, on)
        self.sync()
        self.win.flash(message)  # what the choice does, said where the window says things

    def _view_message(self, on: bool) -> str:
        if not on:
            return "Presenter view off: the speaker notes stay in the notes bar (View > Speaker notes, F8)"
        if len(self.available_screens()) < 2:
            return "Presenter view on, for when there is a second screen (one now: notes in the bar, F8)"
        return ("Presenter view on: in presentation mode (F5) the notes, the next slide and a clock go to "
                "the second screen")

    # --- what is where -------------------------------------------------------------------------------
    def is_up(self) -> bool:
        """The presenter window is shown (the notes bar then stays hidden: the class sees the main window)."""
        return self.window is not None and self.window.isVisible()

    def screens(self):
        """(slides' screen, presenter's screen) while the presenter view is wanted and possible, else None."""
        w = self.win
        if not (w.presentation_action.isChecked() and self.slides.is_open() and hasattr(self, "view_action")
                and self.view_action.isChecked()):
            return None
        current = self._saved[2] if self._saved is not None else w.screen()
        return presenter_screens(self.available_screens(), QGuiApplication.primaryScreen(), current,
                                 self.swap_action.isChecked())

    def available_screens(self) -> list:
        """The screens there are now (QGuiApplication's; screenAdded and screenRemoved say when they change)."""
        return QGuiApplication.screens()

    def sync(self):
        """Show, move or close the presenter window and the main window as the state asks; then the notes bar."""
        if self._syncing:
            return
        self._syncing = True
        try:
            was_up = self.is_up()
            presenting = self.win.presentation_action.isChecked()
            if presenting and not self._presenting:
                self.elapsed.start()  # the presentation starts now
            self._presenting = presenting
            where = self.screens()
            if where is None:
                if self.window is not None:
                    self.window.hide()
                self._put_back()
            else:
                self._place(*where)
                self._update()
            if self.is_up() != was_up:
                self.slides._show_notes(resize=True)  # hidden while the presenter window is up, back after
        finally:
            self._syncing = False

    def _place(self, slides_screen, presenter_screen):
        w = self.win
        if self._saved is None:
            self._saved = (w.saveGeometry(), w.windowState(), w.screen())
        if w.screen() is not slides_screen or not w.isFullScreen():
            if w.isFullScreen():
                w.showNormal()
            _move_to(w, slides_screen)
            w.showFullScreen()
        if self.window is None:
            self.window = PresenterWindow(w, self.elapsed)
            self.window.closed_by_user.connect(self._closed_by_user)
            # the slide show's keys, from the same actions: PageDown, the arrows, Space, Home, End, F5
            s = self.slides
            self.window.addActions([s.next_action, s.prev_action, s.first_action, s.last_action,
                                    w.presentation_action])
            end = QAction("End the presentation", self.window)
            end.setShortcut(QKeySequence(Qt.Key.Key_Escape))
            end.triggered.connect(lambda checked=False: w.presentation_action.isChecked()
                                  and w.presentation_action.trigger())
            self.window.addAction(end)
        p = self.window
        if p.screen() is not presenter_screen or not p.isVisible():
            _move_to(p, presenter_screen)
            p.showMaximized()
        p.restyle()

    def _closed_by_user(self):
        self.view_action.setChecked(False)

    def geometry_before(self):
        """The main window's geometry from before it moved to the slides' screen (None when it has not):
        what the window saves for the next start, not the projector's full screen."""
        return self._saved[0] if self._saved is not None else None

    def _put_back(self):
        """The main window where it was before presenting: its screen, size and state."""
        if self._saved is None:
            return
        geometry, state, screen = self._saved
        self._saved = None
        w = self.win
        if w.isFullScreen() and not state & Qt.WindowState.WindowFullScreen:
            w.showNormal()
        if screen in self.available_screens():
            _move_to(w, screen, keep_size=True)
        w.restoreGeometry(geometry)
        if state & Qt.WindowState.WindowFullScreen:
            w.showFullScreen()
        elif state & Qt.WindowState.WindowMaximized:
            w.showMaximized()

    def _update(self):
        s, p = self.slides, self.window
        if p is None or s.deck is None:
            return
        i, slides = s.index, s.deck.slides
        nxt = (slides[i + 1].title or f"Slide {i + 2}") if i + 1 < len(slides) else None
        p.show_slide(i, len(slides), s.slide.title, s.slide.notes, nxt)


def _move_to(widget: QWidget, screen, keep_size: bool = False):
    """Put a top-level widget on ``screen`` (its window handle told first, for full screen and maximized)."""
    widget.winId()  # a window handle to tell
    handle = widget.windowHandle()
    if handle is not None:
        handle.setScreen(screen)
    area = screen.availableGeometry()
    if keep_size:
        widget.move(area.topLeft())
    else:
        widget.setGeometry(area)
