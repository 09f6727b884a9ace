"""The training step a frame shows: the same weights as a trainer stepped by hand, one update per Step
(the run is kept between frames), a new run on Reset or on new data, and the reasons it cannot go on.
Qt-free."""

from dataclasses import replace

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import PolynomialFeatures

from probviz import pipeline, stepping
from probviz.data import examples
from probviz.models.training import Trainer
from probviz.snapshot import frame_request, from_session
from probviz.stepping import TrainingSpec, training_fit

# Two classes a line separates (the perceptron converges in one step from w = 0).
SEPARABLE_X = np.array([[0.0, 0.0], [1.0, 0.2], [0.3, 1.0], [3.0, 3.0], [4.0, 2.5], [2.6, 4.0]])
SEPARABLE_Y = np.array([0, 0, 0, 1, 1, 1])


def _fruit(model="logistic"):
    snap = replace(from_session(examples.session("fruit")), model=model)
    return snap, snap.spec()


@pytest.mark.parametrize("model,optimizer", [("logistic", "gd"), ("logistic", "newton"), ("softmax", "sgd"),
                                             ("perceptron", "gd")])
def test_a_step_is_the_trainers_step(model, optimizer):
    snap, spec = _fruit(model)
    X, y = snap.dataset.X, snap.dataset.labels
    fitted, view = training_fit(spec, TrainingSpec(optimizer, None, "zero", steps=4), X, y)
    params = {k: v for k, v in spec.kwargs.items() if k in ("l2", "basis", "standardize")}
    by_hand = Trainer(model, X, y, optimizer=optimizer, **params)
    by_hand.step(4)
    ref = by_hand.model()
    Q = np.random.default_rng(0).uniform(-1, 4, (50, 2))
    np.testing.assert_allclose(fitted.decision_function(Q) if not fitted.probabilistic else fitted.predict_proba(Q),
                               ref.decision_function(Q) if not ref.probabilistic else ref.predict_proba(Q),
                               rtol=1e-12, atol=1e-12)
    assert view.index == 4 and view.steps == [0, 1, 2, 3, 4]
    assert view.errors[-1] == pytest.approx(by_hand.current.error, rel=1e-12)
    assert view.wrong == by_hand.current.wrong


def test_the_run_is_kept_between_frames(monkeypatch):
    snap, spec = _fruit()
    X, y = snap.dataset.X, snap.dataset.labels
    t = TrainingSpec("gd", 0.01, "zero", steps=3, run=101)
    by_hand = Trainer("logistic", X, y, optimizer="gd", eta=0.01)
    by_hand.step(2)
    step_2, Q = by_hand.model(), np.random.default_rng(2).uniform(-1, 4, (20, 2))
    training_fit(spec, t, X, y)
    taken = []
    original = Trainer.step
    monkeypatch.setattr(Trainer, "step", lambda self, count=1: (taken.append(count), original(self, count))[1])
    _, view = training_fit(spec, replace(t, steps=5), X, y)
    assert taken == [2] and view.index == 5  # two more updates, not five
    earlier, view = training_fit(spec, replace(t, steps=2), X, y)  # an earlier step of the same run: no update
    assert taken == [2] and view.index == 2 and view.steps == [0, 1, 2]
    np.testing.assert_allclose(earlier.predict_proba(Q), step_2.predict_proba(Q), atol=1e-12)  # step 2's weights
    key = view.key
    _, view = training_fit(spec, replace(t, steps=1, run=102), X, y)  # Reset: a new run from w = 0
    assert taken == [2, 1] and view.index == 1 and view.key != key
    X2 = X.copy()
    X2[0] += 0.5
    training_fit(spec, replace(t, steps=1, run=102), X2, y)  # other points: a new run
    assert taken == [2, 1, 1]


def test_what_cannot_be_trained_says_why():
    snap, _ = _fruit()
    X, y = snap.dataset.X, snap.dataset.labels
    model, view = training_fit(snap.spec("lda"), TrainingSpec(steps=1), X, y)
    assert model is None and "fitted in one go" in view.problem
    model, view = training_fit(snap.spec("logistic"), TrainingSpec(steps=1), X, np.zeros(len(X), int))
    assert model is None and "two classes" in view.problem


