"""The Lab dock, as a lecturer drives it: generate 002's fruit from its truth, compare LDA and logistic
regression against the Bayes boundary, hold points out, draw a cross-section and the learning curves."""

import contextlib

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from guihelp import click_dock_tab, drag, key, menu_action, settle, show_lab
from probviz.models import create
from probviz.models.truth import Truth, error_rate


def _fruit(window):
    assert window.open_path("example:fruit")
    settle(window)
    return window.doc


def test_sample_from_the_truth_is_one_undo_step_and_reproducible(qtbot, window):
    doc = _fruit(window)
    before = doc.X.copy()
    lab = window.lab
    lab.n.setValue(400)
    lab.seed.setValue(3)
    qtbot.mouseClick(lab.sample_truth, Qt.MouseButton.LeftButton)
    settle(window)
    X, y = doc.truth.sample(400, 3)
    np.testing.assert_array_equal(doc.X, X)
    np.testing.assert_array_equal(doc.labels, y)
    assert doc.undo_stack.undoText().startswith("Sample from the true model")
    doc.undo_stack.undo()
    np.testing.assert_array_equal(doc.X, before)
    lab.mode.setCurrentIndex(lab.mode.findData("add"))
    qtbot.mouseClick(lab.sample_truth, Qt.MouseButton.LeftButton)
    assert len(doc.X) == len(before) + 400


def test_sample_from_the_fitted_model(qtbot, window):
    doc = _fruit(window)
    lda = window.result.fit.model
    window.lab.n.setValue(20_000)
    qtbot.mouseClick(window.lab.sample_fitted, Qt.MouseButton.LeftButton)
    settle(window)
    for k in (0, 1):  # what LDA believes: its means, its one covariance
        np.testing.assert_allclose(doc.X[doc.labels == k].mean(axis=0), lda.means_[k], atol=0.03)
        np.testing.assert_allclose(np.cov(doc.X[doc.labels == k].T), lda.covariance_, atol=0.03)
    doc.set_model("logistic")
    settle(window)
    assert not window.lab.sample_fitted.isEnabled()


def _errors_known(qtbot, window):
    """The Lab on screen, and its true errors computed (on the window's worker)."""
    window.lab_dock.show()
    window.lab_dock.raise_()
    settle(window)
    qtbot.waitUntil(lambda: window.result.request.errors and not window.result.errors_pending, timeout=20_000)
    settle(window)


def test_errors_and_the_comparison_table(qtbot, window):
    doc = _fruit(window)
    doc.view_state.set_compare("logistic")
    _errors_known(qtbot, window)
    fits = window.result.fits
    assert [f.spec.name for f in fits] == ["lda", "logistic"]
    assert window.result.overlays and window.canvas.overlay.getData()[0] is not None
    truth = doc.truth
    expected = [error_rate(truth, f.model, f.class_index) for f in fits]
    table = window.lab.table
    assert _cells(table, "true error") == [f"{e:#.4g}" for e in expected]  # as many digits each
    assert f"Bayes error {truth.bayes_error():.4g}" in window.lab.errors_label.text()
    # parameters (Bishop 4.2-4.3, M = 2): LDA (K - 1) + K M + M(M + 1)/2 = 8, logistic M + 1 = 3
    assert _cells(table, "parameters") == ["8", "3"]


def _cells(table, row_label):
    rows = [table.verticalHeaderItem(r).text().replace("\n", " ") for r in range(table.rowCount())]
    return [table.item(rows.index(row_label), c).text() for c in range(table.columnCount())]


def _choose(combo, name):
    """Pick an entry of a combo box by the key a person presses: Down until it is there."""
    combo.setFocus()
    for _ in range(combo.count()):
        if combo.currentData() == name:
            return
        QTest.keyClick(combo, Qt.Key.Key_Down)
    raise AssertionError(f"{name} is not in the box")


def test_the_comparison_puts_a_conditional_likelihood_beside_a_conditional_one(qtbot, window):
    """LDA's ln p(t|X) through its posterior beside logistic regression's (Bishop eq. 4.90 with the sign
    turned), each against an independent computation; LDA's joint ln p(X,t) (eq. 4.71) on its own row,
    against scipy's Gaussian densities; the columns named as the rest of the app names the models."""
    from scipy.special import log_expit
    from scipy.stats import multivariate_normal
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.metrics import log_loss

    doc = _fruit(window)
    show_lab(window)  # its tab in front: a Lab behind another tab draws nothing
    _choose(window.lab.compare, "logistic")
    settle(window)
    table = window.lab.table
    assert [table.horizontalHeaderItem(c).text().replace("\n", " ") for c in range(2)] == [
        "LDA (shared covariance)", "Logistic regression"]
    with _lab_shown(window):
        assert _elided(table) == []  # the names and numbers readable whole
    X, t = doc.X, doc.labels
    lda = LinearDiscriminantAnalysis(solver="lsqr").fit(X, t)  # ML shared covariance, priors N_k / N
    w = window.result.fits[1].model  # p(peach|x) = sigma(w^T x + w0)
    a = X @ w.coef_[0] + w.intercept_[0]
    logistic = np.sum(np.where(t == 1, log_expit(a), log_expit(-a)))
    shown = [float(v) for v in _cells(table, "ln p(t|X), eq. 4.90")]
    assert shown[0] == pytest.approx(-log_loss(t, lda.predict_proba(X), normalize=False), abs=0.006)
    assert shown[1] == pytest.approx(logistic, abs=0.006)
    assert -200 < shown[0] < shown[1] < 0  # like with like: the discriminative fit is the better conditional
    joint = sum(np.sum(t == k) * np.log(np.mean(t == k)) + multivariate_normal(lda.means_[k], lda.covariance_).logpdf(X[t == k]).sum()
                for k in (0, 1))
    lda_joint, logistic_joint = _cells(table, "joint ln p(X,t), eq. 4.71")
    assert float(lda_joint) == pytest.approx(joint, abs=0.006) and logistic_joint == ""


