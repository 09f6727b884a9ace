"""The scene: posterior grid and image, exact boundaries, ellipses and iso-density lines."""

import numpy as np
import pytest
from hypo import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.stats import multivariate_normal

from probviz import scene
from probviz.colors import OKABE_ITO, hex_to_rgb
from probviz.models import PROBABILISTIC_NAMES as MODEL_NAMES, create

BOUNDS = (-4.0, 5.0, -4.0, 7.0)
VARIANTS = [(n, {}) for n in MODEL_NAMES] + [
    ("logistic", {"basis": "quadratic"}), ("softmax", {"basis": "cubic"}), ("softmax", {"basis": "quadratic"}),
    ("tied", {"groups": "a,c"})]


def finite(xy):
    return xy[~np.isnan(xy[:, 0])]


@pytest.mark.parametrize("name,params", VARIANTS)
def test_posterior_grid_matches_predict_proba(three_blobs, name, params):
    X, y = three_blobs
    m = create(name, **params).fit(X, y)
    xs, ys = scene.grid_axes(BOUNDS, 64, 48)
    P = scene.posterior_grid(m, xs, ys)
    assert P.dtype == np.float32 and P.shape == (48, 64, 3)
    gx, gy = np.meshgrid(xs, ys)
    ref = m.predict_proba(np.c_[gx.ravel(), gy.ravel()]).reshape(48, 64, 3)
    assert np.abs(P - ref).max() < 1e-5  # float32 exponentials


@pytest.mark.parametrize("name,params", VARIANTS)
def test_boundaries_lie_where_the_two_posteriors_are_equal_and_on_top(three_blobs, name, params):
    X, y = three_blobs
    m = create(name, **params).fit(X, y)
    found = scene.boundaries(m, BOUNDS)
    assert found, "three overlapping classes must have boundaries in view"
    for b in found:
        pts = finite(b.xy)
        P = m.predict_proba(pts)
        assert np.abs(P[:, b.k] - P[:, b.j]).max() < 1e-9
        others = np.delete(P, [b.k, b.j], axis=1).max(axis=1)
        assert np.all(others <= P[:, b.k] + 1e-9)
        assert np.all((pts[:, 0] >= BOUNDS[0] - 1e-6) & (pts[:, 0] <= BOUNDS[1] + 1e-6))


def test_linear_boundaries_are_exact_segments(three_blobs):
    X, y = three_blobs
    m = create("lda").fit(X, y)
    for b in scene.boundaries(m, BOUNDS):
        assert len(b.xy) == 2  # a straight piece: its two end points
        # the segment runs exactly along (w_k - w_j)^T x + w_k0 - w_j0 = 0 (Bishop eqs. 4.68-4.70)
        w = m.coef_[b.k] - m.coef_[b.j]
        w0 = m.intercept_[b.k] - m.intercept_[b.j]
        np.testing.assert_allclose(b.xy @ w + w0, 0.0, atol=1e-9)


def test_three_lda_boundaries_meet_at_one_point(three_blobs):
    X, y = three_blobs
    m = create("lda").fit(X, y)
    ends = np.vstack([b.xy for b in scene.boundaries(m, BOUNDS)])
    # each segment ends either on the frame or at the common triple point
    inner = ends[(ends[:, 0] > BOUNDS[0] + 1e-6) & (ends[:, 0] < BOUNDS[1] - 1e-6)
                 & (ends[:, 1] > BOUNDS[2] + 1e-6) & (ends[:, 1] < BOUNDS[3] - 1e-6)]
    assert len(inner) == 3
    assert np.ptp(inner, axis=0).max() < 1e-9
    P = m.predict_proba(inner[:1])
    np.testing.assert_allclose(P, 1 / 3, atol=1e-9)


def test_boundary_outside_view_is_omitted():
    X = np.array([[0, 0], [0.2, 0.1], [0.1, 0.3], [10, 10], [10.2, 10.1], [10.1, 10.4]], float)
    m = create("lda").fit(X, [0, 0, 0, 1, 1, 1])
    assert scene.boundaries(m, (-1, 1, -1, 1)) == []


@pytest.mark.parametrize("draft", [False, True])
def test_ellipses_are_at_the_mahalanobis_radii(three_blobs, draft):
    X, y = three_blobs
    m = create("qda").fit(X, y)
    for k, line in enumerate(scene.ellipses(m, radii=(1.0, 2.0), draft=draft)):
        pieces = np.split(line, np.flatnonzero(np.isnan(line[:, 0])))
        for r, piece in zip((1.0, 2.0), pieces):
            d = finite(piece) - m.means_[k]
            maha = np.einsum("ni,ij,nj->n", d, np.linalg.inv(m.covariances_[k]), d)
            np.testing.assert_allclose(np.sqrt(maha), r, rtol=1e-10)


def test_a_moved_point_makes_its_class_ellipses_anew_and_keeps_the_others_arrays(three_blobs):
    """A drag moves one class's points: with a covariance per class, the other classes' ellipses are the arrays of
    the frame before (read-only: nothing can change them in place), the moved class's are new and at its own
    Mahalanobis radii, as a model fitted afresh draws them."""
    X, y = three_blobs
    before = scene.ellipses(create("qda").fit(X, y), radii=(1.0, 2.0))
    X2 = X.copy()
    X2[0] += (0.7, -0.4)  # a point of class "a"
    m = create("qda").fit(X2, y)
    after = scene.ellipses(m, radii=(1.0, 2.0))
    assert after[1] is before[1] and after[2] is before[2] and after[0] is not before[0]
    assert not any(line.flags.writeable for line in after)
    for line in after[:1]:
        d = finite(line) - m.means_[0]
        maha = np.einsum("ni,ij,nj->n", d, np.linalg.inv(m.covariances_[0]), d)
        np.testing.assert_allclose(np.sort(np.sqrt(maha))[[0, -1]], [1.0, 2.0], rtol=1e-10)
    assert scene.ellipses(m, radii=(1.0, 3.0))[1] is not before[1]  # other radii: other rings


