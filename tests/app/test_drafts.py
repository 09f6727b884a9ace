"""While a hand drags points, curved boundaries are drafts (a coarse grid's trace, a few milliseconds);
once it rests or lets go, the frame on screen has the exact curves. Pressed as a person presses."""

import numpy as np
import pytest
from guihelp import settle, to_pixel
from pressing import choose
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from probviz import scene


def _three_curved_classes(win):
    """Three classes of different spreads: QDA's boundaries between them are curves."""
    while len(win.doc.classes) < 3:
        win.doc.add_class()
    rng = np.random.default_rng(5)
    for k, (centre, spread) in enumerate((((-2.5, -1.5), (0.5, 1.2)), ((2.0, -1.0), (1.3, 0.4)),
                                          ((0.0, 2.5), (0.8, 0.8)))):
        win.doc.add_points(rng.normal(centre, spread, size=(12, 2)), k)
    settle(win)


def _hand_on_the_rightmost(qtbot, win, X):
    """Press on the right-most point of X (alone under the cursor). Returns move(m), which puts it m small steps
    left and down of where it was pressed, and let_go()."""
    vp = win.canvas.viewport()
    a = to_pixel(win, *X[int(np.argmax(X[:, 0]))])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)

    def move(m):
        QTest.qWait(15)  # pyqtgraph drops mouse moves closer than 10 ms
        qtbot.mouseMove(vp, QPoint(a.x() - 9 * m, a.y() + 4 * m))

    def let_go():
        qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() - 27, a.y() + 12))

    return move, let_go


def _drafts_drawn(win) -> bool:
    sc = win.canvas.frame.scene
    return bool(sc.boundaries) and all(b.j == -1 for b in sc.boundaries)


def test_a_drag_draws_drafts_and_the_exact_curves_once_the_hand_rests_or_lets_go(qtbot, window):
    win = window
    _three_curved_classes(win)
    choose(qtbot, win.panel.model, win.panel.model.findData("qda"))
    settle(win)
    assert win.doc.model_name == "qda" and win.canvas.frame.scene.boundaries and not _drafts_drawn(win)
    vp = win.canvas.viewport()
    a = to_pixel(win, *win.doc.X[0])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for i in range(1, 4):
        QTest.qWait(15)  # pyqtgraph drops mouse moves closer than 10 ms
        qtbot.mouseMove(vp, QPoint(a.x() + 6 * i, a.y() - 4 * i))
        win.refitter.flush()
        assert _drafts_drawn(win), "a moving hand's frame draws the drafts"
    qtbot.waitUntil(lambda: not win.canvas.frame.request.draft, timeout=2000)  # held still: exact, same fits
    assert win.canvas.frame.scene.boundaries and not _drafts_drawn(win)
    QTest.qWait(15)
    qtbot.mouseMove(vp, QPoint(a.x() + 30, a.y() - 20))
    win.refitter.flush()
    assert _drafts_drawn(win)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 30, a.y() - 20))
    settle(win)
    assert not win.canvas.frame.request.draft and not _drafts_drawn(win)  # let go: exact at once


def _heatmap_sits_on_its_bounds(win) -> bool:
    """The heatmap's image, as drawn, covers the frame's bounds: its corners on screen where the axes put them."""
    item, (x0, x1, y0, y1) = win.canvas.heatmap, win.canvas.frame.request.bounds
    rows, cols = item.image.shape[:2]
    on_screen = [win.canvas.mapFromScene(item.mapToScene(QPointF(c, r))) for c, r in ((0, 0), (cols, rows))]
    return all(abs(a.x() - b.x()) <= 1 and abs(a.y() - b.y()) <= 1
               for a, b in zip(on_screen, (to_pixel(win, x0, y0), to_pixel(win, x1, y1))))