def test_a_near_perfect_fit_reads_a_number_not_minus_zero(qtbot, window):
    rng = np.random.default_rng(1)
    X = rng.normal(0, 0.5, (80, 2)) + np.repeat([[-2.0, 0.0], [2.0, 0.0]], 40, axis=0)
    t = np.repeat([0, 1], 40)
    show_lab(window)
    window.doc.replace_points(X, t, "Two clusters")
    settle(window)
    [text] = _cells(window.lab.table, "ln p(t|X), eq. 4.90")
    model = window.result.fit.model
    from scipy.special import logsumexp
    from scipy.stats import multivariate_normal

    A = np.stack([np.log(model.priors_[k]) + multivariate_normal(model.means_[k], model.covariance_).logpdf(X)
                  for k in (0, 1)], axis=1)
    ref = float(np.sum(A[np.arange(80), t] - logsumexp(A, axis=1)))
    assert -1e-3 < ref < 0  # the case: two decimals would print -0.00
    assert text != "-0.00" and float(text) == pytest.approx(ref, rel=0.05)


def test_a_split_fits_on_the_rest_and_scores_the_held_out(qtbot, window):
    doc = _fruit(window)
    show_lab(window)  # its tab in front: a Lab behind another tab draws nothing
    window.lab.held.spin.setValue(0.4)  # as typed: the field emits
    settle(window)
    held = doc.held_out()
    assert held.sum() == 100  # exactly 0.4 of 250
    fit = window.result.fit
    ref = create("lda").fit(doc.X[~held], doc.labels[~held])
    np.testing.assert_allclose(fit.model.means_, ref.means_)
    assert fit.held_out["n"] == held.sum()
    assert fit.held_out["accuracy"] == pytest.approx(ref.accuracy(doc.X[held], doc.labels[held]))
    assert fit.held_out["log_likelihood"] == pytest.approx(ref.log_likelihood(doc.X[held], doc.labels[held]))
    np.testing.assert_allclose(window.canvas.holes.getData()[0], doc.X[held][:, 0])  # drawn hollow
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.metrics import log_loss

    sk = LinearDiscriminantAnalysis(solver="lsqr").fit(doc.X[~held], doc.labels[~held])
    [cell] = _cells(window.lab.table, "held-out ln p(t|X)")
    assert float(cell) == pytest.approx(-log_loss(doc.labels[held], sk.predict_proba(doc.X[held]), normalize=False),
                                        abs=0.006)
    # a new point changes the role of at most one other
    doc.add_points([[0.0, 0.0]], 0)
    assert np.count_nonzero(doc.held_out()[:-1] != held) <= 1


def test_edit_the_truth_in_the_table_and_by_dragging_its_mean(qtbot, window):
    doc = _fruit(window)
    doc.set_layer("truth", True)
    settle(window)
    table = window.lab.truth_table
    table.item(1, 2).setText("3.0")  # peach mean, second coordinate
    settle(window)
    np.testing.assert_allclose(doc.truth.means_[1], [1.7, 3.0])
    xs, ys = window.canvas.truth_handles.getData()  # the drawn handles follow: [mean, major, minor] a class
    np.testing.assert_allclose([xs[3], ys[3]], [1.7, 3.0])
    assert doc.undo_stack.undoText() == "Edit the true model"
    table.item(0, 3).setText("-1")  # not a covariance: refused, the truth stays
    settle(window)
    np.testing.assert_allclose(doc.truth.covariances_[0], [[0.2, 0.1], [0.1, 0.3]])
    # drag the apple mean (a diamond) by (0.5, 0.25) on the canvas: one undo step
    window.set_tool("add")
    drag(qtbot, window, (1.0, 1.0), (1.5, 1.25))
    np.testing.assert_allclose(doc.truth.means_[0], [1.5, 1.25], atol=0.03)
    assert len(doc.X) == 250  # no point was added or moved
    bayes = window.result.truth.boundaries[0].xy
    pts = bayes[np.all(np.isfinite(bayes), axis=1)]
    A = doc.truth.log_joint(pts)
    np.testing.assert_allclose(A[:, 0], A[:, 1], atol=1e-6)  # the drawn Bayes boundary follows
    doc.undo_stack.undo()
    np.testing.assert_allclose(doc.truth.means_[0], [1.0, 1.0])