def test_ellipses_of_whole_numbers_are_the_same_rings():
    """Means, covariances and radii given as whole numbers draw the rings of the same numbers as floats."""
    from types import SimpleNamespace

    whole = SimpleNamespace(means_=np.array([[1, -2]]), covariances_=np.array([[[4, 1], [1, 2]]]))
    floats = SimpleNamespace(means_=whole.means_.astype(float), covariances_=whole.covariances_.astype(float))
    np.testing.assert_array_equal(scene.ellipses_for(whole, 0, (1, 2)), scene.ellipses_for(floats, 0, (1.0, 2.0)))
    d = finite(scene.ellipses_for(whole, 0, [3])) - [1.0, -2.0]
    maha = np.einsum("ni,ij,nj->n", d, np.linalg.inv([[4.0, 1.0], [1.0, 2.0]]), d)
    np.testing.assert_allclose(np.sqrt(maha), 3.0, rtol=1e-12)


def test_density_contours_have_the_level_density(three_blobs):
    X, y = three_blobs
    m = create("qda").fit(X, y)
    levels = [0.05, 0.01]
    for k, line in enumerate(scene.density_contours(m, levels)):
        dens = multivariate_normal(m.means_[k], m.covariances_[k]).pdf(finite(line))
        assert np.all(np.min(np.abs(dens[:, None] / np.array(levels) - 1), axis=1) < 1e-9)


def test_a_class_whose_peak_is_below_every_level_draws_no_density_contour():
    """p(x|C_k) = L has no solution for L above the class's peak: a wide class among narrow ones draws nothing
    (an empty polyline), the narrow ones their rings at the levels' densities."""
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0.0, 0.1, (30, 2)), rng.normal(5.0, 30.0, (30, 2))])
    y = np.repeat([0, 1], 30)
    m = create("qda").fit(X, y)
    narrow, wide = scene.density_contours(m, [1.0, 0.5])
    assert wide.shape == (0, 2)
    dens = multivariate_normal(m.means_[0], m.covariances_[0]).pdf(finite(narrow))
    assert np.all(np.min(np.abs(dens[:, None] / np.array([1.0, 0.5]) - 1), axis=1) < 1e-9)


def test_discriminative_models_have_no_densities(three_blobs):
    X, y = three_blobs
    m = create("softmax").fit(X, y)
    assert scene.ellipses(m) == [] and scene.density_contours(m) == []


def test_posterior_image_colours():
    P = np.zeros((1, 3, 2), np.float32)
    P[0, 0] = [1, 0]
    P[0, 1] = [0, 1]
    P[0, 2] = [0.5, 0.5]
    img = scene.posterior_image(P, OKABE_ITO, background=(255, 255, 255), strength=1.0)
    assert img.dtype == np.uint8 and img.shape == (1, 3, 4)
    assert tuple(img[0, 0, :3]) == hex_to_rgb(OKABE_ITO[0])
    assert tuple(img[0, 1, :3]) == hex_to_rgb(OKABE_ITO[1])
    assert tuple(img[0, 2, :3]) == (255, 255, 255)  # a uniform posterior fades to the background
    assert np.all(img[..., 3] == 255)


def test_build_scene_single_class():
    X = np.random.default_rng(0).normal(size=(10, 2))
    m = create("qda").fit(X, np.zeros(10, int))
    s = scene.build_scene(m, BOUNDS, OKABE_ITO, shape=(32, 32))
    assert s.boundaries == [] and len(s.ellipses) == 1 and np.all(s.posterior == 1)


def test_decision_image_is_the_flat_argmax_colour_blend():
    """Each pixel: bg + 0.45 (colour of argmax_k p_k - bg), rounded; grey where max p < theta."""
    P = np.array([[[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6]]], np.float32)
    cols = ["#0072B2", "#D55E00", "#009E73"]
    img = scene.decision_image(P, cols)
    for i in range(3):
        expected = np.floor(255 + 0.45 * (np.array(hex_to_rgb(cols[i])) - 255) + 0.5)
        np.testing.assert_array_equal(img[0, i, :3], expected)
    assert np.all(img[..., 3] == 255)
    dark = scene.decision_image(P, cols, theta=0.55, background=(24, 24, 28), reject=(1, 2, 3), alpha=200)
    np.testing.assert_array_equal(dark[0, 0, :3], np.floor(np.array([24, 24, 28]) + 0.45 * (
        np.array(hex_to_rgb(cols[0])) - [24, 24, 28]) + 0.5))
    assert dark[0, 1, :3].tolist() == [1, 2, 3] and dark[0, 2, :3].tolist() != [1, 2, 3]  # 0.5 < 0.55 <= 0.6
    assert np.all(dark[..., 3] == 200)


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**31), K=st.integers(1, 10), ties=st.booleans(), theta=st.sampled_from([0.0, 0.3, 0.6]),
       dark=st.booleans())
def test_flat_images_are_each_pixels_colour_rounded_as_the_plain_blend(seed, K, ties, theta, dark):
    """The regions, decision and loss images gather colours rounded once each: equal, byte for byte, to rounding
    bg + strength (colour - bg) at every pixel, np.argmax's first of equal maxima deciding, rejected pixels in the
    reject colour, a discriminant's undecided pixels (-1) in the background."""
    rng = np.random.default_rng(seed)
    cols = [OKABE_ITO[k % len(OKABE_ITO)] for k in range(K)]
    bg = np.array((24, 24, 28) if dark else (255, 255, 255), np.float32)
    flat = bg + 0.45 * (np.array([hex_to_rgb(c) for c in cols], np.float32)[:, :3] - bg)
    P = (rng.integers(0, 3, (9, 11, K)) if ties else rng.random((9, 11, K))).astype(np.float32) + 0.01
    P /= P.sum(axis=2, keepdims=True)
    want = np.empty((9, 11, 4), np.uint8)
    want[..., :3] = np.clip(flat[np.argmax(P, axis=2)] + 0.5, 0, 255)
    want[..., 3] = 200
    if theta > 0:
        want[P.max(axis=2) < theta, :3] = (1, 2, 3)
    got = scene.decision_image(P, cols, theta, tuple(bg), reject=(1, 2, 3), alpha=200)
    np.testing.assert_array_equal(got, want)
    if K == 2:  # a largest p(C_k|x) of exactly theta is decided, not rejected ("below theta" rejects)
        even = np.full((1, 1, 2), 0.5, np.float32)
        assert scene.decision_image(even, cols, 0.5, reject=(1, 2, 3))[0, 0, :3].tolist() != [1, 2, 3]

    codes = rng.integers(-1, K, (9, 11))
    want = np.empty((9, 11, 4), np.uint8)
    want[..., :3] = np.clip(np.vstack([flat, bg])[codes] + 0.5, 0, 255)
    want[..., 3] = 255
    np.testing.assert_array_equal(scene.regions_image(codes, cols, tuple(bg)), want)

    L = rng.random((K, K))
    choice = np.argmin(np.tensordot(P.astype(np.float64), L, axes=([2], [0])), axis=2)
    want[..., :3] = np.clip(flat[choice] + 0.5, 0, 255)
    np.testing.assert_array_equal(scene.loss_regions(P, L, 0.0, BOUNDS, cols, tuple(bg))[0], want)


