"""The weight space of Bayesian logistic regression (probviz.weight_space) against the textbook written out
here: the likelihood as a plain loop, the posterior's curvature by finite differences (never the code's own
S_N), the Laplace ellipses as level sets of that curvature, the sampled weights against N(w_MAP, S_N) and
the boundary of a clicked point of weight space as the zero of its activation."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.special import expit

from probviz import weight_space as ws
from probviz.models import create
from probviz.pipeline import FrameRequest, ModelSpec, compute

FRUITY = np.array([[0.0, 0.0], [1.0, 0.4], [0.3, 1.0], [0.8, 0.9], [2.0, 2.1], [2.6, 1.5], [1.1, 2.4], [0.7, 0.5]])
T = np.array([0, 0, 0, 1, 1, 1, 1, 0])


def _fit(X, t, alpha=1.0, standardize=True):
    return create("logistic", bayes=True, alpha=alpha, standardize=standardize).fit(X, t)


def _neg_log_post(lap, X, t, w):
    """-(ln p(t|w) + ln p(w)) up to a constant, w = (w0, w1, w2) on the prior's features, term by term."""
    total = 0.5 * lap.alpha * float(np.dot(w, w))
    for x, tn in zip(X, t):
        phi = np.r_[1.0, (x - lap.center) / lap.scale]
        y = expit(phi @ w)
        total -= np.log(y) if tn else np.log1p(-y)
    return total


def _slice_hessian(lap, X, t, h=1e-4):
    """The (w1, w2) Hessian of the negative log posterior at w_MAP by central differences."""
    w = lap.w_map[0]
    H = np.empty((2, 2))
    for i in range(2):
        for j in range(2):
            def f(di, dj):
                v = w.copy()
                v[1 + i] += di
                v[1 + j] += dj
                return _neg_log_post(lap, X, t, v)
            H[i, j] = (f(h, h) - f(h, -h) - f(-h, h) + f(-h, -h)) / (4 * h * h)
    return H


def test_the_likelihood_is_the_sum_over_the_points():
    lap = _fit(FRUITY, T).laplace_
    Phi = lap.features(FRUITY)
    w1, w2 = np.array([-1.0, 0.5, 3.0]), np.array([0.2, -2.0])
    L = ws.log_likelihood(Phi, T, 0.3, w1, w2)
    assert L.shape == (2, 3)
    for i, b in enumerate(w2):
        for j, a in enumerate(w1):
            want = sum(np.log(expit(0.3 + a * p[1] + b * p[2])) if tn else np.log(1 - expit(0.3 + a * p[1] + b * p[2]))
                       for p, tn in zip(Phi, T))
            assert L[i, j] == pytest.approx(want, rel=1e-12)


def test_the_surfaces_peak_where_they_should_and_the_posterior_is_their_sum():
    X, t = FRUITY, T
    lap = _fit(X, t, alpha=0.7).laplace_
    space = ws.weight_space(lap, X, t)
    W1, W2 = np.meshgrid(space.w1, space.w2)
    # the prior N(w|0, alpha^-1 I) less its top on the slice
    np.testing.assert_allclose(space.surfaces["prior"], -0.35 * (W1 ** 2 + W2 ** 2), rtol=1e-12)
    # the posterior: ln p(t|w) + ln p(w) (unnormalised), 0 at w_MAP's slopes, nowhere above it
    w = lap.w_map[0]
    for i, j in ((0, 0), (17, 40), (60, 3), (30, 30)):
        v = np.array([w[0], space.w1[j], space.w2[i]])
        want = -_neg_log_post(lap, X, t, v) + _neg_log_post(lap, X, t, w)
        assert space.surfaces["posterior"][i, j] == pytest.approx(want, rel=1e-9, abs=1e-9)
    assert space.surfaces["posterior"].max() <= 1e-12
    assert space.surfaces["likelihood"].max() == 0.0
    # the plot frames the posterior: w_MAP +- 4 of q's standard deviations, and the prior's centre 0 near it
    sd = np.sqrt(np.diag(lap.cov[0])[1:])
    assert space.w1[0] <= w[1] - 4 * sd[0] + 1e-12 and space.w1[-1] >= w[1] + 4 * sd[0] - 1e-12
    assert space.w2[0] <= min(0.0, w[2] - 4 * sd[1]) + 1e-12


