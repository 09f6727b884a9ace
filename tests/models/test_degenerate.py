"""Degenerate data never gives NaN: one point per class, collinear or coincident points, one class,
huge and tiny scales, separable classes. Property-based, with hypothesis."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypo import examples

from probviz.models import PROBABILISTIC_NAMES as MODEL_NAMES, create


def check(model, X, y):
    Q = np.vstack([X, X.mean(0) + (X.std(0) + 1) * np.random.default_rng(0).normal(size=(20, 2))])
    P = model.predict_proba(Q)
    assert P.shape == (len(Q), len(np.unique(y)))
    assert np.all(np.isfinite(P))
    np.testing.assert_allclose(P.sum(1), 1.0, atol=1e-9)
    assert np.isfinite(model.log_likelihood(X, y))


@st.composite
def datasets(draw):
    k = draw(st.integers(1, 4))
    n_per = draw(st.lists(st.integers(1, 6), min_size=k, max_size=k))
    scale = 10.0 ** draw(st.integers(-6, 6))
    offset = 10.0 ** draw(st.integers(-3, 6)) * draw(st.sampled_from([-1, 0, 1]))
    shape = draw(st.sampled_from(["free", "collinear", "coincident", "axis"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    X = rng.normal(size=(sum(n_per), 2))
    if shape == "collinear":
        X[:, 1] = 0.5 * X[:, 0]
    elif shape == "coincident":
        X[:] = X[0]
    elif shape == "axis":
        X[:, 1] = 0.0
    y = np.repeat(np.arange(k), n_per)
    return X * scale + offset, y


@pytest.mark.parametrize("name", MODEL_NAMES)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=datasets())
def test_degenerate_data_never_gives_nan(name, data):
    X, y = data
    params = {"standardize": True} if name in ("logistic", "softmax") else {}
    check(create(name, **params).fit(X, y), X, y)


@pytest.mark.parametrize("name", ["qda", "nb"])
def test_one_point_class_is_regularized_and_said(name):
    X = np.array([[0.0, 0.0], [1.0, 0.5], [0.3, 1.2], [2.0, 2.0]])
    y = np.array([0, 0, 0, 1])
    m = create(name).fit(X, y)
    assert m.regularized_
    assert any("single point" in n and "regularized" in n for n in m.notices_)
    check(m, X, y)


def test_lda_pools_a_one_point_class_without_regularizing():
    X = np.array([[0.0, 0.0], [1.0, 0.5], [0.3, 1.2], [2.0, 2.0]])
    y = np.array([0, 0, 0, 1])
    m = create("lda").fit(X, y)
    assert not m.regularized_
    np.testing.assert_allclose(m.covariance_, np.cov(X[:3].T, bias=True) * 3 / 4)


def test_lda_with_one_point_per_class_bisects():
    """Both classes single points: the pooled covariance is singular, is regularized isotropically,
    and the boundary is the perpendicular bisector."""
    X = np.array([[0.0, 0.0], [2.0, 2.0]])
    m = create("lda").fit(X, [0, 1])
    assert m.regularized_ and any("shared covariance" in n for n in m.notices_)
    P = m.predict_proba([[1.0, 1.0], [2.0, 0.0], [0.5, 0.4]])
    np.testing.assert_allclose(P[:2, 0], 0.5, atol=1e-9)
    assert P[2, 0] > 0.99


def test_collinear_class_is_regularized():
    t = np.linspace(0, 1, 10)
    X = np.vstack([np.c_[t, 2 * t], np.random.default_rng(1).normal(size=(10, 2))])
    y = np.repeat([0, 1], 10)
    m = create("qda").fit(X, y)
    assert m.regularized_ and "collinear" in m.notices_[0]
    assert np.all(np.linalg.eigvalsh(m.covariances_) > 0)


def test_well_posed_data_is_not_regularized(three_blobs):
    X, y = three_blobs
    for name in ("lda", "qda", "nb"):
        m = create(name).fit(X, y)
        assert not m.regularized_ and m.notices_ == []


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_single_class_gives_certainty_and_a_notice(name):
    X = np.random.default_rng(0).normal(size=(5, 2))
    m = create(name).fit(X, np.zeros(5, int))
    np.testing.assert_array_equal(m.predict_proba(X), 1.0)
    assert any("one class" in n for n in m.notices_)


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_no_points_is_a_clear_error(name):
    with pytest.raises(ValueError, match="no points"):
        create(name).fit(np.empty((0, 2)), np.empty(0))


def test_nan_input_is_refused():
    with pytest.raises(ValueError, match="NaN"):
        create("lda").fit([[0, 0], [np.nan, 1]], [0, 1])


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_far_from_the_data_the_posterior_stays_normalized(three_blobs, name):
    X, y = three_blobs
    m = create(name).fit(X, y)
    far = np.array([[1e4, -1e4], [-3e3, 5e3], [1e6, 1e6]])
    P = m.predict_proba(far)
    assert np.all(np.isfinite(P))
    np.testing.assert_allclose(P.sum(1), 1.0)
    from probviz.scene import posterior_grid
    G = posterior_grid(m, np.array([-1e4, 1e4]), np.array([-1e4, 1e4]))
    assert np.all(np.isfinite(G))


@pytest.mark.parametrize("name", ["lda", "qda", "nb"])
def test_a_spread_too_small_to_square_is_named_not_called_collinear(name):
    """Points 1e-300 apart: their variances underflow to 0 in float64. The fit says so (a notice naming
    the scale), instead of calling two well-separated classes collinear."""
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(0, 1, (20, 2)), rng.normal(3, 1, (20, 2))] * 1e-300
    y = np.repeat([0, 1], 20)
    model = create(name).fit(X, y)
    assert any("too small for float64 to hold its square" in n for n in model.notices_), model.notices_
    assert not any("collinear" in n for n in model.notices_)
    ordinary = create(name).fit(X * 1e300, y)  # the same points at a scale float64 squares
    assert not any("float64" in n for n in ordinary.notices_)
