"""The pure pipeline: request -> fits -> frame, checked against independent computations."""

import inspect
import warnings
from dataclasses import replace

import numpy as np
import pytest
from hypo import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import gaussian_explain
from scipy.special import ndtr, softmax

from probviz import pipeline, scene
from probviz.snapshot import frame_request, from_session, with_model
from probviz.colors import hex_to_rgb
from probviz.data.dataset import Dataset
from probviz.data.session import Session
from probviz.models import PROBABILISTIC_NAMES as MODEL_NAMES, REGISTRY, create
from probviz.models.base import NotFittedError
from probviz.pipeline import Fit, FrameRequest, ModelSpec, build_frame, compute, fit_model

COLORS = ("#0072B2", "#D55E00", "#009E73")


def request(X, y, specs, **kw):
    kw.setdefault("bounds", (-4.0, 6.0, -4.0, 6.0))
    kw.setdefault("shape", (64, 48))
    return FrameRequest(X, y, ("a", "b", "c"), COLORS, tuple(specs), **kw)


@pytest.fixture
def data(three_blobs):
    X, y = three_blobs
    return X, np.searchsorted(np.unique(y), y)


def test_spec_fills_in_the_registry_defaults_and_only_them():
    spec = ModelSpec.make("softmax", {"l2": 0.5, "nonsense": 3})
    assert spec.kwargs == {"l2": 0.5, "basis": "linear", "standardize": True, "centers": "", "width": 0.0}
    assert ModelSpec.make("lda").kwargs == {"reg_covar": 0.0}


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_model_class_defaults_are_the_registry_defaults(name):
    """One default per parameter: a model made directly equals one made through the registry."""
    sig = inspect.signature(REGISTRY[name].cls.__init__)
    for p in REGISTRY[name].params:
        assert sig.parameters[p.name].default == p.default, p.name


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_unfitted_model_says_so(data, name):
    with pytest.raises(NotFittedError, match="not fitted"):
        create(name).predict_proba([[0.0, 0.0]])
    with pytest.raises(ValueError):  # a ValueError too, so every caller's error path catches it
        create("softmax").predict([[0.0, 0.0]])


def test_priors_go_to_the_classes_present_in_order():
    labels = np.array([0, 0, 2, 2])  # class 1 has no points
    spec = pipeline.model_spec("lda", {}, priors=[0.5, 0.3, 0.2], labels=labels)
    assert spec.kwargs["priors"] == [0.5, 0.2]
    assert "priors" not in pipeline.model_spec("logistic", {}, [0.5, 0.5], np.array([0, 1])).kwargs


def test_frame_of_a_generative_model_matches_scipy(data):
    X, y = data
    probe = (1.0, 0.5)
    frame = compute(request(X, y, [ModelSpec.make("qda")], probe=probe))
    ref = gaussian_explain(X, y, probe, shared=False)
    k = int(np.argmax(ref["posterior"]))
    assert frame.probe.label == f"p({'abc'[k]}|x) = {ref['posterior'][k]:.3f}"
    assert f"p(x|b) = {ref['density'][1]:.4g}" in "\n".join(frame.probe.lines)
    hover = frame.posteriors_at(-1.0, 3.0)
    ref_h = gaussian_explain(X, y, (-1.0, 3.0), shared=False)["posterior"]
    assert [n for n, _ in hover] == ["a", "b", "c"]
    np.testing.assert_allclose([p for _, p in hover], ref_h, rtol=1e-9)


def test_hidden_layers_are_not_computed(data):
    X, y = data
    frame = compute(request(X, y, [ModelSpec.make("qda")], layers=frozenset({"points"})))
    sc = frame.scene
    assert sc.posterior is None and sc.image is None and sc.decision is None
    assert sc.boundaries == [] and sc.ellipses == [] and sc.density == []
    frame = compute(request(X, y, [ModelSpec.make("qda")], layers=frozenset({"decision"})))
    assert frame.scene.decision is not None and frame.scene.image is None and frame.scene.boundaries == []


def test_heatmap_strength_and_colours_are_the_documented_blend(data):
    """pixel = bg + strength * c * (sum_k p_k colour_k - bg), c = (max p - 1/K) / (1 - 1/K)."""
    X, y = data
    req = request(X, y, [ModelSpec.make("lda")], layers=frozenset({"heatmap"}), shape=(16, 12))
    frame = compute(req)
    model = frame.fit.model
    xs, ys = scene.grid_axes(req.bounds, 16, 12)
    G = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
    P = softmax(model.decision_function(G), axis=1)
    c = (P.max(axis=1) - 1 / 3) / (1 - 1 / 3)
    cols = np.array([hex_to_rgb(h) for h in COLORS], float)
    expected = 255 + 0.45 * c[:, None] * (P @ cols - 255)
    got = frame.scene.image[..., :3].reshape(-1, 3).astype(float)
    assert np.abs(got - expected).max() <= 1.0
    assert np.all(frame.scene.image[..., 3] == 255)


def _inside_even_odd(points, rings):
    """Point-in-polygon by ray casting, even-odd over all rings (written out here, independently)."""
    inside = np.zeros(len(points), bool)
    x, y = points[:, 0], points[:, 1]
    for r in rings:
        a, b = r, np.roll(r, -1, axis=0)
        for (x1, y1), (x2, y2) in zip(a, b):
            crosses = (y1 > y) != (y2 > y)
            with np.errstate(divide="ignore", invalid="ignore"):
                xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            inside ^= crosses & (x < xc)
    return inside


def test_the_reject_region_covers_exactly_where_max_p_is_below_theta(data):
    X, y = data
    req = request(X, y, [ModelSpec.make("qda")], layers=frozenset({"decision"}), theta=0.8, shape=(160, 120),
                  reject=(1, 2, 3))
    frame = compute(req)
    assert frame.scene.reject_color == (1, 2, 3)
    x0, x1, y0, y1 = req.bounds
    u, v = np.meshgrid(np.linspace(x0, x1, 97)[1:-1], np.linspace(y0, y1, 89)[1:-1])
    G = np.c_[u.ravel(), v.ravel()]
    pmax = frame.fit.model.predict_proba(G).max(axis=1)
    inside = _inside_even_odd(G, frame.scene.reject)
    clear = np.abs(pmax - 0.8) > 0.01  # away from the edge, where the grid's tracing may differ
    assert clear.sum() > 0.8 * len(G) and (pmax < 0.8).any() and (pmax > 0.8).any()
    np.testing.assert_array_equal(inside[clear], (pmax < 0.8)[clear])


@pytest.mark.parametrize("name, link", [("logistic", lambda a: 1 / (1 + np.exp(-a))), ("probit", ndtr)])
@pytest.mark.parametrize("basis, layers",
                         [("linear", {"heatmap"}), ("quadratic", {"heatmap"}), ("linear", {"decision"})])
