"""Least squares, Fisher and the perceptron in the window: regions, notices, the projections panel."""

import numpy as np

from guihelp import settle


def test_fisher_projections_panel_draws_the_histograms_of_both_projections(qtbot, window):
    assert window.open_path("example:fisher-projection")
    window.doc.set_model("fisher")
    settle(window)
    box = window.panel.fisher
    assert box.isVisible()
    X, y = window.doc.X, window.doc.labels
    m = [X[y == k].mean(axis=0) for k in (0, 1)]
    S_W = sum((X[y == k] - m[k]).T @ (X[y == k] - m[k]) for k in (0, 1))
    w = np.linalg.solve(S_W, m[1] - m[0])
    for key, v in (("means", (m[1] - m[0]) / np.linalg.norm(m[1] - m[0])), ("fisher", w / np.linalg.norm(w))):
        p = X @ v
        edges = np.linspace(p.min(), p.max(), 31)
        expected = [np.histogram(p[y == k], edges)[0] for k in (0, 1)]
        np.testing.assert_array_equal(box.counts(key), expected)
    # Fisher's criterion (eq. 4.25) is larger along w: the classes overlap less
    assert box.criteria["fisher"] > 2 * box.criteria["means"]
    assert "J = " in box.labels["fisher"].text()
    window.doc.set_model("lda")
    settle(window)
    assert not box.isVisible()


def test_least_squares_says_it_masks_and_one_vs_rest_hatches(qtbot, window):
    assert window.open_path("example:three-in-a-line")
    window.doc.set_model("leastsquares")
    settle(window)
    assert "masked" in window.message.toolTip() and "C2 only" in window.message.toolTip()
    assert window.result.scene.posterior is None and window.result.scene.ambiguous is None
    assert window.canvas.heatmap.isVisible()
    window.doc.set_param("scheme", "one-vs-rest")
    settle(window)
    assert window.canvas.ambiguous.isVisible() and "undecided" in window.message.toolTip()
    readout = window.result.readout_at(0.0, 0.0)
    assert "y_C1(x) = " in readout and "→" in readout and "p(" not in readout
    # the probe and the parameters speak of y_k(x), never of p(C_k|x)
    assert any("No probabilities" in line for line in window.panel.params.lines("text"))