def test_an_overflow_stops_at_the_last_good_step():
    snap, _ = _fruit("softmax")
    X, y = snap.dataset.X, snap.dataset.labels
    spec = pipeline.ModelSpec.make("softmax", {"l2": 1.0})
    model, view = training_fit(spec, TrainingSpec("gd", 1e8, "zero", steps=100), X, y)
    assert f"at step {view.index + 1}: eta = 1e+08 is too large" in view.problem and view.index < 100
    assert model is not None and np.all(np.isfinite(view.errors))
    _, again = training_fit(spec, TrainingSpec("gd", 1e8, "zero", steps=101), X, y)  # Play goes on asking
    assert again.index == view.index and again.problem == view.problem


def test_a_frame_shows_the_step_trained_on_the_points_not_held_out():
    snap, spec = _fruit()
    snap = replace(snap, split=(0.3, 1))
    request = replace(frame_request(snap, (-1, 3, -1, 4), (16, 16)),
                      training=TrainingSpec("newton", None, "zero", steps=2, shown=True))
    frame = pipeline.compute(request)
    held = request.held_out
    by_hand = Trainer("logistic", snap.dataset.X[~held], snap.dataset.labels[~held], optimizer="newton")
    by_hand.step(2)
    Q = np.random.default_rng(1).uniform(-1, 4, (20, 2))
    np.testing.assert_allclose(frame.fit.model.predict_proba(Q), by_hand.model().predict_proba(Q), atol=1e-12)
    assert frame.fit.held_out["n"] == held.sum() and frame.training.n == (~held).sum()
    hidden = pipeline.compute(replace(request, training=replace(request.training, shown=False)))
    assert hidden.fit.model.converged_  # the fitted model on the canvas, not the step
    assert hidden.training.index == 2 and hidden.training.highlight is None  # the run still read by the dock


def test_the_last_runs_are_kept_and_the_oldest_goes(monkeypatch):
    snap, spec = _fruit()
    X, y = snap.dataset.X, snap.dataset.labels
    started = []  # a new run fits the direct optimum once
    original = Trainer.optimum
    monkeypatch.setattr(Trainer, "optimum", lambda self: (started.append(1), original(self))[1])
    runs = [TrainingSpec("gd", 0.01, "zero", steps=1, run=900 + i) for i in range(stepping.KEEP_RUNS + 1)]
    for t in runs[:-1]:
        training_fit(spec, t, X, y)
    assert len(started) == stepping.KEEP_RUNS
    for t in runs[:-1]:  # every one of the last KEEP_RUNS runs is still there
        training_fit(spec, replace(t, steps=2), X, y)
    assert len(started) == stepping.KEEP_RUNS
    training_fit(spec, runs[-1], X, y)  # one more: the least recently used run goes
    training_fit(spec, runs[1], X, y)
    assert len(started) == stepping.KEEP_RUNS + 1
    training_fit(spec, runs[0], X, y)
    assert len(started) == stepping.KEEP_RUNS + 2


def test_the_models_settings_reach_the_trainer_and_the_optimum_is_the_penalised_fits():
    # Newton's steps converge to the minimiser of cross-entropy + l2/2 ||w||^2 (Bishop 4.3.3, eq. 4.90 with a
    # penalty) on the quadratic features of the raw x: scikit-learn's with C = 1/l2, an independent solver.
    snap, _ = _fruit()
    X, y = snap.dataset.X, snap.dataset.labels
    l2 = 0.5
    spec = pipeline.ModelSpec.make("logistic", {"l2": l2, "basis": "quadratic", "standardize": False})
    fitted, view = training_fit(spec, TrainingSpec("newton", None, "zero", steps=40), X, y)
    poly = PolynomialFeatures(2, include_bias=False)
    ref = LogisticRegression(C=1 / l2, solver="newton-cholesky", tol=1e-12, max_iter=1000).fit(poly.fit_transform(X), y)
    Q = np.random.default_rng(3).uniform(-1, 4, (50, 2))
    np.testing.assert_allclose(fitted.predict_proba(Q), ref.predict_proba(poly.transform(Q)), atol=1e-8)
    P = ref.predict_proba(poly.transform(X))
    E = -np.sum(np.log(P[np.arange(len(y)), y])) + l2 / 2 * np.sum(ref.coef_ ** 2)
    assert view.optimum == pytest.approx(E, rel=1e-8) and view.errors[-1] == pytest.approx(E, rel=1e-8)
    assert view.model == "logistic" and view.optimizer == "newton"
    assert view.problem == "" and view.note == ""  # nothing stopped it, and l2 > 0 holds the weights