def test_one_vs_rest_undecided_polygons_cover_exactly_where_no_or_several_classes_claim(data, name, link, basis,
                                                                                       layers):
    """Bishop 4.1.2: the undecided regions as polygons (hatched on the canvas and in figures): a point inside the
    rings (even-odd) exactly where the number of k with link(a_k) > 1/2 is not one, away from the curves a_k = 0
    by more than two grid cells (where the tracing on every other node may differ); with the heatmap or the
    decision regions. A softmax model decides everywhere: no rings, nothing hatched."""
    X, y = data
    req = request(X, y, [ModelSpec.make(name, {"basis": basis})], layers=frozenset(layers), shape=(160, 120),
                  bounds=(-8.0, 10.0, -8.0, 10.0))
    frame = compute(req)
    rings = frame.scene.ambiguous_rings
    assert rings and all(len(r) >= 3 and np.isfinite(r).all() for r in rings)
    x0, x1, y0, y1 = req.bounds
    u, v = np.meshgrid(np.linspace(x0, x1, 97)[1:-1], np.linspace(y0, y1, 89)[1:-1])
    G = np.c_[u.ravel(), v.ravel()]
    A = frame.fit.model.decision_function(G)
    claims = np.sum(link(A) > 0.5, axis=1)
    cell = 2 * max((x1 - x0) / 160, (y1 - y0) / 120)
    step = 1e-4 * (x1 - x0)  # |grad a_k| by central differences: the distance to a_k = 0 is about |a_k| / |grad|
    dx = frame.fit.model.decision_function(G + [step, 0]) - frame.fit.model.decision_function(G - [step, 0])
    dy = frame.fit.model.decision_function(G + [0, step]) - frame.fit.model.decision_function(G - [0, step])
    distance = np.abs(A) / (np.hypot(dx, dy) / (2 * step))
    clear = distance.min(axis=1) > 2 * cell
    inside = _inside_even_odd(G, rings)
    assert clear.sum() > 0.5 * len(G) and (claims[clear] != 1).any() and (claims[clear] == 1).any()
    np.testing.assert_array_equal(inside[clear], (claims != 1)[clear])
    assert frame.scene.hatched and frame.scene.ambiguous is None  # no image of the grid besides
    softmax = compute(request(X, y, [ModelSpec.make("softmax")], layers=frozenset(layers))).scene
    assert softmax.ambiguous_rings is None and not softmax.hatched


def _signed_area(ring):
    x, y = ring[:, 0] - ring[0, 0], ring[:, 1] - ring[0, 1]
    return 0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


@given(K=st.integers(3, 10), seed=st.integers(0, 10_000), offset=st.sampled_from([0.0, 1e6, -3e5]),
       scale=st.sampled_from([1e-6, 1.0, 1e6]), bias=st.sampled_from([0.0, 1.0, -2.0]))
@settings(deadline=None)
def test_straight_one_vs_rest_undecided_regions_are_exact_polygons(K, seed, offset, scale, bias):
    """Straight scores a_k = c_k + w_k . (x - center) / scale (linear logistic or probit regression, one-vs-rest):
    the undecided region (no a_k > 0, or several) as polygons with no grid, exact up to rounding: 4,000 places in
    the view, also a millionth of the view from a line a_k = 0 (or a thousand ulps of x where that is less), each
    inside (even-odd) exactly when the count of positive scores, written out here, is not one. K up to 10, at
    offsets of 1e6 and scales from 1e-6 to 1e6; the view anticlockwise and every hole clockwise (matplotlib's
    nonzero fill leaves them empty)."""
    from probviz.models.poly import Poly2D

    rng = np.random.default_rng(seed)
    center, s = np.array([offset, -offset]) + rng.normal(0, scale, 2), scale * rng.uniform(0.5, 2.0, 2)
    coefs = np.zeros((K, 2, 2))
    coefs[:, 0, 0] = bias + rng.normal(0, 1.0, K)
    coefs[:, 1, 0], coefs[:, 0, 1] = rng.normal(0, 1.0, K), rng.normal(0, 1.0, K)
    bounds = (center[0] - 3 * s[0], center[0] + 2 * s[0], center[1] - 2.5 * s[1], center[1] + 3 * s[1])
    rings = scene.undecided_rings(None, bounds, Poly2D(center, s, coefs))
    Z = rng.uniform([-3, -2.5], [2, 3], (4000, 2))
    k = rng.integers(0, K, 4000)  # every other place pushed onto a line a_k = 0 and a millionth off it
    w = coefs[k][:, [1, 0], [0, 1]]
    on = Z - ((coefs[k, 0, 0] + np.sum(w * Z, axis=1)) / np.sum(w * w, axis=1))[:, None] * w
    off = max(5e-6, 1e3 * np.spacing(np.abs(center).max()) / s.min())  # (a thousand of x's ulps at 1e6 / 1e-6)
    side = rng.choice([-1.0, 1.0], 4000)[:, None] * w / np.linalg.norm(w, axis=1)[:, None] * off
    Z[::2] = (on + side)[::2]
    keep = np.all((Z > [-3, -2.5]) & (Z < [2, 3]), axis=1)
    Z = Z[keep]
    A = coefs[:, 0, 0] + Z @ np.stack([coefs[:, 1, 0], coefs[:, 0, 1]])
    undecided = np.count_nonzero(A > 0, axis=1) != 1
    inside = _inside_even_odd(center + s * Z, rings)
    if not rings:
        assert not undecided.any()
        return
    np.testing.assert_array_equal(inside, undecided)
    assert _signed_area(rings[0]) > 0 and all(_signed_area(r) < 0 for r in rings[1:])


def test_constant_one_vs_rest_scores_decide_everywhere_or_nowhere():
    """Scores without slopes (a polynomial of its constants alone): one class positive decides the whole view (no
    rings); none positive, or two, leave the whole view undecided (the view's ring)."""
    from probviz.models.poly import Poly2D

    bounds = (-1.0, 2.0, -3.0, 1.0)
    view = np.array([[-1.0, -3.0], [2.0, -3.0], [2.0, 1.0], [-1.0, 1.0]])
    for constants, rings in (([1.0, -1.0, -2.0], []), ([-1.0, -1.0, -2.0], [view]), ([1.0, 2.0, -2.0], [view])):
        got = scene.undecided_rings(None, bounds, Poly2D(np.zeros(2), np.ones(2), np.array(constants)[:, None, None]))
        assert len(got) == len(rings) and all(np.array_equal(g, r) for g, r in zip(got, rings))


def test_density_image_opacity_grows_with_the_count():
    """Opacity 90 + 165 log(1 + n) / log(1 + n_max); a pixel's colour is its classes' count-weighted mix."""
    X = np.array([[0.1, 0.1]] * 9 + [[0.6, 0.6]] * 2 + [[0.6, 0.6]] * 1 + [[0.9, 0.1]])
    labels = np.array([0] * 9 + [0] * 2 + [1] * 1 + [1])
    img = scene.density_image(X, labels, ["#FF0000", "#0000FF"], (0, 1, 0, 1), shape=(4, 4))
    alpha = lambda n: round(90 + 165 * np.log1p(n) / np.log1p(9))  # noqa: E731
    assert img[0, 0, 3] == alpha(9) == 255 and img[2, 2, 3] == alpha(3) and img[0, 3, 3] == alpha(1)
    assert tuple(img[2, 2, :3]) == (170, 0, 85)  # two red, one blue
    assert img[3, 0, 3] == 0  # empty pixels stay transparent