def test_the_laplace_ellipses_are_level_sets_of_the_posterior_curvature():
    X, t = FRUITY, T
    lap = _fit(X, t).laplace_
    space = ws.weight_space(lap, X, t)
    A = _slice_hessian(lap, X, t)
    for level, ellipse in zip(ws.LEVELS, space.contours["laplace"]):
        d = ellipse - lap.w_map[0][1:]
        np.testing.assert_allclose(np.einsum("ni,ij,nj->n", d, A, d), 2 * level, rtol=1e-5)
    # and the exact posterior's innermost contour hugs the first ellipse where the Laplace fit is good
    rng = np.random.default_rng(0)
    X2 = np.vstack([rng.normal([0, 0], 1, (400, 2)), rng.normal([2, 1], 1, (400, 2))])
    t2 = np.r_[np.zeros(400, int), np.ones(400, int)]
    lap2 = _fit(X2, t2).laplace_
    space2 = ws.weight_space(lap2, X2, t2, size=241)  # finer than the panel's: the grid's error below the Laplace's
    inner = np.vstack(space2.contours["posterior"][0])
    d = inner - lap2.w_map[0][1:]
    q = np.einsum("ni,ij,nj->n", d, lap2.precision[0][1:, 1:], d)
    # the Laplace error: the posterior's skewness pushes one side out and the other in, a few per cent at 800 points
    assert abs(q.mean() - 1.0) < 0.02 and np.abs(q - 1.0).max() < 0.08


def test_the_dots_are_draws_of_q_and_the_canvas_cloud_s_weights():
    X, t = FRUITY, T
    for standardize in (True, False):
        lap = _fit(X, t, standardize=standardize).laplace_
        W = lap.sample_on_features(40000, seed=5)[:, 0]
        np.testing.assert_allclose(W.mean(axis=0), lap.w_map[0], atol=0.05 * np.sqrt(lap.cov[0].diagonal().max()))
        np.testing.assert_allclose(np.cov(W.T), lap.cov[0], atol=0.04 * lap.cov[0].diagonal().max())
        # the same draws as sample(): the same activation at any point
        Z = lap.sample(3, seed=5)[:, 0]
        P = np.array([[0.3, -1.0], [2.0, 5.0]])
        phi_z = np.column_stack([np.ones(2), (P - lap.z_center) / lap.z_scale])
        np.testing.assert_allclose(lap.features(P) @ lap.sample_on_features(3, seed=5)[:, 0].T, phi_z @ Z.T,
                                   rtol=1e-9, atol=1e-9)
        space = ws.weight_space(lap, X, t, samples=(7, 5))
        np.testing.assert_allclose(space.samples, lap.sample_on_features(7, 5)[:, 0, 1:])


@settings(max_examples=25, deadline=None)
@given(per=st.integers(2, 4), offset=st.sampled_from([0.0, 1e6, -1e6]), scale=st.sampled_from([1e-6, 1.0, 1e6]),
       seed=st.integers(0, 10_000), alpha=st.sampled_from([1e-3, 1.0, 100.0]))
def test_small_far_and_tiny_sets_give_a_finite_picture_peaked_at_w_map(per, offset, scale, seed, alpha):
    rng = np.random.default_rng(seed)
    X = offset + scale * rng.normal(size=(2 * per, 2))
    t = np.r_[np.zeros(per, int), np.ones(per, int)]
    lap = _fit(X, t, alpha=alpha).laplace_
    space = ws.weight_space(lap, X, t)
    for name in ("prior", "likelihood", "posterior"):
        assert np.all(np.isfinite(space.surfaces[name]))
    assert space.surfaces["posterior"].max() <= 1e-9 * max(1.0, abs(space.surfaces["posterior"]).max())
    for ellipse in space.contours["laplace"]:
        assert np.all(np.isfinite(ellipse))


