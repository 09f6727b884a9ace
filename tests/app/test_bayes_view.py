"""The Bayesian view of logistic regression, pressed as a lecturer presses it on the fruit: tick the view,
the predictive heatmap, its variance and the boundary samples, let the evidence choose alpha, undo it.
Each picture checked against Bishop's formulas written out here (eqs. 4.143, 4.149-4.155)."""

import numpy as np
import pytest
from guihelp import click, settle
from pressing import choose, press_button
from scipy.special import expit, log_expit

from probviz import scene
from probviz.models import MODEL_NAMES


def _bayesian_logistic(qtbot, win):
    assert win.open_path("example:fruit")
    settle(win)
    choose(qtbot, win.panel.model, MODEL_NAMES.index("logistic"))
    settle(win)
    for layer in ("predictive", "variance", "samples"):  # nothing to draw yet: the boxes say why
        assert not win.panel.layer_boxes[layer].isEnabled()
    press_button(qtbot, win.panel.param_widgets["bayes"])
    settle(win)
    assert win.doc.params["logistic"]["bayes"] is True
    return win.canvas.frame.fit.model


def _grid(frame):
    xs, ys = scene.grid_axes(frame.request.bounds, *frame.request.shape)
    G = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
    return G, len(ys), len(xs)


def _moments(lap, G):
    """mu_a = w^T phi and sigma_a^2 = phi^T S_N phi on the features the view reports (bias first)."""
    Phi = np.column_stack([np.ones(len(G)), (G - lap.center) / lap.scale])
    w, S = lap.w_map[0], lap.cov[0]
    return Phi @ w, np.einsum("nf,fg,ng->n", Phi, S, Phi)


def test_the_view_fits_w_map_and_draws_the_predictive_distribution(qtbot, window):
    win = window
    model = _bayesian_logistic(qtbot, win)
    lap = model.laplace_
    assert lap.alpha == 1.0  # the default prior: a unit Gaussian on each standardized weight
    # w_MAP: the gradient of the negative log posterior (eq. 4.142, the bias in the prior) vanishes
    X, t = win.doc.X, (win.doc.labels == 1).astype(float)
    Phi = np.column_stack([np.ones(len(X)), (X - lap.center) / lap.scale])
    w = lap.w_map[0]
    assert np.max(np.abs(Phi.T @ (expit(Phi @ w) - t) + lap.alpha * w)) < 1e-8 * len(X)
    y = expit(Phi @ w)  # S_N^-1 = alpha I + sum y (1 - y) phi phi^T (eq. 4.143)
    np.testing.assert_allclose(np.linalg.inv(lap.cov[0]), np.eye(3) + (Phi * (y * (1 - y))[:, None]).T @ Phi,
                               rtol=1e-9)
    text = win.panel.params.text.plain()
    log_ev = np.sum(log_expit((2 * t - 1) * (Phi @ w))) - 0.5 * w @ w - 0.5 * np.linalg.slogdet(np.linalg.inv(lap.cov[0]))[1]
    assert "α = 1;" in text and f"ln p(D|α) ≈ {log_ev:.4f} (eq. 4.137)" in text
    # the plug-in heatmap first, then the predictive one, by ticking its box
    frame = win.canvas.frame
    G, rows, cols = _grid(frame)
    mu, s2 = _moments(lap, G)
    np.testing.assert_allclose(frame.scene.posterior[..., 1].ravel(), expit(mu), atol=2e-6)
    press_button(qtbot, win.panel.layer_boxes["predictive"])
    settle(win)
    frame = win.canvas.frame
    moderated = expit(mu / np.sqrt(1 + np.pi * s2 / 8))  # eqs. 4.153-4.155
    np.testing.assert_allclose(frame.scene.posterior[..., 1].ravel(), moderated, atol=2e-6)
    np.testing.assert_array_equal(win.canvas.heatmap.image, frame.scene.image)  # what the canvas shows
    # away from the data the predictive distribution comes back towards 1/2; the boundary stays
    far = np.argmax(s2)
    assert abs(moderated[far] - 0.5) < abs(expit(mu[far]) - 0.5)
    assert [b.xy.shape for b in frame.scene.boundaries] == [b.xy.shape for b in frame.scene.boundaries[:1]]
    # the probe says the heatmap's number, p(C|x, D), and the panel both approximations of it
    m, v = _moments(lap, np.array([frame.request.probe]))
    p_peach = float(expit(m / np.sqrt(1 + np.pi * v / 8))[0])
    name, value = ("apple", 1 - p_peach) if p_peach < 0.5 else ("peach", p_peach)
    assert win.canvas.frame.probe.label == f"p({name}|x,D) = {value:.3f}"
    assert f"p({name}|x,D): moderated {value:.4f} (eq. 4.155)" in "\n".join(frame.probe.lines)