def test_two_models_in_one_frame_overlay_boundaries(data):
    X, y = data
    specs = [ModelSpec.make("lda"), ModelSpec.make("logistic")]
    frame = compute(request(X, y, specs))
    assert [f.spec.name for f in frame.fits] == ["lda", "logistic"]
    assert frame.scene.ellipses and frame.overlays and frame.overlays[0]
    own = scene.boundaries(create("logistic").fit(X, y), (-4.0, 6.0, -4.0, 6.0))
    np.testing.assert_allclose(frame.overlays[0][0].xy, own[0].xy)


def test_a_trainer_hands_in_its_own_fits(data):
    """Any sequence of fitted models (a trainer's steps) gets a frame each, drawn from that model."""
    X, y = data
    req = request(X, y, [ModelSpec.make("softmax")], layers=frozenset({"heatmap"}))
    frames = []
    for max_iter in (1, 2, 50):
        model = create("softmax", max_iter=max_iter).fit(X, y)
        frames.append(build_frame(req, [Fit(req.specs[0], model, np.arange(3))]))
    first, last = frames[0].scene.posterior, frames[-1].scene.posterior
    assert np.abs(first - last).max() > 0.01  # one step is not the optimum
    xs, ys = scene.grid_axes(req.bounds, *req.shape)
    G = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
    np.testing.assert_allclose(last.reshape(-1, 3), create("softmax").fit(X, y).predict_proba(G), atol=1e-5)


def test_reusing_fits_for_a_new_view(data):
    X, y = data
    first = compute(request(X, y, [ModelSpec.make("qda")]))
    moved = compute(request(X, y, [ModelSpec.make("qda")], bounds=(0.0, 1.0, 0.0, 1.0)), first, refit=False)
    assert moved.fits[0] is first.fits[0] and moved.scene.bounds == (0.0, 1.0, 0.0, 1.0)


def test_a_failed_fit_says_why_and_draws_nothing():
    spec = ModelSpec.make("lda", {"reg_covar": 2.0})
    fit = fit_model(spec, np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([0, 1]))
    assert not fit.ok and "reg_covar" in fit.error
    frame = build_frame(request(np.zeros((2, 2)), np.array([0, 1]), [spec]), [fit])
    assert frame.scene is None and frame.posteriors_at(0, 0) == []


def test_session_spec_and_request_carry_every_setting():
    data = Dataset(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [3.0, 3.0]]), [0, 0, 1, 1], ["u", "v"],
                   probe=(0.5, 0.5))
    s = Session(data, "softmax", {"softmax": {"l2": 0.3, "basis": "quadratic", "standardize": False}},
                ["decision", "points"], (0, 1, 0, 1), priors=(0.2, 0.8), theta=0.6)
    req = frame_request(from_session(s), (0, 1, 0, 1), (20, 10), (1, 2, 3), (4, 5, 6))
    assert req.X is data.X and req.labels is data.labels and req.class_names == ("u", "v")
    assert req.colors == tuple(data.colors) and req.bounds == (0, 1, 0, 1) and req.shape == (20, 10)
    assert req.background == (1, 2, 3) and req.reject == (4, 5, 6)
    assert req.specs[0].kwargs == {"l2": 0.3, "basis": "quadratic", "standardize": False, "centers": "", "width": 0.0}
    assert req.layers == {"decision", "points"} and req.theta == 0.6 and req.probe == (0.5, 0.5)
    assert frame_request(with_model(from_session(s), "lda"), (0, 1, 0, 1)).specs[0].kwargs["priors"] == [0.2, 0.8]
    with pytest.raises(ValueError, match="unknown model"):
        pipeline.session_spec(s, "svm")


def test_the_bayesian_views_heatmap_hatches_one_vs_rest_as_the_fit_does(data):
    """Logistic regression's Bayesian view (the predictive heatmap, Bishop 4.5.2) with three classes: the
    undecided regions are the MAP fit's (a_k > 0 for no k or several), as polygons."""
    X, y = data
    req = request(X, y, [ModelSpec.make("logistic", {"bayes": True})], layers=frozenset({"heatmap", "predictive"}),
                  shape=(160, 120), bounds=(-8.0, 10.0, -8.0, 10.0))
    frame = compute(req)
    assert frame.fit.model.ovr_ and frame.fit.model.laplace_ is not None
    u, v = np.meshgrid(np.linspace(-8.0, 10.0, 97)[1:-1], np.linspace(-8.0, 10.0, 89)[1:-1])
    G = np.c_[u.ravel(), v.ravel()]
    A = frame.fit.model.decision_function(G)
    clear = np.abs(A).min(axis=1) > 0.5  # away from the curves a_k = 0
    inside = _inside_even_odd(G, frame.scene.ambiguous_rings)
    ambiguous = np.sum(A > 0, axis=1) != 1
    assert clear.sum() > 0.5 * len(G) and ambiguous[clear].any() and (~ambiguous[clear]).any()
    np.testing.assert_array_equal(inside[clear], ambiguous[clear])


def test_one_vs_rest_likelihood_is_the_sum_of_its_binary_fits(data):
    X, y = data
    m = create("logistic").fit(X, y)
    s, _ = m.evaluate(X, y)
    a = m.decision_function(X)
    t = (y[:, None] == np.arange(3)).astype(float)
    each = np.sum(t * np.log(1 / (1 + np.exp(-a))) + (1 - t) * np.log(1 / (1 + np.exp(a))), axis=0)
    np.testing.assert_allclose(s["binary_log_likelihoods"], each, rtol=1e-10)
    assert s["log_likelihood"] == pytest.approx(each.sum()) and "one-vs-rest" in s["log_likelihood_kind"]
    assert create("qda").fit(X, y).evaluate(X, y)[0]["log_likelihood_kind"] == "joint ln p(X, t)"
    assert create("softmax").fit(X, y).evaluate(X, y)[0]["log_likelihood_kind"] == "conditional ln p(t|X)"


def test_clip_polyline_cuts_segments_exactly_at_the_rectangle():
    from probviz.figure_layout import clip_polyline

    rect = (0.0, 0.0, 10.0, 10.0)
    (piece,) = clip_polyline(np.array([[-5.0, 5.0], [5.0, 5.0], [15.0, 5.0]]), rect)
    np.testing.assert_allclose(piece, [[0, 5], [5, 5], [10, 5]])
    pieces = clip_polyline(np.array([[2.0, 2.0], [2.0, 20.0], [8.0, 20.0], [8.0, 2.0]]), rect)
    assert [p.tolist() for p in pieces] == [[[2, 2], [2, 10]], [[8, 10], [8, 2]]]
    assert clip_polyline(np.array([[20.0, 20.0], [30.0, 30.0]]), rect) == []
    pieces = clip_polyline(np.array([[1.0, 1.0], [2.0, 2.0], [np.nan, np.nan], [3.0, 3.0], [4.0, 4.0]]), rect)
    assert len(pieces) == 2


