"""The Training dock's Step button, clicked as a person clicks it."""

from PySide6.QtCore import Qt

from guihelp import settle
from probviz.data import examples


def test_each_click_of_step_takes_one_step(qtbot, settings_kept, window):
    session = examples.session("fruit")
    session.model = "logistic"
    window.load_session(session)
    window.training_dock.raise_()
    settle(window)
    t = window.training
    for clicks in (1, 2, 3):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)
        assert t.view is not None and t.view.index == clicks
        assert f"step {clicks}" in t.readout.text()


def test_a_training_step_on_screen_is_named_as_such_in_the_legend_the_status_line_and_the_export(
        qtbot, settings_kept, window, monkeypatch, tmp_path):
    """Three clicks on Step draw step 3 instead of the fit: the status line and File › Export say "Logistic
    regression, Gradient descent, step 3" (as `probviz export --steps 3` does), the legend on screen the same with
    the optimizer's short name ("GD"), not the fitted model's name alone; showing the fit again names the model
    only."""
    import pypdfium2 as pdfium
    from pressing import press_button
    from test_screen_and_export import _menu_action

    session = examples.session("fruit")
    session.model = "logistic"
    window.load_session(session)
    window.training_dock.raise_()
    settle(window)
    for _ in range(3):
        qtbot.mouseClick(window.training.step_button, Qt.MouseButton.LeftButton)
        settle(window)
    named = "Logistic regression, Gradient descent, step 3"
    assert window.message.text().split("·")[0].strip() == named
    _menu_action(window, "View", "Legend").trigger()  # View › Legend on
    settle(window)
    legend = [label.text for _, label in window.canvas.legend.items]
    assert "<b>Logistic regression, GD, step 3</b>" in legend, legend

    def answer(dialog):
        dialog.path.setText(str(tmp_path / "step.pdf"))
        dialog.legend.setChecked(True)
        return True

    monkeypatch.setattr(window.files, "run_dialog", answer)
    _menu_action(window, "File", "Export image…").trigger()
    text = pdfium.PdfDocument(str(tmp_path / "step.pdf"))[0].get_textpage().get_text_range()
    assert named in " ".join(text.split())
    press_button(qtbot, window.training.active)  # untick "Show the training step": the fit again
    settle(window)
    assert window.message.text().split("·")[0].strip() == "Logistic regression"
    assert "<b>Logistic regression</b>" in [label.text for _, label in window.canvas.legend.items]


def test_with_the_bayesian_view_the_steps_go_to_w_map(qtbot, settings_kept, window):
    """Logistic regression, "Bayesian view (Laplace)" ticked, Newton chosen, Step clicked eight times: the steps
    trained the plain L2 objective (their optimum 40.19, p(apple|x) = 0.666 at the probe) while the canvas's fit
    was the Bayesian one (49.31, 0.562). They go to w_MAP, the minimum of the cross-entropy plus the prior's
    (α/2)||w||², bias included, written out here and minimised by scipy; the readout says so."""
    import numpy as np
    from pressing import choose, press_button
    from pytest import approx
    from scipy.optimize import minimize
    from scipy.special import expit

    from probviz.models.training import OPTIMIZERS

    session = examples.session("fruit")
    session.model = "logistic"
    window.load_session(session)
    settle(window)
    press_button(qtbot, window.panel.param_widgets["bayes"])
    settle(window)
    fit = window.canvas.frame.fit.model
    assert fit.laplace_ is not None
    window.training_dock.raise_()
    settle(window)
    t = window.training
    choose(qtbot, t.optimizer, OPTIMIZERS.index("newton"))
    settle(window)
    for _ in range(8):
        qtbot.mouseClick(t.step_button, Qt.MouseButton.LeftButton)
        settle(window)
    X, y = window.doc.X, (window.doc.labels == 1).astype(float)
    alpha = window.doc.params["logistic"]["alpha"]
    Phi = np.column_stack([np.ones(len(X)), (X - X.mean(axis=0)) / X.std(axis=0)])  # standardized, as fitted

    def E(w):
        a = Phi @ w
        return np.sum(np.logaddexp(0, a) - y * a) + 0.5 * alpha * w @ w, Phi.T @ (expit(a) - y) + alpha * w
    best = minimize(E, np.zeros(3), jac=True, method="BFGS", options={"gtol": 1e-12})
    assert abs(best.fun - 49.31) < 0.01  # (the fruit's w_MAP at α = 1, as the trial found it)
    view = t.view
    assert view.index == 8 and view.optimum == approx(best.fun, rel=1e-9) and view.error == approx(best.fun, rel=1e-9)
    assert "w_MAP" in t.readout.text() and "bias included" in t.readout.text()
    status = window.message.text()  # the status line names the prior as the fit's label does
    assert f"Logistic regression, Bayesian, α = {alpha:g}, Newton" in status and "step 8" in status, status
    step_model = window.canvas.frame.fit.model  # the step on the canvas
    probe = np.array([[2.3, 1.5]])
    z = (probe - X.mean(axis=0)) / X.std(axis=0)
    np.testing.assert_allclose(step_model.predict_proba(probe)[0, 0], 1 - expit(best.x[0] + z @ best.x[1:])[0],
                               atol=1e-8)  # p(apple|x) at the lecture's probe, from w_MAP
    np.testing.assert_allclose(step_model.predict_proba(X), fit.predict_proba(X), atol=1e-8)  # the fit's w_MAP
