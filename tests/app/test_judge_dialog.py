"""The Lab's "ROC and calibration…", pressed on the fruit with a 5:1 loss on missing a peach: the dialog's
curves and operating points against closed forms written out here (the binormal ROC of two Gaussians with
one covariance, Bishop 4.2.1's linear log-odds) and the Mann-Whitney statistic."""

import numpy as np
from guihelp import settle, show_lab
from PySide6.QtCore import Qt
from scipy.stats import mannwhitneyu, norm

from probviz.app.judge import JudgeDialog


def _press_judge(qtbot, win, monkeypatch) -> JudgeDialog:
    """The Lab's "ROC and calibration…" pressed on the open document: the dialog it shows."""
    opened = []
    shown = JudgeDialog.show
    monkeypatch.setattr(JudgeDialog, "show", lambda self: (opened.append(self), shown(self)))
    show_lab(win)
    qtbot.mouseClick(win.lab.judge_button, Qt.MouseButton.LeftButton)
    [dialog] = opened
    return dialog


def test_roc_and_calibration_of_the_fruit_with_a_loss(qtbot, window, monkeypatch):
    win = window
    assert win.open_path("example:fruit")
    settle(win)
    win.doc.set_loss([[0.0, 1.0], [5.0, 0.0]])
    settle(win)
    dialog = _press_judge(qtbot, win, monkeypatch)
    qtbot.waitUntil(lambda: dialog.result is not None and "truth" in dialog.result, timeout=120_000)
    r = dialog.result
    model, truth = win.canvas.frame.fit.model, win.doc.truth
    X, t = win.doc.X, win.doc.labels
    # on the points: the AUC is the Mann-Whitney statistic of p(peach|x)
    p = model.predict_proba(X)[:, 1]
    u = mannwhitneyu(p[t == 1], p[t == 0]).statistic
    assert abs(r["points"]["auc"] - u / (np.sum(t == 1) * np.sum(t == 0))) < 1e-12
    # the decision's operating point on the points: decide peach where 5 p(peach|x) > p(apple|x)
    decide = 5 * p > 1 - p
    np.testing.assert_allclose(r["operating_points"], (decide[t == 0].mean(), decide[t == 1].mean()), atol=1e-12)
    # under the truth: LDA's log-odds a(x) = w.x + w0 is linear; a ~ N(w.mu_k + w0, w^T S w) under class k
    a = np.log(model.predict_proba(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))).dot([-1, 1])
    w, w0 = np.array([a[1] - a[0], a[2] - a[0]]), a[0]
    S = truth.covariances[0][0]
    sd = np.sqrt(w @ S @ w)
    tau = np.log(1 / 5)
    tpr, fpr = (norm.sf((tau - (w @ truth.means[k][0] + w0)) / sd) for k in (1, 0))
    np.testing.assert_allclose(r["operating_truth"], (fpr, tpr), atol=1e-7)
    # the Bayes-optimal ROC of two Gaussians with one covariance: AUC = Phi(d' / sqrt 2)
    d = truth.means[1][0] - truth.means[0][0]
    assert abs(r["bayes"]["auc"] - norm.cdf(np.sqrt(d @ np.linalg.solve(S, d)) / np.sqrt(2))) < 1e-3
    # the drawn curves are these: the ROC under the truth dashed, its AUC in the legend
    dashed = [c for c in dialog.roc.plotItem.listDataItems() if c.opts["pen"].style() == Qt.PenStyle.DashLine
              and c.name()]
    assert len(dashed) == 1 and dashed[0].name() == f"under the truth: AUC {r['truth']['auc']:.3f}"
    np.testing.assert_allclose(dashed[0].yData, r["truth"]["tpr"])
    assert f"under the truth {r['truth']['auc']:.4f}" in dialog.status.text()
    dialog.close()


def test_closing_while_the_truth_is_integrated_stops_it(qtbot, window, monkeypatch):
    """The dialog closed (and then the window) while the truth's integrals run: the work stops at its next
    line and no thread outlives what it was for (a destroyed running thread would abort the program)."""
    from probviz.app import background

    win = window
    assert win.open_path("example:fruit")
    settle(win)
    dialog = _press_judge(qtbot, win, monkeypatch)
    assert background._running and "Computing under the true model" in dialog.status.text()
    dialog.close()
    qtbot.waitUntil(lambda: not background._running, timeout=10_000)  # far sooner than the 5 s of the integrals
