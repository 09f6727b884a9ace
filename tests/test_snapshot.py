"""A snapshot is everything a picture depends on; a session file is its serialisation; one function makes
its frame request. Qt-free."""

from dataclasses import replace

import numpy as np
import pytest

from probviz import pipeline
from probviz.data import examples
import json

from probviz.data.session import from_json, to_json
from probviz.models.training import MAX_STEPS
from probviz.snapshot import Snapshot, frame_request, from_session, with_model
from probviz.stepping import TrainingSpec


def _opened(**extra) -> Snapshot:
    """The fruit lesson saved with ``extra`` options written into its file, then opened."""
    doc = json.loads(to_json(examples.session("fruit")))
    doc["extra"].update(extra)
    return from_session(from_json(json.dumps(doc), "lesson.probviz"))


def _lab_state() -> Snapshot:
    snap = from_session(examples.session("fruit"))
    return Snapshot(snap.dataset, "qda", {"qda": {"reg_covar": 0.25}, "logistic": {"l2": 0.5}}, (0.4, 0.6),
                    frozenset({"decision", "boundaries", "truth", "points"}), 0.75, (-1.0, 3.0, -1.0, 4.0),
                    "logistic", (0.3, 7), ((0.0, 0.5), (2.5, 3.5)),
                    TrainingSpec("sgd", 0.25, "generative", steps=17, shown=True))


def test_a_saved_snapshot_opens_as_the_same_snapshot():
    snap = _lab_state()
    back = from_session(from_json(to_json(snap.to_session()), "lab.probviz"))
    for field in ("model", "priors", "layers", "theta", "view", "compare", "split", "section", "training"):
        assert getattr(back, field) == getattr(snap, field), field
    assert back.params["qda"] == {"reg_covar": 0.25} and back.params["logistic"] == {"l2": 0.5}
    np.testing.assert_array_equal(back.dataset.X, snap.dataset.X)
    np.testing.assert_array_equal(back.dataset.labels, snap.dataset.labels)
    assert back.truth is not None and back.truth.K == 2


def test_frequency_priors_a_split_of_seed_0_and_the_last_step_survive_a_save():
    data = examples.load("fruit")
    snap = Snapshot(data, "logistic", split=(0.25, 0), training=TrainingSpec("gd", 0.5, steps=MAX_STEPS))
    back = from_session(from_json(to_json(snap.to_session()), "plain.probviz"))
    assert back.priors is None  # the class frequencies, not hand-set priors
    assert back.split == (0.25, 0) and back.training == TrainingSpec("gd", 0.5, steps=MAX_STEPS)


def test_a_save_records_the_view_it_is_given_else_the_snapshots():
    snap = replace(_lab_state(), view=(-1.0, 3.0, -1.0, 4.0))
    assert snap.to_session().view == (-1.0, 3.0, -1.0, 4.0)
    assert snap.to_session(view=(0.0, 2.0, 0.5, 1.5)).view == (0.0, 2.0, 0.5, 1.5)  # the canvas's, as it is now


@pytest.mark.parametrize("bad", ["adam", 3, ["lda"]])
def test_a_saved_compared_model_that_is_no_model_is_none(bad):
    assert _opened(compare=bad).compare is None
    assert _opened(compare="logistic").compare == "logistic"


def test_a_model_switched_to_keeps_its_saved_parameters_under_new_ones():
    snap = _lab_state()
    switched = with_model(snap, "logistic", {"basis": "quadratic"})
    assert switched.model == "logistic"
    assert switched.params["logistic"] == {"l2": 0.5, "basis": "quadratic"}
    assert switched.params["qda"] == {"reg_covar": 0.25}  # the other model's are left alone
    assert dict(switched.spec().params)["l2"] == 0.5 and dict(switched.spec().params)["basis"] == "quadratic"
    assert with_model(snap, "qda", {"reg_covar": 0.5}).params["qda"] == {"reg_covar": 0.5}