def test_only_a_two_class_linear_bayesian_logistic_fit_has_a_weight_space():
    assert ws.unavailable(_fit(FRUITY, T), len(FRUITY)) == ""
    assert "Bayesian view" in ws.unavailable(create("logistic").fit(FRUITY, T), 8)
    assert "Bayesian view" in ws.unavailable(create("lda").fit(FRUITY, T), 8)
    three = create("logistic", bayes=True).fit(FRUITY, np.array([0, 0, 1, 1, 2, 2, 1, 0]))
    assert "these points have 3" in ws.unavailable(three, 8)
    quad = create("logistic", bayes=True, basis="quadratic").fit(FRUITY, T)
    assert "basis 'linear'" in ws.unavailable(quad, 8)
    assert f"at most {ws.MAX_POINTS:,}" in ws.unavailable(_fit(FRUITY, T), ws.MAX_POINTS + 1)
    one_class = create("logistic", bayes=True).fit(FRUITY, np.zeros(len(FRUITY), int))  # the view is off: no q(w)
    assert ws.unavailable(one_class, 8) == ("Weight space needs points of two classes; these are all of one class "
                                            "(add a point of another).")


def test_a_clicked_point_of_weight_space_draws_its_boundary_and_the_frame_carries_the_space():
    spec = ModelSpec.make("logistic", {"bayes": True, "alpha": 2.0})
    request = FrameRequest(FRUITY, T, ("a", "b"), ("#E69F00", "#0072B2"), (spec,), bounds=(-2, 4, -2, 4),
                           shape=(32, 32), weights=True, weight_probe=(1.5, -0.5))
    frame = compute(request)
    lap = frame.fit.model.laplace_
    assert isinstance(frame.weights, ws.WeightSpace) and frame.weights.n == len(FRUITY)
    line = np.vstack(frame.weight_line)
    a = lap.w_map[0][0] + ((line - lap.center) / lap.scale) @ np.array([1.5, -0.5])
    np.testing.assert_allclose(a, 0.0, atol=1e-9)
    assert np.ptp(line[:, 0]) > 1.0  # across the view, not a stub
    plain = compute(FrameRequest(FRUITY, T, ("a", "b"), ("#E69F00", "#0072B2"), (ModelSpec.make("lda"),),
                                 shape=(16, 16), weights=True, weight_probe=(1.0, 1.0)))
    assert isinstance(plain.weights, str) and plain.weight_line == []


def test_the_legend_names_the_bayesian_view_s_lines_and_veil_only_when_drawn():
    from probviz.figure_layout import legend_key

    spec = ModelSpec.make("logistic", {"bayes": True})
    base = dict(bounds=(-2, 4, -2, 4), shape=(16, 16), samples=(12, 0))
    full = FrameRequest(FRUITY, T, ("a", "b"), ("#E69F00", "#0072B2"), (spec,),
                        layers=frozenset({"heatmap", "samples", "variance", "points"}), weight_probe=(1.0, 1.0), **base)
    frame = compute(full)
    key = legend_key(full.specs, frame, full)
    assert ("boundaries of 12 w drawn from q(w)", "sample") in key
    assert ("predictive variance σ_a² (grey)", "veil") in key
    assert ("boundary of the weights clicked", "dotted") in key
    bare = FrameRequest(FRUITY, T, ("a", "b"), ("#E69F00", "#0072B2"), (spec,),
                        layers=frozenset({"heatmap", "points"}), **base)
    assert not {kind for _, kind in legend_key(bare.specs, compute(bare), bare)} & {"sample", "veil", "dotted"}


def test_the_boundary_cloud_is_kept_for_the_same_fit_and_redrawn_for_another():
    from probviz import scene

    m = _fit(FRUITY, T)
    bounds = (-2.0, 4.0, -2.0, 4.0)
    five = scene.sample_boundaries(m, bounds, 5, 0)
    assert scene.sample_boundaries(m, bounds, 5, 0) is five  # a redraw: the same lines
    assert len(scene.sample_boundaries(m, bounds, 7, 0)) == 7 and len(five) == 5
    other_seed = scene.sample_boundaries(m, bounds, 5, 1)
    assert not np.allclose(other_seed[0], five[0])
    moved = _fit(FRUITY + [0.5, 0.0], T)  # another fit: its own cloud, shifted with the points
    np.testing.assert_allclose(np.vstack(scene.sample_boundaries(moved, bounds, 5, 0))[:, 1],
                               np.vstack(scene.sample_boundaries(_fit(FRUITY + [0.5, 0.0], T), bounds, 5, 0))[:, 1])
    assert not np.allclose(scene.sample_boundaries(moved, bounds, 5, 0)[0], five[0])


