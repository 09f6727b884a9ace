"""The Learning curves dialog as a lecturer uses it: each size drawn as it is done, the models named as
the window names them, readable in the dark theme, and gone once closed."""

import threading

import numpy as np
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import QApplication

import probviz.app.lab as lab
from guihelp import settle
from probviz.app.lab import LearningDialog
from probviz.models.learning import learning_curve

LEFT = Qt.MouseButton.LeftButton


def _fruit(window):
    assert window.open_path("example:fruit")
    settle(window)
    return window.doc


def _dialog(qtbot, window, sizes, seeds):
    dialog = LearningDialog(window.doc.truth, [("lda", {}), ("logistic", {})], window.lab)
    qtbot.addWidget(dialog)
    dialog.sizes.setText(sizes)
    dialog.seeds.setValue(seeds)
    dialog.show()
    return dialog


def _opened_from_the_lab(qtbot, window, monkeypatch):
    """The Lab's Learning curves button pressed: the dialog it opens, shown and not waited on."""
    from guihelp import show_lab

    opened = []
    monkeypatch.setattr(LearningDialog, "exec", lambda self: opened.append(self))
    show_lab(window)
    qtbot.mouseClick(window.lab.curves_button, LEFT)
    [dialog] = opened
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _means(dialog):
    """The drawn mean curves (those with a legend entry): label -> (sizes, mean errors)."""
    return {item.name(): (item.xData, item.yData) for item in dialog.plot.plotItem.listDataItems() if item.name()}


def test_each_size_is_drawn_as_soon_as_it_is_done(qtbot, window, monkeypatch):
    doc = _fruit(window)
    gate = threading.Event()

    def held(truth, models, sizes, seeds, progress=None, names=None):  # every size after the first waits for the test
        if sizes != [4]:
            gate.wait(30)
        return learning_curve(truth, models, sizes, seeds, progress=progress, names=names)

    monkeypatch.setattr(lab, "learning_curve", held)
    dialog = _dialog(qtbot, window, "4,16,64", 3)
    try:
        qtbot.mouseClick(dialog.run_button, LEFT)
        qtbot.waitUntil(lambda: len(_means(dialog)) == 2, timeout=20_000)
        first = _means(dialog)
        assert set(first) == {"LDA (shared covariance)", "Logistic regression"}
        assert all(len(xs) == 1 for xs, _ in first.values())  # size 4 drawn while 16 is still being fitted
        assert dialog.result is None and not dialog.run_button.isEnabled() and "2 of 3" in dialog.status.text()
    finally:
        gate.set()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=30_000)
    # one size at a time gives the curves of the whole run at once (each (size, seed) has its own set)
    whole = learning_curve(doc.truth, [("lda", {}), ("logistic", {})], [4, 16, 64], 3)
    drawn = _means(dialog)
    for name, label in (("lda", "LDA (shared covariance)"), ("logistic", "Logistic regression")):
        np.testing.assert_allclose(drawn[label][1], whole["models"][name]["mean"], rtol=1e-12)
        np.testing.assert_allclose(dialog.result["models"][name]["errors"], whole["models"][name]["errors"])
    assert dialog.result["sizes"] == [4, 16, 64] and dialog.export_button.isEnabled()
    assert dialog.progress.value() == dialog.progress.maximum() == 9


def test_cancel_keeps_the_sizes_drawn_and_bad_sizes_are_refused(qtbot, window, monkeypatch):
    _fruit(window)
    dialog = _dialog(qtbot, window, "4,0", 2)
    qtbot.mouseClick(dialog.run_button, LEFT)
    assert "whole numbers from 1 to 100,000" in dialog.status.text() and dialog.run_button.isEnabled()
    gate = threading.Event()

    def held(truth, models, sizes, seeds, progress=None, names=None):
        if sizes != [4]:
            gate.wait(30)
        return learning_curve(truth, models, sizes, seeds, progress=progress, names=names)

    monkeypatch.setattr(lab, "learning_curve", held)
    dialog.sizes.setText("4,8")
    qtbot.mouseClick(dialog.run_button, LEFT)
    qtbot.waitUntil(lambda: len(_means(dialog)) == 2, timeout=20_000)
    qtbot.mouseClick(dialog.cancel_button, LEFT)
    gate.set()
    qtbot.waitUntil(lambda: dialog.run_button.isEnabled(), timeout=20_000)
    assert dialog.status.text() == "Cancelled: 1 of 2 sizes drawn" and dialog.result is None
    assert all(len(xs) == 1 for xs, _ in _means(dialog).values())


