"""Radial basis functions in the window (Bishop 4.3.1, figure 4.12): "rbf" chosen in the basis combo as a
person picks it, centres typed into their field (Enter applies, one undo step), the width in its number box;
the centres drawn as open diamonds where the axes say; a bad text said and not taken; saved in sessions."""

import numpy as np
from guihelp import settle, type_into
from pressing import choose
from PySide6.QtCore import QPointF, Qt


def _type(qtbot, field, text):
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def _drawn_centres(window) -> np.ndarray:
    """Where the canvas draws the diamonds, in data units: each marker's scene position mapped back
    through the view box (what the axes say is there)."""
    item = window.canvas.rbf_centers
    out = []
    for spot in item.points():
        scene = item.mapToScene(spot.pos())
        view = window.canvas.vb.mapSceneToView(scene)
        out.append((view.x(), view.y()))
    return np.array(out).reshape(-1, 2)


def _choose_model(qtbot, window, name):
    combo = window.panel.model
    choose(qtbot, combo, [combo.itemText(i) for i in range(combo.count())].index(
        next(combo.itemText(i) for i in range(combo.count()) if name.lower() in combo.itemText(i).lower())))
    settle(window)


def test_choose_rbf_type_centres_see_them_and_undo(qtbot, window):
    window.open_example("xor")
    settle(window)
    window.canvas.vb.setRange(xRange=(-3, 3), yRange=(-3, 3), padding=0)
    _choose_model(qtbot, window, "softmax")
    assert window.doc.model_name == "softmax"
    centers, width = window.panel.param_widgets["centers"], window.panel.param_widgets["width"]
    assert not centers.isEnabled() and not width.isEnabled()  # for the rbf basis only
    assert window.canvas.rbf_centers.points().size == 0  # a polynomial basis has no centres to draw
    basis = window.panel.param_widgets["basis"]
    choose(qtbot, basis, basis.findText("rbf"))
    settle(window)
    assert window.doc.params["softmax"]["basis"] == "rbf" and centers.isEnabled()
    assert not window.panel.param_widgets["standardize"].isEnabled()  # no effect on Gaussians in data units
    model = window.result.fit.model
    assert model.centers_.shape == (9, 2)  # the default lattice, drawn
    np.testing.assert_allclose(_drawn_centres(window), model.centers_, atol=1e-9)
    assert width.spin.text() == "auto"

    _type(qtbot, centers, "-1,-1;1,1;-1,1;1,-1")
    settle(window)
    assert window.doc.params["softmax"]["centers"] == "-1,-1;1,1;-1,1;1,-1"
    C = np.array([[-1, -1], [1, 1], [-1, 1], [1, -1]], float)
    np.testing.assert_array_equal(window.result.fit.model.centers_, C)
    np.testing.assert_allclose(_drawn_centres(window), C, atol=1e-9)
    # and where the axes say: the marker's pixel is the data point's pixel
    for c, (x, y) in zip(C, _drawn_centres(window)):
        a = window.canvas.vb.mapViewToScene(QPointF(*c))
        b = window.canvas.vb.mapViewToScene(QPointF(x, y))
        assert abs(a.x() - b.x()) < 0.5 and abs(a.y() - b.y()) < 0.5
    assert window.result.fit.model.accuracy(window.doc.X, window.doc.labels) > 0.95  # xor, solved by four bumps

    type_into(qtbot, window, width, "0.7")
    assert window.doc.params["softmax"]["width"] == 0.7 and window.result.fit.model.width_ == 0.7

    window.doc.undo_stack.undo()  # the width
    window.doc.undo_stack.undo()  # the centres
    settle(window)
    assert window.doc.params["softmax"]["centers"] == "" and centers.text() == ""
    assert window.result.fit.model.centers_.shape == (9, 2)

    _type(qtbot, centers, "1,2;x")  # refused by the parameter: nothing changes
    settle(window)
    assert window.doc.params["softmax"]["centers"] == "" and centers.text() == ""

    window.doc.undo_stack.undo()  # the basis: back to linear, no diamonds
    settle(window)
    assert window.doc.params["softmax"]["basis"] == "linear" and _drawn_centres(window).size == 0
    assert not centers.isEnabled()


def test_centres_are_saved_and_reopened_and_in_the_legend(qtbot, window, monkeypatch, tmp_path):
    window.open_example("xor")
    window.doc.set_model("logistic")
    window.doc.set_param("basis", "rbf")
    settle(window)
    _type(qtbot, window.panel.param_widgets["centers"], "0.5,0.5;-0.5,-0.5")
    settle(window)
    path = tmp_path / "rbf.probviz"
    monkeypatch.setattr("probviz.app.fileops.QFileDialog.getSaveFileName", lambda *a, **k: (str(path), ""))
    assert window.files.save()
    window.doc.new()
    settle(window)
    assert window.doc.params["logistic"]["centers"] == ""
    assert window.open_path(str(path))
    settle(window)
    assert window.panel.param_widgets["centers"].text() == "0.5,0.5;-0.5,-0.5"
    np.testing.assert_array_equal(window.result.fit.model.centers_, [[0.5, 0.5], [-0.5, -0.5]])
    from probviz.figure_layout import legend_key

    frame = window.canvas.frame
    assert ("RBF centres", "diamond") in legend_key(frame.request.specs, frame, frame.request)


