"""Where the fitted p(C_k|x) is wrong (issue "judge every decision against the truth"): the "miscalibration"
layer maps max_k |fitted p(C_k|x) - true p(C_k|x)| from the background (0) to its darkest shade (0.5 and
more). The true posterior is written from the truth's Gaussians with scipy (tests/reference.py), not by the
code under test; the ramp's colours are written out as numbers there."""

import numpy as np
import pytest
from reference import MISCAL_LIGHT as LIGHT
from reference import gap_colour as ramp
from reference import posterior_gap as gap
from reference import true_posterior

from probviz.data.dataset import Dataset
from probviz.data.session import Session
from probviz.models import create
from probviz.models.truth import Truth

BLUE, ORANGE = "#0072B2", "#D55E00"


def _three_class_truth(offset=0.0, scale=1.0):
    return Truth.make([0.5, 0.3, 0.2], (np.array([[0, 0], [2, 0.5], [1, 2]]) * scale + offset),
                      [np.eye(2) * scale ** 2, np.array([[2.0, 0.8], [0.8, 0.6]]) * scale ** 2,
                       np.diag([0.3, 1.5]) * scale ** 2])


@pytest.mark.parametrize("offset,scale", [(0.0, 1.0), (1e6, 1.0), (0.0, 1e-6), (0.0, 1e6)])
def test_the_map_is_the_largest_gap_between_the_fitted_and_the_true_posterior(offset, scale):
    """Three classes, LDA fitted to classes 0 and 2 only (class 1 has p^ = 0 where it is true), at offsets and
    scales far from 1: the grid's values against the plain computation at every node."""
    from probviz.scene import miscalibration_grid

    truth = _three_class_truth(offset, scale)
    X, labels = truth.sample(60, seed=4)
    keep = labels != 1
    model = create("lda").fit(X[keep], labels[keep])
    idx = np.asarray(model.classes_)
    assert list(idx) == [0, 2]
    xs = offset + scale * np.linspace(-2, 4, 7)
    ys = offset + scale * np.linspace(-2, 3, 5)
    gx, gy = np.meshgrid(xs, ys)
    P = model.predict_proba(np.column_stack([gx.ravel(), gy.ravel()])).reshape(5, 7, 2)
    D = miscalibration_grid(P, idx, truth, xs, ys)
    expected = gap(model, idx, truth, np.column_stack([gx.ravel(), gy.ravel()])).reshape(5, 7)
    np.testing.assert_allclose(D, expected, atol=2e-6)
    assert D.max() > 0.3  # class 1's own region is in the grid: p = 0 fitted where it is likely


def test_two_classes_the_map_is_the_gap_of_one_posterior_and_zero_where_the_fit_is_the_truth():
    from probviz.scene import miscalibration_grid

    truth = Truth.make([0.4, 0.6], [[0, 0], [2, 1]], [np.eye(2), np.eye(2)])
    model = truth.model()  # the truth's own LDA: the fitted posterior is the true one
    xs, ys = np.linspace(-3, 5, 9), np.linspace(-3, 4, 8)
    gx, gy = np.meshgrid(xs, ys)
    X = np.column_stack([gx.ravel(), gy.ravel()])
    P = model.predict_proba(X).reshape(8, 9, 2)
    np.testing.assert_allclose(miscalibration_grid(P, [0, 1], truth, xs, ys), 0.0, atol=1e-6)
    other = create("qda").fit(*truth.sample(10, seed=1))
    P = other.predict_proba(X).reshape(8, 9, 2)
    expected = np.abs(other.predict_proba(X)[:, 0] - true_posterior(truth, X)[:, 0]).reshape(8, 9)
    np.testing.assert_allclose(miscalibration_grid(P, [0, 1], truth, xs, ys), expected, atol=1e-6)


BOUNDS = (-2.5, 2.5, -2.0, 2.0)
DARK_BG = (24, 24, 28)