def test_the_length_of_a_polyline_inside_a_box():
    """A line across a 10 x 10 box from edge to edge is 10 long inside; a diagonal 10 sqrt 2; one outside 0;
    NaN rows break a polyline into pieces, each counted."""
    from probviz.figure_layout import clip_polyline, length_inside

    box = (0.0, 0.0, 10.0, 10.0)
    assert length_inside(np.array([[-5.0, 5.0], [15.0, 5.0]]), box) == pytest.approx(10.0)
    assert length_inside(np.array([[-1.0, -1.0], [11.0, 11.0]]), box) == pytest.approx(10 * np.sqrt(2))
    assert length_inside(np.array([[20.0, 0.0], [30.0, 10.0]]), box) == 0.0
    two = np.array([[2.0, -1.0], [2.0, 3.0], [np.nan, np.nan], [5.0, 5.0], [8.0, 9.0]])
    assert length_inside(two, box) == pytest.approx(3.0 + 5.0)
    assert length_inside(np.array([[1.0, 1.0]]), box) == 0.0  # a point is no length
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # segments along an axis divide by zero, on purpose: no warning
        # a box away from the origin; segments along its edges' directions, one just inside its left edge
        away = (100.0, -50.0, 10.0, 20.0)
        assert length_inside(np.array([[100.5, -60.0], [100.5, -20.0]]), away) == pytest.approx(20.0)
        assert length_inside(np.array([[99.5, -60.0], [99.5, -20.0]]), away) == 0.0  # just outside
        assert length_inside(np.array([[90.0, -40.0], [120.0, -40.0]]), away) == pytest.approx(10.0)
        # small steps (each under a unit) across the right edge: cut exactly where it crosses
        steps = np.column_stack([np.linspace(105.0, 115.0, 41), np.full(41, -45.0)])
        assert length_inside(steps, away) == pytest.approx(5.0)
    pieces = clip_polyline(np.array([[95.0, -40.0], [105.0, -40.0]]), away)  # two points are a line too
    assert len(pieces) == 1 and np.allclose(pieces[0], [[100.0, -40.0], [105.0, -40.0]])


def test_ticks_are_round_numbers_inside_the_view():
    from probviz.figure_layout import nice_ticks, tick_labels

    values, spacing = nice_ticks(-1.0, 4.0, 450)
    assert spacing == 1.0 and values == [-1.0, 0.0, 1.0, 2.0, 3.0, 4.0]
    values, spacing = nice_ticks(0.013, 0.0871, 800)
    assert spacing == 0.01 and values[0] == pytest.approx(0.02) and values[-1] <= 0.0871
    assert tick_labels([-0.5, 0.0, 0.5, 1.0], 0.5) == ["-0.5", "0.0", "0.5", "1.0"]  # one precision for all
    assert tick_labels([-0.1, -1e-17, 0.1], 0.1) == ["-0.1", "0.0", "0.1"]  # -0 rounds to 0.0, no sign
    assert tick_labels([-1.0, 0.0, 1.0], 1.0) == ["-1", "0", "1"]
    assert tick_labels([1e6, 2e6], 1e6) == ["1e+06", "2e+06"]
    # far from the origin, the plain form when it is the shorter: "1.0000005e+06" said it longer
    assert tick_labels([1e6, 1e6 + 0.5, 1e6 + 1], 0.5) == ["1000000.0", "1000000.5", "1000001.0"]
    assert tick_labels([999990.0, 1e6, 1000010.0], 10.0) == ["999990", "1000000", "1000010"]
    assert tick_labels([2e-6, 2.5e-6], 5e-7) == ["2.0e-06", "2.5e-06"]  # tiny: the scientific form is shorter
    values, spacing = nice_ticks(0.0, 3.0, 700)  # three steps across a wide plot: half steps
    assert spacing == 0.5
    values, spacing = nice_ticks(0.0, 3.0, 700, least=1.0)  # an axis of steps has none
    assert spacing == 1.0 and values == [0.0, 1.0, 2.0, 3.0]
    values, spacing = nice_ticks(0.0, 300.0, 700, least=1.0)  # and many steps keep their round spacing
    assert spacing == 50.0


@pytest.mark.parametrize("point", [(0.5, 1.0), (0.0, 0.0), (-3e-7, 2e-6), (1e6, -1e6)])
def test_one_point_is_framed_in_a_view_of_its_own_size_not_a_sliver(point):
    """A one-row file used to open at +-0.0075 around its point: the view is a unit (or a tenth of the
    coordinate, when larger) each way, the point in the middle."""
    from probviz.figure_layout import view_of

    x0, x1, y0, y1 = view_of(np.array([point]))
    for (lo, hi), v in (((x0, x1), point[0]), ((y0, y1), point[1])):
        assert lo < v < hi and (lo + hi) / 2 == pytest.approx(v, abs=1e-9 * max(1.0, abs(v)))
        assert hi - lo == pytest.approx(2 * max(1.0, 0.1 * abs(v)), rel=1e-12)  # a unit, or a tenth of |v|


def test_points_are_framed_with_a_margin_of_their_extent():
    """Points spanning 10 by 4: 15% of each extent beyond them on every side (the default margin)."""
    from probviz.figure_layout import view_of

    X = np.array([[2.0, -1.0], [12.0, 3.0], [5.0, 0.0]])
    np.testing.assert_allclose(view_of(X), (0.5, 13.5, -1.6, 3.6))
    np.testing.assert_allclose(view_of(X, margin=0.5), (-3.0, 17.0, -3.0, 5.0))
    assert view_of(np.empty((0, 2))) == (-5.0, 5.0, -5.0, 5.0)
    # far from the origin an extent is framed as it is: at 1e6 a spread of 1e-3 is a million units of a float's
    # last digit there (about 1e-10), data, not rounding
    x0, x1, y0, y1 = view_of(np.array([[1e6, 1e6], [1e6 + 1e-3, 1e6 + 2e-3]]))
    np.testing.assert_allclose((x1 - x0, y1 - y0), (1.3e-3, 2.6e-3), rtol=1e-6)
    np.testing.assert_allclose((x0, y1), (1e6 - 0.15e-3, 1e6 + 2e-3 + 0.3e-3), rtol=0, atol=1e-9)
    # below a billionth of the coordinates, the points are one (a spread of rounding): framed as that billionth
    x0, x1, _, _ = view_of(np.array([[1e6, 0.0], [1e6 + 1e-9, 1.0]]))
    assert x1 - x0 == pytest.approx(1e-9 + 0.3 * 1e-9 * (1 + 1e6), rel=1e-6)


def test_points_on_a_line_along_an_axis_get_a_square_view():
    """Points on x = 3 from y = 0 to 10: the flat direction is as wide as the other, not a sliver."""
    from probviz.figure_layout import view_of

    x0, x1, y0, y1 = view_of(np.array([[3.0, 2.0], [3.0, 4.0], [3.0, 10.0]]))
    assert x1 - x0 == pytest.approx(y1 - y0) and (x0 + x1) / 2 == pytest.approx(3.0)
    np.testing.assert_allclose((y0, y1), (2.0 - 1.2, 10.0 + 1.2))
    x0, x1, y0, y1 = view_of(np.array([[1.0, 1.0], [3.0, 1.0]]))  # and along the other axis
    assert y1 - y0 == pytest.approx(x1 - x0) and (y0 + y1) / 2 == pytest.approx(1.0)


def test_a_drag_updates_a_gaussian_fit_from_its_statistics_exactly(data):
    X, y = data
    before = fit_model(ModelSpec.make("qda"), X, y)
    X2 = X.copy()
    idx = np.array([3, 70])
    X2[idx] += [[5.0, -2.0], [0.5, 0.5]]
    after = fit_model(ModelSpec.make("lda"), X2, y, previous=before, moved=(idx, X[idx]))
    full = create("lda").fit(X2, y)
    assert after.incremental and after.model.name == "lda"
    np.testing.assert_allclose(after.model.covariance_, full.covariance_, rtol=1e-10)
    np.testing.assert_allclose(after.model.means_, full.means_, rtol=1e-12)
    assert after.summary["accuracy"] == pytest.approx(full.accuracy(X2, y))
    # no moves recorded, or a discriminative model: a full fit
    assert not fit_model(ModelSpec.make("lda"), X2, y, previous=before).incremental
    assert not fit_model(ModelSpec.make("softmax"), X2, y, previous=before, moved=(idx, X[idx])).incremental