def test_the_variance_veil_and_the_boundary_samples(qtbot, window):
    win = window
    _bayesian_logistic(qtbot, win)
    press_button(qtbot, win.panel.layer_boxes["variance"])
    press_button(qtbot, win.panel.layer_boxes["samples"])
    settle(win)
    frame = win.canvas.frame
    lap = frame.fit.model.laplace_
    G, rows, cols = _grid(frame)
    s2 = _moments(lap, G)[1]
    veil = frame.scene.shade[..., 3].ravel().astype(float)
    np.testing.assert_allclose(veil, scene.SHADE_ALPHA * s2 / (scene.SHADE_HALF + s2), atol=0.51)  # rounded to a byte
    assert veil[np.argmax(s2)] > 3 * veil[np.argmin(s2)]  # thicker away from the data
    np.testing.assert_array_equal(win.canvas.shade.image, frame.scene.shade)
    assert win.canvas.shade.isVisible()
    samples = frame.scene.samples
    assert len(samples) == scene.SAMPLES  # one line each (linear basis, two classes)
    # each sample is a line w^T phi = 0 of some w: its points solve one linear equation, and the lines
    # differ (the posterior has spread) but stay near the w_MAP boundary on the data
    angles = []
    for xy in samples:
        xy = xy[np.all(np.isfinite(xy), axis=1)]
        d = xy[-1] - xy[0]
        angles.append(np.arctan2(d[1], d[0]) % np.pi)
        r = xy - xy[0]
        resid = (d[0] * r[:, 1] - d[1] * r[:, 0]) / np.hypot(*d)  # distance off the chord
        assert np.max(np.abs(resid)) < 1e-6 * np.hypot(*d)
    assert 1e-3 < np.std(angles) < 0.5
    x, y = win.canvas.samples.getData()
    assert np.count_nonzero(np.isfinite(x)) >= 2 * scene.SAMPLES  # on the canvas


def test_the_evidence_chooses_alpha_in_one_undo_step(qtbot, window):
    from probviz.models.bayes import fit_laplace

    win = window
    _bayesian_logistic(qtbot, win)
    press_button(qtbot, win.panel.evidence_button)  # searched on a thread of its own: the window stays live
    assert not win.panel.evidence_button.isEnabled() and win.panel.evidence_button.text() == "Choosing α…"
    qtbot.waitUntil(lambda: win.doc.params["logistic"]["alpha"] != 1.0, timeout=20_000)
    settle(win)
    assert win.panel.evidence_button.isEnabled()
    alpha = win.doc.params["logistic"]["alpha"]
    assert alpha != 1.0 and win.canvas.frame.fit.model.laplace_.alpha == alpha
    X, codes = win.doc.X, win.doc.labels

    def evidence(a):  # the Laplace evidence, tested against a brute-force integral in test_bayes
        return fit_laplace(X, codes, 2, a).total_log_evidence
    assert all(evidence(alpha * f) <= evidence(alpha) + 1e-9 for f in (0.9, 0.99, 1.01, 1.1))
    assert f"α = {alpha:.4g};  ln p(D|α) ≈ {evidence(alpha):.4f}" in win.panel.params.text.plain()
    note = win.panel.evidence_note
    assert note.isVisible() and note.text().startswith(f"α = {alpha:.4g} maximises the evidence")
    click(qtbot, win, 3.3, -0.5)  # a point more: that alpha maximised the evidence of the points before it
    settle(win)
    assert len(win.doc.X) == 251 and not note.isVisible()
    assert evidence(alpha) < max(fit_laplace(win.doc.X, win.doc.labels, 2, alpha * f).total_log_evidence
                                 for f in (0.9, 1.1))  # (it no longer does)
    [undo] = [a for a in win.menuBar().actions() if a.text().replace("&", "") == "Edit"][0].menu().actions()[:1]
    undo.trigger()  # Edit > Undo: the point taken back
    settle(win)
    [undo] = [a for a in win.menuBar().actions() if a.text().replace("&", "") == "Edit"][0].menu().actions()[:1]
    assert undo.text().replace("&", "") == "Undo Choose α by the evidence"  # one step, named
    undo.trigger()  # Edit > Undo
    settle(win)
    assert win.doc.params["logistic"]["alpha"] == 1.0 and win.doc.params["logistic"]["bayes"] is True


