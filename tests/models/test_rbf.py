"""Logistic and softmax regression on Gaussian radial basis functions (Bishop 4.3.1, figure 4.12):
phi_m(x) = exp(-||x - mu_m||^2 / (2 s^2)) beside the bias, fitted with the penalised cross-entropy of
eqs. 4.90 / 4.108 plus (l2/2)||w||^2 on the non-bias weights.

Every check is against code written here: the design matrix built by plain loops, the objective and its
gradient written out, minimised by scipy's BFGS; the boundary and the heatmap checked with that same
feature code. Adversarial data: a few points a class, up to 8 classes, offsets of 1e6 and scales of
1e-6 and 1e6 (centres and width scaled with the data)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypo import examples
from rbf_reference import (
    binary_objective, design, proba_ovr, proba_softmax, reference_binary, reference_softmax, softmax_objective,
)

from probviz import scene
from probviz.models import create
from probviz.models.rbf import default_centers, default_width, parse_centers


def _blobs(K, per, rng, offset=0.0, scale=1.0):
    angles = 2 * np.pi * np.arange(K) / K
    means = np.column_stack([np.cos(angles), np.sin(angles)]) * 2.0
    X = np.vstack([means[k] + 0.6 * rng.normal(size=(per, 2)) for k in range(K)])
    y = np.repeat(np.arange(K), per)
    return offset + scale * X, y


def _text(C):
    """Centres as the --centers text, every bit kept."""
    return ";".join(f"{float(a)!r},{float(b)!r}" for a, b in C)


# --- fits against the reference -------------------------------------------------------------------

CENTERS = "0,0;1.5,0;-1,1;0,-1.5"


@pytest.mark.parametrize("l2", [1.0, 0.01])
def test_binary_logistic_on_rbf_features_matches_an_independent_fit(l2):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 2))
    y = (np.hypot(X[:, 0], X[:, 1]) > 1.1).astype(int)  # a ring: no line separates it, Gaussian bumps do
    m = create("logistic", basis="rbf", centers=CENTERS, width=0.8, l2=l2).fit(X, y)
    C = parse_centers(CENTERS)
    Phi = design(X, C, 0.8)
    w = reference_binary(Phi, y == 1, l2)
    np.testing.assert_allclose(m.coef_[0], w[1:], rtol=1e-6, atol=1e-6 * np.abs(w).max())
    np.testing.assert_allclose(m.intercept_[0], w[0], rtol=1e-6, atol=1e-6 * np.abs(w).max())
    Q = rng.normal(size=(40, 2)) * 2
    p_ref = 0.5 * (1 + np.tanh(0.5 * (design(Q, C, 0.8) @ w)))
    np.testing.assert_allclose(m.predict_proba(Q)[:, 1], p_ref, atol=1e-8)
    # the optimality condition at the app's own weights, by the gradient written above
    _, g = binary_objective(np.r_[m.intercept_[0], m.coef_[0]], Phi, y == 1, l2)
    assert np.abs(g).max() <= 1e-8 * len(X)
    assert m.converged_ and m.n_parameters() == 5
    np.testing.assert_array_equal(m.centers_, C)
    assert m.width_ == 0.8


@pytest.mark.parametrize("K", [3, 5])
def test_softmax_on_rbf_features_matches_an_independent_fit(K):
    rng = np.random.default_rng(K)
    X, y = _blobs(K, 6, rng)
    m = create("softmax", basis="rbf", l2=0.1).fit(X, y)
    C, s = default_centers(X), default_width(default_centers(X), X)
    Phi = design(X, C, s)
    W = reference_softmax(Phi, y, K, 0.1)
    scale = np.abs(W).max()
    np.testing.assert_allclose(m.coef_, W[:, 1:], atol=1e-6 * scale)
    np.testing.assert_allclose(m.intercept_, W[:, 0], atol=1e-6 * scale)
    Q = rng.normal(size=(50, 2)) * 3
    np.testing.assert_allclose(m.predict_proba(Q), proba_softmax(design(Q, C, s), W), atol=1e-8)
    _, G = softmax_objective(np.column_stack([m.intercept_, m.coef_]), Phi, y, 0.1)
    assert np.abs(G).max() <= 1e-8 * len(X)
    assert m.n_parameters() == (K - 1) * (len(C) + 1)


def test_one_vs_rest_logistic_on_rbf_features_is_k_independent_fits():
    rng = np.random.default_rng(7)
    X, y = _blobs(4, 8, rng)
    m = create("logistic", basis="rbf", centers=CENTERS, width=1.3, l2=0.5).fit(X, y)
    assert m.ovr_
    Phi = design(X, parse_centers(CENTERS), 1.3)
    W = np.array([reference_binary(Phi, y == k, 0.5) for k in range(4)])
    np.testing.assert_allclose(np.column_stack([m.intercept_, m.coef_]), W, atol=1e-6 * np.abs(W).max())
    Q = rng.normal(size=(30, 2)) * 3
    np.testing.assert_allclose(m.predict_proba(Q), proba_ovr(design(Q, parse_centers(CENTERS), 1.3), W), atol=1e-8)


def test_default_centres_are_a_lattice_over_the_bounding_box_and_the_width_its_spacing():
    X = np.array([[0.0, 0.0], [4.0, 2.0], [1.0, 1.0]])
    C = default_centers(X)
    assert sorted(map(tuple, C)) == sorted((x, y) for x in (0.0, 2.0, 4.0) for y in (0.0, 1.0, 2.0))
    assert default_width(C, X) == pytest.approx(1.0)  # each centre's nearest neighbour is 1 away (in x2)
    flat = np.array([[0.0, 5.0], [2.0, 5.0], [1.0, 5.0]])
    assert len(default_centers(flat)) == 3  # a box flat in x2: each centre once
    m = create("softmax", basis="rbf").fit(X, [0, 1, 1])
    np.testing.assert_array_equal(m.centers_, C)  # deterministic: the same points, the same centres


# --- adversarial data ---------------------------------------------------------------------------

@pytest.mark.parametrize("offset,scale", [(1e6, 1.0), (0.0, 1e-6), (1e6, 1e-3), (0.0, 1e6), (-1e6, 1e6)])
@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_offsets_and_scales_give_the_fit_of_the_unit_problem(offset, scale, name):
    """The same problem in other units: centres and width scaled with the data give the same features,
    so the same weights and posteriors; the reference's features are computed in the data's units too."""
    rng = np.random.default_rng(3)
    X0, y = _blobs(3, 3, rng)  # three points a class
    C0 = np.array([[0.0, 0.0], [2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
    X, C, s = offset + scale * X0, offset + scale * C0, 0.9 * scale
    text = _text(C)
    unit = create(name, basis="rbf", centers=_text(C0), width=0.9, l2=0.3).fit(X0, y)
    m = create(name, basis="rbf", centers=text, width=s, l2=0.3).fit(X, y)
    Phi = design(X, C, s)
    # the scaled points are the unit ones only to their floats' precision: a unit in the last place of the
    # offset, in the problem's own units
    rounding = float(np.spacing(abs(offset))) / scale if offset else 0.0
    np.testing.assert_allclose(Phi, design(X0, C0, 0.9), rtol=0, atol=10 * rounding + 1e-14)
    Q0 = rng.normal(size=(25, 2)) * 2
    np.testing.assert_allclose(m.predict_proba(offset + scale * Q0), unit.predict_proba(Q0), atol=1e-7 + 1e3 * rounding)
    if name == "softmax":
        W = reference_softmax(Phi, y, 3, 0.3)
        got = np.column_stack([m.intercept_, m.coef_])
        _, G = softmax_objective(got, Phi, y, 0.3)
    else:
        W = np.array([reference_binary(Phi, y == k, 0.3) for k in range(3)])
        got = np.column_stack([m.intercept_, m.coef_])
        G = np.array([binary_objective(got[k], Phi, y == k, 0.3)[1] for k in range(3)])
    np.testing.assert_allclose(got, W, atol=1e-6 * np.abs(W).max())
    assert np.abs(G).max() <= 1e-8 * len(X)


@pytest.mark.parametrize("K", [5, 8])
def test_many_classes_two_points_each_separable(K):
    """Separable, two points a class: without the penalty no optimum; with it one exists and is found."""
    rng = np.random.default_rng(K)
    X, y = _blobs(K, 2, rng, offset=1e6, scale=1e-6)
    m = create("softmax", basis="rbf", l2=0.05).fit(X, y)
    assert m.converged_
    Phi = design(X, m.centers_, m.width_)
    _, G = softmax_objective(np.column_stack([m.intercept_, m.coef_]), Phi, y, 0.05)
    assert np.abs(G).max() <= 1e-8 * len(X)
    W = reference_softmax(Phi, y, K, 0.05)
    np.testing.assert_allclose(np.column_stack([m.intercept_, m.coef_]), W, atol=1e-6 * np.abs(W).max())


@settings(max_examples=examples(25), deadline=None)
@given(K=st.integers(2, 5), per=st.integers(2, 4), offset=st.sampled_from([0.0, 1e6, -3e5]),
       scale=st.sampled_from([1e-6, 1.0, 1e6]), width=st.floats(0.3, 3.0), l2=st.sampled_from([0.01, 0.3, 3.0]),
       seed=st.integers(0, 2**16), name=st.sampled_from(["logistic", "softmax"]))
def test_any_small_problem_is_at_its_optimum(K, per, offset, scale, width, l2, seed, name):
    rng = np.random.default_rng(seed)
    X0 = rng.normal(size=(K * per, 2))
    y = np.repeat(np.arange(K), per)
    C0 = rng.normal(size=(int(rng.integers(1, 6)), 2))
    X, C, s = offset + scale * X0, offset + scale * C0, width * scale
    m = create(name, basis="rbf", centers=_text(C), width=s, l2=l2).fit(X, y)
    Phi = design(X, C, s)
    got = np.column_stack([m.intercept_, m.coef_])
    if name == "softmax":
        G = softmax_objective(got, Phi, y, l2)[1]
        P = proba_softmax(Phi, got)
    else:
        ys = (y == 1) if K == 2 else None
        G = binary_objective(got[0], Phi, ys, l2)[1] if K == 2 else np.array(
            [binary_objective(got[k], Phi, y == k, l2)[1] for k in range(K)])
        P = (np.column_stack([1 - (p := 0.5 * (1 + np.tanh(0.5 * (Phi @ got[0])))), p]) if K == 2
             else proba_ovr(Phi, got))
    assert m.converged_
    assert np.abs(G).max() <= 1e-7 * len(X)
    np.testing.assert_allclose(m.predict_proba(X), P, atol=1e-8)


# --- the scene: boundaries and heatmap -------------------------------------------------------------

def _scores(X, C, s, W):
    return design(X, C, s) @ W.T


def _slopes(X, C, s, W):
    """|grad_x s_k(x)| (N, K) from d phi_m / dx = -phi_m (x - mu_m) / s^2, written out here."""
    Phi = design(X, C, s)[:, 1:]
    gx = (Phi * -(X[:, :1] - C[None, :, 0]) / s**2) @ W[:, 1:].T
    gy = (Phi * -(X[:, 1:] - C[None, :, 1]) / s**2) @ W[:, 1:].T
    return np.hypot(gx, gy)


def _tie_tolerance(pts, C, s, W, S):
    """What a tie can be at a point stored in floats: the slope of s_k - s_j times a few units in the last
    place of the coordinates (at 1e6 the points themselves are only that precise), plus rounding of S."""
    G = _slopes(pts, C, s, W)
    ulp = np.spacing(np.abs(pts).max(axis=1))
    return 4 * ulp * 2 * G.max(axis=1) + 1e-12 * (1 + np.abs(S).max(axis=1))


@pytest.mark.parametrize("offset,scale", [(0.0, 1.0), (1e6, 1e-3)])
@pytest.mark.parametrize("name,K", [("softmax", 3), ("softmax", 2), ("logistic", 2)])
def test_boundary_points_are_ties_and_the_heatmap_is_the_posterior(name, K, offset, scale):
    rng = np.random.default_rng(11)
    X0 = rng.normal(size=(45, 2)) * 1.4
    y = np.digitize(np.hypot(*X0.T), [1.0, 1.8])[:] if K == 3 else (np.hypot(*X0.T) > 1.2).astype(int)
    X = offset + scale * X0
    m = create(name, basis="rbf", l2=0.05).fit(X, y)
    C, s = m.centers_, m.width_
    W = np.column_stack([m.intercept_, m.coef_])
    if name == "logistic":
        W = np.vstack([np.zeros(W.shape[1]), W])  # two classes: scores (0, a)
    bounds = (offset - 3 * scale, offset + 3 * scale, offset - 3 * scale, offset + 3 * scale)
    drawn = scene.boundaries(m, bounds)
    assert drawn
    for b in drawn:
        pts = b.xy[np.all(np.isfinite(b.xy), axis=1)]
        S = _scores(pts, C, s, W)
        tie = np.abs(S[:, b.k] - S[:, b.j])
        tol = _tie_tolerance(pts, C, s, W, S)
        assert np.all(tie <= tol)
        if K > 2:  # and k, j are the top two there
            others = np.delete(S, [b.k, b.j], axis=1).max(axis=1)
            assert np.all(np.minimum(S[:, b.k], S[:, b.j]) >= others - tol)
    xs, ys = scene.grid_axes(bounds, 33, 21)
    P = scene.posterior_grid(m, xs, ys)
    nodes = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    np.testing.assert_allclose(P.reshape(-1, K), proba_softmax(design(nodes, C, s), W), atol=2e-7)  # float32


def test_the_grid_and_the_points_and_the_gradient_agree():
    rng = np.random.default_rng(5)
    X, y = _blobs(3, 5, rng, offset=1e6, scale=1e-3)
    m = create("softmax", basis="rbf").fit(X, y)
    P = m.scores_
    xs = 1e6 + 1e-3 * np.linspace(-3, 3, 7)
    ys = 1e6 + 1e-3 * np.linspace(-2, 2, 5)
    nodes = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    np.testing.assert_allclose(P.evaluate_grid(xs, ys).reshape(3, -1).T, P(nodes), rtol=1e-12, atol=1e-12)
    h = 1e-6  # central differences in data units, over the step the floats really take
    for d in range(2):
        e = np.zeros(2)
        e[d] = h
        fd = (P(nodes + e) - P(nodes - e)) / ((nodes + e)[:, d] - (nodes - e)[:, d])[:, None]
        np.testing.assert_allclose(P.gradient(nodes)[:, :, d], fd, rtol=1e-4, atol=1e-4 * np.abs(fd).max())


def test_a_loss_matrix_shifts_the_rbf_scores_exactly():
    """A loss matrix with equal off-diagonal losses per row: boundaries of argmax_k c_k p(C_k|x), traced on
    the shifted scores (the bias of class k plus ln c_k)."""
    rng = np.random.default_rng(2)
    X, y = _blobs(3, 6, rng)
    m = create("softmax", basis="rbf").fit(X, y)
    L = np.array([[0, 1, 1], [4, 0, 4], [2, 2, 0]], float)
    c = scene.loss_weights(L)
    drawn = scene.loss_boundaries(m, L, (-4, 4, -4, 4))
    W = np.column_stack([m.intercept_ + np.log(c), m.coef_])
    for b in drawn:
        pts = b.xy[np.all(np.isfinite(b.xy), axis=1)]
        S = _scores(pts, m.centers_, m.width_, W)
        assert np.all(np.abs(S[:, b.k] - S[:, b.j]) <= _tie_tolerance(pts, m.centers_, m.width_, W, S))


# --- what does not apply, and bad text ---------------------------------------------------------------

def test_refusals_say_what_to_do():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = [0, 1, 1, 0]
    with pytest.raises(ValueError, match="Bayesian view .* polynomial bases"):
        create("logistic", basis="rbf", bayes=True).fit(X, y)
    for text, said in [("1,2;3", "centre 2 .* not one x,y pair"), ("a,b", "centre 1 .* not two numbers"),
                       ("1,2;;3,4", "centre 2 is empty"), ("nan,1", "not finite")]:
        with pytest.raises(ValueError, match=said):
            create("softmax", basis="rbf", centers=text).fit(X, y)
    with pytest.raises(ValueError, match="width must be a positive number"):
        create("softmax", basis="rbf", width=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="basis must be one of linear, quadratic, cubic, rbf"):
        create("softmax", basis="gauss").fit(X, y)


def test_polynomial_bases_ignore_the_rbf_parameters():
    X = np.array([[0.0, 0.0], [1.0, 0.3], [0.2, 1.0], [1.0, 1.0], [0.5, 0.4]])
    y = [0, 1, 1, 0, 1]
    a = create("logistic", basis="quadratic").fit(X, y)
    b = create("logistic", basis="quadratic", centers="5,5", width=3.0).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not hasattr(a, "centers_") and type(a.scores_).__name__ == "Poly2D"


def test_true_error_of_an_rbf_fit_is_the_grid_integral():
    """Under a known truth the error integral cuts each line x1 = a where two RBF scores tie (found
    numerically): it agrees with a fine grid's sum of p(x, C_k) over the other classes' regions."""
    from probviz.models.truth import Truth, error_rate

    truth = Truth.make([0.4, 0.6], [[0.0, 0.0], [1.5, 0.5]], [np.eye(2) * 0.5, [[1.0, 0.3], [0.3, 0.6]]])
    rng = np.random.default_rng(0)
    X = np.vstack([rng.multivariate_normal([0, 0], np.eye(2) * 0.5, 20),
                   rng.multivariate_normal([1.5, 0.5], [[1.0, 0.3], [0.3, 0.6]], 30)])
    y = np.repeat([0, 1], [20, 30])
    m = create("logistic", basis="rbf", l2=0.1).fit(X, y)
    exact = error_rate(truth, m, m.classes_)
    xs = np.linspace(-7, 9, 1601)
    h = xs[1] - xs[0]
    g = np.stack(np.meshgrid(xs, xs), axis=-1).reshape(-1, 2)
    J = np.exp(truth.log_joint(g))
    grid = float((J.sum(axis=1) - J[np.arange(len(g)), m.predict(g)]).sum() * h * h)
    assert abs(exact - grid) < 2e-4


# --- the feature space (Bishop figure 4.12, right) ----------------------------------------------------

@pytest.mark.parametrize("name,K", [("logistic", 2), ("softmax", 2), ("softmax", 3)])
def test_with_two_centres_the_boundary_is_a_straight_line_in_feature_space(name, K):
    from probviz.feature_space import feature_space

    rng = np.random.default_rng(8)
    X = rng.normal(size=(60, 2)) * 1.5
    y = ((X[:, 0] * X[:, 1] > 0).astype(int) if K == 2
         else np.digitize(X[:, 0] + 0.3 * X[:, 1] ** 2, [-0.5, 1.0]))
    m = create(name, basis="rbf", centers="1,1;-1,-1", width=1.2).fit(X, y)
    fs = feature_space(m, X, y)
    Phi = design(X, parse_centers("1,1;-1,-1"), 1.2)
    np.testing.assert_allclose(fs.points, Phi[:, 1:], rtol=1e-14, atol=1e-300)
    W = np.column_stack([m.intercept_, m.coef_])
    if name == "logistic":
        W = np.vstack([np.zeros(3), W])
    assert fs.lines and not fs.note
    for k, j, seg in fs.lines:  # both ends tie, inside the unit square, k and j leading there
        S = np.column_stack([np.ones(2), seg]) @ W.T
        np.testing.assert_allclose(S[:, k], S[:, j], atol=1e-12)
        assert np.all((seg >= -1e-12) & (seg <= 1 + 1e-12))
        assert np.all(np.delete(S, [k, j], axis=1) <= S[:, [k]] + 1e-12)
    if K == 2:  # each point's side of the line is its predicted class
        (_, _, seg), = fs.lines
        d = seg[1] - seg[0]
        side = np.sign(d[0] * (fs.points[:, 1] - seg[0, 1]) - d[1] * (fs.points[:, 0] - seg[0, 0]))
        pred = m.predict(X)
        assert len(set(zip(side, pred))) == 2  # one class on each side


def test_the_feature_space_says_what_it_cannot_draw():
    from probviz.feature_space import feature_space

    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = np.array([0, 1, 1, 0])
    fs = feature_space(create("softmax", basis="rbf").fit(X, y), X, y)
    assert not fs.lines and "slice of a 9-dimensional feature space" in fs.note  # the 3 x 3 lattice
    with pytest.raises(ValueError, match="rbf basis"):
        feature_space(create("softmax").fit(X, y), X, y)
    with pytest.raises(ValueError, match="two basis functions or more"):
        feature_space(create("softmax", basis="rbf", centers="0,0").fit(X, y), X, y)
