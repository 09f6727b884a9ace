"""The window's open path on the hostile corpus: a refused file changes nothing and leaks nothing
into later documents; markup in names is shown as the text it is."""

import os
import sys
from pathlib import Path

import numpy as np
import pytest
from guihelp import settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from probviz.models import create

sys.path.insert(0, str(Path(__file__).parent.parent / "data"))
from test_fuzz import FUZZ, REFUSED  # noqa: E402


def state(win):
    d = win.doc
    return (d.X.tobytes(), d.labels.tobytes(), list(d.classes), d.model_name, repr(d.params), d.priors, d.theta,
            d.title, d.undo_stack.count(), d.undo_stack.isClean(), win.windowTitle())


def test_refused_files_change_nothing_and_poison_nothing(qtbot, window, monkeypatch):
    errors = []
    monkeypatch.setattr(window, "error", lambda title, text: errors.append(text))
    assert window.open_path("example:fruit")
    settle(window)
    window.doc.set_model("logistic")
    settle(window)
    before = state(window)
    for name in sorted(REFUSED):
        assert not window.open_path(str(FUZZ / name)), name
        settle(window)
        assert state(window) == before, name
        assert errors[-1] == REFUSED[name] or errors[-1].startswith(REFUSED[name]), errors[-1]
    assert len(errors) == len(REFUSED)
    # the next document fits as a fresh program would fit it
    assert window.open_path("example:fruit")
    settle(window)
    for model in ("lda", "logistic", "softmax", "qda"):
        window.doc.set_model(model)
        settle(window)
        fit = window.result.fit
        assert fit.ok and not fit.error, (model, fit.error)
        fresh = create(model).fit(window.doc.X, window.doc.labels)
        Q = window.doc.X[:50] + 0.1
        np.testing.assert_allclose(fit.model.predict_proba(Q), fresh.predict_proba(Q), atol=1e-9)


def test_markup_in_names_is_shown_as_text(qtbot, window, monkeypatch, tmp_path):
    """A class named <img src=...> must not embed a local file: every widget shows the characters."""
    assert window.open_path(str(FUZZ / "markup_names.probviz"))
    settle(window)
    window.legend_action.setChecked(True)
    window._legend_toggled(True)
    settle(window)
    assert "<img src=/etc/probviz.png>" in window.message.text()
    shown = [lab for lab in window.findChildren(QLabel) if "<img" in lab.text() or "<b>" in lab.text()]
    assert shown and all(lab.textFormat() == Qt.TextFormat.PlainText for lab in shown)
    legend = [item.text for _, item in window.canvas.legend.items]
    assert "&lt;img src=/etc/probviz.png&gt;" in legend and "&lt;b&gt;v&lt;/b&gt;" in legend
    assert window.canvas.getAxis("bottom").labelText == "&lt;i&gt;x&lt;/i&gt;"
    assert window.canvas.getAxis("left").labelText == "&amp;amp;"


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, 1e300])
def test_the_document_refuses_points_it_could_not_save(qtbot, window, value):
    window.doc.add_points([[0.0, 0.0], [1.0, 1.0]], 0)
    before = state(window)
    with pytest.raises(ValueError, match="finite"):
        window.doc.add_points([[0.0, value]], 0)
    with pytest.raises(ValueError, match="finite"):
        window.doc.move_points([1], [[value, 0.0]])
    with pytest.raises(ValueError, match="finite"):
        window.doc.set_probe((value, 0.0))
    assert state(window) == before
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "probviz-test-finite.probviz")
    window.files._write(path)  # still saves
    os.unlink(path)


@pytest.mark.parametrize("name,value", [("reg_covar", -0.1), ("reg_covar", 1e308), ("reg_covar", None),
                                        ("reg_covar", "0.5"), ("shrinkage", 0.5)])
def test_the_document_refuses_parameters_out_of_range(qtbot, window, name, value):
    before = state(window)
    with pytest.raises(ValueError):
        window.doc.set_param(name, value)
    assert state(window) == before