def test_the_exported_curves_name_the_models_as_the_window_does(qtbot, window, monkeypatch, tmp_path):
    _fruit(window)
    dialog = _dialog(qtbot, window, "4,8", 2)
    qtbot.mouseClick(dialog.run_button, LEFT)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=20_000)
    path = tmp_path / "curves.svg"
    monkeypatch.setattr(lab.QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    qtbot.mouseClick(dialog.export_button, LEFT)
    svg = path.read_text()
    assert "LDA (shared covariance): mean true error" in svg and "Logistic regression: mean true error" in svg
    assert "lda:" not in svg and "logistic:" not in svg


def _bright_pixels_under(plot, item) -> int:
    rect = plot.mapFromScene(item.sceneBoundingRect()).boundingRect()
    image = plot.grab().toImage()
    return sum(image.pixelColor(x, y).lightness() > 150
               for x in range(max(rect.left(), 0), min(rect.right(), image.width()))
               for y in range(max(rect.top(), 0), min(rect.bottom(), image.height())))


def test_the_legend_reads_in_the_dark_theme(qtbot, window):
    _fruit(window)
    was_dark = window.dark_action.isChecked()  # the first start follows the desktop
    if not was_dark:
        window.dark_action.trigger()
    settle(window)
    assert window.dark_action.isChecked()
    try:
        dialog = _dialog(qtbot, window, "4", 1)
        qtbot.mouseClick(dialog.run_button, LEFT)
        qtbot.waitUntil(lambda: dialog.result is not None, timeout=20_000)
        labels = [label for _sample, label in dialog.plot.plotItem.legend.items]
        assert [label.text for label in labels] == ["LDA (shared covariance)", "Logistic regression"]
        assert all(_bright_pixels_under(dialog.plot, label.item) > 20 for label in labels)
    finally:
        if window.dark_action.isChecked() != was_dark:
            window.dark_action.trigger()


def test_opening_learning_curves_eight_times_leaves_no_dialog_behind(qtbot, window):
    _fruit(window)
    seen = []

    def press_escape():
        dialog = QApplication.activeModalWidget()
        seen.append(type(dialog).__name__)
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)

    for _ in range(8):
        QTimer.singleShot(50, press_escape)
        qtbot.mouseClick(window.lab.curves_button, LEFT)
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert seen == ["LearningDialog"] * 8
    assert window.lab.findChildren(LearningDialog) == []


def test_the_axes_read_as_sizes_and_error_rates(qtbot, window):
    """The size axis is labelled at the sizes run (not crowded log minor ticks); the error axis reads as a
    rate (0.1), with no "(x0.001)" scale prefix."""
    _fruit(window)
    dialog = _dialog(qtbot, window, "4,16,64,256", 1)
    qtbot.mouseClick(dialog.run_button, LEFT)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=30_000)
    bottom, left = dialog.plot.getAxis("bottom"), dialog.plot.getAxis("left")
    ticks = bottom._tickLevels  # the ticks set by hand (pyqtgraph keeps them there; None: its own)
    assert ticks is not None and [text for _v, text in ticks[0]] == ["4", "16", "64", "256"]
    assert "x0.001" not in left.labelString() and left.autoSIPrefixScale == 1.0


def test_the_tied_model_s_groups_reach_the_curves(qtbot, window, monkeypatch):
    """The Lab's Learning curves button opens the dialog with the document's class names: the tied model's
    groups name classes, and without the names every fit would fail (an empty curve)."""
    assert window.open_path("example:tied")
    settle(window)
    window.doc.set_model("tied")
    settle(window)
    dialog = _opened_from_the_lab(qtbot, window, monkeypatch)
    dialog.sizes.setText("8,32")
    dialog.seeds.setValue(2)
    qtbot.mouseClick(dialog.run_button, LEFT)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    tied = [m for m in dialog.result["models"].values() if m["name"] == "tied"][0]
    assert np.all(np.isfinite(tied["errors"]))


