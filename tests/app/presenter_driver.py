"""Present a lesson deck on two screens, as a teacher does, and print what each window shows (JSON).

Run by test_presenter.py in a process of its own: Qt's offscreen platform takes its screens from a JSON
file (``-platform offscreen:configfile=FILE``), once, when the application starts, and the test suite's
application has one screen. Usage: ``python presenter_driver.py SCREENS.json SETTINGS_DIR [SHOT.png]``.

Every step is a key pressed on a window (QTest.keyClick, the window active first) or a menu entry
triggered as a person reaches it; the facts are read off the widgets a person sees.
"""

from __future__ import annotations

import json
import sys
import time


def main(config: str, settings_dir: str, shot: str | None) -> dict:
    from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication(["probviz-driver", "-platform", f"offscreen:configfile={config}"])
    QStandardPaths.setTestModeEnabled(True)
    QCoreApplication.setOrganizationName("probviz-driver")
    QCoreApplication.setApplicationName("probviz-driver")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
    QMessageBox.exec = lambda box: QMessageBox.StandardButton.Discard  # nothing is ever asked unseen

    from probviz.app.main_window import MainWindow

    facts: dict = {"screens": [s.name() for s in app.screens()], "primary": app.primaryScreen().name()}
    win = MainWindow()
    win.files.autosave_enabled = False

    def settle():
        for _ in range(3):
            app.processEvents()
            win.refitter.flush()
        app.processEvents()

    def wait_until(check, timeout=5.0):
        end = time.monotonic() + timeout
        while not check() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)
        return check()

    def key(widget, k, mod=Qt.KeyboardModifier.NoModifier):
        widget.activateWindow()
        wait_until(widget.isActiveWindow)
        QTest.keyClick(widget, k, mod)
        settle()

    def menu(*path):
        actions = win.menuBar().actions()
        for i, text in enumerate(path):
            found = next(a for a in actions if a.text().replace("&", "") == text)
            if i == len(path) - 1:
                assert found.isEnabled(), f"{' > '.join(path)} is greyed"  # a person cannot press it then
                found.trigger()
                settle()
                return
            found.menu().aboutToShow.emit()
            actions = found.menu().actions()

    def presenter_facts():
        p = win.slides.presenter.window
        up = p is not None and p.isVisible()
        out = {"main_screen": win.screen().name(), "main_full_screen": win.isFullScreen(),
               "notes_bar_visible": win.slides.notes_dock.isVisible(), "presenter_up": up,
               "window_title": win.windowTitle()}
        if up:
            out.update(presenter_screen=p.screen().name(), number=p.number_label.text(), title=p.title_label.text(),
                       notes=p.notes_view.toPlainText(), next=p.next_label.text(), clock=p.clock_label.text(),
                       elapsed=p.elapsed_label.text(), ticking=p.ticker.isActive(),
                       plain=[w.textFormat() == Qt.TextFormat.PlainText for w in (p.title_label, p.next_label)],
                       notes_px=p.notes_view.font().pixelSize(), title_px=p.title_label.font().pixelSize(),
                       geometry=[p.geometry().width(), p.geometry().height()])
        else:
            out["ticking"] = p is not None and p.ticker.isActive()
        return out

    win.resize(1000, 700)
    win.move(60, 40)
    win.show()
    wait_until(win.isVisible)
    settle()
    facts["before"] = {"screen": win.screen().name(), "geometry": list(win.geometry().getRect()),
                       "full_screen": win.isFullScreen()}

    def layout():
        """The panels' places and sizes, the plot's size (what F5 must give back)."""
        docks = [(d.objectName(), d.isVisible(), list(d.geometry().getRect())) for d in
                 (win.dock, win.training_dock, win.lab_dock, win.weights_dock)]
        return {"docks": docks, "canvas": [win.canvas.width(), win.canvas.height()]}
    deck_menu = [a for a in win.menuBar().actions() if a.text().replace("&", "") == "File"][0].menu()
    decks = next(a for a in deck_menu.actions() if a.text().replace("&", "") == "Lesson decks").menu()
    decks.aboutToShow.emit()
    title = decks.actions()[0].text()  # the generative deck comes first
    menu("File", "Lesson decks", title)
    facts["deck_title"] = title
    if not win.slides.notes_action.isChecked():
        key(win, Qt.Key.Key_F8)  # the notes bar wanted: it must still stay off the projector
    facts["f8_notes_bar"] = win.slides.notes_dock.isVisible()

    facts["layout_before"] = layout()
    key(win, Qt.Key.Key_F5)
    wait_until(lambda: win.slides.presenter.is_up())
    facts["f5"] = presenter_facts()
    p = win.slides.presenter.window
    if p is not None and shot:
        p.grab().save(shot)

    steps = []
    for k in ("PageDown", "PageDown", "PageUp", "Right", "Space", "Left", "End", "Home"):
        key(p, getattr(Qt.Key, f"Key_{k}"))
        steps.append({"key": k, "index": win.slides.index, **presenter_facts()})
    facts["keys_on_presenter"] = steps
    key(win, Qt.Key.Key_PageDown)  # the main window's keys too (the clicker may talk to either)
    facts["pagedown_on_main"] = {"index": win.slides.index, **presenter_facts()}

    time.sleep(1.2)
    p.tick()  # what the next second's tick shows, now
    facts["elapsed_before_reset"] = p.elapsed_label.text()
    key(p, Qt.Key.Key_R)
    facts["elapsed_after_r"] = p.elapsed_label.text()
    time.sleep(1.2)
    wait_until(lambda: p.elapsed_label.text() != facts["elapsed_after_r"], 2.0)  # the ticker ticks
    facts["elapsed_ticked"] = p.elapsed_label.text()
    p.reset_button.click()
    facts["elapsed_after_button"] = p.elapsed_label.text()

    win.files.run_dialog = lambda dialog: dialog.edit.setPlainText("Say <b>this</b> slowly.\nThen the priors.") or True
    menu("Slides", "Edit speaker notes…")
    facts["notes_edited"] = presenter_facts()
    key(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)  # undo deck change
    facts["notes_undone"] = presenter_facts()

    menu("Slides", "Swap screens")
    facts["swapped"] = presenter_facts()
    menu("Slides", "Swap screens")
    facts["swapped_back"] = presenter_facts()

    menu("Slides", "Presenter view")  # off while presenting: the notes bar comes back on the main window
    facts["view_off"] = presenter_facts()
    menu("Slides", "Presenter view")
    facts["view_on"] = presenter_facts()

    # the projector pulled out, then plugged in again: the offscreen platform cannot change its screens
    # once started, so the screen list the presenter reads leaves the projector out and Qt's signals are
    # sent as the platform sends them
    from probviz.app.presenter import Presenter

    real, projector = Presenter.available_screens, app.screens()[1]
    Presenter.available_screens = lambda self: [s for s in real(self) if s is not projector]
    app.screenRemoved.emit(projector)
    settle()
    facts["unplugged"] = presenter_facts()
    Presenter.available_screens = real
    app.screenAdded.emit(projector)
    settle()
    facts["plugged"] = presenter_facts()

    key(p, Qt.Key.Key_Escape)
    facts["escape"] = {"presenting": win.presentation_action.isChecked(), "geometry": list(win.geometry().getRect()),
                       **presenter_facts()}
    facts["layout_after_escape"] = layout()

    key(win, Qt.Key.Key_F5)
    facts["f5_again"] = presenter_facts()
    key(p, Qt.Key.Key_F5)  # F5 on the presenter window ends it too
    facts["f5_on_presenter"] = {"presenting": win.presentation_action.isChecked(),
                                "geometry": list(win.geometry().getRect()), **presenter_facts()}

    key(win, Qt.Key.Key_F5)
    menu("Slides", "Close deck")  # the deck closes while presenting: the presenter window goes
    facts["deck_closed"] = {"presenting": win.presentation_action.isChecked(), **presenter_facts()}
    key(win, Qt.Key.Key_F5)
    facts["after"] = {"screen": win.screen().name(), "geometry": list(win.geometry().getRect()),
                      "full_screen": win.isFullScreen()}
    menu("File", "Lesson decks", title)
    key(win, Qt.Key.Key_F5)  # closing the window while presenting on two screens: the next start
    closing = presenter_facts()
    win.close()
    settle()
    again = MainWindow()  # opens where it was before F5, not full screen on the projector
    again.show()
    wait_until(again.isVisible)
    settle()
    facts["closed_presenting"] = {"was_up": closing["presenter_up"], "closed": not win.isVisible(),
                                  "presenter_up": win.slides.presenter.is_up(), "screen": again.screen().name(),
                                  "geometry": list(again.geometry().getRect()), "full_screen": again.isFullScreen()}
    again.doc.mark_saved()
    again.close()
    return facts


if __name__ == "__main__":
    args = sys.argv[1:]
    facts = main(args[0], args[1], args[2] if len(args) > 2 else None)
    print("FACTS " + json.dumps(facts))