def test_fits_start_from_the_previous_fit_of_the_same_model(data):
    X, y = data
    req = request(X, y, [ModelSpec.make("softmax"), ModelSpec.make("logistic")])
    first = compute(req)
    X2 = X.copy()
    X2[0] += 0.1
    second = pipeline.fit_all(request(X2, y, req.specs), first)
    assert [f.model.start_ for f in second] == ["the previous fit", "the previous fit"]
    assert all(f.summary for f in second)
    lazy = pipeline.fit_all(request(X2, y, req.specs), first, evaluate=False)
    assert not lazy[0].summary and lazy[0].wrong is None
    full = pipeline.evaluate(lazy[0], X2, y)
    assert full.summary == second[0].summary and np.array_equal(full.wrong, second[0].wrong)
    assert pipeline.evaluate(full, X2, y) is full  # already complete


def test_an_empty_document_fits_nothing():
    fit = fit_model(ModelSpec.make("lda"), np.empty((0, 2)), np.empty(0, int))
    assert not fit.ok and not fit.error and fit.summary == {}


@pytest.mark.parametrize("K", [2, 3, 5])
def test_parameter_counts_follow_the_formulas(K):
    """M features: 2 (linear), 5 (quadratic), 9 (cubic). Gaussian: (K-1) priors + K M means + covariance
    entries (M(M+1)/2 shared, K M(M+1)/2 own, K M naive Bayes); logistic M + 1 (two classes) or K (M + 1);
    softmax (K - 1)(M + 1) (Bishop 4.2-4.3)."""
    from probviz.models import parameter_count

    assert parameter_count("lda", K) == (K - 1) + 2 * K + 3
    assert parameter_count("qda", K) == (K - 1) + 2 * K + 3 * K
    assert parameter_count("nb", K) == (K - 1) + 2 * K + 2 * K
    for basis, M in (("linear", 2), ("quadratic", 5), ("cubic", 9)):
        assert parameter_count("softmax", K, basis) == (K - 1) * (M + 1)
        assert parameter_count("logistic", K, basis) == (M + 1 if K == 2 else K * (M + 1))
    assert parameter_count("softmax", 1) == parameter_count("logistic", 1) == 0
    X = np.random.default_rng(K).normal(size=(12 * K, 2))
    y = np.repeat(np.arange(K), 12)
    for name in MODEL_NAMES:
        m = create(name).fit(X, y)
        assert m.n_parameters() == parameter_count(name, K)


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_a_discriminative_probe_shows_its_scores_and_posterior(data, name):
    """No densities: the probe's lines give a_k (the model's scores) and p(C_k|x), which for softmax is
    exp(a_k) / sum_j exp(a_j) (Bishop eq. 4.104)."""
    X, y = data
    probe = (0.7, -0.4)
    frame = compute(request(X, y, [ModelSpec.make(name)], probe=probe))
    m = frame.fit.model
    a = m.decision_function([probe])[0]
    p = m.predict_proba([probe])[0]
    if name == "softmax":
        np.testing.assert_allclose(p, np.exp(a) / np.exp(a).sum(), rtol=1e-12)
    else:  # one-vs-rest: sigma(a_k) normalised
        s = 1 / (1 + np.exp(-a))
        np.testing.assert_allclose(p, s / s.sum(), rtol=1e-12)
    lines = frame.probe.lines
    assert lines[0] == "x = (0.7, -0.4)"
    for k, cls in enumerate("abc"):
        link = "" if name == "softmax" else f"σ(a) = {1 / (1 + np.exp(-a[k])):.4g}   "  # one-vs-rest's own link
        assert lines[k + 1] == f"a = {a[k]:.3f}   {link}p({cls}|x) = {p[k]:.4f}"
    e = m.explain(probe)
    assert set(e) == {"a", "posterior"}


def test_switching_among_gaussian_models_reuses_the_statistics(data):
    X, y = data
    lda = compute(request(X, y, [ModelSpec.make("lda")]))
    none_moved = (np.empty(0, np.int64), np.empty((0, 2)))
    qda = compute(request(X, y, [ModelSpec.make("qda")]), lda, moved=none_moved)
    assert qda.fit.incremental and qda.fit.model.name == "qda"  # from LDA's statistics, no pass over the points
    np.testing.assert_allclose(qda.fit.model.covariances_, create("qda").fit(X, y).covariances_, rtol=1e-12)
    # only the first spec inherits a fit of another model; an overlay starts afresh
    two = compute(request(X, y, [ModelSpec.make("nb"), ModelSpec.make("qda")]), lda, moved=none_moved)
    assert [f.incremental for f in two.fits] == [True, False]
    # a refit with the same specs fits the new points
    X2 = X + 1.0
    again = compute(request(X2, y, [ModelSpec.make("lda")]), lda, refit=True)
    assert again.fit is not lda.fit
    np.testing.assert_allclose(again.fit.model.means_, lda.fit.model.means_ + 1.0)


def test_evaluating_a_fit_keeps_everything_else():
    X = np.array([[0.0, 0.0], [1.0, 0.2], [3.0, 3.0], [3.5, 2.0]])
    y = np.array([0, 0, 1, 1])
    lazy = fit_model(ModelSpec.make("softmax", {"l2": 0.0}), X, y, evaluate=False)
    full = pipeline.evaluate(lazy, X, y)
    assert (full.spec, full.model, full.notices, full.error, full.incremental) == (
        lazy.spec, lazy.model, lazy.notices, lazy.error, lazy.incremental)
    assert full.notices and "separable" in full.notices[0]
    np.testing.assert_array_equal(full.class_index, [0, 1])
    assert full.summary["accuracy"] == 1.0 and full.wrong.tolist() == [False] * 4


def test_notices_name_classes_by_their_names():
    """Classes are named, not numbered: the document's labels are indices 0..K-1, its classes have names."""
    X = np.array([[0.0, 0.0], [1.0, 0.3], [0.2, 1.0], [5.0, 5.0], [3.0, 1.0], [3.5, 1.5], [4.0, 2.0]])
    labels = np.array([0, 0, 0, 1, 2, 2, 2])
    fit = fit_model(ModelSpec.make("qda"), X, labels, names=("apple", "6", "peach"))
    assert fit.notices == ["covariance of class 6 has a single point: regularized",
                           "covariance of class peach is degenerate (points collinear or coincident): regularized"]
    before = fit
    X2 = X.copy()
    X2[4] += 0.1  # a drag: the update from the statistics keeps the names
    moved = fit_model(ModelSpec.make("qda"), X2, labels, previous=before, moved=(np.array([4]), X[[4]]),
                      names=("apple", "6", "peach"))
    assert moved.incremental and moved.notices[0] == "covariance of class 6 has a single point: regularized"