def test_before_a_run_the_plot_spans_the_sizes_typed(qtbot, window):
    """The empty plot showed 1 to 10 with ticks 2 to 9 for sizes 4 to 1000: it spans the sizes typed, ticked at
    them, and follows the field as it is edited."""
    _fruit(window)
    dialog = _dialog(qtbot, window, "4,16,64,256", 1)

    def shown():
        (x0, x1), _ = dialog.plot.plotItem.vb.viewRange()
        ticks = dialog.plot.getAxis("bottom")._tickLevels
        return 10 ** x0, 10 ** x1, [text for _v, text in ticks[0]] if ticks else None
    lo, hi, labels = shown()
    assert 4 / 1.5 <= lo < 4 and 256 < hi <= 256 * 1.5 and labels == ["4", "16", "64", "256"]
    dialog.sizes.selectAll()
    qtbot.keyClicks(dialog.sizes, "10,100,1000")
    lo, hi, labels = shown()
    assert 10 / 1.5 <= lo < 10 and 1000 < hi <= 1500 and labels == ["10", "100", "1000"]


def test_each_model_says_the_settings_it_is_fitted_with_and_takes_the_document_s(qtbot, window, monkeypatch):
    """Logistic regression with the Bayesian view on read as plain "Logistic regression": the dialog says under
    each model the settings it is fitted with, the Model panel's. A model picked in the dialog was fitted with
    the defaults; it takes the document's settings too (QDA's shrinkage 0.3 here)."""
    from pressing import choose

    from probviz.models.registry import MODEL_NAMES

    doc = _fruit(window)
    doc.set_model("qda")
    doc.set_param("reg_covar", 0.3)
    doc.set_model("logistic")
    doc.set_param("bayes", True)
    doc.set_param("alpha", 2.5)
    settle(window)
    dialog = _opened_from_the_lab(qtbot, window, monkeypatch)
    first, second = (label.text() for label in dialog.settings)
    assert "Bayesian view (Laplace): yes" in first and "Prior precision α: 2.5" in first and "L2" not in first
    assert first.startswith("Fitted with ")
    choose(qtbot, dialog.models[1], MODEL_NAMES.index("qda"))
    assert dialog.settings[1].text() == "Fitted with Covariance shrinkage: 0.3"
    assert dialog.chosen() == [("logistic", doc.params["logistic"]), ("qda", {"reg_covar": 0.3})]
    choose(qtbot, dialog.models[1], MODEL_NAMES.index("fisher"))
    assert dialog.settings[1].text() == "No settings"
    # the sizes run with those settings: QDA's curve is that of a shrunk QDA
    choose(qtbot, dialog.models[1], MODEL_NAMES.index("qda"))
    dialog.sizes.setText("8")
    dialog.seeds.setValue(2)
    qtbot.mouseClick(dialog.run_button, LEFT)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    expected = learning_curve(doc.truth, [("logistic", doc.params["logistic"]), ("qda", {"reg_covar": 0.3})], [8], 2)
    plain = learning_curve(doc.truth, [("logistic", doc.params["logistic"]), ("qda", {})], [8], 2)
    got = {m["name"]: m["mean"] for m in dialog.result["models"].values()}
    assert got["qda"] == expected["models"]["qda"]["mean"] != plain["models"]["qda"]["mean"]


def test_settings_text_says_the_settings_that_take_part():
    from probviz.models.registry import REGISTRY

    assert REGISTRY["logistic"].settings_text({"l2": 0.5, "bayes": False}) == (
        "L2 strength: 0.5 · Basis functions φ(x): linear · Standardize features: yes · Bayesian view (Laplace): no")
    assert REGISTRY["softmax"].settings_text({"basis": "rbf", "width": 0.0, "centers": ""}) == (
        "L2 strength: 0.01 · Basis functions φ(x): rbf · Standardize features: yes · "
        "RBF centres μ_m: a 3 x 3 lattice over the points · RBF width s: automatic")
    assert REGISTRY["probit"].settings_text({"basis": "rbf", "width": 2.0, "centers": "0,0;1,1"}).endswith(
        "RBF centres μ_m: 0,0;1,1 · RBF width s: 2")
    assert REGISTRY["tied"].settings_text({"groups": "a,b"}) == (
        "Classes sharing a covariance: a,b · Covariance shrinkage: 0")
    assert REGISTRY["tied"].settings_text({}).startswith("Classes sharing a covariance: none")
    assert REGISTRY["perceptron"].settings_text({}) == ""
    # the Bayesian view: α takes part and the L2 strength does not; then the rbf basis's centres and width
    assert REGISTRY["logistic"].settings_text({"bayes": True, "alpha": 2.5, "l2": 0.5}) == (
        "Basis functions φ(x): linear · Standardize features: yes · Bayesian view (Laplace): yes · "
        "Prior precision α: 2.5")
    assert REGISTRY["logistic"].settings_text({"basis": "rbf", "bayes": False}).endswith(
        "Bayesian view (Laplace): no · RBF centres μ_m: a 3 x 3 lattice over the points · RBF width s: automatic")


