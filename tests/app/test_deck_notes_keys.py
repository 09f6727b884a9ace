"""What a slide's speaker notes tell the teacher to press does what they say, in presentation mode: the
notes of the training slides name the full stop (Train > Step), and each press takes one more step, says so
in the caption (broken between words, not cut, when the Training panel takes its room) and shows the
Training panel with nothing cut."""

import re

import pytest
from guihelp import present, settle
from PySide6.QtCore import Qt

from probviz.data import decks
from test_presentation_layout import clipped_labels


def steps_shown(win) -> int:
    m = re.search(r"step (\d+)", win.canvas.plotItem.titleLabel.text)
    assert m, win.canvas.plotItem.titleLabel.text
    return int(m.group(1))


@pytest.mark.parametrize("name", ["generative", "discriminant"])
def test_the_key_the_notes_name_takes_a_step_on_a_projector(qtbot, window, name):
    deck = decks.deck(name)
    told = [i for i, s in enumerate(deck.slides) if "(.; Train > Step)" in s.notes]
    assert told, "no slide's notes name the Step key"
    assert not any("press Step" in s.notes for s in deck.slides)  # a button F5 folds away
    present(qtbot, window, f"deck:{name}")
    try:
        for i in told:
            while window.slides.index < i:
                qtbot.keyClick(window, Qt.Key.Key_PageDown)
                settle(window)
            before = deck.slides[i].session.training.steps
            assert steps_shown(window) == before
            qtbot.keyClick(window, Qt.Key.Key_Period)
            qtbot.waitUntil(lambda: steps_shown(window) == before + 1)
            qtbot.wait(50)  # the dock widens after Qt has laid it out
            settle(window)
            assert window.training_dock.isVisible()
            scroll = window.training.controls_scroll
            assert scroll.horizontalScrollBar().maximum() == 0
            assert scroll.verticalScrollBar().maximum() == 0  # Step, Play and Reset in view, not scrolled away
            for button in (window.training.step_button, window.training.play_button, window.training.reset_button):
                assert button.visibleRegion().boundingRect().size() == button.size(), button.text()
            assert clipped_labels(window) == []
            assert "…" not in window.canvas.plotItem.titleLabel.text  # the slide's title too: broken, not cut
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)


@pytest.mark.parametrize("name", ["generative", "discriminant"])
def test_no_note_breaks_a_word_at_a_hyphen(name):
    """The notes are written over several source lines and joined with spaces: a line that ended in a
    hyphen showed "dash- dotted" in the notes bar, the presenter window and the handout."""
    for slide in decks.deck(name).slides:
        assert not re.search(r"\w- \w", slide.notes), (slide.title, re.search(r".{20}\w- \w.{10}", slide.notes))