def test_with_the_bayesian_view_the_steps_minimise_the_cross_entropy_plus_the_prior():
    """Logistic regression with the Bayesian view ticked trains toward w_MAP: Newton's steps converge to the
    minimiser of the cross-entropy + (alpha/2)||w||^2 on every weight, the bias too (the prior N(0, alpha^-1 I),
    Bishop eq. 4.142), written here with scipy's BFGS on the standardized features; its l2 takes no part. Without
    the view, or for softmax regression, the steps keep the model's own penalty (no alpha)."""
    from scipy.optimize import minimize
    from scipy.special import expit

    snap, _ = _fruit()
    X, y = snap.dataset.X, snap.dataset.labels
    alpha = 2.5
    spec = pipeline.ModelSpec.make("logistic", {"bayes": True, "alpha": alpha, "l2": 7.0})
    assert stepping.training_alpha(spec) == alpha
    fitted, view = training_fit(spec, TrainingSpec("newton", None, "zero", steps=40), X, y)
    Phi = np.column_stack([np.ones(len(X)), (X - X.mean(axis=0)) / X.std(axis=0)])
    t = (y == 1).astype(float)

    def E(w):
        a = Phi @ w
        return np.sum(np.logaddexp(0, a) - t * a) + 0.5 * alpha * w @ w, Phi.T @ (expit(a) - t) + alpha * w
    best = minimize(E, np.zeros(3), jac=True, method="BFGS", options={"gtol": 1e-12})
    assert view.optimum == pytest.approx(best.fun, rel=1e-9) and view.errors[-1] == pytest.approx(best.fun, rel=1e-9)
    for plain in (pipeline.ModelSpec.make("logistic", {"bayes": False, "alpha": alpha}),
                  pipeline.ModelSpec.make("softmax", {})):
        assert stepping.training_alpha(plain) is None


@pytest.mark.parametrize("model", ["logistic", "softmax"])
def test_the_generative_start_is_the_gaussian_models_posterior(model):
    # With a shared covariance the posterior is a sigmoid / softmax of linear scores (Bishop 4.2.1-4.2.2): step 0
    # of a run started there is LDA's posterior, here scikit-learn's (pooled ML covariance, class frequencies).
    snap, _ = _fruit(model)
    X, y = snap.dataset.X, snap.dataset.labels
    names = list(snap.dataset.class_names)
    start, view = training_fit(snap.spec(), TrainingSpec("gd", None, "generative", steps=0), X, y, names)
    lda = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    Q = np.random.default_rng(4).uniform(-1, 4, (50, 2))
    np.testing.assert_allclose(start.predict_proba(Q), lda.predict_proba(Q), atol=1e-10)
    assert start.class_names_ == names and view.zero is False
    assert view.index == 0 and view.steps == [0] and view.rose is False
    zero, view = training_fit(snap.spec(), TrainingSpec("gd", None, "zero", steps=0), X, y, names)
    np.testing.assert_allclose(zero.predict_proba(Q), 1 / 2)  # w = 0: every posterior a half
    assert zero.class_names_ == names and view.zero is True
    assert training_fit(snap.spec(), TrainingSpec("gd", None, "zero", steps=1), X, y)[1].zero is False


def test_a_run_from_the_generative_start_steps_with_the_runs_settings():
    snap, _ = _fruit()
    X, y = snap.dataset.X, snap.dataset.labels
    spec = pipeline.ModelSpec.make("logistic", {"l2": 0.5})
    fitted, _ = training_fit(spec, TrainingSpec("sgd", 0.05, "generative", steps=3), X, y)
    start = Trainer("logistic", X, y, l2=0.5).generative_start()
    by_hand = Trainer("logistic", X, y, optimizer="sgd", eta=0.05, l2=0.5, start=start)
    by_hand.step(3)
    Q = np.random.default_rng(5).uniform(-1, 4, (50, 2))
    np.testing.assert_allclose(fitted.predict_proba(Q), by_hand.model().predict_proba(Q), rtol=1e-12, atol=1e-12)


