"""True errors beside a frame: a frame only reads what is known; computing fills it in, once per truth and
fit, and gives way between models when newer work waits. Qt-free."""

from dataclasses import replace

import numpy as np
import pytest

from probviz import analysis, pipeline
from probviz.data import examples
from probviz.models.truth import error_rate
from probviz.snapshot import frame_request, from_session


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
