"""The training step a frame shows: the same weights as a trainer stepped by hand, one update per Step
(the run is kept between frames), a new run on Reset or on new data, and the reasons it cannot go on.
Qt-free."""

from dataclasses import replace

import numpy as np
import pytest

from probviz import pipeline
from probviz.data import examples
from probviz.models.training import Trainer
from probviz.snapshot import frame_request, from_session
from probviz.stepping import TrainingSpec, training_fit


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
    training_fit(spec, t, X, y)
    taken = []
    original = Trainer.step
    monkeypatch.setattr(Trainer, "step", lambda self, count=1: (taken.append(count), original(self, count))[1])
    _, view = training_fit(spec, replace(t, steps=5), X, y)
    assert taken == [2] and view.index == 5  # two more updates, not five
    _, view = training_fit(spec, replace(t, steps=2), X, y)  # an earlier step of the same run: no update
    assert taken == [2] and view.index == 2 and view.steps == [0, 1, 2]
    _, view = training_fit(spec, replace(t, steps=1, run=102), X, y)  # Reset: a new run from w = 0
    assert taken == [2, 1] and view.index == 1
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
