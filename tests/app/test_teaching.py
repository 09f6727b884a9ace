"""Teaching with it: priors, the parameters and probe panels, the decision stage, presentation mode, figures."""

import re

import numpy as np
import pytest
from guihelp import click, drag, key, settle, to_pixel, type_into
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage

from probviz.data import examples
from probviz.scene import grid_axes


@pytest.fixture
def fruit(window):
    window.load(examples.load("fruit"))
    settle(window)
    return window


def boundary_line(win):
    """The two-class LDA boundary as (unit normal, offset) from its drawn end points."""
    (b,) = win.result.scene.boundaries
    p, q = b.xy[0], b.xy[-1]
    d = (q - p) / np.linalg.norm(q - p)
    n = np.array([-d[1], d[0]])
    n = n if n[1] > 0 else -n
    return n, float(n @ p)


def test_prior_slider_moves_the_lda_boundary_parallel(qtbot, fruit):
    n0, c0 = boundary_line(fruit)
    type_into(qtbot, fruit, fruit.panel.priors.fields[0], "0.3")  # p(apple) from 0.69 down to 0.30
    np.testing.assert_allclose(fruit.result.fit.model.priors_, [0.30, 0.70], atol=1e-9)
    n1, c1 = boundary_line(fruit)
    np.testing.assert_allclose(n1, n0, atol=1e-9)  # same direction: priors enter only via w_k0 (Bishop eq. 4.70)
    assert abs(c1 - c0) > 0.1  # a different offset
    # fewer apples expected: the apple region shrinks, so the boundary moves toward the apples
    assert c1 < c0
    assert "(set by hand)" in fruit.panel.priors.title()
    fruit.panel.priors.reset.click()
    settle(fruit)
    n2, c2 = boundary_line(fruit)
    assert c2 == pytest.approx(c0, abs=1e-9)


def test_parameters_panel_shows_the_models_numbers(qtbot, fruit):
    from reference import gaussian_ml, lda_two_class

    X, y = fruit.doc.X, fruit.doc.labels
    _, pi, mu, S = gaussian_ml(X, y, shared=True)  # eqs. 4.73-4.80, independently
    P = np.linalg.inv(S[0])
    text = fruit.panel.params.text.plain()
    assert f"π_apple = {pi[0]:.4g}" in text
    assert f"μ_peach = ({mu[1, 0]:.4g}, {mu[1, 1]:.4g})" in text
    w0_apple = -0.5 * mu[0] @ P @ mu[0] + np.log(pi[0])  # eq. 4.70
    assert f"w0_apple = {w0_apple:.4g}" in text
    w, w0 = lda_two_class(X, y)  # p(apple|x) = sigma(w^T x + w0), eqs. 4.65-4.67
    assert f"w = ({w[0]:.4g}, {w[1]:.4g}),  w0 = {w0:.4g}" in text
    assert "Parameters: 8" in text and "QDA 11" in text and "Logistic regression 3" in text
    latex = fruit.panel.params.copy("latex")
    assert QGuiApplication.clipboard().text() == latex
    assert r"\boldsymbol\Sigma = \begin{pmatrix}" in latex


def test_probe_explains_the_posterior_of_002(qtbot, fruit):
    text = fruit.panel.probe.text.plain()
    assert "x = (2.3, 1.5)" in text and "p(apple|x) = 0.8233" in text
    from reference import gaussian_explain

    e = gaussian_explain(fruit.doc.X, fruit.doc.labels, fruit.doc.probe, shared=True)  # scipy's densities
    for k, name in enumerate(("apple", "peach")):
        assert f"p(x|{name}) = {e['density'][k]:.4g}" in text and f"p({name}) = {e['prior'][k]:.3f}" in text
        assert f"a = ln p(x|{name})p({name}) = {e['a'][k]:.3f}" in text
        assert f"p({name}|x) = {e['posterior'][k]:.4f}" in text
    # drag the probe onto the peach mean: the panel follows
    target = tuple(fruit.result.fit.model.means_[1])
    drag(qtbot, fruit, fruit.doc.probe, target)
    assert np.allclose(fruit.doc.probe, target, atol=0.03)
    assert "p(peach|x) = 0.9" in fruit.panel.probe.text.plain()
    assert len(fruit.doc.X) == 250  # the probe moved, no point did