def _request(session, layers, shape=(40, 30), background=(255, 255, 255)):
    from probviz.snapshot import frame_request, from_session

    session.layers = list(layers)
    return frame_request(from_session(session), BOUNDS, shape, background)


def _xor_frame(layers, dark=False):
    from probviz.data.examples import session
    from probviz.pipeline import compute

    s = session("xor")
    s.model = "lda"
    return s, compute(_request(s, layers, background=DARK_BG if dark else (255, 255, 255)))


def test_the_frame_draws_the_map_in_place_of_the_heatmap_with_its_legend_row():
    from probviz.figure_layout import legend_key
    from probviz.scene import grid_axes

    s, frame = _xor_frame(["heatmap", "miscalibration", "points"])
    req = frame.request
    xs, ys = grid_axes(req.bounds, 40, 30)
    gx, gy = np.meshgrid(xs, ys)
    D = gap(frame.fit.model, frame.fit.class_index, s.dataset.truth, np.column_stack([gx.ravel(), gy.ravel()]))
    image = frame.scene.image[..., :3].reshape(-1, 3).astype(float)
    np.testing.assert_allclose(image, ramp(D, req.background), atol=1.0)
    assert ("|fitted − true p|: 0 to 0.5+", "ramp") in legend_key(req.specs, frame, req)
    assert D.max() > 0.45  # LDA on XOR: p^ near 1/2 where the truth is sure
    _, plain = _xor_frame(["heatmap", "points"])
    assert plain.scene.miscalibration is None
    assert not any(kind == "ramp" for _, kind in legend_key(plain.request.specs, plain, plain.request))


def test_on_a_dark_background_the_map_lightens():
    s, frame = _xor_frame(["miscalibration"], dark=True)
    req = frame.request
    from probviz.scene import grid_axes

    xs, ys = grid_axes(req.bounds, 40, 30)
    gx, gy = np.meshgrid(xs, ys)
    D = gap(frame.fit.model, frame.fit.class_index, s.dataset.truth, np.column_stack([gx.ravel(), gy.ravel()]))
    np.testing.assert_allclose(frame.scene.image[..., :3].reshape(-1, 3), ramp(D, req.background, LIGHT), atol=1.0)


def test_a_document_without_a_truth_draws_no_map():
    from probviz.pipeline import compute

    rng = np.random.default_rng(0)
    data = Dataset(rng.normal(size=(20, 2)), np.repeat([0, 1], 10), ["a", "b"], [BLUE, ORANGE], ("x", "y"))
    frame = compute(_request(Session(data, "lda"), ["heatmap", "miscalibration"]))
    assert frame.scene.miscalibration is None and frame.scene.image is not None  # the heatmap, as asked


def test_the_truth_kept_between_frames_is_dropped_when_the_truth_or_the_grid_changes():
    """The truth's posterior is kept for the next frame (a drag redraws every frame): another truth on the same
    grid, or the same truth on another grid, is computed anew."""
    from probviz.scene import miscalibration_grid

    first = _three_class_truth()
    second = Truth.make([0.2, 0.3, 0.5], [[1, 1], [0, 2], [2, -1]], [np.eye(2), np.eye(2) * 2, np.eye(2) * 0.5])
    X, labels = first.sample(30, seed=1)
    model = create("qda").fit(X, labels)
    for truth, xs in ((first, np.linspace(-2, 4, 6)), (second, np.linspace(-2, 4, 6)), (second, np.linspace(-3, 3, 6)),
                      (first, np.linspace(-3, 3, 6))):
        ys = np.linspace(-1, 3, 4)
        gx, gy = np.meshgrid(xs, ys)
        pts = np.column_stack([gx.ravel(), gy.ravel()])
        P = model.predict_proba(pts).reshape(4, 6, 3)
        np.testing.assert_allclose(miscalibration_grid(P, [0, 1, 2], truth, xs, ys),
                                   gap(model, [0, 1, 2], truth, pts).reshape(4, 6), atol=1e-6)