def test_a_moving_hands_heatmap_is_the_exact_posterior_on_a_coarser_grid_and_the_full_one_at_rest(qtbot, window):
    """While a point is dragged the heatmap is computed on 160 x 160 nodes (about 2 ms less a frame among 10,000
    points), each the model's p(C_k|x) at that node; held still, the frame on screen has the full 256 x 256 grid
    again, and so does the frame after letting go."""
    from probviz.scene import grid_axes

    win = window
    _three_curved_classes(win)
    choose(qtbot, win.panel.model, win.panel.model.findData("logistic"))
    settle(win)
    assert win.canvas.frame.scene.image.shape[:2] == (256, 256)
    move, let_go = _hand_on_the_rightmost(qtbot, win, win.doc.X)
    for m in (1, 2):
        move(m)
        win.refitter.flush()
        frame = win.canvas.frame
        assert frame.request.draft and frame.scene.image.shape[:2] == (160, 160)
        assert _heatmap_sits_on_its_bounds(win)
    xs, ys = grid_axes(frame.request.bounds, 160, 160)
    rows = np.array([0, 37, 80, 159])
    nodes = np.column_stack([xs[rows[::-1]], ys[rows]])  # a few nodes across the view, not on one line
    np.testing.assert_allclose(frame.scene.posterior[rows, rows[::-1]], frame.fit.model.predict_proba(nodes),
                               atol=2e-6)  # float32
    qtbot.waitUntil(lambda: not win.canvas.frame.request.draft, timeout=2000)  # held still
    assert win.canvas.frame.scene.image.shape[:2] == (256, 256) and _heatmap_sits_on_its_bounds(win)
    move(3)
    win.refitter.flush()
    assert win.canvas.frame.scene.image.shape[:2] == (160, 160) and _heatmap_sits_on_its_bounds(win)
    let_go()
    settle(win)
    assert not win.canvas.frame.request.draft and win.canvas.frame.scene.image.shape[:2] == (256, 256)
    assert _heatmap_sits_on_its_bounds(win)


def test_a_drag_draws_one_newton_step_per_move_and_the_optimum_once_the_hand_rests(qtbot, window):
    """Logistic regression (one-vs-rest, three classes) while a point is dragged: each moving frame is
    one Newton step from the fit before, and the panel says so; held still, the frame on screen is the
    optimum of the points as they are (a fresh fit's posteriors), and it says converged."""
    from probviz.models import create

    win = window
    _three_curved_classes(win)
    choose(qtbot, win.panel.model, win.panel.model.findData("logistic"))
    settle(win)
    assert not win.canvas.frame.fit.draft
    vp = win.canvas.viewport()
    a = to_pixel(win, *win.doc.X[0])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for i in range(1, 4):
        QTest.qWait(15)
        qtbot.mouseMove(vp, QPoint(a.x() + 8 * i, a.y() - 5 * i))
        win.refitter.flush()
        fit = win.canvas.frame.fit
        assert fit.draft and fit.model.n_iter_ == 1, "a moving hand's frame is one Newton step"
    assert "a draft while the points move" in win.panel.params.text.plain()
    qtbot.waitUntil(lambda: not win.canvas.frame.fit.draft, timeout=2000)  # held still: the optimum
    fit = win.canvas.frame.fit
    ref = create("logistic").fit(win.doc.X, win.doc.labels)
    assert fit.model.converged_
    np.testing.assert_allclose(fit.model.predict_proba(win.doc.X), ref.predict_proba(win.doc.X), atol=1e-9)
    assert "converged" in win.panel.params.text.plain() and "draft" not in win.panel.params.text.plain()
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 24, a.y() - 15))
    settle(win)
    assert not win.canvas.frame.fit.draft and win.canvas.frame.fit.model.converged_


