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


def _roc_corners(p, positive):
    """Every (FPR, TPR) a threshold on the score p can give, by brute force over the thresholds."""
    ts = np.r_[np.inf, np.unique(p)[::-1]]
    return np.array([((p >= t)[~positive].mean(), (p >= t)[positive].mean()) for t in ts])


def test_the_confusion_tables_and_losses_on_the_points_held_out_and_under_the_truth(qtbot, window, monkeypatch):
    """The fruit with a 5:1 loss on missing a peach and a fifth of the points held out: the tables count the
    decisions on the training and the held-out points (rows the truth), give the proportions under the truth
    in closed form (LDA's log-odds is Gaussian under each class), and the expected losses beside the Bayes
    risk (the truth's own log-odds against ln 1/5) and the Brier score (Monte Carlo under the truth)."""
    win = window
    assert win.open_path("example:fruit")
    settle(win)
    win.doc.set_loss([[0.0, 1.0], [5.0, 0.0]])
    win.doc.view_state.set_split(0.2, 0)
    settle(win)
    dialog = _press_judge(qtbot, win, monkeypatch)
    held = win.doc.held_out()
    assert held.sum() > 20
    model, truth = win.canvas.frame.fit.model, win.doc.truth
    L = np.array([[0.0, 1.0], [5.0, 0.0]])

    def table(key):
        t = dialog.tables[key][1]
        return np.array([[float(t.item(i, j).text()) for j in range(t.columnCount())] for i in range(t.rowCount())])

    for key, mask in (("train", ~held), ("held", held)):
        X, t = win.doc.X[mask], win.doc.labels[mask]
        p = model.predict_proba(X)[:, 1]
        d = (5 * p > 1 - p).astype(int)
        np.testing.assert_array_equal(table(key), [[np.sum((t == k) & (d == j)) for j in (0, 1)] for k in (0, 1)])
        assert f"{L[t, d].mean():.4g}" in dialog.losses.text()
    assert dialog.tables["train"][1].horizontalHeaderItem(1).text() == "→ peach"
    qtbot.waitUntil(lambda: dialog.decisions is not None and "truth" in dialog.decisions, timeout=120_000)
    a = np.log(model.predict_proba(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))).dot([-1, 1])
    w, w0 = np.array([a[1] - a[0], a[2] - a[0]]), a[0]
    S = truth.covariances[0][0]
    sd = np.sqrt(w @ S @ w)
    peach = [truth.priors[k] * norm.sf((np.log(1 / 5) - (w @ truth.means[k][0] + w0)) / sd) for k in (0, 1)]
    C = np.array([[truth.priors[0] - peach[0], peach[0]], [truth.priors[1] - peach[1], peach[1]]])
    np.testing.assert_allclose(table("truth"), C, atol=1e-4)  # shown to 4 decimals
    loss_true = np.sum(L * C)
    # the Bayes decision: the truth's own log-odds (one covariance: linear) against ln 1/5
    m0, m1 = truth.means[0][0], truth.means[1][0]
    wt = np.linalg.solve(S, m1 - m0)
    wt0 = -0.5 * (m1 @ np.linalg.solve(S, m1) - m0 @ np.linalg.solve(S, m0)) + np.log(truth.priors[1] / truth.priors[0])
    sdt = np.sqrt(wt @ S @ wt)
    miss = truth.priors[1] * norm.cdf((np.log(1 / 5) - (wt @ m1 + wt0)) / sdt)  # a peach decided apple
    false = truth.priors[0] * norm.sf((np.log(1 / 5) - (wt @ m0 + wt0)) / sdt)
    text = dialog.losses.text()
    assert f"under the truth {loss_true:.4g}" in text and f"the Bayes risk {5 * miss + false:.4g}" in text, text
    Xs, ts = truth.sample(200_000, seed=5)
    P = model.predict_proba(Xs)
    brier = np.mean(np.sum((P - np.eye(2)[ts]) ** 2, axis=1))
    shown = float(text.split("Brier score under the truth ")[1].rstrip("."))
    assert abs(shown - brier) < 4 * np.std(np.sum((P - np.eye(2)[ts]) ** 2, axis=1)) / np.sqrt(len(ts))
    dialog.close()


def _roc_pixel(dialog, x, y):
    from PySide6.QtCore import QPointF

    return dialog.roc.mapFromScene(dialog.roc.plotItem.vb.mapViewToScene(QPointF(x, y)))