def test_the_truths_axis_handles_look_like_no_point(qtbot, window):
    """The ends of the truth's ellipse axes are rings in the plot's ink round a dot of the class's colour.
    Drawn as squares outlined in the class's colour they were the picture of a held-out point of a
    square-marked class (the peach); a ring alone is the probe."""
    import pyqtgraph as pg

    doc = _fruit(window)
    doc.set_layer("truth", True)
    settle(window)
    spots = window.canvas.truth_handles.data
    ink = pg.mkColor(window.canvas.style.foreground).name()
    classes = {pg.mkColor(c.color).name() for c in doc.classes}
    axis_ends = [spots[3 * k + j] for k in range(2) for j in (1, 2)]
    assert len(spots) == 6 + 4
    assert ink not in classes
    for spot in axis_ends:
        assert spot["symbol"] == "o" and spot["pen"].color().name() == ink
    for k, j, dot in zip((0, 0, 1, 1), (1, 2, 1, 2), spots[6:]):  # the dot on each axis end, in its class's colour
        assert (dot["x"], dot["y"]) == (spots[3 * k + j]["x"], spots[3 * k + j]["y"]) and dot["size"] < spots[3 * k + j]["size"]
        assert dot["brush"].color().name() == pg.mkColor(doc.classes[k].color).name()


@pytest.mark.parametrize("k, which", [(0, 1), (0, 2), (1, 1), (1, 2)])
def test_a_dragged_axis_end_stays_under_the_hand_all_the_way_round(qtbot, window, k, which):
    """An end of the truth's ellipse axis dragged once round its mean, in small steps: the handle drawn nearest
    the hand is the dragged one, under the hand, and the other axis's end never jumps across the mean. The
    handles come from eigenvectors, whose sign and order are arbitrary: 44 of 96 drags showed the dragged
    handle at the far end of its axis. The other axis keeps its 2-sigma length through the drag."""
    from guihelp import to_pixel

    doc = _fruit(window)
    doc.set_layer("truth", True)
    window.set_tool("add")
    settle(window)

    def drawn():
        xs, ys = window.canvas.truth_handles.getData()
        return np.c_[xs[:6], ys[:6]].reshape(2, 3, 2)  # [mean, axis end, axis end] a class, then the dots

    H = drawn()
    mu, r = H[k, 0], float(np.hypot(*(H[k, which] - H[k, 0])))
    other = float(np.hypot(*(H[k, 3 - which] - H[k, 0])))
    start = np.arctan2(*(H[k, which] - mu)[::-1])
    vp = window.canvas.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=to_pixel(window, *H[k, which]))
    before = H
    for step in range(1, 37):  # 10 degrees a step, once round
        angle = start + np.radians(10 * step)
        hand = mu + 0.8 * r * np.array([np.cos(angle), np.sin(angle)])
        QTest.qWait(12)
        qtbot.mouseMove(vp, to_pixel(window, *hand))
        settle(window)
        now = drawn()
        np.testing.assert_allclose(now[k, which], hand, atol=0.02, err_msg=f"step {step}")  # under the hand
        jump = float(np.hypot(*(now[k, 3 - which] - before[k, 3 - which])))
        assert jump < 0.5 * other, (step, jump)  # the other end turns with it, a tenth of a turn, no leap
        assert float(np.hypot(*(now[k, 3 - which] - mu))) == pytest.approx(other, rel=1e-6)
        before = now
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=to_pixel(window, *hand))
    settle(window)
    np.testing.assert_allclose(drawn()[k, which], hand, atol=0.02)  # and after the release
    assert doc.undo_stack.count() >= 1 and doc.undo_stack.undoText() == "Edit the true model"


@pytest.mark.parametrize("which", [1, 2])
@pytest.mark.parametrize("degrees", [30, 120, 170, -150])
def test_a_dragged_handle_keeps_to_the_hand_when_frames_are_far_apart(which, degrees):
    """In a real window the hand can turn an axis end far between two draws (an X server's mouse moves come
    faster than frames): the dragged handle is still the end nearest the hand, and the other end keeps its
    side (the turn from the dragged axis to the other, as at the drag's start). Nearest-to-before alone put
    the dragged handle at the far end of its axis once the turn passed 90 degrees."""
    from probviz.app.canvas import steady_handles
    from probviz.models.truth import Truth, handles, with_axis

    t = Truth.make([0.5, 0.5], [[0.0, 0.0], [3.0, 1.0]], [[[1.0, 0.3], [0.3, 0.5]], [[0.4, 0.0], [0.0, 0.9]]])
    before = handles(t)
    mu = before[1, 0]
    v = before[1, which] - mu
    u = before[1, 3 - which] - mu
    turn = np.sign(v[0] * u[1] - v[1] * u[0])
    c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
    hand = mu + 0.8 * np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])
    moved = with_axis(t, 1, hand, float(np.hypot(*u)))
    drawn = steady_handles(handles(moved), before, drag=(1, which, tuple(hand), turn))
    np.testing.assert_allclose(drawn[1, which], hand, atol=1e-9)
    w = drawn[1, 3 - which] - mu
    d = drawn[1, which] - mu
    assert np.sign(d[0] * w[1] - d[1] * w[0]) == turn  # the other end on the side it started on
    np.testing.assert_allclose(drawn[0, 0], before[0, 0])  # the other class's mean untouched