def test_the_truths_scene_is_reused_while_the_truth_and_view_stay():
    """A drag redraws every frame; the truth's boundaries do not change with it."""
    from probviz.data.examples import session
    from probviz.models.truth import with_handle
    from probviz.pipeline import build_frame

    def session_request(s, bounds, shape, layers):
        return frame_request(replace(from_session(s), layers=frozenset(layers)), bounds, shape)

    s = session("xor")
    r = session_request(s, (-3, 3, -3, 3), shape=(64, 64), layers={"truth", "boundaries"})
    a = build_frame(r, []).truth
    assert build_frame(r, []).truth is a and a.boundaries
    moved = replace(r, X=r.X + 0.1)
    assert build_frame(moved, []).truth is a  # points moved, the truth did not
    assert build_frame(replace(r, bounds=(-2, 2, -2, 2)), []).truth is not a
    fruit = session("fruit")
    t2 = with_handle(fruit.dataset.truth, 0, 0, (1.2, 1.0))
    r2 = session_request(fruit, (-1, 3, -1, 4), shape=(64, 64), layers={"truth"})
    first = build_frame(r2, []).truth
    second = build_frame(replace(r2, truth=t2), []).truth
    assert second is not first
    np.testing.assert_allclose(second.ellipses[0][1].mean(axis=0), [1.2, 1.0], atol=0.02)


# --- the train/test split ------------------------------------------------------------------------

@settings(max_examples=examples(300), deadline=None)
@given(n=st.integers(1, 3000), percent=st.integers(1, 90), seed=st.integers(0, 2**31 - 1))
def test_a_split_holds_out_exactly_the_rounded_fraction(n, percent, seed):
    """The fraction as the Lab's box gives it (two decimals): round(f n) points, halves rounded up,
    counted in whole numbers here."""
    held = pipeline.held_out_mask(n, percent / 100, seed)
    assert held.shape == (n,) and held.dtype == bool
    assert np.count_nonzero(held) == (percent * n + 50) // 100
    np.testing.assert_array_equal(held, pipeline.held_out_mask(n, percent / 100, seed))  # the seed decides


@settings(max_examples=examples(200), deadline=None)
@given(n=st.integers(1, 500), percent=st.integers(1, 90), seed=st.integers(0, 2**31 - 1))
def test_adding_a_point_changes_the_role_of_at_most_one_other(n, percent, seed):
    before = pipeline.held_out_mask(n, percent / 100, seed)
    after = pipeline.held_out_mask(n + 1, percent / 100, seed)
    assert np.count_nonzero(before != after[:n]) <= 1


def test_a_split_is_the_seeds_own():
    masks = {tuple(pipeline.held_out_mask(100, 0.3, seed)) for seed in range(20)}
    assert len(masks) == 20
    assert pipeline.held_out_mask(100, 0.0, 3) is None and pipeline.held_out_mask(0, 0.3, 3) is None


def _three_class_session():
    data = Dataset(np.array([[0.0, 0.0], [1.0, 0.2], [3.0, 3.0], [3.5, 2.0], [6.0, 0.0], [6.5, 1.0]]),
                   [0, 0, 1, 1, 2, 2], ["u", "v", "w"])
    return Session(data, "qda", {"qda": {"reg_covar": 0.25}, "logistic": {"l2": 2.0, "basis": "quadratic"}},
                   priors=(0.5, 0.3, 0.2))


def test_a_sessions_spec_is_its_model_with_its_saved_parameters_and_priors():
    s = _three_class_session()
    spec = pipeline.session_spec(s)
    assert spec.name == "qda" and spec.kwargs == {"reg_covar": 0.25, "priors": [0.5, 0.3, 0.2]}
    # a model named on the command line takes its own saved parameters, the overrides over them
    spec = pipeline.session_spec(s, "logistic", {"l2": 0.5})
    assert spec.name == "logistic" and (spec.kwargs["l2"], spec.kwargs["basis"]) == (0.5, "quadratic")
    assert "priors" not in spec.kwargs  # a discriminative model has none
    # priors given replace the session's; a model with no saved parameters takes the defaults
    spec = pipeline.session_spec(s, "lda", priors=[0.1, 0.1, 0.8])
    assert spec.name == "lda" and spec.kwargs["priors"] == [0.1, 0.1, 0.8]
    assert spec.kwargs["reg_covar"] == 0.0  # LDA's default, not QDA's saved 0.25


@pytest.mark.parametrize("model,priors,message", [
    ("logistic", [0.2, 0.3, 0.5], "priors do not apply to logistic: it models p(C_k|x) directly"),
    ("lda", [0.5, 0.5], "2 priors given for 3 classes (u, v, w)"),
    ("svm", None, "unknown model"),
])
def test_a_sessions_spec_refuses_what_does_not_apply(model, priors, message):
    with pytest.raises(ValueError) as e:
        pipeline.session_spec(_three_class_session(), model, priors=priors)
    assert message in str(e.value)


def _adversarial(K, per, offset, scale, seed):
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 1.5, (K, 2))
    X = np.vstack([rng.normal(c, 1.0, (per, 2)) for c in centres]) * scale + offset
    return X, np.repeat(np.arange(K), per)


@pytest.mark.parametrize("name", ["logistic", "softmax", "probit"])
@pytest.mark.parametrize("K, per, offset, scale", [(2, 2, 0.0, 1.0), (3, 3, 1e6, 1.0), (4, 4, 0.0, 1e-6),
                                                   (5, 3, -1e6, 1e6), (10, 2, 0.0, 1.0), (3, 400, 0.0, 1.0)])
def test_a_drafts_one_newton_step_lands_within_the_square_of_the_distance(name, K, per, offset, scale):
    """While the hand moves, an iterative fit is one Newton step from the fit before the point moved:
    quadratic convergence puts it within about the square of the start's distance of the new optimum
    (posteriors compared, so the weights' frames do not matter); the rest-frame's fit is the optimum."""
    X, y = _adversarial(K, per, offset, scale, seed=K + per)
    before = create(name, l2=0.1).fit(X, y)
    X2 = X.copy()
    X2[0] += 0.3 * scale  # a tenth of a class's spread, or so
    exact = create(name, l2=0.1).fit(X2, y)
    draft = create(name, l2=0.1).fit(X2, y, init=before, draft=True)
    assert exact.converged_ and exact.draft_step_ is None
    assert draft.draft_step_ is not None and draft.draft_step_ > 0 and not draft.converged_ and draft.n_iter_ == 1
    P = exact.predict_proba(X2)
    start = np.max(np.abs(before.predict_proba(X2) - P))
    after = np.max(np.abs(draft.predict_proba(X2) - P))
    assert start > 1e-4  # the move changed the fit
    assert after <= 10 * start ** 2 + 1e-12, (start, after)
    assert after < 0.5 * start