@pytest.mark.parametrize("model", ["lda", "logistic"])
def test_a_drag_through_many_points_waits_for_the_hand_to_rest_before_the_summary(qtbot, window, model):
    """60,000 points (fitted on the worker, drawn as a density image): while a point is dragged each frame
    is the fit and the density of the points as they are (the image the same as a fresh one's), and the
    status line says the accuracy is still to come, since the pass over every point that gives it would
    hold up the next move; held still, the frame gets its summary: the fit's accuracy, counted here.
    Logistic regression's drafts after the first move are updated for the moved point alone; every move
    that is updated so (LDA's from its first, from its sufficient statistics) is made in its own mouse event,
    not on the worker."""
    from probviz import scene
    from probviz.data.dataset import Dataset
    from probviz.models import create

    win = window
    rng = np.random.default_rng(2)
    labels = rng.integers(0, 2, 60_000)
    X = rng.normal(size=(60_000, 2)) + np.array([[-1.5, 0.0], [1.5, 0.5]])[labels]
    win.load(Dataset(X, labels, ["a", "b"]))
    if model != "lda":
        choose(qtbot, win.panel.model, win.panel.model.findData(model))
    qtbot.waitUntil(lambda: win.result is not None and win.result.fit.spec.name == model
                    and bool(win.result.fit.summary), timeout=20_000)
    i = int(np.argmax(X[:, 0]))  # the point dragged
    lines = len(win.panel.params.text.plain().splitlines())
    move, let_go = _hand_on_the_rightmost(qtbot, win, X)
    for m in range(1, 4):
        move(m)
        if model == "lda" or m > 1:  # in the move's own event (the worker may still be on the first move's draft)
            assert win.canvas.frame.request.revision == win.doc.revision
        qtbot.waitUntil(lambda: win.result.revision == win.doc.revision and win.busy_label.text() == "",
                        timeout=10_000)
        frame = win.result
        assert frame.request.draft and not frame.fit.summary and "accuracy …" in win.message.text()
        assert "accuracy …" in win.caption_parts()  # what F5's caption says
        panel = win.panel.params.text.plain()  # the Model panel keeps the summary's lines in their place
        assert "Training accuracy: …" in panel and len(panel.splitlines()) == lines
        if model == "logistic":
            assert frame.fit.draft and frame.fit.incremental == (m > 1)
        fresh = scene.density(win.doc.X, win.doc.labels, frame.request.colors, frame.request.bounds,
                              scene.DENSITY_SHAPE)
        np.testing.assert_array_equal(win.canvas.density.image, fresh.image)
        _carried_marker_drawn(win, i)
    assert not np.array_equal(win.doc.X[i], X[i])
    qtbot.waitUntil(lambda: bool(win.result.fit.summary), timeout=10_000)  # held still
    assert not win.result.fit.draft
    accuracy = np.mean(create(model).fit(win.doc.X, labels).predict(win.doc.X) == labels)
    assert f"accuracy {100 * accuracy:.1f}%" in win.message.text() and "…" not in win.message.text()
    panel = win.panel.params.text.plain()
    assert f"Training accuracy: {100 * accuracy:.1f}%" in panel and len(panel.splitlines()) == lines
    let_go()
    settle(win)
    assert len(win.canvas.carried.data) == 0  # let go: the point is back in the density image


@pytest.mark.parametrize("n", [2_000, 8_000])
def test_a_drag_on_the_gui_thread_gives_its_summary_live_among_few_points_and_at_rest_among_many(qtbot, window, n):
    """Up to 5,000 points a drag's frames (made in the move's own event) carry the accuracy of the points as they
    are; among more, its pass over every point waits for the hand to rest, as it does on the worker, and the
    status line says it is to come. Held still, the accuracy comes: the fit's, counted here."""
    from probviz.app.refit import DRAFT_SUMMARY_MAX
    from probviz.data.dataset import Dataset
    from probviz.models import create

    win = window
    rng = np.random.default_rng(5)
    labels = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 2)) + np.array([[-1.0, 0.0], [1.0, 0.5]])[labels]
    win.load(Dataset(X, labels, ["a", "b"]))
    qtbot.waitUntil(lambda: win.result is not None and bool(win.result.fit.summary), timeout=20_000)
    move, let_go = _hand_on_the_rightmost(qtbot, win, X)
    for m in range(1, 4):
        move(m)
        frame = win.canvas.frame
        assert frame.request.revision == win.doc.revision and frame.request.draft  # in the move's own event
        if n <= DRAFT_SUMMARY_MAX:
            accuracy = np.mean(create("lda").fit(win.doc.X, labels).predict(win.doc.X) == labels)
            assert frame.fit.summary and f"accuracy {100 * accuracy:.1f}%" in win.message.text()
        else:
            assert not frame.fit.summary and "accuracy …" in win.message.text()
    qtbot.waitUntil(lambda: bool(win.result.fit.summary) and not win.result.request.draft, timeout=10_000)  # held still
    accuracy = np.mean(create("lda").fit(win.doc.X, labels).predict(win.doc.X) == labels)
    assert f"accuracy {100 * accuracy:.1f}%" in win.message.text() and "…" not in win.message.text()
    let_go()
    settle(win)


