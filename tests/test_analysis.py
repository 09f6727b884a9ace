"""True errors beside a frame: a frame only reads what is known; computing fills it in, once per truth and
fit, and gives way between models when newer work waits. Qt-free."""

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from probviz import analysis, pipeline
from probviz.data import examples
from probviz.data.dataset import Dataset
from probviz.models.truth import Truth, error_rate
from probviz.snapshot import Snapshot, frame_request, from_session


def _request(**kw):
    snap = replace(from_session(examples.session("fruit")), compare="logistic", **kw)
    return frame_request(snap, (-1, 3, -1, 4), (16, 16), errors=True)


def test_a_frame_reads_the_known_errors_and_computing_fills_them_in():
    request = _request()
    frame = pipeline.compute(request)
    assert frame.errors_pending and "bayes" not in frame.errors
    analysis.compute_errors(request.truth, frame.fits)
    again = pipeline.compute(request, frame, refit=False)
    assert not again.errors_pending
    truth = request.truth
    assert again.errors["bayes"] == pytest.approx(truth.bayes_error(), abs=1e-12)
    for f in frame.fits:
        assert again.errors[f.spec] == pytest.approx(error_rate(truth, f.model, f.class_index), abs=1e-12)
    assert again.errors[frame.fits[0].spec] >= again.errors["bayes"] - 1e-12  # nothing beats the Bayes error
    refit = pipeline.compute(request)  # new fitted objects: their errors are not known yet
    assert refit.errors_pending and "bayes" in refit.errors
    analysis.compute_errors(request.truth, refit.fits)  # the Bayes error known, the fits' filled in after it
    assert not pipeline.compute(request, refit, refit=False).errors_pending


def test_computing_gives_way_and_a_request_without_errors_carries_none(monkeypatch):
    request = _request()
    frame = pipeline.compute(request)
    calls = []
    monkeypatch.setattr(analysis, "error_rate", lambda *a: calls.append(a) or 0.1)
    analysis.compute_errors(request.truth, frame.fits, cancelled=lambda: len(calls) >= 1)
    assert len(calls) == 1  # stopped after the first model, before the second
    quiet = pipeline.compute(replace(request, errors=False))
    assert quiet.errors == {} and not quiet.errors_pending


def test_a_failed_integral_is_not_a_number_and_not_tried_again(monkeypatch):
    request = _request()
    frame = pipeline.compute(request)
    calls = []

    def fail(*a):
        calls.append(a)
        raise ValueError("no")

    monkeypatch.setattr(analysis, "error_rate", fail)
    analysis.compute_errors(request.truth, frame.fits)
    analysis.compute_errors(request.truth, frame.fits)
    assert len(calls) == 2  # once per model
    assert all(np.isnan(v) for k, v in pipeline.compute(request, frame, refit=False).errors.items() if k != "bayes")


def test_a_model_without_points_of_a_class_is_scored_in_the_documents_classes():
    # Class "b" has no points: the fit knows classes 0 and 2 only, and every point of "b" is an error.
    truth = Truth.make([0.4, 0.2, 0.4], [[0, 0], [2, 2], [4, 0]], [np.eye(2) * 0.5] * 3)
    X, labels = truth.sample_counts([40, 0, 40], seed=1)
    request = frame_request(Snapshot(Dataset(X, labels, ["a", "b", "c"], truth=truth), "lda"), (-2, 6, -2, 4),
                            (8, 8), errors=True)
    frame = pipeline.compute(request)
    fit = frame.fits[0]
    analysis.compute_errors(request.truth, frame.fits)
    errors = pipeline.compute(request, frame, refit=False).errors
    Xs, ys = truth.sample(200_000, seed=5)  # Monte Carlo: standard error below 0.001
    assert errors[fit.spec] == pytest.approx(np.mean(fit.model.predict(Xs) != ys), abs=0.005)
    assert errors["bayes"] == pytest.approx(np.mean(np.argmax(truth.log_joint(Xs), axis=1) != ys), abs=0.005)


def test_the_remembered_errors_stay_few(monkeypatch):
    monkeypatch.setattr(analysis, "error_rate", lambda *a: 0.25)
    monkeypatch.setattr(analysis, "_known", analysis.OrderedDict())
    truth = SimpleNamespace(bayes_error=lambda cancelled=None: 0.125)
    fits = [SimpleNamespace(spec=i, model=object(), class_index=None) for i in range(analysis.KEEP)]
    analysis.compute_errors(truth, fits)  # the Bayes error and KEEP fits: one more than KEEP
    assert len(analysis._known) <= analysis.KEEP
    assert analysis.known_errors(truth, fits[-1:])[0][fits[-1].spec] == 0.25  # the newest is remembered


def test_remembering_one_more_error_than_kept_forgets_the_oldest_not_the_frames_own(monkeypatch):
    """The memory is full when a frame's errors are computed: its Bayes error and its fits' stay known
    (everything was once forgotten at once, the Bayes error just computed with it, and the frame stayed
    "computing the true errors…"); the entries used longest ago go."""
    monkeypatch.setattr(analysis, "error_rate", lambda *a: 0.25)
    monkeypatch.setattr(analysis, "_known", analysis.OrderedDict())
    old = SimpleNamespace(bayes_error=lambda cancelled=None: 0.5)
    old_fits = [SimpleNamespace(spec=i, model=object(), class_index=None) for i in range(analysis.KEEP - 2)]
    analysis.compute_errors(old, old_fits)  # KEEP - 1 remembered
    analysis.known_errors(old, old_fits[:1])  # the first fit is read again: recently used
    truth = SimpleNamespace(bayes_error=lambda cancelled=None: 0.125)
    fits = [SimpleNamespace(spec=s, model=object(), class_index=None) for s in ("a", "b")]
    analysis.compute_errors(truth, fits)
    errors, missing = analysis.known_errors(truth, fits)
    assert not missing and errors == {"bayes": 0.125, "a": 0.25, "b": 0.25}
    assert len(analysis._known) == analysis.KEEP
    assert analysis.known_errors(old, old_fits[:1]) == ({"bayes": 0.5, 0: 0.25}, False)  # used lately: kept
    assert analysis.known_errors(old, old_fits[1:2])[1]  # the oldest unused: forgotten