@pytest.mark.parametrize("layer", ["predictive", "variance", "samples"])
def test_bayesian_layers_are_off_limits_without_the_view(qtbot, window, layer):
    win = window
    assert win.open_path("example:fruit")
    settle(win)
    box = win.panel.layer_boxes[layer]
    assert not box.isEnabled() and "Bayesian view" in box.toolTip()


@pytest.mark.parametrize("ext,dpi,reader", [("png", 96, "png"), ("pdf", 300, "pdf"), ("svg", 150, "svg-resvg")])
def test_exported_boundary_samples_sit_where_the_axes_say(qapp, tmp_path, ext, dpi, reader):
    """The boundary cloud alone in a figure: every inked pixel of the plot, mapped back through the ticks,
    lies on one of the sampled lines, and every line is inked along its length, in each format as an
    independent renderer reads it."""
    from test_figures import BLUE, H, ORANGE, VIEW, W, axis_ticks, raster

    from probviz.app.export import export_figure
    from probviz.data.dataset import Dataset
    from probviz.data.session import Session
    from probviz.style import Style

    rng = np.random.default_rng(4)
    X = np.vstack([rng.normal([1.0, 1.0], 0.7, (8, 2)), rng.normal([2.2, 1.4], 0.7, (8, 2))])
    data = Dataset(X, np.repeat([0, 1], 8), ["a", "b"], [BLUE, ORANGE], ("x", "y"))
    session = Session(data, "logistic", params={"logistic": {"bayes": True, "alpha": 1.0}}, layers=["samples"],
                      view=VIEW)
    path = str(tmp_path / f"s.{ext}")
    style = Style(1.0, False)
    frame = export_figure(session, path, W, H, legend=False, dpi=dpi, style=style)
    lines = frame.scene.samples
    assert len(lines) == scene.SAMPLES
    rgb = raster(path, reader)
    xt, yt, row, col = axis_ticks(rgb, style.foreground)
    dx, dy = np.mean(np.diff(xt)), np.mean(np.diff(yt))
    ink = np.abs(rgb - 255).sum(axis=2) > 60
    ink[row - 3:, :] = False  # the axes and what is outside the plot
    ink[:, :col + 3] = False
    rows, cols = np.nonzero(ink)
    px = np.c_[(cols - xt[0]) / dx - 1.0, (yt[-1] - rows) / dy - 1.0]  # pixel -> data (ticks at whole numbers)

    def distance(p, xy):  # to the segment xy[0]-xy[-1] (each sample is one straight line)
        a, b = xy[0], xy[-1]
        t = np.clip((p - a) @ (b - a) / ((b - a) @ (b - a)), 0, 1)
        return np.hypot(*(p - (a + t[:, None] * (b - a))).T)

    segments = [xy[np.all(np.isfinite(xy), axis=1)] for xy in lines]
    near = np.min([distance(px, xy) for xy in segments], axis=0)
    assert np.mean(near < 2.5 / dx) > 0.99  # inked pixels are on the lines (antialiasing aside)
    for xy in segments:  # and each line is drawn along its length
        t = np.linspace(0.05, 0.95, 40)[:, None]
        along = xy[0] + t * (xy[-1] - xy[0])
        c = np.rint(xt[0] + (along[:, 0] + 1.0) * dx).astype(int)
        r = np.rint(yt[-1] - (along[:, 1] + 1.0) * dy).astype(int)
        inside = (r > 0) & (r < row - 3) & (c > col + 3) & (c < rgb.shape[1] - 1)
        hit = [np.any(np.abs(rgb[ri - 1:ri + 2, ci - 1:ci + 2] - 255).sum(axis=2) > 20) for ri, ci in zip(r[inside], c[inside])]
        assert np.mean(hit) > 0.9