def test_the_section_tool_plots_the_posterior_along_the_line(qtbot, window):
    doc = _fruit(window)
    show_lab(window)  # its tab in front: a Lab behind another tab draws nothing
    slot = window.lab._section_slot
    assert not slot.isVisible() and window.lab.section_hint.isVisible()  # no empty axes before there is a line
    key(qtbot, window, Qt.Key.Key_X)
    assert window.canvas.tool == "section"
    drag(qtbot, window, (0.0, 0.0), (2.5, 3.5))
    (a, b) = doc.view_state.section
    np.testing.assert_allclose(a, (0, 0), atol=0.03)
    np.testing.assert_allclose(b, (2.5, 3.5), atol=0.03)
    assert len(doc.X) == 250
    sec = window.lab.section
    model = window.result.fit.model
    X = np.asarray(a) + np.outer(sec.t / sec.t[-1], np.subtract(b, a))
    np.testing.assert_allclose(sec.posterior, model.predict_proba(X), atol=1e-12)
    curves = window.lab.section_plot.plotItem.listDataItems()
    assert len(curves) == 6  # two posteriors, two scaled joints, the truth's two posteriors
    np.testing.assert_allclose(curves[0].yData, sec.posterior[:, 0])
    np.testing.assert_allclose(curves[4].yData, doc.truth.posterior(X)[:, 0], atol=1e-12)
    assert slot.isVisible()
    drawn = _ink_along(window, (0.0, 0.0), (2.5, 3.5))
    qtbot.mouseClick(window.lab.clear_section, Qt.MouseButton.LeftButton)
    assert doc.view_state.section is None
    settle(window)
    assert not slot.isVisible() and window.lab.section_hint.isVisible()
    cleared = _ink_along(window, (0.0, 0.0), (2.5, 3.5))
    assert drawn > 0.4 and cleared < 0.1, (drawn, cleared)  # the dashed line was on the canvas, and is gone


def _ink_along(window, a, b) -> float:
    """The share of the canvas's pixels along the segment a-b (its ends left out) drawn in the plot's ink."""
    from PySide6.QtGui import QColor

    from guihelp import to_pixel

    image = window.canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    ink = window.canvas.style.foreground[:3]
    hits = []
    for t in np.linspace(0.1, 0.9, 200):
        p = to_pixel(window, *(np.add(a, t * np.subtract(b, a))))
        rgb = QColor(image.pixel(round(p.x() * ratio), round(p.y() * ratio))).getRgb()[:3]
        hits.append(max(abs(u - v) for u, v in zip(rgb, ink)) <= 60)
    return float(np.mean(hits))


def test_tools_menu_opens_the_labs_dialogs_with_the_lab_folded_away(qtbot, window, monkeypatch, in_turn):
    """Tools > Learning curves… and ROC and calibration…: in presentation mode the Lab folds away, and a
    lesson's learning-curves slide sends the teacher to the menu. ROC is greyed without a fit; Learning curves
    was greyed without a truth and said nothing of why: pressed, it says where a true model comes from."""
    from PySide6.QtWidgets import QMessageBox

    from probviz.app import judge, lab

    opened = []
    monkeypatch.setattr(lab.LearningDialog, "exec", lambda self: opened.append(("curves", [c.currentData() for c in self.models])) or 0)
    monkeypatch.setattr(judge.JudgeDialog, "show", lambda self: opened.append(("judge", None)))

    def tools_entry(text):
        menu = next(a for a in window.menuBar().actions() if a.text().replace("&", "") == "Tools").menu()
        menu.aboutToShow.emit()
        return next(a for a in menu.actions() if a.text().replace("&", "") == text)

    assert not tools_entry("ROC and calibration…").isEnabled()  # a blank document: no truth, no fit
    said = []
    in_turn([(QMessageBox, lambda box: said.append(box.text()) or box.accept())])
    tools_entry("Learning curves…").trigger()
    qtbot.waitUntil(lambda: len(said) == 1)
    assert not opened
    assert said[0].startswith("Learning curves need a true model: File › Examples › fruit"), said
    assert "From the data in the Lab's True model box" in said[0]
    _fruit(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_F5)
    try:
        assert not window.lab_dock.isVisible()
        entry = tools_entry("Learning curves…")
        assert entry.isEnabled()
        entry.trigger()
        assert opened and opened[0][0] == "curves" and opened[0][1] == ["lda", "logistic"]
        entry = tools_entry("ROC and calibration…")
        assert entry.isEnabled()
        entry.trigger()
        assert opened[-1][0] == "judge"
    finally:
        qtbot.keyClick(window, Qt.Key.Key_F5)
        stop = getattr(window.lab, "judge", None)
        if stop is not None:
            stop.close()


def test_learning_curves_dialog_runs_on_a_worker(qtbot, window):
    from probviz.app.lab import LearningDialog

    doc = _fruit(window)
    dialog = LearningDialog(doc.truth, [("lda", {}), ("logistic", {})], window.lab)
    qtbot.addWidget(dialog)
    dialog.sizes.setText("4,16")
    dialog.seeds.setValue(3)
    dialog.show()
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=20_000)
    r = dialog.result
    assert r["sizes"] == [4, 16] and set(r["models"]) == {"lda", "logistic"}
    items = dialog.plot.plotItem.listDataItems()
    assert len(items) == 6  # a mean and two percentiles per model
    np.testing.assert_allclose(items[0].yData, r["models"]["lda"]["mean"])
    assert dialog.export_button.isEnabled()