def test_density_levels_halve_down_from_the_highest_peak(three_blobs):
    """A 2-D Gaussian peaks at 1 / (2 pi |Sigma|^(1/2)); levels are 0.8, 0.4, ... of the highest peak."""
    X, y = three_blobs
    m = create("qda").fit(X, y)
    peak = max(1 / (2 * np.pi * np.sqrt(np.linalg.det(c))) for c in m.covariances_)
    np.testing.assert_allclose(scene.density_levels(m, n=4), peak * np.array([0.8, 0.4, 0.2, 0.1]), rtol=1e-12)
    lines = scene.density_contours(m)  # the default levels: the class with the highest peak draws all six
    own_peaks = [1 / (2 * np.pi * np.sqrt(np.linalg.det(c))) for c in m.covariances_]
    levels = scene.density_levels(m)
    for k, line in enumerate(lines):
        drawn = np.sum(np.isnan(line[:, 0])) + 1 if len(line) else 0
        assert drawn == np.sum(levels < own_peaks[k])  # a level above a class's peak draws nothing


@pytest.mark.parametrize("name", ["lda", "nb"])
def test_scene_defaults_draw_every_layer_at_radii_one_two_three(three_blobs, name):
    X, y = three_blobs
    m = create(name).fit(X, y)
    s = scene.build_scene(m, BOUNDS, OKABE_ITO[:3], shape=(40, 30))
    assert s.image is not None and s.decision is not None and s.boundaries and s.density
    assert not np.any(np.all(s.decision[..., :3] == 170, axis=2))  # theta 0 rejects nothing
    for k, line in enumerate(s.ellipses):
        pts = line[np.all(np.isfinite(line), axis=1)]
        d = pts - m.means_[k]
        r = np.sqrt(np.einsum("ni,ij,nj->n", d, np.linalg.inv(m.covariances_[k]), d))
        np.testing.assert_allclose(np.unique(np.round(r, 9)), [1.0, 2.0, 3.0])
    expected = scene.posterior_image(s.posterior, OKABE_ITO[:3])  # the default strength, both images
    np.testing.assert_array_equal(s.image, expected)
    assert s.ambiguous is None


def _pieces(xy):
    parts = np.split(xy, np.flatnonzero(np.isnan(xy[:, 0])))
    parts = [part[np.all(np.isfinite(part), axis=1)] for part in parts]
    return [part for part in parts if len(part)]


def _check_pieces(m, bounds):
    """Every vertex on s_k = s_j with k, j the top two; every piece end inside the view is a triple point."""
    found = scene.boundaries(m, bounds)
    assert found
    x0, x1, y0, y1 = bounds
    tol = 1e-9 * max(x1 - x0, y1 - y0)
    ends = 0
    for b in found:
        for piece in _pieces(b.xy):
            S = m.decision_function(piece)
            scale = np.abs(S).max() + 1.0
            np.testing.assert_allclose(S[:, b.k], S[:, b.j], atol=1e-9 * scale)
            others = np.delete(S, [b.k, b.j], axis=1)
            if others.shape[1]:
                assert np.all(S[:, b.k] >= others.max(axis=1) - 1e-9 * scale)
            for p, s in ((piece[0], S[0]), (piece[-1], S[-1])):
                inside = x0 + tol < p[0] < x1 - tol and y0 + tol < p[1] < y1 - tol
                if inside:  # cut where a third class ties: three equal scores
                    ends += 1
                    assert others.shape[1] and np.min(np.abs(np.delete(s, [b.k, b.j]) - s[b.k])) < 1e-8 * scale
    return found, ends


def test_curved_boundaries_end_exactly_where_a_third_class_takes_over(three_blobs):
    X, y = three_blobs
    found, ends = _check_pieces(create("qda").fit(X, y), BOUNDS)
    assert ends >= 2  # the three QDA boundaries meet inside the view


def test_a_straight_boundary_inside_a_curved_model_is_cut_exactly():
    """Two classes with one covariance (their QDA difference is linear), a third with its own."""
    rng = np.random.default_rng(3)
    A = rng.multivariate_normal([0, 0], [[1.0, 0.4], [0.4, 0.8]], 40)
    B = A + [3.0, 0.5]  # the same scatter about its own mean
    C = rng.multivariate_normal([1.5, 3.0], [[0.3, 0.0], [0.0, 2.0]], 40)
    m = create("qda").fit(np.vstack([A, B, C]), np.repeat([0, 1, 2], 40))
    assert np.abs(m.scores_.difference(0, 1).coefs[0, 2, 0]) < 1e-12  # linear up to rounding
    found, ends = _check_pieces(m, (-4.0, 7.0, -4.0, 8.0))
    (ab,) = [b for b in found if (b.k, b.j) == (0, 1)]
    for piece in _pieces(ab.xy):  # straight: every vertex on the segment between its ends
        d = piece[-1] - piece[0]
        cross = (piece[:, 0] - piece[0, 0]) * d[1] - (piece[:, 1] - piece[0, 1]) * d[0]
        assert np.abs(cross).max() < 1e-9 * np.hypot(*d) ** 2
    assert ends >= 1