@pytest.mark.parametrize("model", ["lda", "logistic"])
def test_a_drag_through_many_points_keeps_the_crosses_and_gets_them_anew_at_rest(qtbot, window, model):
    """30,000 points: fitted on the worker, drawn one by one. While a misclassified point is dragged the
    summary waits for the hand to rest; the crosses of the fit before stay on their points meanwhile (they
    had all vanished). Held still, the summary comes (for LDA too, whose exact fit needs no finishing: the
    frame at rest reused its fits without one, and the crosses came back only on release), and the crosses
    are the fit's misclassified points, counted here."""
    from probviz.data.dataset import Dataset
    from probviz.models import create

    win = window
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 2, 30_000)
    X = rng.normal(size=(30_000, 2)) + np.array([[-1.0, 0.0], [1.0, 0.0]])[labels]
    i = int(np.flatnonzero(labels == 0)[np.argmax(X[labels == 0, 0])])  # class a's right-most: misclassified
    win.load(Dataset(X, labels, ["a", "b"]))
    if model != "lda":
        choose(qtbot, win.panel.model, win.panel.model.findData(model))
    qtbot.waitUntil(lambda: win.result is not None and win.result.fit.spec.name == model
                    and bool(win.result.fit.summary), timeout=20_000)
    settle(win)

    def crosses():
        return np.column_stack(win.canvas.wrong.getData())

    before = len(crosses())
    assert before > 1000 and any(np.array_equal(c, X[i]) for c in crosses())
    vp = win.canvas.viewport()
    a = to_pixel(win, *X[i])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for m in range(1, 4):
        QTest.qWait(15)
        qtbot.mouseMove(vp, QPoint(a.x() + 9 * m, a.y() + 4 * m))
        win.refitter.flush()
        qtbot.waitUntil(lambda: win.result.revision == win.doc.revision and win.busy_label.text() == "",
                        timeout=10_000)
        assert win.result.request.draft and not win.result.fit.summary
        drawn = crosses()
        assert len(drawn) == before  # the crosses stay, on the points as they are now
        assert any(np.array_equal(c, win.doc.X[i]) for c in drawn)
    qtbot.waitUntil(lambda: bool(win.result.fit.summary), timeout=10_000)  # held still
    settle(win)
    fitted = create(model).fit(win.doc.X, labels)
    wrong = win.doc.X[fitted.predict(win.doc.X) != labels]
    drawn = crosses()
    np.testing.assert_array_equal(drawn[np.lexsort(drawn.T)], wrong[np.lexsort(wrong.T)])
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 27, a.y() + 12))
    settle(win)


def _carried_marker_drawn(win, i):
    """The dragged point, a pixel of the density image, is drawn as its class's marker where the axes say it
    is: the canvas's pixels two pixels around it have the class's colour."""
    from probviz.colors import hex_to_rgb

    image = win.canvas.viewport().grab().toImage()
    p = to_pixel(win, *win.doc.X[i])
    colour = np.array(hex_to_rgb(win.doc.classes[win.doc.labels[i]].color)[:3])
    for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
        c = image.pixelColor(p.x() + dx, p.y() + dy)
        assert np.abs(np.array([c.red(), c.green(), c.blue()]) - colour).max() <= 40, (dx, dy, c.getRgb())


def test_a_dragged_point_is_fitted_in_its_own_mouse_event(qtbot, window):
    """The frame of a drag's move is made while the move is handled, so the paint that follows shows the point
    with its fit. (A zero-delay timer fired after that paint: the canvas showed the point moved and the fit of
    before, and the fit waited for the next paint.)"""
    win = window
    _three_curved_classes(win)
    vp = win.canvas.viewport()
    a = to_pixel(win, *win.doc.X[0])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for m in range(1, 4):
        QTest.qWait(15)
        before = win.doc.revision
        qtbot.mouseMove(vp, QPoint(a.x() + 7 * m, a.y() - 5 * m))  # delivered at once; no events run after it
        assert win.doc.revision > before  # the move edited the points
        assert win.canvas.frame.request.revision == win.doc.revision  # and its frame is the one to paint
        np.testing.assert_array_equal(win.canvas.frame.request.X, win.doc.X)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 21, a.y() - 15))
    assert win.canvas.frame.request.revision == win.doc.revision and not win.canvas.frame.request.draft


def test_the_panels_numbers_are_paced_in_a_drag_and_show_where_it_ends(qtbot, window):
    """The Model panel's numbers follow a drag at most ten times a second (digits that change at every move
    cannot be read, and each change lays the panel out again), and once let go they are the final fit's."""
    import time

    win = window
    _three_curved_classes(win)
    vp = win.canvas.viewport()
    a = to_pixel(win, *win.doc.X[0])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    texts, frames = [], set()
    t0 = time.perf_counter()
    for m in range(1, 13):
        QTest.qWait(15)
        qtbot.mouseMove(vp, QPoint(a.x() + 4 * m, a.y() - 3 * m))
        frames.add(win.canvas.frame.request.revision)
        text = win.panel.params.text.plain()
        if not texts or texts[-1] != text:
            texts.append(text)
    elapsed = time.perf_counter() - t0
    assert len(frames) == 12  # every move drawn on the canvas
    assert len(texts) <= 1 + int(elapsed / 0.1) + 1 < 12  # the panel: the first at once, then one per 100 ms
    end = QPoint(a.x() + 48, a.y() - 36)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)
    final = win.canvas.frame
    assert not final.request.draft and win.panel.params.result is final  # let go: the panel shows it at once
    assert "draft" not in win.panel.params.text.plain()