def test_the_view_names_itself_and_greys_out_what_it_replaces(qtbot, window):
    """The caption and legend say "Bayesian, α = …"; the hover readout gives the heatmap's p(C|x,D); the
    l2 field is greyed out while the prior replaces it, the α field while there is no prior."""
    from guihelp import to_pixel

    win = window
    assert win.open_path("example:fruit")
    settle(win)
    choose(qtbot, win.panel.model, MODEL_NAMES.index("logistic"))
    settle(win)
    fields = win.panel.param_widgets
    assert fields["l2"].isEnabled() and not fields["alpha"].isEnabled()
    press_button(qtbot, fields["bayes"])
    settle(win)
    assert not fields["l2"].isEnabled() and fields["alpha"].isEnabled()
    assert win._shown_label() == "Logistic regression, Bayesian, α = 1"
    press_button(qtbot, win.panel.layer_boxes["predictive"])
    settle(win)
    lap = win.canvas.frame.fit.model.laplace_
    x = (3.3, 0.2)  # off the data, near the boundary: the predictive and the plug-in part
    qtbot.mouseMove(win.canvas.viewport(), to_pixel(win, *x))
    settle(win)
    shown = win.hover.text()
    at = np.array(win.canvas.vb.mapSceneToView(win.canvas.mapToScene(to_pixel(win, *x))).toTuple())
    m, v = _moments(lap, at[None])
    p = float(expit(m / np.sqrt(1 + np.pi * v / 8))[0])
    assert f"p(peach|x,D) = {p:.3f}" in shown and f"p(apple|x,D) = {1 - p:.3f}" in shown
    assert abs(p - float(expit(m)[0])) > 0.01  # the plug-in's number would read differently


def test_the_lab_section_draws_the_predictive_curve_and_its_band(qtbot, window):
    """The Section tool dragged across the fruit with the Bayesian view on: the Lab plots, beside the
    plug-in p(C_k|x), the moderated p(C_k|x,D) (dash-dot), the central 68% of p(C_k|x) under q(w) shaded,
    and Phi(lambda a) dotted, each from w_MAP and S_N written out here; its key says so."""
    import pyqtgraph as pg
    from guihelp import drag, key, show_lab
    from PySide6.QtCore import Qt
    from scipy.special import ndtr

    win = window
    lap = _bayesian_logistic(qtbot, win).laplace_
    show_lab(win)
    win.activateWindow()  # the model list's popup had the keyboard: a person's next key goes to the window
    qtbot.waitUntil(win.isActiveWindow, timeout=2000)
    key(qtbot, win, Qt.Key.Key_X)
    assert win.canvas.tool == "section"
    drag(qtbot, win, (0.5, 0.5), (4.0, 3.0))
    a, b = win.doc.view_state.section
    sec = win.lab.section
    P = np.asarray(a) + np.outer(sec.t / sec.t[-1], np.subtract(b, a))
    mu, s2 = _moments(lap, P)
    p = expit(mu / np.sqrt(1 + np.pi * s2 / 8))
    items = win.lab.section_plot.plotItem.items
    dashdot = [c for c in items if isinstance(c, pg.PlotDataItem) and c.opts["pen"].style() == Qt.PenStyle.DashDotLine]
    assert len(dashdot) == 2
    np.testing.assert_allclose(dashdot[1].yData, p, rtol=1e-9)
    np.testing.assert_allclose(dashdot[0].yData, 1 - p, rtol=1e-9, atol=1e-15)
    fills = [c for c in items if isinstance(c, pg.FillBetweenItem)]
    assert len(fills) == 2
    upper = fills[1].curves[1].getData()[1]
    np.testing.assert_allclose(upper, expit(mu + np.sqrt(s2)), rtol=1e-9)
    ink = pg.mkColor(*win.canvas.style.foreground).name()  # the theme's: black here

    def dotted():
        return [c for c in win.lab.section_plot.plotItem.items if isinstance(c, pg.PlotDataItem)
                and c.opts["pen"].style() == Qt.PenStyle.DotLine and c.opts["pen"].color().name() == ink]

    assert len(dotted()) == 1 and pg.mkColor(ink).lightness() < 40
    np.testing.assert_allclose(dotted()[0].yData, ndtr(np.sqrt(np.pi / 8) * mu), rtol=1e-9)
    text = win.lab.section_key.text()
    assert "p(C_k|\u2060x,D)" in text and "λ²\u00a0=\u00a0π/\u20608" in text  # never broken inside (unbroken)
    text = text.replace("\u2060", "").replace("\u00a0", " ")
    assert "predictive p(C_k|x,D)" in text and "central 68% under q(w)" in text and "Φ(λa) of p(peach|x)" in text
    assert "black dotted" in text
    # the dark theme: that curve was drawn in #222222 on the plot's near-black, unseen, while the key said black
    from guihelp import menu_action

    menu_action(win, "Dark theme").trigger()
    settle(win)
    try:
        ink = pg.mkColor(*win.canvas.style.foreground).name()
        assert pg.mkColor(ink).lightness() > 200 and len(dotted()) == 1
        assert "white dotted" in win.lab.section_key.text().replace("\u00a0", " ")
    finally:
        menu_action(win, "Dark theme").trigger()
        settle(win)