def test_an_exactly_linear_boundary_inside_a_curved_model():
    """Dyadic coordinates make two classes' covariances bit-identical: their QDA difference is exactly
    linear and is drawn as a masked straight segment."""
    A = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.5]])
    C = np.array([[1.5, 4.0], [2.0, 6.0], [2.5, 4.0], [2.0, 4.5]])
    X = np.vstack([A, A + [4.0, 0.0], C])
    m = create("qda").fit(X, np.repeat([0, 1, 2], 4))
    assert m.scores_.difference(0, 1).degree == 1
    bounds = (-3.0, 8.0, -3.0, 9.0)
    found, ends = _check_pieces(m, bounds)
    (ab,) = [b for b in found if (b.k, b.j) == (0, 1)]
    (piece,) = _pieces(ab.xy)
    d = piece[-1] - piece[0]
    cross = (piece[:, 0] - piece[0, 0]) * d[1] - (piece[:, 1] - piece[0, 1]) * d[0]
    assert np.abs(cross).max() < 1e-9 * np.hypot(*d) ** 2  # straight
    assert ends >= 1  # and cut where the third class takes over


def test_grid_nodes_are_pixel_centres():
    xs, ys = scene.grid_axes((0.0, 4.0, 10.0, 12.0), 4, 2)
    np.testing.assert_allclose(xs, [0.5, 1.5, 2.5, 3.5])
    np.testing.assert_allclose(ys, [10.5, 11.5])
    xs, ys = scene.grid_axes((-3.0, -1.0, 2.0, 8.0), 2, 3)
    np.testing.assert_allclose(xs, [-2.5, -1.5]) and np.testing.assert_allclose(ys, [3.0, 5.0, 7.0])


def test_density_image_away_from_the_origin():
    """The same points and view moved by (5, -30) give the same image; points outside the view are left out."""
    X = np.array([[0.1, 0.1], [0.6, 0.6], [0.6, 0.6], [0.9, 0.1], [1.5, 0.5], [0.5, -0.2]])
    labels = np.array([0, 0, 1, 1, 0, 1])
    here = scene.density_image(X, labels, ["#FF0000", "#0000FF"], (0, 1, 0, 1), shape=(4, 4))
    there = scene.density_image(X + [5, -30], labels, ["#FF0000", "#0000FF"], (5, 6, -30, -29), shape=(4, 4))
    np.testing.assert_array_equal(here, there)
    assert np.count_nonzero(here[..., 3]) == 3  # three pixels hit; the two points outside are not drawn
    wide = scene.density_image(X, labels, ["#FF0000", "#0000FF"], (0, 2, 0, 2), shape=(4, 4))
    assert wide[0, 0, 3] > 0 and wide[1, 3, 3] > 0 and tuple(wide[1, 3, :3]) == (255, 0, 0)  # (1.5, 0.5)


@pytest.mark.parametrize("draft, sides", [(False, 128), (True, 64)])
def test_ellipse_rings_are_closed_and_full(three_blobs, draft, sides):
    """Each ring is a closed polygon around the mean of ``sides`` equal steps round the ellipse (a draft's half
    as many): an affine image of a regular polygon inscribed in a circle, whose area is n sin(2 pi / n) / (2 pi)
    of the circle's, so it encloses that much of pi r^2 |Sigma|^(1/2)."""
    X, y = three_blobs
    m = create("qda").fit(X, y)
    lines = scene.ellipses(m, radii=(1.0, 2.0), draft=True) if draft else scene.ellipses(m, radii=(1.0, 2.0))
    for k, line in enumerate(lines):
        rings = [r for r in np.split(line, np.flatnonzero(np.isnan(line[:, 0]))) if len(r)]
        rings = [r[np.all(np.isfinite(r), axis=1)] for r in rings]
        assert [len(ring) for ring in rings] == [sides + 1] * 2
        for r, ring in zip((1.0, 2.0), rings):
            np.testing.assert_allclose(ring[0], ring[-1], atol=1e-12)
            x, yy = ring[:, 0], ring[:, 1]
            area = 0.5 * abs(np.dot(x[:-1], yy[1:]) - np.dot(x[1:], yy[:-1]))
            exact = np.pi * r ** 2 * np.sqrt(np.linalg.det(m.covariances_[k]))
            assert area == pytest.approx(exact * sides * np.sin(2 * np.pi / sides) / (2 * np.pi), rel=1e-9)


def test_one_class_grid_is_certain():
    X = np.random.default_rng(1).normal(size=(6, 2))
    m = create("lda").fit(X, np.zeros(6, int))
    P = scene.posterior_grid(m, *scene.grid_axes(BOUNDS, 5, 3))
    assert P.shape == (3, 5, 1) and P.dtype == np.float32 and np.all(P == 1)


def test_ten_class_colours_are_distinct_and_none_is_the_boundary_black():
    from probviz.colors import PALETTE, class_color
    from probviz.data.files import MAX_CLASSES

    colours = [class_color(i).upper() for i in range(MAX_CLASSES)]
    assert len(set(colours)) == MAX_CLASSES == len(PALETTE)
    for c in colours:
        r, g, b = hex_to_rgb(c)
        assert max(r, g, b) > 60, c  # not black or near-black, the boundaries' and means' colour


def _loose_ends(xy, bounds, tol):
    """Ends of boundary pieces that stop inside the view without meeting another piece."""
    pieces = [p for p in np.split(xy, np.flatnonzero(np.isnan(xy[:, 0]))) if len(p)]
    pieces = [p[~np.isnan(p[:, 0])] for p in pieces]
    pieces = [p for p in pieces if len(p) >= 2]
    ends = [e for p in pieces for e in (p[0], p[-1])]
    x0, x1, y0, y1 = bounds
    loose = []
    for i, e in enumerate(ends):
        on_edge = min(abs(e[0] - x0), abs(e[0] - x1), abs(e[1] - y0), abs(e[1] - y1)) <= tol
        meets = any(np.hypot(*(e - f)) <= tol for j, f in enumerate(ends) if j != i)
        if not (on_edge or meets):
            loose.append(e)
    return loose