def _choose(combo, text):
    """Pick an entry of a combo box as a person does with the keyboard: focus it, press Down."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    combo.setFocus()
    for _ in range(combo.count()):  # to the top
        QTest.keyClick(combo, Qt.Key.Key_Up)
    for _ in range(combo.count()):
        if combo.currentText() == text:
            return
        QTest.keyClick(combo, Qt.Key.Key_Down)
    raise AssertionError(f"{text!r} is not in the box")


def test_one_vs_one_on_three_in_a_line_draws_no_line_through_a_solid_region(qtbot, window):
    """The line of C1 against C3 crosses C2's region, where C2 wins both its votes: the decision does
    not change there, so nothing is drawn there; no training point is tied, so no word of hatching."""
    assert window.open_path("example:three-in-a-line")
    settle(window)
    _choose(window.panel.model, "Least squares")
    settle(window)
    _choose(window.panel.param_widgets["scheme"], "one-vs-one")
    settle(window)
    model = window.result.fit.model
    assert model.scheme == "one-vs-one"
    xs, ys = window.canvas.boundary.getData()
    xy = np.c_[xs, ys]
    finite = xy[np.isfinite(xy[:, 0])]
    assert len(finite)
    size = 10.0
    for a, b in zip(xy[:-1], xy[1:]):  # every drawn segment: C2 on one side or the other, never on both
        if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
            continue
        t = np.linspace(0.02, 0.98, 50)[:, None]
        p = a + t * (b - a)
        n = np.array([-(b - a)[1], (b - a)[0]]) / np.hypot(*(b - a))
        assert np.all(model.decide(p + 1e-5 * size * n) != model.decide(p - 1e-5 * size * n))
    assert not window.canvas.ambiguous.isVisible()
    assert "hatch" not in window.message.text() and "hatch" not in window.message.toolTip()


def test_fisher_with_three_classes_draws_the_points_and_says_why_on_the_canvas(qtbot, window):
    assert window.open_path("example:three-in-a-line")
    settle(window)
    canvas = window.canvas
    assert not canvas.note.isVisible()
    for label, section in (("Fisher's discriminant", "4.1.4"), ("Perceptron", "4.1.7")):
        _choose(window.panel.model, label)
        settle(window)
        assert window.result.fit.model is None
        note = canvas.note
        assert note.isVisible() and f"separates two classes (Bishop {section}); this data has 3" in note.toPlainText()
        assert canvas.vb.viewRect().contains(note.pos())
        assert "this data has 3" in window.message.text()  # the status line says it too
        for k, item in enumerate(canvas.class_points[:3]):  # the points are there, every one
            assert item.isVisible()
            np.testing.assert_allclose(np.c_[item.getData()], window.doc.X[window.doc.labels == k])
    _choose(window.panel.model, "Least squares")
    settle(window)
    assert not canvas.note.isVisible() and window.result.scene.boundaries


def _row_transitions(image, x: int, y: int, half: int = 18) -> int:
    """How often a row of the canvas's pixels, ``half`` either side of (x, y), crosses between dark and light
    (stripes cross it again and again; a smooth heatmap does not)."""
    from PySide6.QtGui import QColor

    values = [QColor(image.pixel(x + d, y)).lightness() for d in range(-half, half + 1)]
    middle = (max(values) + min(values)) / 2
    dark = [v < middle for v in values]
    return sum(a != b for a, b in zip(dark, dark[1:])) if max(values) - min(values) > 25 else 0


def test_one_vs_rest_logistic_regression_hatches_its_undecided_regions_in_screen_pixels(qtbot, window):
    """Three classes, logistic regression (one-vs-rest): the canvas hatches the undecided regions as smooth
    polygons (the grid's image of them is not drawn): a row of the canvas's pixels deep inside an undecided
    region crosses stripes, one deep inside a decided region does not (read from the widget's own picture,
    away from the points and the lines a_k = 0)."""
    from guihelp import to_pixel
    from probviz.data.dataset import Dataset

    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(c, 0.5, (15, 2)) for c in ((-3, 0), (3, 0), (0, 4))])
    window.resize(1200, 800)
    window.load(Dataset(X, np.repeat([0, 1, 2], 15), ["a", "b", "c"]))
    window.doc.set_model("logistic")
    settle(window)
    canvas, sc, model = window.canvas, window.result.scene, window.result.fit.model
    assert sc.ambiguous_rings and canvas.undecided.isVisible() and not canvas.ambiguous.isVisible()
    image = canvas.grab().toImage()
    x0, x1, y0, y1 = canvas.view_bounds()
    u, v = np.meshgrid(np.linspace(x0, x1, 60)[3:-3], np.linspace(y0, y1, 40)[3:-3])
    G = np.c_[u.ravel(), v.ravel()]
    A = model.decision_function(G)
    claims = np.sum(A > 0, axis=1)
    norms = np.hypot(*np.asarray(model.coef_, float).reshape(len(A[0]), 2).T)
    px_per_unit = canvas.vb.width() / (x1 - x0)
    far = (np.min(np.abs(A) / norms, axis=1) * px_per_unit > 40)  # 40 pixels from every line a_k = 0
    far &= np.min(np.hypot(*(G[:, None, :] - X[None]).transpose(2, 0, 1)), axis=1) * px_per_unit > 40
    undecided, decided = G[far & (claims != 1)], G[far & (claims == 1)]
    assert len(undecided) and len(decided)
    for points, striped in ((undecided[:5], True), (decided[:5], False)):
        for x, y in points:
            p = canvas.mapTo(canvas, to_pixel(window, x, y))
            crossings = _row_transitions(image, p.x(), p.y())
            assert (crossings >= 4) == striped, ((x, y), crossings)


def test_the_note_on_a_narrow_canvas_is_wrapped_inside_the_plot_and_hides_no_point(qtbot, window):
    """A new user at 1024 x 768 saw the perceptron's note on three classes cut at both sides of the plot, one long
    line mid-view over a point. It wraps to the plot's width and sits at its top or bottom edge, whichever hides
    no point: its box (in scene pixels) inside the ViewBox's, and no point's pixel under it."""
    from PySide6.QtCore import QPointF

    assert window.open_path("example:three-in-a-line")
    window.resize(640, 600)
    settle(window)
    _choose(window.panel.model, "Perceptron")
    settle(window)
    canvas = window.canvas
    note = canvas.note
    assert note.isVisible() and "this data has 3" in note.toPlainText()
    box = note.mapRectToScene(note.boundingRect())
    plot = canvas.vb.mapRectToScene(canvas.vb.boundingRect())
    assert plot.contains(box), (box, plot)
    assert box.width() < 0.95 * plot.width() and box.height() > 2.5 * note.textItem.font().pointSizeF()  # wrapped
    for x, y in window.doc.X:
        assert not box.contains(canvas.vb.mapViewToScene(QPointF(x, y))), (x, y)