def test_a_drafts_fits_are_finished_when_the_hand_rests(data):
    """A frame asked for while the hand moves holds drafts; the one asked for once it rests (the same
    fits reused, refit False) finishes them to the optimum instead of reusing them; a view change while
    still moving keeps them."""
    X, y = data
    specs = [ModelSpec.make("softmax"), ModelSpec.make("logistic")]
    first = compute(request(X, y, specs))
    X2 = X.copy()
    X2[3] += 0.5
    moving = compute(request(X2, y, specs, draft=True), first)
    assert all(f.draft for f in moving.fits)
    panned = compute(request(X2, y, specs, draft=True, bounds=(0.0, 1.0, 0.0, 1.0)), moving, refit=False)
    assert panned.fits[0] is moving.fits[0]
    rested = compute(request(X2, y, specs), moving, refit=False)
    for f, spec in zip(rested.fits, specs):
        assert not f.draft and f.model.converged_
        ref = create(spec.name).fit(X2, y)
        np.testing.assert_allclose(f.model.predict_proba(X2), ref.predict_proba(X2), atol=1e-9)
    np.testing.assert_array_equal(rested.fits[0].wrong, rested.fits[0].model.predict(X2) != y)


def test_a_drag_through_many_points_updates_their_density_image_and_draws_what_a_fresh_frame_draws(monkeypatch):
    """Above the density threshold a drag's frame updates the frame before's density for the moved point
    (no pass over the others); the image is the one a fresh frame of the moved points has. A new view, new
    colours or a point added start afresh."""
    rng = np.random.default_rng(3)
    n = scene.DENSITY_THRESHOLD + 5
    X = rng.normal(size=(n, 2))
    y = rng.integers(0, 3, n)
    spec = (ModelSpec.make("lda"),)
    first = compute(request(X, y, spec))
    moved = X.copy()
    moved[[7, 11]] = [[0.05, 0.02], [-9.0, 0.0]]  # one within the view, one out of it
    after = request(moved, y, spec)
    fresh = compute(after)
    passes = []
    real = scene.density
    monkeypatch.setattr(scene, "density", lambda *a, **k: passes.append(1) or real(*a, **k))
    dragged = compute(after, first, moved=(np.array([7, 11]), X[[7, 11]]))
    assert not passes, "a drag's frame makes no pass over every point"
    np.testing.assert_array_equal(dragged.density, fresh.density)
    assert not np.array_equal(dragged.density, first.density)
    for changed in (request(moved, y, spec, bounds=(-4.0, 6.0, -4.0, 5.0)),
                    replace(after, colors=("#000000",) + COLORS[1:]),
                    request(np.vstack([moved, [[0.0, 0.0]]]), np.r_[y, 0], spec)):
        passes.clear()
        got = compute(changed, first, moved=(np.array([7, 11]), X[[7, 11]]))
        assert passes == [1]
        own = real(changed.X, changed.labels, changed.colors, changed.bounds, scene.DENSITY_SHAPE)
        np.testing.assert_array_equal(got.density, own.image)


def _one_step_over_every_point(name, params, X, y, start, monkeypatch):
    """The draft as the first move of a drag takes it: one Newton step from ``start``'s weights, summed over
    every point (newton_step; no sums kept)."""
    import probviz.models.logistic as logistic

    with monkeypatch.context() as m:
        m.setattr(logistic, "DRAFT_MOVED_MIN", 10**9)
        ref = create(name, **params).fit(X, y, init=start, draft=True)
    assert ref.draft_state_ is None
    return ref


_SETS = [(2, 2, 0.0, 1.0), (3, 3, 1e6, 1.0), (4, 4, 0.0, 1e-6), (5, 3, -1e6, 1e6), (10, 2, 0.0, 1.0)]


@pytest.mark.parametrize("name, params, K, per, offset, scale", [
    (name, params, *data) for name, params in [("logistic", {}), ("softmax", {}), ("probit", {}),
                                               ("softmax", {"basis": "cubic", "l2": 0.5})] for data in _SETS
] + [("logistic", {"basis": "quadratic", "standardize": False}, *data) for data in _SETS if not data[2]])
def test_a_drags_drafts_are_updated_for_the_moved_point_alone(name, params, K, per, offset, scale, monkeypatch):
    """Many points: a drag's first draft keeps the gradient and curvature it summed over every point at its
    start, and every later move updates them by the moved point's two terms alone (fit_model says it was
    incremental). Each draft is the step the first move's way takes over every point from the same start,
    to rounding: posteriors compared on a grid around the points, and the frame it reports is the points'.
    (Unstandardized quadratic features at an offset of 1e6 are left out: the penalty on their raw
    coefficients is so ill-conditioned there that one Newton step is nowhere near the optimum, and two
    frames' steps differ by its conditioning, whichever way they are summed.)"""
    import probviz.models.logistic as logistic
    from probviz.models.base import data_frame

    monkeypatch.setattr(logistic, "DRAFT_MOVED_MIN", 0)  # these few points count as many
    params = {"l2": 0.1, **params}
    X, y = _adversarial(K, per, offset, scale, seed=K * per)
    spec = ModelSpec.make(name, params)
    start = fit_model(spec, X, y)
    rng = np.random.default_rng(K)
    fit, X = start, X.copy()
    G = offset + scale * rng.uniform(-4, 4, (400, 2))
    for move in range(5):
        i = rng.choice(len(X), size=1 + move % 2, replace=False)
        old = X[i].copy()
        X[i] += rng.normal(0, 0.4 * scale, old.shape)
        fit = fit_model(spec, X, y, previous=fit, moved=(i, old), draft=True)
        assert fit.draft and fit.incremental == (move > 0) and fit.model.draft_state_ is not None
        ref = _one_step_over_every_point(name, params, X, y, start.model, monkeypatch)
        np.testing.assert_allclose(fit.model.predict_proba(G), ref.predict_proba(G), atol=1e-9)
        np.testing.assert_allclose(fit.model.weights_, ref.weights_, rtol=1e-6,  # the weights as the model keeps
                                   atol=1e-9 * np.abs(ref.weights_).max())     # them (softmax: mean bias 0)
        if params.get("standardize", True):
            for got, want in zip(fit.model.frame_, data_frame(X)):
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * scale)
    assert fit.model.n_iter_ == 1 and not fit.model.converged_ and fit.model.notices_ == start.model.notices_
    assert fit.model.draft_step_ > 0
    rested = fit_model(spec, X, y, previous=fit, moved=(np.array([], int), np.empty((0, 2))))  # the hand rests
    assert not rested.draft and not rested.incremental and rested.model.converged_
    exact = create(name, **params).fit(X, y)
    np.testing.assert_allclose(rested.model.predict_proba(G), exact.predict_proba(G), atol=1e-8)


def test_a_drafts_sums_are_not_used_for_another_model_or_points_without_spread(monkeypatch):
    """The sums belong to one model's objective: a changed penalty takes a pass over every point; points that
    lose their spread along a coordinate cannot be standardized from sums."""
    import probviz.models.logistic as logistic

    monkeypatch.setattr(logistic, "DRAFT_MOVED_MIN", 0)
    X, y = _adversarial(3, 4, 0.0, 1.0, seed=1)
    spec = ModelSpec.make("logistic", {"l2": 0.1})
    first = fit_model(spec, X, y)
    X2 = X.copy()
    X2[0] += 0.5
    draft = fit_model(spec, X2, y, previous=first, moved=(np.array([0]), X[:1]), draft=True)
    other = ModelSpec.make("logistic", {"l2": 0.2})
    X3 = X2.copy()
    X3[1] += 0.5
    changed = fit_model(other, X3, y, previous=draft, moved=(np.array([1]), X2[1:2]), draft=True)
    assert changed.draft and not changed.incremental
    ref = _one_step_over_every_point("logistic", {"l2": 0.2}, X3, y, draft.model, monkeypatch)
    np.testing.assert_allclose(changed.model.predict_proba(X3), ref.predict_proba(X3), atol=1e-12)
    flat = np.c_[X[:, 0], np.full(len(X), 2.0)]
    flat[0, 1] = 3.0
    first = fit_model(spec, flat, y)
    moved = flat.copy()
    moved[1, 1] = 2.5
    draft = fit_model(spec, moved, y, previous=first, moved=(np.array([1]), flat[1:2]), draft=True)
    assert draft.model.draft_state_ is not None
    back = moved.copy()
    back[:2, 1] = 2.0  # every y the same: no spread
    assert create("logistic", l2=0.1).draft_moved(draft.model, y[:2], moved[:2], back[:2]) is None
    back[0, 1] = 2.02  # a spread of a hundredth of the one the sums began with is still taken from them
    assert create("logistic", l2=0.1).draft_moved(draft.model, y[:2], moved[:2], back[:2]) is not None