@pytest.mark.parametrize("X,y", [
    ([[0, 0], [1, 1], [2, 2], [0, 1], [1, 1.5], [2, 2], [3, 2.5]], [0, 0, 0, 1, 1, 1, 1]),
    ([[0, 0], [1, 0], [2, 0], [1, -1], [1, 1], [1, 2]], [0, 0, 0, 1, 1, 1]),
    ([[0, 0], [1, 1], [2, 2], [0, 2], [1, 3], [2, 4]], [0, 0, 0, 1, 1, 1]),
    ([[0, 0], [1, 1e-9], [2, 0], [0, 1], [1, 1], [2, 1 + 1e-9]], [0, 0, 0, 1, 1, 1]),
])
def test_qda_on_collinear_points_draws_continuous_boundaries(X, y):
    """Degenerate covariances make the boundary's curvature extreme: it must still be whole curves
    (each piece ends at the view's edge or on another piece), not dashes."""
    m = create("qda").fit(np.array(X, float), np.array(y))
    bounds = (-1.0, 4.0, -2.0, 5.0)
    s = scene.build_scene(m, bounds, OKABE_ITO[:2], shape=(200, 160))
    (b,) = s.boundaries
    assert len(b.xy) > 2
    assert _loose_ends(b.xy, bounds, tol=2e-4 * 7) == []  # a fifth of a pixel of a 1000-pixel plot


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 4))
@example(seed=19241002, n=4)  # an end traced an ulp below the top edge used to slip off it
def test_random_degenerate_qda_boundaries_have_no_loose_ends(seed, n):
    rng = np.random.default_rng(seed)
    X, y = [], []
    for k in range(2):
        p, d = rng.normal(size=2) * 2, rng.normal(size=2)
        for t in rng.normal(size=n):
            X.append(p + t * d)
            y.append(k)
    m = create("qda").fit(np.array(X), np.array(y))
    bounds = (-5.0, 5.0, -5.0, 5.0)
    for b in scene.boundaries(m, bounds):
        assert _loose_ends(b.xy, bounds, tol=2e-4 * 10) == []


@pytest.mark.parametrize("name,example,theta", [("qda", "circles", 0.75), ("lda", "fruit", 0.9),
                                                ("softmax", "three-in-a-line", 0.95)])
def test_the_reject_region_is_smooth_polygons_on_the_threshold(name, example, theta):
    """The region max_k p(C_k|x) < theta is traced as polygons: vertices inside the view lie on the
    threshold (not on the pixel grid's staircase), and its area matches a fine independent count."""
    from probviz.data import examples as ex

    d = ex.load(example)
    m = create(name).fit(d.X, d.labels)
    bounds = (d.X[:, 0].min() - 1, d.X[:, 0].max() + 1, d.X[:, 1].min() - 1, d.X[:, 1].max() + 1)
    s = scene.build_scene(m, bounds, OKABE_ITO[:3], shape=(256, 256), layers={"decision"}, theta=theta)
    assert s.reject
    V = np.vstack(s.reject)
    x0, x1, y0, y1 = bounds
    inner = (V[:, 0] > x0 + 1e-9) & (V[:, 0] < x1 - 1e-9) & (V[:, 1] > y0 + 1e-9) & (V[:, 1] < y1 - 1e-9)
    on_threshold = m.predict_proba(V[inner]).max(axis=1)
    np.testing.assert_allclose(on_threshold, theta, atol=3e-3)
    area = sum(0.5 * np.sum(r[:, 0] * np.roll(r[:, 1], -1) - np.roll(r[:, 0], -1) * r[:, 1]) for r in s.reject)
    u, v = np.meshgrid(np.linspace(x0, x1, 701)[:-1] + (x1 - x0) / 1400, np.linspace(y0, y1, 701)[:-1] + (y1 - y0) / 1400)
    rejected = m.predict_proba(np.c_[u.ravel(), v.ravel()]).max(axis=1) < theta
    assert abs(area) == pytest.approx(rejected.mean() * (x1 - x0) * (y1 - y0), rel=0.02)
    # the regions image itself carries no grey: the polygons alone draw the reject region
    assert not np.any(np.all(s.decision[..., :3] == (170, 170, 170), axis=-1))


def test_triple_points_are_found_by_newton_exactly(three_blobs):
    """The fast path of the boundary cut: from chords around where a third class takes over, Newton
    on the two tie equations lands on s_k = s_j = s_m (checked with the model's own scores) for every
    chord; chords far from any triple point are left to the bracketing path."""
    X, y = three_blobs
    m = create("qda").fit(X, y)
    poly = m.scores_
    b = scene.boundaries(m, BOUNDS)
    ends = []
    for bd in b:
        for piece in [p for p in np.split(bd.xy, np.flatnonzero(np.isnan(bd.xy[:, 0]))) if len(p)]:
            piece = piece[~np.isnan(piece[:, 0])]
            for e in (piece[0], piece[-1]):
                x0, x1, y0, y1 = BOUNDS
                if x0 + 1e-6 < e[0] < x1 - 1e-6 and y0 + 1e-6 < e[1] < y1 - 1e-6:
                    ends.append((bd.k, bd.j, e))
    assert ends
    rng = np.random.default_rng(0)
    for k, j, e in ends:
        direction = rng.normal(size=(6, 2))
        direction /= np.hypot(*direction.T)[:, None]
        inside = e - 0.03 * direction  # the chords' midpoints miss the triple point: Newton must move
        outside = e + 0.01 * direction
        keep = scene._margin(poly, inside, k, j) >= 0
        inside, outside = np.where(keep[:, None], inside, outside), np.where(keep[:, None], outside, inside)
        tiny = 1e-12 * (np.abs(e).max() + poly.scale.max())
        idx, pts = scene._triple_points(poly, k, j, inside, outside, tiny)
        assert sorted(idx.tolist()) == list(range(6))
        S = m.decision_function(pts)
        scale = np.abs(S).max() + 1
        assert np.all(np.ptp(S, axis=1) <= 1e-10 * scale)  # all three classes tie (K = 3)
        np.testing.assert_allclose(pts, np.repeat(e[None], 6, axis=0), atol=1e-9)
    # far from any triple point nothing is claimed
    idx, _ = scene._triple_points(poly, 0, 1, np.array([[-50.0, -50.0]]), np.array([[-49.0, -50.0]]), 1e-12)
    assert len(idx) == 0