def test_the_request_carries_every_part_of_the_snapshot():
    snap = _lab_state()
    req = frame_request(snap, (-1, 3, -1, 4), (64, 48), (1, 2, 3), (4, 5, 6), generation=9, revision=4)
    assert [s.name for s in req.specs] == ["qda", "logistic"]
    assert dict(req.specs[0].params)["reg_covar"] == 0.25 and dict(req.specs[1].params)["l2"] == 0.5
    assert dict(req.specs[0].params)["priors"] == (0.4, 0.6)  # hand-set priors reach the generative model
    assert "priors" not in dict(req.specs[1].params)  # and not the discriminative one
    assert req.layers == snap.layers and req.theta == 0.75 and req.section == ((0.0, 0.5), (2.5, 3.5))
    assert req.truth is snap.dataset.truth and req.probe == (2.3, 1.5)
    assert (req.bounds, req.shape, req.background, req.reject) == ((-1, 3, -1, 4), (64, 48), (1, 2, 3), (4, 5, 6))
    assert (req.generation, req.revision) == (9, 4)
    assert req.training is None  # QDA is fitted in one go
    trained = frame_request(with_model(snap, "logistic"), (-1, 3, -1, 4))
    assert trained.training == TrainingSpec("sgd", 0.25, "generative", steps=17, shown=True)
    assert frame_request(replace(snap, training=TrainingSpec()), (0, 1, 0, 1)).training is None  # no run asked for
    untrained = replace(with_model(snap, "logistic"), training=TrainingSpec())
    assert frame_request(untrained, (0, 1, 0, 1)).training is None  # a trainable model, but no run asked for
    stepped = replace(with_model(snap, "logistic"), training=TrainingSpec(steps=1))
    assert frame_request(stepped, (0, 1, 0, 1)).training == TrainingSpec(steps=1)  # the dock reads a run not shown
    n = len(snap.dataset.X)
    assert req.held_out is not None and req.held_out.shape == (n,)
    np.testing.assert_array_equal(req.held_out, pipeline.held_out_mask(n, 0.3, 7))


def test_a_request_asks_for_true_errors_only_when_told():
    snap = _lab_state()
    assert snap.truth is not None
    quiet = pipeline.compute(frame_request(snap, (-1, 3, -1, 4), (8, 8)))  # export and the command line
    assert quiet.errors == {} and not quiet.errors_pending
    asked = pipeline.compute(frame_request(snap, (-1, 3, -1, 4), (8, 8), errors=True))
    assert asked.errors_pending or "bayes" in asked.errors


def test_a_compared_model_that_is_the_shown_one_is_drawn_once():
    snap = with_model(_lab_state(), "logistic")
    assert [s.name for s in frame_request(snap, (0, 1, 0, 1)).specs] == ["logistic"]


def test_a_truth_of_other_classes_is_left_out():
    snap = _lab_state()
    data = snap.dataset
    data3 = type(data)(data.X, data.labels, [*data.class_names, "plum"], truth=data.truth)
    other = Snapshot(data3)
    assert other.truth is None and frame_request(other, (0, 1, 0, 1)).truth is None


def test_a_saved_section_far_out_is_kept_up_to_1e100():
    assert _opened(section=[[0, 0], [1e100, -1e100]]).section == ((0.0, 0.0), (1e100, -1e100))
    assert _opened(section=[[0, 0], [float(np.nextafter(1e100, np.inf)), 1]]).section is None


@pytest.mark.parametrize("bad", [None, "x", [[0, 0]], [[0, 0], [0, 0]], [[0, "a"], [1, 1]], [[0, float("nan")], [1, 1]],
                                 [[0, 0], [1e300, 1]]])
def test_an_unusable_saved_section_is_no_section(bad):
    assert _opened(section=bad).section is None


@pytest.mark.parametrize("bad", [None, 3, {"optimizer": "adam"}, {"eta": -1}, {"eta": 0}, {"eta": "x"}, {"steps": -2},
                                 {"steps": 1e300}, {"start": "random"}, {"shown": 1}])
def test_unusable_saved_training_settings_take_the_defaults(bad):
    t = _opened(training=bad).training
    d = TrainingSpec()
    assert (t.steps, t.shown) == (0, False) or bad == {"shown": 1}
    assert t.optimizer == d.optimizer and t.start == d.start and t.shown is False
    assert t.eta is None  # the optimizer's default learning rate