def test_without_a_truth_the_lab_says_so(qtbot, window):
    assert window.open_path("example:circles")
    settle(window)
    assert "No true model" in window.lab.truth_status.text()
    assert not window.lab.sample_truth.isEnabled() and not window.lab.curves_button.isEnabled()
    qtbot.mouseClick(window.lab.from_data, Qt.MouseButton.LeftButton)
    settle(window)
    t = window.doc.truth
    assert isinstance(t, Truth) and t.K == 2
    qda = create("qda").fit(window.doc.X, window.doc.labels)
    np.testing.assert_allclose(t.covariances_, qda.covariances_)
    assert window.lab.sample_truth.isEnabled()
    window.doc.add_class()
    QApplication.processEvents()
    assert "has 2 classes but the points have 3" in window.lab.truth_status.text()
    assert window.doc.usable_truth() is None and window.result.truth is None


def test_errors_are_computed_off_the_gui_thread_once_per_fit_and_truth(qtbot, window, monkeypatch):
    import threading

    import probviz.analysis as analysis

    calls = []
    real = analysis.error_rate

    def counted(truth, *a):
        if truth is window.doc.truth:  # this document's (a window closed before may still be finishing its own)
            calls.append(threading.current_thread())
        return real(truth, *a)

    monkeypatch.setattr(analysis, "error_rate", counted)  # before the document opens: every call counted
    doc = _fruit(window)
    _errors_known(qtbot, window)
    assert len(calls) == 1 and calls[0] is not threading.main_thread(), calls  # the window never waits for it
    doc.set_probe((1.0, 1.0))  # a new frame of the same fit
    _errors_known(qtbot, window)
    assert len(calls) == 1
    doc.add_points([[0.0, 0.0]], 0)  # a new fit
    _errors_known(qtbot, window)
    assert len(calls) == 2
    window.lab_dock.hide()  # the Lab not shown: no true errors asked for
    doc.add_points([[0.1, 0.0]], 0)
    settle(window)
    qtbot.wait(200)
    assert len(calls) == 2 and not window.result.request.errors


@contextlib.contextmanager
def _lab_shown(window):
    """The Lab shown for a look, and hidden again: the window keeps its layout for the next start, and
    the next test's window would open with the Lab beside the canvas."""
    try:
        show_lab(window)
        yield
    finally:
        if window.lab_dock.isVisible():
            menu_action(window, "Lab panel (true model, samples, comparison)").trigger()
            settle(window)


def _elided(table):
    """The cells and headers whose text is wider than the room Qt gives it (it would print "0.5…")."""
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QStyle

    fm = QFontMetrics(table.font())
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    out = []
    for c in range(table.columnCount()):
        width = table.columnWidth(c)
        texts = [table.item(r, c).text() for r in range(table.rowCount())]
        out += [t for t in texts if fm.horizontalAdvance(t) + margin > width]
        hfm = QFontMetrics(table.horizontalHeader().font())
        out += [line for line in table.horizontalHeaderItem(c).text().split("\n")
                if hfm.horizontalAdvance(line) + margin > width]
    return out


def test_the_truth_table_shows_whole_numbers_at_normal_and_presentation_size(qtbot, window):
    assert window.open_path("example:three-in-a-line")
    settle(window)
    qtbot.mouseClick(window.lab.from_data, Qt.MouseButton.LeftButton)  # thirds and long decimals
    settle(window)
    table = window.lab.truth_table
    with _lab_shown(window):
        assert table.rowCount() == 3 and table.isVisible()
        assert _elided(table) == []
    presentation = menu_action(window, "Presentation mode")
    presentation.trigger()
    try:
        with _lab_shown(window):  # presentation mode folds the docks away: View > Lab panel brings it back
            assert table.font().pointSizeF() > QApplication.font().pointSizeF() / 1.6 * 1.5  # the large font
            assert _elided(table) == []
            # the whole table is reachable: a sideways scroll bar, not cut rows
            assert table.height() >= table.horizontalHeader().height() + sum(table.rowHeight(r) for r in range(3))
    finally:
        presentation.trigger()
        settle(window)


def test_editing_one_cell_of_the_truth_keeps_the_others_exact(qtbot, window):
    assert window.open_path("example:three-in-a-line")
    settle(window)
    qtbot.mouseClick(window.lab.from_data, Qt.MouseButton.LeftButton)
    settle(window)
    before = window.doc.truth
    window.lab.truth_table.item(0, 1).setText("-2.5")
    settle(window)
    after = window.doc.truth
    assert after.means_[0, 0] == -2.5
    np.testing.assert_array_equal(after.means_[0, 1], before.means_[0, 1])  # not its rounded display
    np.testing.assert_array_equal(after.covariances_, before.covariances_)
    np.testing.assert_allclose(after.priors, before.priors, rtol=1e-15)


def test_the_legend_on_screen_explains_the_lines_the_lab_adds(qtbot, window):
    """View › Legend, then a compared model and a split chosen in the Lab: the legend gains a row for each
    line style and marker they draw (as the exported figure's legend does), and loses it when they go."""
    from pressing import choose, step

    _fruit(window)
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    next(a for a in view.actions() if a.text() == "&Legend").trigger()
    settle(window)

    def rows():
        return [label.text for _, label in window.canvas.legend.items]

    assert not any("boundary" in r for r in rows())
    lab = window.lab
    window.lab_dock.show()
    window.lab_dock.raise_()
    choose(qtbot, lab.compare, lab.compare.findData("logistic"))
    settle(window)
    assert "Logistic regression: boundary" in rows() and "LDA (shared covariance): boundary" in rows()
    step(qtbot, lab.held.spin)
    settle(window)
    assert any(r.startswith("held out (") for r in rows())
    choose(qtbot, lab.compare, lab.compare.findData(None))
    settle(window)
    assert not any("Logistic" in r for r in rows())