def test_an_evidence_answer_for_points_edited_meanwhile_is_not_applied(qtbot, window, monkeypatch):
    """Press the button, then add a point before the answer comes: alpha stays, and the status says why."""
    import threading

    from guihelp import click

    from probviz import bayes_view

    clicked = threading.Event()
    search = bayes_view.evidence_fit

    def slow(*args):  # the search answers only once the point is in, however fast this machine is
        clicked.wait(10)
        return search(*args)

    monkeypatch.setattr(bayes_view, "evidence_fit", slow)
    win = window
    _bayesian_logistic(qtbot, win)
    shown = []
    win.panel.message.connect(shown.append)
    press_button(qtbot, win.panel.evidence_button)
    click(qtbot, win, 3.3, -0.5)  # a point, added while the evidence is searched: the window is live
    clicked.set()
    qtbot.waitUntil(lambda: win.panel.evidence_button.isEnabled(), timeout=20_000)
    settle(win)
    assert win.doc.params["logistic"]["alpha"] == 1.0 and len(win.doc.X) == 251
    assert shown[-1] == "Choose α: the points or the model changed meanwhile; press it again"


def test_the_evidence_chooses_the_basis_with_its_alpha_in_one_undo_step(qtbot, window):
    """"Choose the basis by the evidence" on XOR: no line separates it, so a curved basis wins; the chosen basis
    and alpha are the largest evidence among the three, each at its own best alpha (brute force here)."""
    from probviz.models.bayes import fit_laplace

    win = window
    assert win.open_path("example:xor")
    settle(win)
    choose(qtbot, win.panel.model, MODEL_NAMES.index("logistic"))
    settle(win)
    press_button(qtbot, win.panel.basis_button)
    qtbot.waitUntil(lambda: win.panel.basis_button.isEnabled() and win.doc.params["logistic"]["bayes"],
                    timeout=60_000)
    settle(win)
    chosen = win.doc.params["logistic"]
    X, codes = win.doc.X, win.doc.labels

    def best(basis):  # the evidence's maximum over a fine grid of alpha
        return max(fit_laplace(X, codes, 2, a, basis).total_log_evidence for a in np.geomspace(1e-4, 1e3, 57))

    scores = {b: best(b) for b in ("linear", "quadratic", "cubic")}
    assert chosen["basis"] == max(scores, key=scores.get) != "linear"
    note = win.panel.evidence_note.text()  # the three evidences stay in view, beside the buttons
    assert note.startswith("The evidence ln p(D) (Bishop eq. 4.137), each basis at its best α: linear ")
    assert note.endswith(f": {chosen['basis']} it is") and win.panel.evidence_note.isVisible()
    assert fit_laplace(X, codes, 2, chosen["alpha"], chosen["basis"]).total_log_evidence >= \
        scores[chosen["basis"]] - 1e-6
    undo = [a for a in win.menuBar().actions() if a.text().replace("&", "") == "Edit"][0].menu().actions()[0]
    assert undo.text().replace("&", "") == "Undo Choose the basis by the evidence"
    undo.trigger()
    settle(win)
    assert win.doc.params["logistic"]["basis"] == "linear" and win.doc.params["logistic"]["bayes"] is False