def test_a_frame_drawn_while_the_hand_moves_leaves_the_weight_space_out():
    """The likelihood's grid costs a pass over every point per node: a draft frame (a drag) skips it, the
    frame after the hand rests carries it."""
    spec = ModelSpec.make("logistic", {"bayes": True})
    args = (FRUITY, T, ("a", "b"), ("#E69F00", "#0072B2"), (spec,))
    moving = compute(FrameRequest(*args, shape=(16, 16), weights=True, draft=True))
    rested = compute(FrameRequest(*args, shape=(16, 16), weights=True))
    assert moving.weights is None and isinstance(rested.weights, ws.WeightSpace)


@pytest.mark.parametrize("aspect", [0.45, 1.0, 1.8])
def test_the_box_takes_the_plots_shape_and_keeps_its_spacing(aspect):
    """A plot of height / width ``aspect`` with equal scales shows a box of that shape: the grid is widened about
    its middle to it (its own box inside), with nodes as far apart as before, so that its contours reach every
    edge of the plot."""
    lap = _fit(FRUITY, T).laplace_
    own = ws.weight_space(lap, FRUITY, T)
    shaped = ws.weight_space(lap, FRUITY, T, aspect=aspect)
    span = lambda v: v[-1] - v[0]  # noqa: E731
    assert span(shaped.w2) / span(shaped.w1) == pytest.approx(aspect, rel=1e-12)
    assert shaped.w1[0] <= own.w1[0] and shaped.w1[-1] >= own.w1[-1]
    assert shaped.w2[0] <= own.w2[0] and shaped.w2[-1] >= own.w2[-1]
    assert (shaped.w1[0] + shaped.w1[-1]) / 2 == pytest.approx((own.w1[0] + own.w1[-1]) / 2)
    assert (shaped.w2[0] + shaped.w2[-1]) / 2 == pytest.approx((own.w2[0] + own.w2[-1]) / 2)
    for a, b in ((shaped.w1, own.w1), (shaped.w2, own.w2)):
        assert np.diff(a).max() <= 1.05 * np.diff(b).max()  # as fine as before
    assert shaped.surfaces["prior"].shape == (len(shaped.w2), len(shaped.w1))


@given(x0=st.floats(-1e3, 1e3), dx=st.floats(1e-3, 1e3), y0=st.floats(-1e3, 1e3), dy=st.floats(1e-3, 1e3),
       aspect=st.floats(0.05, 20.0))
@example(x0=512.0, dx=1.0, y0=0.0, dy=0.001, aspect=17.0)  # ends far from 0: their differences lose digits
@settings(max_examples=200, deadline=None)
def test_the_shown_box_is_the_largest_of_the_plots_shape_inside_the_grid(x0, dx, y0, dy, aspect):
    """The panel shows a box of its own shape inside the grid (its shape may be up to a step off the one the grid
    was computed for: a wider box left bare strips): one axis whole, the other narrowed about its middle."""
    (a0, a1), (b0, b1) = ws.inner_box((x0, x0 + dx), (y0, y0 + dy), aspect)
    tol = 1e-9 * (abs(x0) + abs(y0) + dx + dy)  # (rounding of ends far from 0: their difference loses digits)
    assert x0 - tol <= a0 and a1 <= x0 + dx + tol and y0 - tol <= b0 and b1 <= y0 + dy + tol  # inside
    assert (b1 - b0) == pytest.approx(aspect * (a1 - a0), rel=1e-9, abs=(1 + aspect) * tol)  # of the plot's shape
    assert (a1 - a0) == pytest.approx(dx, rel=1e-9, abs=tol) or (b1 - b0) == pytest.approx(dy, rel=1e-9, abs=tol)
    assert (a0 + a1) / 2 == pytest.approx(x0 + dx / 2, rel=1e-9, abs=tol)  # about the middle
    assert (b0 + b1) / 2 == pytest.approx(y0 + dy / 2, rel=1e-9, abs=tol)