def _cross_entropy(model, X, y) -> float:
    P = model.predict_proba(X)
    return -float(np.sum(np.log(P[np.arange(len(y)), y])))


def test_e_rose_is_said_for_a_rise_of_gradient_descent_or_newton_and_never_for_sgd():
    snap, _ = _fruit()
    X, y = snap.dataset.X, snap.dataset.labels
    spec = pipeline.ModelSpec.make("logistic", {"l2": 0.0})  # E is then the cross-entropy alone (eq. 4.90)

    def run(optimizer, eta, steps):
        fits = [training_fit(spec, TrainingSpec(optimizer, eta, "zero", steps=k, run=700), X, y) for k in steps]
        E = [_cross_entropy(m, X, y) for m, _ in fits]
        return E, [v.rose for _, v in fits]

    E, rose = run("gd", 0.3, range(6))  # eta too large for the first step, then E falls
    ratios = [E[k] / E[k - 1] for k in range(1, 6)]
    assert 1.1 < ratios[0] < 2 and all(r < 0.99 for r in ratios[1:])
    assert rose == [False, True, False, False, False, False]
    E, rose = run("sgd", 0.5, range(41))  # one point's gradient: E may rise, and that is not eta's fault
    assert any(E[k] > E[k - 1] * 1.01 for k in range(1, 41)) and not any(rose)
    E, rose = run("newton", None, range(25, 31))  # converged: E level to rounding
    assert E[-1] == pytest.approx(E[0], rel=1e-12) and not any(rose)


def test_the_perceptron_counts_what_it_misclassifies_at_every_step():
    spec = pipeline.ModelSpec.make("perceptron", {})
    X, y = SEPARABLE_X, SEPARABLE_Y
    for k in range(4):
        model, view = training_fit(spec, TrainingSpec("gd", None, "zero", steps=k), X, y, ["a", "b"])
        S = model.decision_function(X)
        wrong = int(np.count_nonzero((np.argmax(S, axis=1) != y) | (S[:, 0] == S[:, 1])))  # a tie is in M (eq. 4.54)
        assert view.wrongs[-1] == view.wrong == wrong and len(view.wrongs) == k + 1
        assert view.rose is False  # E_P stays 0 once every point is on its side
    assert view.wrongs[0] == len(X) and view.wrongs[-1] == 0  # at w = 0 every point is on the boundary
    assert view.note == "" and view.optimum is None  # separable; the perceptron has no optimum to show
    assert training_fit(pipeline.ModelSpec.make("logistic", {}), TrainingSpec(steps=2), X, y)[1].wrongs is None


def test_sgd_rings_the_point_each_step_used():
    snap, spec = _fruit()
    X, y = snap.dataset.X, snap.dataset.labels
    for k in (1, 2):  # step k uses point k - 1 (the points in order)
        _, view = training_fit(spec, TrainingSpec("sgd", None, "zero", steps=k), X, y)
        assert view.point == k - 1 and view.highlight == tuple(X[k - 1]) and view.point_class == y[k - 1]
    _, view = training_fit(spec, TrainingSpec("gd", None, "zero", steps=1), X, y)
    assert view.highlight is None and view.point_class == -1  # a batch step uses every point


def test_a_run_asked_for_with_class_names_names_its_classes_whoever_asked_first():
    """The kept runs are per class names too: a run made without names (as a test or a command line may
    ask) is not handed to a caller who names the classes."""
    snap, _ = _fruit("logistic")
    X, y = snap.dataset.X, snap.dataset.labels
    spec = snap.spec()
    unnamed, _ = training_fit(spec, TrainingSpec("gd", None, "zero", steps=2), X, y)
    named, _ = training_fit(spec, TrainingSpec("gd", None, "zero", steps=2), X, y, ["apple", "peach"])
    assert unnamed.class_names_ != ["apple", "peach"] and named.class_names_ == ["apple", "peach"]