@settings(max_examples=examples(40), deadline=None)
@given(name=st.sampled_from(["logistic", "softmax", "probit"]), K=st.integers(2, 10), per=st.integers(2, 4),
       offset=st.sampled_from([0.0, 1e6, -1e6]), scale=st.sampled_from([1e-6, 1.0, 1e6]),
       seed=st.integers(0, 2**31), moves=st.integers(1, 8))
def test_any_drag_keeps_its_drafts_sums_as_a_pass_over_every_point_would(name, K, per, offset, scale, seed, moves):
    import probviz.models.logistic as logistic

    X, y = _adversarial(K, per, offset, scale, seed)
    spec = ModelSpec.make(name, {"l2": 0.1})
    low = logistic.DRAFT_MOVED_MIN
    try:
        logistic.DRAFT_MOVED_MIN = 0
        start = fit = fit_model(spec, X, y)
        rng = np.random.default_rng(seed)
        for _ in range(moves):
            i = rng.choice(len(X), size=rng.integers(1, 4), replace=False)
            old = X[i].copy()
            X[i] = old + rng.normal(0, 0.5 * scale, old.shape)
            fit = fit_model(spec, X, y, previous=fit, moved=(i, old), draft=True)
        logistic.DRAFT_MOVED_MIN = 10**9
        ref = create(name, l2=0.1).fit(X, y, init=start.model, draft=True)
    finally:
        logistic.DRAFT_MOVED_MIN = low
    G = offset + scale * np.random.default_rng(1).uniform(-5, 5, (300, 2))
    np.testing.assert_allclose(fit.model.predict_proba(G), ref.predict_proba(G), atol=1e-8)


def test_a_frame_follows_moves_exactly_when_nothing_passes_over_every_point(monkeypatch):
    """follows_moves says whether a frame can be made for the moved points alone (the window then makes a drag's
    frame through many points in the move's own event). It says yes exactly when compute(..., evaluate=False)
    then updates every fit (statistics, or a draft's sums) and the density image without a pass over every
    point, and the frame is then the one made afresh: a Gaussian model's posteriors, the density image."""
    import probviz.models.logistic as logistic
    from probviz.stepping import TrainingSpec

    monkeypatch.setattr(logistic, "DRAFT_MOVED_MIN", 0)  # these points count as many for a draft's sums
    rng = np.random.default_rng(4)
    n = scene.DENSITY_THRESHOLD + 5
    X = rng.normal(size=(n, 2)) + np.array([[-1.5, 0.0], [1.5, 0.5], [0.0, 2.0]])[y := rng.integers(0, 3, n)]
    idx = np.array([3, 9])
    moved = X.copy()
    moved[idx] += [[0.3, -0.2], [-0.4, 0.1]]
    lda, qda = ModelSpec.make("lda"), ModelSpec.make("qda")
    soft, soft2 = ModelSpec.make("softmax", {"l2": 0.1}), ModelSpec.make("softmax", {"l2": 0.2})
    exact = {s: compute(request(X, y, (s,))) for s in (lda, qda, soft)}
    exact[(qda, lda)] = compute(request(X, y, (qda, lda)))
    draft = compute(request(moved, y, (soft,), draft=True), exact[soft], moved=(idx, X[idx]))  # a drag's first move
    assert draft.fit.draft and not draft.fit.incremental
    again = moved.copy()
    again[idx] += 0.05
    few = scene.DENSITY_THRESHOLD - 5  # drawn point by point: no density image to follow
    passes = []
    real = scene.density
    monkeypatch.setattr(scene, "density", lambda *a, **k: passes.append(1) or real(*a, **k))
    cases = [  # (request, previous, moved, it follows)
        (request(moved, y, (lda,), draft=True), exact[lda], (idx, X[idx]), True),
        (request(moved, y, (qda,)), exact[qda], (idx, X[idx]), True),  # statistics need no draft
        (request(moved, y, (ModelSpec.make("lda", {"reg_covar": 0.2}),), draft=True), exact[lda], (idx, X[idx]),
         True),  # the first spec starts from the fit before whatever it was: a Gaussian's statistics serve
        (request(moved, y, (qda, lda), draft=True), exact[(qda, lda)], (idx, X[idx]), True),  # a compared model
        (request(moved, y, (lda, qda), draft=True), exact[lda], (idx, X[idx]), False),  # no fit of qda before
        (request(moved, y, (soft,), draft=True), exact[soft], (idx, X[idx]), False),  # a drag's first draft
        (request(again, y, (soft,), draft=True), draft, (idx, moved[idx]), True),  # its later moves
        (request(again, y, (soft,)), draft, (idx, moved[idx]), False),  # the hand at rest: the optimum
        (request(again, y, (soft2,), draft=True), draft, (idx, moved[idx]), False),  # another penalty
        (request(moved, y, (lda,), draft=True), exact[lda], None, False),  # not only moves
        (request(moved, y, (lda,), draft=True), None, (idx, X[idx]), False),
        (request(moved, y, (lda,), draft=True, bounds=(-4.0, 6.0, -4.0, 5.0)), exact[lda], (idx, X[idx]), False),
        (request(moved, y, (lda,), draft=True, held_out=np.arange(n) % 4 == 0), exact[lda], (idx, X[idx]), False),
        (request(again, y, (soft,), draft=True, training=TrainingSpec("gd", None, "zero", steps=2, shown=True)),
         draft, (idx, moved[idx]), False),  # a training run's step: trained over every point
        (request(moved[:few], y[:few], (lda,), draft=True), compute(request(X[:few], y[:few], (lda,))),
         (idx, X[idx]), True),
    ]
    for i, (req, previous, mv, follows) in enumerate(cases):
        assert pipeline.follows_moves(req, previous, mv) == follows, i
        passes.clear()
        frame = compute(req, previous, moved=mv, evaluate=False)
        alone = all(f.incremental for f in frame.fits) and not passes
        assert alone == follows, i
        if follows:
            fresh = compute(replace(req, draft=False))
            if frame.density is not None:
                np.testing.assert_array_equal(frame.density, fresh.density)
            for got, want in zip(frame.fits, fresh.fits):
                assert not got.summary
                if REGISTRY[got.spec.name].generative:
                    np.testing.assert_allclose(got.model.predict_proba(req.X[:500]),
                                               want.model.predict_proba(req.X[:500]), atol=1e-10)