# --- a discriminant's lines: only where the decision changes --------------------------------------

def _sides(model, xy, eps):
    """The decision just left and just right of each point of a straight piece (M, 2)."""
    d = xy[-1] - xy[0]
    n = np.array([-d[1], d[0]]) / np.hypot(*d)
    return model.decide(xy + eps * n), model.decide(xy - eps * n)


def _segments(xy):
    """The pieces of a polyline that are lines (two vertices or more)."""
    parts = [p[~np.isnan(p[:, 0])] for p in np.split(xy, np.flatnonzero(np.isnan(xy[:, 0])))]
    return [p for p in parts if len(p) >= 2]


def _check_lines_are_the_decision_changes(model, bounds, rng):
    from probviz.scene import discriminant_lines

    size = max(bounds[1] - bounds[0], bounds[3] - bounds[2])
    drawn = [p for b in discriminant_lines(model, bounds) for p in _segments(b.xy)]
    for p in drawn:  # every drawn piece separates two different decisions, all along
        t = rng.uniform(0.001, 0.999, 200)
        xy = p[0] + np.outer(t, p[-1] - p[0])
        left, right = _sides(model, xy, 1e-6 * size)
        assert np.all(left != right), "a line drawn where the decision is the same on both sides"
    # and every change of the decision along random chords lies on a drawn piece
    lo, hi = np.array(bounds[::2]), np.array(bounds[1::2])
    for _ in range(30):
        a, b = rng.uniform(lo, hi), rng.uniform(lo, hi)
        t = np.linspace(0, 1, 2001)
        dec = model.decide(a + np.outer(t, b - a))
        for i in np.flatnonzero(dec[1:] != dec[:-1]):
            t0, t1 = t[i], t[i + 1]
            for _ in range(50):  # bisection to the change
                m = 0.5 * (t0 + t1)
                if model.decide((a + m * (b - a))[None])[0] == dec[i]:
                    t0 = m
                else:
                    t1 = m
            x = a + t0 * (b - a)
            dist = min(_distance_to_segment(x, p[0], p[-1]) for p in drawn) if drawn else np.inf
            assert dist < 1e-6 * size, f"the decision changes at {x} but nothing is drawn there"


def _distance_to_segment(x, p, q):
    d = q - p
    t = np.clip((x - p) @ d / (d @ d), 0, 1)
    return float(np.hypot(*(x - p - t * d)))


@pytest.mark.parametrize("scheme", ["one-vs-one", "one-vs-rest"])
@pytest.mark.parametrize("name", ["three-in-a-line", "shared-vs-own-covariance", "xor", "iris"])
def test_a_schemes_lines_are_drawn_exactly_where_its_decision_changes(name, scheme):
    """Bishop figure 4.2's lines, cut to where they matter: on three-in-a-line the line of C1 against
    C3 runs through the middle of C2's region, where both votes go to C2, and is not drawn there."""
    from probviz.data.examples import load

    d = load(name)
    m = create("leastsquares", scheme=scheme).fit(d.X, d.labels)
    lo, hi = d.X.min(axis=0) - 1, d.X.max(axis=0) + 1
    _check_lines_are_the_decision_changes(m, (lo[0], hi[0], lo[1], hi[1]), np.random.default_rng(0))


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10_000), K=st.integers(3, 5), scheme=st.sampled_from(["one-vs-one", "one-vs-rest"]))
def test_random_schemes_draw_only_decision_changes(seed, K, scheme):
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-3, 3, (K, 2))
    y = np.repeat(np.arange(K), 12)
    X = centres[y] + rng.normal(0, rng.uniform(0.3, 2.0), (len(y), 2))
    m = create("leastsquares", scheme=scheme).fit(X, y)
    _check_lines_are_the_decision_changes(m, (-6.0, 6.0, -5.0, 7.0), rng)


# --- drafts of curved boundaries, drawn while the hand moves ----------------------------------

def _gaussians(seed: int, K: int, offset: float, scale: float):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(4, 2)) @ rng.normal(size=(2, 2)) + rng.normal(scale=2.5, size=2)
                   for _ in range(K)]) * scale + offset
    return X, np.repeat(np.arange(K), 4)


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10_000), K=st.integers(2, 6), model=st.sampled_from(["qda", "nb"]),
       frame=st.sampled_from([(0.0, 1.0), (1e6, 1.0), (0.0, 1e-6), (-3e5, 1e5)]))