def test_dragging_the_operating_point_moves_the_boundary_on_the_canvas(qtbot, window, monkeypatch):
    """Two classes, the 0-1 loss: the round mark dragged towards (0.3, 1) lands on the ROC corner nearest there;
    the document's loss then decides exactly that corner on the training points, the canvas's boundary moves to
    where p(peach|x) is the loss's threshold, and one Undo puts the 0-1 loss back."""
    from PySide6.QtTest import QTest

    win = window
    assert win.open_path("example:fruit")
    settle(win)
    dialog = _press_judge(qtbot, win, monkeypatch)
    assert dialog.target is not None
    model = win.canvas.frame.fit.model
    X, t = win.doc.X, win.doc.labels
    p = model.predict_proba(X)[:, 1]
    corners = _roc_corners(p, t == 1)
    vp = dialog.roc.viewport()
    start = _roc_pixel(dialog, *dialog.target.pos())
    end = _roc_pixel(dialog, 0.3, 1.0)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)
    for s in np.linspace(0, 1, 9)[1:]:
        QTest.qWait(12)
        qtbot.mouseMove(vp, start + (end - start) * s)
    held = np.array(dialog.target.pos())  # still in the hand: already on a corner of the curve
    assert np.min(np.hypot(*(corners - held).T)) < 1e-12
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)
    settle(win)
    L = np.asarray(win.doc.loss)
    assert L.shape == (2, 2) and L[1, 0] > L[0, 1]  # missing a peach now costs more: more peaches decided
    at = np.array(dialog.target.pos())
    gap = np.hypot(*(corners - at).T)
    assert gap.min() < 1e-12 and np.hypot(*(at - [0.3, 1.0])) < 0.05  # on a corner of the ROC, where the hand went
    decide = np.argmin(model.predict_proba(X) @ L, axis=1) == 1
    np.testing.assert_allclose((decide[t == 0].mean(), decide[t == 1].mean()), at, atol=1e-12)  # that corner's
    xy = np.column_stack(win.canvas.boundary.getData())
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    threshold = L[0, 1] / (L[0, 1] + L[1, 0])  # choose peach where L_10 p(peach) > L_01 p(apple)
    np.testing.assert_allclose(model.predict_proba(xy)[:, 1], threshold, atol=1e-9)
    wrong = np.column_stack(win.canvas.wrong.getData())
    np.testing.assert_allclose(wrong, X[decide != (t == 1)])
    assert len(win.doc.undo_stack.text(win.doc.undo_stack.index() - 1)) and win.doc.undo_stack.count() == 1
    dialog.activateWindow()  # Ctrl+Z where the hand just was, in the dialog: the document's Undo
    qtbot.waitUntil(dialog.isActiveWindow)
    qtbot.keyClick(dialog, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(win)
    assert win.doc.loss is None
    # the dialog follows the canvas: the operating point and the counts of the largest posterior again
    plain = p > 0.5
    corner = (plain[t == 0].mean(), plain[t == 1].mean())
    qtbot.waitUntil(lambda: np.allclose(dialog.target.pos(), corner, atol=1e-12), timeout=5_000)
    table = dialog.tables["train"][1]
    counts = [[int(table.item(k, j).text()) for j in (0, 1)] for k in (0, 1)]
    assert counts == [[int(np.sum((t == k) & (plain == j))) for j in (0, 1)] for k in (0, 1)]
    dialog.close()


def test_each_corner_of_the_roc_is_the_decision_of_its_loss_matrix():
    """For scores with ties and near-ties, every corner i of the ROC (i = 0: nothing decided c) is exactly the
    set decided c by the loss matrix of its threshold: log-odds > tau where tau = ln(L[other][c] / L[c][other])."""
    from probviz.app.document import MAX_LOSS
    from probviz.app.judge import loss_for_corner
    from probviz.decision import roc_points

    rng = np.random.default_rng(7)
    for scale in (1e-3, 1.0, 5.0):
        s = np.round(rng.normal(size=60) * scale, 6)
        s[:5] = s[5]  # a tie: one corner for all of them
        pos = rng.random(60) < 0.5
        curve = roc_points(s, pos)
        for c in (0, 1):
            for i in range(len(curve["fpr"])):
                L = np.asarray(loss_for_corner(curve["thresholds"], i, c, MAX_LOSS))
                a, b = L[1 - c, c], L[c, 1 - c]  # choosing c when the truth is the other; the reverse
                decided = s > np.log(a / b)
                assert (decided[~pos].mean(), decided[pos].mean()) == (curve["fpr"][i], curve["tpr"][i]), (scale, i)


def test_precision_recall_on_the_points_and_under_the_truth(qtbot, window, monkeypatch):
    """The curve kind chosen in its box: the points' curve is TP / (TP + FP) against TP / P at each threshold
    (counted here), the truth's is Monte Carlo's precision of {p(peach|x) above a threshold}."""
    from pressing import choose

    win = window
    assert win.open_path("example:fruit")
    settle(win)
    dialog = _press_judge(qtbot, win, monkeypatch)
    qtbot.waitUntil(lambda: dialog.result is not None and "truth" in dialog.result, timeout=120_000)
    choose(qtbot, dialog.kind, 1)
    assert dialog.roc.plotItem.getAxis("left").labelText == "precision"
    curves = {c.name(): c for c in dialog.roc.plotItem.listDataItems() if c.name()}
    share = np.mean(win.doc.labels == 1)  # a score that knows nothing: precision p(peach) at every recall
    np.testing.assert_allclose(curves[f"no skill: precision p(C) = {share:.2f}"].yData, share)
    model, X, t = win.canvas.frame.fit.model, win.doc.X, win.doc.labels
    p = model.predict_proba(X)[:, 1]
    ts = np.unique(p)[::-1]
    recall = [np.mean(p[t == 1] >= v) for v in ts]
    precision = [np.mean(t[p >= v] == 1) for v in ts]
    pts = curves["on the points"]
    np.testing.assert_allclose(pts.xData, recall, atol=1e-12)
    np.testing.assert_allclose(pts.yData, precision, atol=1e-12)
    truth_curve = curves["under the truth"]
    i = len(truth_curve.xData) // 2
    Xs, ls = win.doc.truth.sample(300_000, seed=3)
    ps = model.predict_proba(Xs)[:, 1]
    # the drawn point i: find the threshold whose Monte Carlo recall is its recall, compare the precision there
    r_i, p_i = truth_curve.xData[i], truth_curve.yData[i]
    v = np.quantile(ps[ls == 1], 1 - r_i)
    mc = np.mean(ls[ps >= v] == 1)
    assert abs(mc - p_i) < 0.01, (mc, p_i)
    dialog.close()


def test_the_dialog_fits_on_the_screen_it_opens_on(qtbot, window, monkeypatch):
    """It opened at 900 x 760 whatever the screen: on a projector's 1024 x 768 its bottom, with the Close button,
    was below the screen's edge. It now takes at most 95% of the screen's free width and 92% of its height (room
    for the window manager's title bar), here on the test platform's 800 x 800 screen."""
    assert window.open_path("example:fruit")
    settle(window)
    dialog = _press_judge(qtbot, window, monkeypatch)
    settle(window)
    room = dialog.screen().availableGeometry()
    assert room.width() < 900  # (the test means something only on a screen smaller than the old size)
    assert dialog.width() <= 0.95 * room.width() and dialog.height() <= 0.92 * room.height()
    assert dialog.width() >= 0.9 * room.width()  # as large as it may be: the plots keep their room
    dialog.close()


def test_every_mark_is_whole_inside_its_plot(qtbot, window, monkeypatch):
    """The calibration's bins at a frequency of 0 or 1 and the ROC's operating point were drawn half outside the
    plot in presentation mode (a padding of 2% of the axis, 5 pixels of a 260-pixel plot, for marks up to 36 pixels
    across): every mark is now whole inside its plot, at a projector's size in presentation mode."""
    from guihelp import present
    from PySide6.QtCore import QPointF, QRectF

    present(qtbot, window, "example:fruit")
    dialog = _press_judge(qtbot, window, monkeypatch)
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=60_000)
    settle(window)
    dialog.resize(760, 640)  # drawn, then made smaller: the plots make room for the marks again
    settle(window)
    edge_marks = 0
    for plot in (dialog.roc, dialog.calibration):
        vb = plot.plotItem.vb
        box = vb.sceneBoundingRect()
        for item in vb.addedItems:
            scatter = getattr(item, "scatter", item)
            if not hasattr(scatter, "points") or not scatter.isVisible():
                continue
            for spot in scatter.points():
                x, y = spot.pos().x(), spot.pos().y()
                edge_marks += y in (0.0, 1.0) or x in (0.0, 1.0)
                c, r = vb.mapViewToScene(QPointF(x, y)), spot.size() / 2
                assert box.contains(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)), (plot, x, y, r, box)
    assert edge_marks  # (marks at an edge of the unit square: the test means something)
    dialog.close()