def test_a_hidden_lab_catches_up_when_shown(qtbot, window):
    """Behind another tab the Lab skips its table (a drag's frames at 100,000 points would pay for it on
    the GUI thread); pressed back into view it shows the frame on screen, not the last one it drew."""
    doc = _fruit(window)
    show_lab(window)
    table = window.lab.table
    assert _cells(table, "parameters") == ["8"]  # LDA, M = 2: (K - 1) + K M + M(M + 1)/2
    _press_tab(window, "Model")
    assert not window.lab.seen.on_screen
    _choose(window.panel.model, "qda")
    settle(window)
    assert window.result.fit.spec.name == "qda"
    assert _cells(table, "parameters") == ["8"]  # not drawn behind the Model tab
    _press_tab(window, "Lab")
    assert _cells(table, "parameters") == ["11"]  # QDA: (K - 1) + K M + K M(M + 1)/2
    x, t = doc.X, doc.labels
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis
    from sklearn.metrics import log_loss

    qda = QuadraticDiscriminantAnalysis(store_covariance=True).fit(x, t)
    [cell] = _cells(table, "ln p(t|X), eq. 4.90")  # sklearn's covariances are unbiased (N_k - 1): a looser check
    assert float(cell) == pytest.approx(-log_loss(t, qda.predict_proba(x), normalize=False), rel=0.05)


def _press_tab(window, title):
    """Click the dock tab ``title`` as a person does (Qt keeps a tabbed dock's widget "visible" behind the
    tab in front; the tab bar is what a person sees)."""
    from PySide6.QtWidgets import QTabBar

    for bar in window.findChildren(QTabBar):
        for i in range(bar.count()):
            if bar.tabText(i) == title and bar.isVisible():
                QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(i).center())
                settle(window)
                return
    raise AssertionError(f"no tab {title!r}")


def test_the_comparison_waits_with_the_summary_through_a_drag_of_many_points(qtbot, window):
    """60,000 points, the Lab in front: while a point is dragged the summary waits for the hand to rest, and the
    comparison's cells that need a pass over the points say "…" (they were computed on the GUI thread at every
    move); held still, the numbers come: the accuracy counted here."""
    from PySide6.QtCore import QPoint

    from guihelp import to_pixel
    from probviz.data.dataset import Dataset

    rng = np.random.default_rng(2)
    labels = rng.integers(0, 2, 60_000)
    X = rng.normal(size=(60_000, 2)) + np.array([[-1.5, 0.0], [1.5, 0.5]])[labels]
    window.load(Dataset(X, labels, ["a", "b"]))
    show_lab(window)
    qtbot.waitUntil(lambda: window.result is not None and bool(window.result.fit.summary), timeout=20_000)
    settle(window)
    table = window.lab.table
    assert _cells(table, "accuracy")[0].endswith("%")
    vp = window.canvas.viewport()
    i = int(np.argmax(X[:, 0]))
    a = to_pixel(window, *X[i])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for m in range(1, 4):
        QTest.qWait(15)
        qtbot.mouseMove(vp, QPoint(a.x() - 9 * m, a.y() + 4 * m))
        assert not window.result.fit.summary
        assert _cells(table, "accuracy") == ["…"] and _cells(table, "ln p(t|X), eq. 4.90") == ["…"]
        assert _cells(table, "parameters") == ["8"]
    qtbot.waitUntil(lambda: bool(window.result.fit.summary), timeout=10_000)  # held still
    settle(window)
    accuracy = np.mean(create("lda").fit(window.doc.X, labels).predict(window.doc.X) == labels)
    assert _cells(table, "accuracy") == [f"{100 * accuracy:.1f}%"]
    assert float(_cells(table, "ln p(t|X), eq. 4.90")[0]) < 0
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() - 27, a.y() + 12))
    settle(window)


def test_the_true_error_of_a_training_step_says_it_is_the_steps(qtbot, window):
    """With a training step on the canvas the Lab's "Logistic regression: true error 0.08745" was the step's
    model's error, not the fitted model's, and did not say so: it names the step, and the number is the error
    of the model the step drew (counted here from the truth); without the step it is the fit's again."""
    doc = _fruit(window)
    doc.set_model("logistic")
    _errors_known(qtbot, window)
    label = window.lab.errors_label
    assert "Logistic regression: true error" in label.text()
    window.activateWindow()
    key(qtbot, window, Qt.Key.Key_T)  # the training step on the canvas
    key(qtbot, window, Qt.Key.Key_Period)
    key(qtbot, window, Qt.Key.Key_Period)  # "." brings the Training panel forward, over the Lab
    assert not window.lab.seen.on_screen
    click_dock_tab(qtbot, window, "Lab")  # back to the Lab, to read it: its true errors are computed now
    qtbot.waitUntil(lambda: window.result.training is not None and window.result.training.index == 2
                    and window.result.request.errors and not window.result.errors_pending, timeout=20_000)
    settle(window)
    fit = window.result.fit
    step_error = error_rate(doc.truth, fit.model, fit.class_index)
    assert f"Logistic regression at step 2: true error {step_error:#.4g}" in label.text(), label.text()
    fitted = error_rate(doc.truth, create("logistic").fit(doc.X, doc.labels), fit.class_index)
    assert f"{fitted:.4g}" != f"{step_error:.4g}"  # two steps of gradient descent are not the fit yet
    key(qtbot, window, Qt.Key.Key_T)  # the fit again
    qtbot.waitUntil(lambda: not (window.result.request.training and window.result.request.training.shown)
                    and not window.result.errors_pending, timeout=20_000)
    settle(window)
    assert f"Logistic regression: true error {fitted:#.4g}" in label.text(), label.text()