@example(seed=692, K=3, model="qda", frame=(0.0, 1.0))
def test_a_draft_of_curved_boundaries_lies_on_them_and_misses_none(seed, K, model, frame):
    """Draft vertices lie on the exact boundaries (whose own tests check them against the models'
    scores): the distance to the nearest exact segment (a chord: itself a little off the curve) is
    within a tenth of a draft grid cell for half of them and within one cell for 99% (linear
    interpolation across the kink of s_k - max_j s_j at a triple point, or at the tip of a region
    thinner than a cell, is off by about a cell; the exact curves are drawn once the hand rests). And
    the draft leaves nothing out: 99% of the exact vertices have a draft vertex within a cell. Each boundary is
    drawn once: the drafts are no longer than the exact curves (drawn twice, once for each side, a dashed line's
    dashes filled each other's gaps and it looked solid)."""
    offset, scale = frame
    X, y = _gaussians(seed, K, offset, scale)
    m = create(model, reg_covar=1e-3).fit(X, y) if model == "qda" else create(model).fit(X, y)
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.3 * (hi - lo)
    bounds = (lo[0] - pad[0], hi[0] + pad[0], lo[1] - pad[1], hi[1] + pad[1])
    width = np.array([bounds[1] - bounds[0], bounds[3] - bounds[2]])
    origin = np.array([bounds[0], bounds[2]])

    def view(lines):  # vertices in view units (0..1 across)
        V = np.vstack(lines) if lines else np.empty((0, 2))
        return (V - origin) / width

    drafts = scene.boundaries(m, bounds, draft=True)
    ks = [b.k for b in drafts]  # each class's outline once, the last class's drawn with the others; sides not said
    assert all(b.j == -1 for b in drafts) and len(set(ks)) == len(ks) and all(0 <= k < K - 1 for k in ks)
    V = view([b.xy for b in drafts])
    V = V[np.isfinite(V).all(axis=1)]
    exact = [(b.xy - origin) / width for b in scene.boundaries(m, bounds)]
    segments = [np.stack([e[:-1], e[1:]], 1) for e in exact]
    segments = np.vstack(segments) if segments else np.empty((0, 2, 2))
    segments = segments[np.isfinite(segments).all(axis=(1, 2))]
    assert (len(V) == 0) == (len(segments) == 0)
    if len(V):
        a, d = segments[:, 0], segments[:, 1] - segments[:, 0]
        t = np.clip(np.einsum("psk,sk->ps", V[:, None, :] - a[None], d) / np.maximum((d * d).sum(1), 1e-300), 0, 1)
        gap = np.min(np.linalg.norm(V[:, None, :] - (a[None] + t[..., None] * d[None]), axis=2), axis=1)
        cell = 1 / (scene.DRAFT_RESOLUTION - 1)
        assert np.median(gap) <= 0.1 * cell and np.quantile(gap, 0.99) <= cell, (
            np.median(gap) / cell, np.quantile(gap, 0.99) / cell)
    if len(segments):  # and nothing the exact curves draw is missing from the draft
        E = np.vstack([e[np.isfinite(e).all(axis=1)] for e in exact])
        near = np.min(np.linalg.norm(E[:, None, :] - V[None, :, :], axis=2), axis=1)
        assert np.quantile(near, 0.99) <= cell and np.max(near) <= 5 * cell, (
            np.quantile(near, 0.99) / cell, np.max(near) / cell)

        def length(lines):
            return sum(np.nansum(np.linalg.norm(np.diff(line, axis=0), axis=1)) for line in lines)

        # never longer (drawn once), and short of the exact curves by the regions thinner than a cell at most: their
        # two sides are exact curves, and the draft draws one line through them or none (seed 692, three classes of
        # QDA: slivers of a few cells' width made the draft 7% shorter; the closeness above holds there)
        drawn, wanted = length([view([b.xy]) for b in drafts]), length(exact)
        assert 0.5 * wanted - 3 * cell <= drawn <= 1.05 * wanted + 3 * cell, (drawn, wanted)


# --- a drag's density image: updated for the moved points alone -----------------------------------

def _drag_density(X, labels, colors, bounds, shape, moves):
    """Apply ``moves`` (index arrays and their new rows) one after another to the density of X, and to X:
    (density, points) after each move."""
    d = scene.density(X, labels, colors, bounds, shape)
    X = X.copy()
    for idx, rows in moves:
        before = X[idx].copy()
        X[idx] = rows
        d = scene.density_moved(d, before, X[idx], labels[idx])
        yield d, X.copy()


def _same_density(d, X, labels, colors, bounds, shape):
    fresh = scene.density(X, labels, colors, bounds, shape)
    np.testing.assert_array_equal(d.counts, fresh.counts)
    np.testing.assert_array_equal(d.total, fresh.total)
    np.testing.assert_array_equal(d.image, fresh.image)


def test_a_moved_point_updates_the_density_image_as_a_fresh_one_would():
    """Into the densest pixel (every opacity changes), out of it, out of the view and back, onto its own pixel,
    two classes at once: after each move the counts and the image are those of the points as they are."""
    X = np.array([[0.1, 0.1]] * 5 + [[0.6, 0.6]] * 3 + [[0.9, 0.1], [0.35, 0.85], [2.0, 2.0]])
    labels = np.array([0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1])
    colors, bounds, shape = ["#FF0000", "#0000FF"], (0, 1, 0, 1), (4, 4)
    steps = [([8], [[0.1, 0.12]]),  # into the densest pixel: its count 5 -> 6, the largest
             ([0, 1], [[0.6, 0.61], [0.62, 0.6]]),  # two out of it: the largest is 5, then the mixed pixel's
             ([9], [[-3.0, 0.5]]),  # out of the view
             ([10], [[0.36, 0.86]]),  # from outside into a pixel with a point of the other class
             ([5], [[0.61, 0.62]]),  # within its own pixel
             ([2, 9], [[0.9, 0.9], [0.35, 0.85]])]  # back into the view, and a class-1 point away
    for d, Y in _drag_density(X, labels, colors, bounds, shape, steps):
        _same_density(d, Y, labels, colors, bounds, shape)
    assert d.image[0, 0, 3] == round(90 + 165 * np.log1p(3) / np.log1p(5))  # (0.1, 0.1): 3 points, 5 at most


def test_lone_points_are_drawn_opaque():
    """One point to a pixel at most: every hit pixel has the largest count, opacity 255."""
    d = scene.density(np.array([[0.1, 0.1], [0.6, 0.6]]), np.array([0, 1]), ["#FF0000", "#0000FF"], (0, 1, 0, 1),
                      (4, 4))
    assert sorted(d.image[..., 3].ravel())[-2:] == [255, 255] and np.count_nonzero(d.image[..., 3]) == 2


def test_the_density_before_a_move_is_left_as_it_was():
    """A frame's density is shared with the frame on screen: the next one is a new object."""
    X = np.array([[0.1, 0.1], [0.6, 0.6]])
    labels = np.array([0, 1])
    d = scene.density(X, labels, ["#FF0000", "#0000FF"], (0, 1, 0, 1), (4, 4))
    copies = d.counts.copy(), d.total.copy(), d.image.copy()
    scene.density_moved(d, X[:1], np.array([[0.9, 0.9]]), labels[:1])
    for a, b in zip(copies, (d.counts, d.total, d.image)):
        np.testing.assert_array_equal(a, b)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 10), st.integers(1, 40), st.integers(0, 2**32 - 1), st.sampled_from([1e-6, 1.0, 1e6]),
       st.sampled_from([0.0, 1e6]))
