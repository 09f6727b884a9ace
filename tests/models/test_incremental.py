"""Dragging points updates the generative models from sufficient statistics, equal to a full refit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypo import examples

from probviz.models import create
from probviz.pipeline import ModelSpec, fit_model


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
        model = create(name, reg_covar=0.1).fit_moved(model, y[idx], old, X[idx]) or \
            create(name, reg_covar=0.1).fit(X, y)
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


def _drag(name, X, y, moves):
    """Replay ``moves`` (index, destination) through the app's fit path; return the last fit."""
    spec = ModelSpec.make(name)
    fit = fit_model(spec, X, y)
    incremental = []
    for i, to in moves:
        old = X[[i]].copy()
        X[i] = to
        fit = fit_model(spec, X, y, previous=fit, moved=(np.array([i]), old))
        incremental.append(fit.incremental)
    return fit, incremental


@pytest.mark.parametrize("name", ["lda", "qda", "nb"])
@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 40), offset=st.sampled_from([0.0, 1e4, 1e6]),
       scale=st.sampled_from([1e-3, 1.0, 1e3]),
       trips=st.lists(st.tuples(st.integers(0, 10**6), st.floats(1.0, 1e9), st.integers(0, 8)),
                      min_size=1, max_size=6))
def test_drags_far_and_back_draw_what_a_fresh_fit_draws(name, seed, n, offset, scale, trips):
    """A point dragged far away (up to 1e9 data spreads) and back, among ordinary drags, leaves the
    same posterior as fitting the final points afresh: the sufficient statistics must not lose the
    small scatter to cancellation against the far point's huge one."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * scale + offset
    y = np.arange(n) % 2
    moves = []
    for pick, far, wiggles in trips:
        i = pick % n
        home = X[i].copy()
        moves.append((i, home + far * scale))  # out...
        moves += [(i, home + rng.normal(size=2) * scale) for _ in range(wiggles)]
        moves.append((i, home))  # ...and back
    fit, _ = _drag(name, X, y, moves)
    fresh = create(name).fit(X, y)
    Q = offset + scale * rng.normal(size=(64, 2)) * 3
    np.testing.assert_allclose(fit.model.predict_proba(Q), fresh.predict_proba(Q), atol=1e-6)
    np.testing.assert_allclose(fit.model.covariances_, fresh.covariances_, rtol=1e-6,
                               atol=1e-9 * scale ** 2)


def test_ordinary_drags_stay_incremental():
    """The precision guard does not turn every drag into a full refit: a point wandering inside
    the data, even at an offset of 1e6, is updated from the statistics."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(500, 2)) + 1e6
    y = np.arange(500) % 3
    path = [(7, X[7] + 0.5 * np.array([np.cos(t / 9), np.sin(t / 9)])) for t in range(100)]
    _, incremental = _drag("qda", X, y, path)
    assert sum(incremental) >= 95