def _presented(qtbot, window, monkeypatch):
    """F5 at 1024 x 768 on the fruit, then Tools › Learning curves…: the dialog, shown."""
    from guihelp import menu_action, present

    present(qtbot, window, "example:fruit")
    opened = []
    monkeypatch.setattr(LearningDialog, "exec", lambda self: opened.append(self))
    menu_action(window, "Learning curves…").trigger()
    [dialog] = opened
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    settle(window)
    return dialog


def test_on_a_projector_the_dialog_is_as_large_as_its_text_asks(qtbot, window, monkeypatch):
    """F5 at 1024 x 768, Tools › Learning curves…: the dialog kept its desk size while its text grew, the plot
    squeezed to 140 pixels and its legend in the desk's small text. It takes the room its text needs (on the
    screen), the plot at least 250 pixels tall, its legend and axes in presentation mode's text size."""
    dialog = _presented(qtbot, window, monkeypatch)
    size = QApplication.font().pointSizeF()
    assert dialog.plot.height() >= 250, dialog.plot.height()
    assert dialog.height() <= 0.92 * dialog.screen().availableGeometry().height() + 1
    assert dialog.plot.getAxis("bottom").style["tickFont"].pointSizeF() == size
    assert dialog.plot.plotItem.legend.opts["labelTextSize"] == f"{size:g}pt"


def test_the_same_model_twice_is_refused_until_two_differ(qtbot, window):
    """The dialog let both models be the same one: a run drew one curve twice. Run waits, saying why, until
    the two lists differ (chosen in the lists as a person chooses)."""
    from pressing import choose

    _fruit(window)
    dialog = _dialog(qtbot, window, "4,8", 2)
    first, second = dialog.models
    assert dialog.run_button.isEnabled()
    choose(qtbot, second, second.findData("lda"))
    assert not dialog.run_button.isEnabled() and "two different models" in dialog.status.text()
    qtbot.mouseClick(dialog.run_button, LEFT)
    assert dialog.partial is None and dialog._thread is None  # nothing ran
    choose(qtbot, first, first.findData("qda"))
    assert dialog.run_button.isEnabled() and dialog.status.text() == ""
    qtbot.mouseClick(dialog.run_button, LEFT)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=20_000)
    assert set(lab.shown_labels(dialog.result)) == {"QDA (own covariances)", "LDA (shared covariance)"}


def test_on_a_projector_every_size_is_labelled_and_every_line_is_whole(qtbot, window, monkeypatch):
    """F5 at 1024 x 768, Tools › Learning curves…, a run: the last size's label ("1000") was left out (pyqtgraph
    drops a label that reaches past the axis), the dotted 10% and 90% lines ran out of the top, and the empty
    plot's top label ("1.0") was cut in half. Every size is labelled, every line lies inside the plot, and the
    plot is taller than the two models' rows left it (their settings side by side, not one under the other)."""
    from guihelp import drawn_tick_labels as labels

    dialog = _presented(qtbot, window, monkeypatch)
    _, (y0, y1) = dialog.plot.plotItem.vb.viewRange()
    assert y0 < 0 and y1 > 0.5  # the frame's labels 0 and 0.5 clear of its edges
    assert dialog.plot.height() >= 330, dialog.plot.height()
    dialog.sizes.setText("4,32,1000")
    dialog.seeds.setValue(4)
    qtbot.mouseClick(dialog.run_button, LEFT)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=30_000)
    settle(window)
    assert labels(dialog.plot.getAxis("bottom")) == ["4", "32", "1000"]
    _, (y0, y1) = dialog.plot.plotItem.vb.viewRange()
    for item in dialog.plot.plotItem.listDataItems():
        ys = item.getData()[1]
        assert y0 < np.nanmin(ys) and np.nanmax(ys) < y1