def test_paced_shows_the_first_draft_at_once_the_newest_after_the_interval_and_any_other_frame_at_once(qtbot):
    from types import SimpleNamespace

    from probviz.app.refit import Paced

    shown = []
    paced = Paced(shown.append, interval_ms=80)
    draft = [SimpleNamespace(request=SimpleNamespace(draft=True), name=f"d{i}") for i in range(4)]
    exact = SimpleNamespace(request=SimpleNamespace(draft=False), name="exact")
    paced(draft[0])
    assert shown == [draft[0]]  # the first of a run of drafts: now
    paced(draft[1])
    paced(draft[2])
    assert shown == [draft[0]]
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=1000)
    assert shown[1] is draft[2]  # the newest, not every one
    paced(draft[3])
    paced(exact)  # the hand at rest or let go: at once, and the held draft is dropped
    assert shown[2:] == [exact]
    QTest.qWait(200)
    assert shown[2:] == [exact]
    paced(None)  # no frame (an empty document): at once
    assert shown[-1] is None


def test_the_legend_keeps_its_rows_and_corner_while_a_drag_waits_for_its_summary(qtbot, window):
    """Dragging among 30,000 points the summary waits for the hand to rest: the legend keeps its misclassified
    row (as the canvas keeps the crosses) and its corner, instead of dropping the row and jumping to another
    corner at the first move and back when the hand rests."""
    from guihelp import menu_action

    from probviz.data.dataset import Dataset

    win = window
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 2, 30_000)
    X = rng.normal(size=(30_000, 2)) + np.array([[-0.8, 0.0], [0.8, 0.3]])[labels]
    win.load(Dataset(X, labels, ["a", "b"]))
    qtbot.waitUntil(lambda: win.result is not None and bool(win.result.fit.summary), timeout=20_000)
    menu_action(win, "Legend").trigger()
    settle(win)

    def rows():
        return [label.text for _, label in win.canvas.legend.items]

    before, offset = rows(), tuple(win.canvas.legend.opts["offset"])
    assert any(r.startswith("misclassified (") for r in before)
    move, let_go = _hand_on_the_rightmost(qtbot, win, X)
    for m in range(1, 4):
        move(m)
        qtbot.waitUntil(lambda: win.result.revision == win.doc.revision, timeout=10_000)
        assert not win.result.fit.summary  # still to come
        assert rows() == before and tuple(win.canvas.legend.opts["offset"]) == offset
    let_go()
    qtbot.waitUntil(lambda: bool(win.result.fit.summary), timeout=10_000)
    settle(win)
    wrong = int(np.sum(win.result.wrong))
    assert f"misclassified ({wrong})" in rows()  # the summary's count once it comes


def test_a_drag_redraws_the_ellipses_of_the_class_it_moves_and_keeps_the_others_paths(qtbot, window):
    """QDA: a point of one class dragged changes that class's Gaussian alone. Its ellipses are drawn anew, the
    other classes' curves keep the paths they had (not rebuilt and stroked from new data on every move), and
    every class's curve holds its frame's ellipses. (The first move draws every class's rings as a draft, with
    fewer vertices: the moves after it keep the others'.)"""
    win = window
    _three_curved_classes(win)
    choose(qtbot, win.panel.model, win.panel.model.findData("qda"))
    settle(win)
    items = win.canvas.ellipse_items[:3]
    moved = int(win.doc.labels[0])
    win.canvas._rest.setInterval(60_000)  # the hand never rests within the test (its exact frame redraws them all)
    move, let_go = _hand_on_the_rightmost(qtbot, win, win.doc.X[win.doc.labels == moved])
    move(1)
    win.canvas.viewport().repaint()
    paths = [item.path for item in items]
    assert all(p is not None for p in paths)
    for m in range(2, 4):
        move(m)
        win.canvas.viewport().repaint()
        for k, item in enumerate(items):
            x, y = item.getData()
            np.testing.assert_array_equal(np.column_stack([x, y]), win.canvas.frame.scene.ellipses[k])
            assert (item.path is paths[k]) == (k != moved), k
            assert len(x) == 3 * (scene.DRAFT_RING_POINTS + 1) - 1  # three rings, NaN rows between
    let_go()
    settle(win)
    for item in items:  # the exact rings once the hand lets go
        assert len(item.getData()[0]) == 3 * (scene.RING_POINTS + 1) - 1