def test_the_true_errors_keep_their_lines_while_a_drag_recomputes_them(qtbot, window, monkeypatch, request):
    """While a drag's fits wait for their true errors, each reads "…" in the same words, so the label keeps its
    lines and the Lab below it stays where it was (it jumped a line at every move: a click aimed at the Lab's
    boxes could land on another entry). Once the hand rests the numbers come."""
    import threading

    from guihelp import to_pixel
    from PySide6.QtCore import QPoint

    from probviz.app import refit

    doc = _fruit(window)
    doc.view_state.set_compare("qda")
    _errors_known(qtbot, window)
    label, table = window.lab.errors_label, window.lab.table
    assert "…" not in label.text() and label.text().count("true error") == 2
    gate, real = threading.Event(), refit.compute_errors  # the worker's true errors wait until the moves are seen
    monkeypatch.setattr(refit, "compute_errors", lambda *a, **k: (gate.wait(10), real(*a, **k))[1])
    request.addfinalizer(gate.set)  # a failure below must not leave the worker waiting as the window closes
    lines, top = label.heightForWidth(label.width()), table.mapTo(window, QPoint(0, 0)).y()
    vp = window.canvas.viewport()
    a = to_pixel(window, *doc.X[0])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    seen = []
    for m in range(1, 4):
        QTest.qWait(15)
        qtbot.mouseMove(vp, QPoint(a.x() + 6 * m, a.y() - 4 * m))
        settle(window)
        if window.result.errors_pending:
            seen.append(label.text())
            assert label.text().count("true error …") == 2, label.text()
            assert label.heightForWidth(label.width()) == lines
            assert table.mapTo(window, QPoint(0, 0)).y() == top
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 18, a.y() - 12))
    gate.set()
    assert len(seen) == 3, "a frame of the drag did not wait for its true errors"
    qtbot.waitUntil(lambda: not window.result.errors_pending, timeout=20_000)
    settle(window)
    assert "…" not in label.text() and label.text().count("true error") == 2


def test_the_second_model_list_greys_the_model_shown(qtbot, window):
    """Comparing LDA with LDA draws nothing new: with LDA shown its entry is greyed and a click on it leaves
    the choice as it was; with QDA shown (from the Model menu) LDA can be chosen and QDA cannot."""
    from pressing import choose

    _fruit(window)
    show_lab(window)
    lab = window.lab
    lda, qda = lab.compare.findData("lda"), lab.compare.findData("qda")
    assert window.doc.model_name == "lda"
    assert not lab.compare.model().item(lda).isEnabled() and lab.compare.model().item(qda).isEnabled()
    choose(qtbot, lab.compare, lda)
    settle(window)
    assert window.doc.view_state.compare is None and lab.compare.currentData() is None
    from probviz.models import REGISTRY

    model_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Model")
    next(a for a in model_menu.actions() if a.text().replace("&", "") == REGISTRY["qda"].label).trigger()
    settle(window)
    assert window.doc.model_name == "qda"
    assert lab.compare.model().item(lda).isEnabled() and not lab.compare.model().item(qda).isEnabled()
    choose(qtbot, lab.compare, lda)
    settle(window)
    assert window.doc.view_state.compare == "lda" and not lab.compare_note.isVisible()
    # LDA, the second model, made the model shown (Model menu): the list keeps it, and a note says why it is
    # not drawn; back to QDA, it is drawn again and the note goes
    next(a for a in model_menu.actions() if a.text().replace("&", "") == REGISTRY["lda"].label).trigger()
    settle(window)
    assert lab.compare.currentData() == "lda" and lab.compare_note.isVisible()
    assert "LDA (shared covariance) is the model shown" in lab.compare_note.text()
    assert len(window.result.fits) == 1  # nothing compared
    next(a for a in model_menu.actions() if a.text().replace("&", "") == REGISTRY["qda"].label).trigger()
    settle(window)
    assert not lab.compare_note.isVisible() and len(window.result.fits) == 2