def test_shift_click_and_arrows_place_and_move_the_probe(qtbot, window):
    click(qtbot, window, 1, 1)
    qtbot.mouseClick(window.canvas.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.ShiftModifier, to_pixel(window, -2, 3))
    settle(window)
    assert np.allclose(window.doc.probe, (-2, 3), atol=0.03) and len(window.doc.X) == 1
    key(qtbot, window, Qt.Key.Key_Right)
    key(qtbot, window, Qt.Key.Key_Right)
    assert window.doc.probe[0] == pytest.approx(-2 + 2 * 0.02 * 10, abs=0.05)
    key(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the arrow moves: one step
    assert np.allclose(window.doc.probe, (-2, 3), atol=0.03)


def test_reject_threshold_greys_the_uncertain_band(qtbot, fruit):
    fruit.doc.set_layer("heatmap", False)
    fruit.doc.set_layer("decision", True)
    for lines in ("ellipses", "boundaries"):  # the region's pixels alone (antialiased lines tint their neighbours)
        fruit.doc.set_layer(lines, False)
    type_into(qtbot, fruit, fruit.panel.theta, "0.9")
    assert fruit.doc.theta == 0.9
    img = fruit.canvas.grab().toImage()
    P = fruit.result.scene.posterior
    xs, ys = grid_axes(fruit.result.scene.bounds, P.shape[1], P.shape[0])
    grey = QColor(*fruit.canvas.style.reject)
    checked = 0
    for r in range(8, P.shape[0], 23):
        for c in range(8, P.shape[1], 23):
            p = to_pixel(fruit, xs[c], ys[r])
            px = img.pixelColor(p.x(), p.y())
            if fruit.doc.X.size and np.min(np.hypot(*(fruit.doc.X - [xs[c], ys[r]]).T)) < 0.12:
                continue  # a point is drawn there
            if abs(P[r, c].max() - 0.9) < 0.03:
                continue  # too close to the threshold to judge one pixel
            is_grey = abs(px.red() - grey.red()) + abs(px.green() - grey.green()) + abs(px.blue() - grey.blue()) < 12
            assert is_grey == (P[r, c].max() < 0.9), (xs[c], ys[r], P[r, c], px.getRgb())
            checked += 1
    assert checked > 40


def test_presentation_mode_enlarges_text_and_markers(qtbot, fruit):
    axis = fruit.canvas.plotItem.getAxis("bottom")
    font0 = axis.style["tickFont"].pointSize()
    size0 = fruit.canvas.style.point_size
    key(qtbot, fruit, Qt.Key.Key_F5)
    assert fruit.presentation_action.isChecked() and not fruit.dock.isVisible()
    assert axis.style["tickFont"].pointSize() >= 1.7 * font0
    assert fruit.canvas.style.point_size >= 1.7 * size0
    assert fruit.canvas.class_points[0].opts["size"] == pytest.approx(fruit.canvas.style.point_size)  # drawn so
    assert fruit.canvas.legend is not None
    labels = [label.text for _, label in fruit.canvas.legend.items]
    assert labels == ["apple", "peach"]  # the caption names the model: the legend does not repeat it
    assert "LDA" in fruit.canvas.plotItem.titleLabel.text
    key(qtbot, fruit, Qt.Key.Key_M)  # keyboard only: the next model
    assert fruit.doc.model_name == "qda"
    assert "QDA" in fruit.canvas.plotItem.titleLabel.text
    assert [label.text for _, label in fruit.canvas.legend.items] == ["apple", "peach"]
    key(qtbot, fruit, Qt.Key.Key_F5)
    assert fruit.dock.isVisible() and fruit.canvas.style.point_size == size0


def test_l_cycles_layer_sets(qtbot, fruit):
    seen = []
    for _ in range(4):
        key(qtbot, fruit, Qt.Key.Key_L)
        seen.append(frozenset(fruit.doc.layers))
    assert len(set(seen)) == 4
    assert frozenset({"decision", "boundaries", "points"}) in seen


def test_dark_theme_changes_canvas_and_heatmap(qtbot, fruit):
    fruit.set_dark(True)
    settle(fruit)
    img = fruit.canvas.grab().toImage()
    corner = img.pixelColor(3, 3)
    assert corner.lightness() < 60
    fruit.set_dark(False)


@pytest.mark.parametrize("ext", ["png", "svg", "pdf"])
def test_export_image_from_the_gui(qtbot, fruit, tmp_path, ext, monkeypatch):
    out = tmp_path / f"figure.{ext}"

    def answer(dialog):
        assert dialog.legend.isChecked() and dialog.scale.value() == 180  # what the window shows
        dialog.path.setText(str(out))
        dialog.width_.setValue(640)
        dialog.height_.setValue(400)
        dialog.title.setText("Apple or peach?")
        return True

    import probviz.app.main_window as main_window

    seen = []
    real = main_window.export_figure
    monkeypatch.setattr(main_window, "export_figure", lambda session, **kw: seen.append(session) or real(session, **kw))
    fruit.canvas.vb.setRange(xRange=(0.0, 2.0), yRange=(0.5, 3.0), padding=0)
    fruit.doc.set_model("qda")
    settle(fruit)
    fruit.files.run_dialog = answer
    key(qtbot, fruit, Qt.Key.Key_F5)  # presentation mode: a legend, text at 180%
    key(qtbot, fruit, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert out.exists() and out.stat().st_size > 1000
    # the figure shows what the window shows: its view, its model, its layers
    (session,) = seen
    assert session.view == pytest.approx(fruit.canvas.view_bounds()) and session.model == "qda"
    assert set(session.layers) == fruit.doc.layers
    data = out.read_bytes()
    dpi = 150  # the dialog's default
    if ext == "png":
        img = QImage(str(out))
        assert (img.width(), img.height()) == (640, 400) and round(img.dotsPerMeterX() * 0.0254) == dpi
    elif ext == "svg":
        assert b'viewBox="0 0 640 400"' in data and b">Apple or peach?</text>" in data
        assert float(re.search(rb'width="([\d.]+)mm"', data).group(1)) == pytest.approx(640 / dpi * 25.4, rel=1e-3)
    else:
        box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)", data)
        assert data.startswith(b"%PDF")
        assert (float(box.group(1)), float(box.group(2))) == pytest.approx((640 * 72 / dpi, 400 * 72 / dpi), abs=0.5)


def test_gui_and_cli_draw_the_same_picture(qtbot, fruit, tmp_path):
    import subprocess
    import sys

    gui = tmp_path / "gui.png"
    cli = tmp_path / "cli.png"
    from probviz.app.export import export_figure

    from probviz.data.session import write_session

    key(qtbot, fruit, Qt.Key.Key_M)  # QDA, and a view of the window's own
    fruit.canvas.vb.setRange(xRange=(-0.5, 2.5), yRange=(0.0, 3.5), padding=0)
    settle(fruit)
    write_session(str(tmp_path / "s.probviz"), fruit.doc.to_session())
    export_figure(fruit.doc.to_session(), str(gui), 500, 400, title="T")
    r = subprocess.run([sys.executable, "-m", "probviz", "export", str(tmp_path / "s.probviz"), "-o", str(cli),
                        "--width", "500", "--height", "400", "--title", "T"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    a, b = QImage(str(gui)), QImage(str(cli))
    diff = sum(a.pixel(x, y) != b.pixel(x, y) for x in range(0, 500, 5) for y in range(0, 400, 5))
    assert diff < 0.01 * 100 * 80


def test_copy_plot_puts_an_image_on_the_clipboard(qtbot, fruit):
    key(qtbot, fruit, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    img = QGuiApplication.clipboard().image()
    assert img.width() == fruit.canvas.width() and img.height() == fruit.canvas.height()


def test_export_leaves_the_window_as_it_was(qtbot, fruit, tmp_path):
    from probviz.app.export import export_figure

    fruit.doc.set_layer("decision", True)
    settle(fruit)
    # the Lab's true errors arrive from the worker in their own time (a redraw, not a refit): wait for them
    qtbot.waitUntil(lambda: (settle(fruit), not fruit.result.errors_pending)[1], timeout=30_000)
    view, layers, index = fruit.canvas.view_bounds(), set(fruit.doc.layers), fruit.doc.undo_stack.index()
    frame = fruit.result
    export_figure(fruit.doc.to_session(), str(tmp_path / "f.png"), 300, 200, layers={"heatmap", "points"},
                  bounds=(0, 1, 0, 1))
    settle(fruit)
    assert fruit.canvas.view_bounds() == view and fruit.doc.layers == layers
    assert fruit.doc.undo_stack.index() == index and fruit.result is frame  # no edit, no refit


@pytest.mark.parametrize("model,param,value", [
    ("softmax", "basis", "quadratic"), ("logistic", "standardize", False), ("qda", "reg_covar", 0.25)])
def test_cli_fit_reports_the_windows_fit(qtbot, fruit, tmp_path, model, param, value):
    """One model, one answer: `probviz fit` on a saved session prints what the window fitted."""
    import json
    import subprocess
    import sys

    from probviz.data.session import write_session

    fruit.doc.set_model(model)
    fruit.doc.set_param(param, value)
    fruit.doc.set_priors([0.4, 0.6]) if model == "qda" else None
    settle(fruit)
    path = tmp_path / "s.probviz"
    write_session(str(path), fruit.doc.to_session())
    r = subprocess.run([sys.executable, "-m", "probviz", "fit", str(path), "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    m = fruit.result.fit.model
    assert getattr(m, param) == value
    if model == "qda":
        np.testing.assert_allclose(out["priors"], [0.4, 0.6], rtol=1e-12)
        np.testing.assert_allclose(out["covariances"], m.covariances_, rtol=1e-12)
    else:
        np.testing.assert_allclose(out["coef"], m.coef_, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(out["intercept"], m.intercept_, rtol=1e-9, atol=1e-12)
    assert out["accuracy"] == fruit.result.fit.summary["accuracy"]


def test_unbroken_keeps_short_fractions_equation_numbers_and_values_whole():
    """Breaks a new user saw in a real window: "p(C_k|x) = 1/" then "K", "(eq." then "4.140)", "(accuracy" then
    "33.3%)", "λ²" then "= π/8", "(α/" then "2)‖w‖²", "σ(a) ≈" then "Φ(λa)", "(Bishop" then "4.5.2)". Glued here;
    a slash before a longer word (a path, an address) is left free."""
    from probviz.app.teaching import unbroken

    assert unbroken("p(C_k|x) = 1/K at") == "p(C_k|\u2060x)\u00a0=\u00a01/\u2060K at"
    assert unbroken("λ² = π/8 (eq. 4.140) (accuracy 33.3%)") == \
        "λ²\u00a0=\u00a0π/\u20608 (eq.\u00a04.140) (accuracy\u00a033.3%)"
    assert unbroken("eqs. 4.92-4.99") == "eqs.\u00a04.92-4.99"
    assert unbroken("examples/trainingdata/observations.csv and Newton / IRLS") == \
        "examples/trainingdata/observations.csv and Newton / IRLS"
    assert unbroken("(α/2)‖w‖² and σ(a) ≈ Φ(λa) (Bishop 4.5.2)") == \
        "(α/\u20602)‖w‖² and σ(a)\u00a0≈\u00a0Φ(λa) (Bishop\u00a04.5.2)"
    assert unbroken("p(w|t) ∝ p(t|w)p(w); σ(μ_a ∓ σ_a)") == \
        "p(w|\u2060t)\u00a0∝\u00a0p(t|\u2060w)p(w); σ(μ_a\u00a0∓\u00a0σ_a)"
    # a short matrix breaks between its rows only (a projector's Parameters box left "0.3154]" alone on a line)
    assert unbroken("Σ = [0.203 0.1134; 0.1134 0.3154]") == "Σ\u00a0=\u00a0[0.203\u00a00.1134; 0.1134\u00a00.3154]"
    # a chain may break before its second relation (the probe's line in presentation mode), one relation never
    assert unbroken("a = ln p(x|C)p(C) = -4.9 ≈ -5\nx = 1   y = 2") == \
        "a\u00a0=\u00a0ln\u00a0p(x|\u2060C)p(C) =\u00a0-4.9 ≈\u00a0-5\nx\u00a0=\u00a01   y\u00a0=\u00a02"


def test_the_formula_labels_keep_their_height_while_the_hand_moves(qtbot):
    """A line of the parameters that wrapped in one frame of a drag and not in the next moved everything below it,
    frame after frame. Set while the hand moves (steady), a label keeps the tallest height it had since; set at
    rest, it takes its own."""
    from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

    from probviz.app.teaching import FormulaLabel

    box = QWidget()
    qtbot.addWidget(box)
    layout = QVBoxLayout(box)
    label, below = FormulaLabel(), QLabel("below")
    layout.addWidget(label)
    layout.addWidget(below)
    layout.addStretch()
    box.resize(300, 700)
    box.show()
    qtbot.waitExposed(box)

    def place(text, steady=False) -> int:
        label.setText(text, steady=steady)
        QApplication.processEvents()  # the layout's turn
        return below.y()

    def ink_top() -> int:  # the first row of the drawn label with text on it
        image = label.grab().toImage()
        text = label.palette().color(label.foregroundRole()).lightness()
        for y in range(image.height()):
            if any(abs(image.pixelColor(x, y).lightness() - text) < 60 for x in range(0, image.width(), 2)):
                return y
        return -1

    rows = ["Σ = ((1.234, -0.5678), (-0.5678, 2.345))"] * 4
    long = place("\n".join(rows))
    top = ink_top()
    assert place("π = 0.5", steady=True) == long  # the hand moves: the text needs less, the label keeps its place
    assert ink_top() == top >= 0  # and the text its own: at the top, the room the label keeps below it
    longer = place("\n".join(rows * 2), steady=True)
    assert longer > long  # it grows as a text needs
    assert label.height() == label.heightForWidth(label.width())  # to the height Qt gives the text (no more)
    assert place("\n".join(rows), steady=True) == longer
    short = place("π = 0.5")  # at rest: its own height
    assert short < long and place("\n".join(rows)) == long

    from PySide6.QtCore import QEvent, QObject

    class Requests(QObject):  # the layout requests that reach the box (each lays it out, and so on up)
        count = 0

        def eventFilter(self, obj, ev):  # noqa: N802
            self.count += ev.type() == QEvent.Type.LayoutRequest
            return False

    requests = Requests()
    box.installEventFilter(requests)
    place("\n".join(rows), steady=True)  # held from here on
    before = requests.count
    for text in ("π = 0.25", rows[0], "\n".join(rows[:3])):  # texts of the same height or less: nothing laid out
        place(text, steady=True)
    assert requests.count == before
    place("π = 0.25")
    assert requests.count > before  # (and one at rest, which takes its own height)


def test_a_held_label_measures_a_text_as_qt_lays_it_out(qtbot):
    """The height a held label grows to is its own ``heightForWidth`` (Qt's layout of its selectable text) for
    texts of wrapping terms, relations and vectors, at widths from narrow to wide, in a larger font too."""
    import random

    from PySide6.QtGui import QFont

    from probviz.app.teaching import FormulaLabel, unbroken

    label = FormulaLabel()
    qtbot.addWidget(label)
    rng = random.Random(5)
    terms = ["π₁", "μ₂ = (1.2345, -0.6789)", "Σ", "w₀ = -12.5", "ln|Σ| = 0.25", "p(C₁|x) ≈ 0.731",
             "Bishop eq. 4.68", "[[1.2, 0.3], [0.3, 2.2]]", "a_k = w_kᵀx + w_k0", "exp(-½ Δ²)"]
    for size in (None, 21):
        if size:
            font = QFont(label.font())
            font.setPointSize(size)
            label.setFont(font)
        for _ in range(60):
            text = "\n".join("  ".join(rng.choice(terms) for _ in range(rng.randint(1, 7)))
                             for _ in range(rng.randint(1, 6)))
            label.setText(text)
            for width in (90, 170, 260, 410):
                assert label._measure(unbroken(text), width) == label.heightForWidth(width), (text, width)


def test_a_drag_sets_the_parameters_and_the_probe_steady(qtbot, fruit):
    """The parameters and the probe's lines are set steady while a hand drags a point, and at rest after it."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    labels = (fruit.panel.params.text, fruit.panel.probe.text)
    vp = fruit.canvas.viewport()
    a = to_pixel(fruit, *fruit.doc.X[0])
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    held = 0
    for m in range(1, 6):
        QTest.qWait(15)  # (pyqtgraph drops mouse moves closer than 10 ms)
        qtbot.mouseMove(vp, QPoint(a.x() + 5 * m, a.y() - 3 * m))
        if fruit.canvas.drafting:  # (a machine too busy for a move in 150 ms rests the hand: its frame is exact)
            held += 1
            for label in labels:  # held at their height
                assert label.minimumHeight() == label.height() >= label.heightForWidth(label.width()) > 0
    assert held
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=QPoint(a.x() + 15, a.y() - 9))
    settle(fruit)
    qtbot.waitUntil(lambda: not fruit.canvas.drafting and all(label.minimumHeight() == 0 for label in labels))