def test_any_drag_updates_the_density_as_a_fresh_one_would(K, n, seed, scale, offset):
    """Up to ten classes, clustered points (pixels of large counts), moves inside, across and out of the view,
    at offsets of 1e6 and scales from 1e-6 to 1e6."""
    from probviz.colors import class_color

    rng = np.random.default_rng(seed)
    X = offset + scale * rng.integers(-2, 6, size=(n, 2)) / 4  # on a lattice: many points share pixels
    labels = rng.integers(0, K, n)
    bounds = (offset, offset + scale, offset, offset + scale)
    moves = [(idx := rng.choice(n, size=rng.integers(1, min(n, 3) + 1), replace=False),
              offset + scale * rng.integers(-2, 6, size=(len(idx), 2)) / 4) for _ in range(6)]
    colors = [class_color(k) for k in range(K)]
    *_, (d, Y) = _drag_density(X, labels, colors, bounds, (4, 3), moves)
    _same_density(d, Y, labels, colors, bounds, (4, 3))


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(2, 24), cols=st.integers(2, 24),
       scale=st.sampled_from([1e-6, 1.0, 1e6]), offset=st.sampled_from([0.0, 1e6]),
       bad=st.sampled_from([None, np.nan, np.inf, -np.inf]))
@example(seed=0, rows=2, cols=2, scale=1.0, offset=0.0, bad=np.nan)
def test_zero_lines_are_contourpys_own(seed, rows, cols, scale, offset, bad):
    """The traced zero set is the one contourpy's public contour_generator gives, vertex for vertex, with
    nodes that are not finite masked as it masks them; on uneven axes, tiny and huge values, far from 0."""
    import contourpy

    rng = np.random.default_rng(seed)
    xs = offset + scale * np.cumsum(rng.uniform(0.1, 2.0, cols))
    ys = -offset + scale * np.cumsum(rng.uniform(0.1, 2.0, rows))
    Z = scale * rng.normal(size=(rows, cols))
    if bad is not None:
        Z[rng.random((rows, cols)) < 0.15] = bad
    want = contourpy.contour_generator(xs, ys, Z, line_type=contourpy.LineType.Separate).lines(0.0)
    got = scene.zero_lines(xs, ys, Z)
    assert len(got) == len(want)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)


def test_hatch_image_stripes_only_the_masked_pixels_in_its_colour_whatever_masked_before():
    """Diagonal stripes ((row + col) mod period < period / 2) in the colour and alpha asked, exactly where the
    mask is; the stripes are remembered between frames, so a second mask of the same shape (and an image
    written into) must not change what the next call returns."""
    rng = np.random.default_rng(3)
    rows, cols = 7, 11
    stripes = (np.arange(rows)[:, None] + np.arange(cols)[None, :]) % 6 < 3
    first = rng.random((rows, cols)) < 0.5
    out = scene.hatch_image(first)
    out[...] = 255  # the caller owns its image
    for mask in (rng.random((rows, cols)) < 0.5, first, np.zeros((rows, cols), bool)):
        img = scene.hatch_image(mask)
        assert img.dtype == np.uint8 and img.shape == (rows, cols, 4)
        on = mask & stripes
        np.testing.assert_array_equal(img[on], np.tile([40, 40, 40, 120], (on.sum(), 1)))
        assert not img[~on].any()
    red = scene.hatch_image(np.ones((rows, cols), bool), color=(200, 10, 0), alpha=60, period=4)
    on = (np.arange(rows)[:, None] + np.arange(cols)[None, :]) % 4 < 2
    np.testing.assert_array_equal(red[on], np.tile([200, 10, 0, 60], (on.sum(), 1)))
    assert not red[~on].any()


def test_the_class_across_an_outline_is_the_winner_at_the_far_end_of_the_vertexs_grid_edge():
    """A traced vertex lies on a grid edge between a node inside the region (F > 0) and one outside (F < 0): the
    class across is the one that wins at the outside node, whatever wins at the cell's other corners (nearer in
    some other measure). Random grids of random winners, vertices on random edges (those of the grid's first and
    last rows and columns included), planes stacked with a row between them as the outlines trace them."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        R, C = rng.integers(2, 7, size=2)
        first = rng.integers(0, 5, size=(R, C))
        planes = rng.integers(1, 4)
        F = rng.choice([-1.0, 1.0], size=(planes * (R + 1) - 1, C)) * rng.uniform(0.5, 2.0, size=(1, 1))
        V, offset, want = [], [], []
        for _ in range(200):  # (edges whose ends are on one side are passed by)
            p = rng.integers(planes)
            if rng.random() < 0.5:  # along a row: (c, r) to (c + 1, r)
                r, c = rng.integers(R), rng.integers(C - 1)
                a, b = (c, r), (c + 1, r)
            else:  # along a column
                r, c = rng.integers(R - 1), rng.integers(C)
                a, b = (c, r), (c, r + 1)
            fa, fb = F[p * (R + 1) + a[1], a[0]], F[p * (R + 1) + b[1], b[0]]
            if fa * fb > 0:
                continue
            t = rng.uniform(0.05, 0.95)
            V.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
            offset.append(p * (R + 1))
            out = a if fa < 0 else b
            want.append(first[out[1], out[0]])
        if not V:
            continue
        got = scene._across(np.array(V, float), F, first, np.array(offset))
        np.testing.assert_array_equal(got, want)


def test_runs_of_kept_vertices_reach_one_vertex_past_each_end_but_never_into_the_next_line():
    """Two lines one after the other (5 and 4 vertices). Kept: vertices 1-2 of the first, 4 of the first with
    0 of the second (adjacent in the array, not on one line), and 2 of the second. Each run takes the vertex on
    either side within its line; a run of one vertex at a line's end has only one neighbour, and one alone
    (a line of one vertex) is left out."""
    V = np.arange(18, dtype=float).reshape(9, 2)
    keep = np.array([False, True, True, False, True, True, False, True, False])
    runs = scene._runs([5, 4], V, keep)
    expected = [V[0:4], V[3:5], V[5:7], V[6:9]]
    assert len(runs) == len(expected)
    for got, want in zip(runs, expected):
        np.testing.assert_array_equal(got, want)
    assert scene._runs([1, 2], V[:3], np.array([True, False, False])) == []
    assert scene._runs([2, 1], V[:3], np.array([False, False, True])) == []  # a lone vertex anywhere
    assert scene._runs([3], V[:3], np.zeros(3, bool)) == []
    np.testing.assert_array_equal(scene._runs([3], V[:3], np.ones(3, bool))[0], V[:3])