def test_the_true_errors_are_computed_while_the_lab_is_in_front_only(qtbot, window):
    """The true errors (an integral per fit, seconds for a mixture truth) are asked for while the Lab's tab is in
    front, not while it is behind another tab, where Qt still calls the dock visible: there they cost every edit
    a computation on the worker that nobody reads, and the window's start a second of CPU."""
    from guihelp import click

    doc = _fruit(window)
    assert window.lab_dock.isVisible() and not window.lab.seen.on_screen  # behind the Model tab
    click(qtbot, window, 3.2, -0.5)  # a point added (where there is none to pick up)
    assert len(doc.X) == 251
    assert not window.result.request.errors and not window.result.errors_pending
    click_dock_tab(qtbot, window, "Lab")
    qtbot.waitUntil(lambda: window.result.request.errors and not window.result.errors_pending, timeout=20_000)
    settle(window)
    assert f"Bayes error {doc.truth.bayes_error():.4g}" in window.lab.errors_label.text()
    click_dock_tab(qtbot, window, "Model")
    click(qtbot, window, 3.0, -0.7)
    assert len(doc.X) == 252 and not window.result.request.errors


def test_a_true_error_of_one_has_the_digits_of_the_others(qtbot, window):
    """At w = 0 the perceptron decides nothing and every point counts as wrong: its true error read "1" beside the
    Bayes error's "0.07387". Each has four significant digits: "1.000"."""
    doc = _fruit(window)
    doc.set_model("perceptron")
    _errors_known(qtbot, window)
    window.activateWindow()
    key(qtbot, window, Qt.Key.Key_T)  # step 0 on the canvas: w = 0
    click_dock_tab(qtbot, window, "Lab")
    qtbot.waitUntil(lambda: window.result.training is not None and window.result.request.errors
                    and not window.result.errors_pending, timeout=20_000)
    settle(window)
    fit = window.result.fit
    assert error_rate(doc.truth, fit.model, fit.class_index) == pytest.approx(1.0, abs=1e-12)
    assert "at step 0: true error 1.000" in window.lab.errors_label.text(), window.lab.errors_label.text()


def test_a_discriminants_section_says_why_nothing_is_plotted_and_keys_no_curves(qtbot, window):
    """The perceptron, a line drawn with the Section tool: the Lab said "A discriminant function has no p(C_k|x) to
    plot" and then explained solid and dashed curves that were not there. It says why, and keys nothing."""
    doc = _fruit(window)
    doc.set_model("perceptron")
    settle(window)
    show_lab(window)
    key(qtbot, window, Qt.Key.Key_X)
    drag(qtbot, window, (0.0, 0.0), (2.5, 3.5))
    assert doc.view_state.section is not None
    lab = window.lab
    assert lab.section_hint.isVisible() and "has no p(C_k|x) to plot" in lab.section_hint.text()
    assert not lab.section_key.isVisible() and not lab._section_slot.isVisible()
    doc.set_model("lda")  # a model with p(C_k|x): its curves, and their key
    settle(window)
    assert lab.section_key.isVisible() and lab._section_slot.isVisible()


def test_a_selected_cell_leaves_the_model_names_whole(qtbot, window):
    """A person clicks a cell of the comparison table: the headers look as they did (Qt bolded the label of the
    selected cell's column, wider than its section, and "LDA (shared covariance)" lost its closing parenthesis),
    and every model's name fits its column in the font it is drawn in, beside the style's margins."""
    from PySide6.QtWidgets import QStyle

    doc = _fruit(window)
    doc.view_state.set_compare("logistic")
    window.lab_dock.show()
    window.lab_dock.raise_()
    settle(window)
    table = window.lab.table
    header, rows = table.horizontalHeader(), table.verticalHeader()
    assert table.columnCount() == 2 and "covariance)" in table.horizontalHeaderItem(0).text()
    before = header.grab().toImage(), rows.grab().toImage()
    cell = table.visualItemRect(table.item(1, 0))
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell.center())
    settle(window)
    assert table.currentRow() == 1 and table.currentColumn() == 0 and table.item(1, 0).isSelected()
    after = header.grab().toImage(), rows.grab().toImage()
    assert before[0] == after[0] and before[1] == after[1]
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    fm = header.fontMetrics()
    for c in range(table.columnCount()):
        widest = max(fm.horizontalAdvance(line) for line in table.horizontalHeaderItem(c).text().split("\n"))
        assert widest + 2 * margin <= header.sectionSize(c), (c, widest, header.sectionSize(c))


def test_the_comparison_of_three_classes_shows_both_columns_whole(qtbot, window):
    """A new user added a third class and compared LDA with logistic regression: the longer row label (eq. 4.108)
    made the table a few pixels wider than the Lab gave it; a click on the logistic column scrolled it sideways
    and LDA's "-40.59" read "40.59". The label is on two lines, as the joint likelihood's: no sideways scrolling,
    before or after the click, and every cell of both columns inside the table's view."""
    doc = _fruit(window)
    doc.add_points(np.array([[3.0, 0.0], [3.2, 0.3], [2.8, -0.2], [3.1, 0.5]]), 2)
    doc.view_state.set_compare("logistic")
    window.lab_dock.show()
    window.lab_dock.raise_()
    settle(window)
    table = window.lab.table
    assert table.columnCount() == 2 and any("4.108" in table.verticalHeaderItem(r).text()
                                            for r in range(table.rowCount()))
    bar = table.horizontalScrollBar()
    cell = table.visualItemRect(table.item(3, 1))
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell.center())
    settle(window)
    assert table.item(3, 1).isSelected()
    assert bar.maximum() == 0 and bar.value() == 0
    view = table.viewport().rect()
    for r in range(table.rowCount()):
        for c in range(2):
            if table.item(r, c) is not None:
                assert view.contains(table.visualItemRect(table.item(r, c))), (r, c)