def test_drag_a_centre_on_the_canvas_and_undo(qtbot, window):
    from guihelp import drag

    window.open_example("xor")
    window.doc.set_model("softmax")
    window.doc.set_param("basis", "rbf")
    settle(window)
    window.canvas.vb.setRange(xRange=(-3, 3), yRange=(-3, 3), padding=0)
    _type(qtbot, window.panel.param_widgets["centers"], "-1,-1;1,1;-1,1;1,-1")
    settle(window)
    before = window.doc.undo_stack.count()
    drag(qtbot, window, (1.0, 1.0), (1.5, 0.5))  # grab the diamond at (1, 1), drop it at (1.5, 0.5)
    assert window.doc.undo_stack.count() == before + 1  # the whole drag: one undo step
    C = window.result.fit.model.centers_
    pw, ph = window.canvas.vb.viewPixelSize()
    assert abs(C[1, 0] - 1.5) <= 2 * pw and abs(C[1, 1] - 0.5) <= 2 * ph  # where the hand let go (a pixel)
    np.testing.assert_array_equal(C[[0, 2, 3]], [[-1, -1], [-1, 1], [1, -1]])  # the others stay
    assert window.panel.param_widgets["centers"].text() == window.doc.params["softmax"]["centers"]
    np.testing.assert_allclose(_drawn_centres(window), C, atol=1e-9)
    assert not window.result.fit.draft  # the hand at rest: the exact fit
    window.doc.undo_stack.undo()
    settle(window)
    assert window.doc.params["softmax"]["centers"] == "-1,-1;1,1;-1,1;1,-1"
    assert len(window.doc.X) == 160  # the drag added or moved no point


def test_the_bayesian_view_and_the_evidence_for_alpha_are_greyed_for_rbf_saying_why(qtbot, window):
    """Logistic regression with the rbf basis: the Laplace view takes the polynomial bases only, so its box and
    "Choose α by the evidence" are greyed with a tooltip that says so; a polynomial basis gives them back."""
    _choose_model(qtbot, window, "logistic")
    panel = window.panel
    bayes, basis = panel.param_widgets["bayes"], panel.param_widgets["basis"]
    assert bayes.isEnabled() and panel.evidence_button.isEnabled()
    choose(qtbot, basis, basis.findText("rbf"))
    assert window.doc.params["logistic"]["basis"] == "rbf"
    assert not bayes.isEnabled() and not panel.evidence_button.isEnabled()
    assert "linear, quadratic and cubic" in bayes.toolTip() and "linear, quadratic or cubic" in \
        panel.evidence_button.toolTip()
    choose(qtbot, basis, basis.findText("quadratic"))
    assert bayes.isEnabled() and panel.evidence_button.isEnabled()
    assert "linear, quadratic and cubic bases; choose" not in bayes.toolTip()


def test_the_feature_space_button_shows_the_points_at_phi_and_the_boundary_as_a_line(qtbot, window, monkeypatch):
    """Logistic regression on XOR with two centres: "Feature space (φ₁, φ₂)…" shows each point at
    (exp(-|x - mu_1|^2 / 2s^2), exp(-|x - mu_2|^2 / 2s^2)) written out here, and one straight boundary that puts
    every point on the side of the class the model decides for it; it follows the canvas (a new width)."""
    import pyqtgraph as pg
    from pressing import press_button

    from probviz.app.feature_view import FeatureSpaceDialog

    assert window.open_path("example:xor")
    settle(window)
    _choose_model(qtbot, window, "logistic")
    panel = window.panel
    basis = panel.param_widgets["basis"]
    assert not panel.feature_button.isEnabled()
    choose(qtbot, basis, basis.findText("rbf"))
    _type(qtbot, panel.param_widgets["centers"], "1,1;-1,-1")
    settle(window)
    opened = []
    shown = FeatureSpaceDialog.show
    monkeypatch.setattr(FeatureSpaceDialog, "show", lambda self: (opened.append(self), shown(self)))
    press_button(qtbot, panel.feature_button)
    [dialog] = opened
    model, X = window.canvas.frame.fit.model, window.doc.X
    s = model.scores_.width
    phi = np.column_stack([np.exp(-np.sum((X - mu) ** 2, axis=1) / (2 * s * s)) for mu in ([1, 1], [-1, -1])])
    drawn = np.vstack([np.column_stack(item.getData()) for item in dialog.plot.plotItem.items
                       if isinstance(item, pg.ScatterPlotItem)])
    np.testing.assert_allclose(np.sort(drawn, axis=0), np.sort(phi, axis=0), atol=1e-12)
    [line] = [item for item in dialog.plot.plotItem.listDataItems() if item.name() and "boundary" in item.name()]
    (u0, v0), (u1, v1) = np.column_stack(line.getData())[[0, -1]]
    side = (u1 - u0) * (phi[:, 1] - v0) - (v1 - v0) * (phi[:, 0] - u0)  # which side of the line each point is on
    decided = model.predict(X)
    above, below = set(decided[side > 0]), set(decided[side < 0])
    assert len(above) == 1 and len(below) == 1 and above != below  # the line parts the model's decisions
    type_into(qtbot, window, panel.param_widgets["width"], "0.8")
    settle(window)
    assert window.canvas.frame.fit.model.scores_.width == 0.8
    assert "width s = 0.8" in dialog.note.text()
    dialog.close()
