"""Dragging points updates the generative models from sufficient statistics, equal to a full refit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypo import examples

from probviz.models import create


@pytest.mark.parametrize("name", ["lda", "qda", "nb"])
@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(1, 30), offset=st.sampled_from([0.0, 1e4]))
def test_random_moves_match_a_full_refit(name, seed, steps, offset):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 2)) + offset
    y = rng.integers(0, 3, 60)
    y[:3] = [0, 1, 2]
    model = create(name, reg_covar=0.1).fit(X, y)
    for _ in range(steps):
        idx = rng.choice(60, size=rng.integers(1, 4), replace=False)
        old = X[idx].copy()
        X[idx] = old + rng.normal(scale=2.0, size=old.shape)
        model = create(name, reg_covar=0.1).fit_moved(model, y[idx], old, X[idx])
    full = create(name, reg_covar=0.1).fit(X, y)
    np.testing.assert_allclose(model.means_, full.means_, rtol=1e-9, atol=1e-9 * (1 + offset))
    np.testing.assert_allclose(model.covariances_, full.covariances_, rtol=1e-7, atol=1e-9)
    Q = X[:20] + 0.3
    np.testing.assert_allclose(model.predict_proba(Q), full.predict_proba(Q), atol=1e-7)
    assert model.log_likelihood_from_stats() == pytest.approx(full.log_likelihood(X, y), rel=1e-8)


def test_moving_the_only_point_of_a_class():
    X = np.array([[0.0, 0.0], [1.0, 0.2], [0.3, 1.0], [5.0, 5.0]])
    y = np.array([0, 0, 0, 1])
    m = create("qda").fit(X, y)
    m2 = create("qda").fit_moved(m, np.array([1]), X[3:], np.array([[6.0, 4.0]]))
    np.testing.assert_allclose(m2.means_[1], [6.0, 4.0])
    assert m2.regularized_ and np.all(np.isfinite(m2.predict_proba(X)))
