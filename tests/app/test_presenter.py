"""The presenter window (Slides > Presenter view): a deck's notes, the next slide and a clock on a second
screen while the slides are presented full screen on the projector.

The screens are chosen by a pure function (tested on names); the test suite's application has one screen,
where F5 must leave everything as before (the notes bar, no presenter window); two screens are tested in
a process of its own (presenter_driver.py) on Qt's offscreen platform configured with a laptop and a
projector, where keys are pressed on both windows. What the presenter window shows is checked against
the deck's file (written and parsed here as JSON), not against the code under test.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from guihelp import menu_item, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from probviz.app.presenter import PresenterWindow, elapsed_text, presenter_screens
from probviz.data import decks
from probviz.data.deck import write_deck

HERE = Path(__file__).parent
LAPTOP = {"name": "Laptop", "x": 0, "y": 0, "width": 1366, "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96,
          "dpr": 1}
PROJECTOR = {"name": "Projector", "x": 1366, "y": 0, "width": 1024, "height": 768, "logicalDpi": 96,
             "logicalBaseDpi": 96, "dpr": 1}


# --- where the windows go (a pure function) ---------------------------------------------------------------

@pytest.mark.parametrize("screens, primary, current, swap, expected", [
    (["laptop"], "laptop", "laptop", False, None),  # one screen: the notes bar
    ([], None, None, False, None),
    (["laptop", "projector"], "laptop", "laptop", False, ("projector", "laptop")),
    (["laptop", "projector"], "laptop", "laptop", True, ("laptop", "projector")),
    (["projector", "laptop"], "laptop", "laptop", False, ("projector", "laptop")),  # primary second
    (["projector", "laptop"], "laptop", "projector", False, ("projector", "laptop")),
    (["laptop", "projector"], "laptop", "projector", False, ("projector", "laptop")),  # already on the projector
    (["laptop", "a", "b"], "laptop", "laptop", False, ("a", "laptop")),  # three: the first that is not primary
    (["laptop", "a", "b"], "laptop", "b", False, ("b", "laptop")),  # three: the one the window is on
    (["a", "laptop", "b"], "laptop", None, False, ("a", "laptop")),
    (["a", "laptop", "b"], "laptop", "b", True, ("laptop", "b")),
    (["a", "b"], "gone", "a", False, ("b", "a")),  # an unknown primary: the first screen is taken as it
])
def test_presenter_screens(screens, primary, current, swap, expected):
    got = presenter_screens(screens, primary, current, swap)
    assert got == expected
    if got is not None:
        slides, presenter = got
        assert slides != presenter and slides in screens and presenter in screens


def test_elapsed_text():
    assert [elapsed_text(ms) for ms in (0, 999, 1000, 61_500, 3_600_000 + 3_000)] == \
        ["00:00", "00:00", "00:01", "01:01", "60:03"]


# --- one screen (the test suite's) -------------------------------------------------------------------------

@pytest.fixture
def win(settings_kept, window, monkeypatch):
    window.files.autosave_enabled = False
    monkeypatch.setattr(QMessageBox, "exec", lambda box: QMessageBox.StandardButton.Cancel)
    yield window
    if window.slides.is_open():
        window.slides.stack.setClean()
    if window.presentation_action.isChecked():
        window.set_presentation(False)


def key(qtbot, win, k):
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    qtbot.keyClick(win, k)
    settle(win)


def presenter_windows():
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, PresenterWindow) and w.isVisible()]


def test_one_screen_f5_keeps_the_notes_bar_and_opens_no_presenter_window(qtbot, win):
    assert len(QApplication.screens()) == 1
    generative = decks.deck("generative")
    menu_item(win, "File", "Lesson decks", generative.title).trigger()
    settle(win)
    view = menu_item(win, "Slides", "Presenter view")
    assert view.isCheckable() and view.isChecked() and view.statusTip()  # on by default: used with two screens
    swap = menu_item(win, "Slides", "Swap screens")  # one screen: greyed, saying why
    assert not swap.isEnabled() and "needs a second screen" in swap.statusTip()
    if not win.slides.notes_action.isChecked():
        key(qtbot, win, Qt.Key.Key_F8)
    geometry = win.geometry()
    key(qtbot, win, Qt.Key.Key_F5)
    assert win.presentation_action.isChecked()
    assert presenter_windows() == []
    assert win.slides.notes_dock.isVisible() and win.slides.notes_label.text() == generative.slides[0].notes
    assert not win.isFullScreen() and win.geometry() == geometry  # nothing moved
    key(qtbot, win, Qt.Key.Key_PageDown)
    assert win.slides.notes_label.text() == generative.slides[1].notes and presenter_windows() == []
    key(qtbot, win, Qt.Key.Key_F5)
    assert not win.presentation_action.isChecked() and win.slides.notes_dock.isVisible()
    assert win.geometry() == geometry


# --- two screens, in a process of its own ------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_screens(tmp_path_factory):
    """The driver's facts, the deck as its file says (titles, notes) and the presenter window's picture."""
    tmp = tmp_path_factory.mktemp("presenter")
    config = tmp / "screens.json"
    config.write_text(json.dumps({"screens": [LAPTOP, PROJECTOR]}))
    deck_file = tmp / "generative.probvizdeck"
    write_deck(str(deck_file), decks.deck("generative"))
    deck = json.loads(deck_file.read_text(encoding="utf-8"))
    home = tmp / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "XDG_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               XDG_CACHE_HOME=str(home / "cache"), XDG_RUNTIME_DIR=str(home / "run"),
               QT_QPA_PLATFORM=f"offscreen:configfile={config}")
    (home / "run").mkdir(parents=True)
    os.chmod(home / "run", 0o700)
    shot = tmp / "presenter.png"
    run = subprocess.run([sys.executable, str(HERE / "presenter_driver.py"), str(config), str(tmp / "settings"),
                          str(shot)], env=env, capture_output=True, text=True, timeout=240)
    lines = [line for line in run.stdout.splitlines() if line.startswith("FACTS ")]
    assert run.returncode == 0 and lines, run.stderr[-3000:]
    return json.loads(lines[-1][len("FACTS "):]), deck, shot


def shows(facts, deck, i):
    """The presenter window shows slide ``i`` of the deck file: number, title, notes, the next title."""
    slides = deck["slides"]
    assert facts["presenter_up"]
    assert facts["number"] == f"{i + 1} / {len(slides)}"
    assert facts["title"] == slides[i]["title"]
    assert facts["notes"] == slides[i]["notes"]
    assert facts["next"] == (f"Next: {slides[i + 1]['title']}" if i + 1 < len(slides) else "End of the deck")
    assert f"{i + 1}/{len(slides)}: {slides[i]['title']}" in facts["window_title"]  # the main window agrees


def test_f5_puts_the_slides_on_the_projector_and_the_presenter_on_the_laptop(two_screens):
    facts, deck, _ = two_screens
    assert facts["screens"] == ["Laptop", "Projector"] and facts["primary"] == "Laptop"
    assert facts["before"]["screen"] == "Laptop" and not facts["before"]["full_screen"]
    assert facts["deck_title"] == deck["title"]
    assert facts["f8_notes_bar"]  # the notes bar was wanted and shown before F5
    f5 = facts["f5"]
    assert f5["main_screen"] == "Projector" and f5["main_full_screen"]
    assert f5["presenter_screen"] == "Laptop"
    assert not f5["notes_bar_visible"]  # the class sees the main window: no notes there
    shows(f5, deck, 0)
    assert f5["plain"] == [True, True]
    assert len(f5["clock"]) == 5 and f5["clock"][2] == ":" and f5["elapsed"] == "00:00" and f5["ticking"]
    assert f5["notes_px"] >= 28 and f5["title_px"] >= 36  # legible from a lectern on a 768-pixel screen


def test_the_slide_show_keys_work_in_the_presenter_window(two_screens):
    facts, deck, _ = two_screens
    expected = {"PageDown": [1, 2], "PageUp": [1], "Right": [2], "Space": [3], "Left": [2],
                "End": [len(deck["slides"]) - 1], "Home": [0]}
    seen = {}
    for step in facts["keys_on_presenter"]:
        seen.setdefault(step["key"], []).append(step["index"])
        shows(step, deck, step["index"])
        assert step["main_screen"] == "Projector" and step["presenter_screen"] == "Laptop"
        assert not step["notes_bar_visible"]
    assert seen == expected
    shows(facts["pagedown_on_main"], deck, 1)  # PageDown in the main window: the presenter follows


def test_the_elapsed_time_counts_and_resets(two_screens):
    facts, _, _ = two_screens
    assert facts["elapsed_before_reset"] >= "00:01"
    assert facts["elapsed_after_r"] == "00:00"  # R
    assert facts["elapsed_ticked"] >= "00:01"  # the window's clock ticks on its own
    assert facts["elapsed_after_button"] == "00:00"  # the button


def test_a_notes_edit_shows_at_once_as_plain_text(two_screens):
    facts, deck, _ = two_screens
    edited = facts["notes_edited"]
    assert edited["notes"] == "Say <b>this</b> slowly.\nThen the priors."  # markup stays text
    assert edited["title"] == deck["slides"][1]["title"]
    shows(facts["notes_undone"], deck, 1)  # Undo deck change: the notes as the file has them


def test_swap_screens_and_presenter_view_off(two_screens):
    facts, deck, _ = two_screens
    swapped = facts["swapped"]
    assert swapped["main_screen"] == "Laptop" and swapped["main_full_screen"]
    assert swapped["presenter_screen"] == "Projector" and not swapped["notes_bar_visible"]
    shows(swapped, deck, 1)
    back = facts["swapped_back"]
    assert back["main_screen"] == "Projector" and back["presenter_screen"] == "Laptop"
    off = facts["view_off"]  # Presenter view off while presenting: the notes bar is back, nothing moved
    assert not off["presenter_up"] and not off["ticking"] and off["notes_bar_visible"]
    assert off["main_screen"] == "Laptop" and not off["main_full_screen"]
    on = facts["view_on"]
    assert on["main_screen"] == "Projector" and on["presenter_screen"] == "Laptop" and not on["notes_bar_visible"]
    shows(on, deck, 1)


def test_a_projector_pulled_out_and_plugged_in(two_screens):
    facts, deck, _ = two_screens
    out = facts["unplugged"]  # the presenter window goes, the notes bar (F8 wanted) comes back
    assert not out["presenter_up"] and not out["ticking"] and out["notes_bar_visible"]
    assert out["main_screen"] == "Laptop" and not out["main_full_screen"]
    back = facts["plugged"]
    assert back["main_screen"] == "Projector" and back["main_full_screen"] and back["presenter_screen"] == "Laptop"
    assert not back["notes_bar_visible"]
    shows(back, deck, 1)


def test_leaving_puts_the_main_window_back(two_screens):
    facts, _, _ = two_screens
    before = facts["before"]
    for step in ("escape", "f5_on_presenter"):  # Esc, then F5, pressed in the presenter window
        left = facts[step]
        assert not left["presenting"] and not left["presenter_up"] and not left["ticking"], step
        assert left["main_screen"] == "Laptop" and not left["main_full_screen"], step
        assert left["geometry"] == before["geometry"], step
        assert left["notes_bar_visible"], step  # F8 is still wanted: the bar is back in the window
    panel_before, panel_after = facts["layout_before"]["docks"][0], facts["layout_after_escape"]["docks"][0]
    assert panel_before[1] and panel_after[1] and panel_after[2][2] == panel_before[2][2]  # the Model panel, as wide
    assert facts["layout_after_escape"]["canvas"] == facts["layout_before"]["canvas"]  # the plot, as large
    assert facts["f5_again"]["presenter_up"] and facts["f5_again"]["main_screen"] == "Projector"
    closed = facts["deck_closed"]  # Slides > Close deck while presenting: the presenter window goes
    assert closed["presenting"] and not closed["presenter_up"] and closed["main_screen"] == "Laptop"
    after = facts["after"]
    assert after == before
    closed = facts["closed_presenting"]  # closed while presenting: the next start opens as before F5
    assert closed["was_up"] and closed["closed"] and not closed["presenter_up"]
    assert [closed["screen"], closed["geometry"], closed["full_screen"]] == \
        [before["screen"], before["geometry"], before["full_screen"]]


def test_the_presenter_window_picture(two_screens):
    """Its grab fills the laptop's screen, and its text stands out from its background as WCAG's AAA
    level asks (a contrast of 7:1 at least between the text's and the background's colours)."""
    from PySide6.QtGui import QColor, QImage

    _, _, shot = two_screens
    image = QImage(str(shot))
    assert not image.isNull() and image.width() >= 1300 and image.height() >= 740

    def luminance(c: QColor) -> float:
        def lin(v):
            v /= 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * lin(c.red()) + 0.7152 * lin(c.green()) + 0.0722 * lin(c.blue())

    # the notes' area: its background is its most common colour, its text the farthest from it
    ys, xs = range(int(image.height() * 0.3), int(image.height() * 0.45), 2), range(40, image.width() - 40, 2)
    counts = {}
    for y in ys:
        for x in xs:
            rgb = image.pixel(x, y) & 0xFFFFFF
            counts[rgb] = counts.get(rgb, 0) + 1
    background = luminance(QColor(max(counts, key=counts.get)))
    lums = [luminance(QColor(rgb)) for rgb in counts]
    text = min(lums) if background > 0.5 else max(lums)
    ratio = (max(background, text) + 0.05) / (min(background, text) + 0.05)
    assert ratio >= 7, ratio
