"""The fast paths for posteriors at arbitrary points equal the plain computations they replace."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypo import examples
from scipy.special import log_expit, logsumexp, softmax

from probviz.models import create
from probviz.models.base import argmax_classes
from probviz.models.logistic import log_sigmoid


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31), K=st.integers(1, 10), ties=st.booleans())
def test_argmax_over_classes_is_numpys_first_maximum(seed, K, ties):
    rng = np.random.default_rng(seed)
    T = rng.integers(0, 3, size=(K, 500)).astype(float) if ties else rng.normal(size=(K, 500))
    np.testing.assert_array_equal(argmax_classes(T), np.argmax(T, axis=0))
    best, top = argmax_classes(T, with_max=True)
    np.testing.assert_array_equal(best, np.argmax(T, axis=0))
    np.testing.assert_array_equal(top, np.max(T, axis=0))


def test_log_sigmoid_is_scipys_to_the_last_digit_that_matters():
    a = np.r_[np.linspace(-800, 800, 20001), -1e308, 1e308, 0.0, 1e-300, -1e-300, 36.7, 37.5]
    got, want = log_sigmoid(a), log_expit(a)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1.2e-16)


@pytest.mark.parametrize("name", ["lda", "qda", "nb", "logistic", "softmax"])
@pytest.mark.parametrize("K", [2, 3, 7])
def test_posteriors_at_scattered_points_equal_the_plain_softmax(name, K):
    rng = np.random.default_rng(K)
    X = rng.normal(size=(40 * K, 2)) + np.repeat(rng.normal(size=(K, 2)) * 3, 40, axis=0)
    y = np.repeat(np.arange(K), 40)
    m = create(name, **({"basis": "quadratic"} if name == "softmax" else {})).fit(X, y)
    Q = rng.uniform(-12, 12, (3000, 2))
    S = np.array(m.decision_function(Q))  # whatever its memory order
    # the scores, from the polynomial written out term by term
    z = (Q - m.scores_.center) / m.scores_.scale
    C = m.scores_.coefs
    plain = sum(C[:, i, j][None] * (z[:, :1] ** i * z[:, 1:] ** j) for i in range(C.shape[1]) for j in range(C.shape[2]))
    np.testing.assert_allclose(S, plain, rtol=1e-12, atol=1e-9 * np.abs(plain).max())
    A = log_expit(S) if getattr(m, "ovr_", False) else S
    np.testing.assert_allclose(m.predict_proba(Q), softmax(A, axis=1), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(m.predict_log_proba(Q), A - logsumexp(A, axis=1, keepdims=True), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_array_equal(m.predict(Q), m.classes_[np.argmax(S, axis=1)])


@pytest.mark.parametrize("name", ["lda", "qda", "nb", "logistic", "softmax"])
@pytest.mark.parametrize("labels", ["indices", "gappy", "strings"])
def test_the_training_summary_equals_its_definition(name, labels):
    """Accuracy, the misclassified mask and the cross-entropy from one pass, against the plain
    formulas; integer labels with gaps (a document class without points) and strings alike."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 2)) + np.repeat([[0, 0], [2, 1], [0, 3]], 100, axis=0)
    codes = np.repeat([0, 1, 2], 100)
    y = {"indices": codes, "gappy": np.array([0, 2, 5])[codes], "strings": np.array(["a", "b", "c"])[codes]}[labels]
    m = create(name).fit(X, y)
    summary, wrong = m.evaluate(X, y)
    S = np.array(m.decision_function(X))
    predicted = np.argmax(S, axis=1)
    np.testing.assert_array_equal(wrong, predicted != codes)
    assert summary["accuracy"] == np.mean(predicted == codes)
    if getattr(m, "ovr_", False):
        t = codes[:, None] == np.arange(3)
        each = np.where(t, log_expit(S), log_expit(-S)).sum(axis=0)
        np.testing.assert_allclose(summary["binary_log_likelihoods"], each, rtol=1e-12)
        assert summary["cross_entropy"] == pytest.approx(-each.sum(), rel=1e-12)
    else:
        ce = -(S[np.arange(300), codes] - logsumexp(S, axis=1)).sum()
        assert summary["cross_entropy"] == pytest.approx(ce, rel=1e-12)
    unknown = {"indices": [[7, 0], [-1, 0]], "gappy": [[7, 0], [1, 0], [-1, 0]], "strings": [["z", "a"]]}[labels]
    for bad in unknown:  # beyond the classes, or in a gap between them
        with pytest.raises(ValueError, match="not fitted on"):
            m.evaluate(X[:2], np.array(bad))


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**31), K=st.integers(3, 10), offset=st.sampled_from([0.0, 1e6, -1e6]),
       scale=st.sampled_from([1e-6, 1.0, 1e6]), basis=st.sampled_from(["linear", "quadratic"]))
def test_one_vs_rest_logistic_posteriors_at_points_are_the_log_space_ones(seed, K, offset, scale, basis):
    """Logistic one-vs-rest's predict_proba (negated scores, sigma in place, the vanishing rows redone in
    log space) against scipy's softmax of ln sigma(a_k), at points near the data and far out, where with the
    quadratic basis every class's sigma underflows; equal bit for bit to the general path, also after a
    refit on other data (the negated scores follow the fit)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 5))  # 2-4 points a class
    X = (rng.normal(size=(n * K, 2)) + np.repeat(rng.normal(size=(K, 2)) * 3, n, axis=0)) * scale + offset
    y = np.repeat(np.arange(K), n)
    m = create("logistic", basis=basis).fit(X, y)
    assert m.ovr_
    far = rng.normal(size=(200, 2)) * 10.0 ** rng.uniform(0, 5, (200, 1))  # out to 1e5 spreads away
    Q = np.vstack([X, far * scale + offset])
    got = m.predict_proba(Q)
    S = np.array(m.decision_function(Q))
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, _ovr_reference(S, 1), rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(got, m.proba_from_scores(m.decision_function(Q)))
    m.fit(X[::-1] * 2.0 - offset, y)  # another fit of the same model
    np.testing.assert_array_equal(m.predict_proba(Q), m.proba_from_scores(m.decision_function(Q)))


def test_one_vs_rest_logistic_points_where_every_sigma_vanishes_are_normalised():
    """Four classes at a square's corners: each quadratic one-vs-rest model says "not mine" far out along
    the diagonals, where every sigma underflows to 0 in linear space; the posterior there is still the
    log-space one, finite, and sums to 1."""
    rng = np.random.default_rng(0)
    corners = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0], [4.0, 4.0]])
    X = np.repeat(corners, 20, axis=0) + rng.normal(size=(80, 2)) * 0.7
    m = create("logistic", basis="quadratic").fit(X, np.repeat(np.arange(4), 20))
    angle = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    Q = np.vstack([1e3 * np.c_[np.cos(angle), np.sin(angle)], corners])
    S = np.array(m.decision_function(Q))
    assert np.sum(S.max(axis=1) < -746) >= 2  # rows where every sigma is 0 in float64
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e^-a overflowing to inf and 0/0 are expected and handled: no warning
        got = m.predict_proba(Q)
    np.testing.assert_allclose(got, _ovr_reference(S, 1), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-14)


def test_one_vs_rest_logistic_takes_the_in_place_path_and_probit_does_not(monkeypatch):
    """Logistic one-vs-rest at points near the data goes through its in-place path: the general
    ``ovr_proba`` is not asked (it is for the rows where every sigma vanishes). The probit model's link is
    Phi, not sigma: it never takes that path, and its posteriors are Phi's."""
    from scipy.special import ndtr

    from probviz.models import logistic

    rng = np.random.default_rng(1)
    X = np.repeat([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]], 15, axis=0) + rng.normal(size=(45, 2))
    y = np.repeat(np.arange(3), 15)
    asked = []
    real = logistic.ovr_proba
    monkeypatch.setattr(logistic, "ovr_proba", lambda S, *a, **k: asked.append(len(S)) or real(S, *a, **k))
    Q = rng.uniform(-2, 5, (200, 2))
    m = create("logistic").fit(X, y)
    got = m.predict_proba(Q)
    assert asked == []
    np.testing.assert_allclose(got, _ovr_reference(m.decision_function(Q), 1), rtol=1e-12, atol=1e-15)
    probit = create("probit").fit(X, y)
    P = ndtr(np.array(probit.decision_function(Q)))
    np.testing.assert_allclose(probit.predict_proba(Q), P / P.sum(axis=1, keepdims=True), rtol=1e-10)


def _ovr_reference(S, axis):
    """sigma(a_k) / sum_j sigma(a_j) in log space with scipy (nothing underflows there)."""
    return softmax(log_expit(np.asarray(S, dtype=np.float64)), axis=axis)


_SCORE = st.one_of(st.floats(-50, 50), st.floats(-1e6, 1e6), st.floats(-760, -690), st.floats(-110, -80),
                   st.sampled_from([0.0, -745.2, -709.8, -708.0, -103.3, -88.7, 36.7, 800.0, -1e300, 1e300]))


@settings(max_examples=examples(200), deadline=None)
@given(K=st.integers(2, 10), rows=st.integers(1, 6), data=st.data(), axis=st.sampled_from([0, -1]),
       shift=st.sampled_from([0.0, -600.0, -700.0, -705.0, -720.0, -800.0, -1e5]))
def test_one_vs_rest_posteriors_in_linear_space_are_the_log_space_ones(K, rows, data, axis, shift):
    """sigma(a_k) / sum_j sigma(a_j) as 1 / (1 + e^-a), normalised: the log-space normalisation to rounding,
    in float64 (the points, the probe) and float32 (the grid), for scores anywhere, also where every sigma
    underflows (shift: rows far out on every class's wrong side)."""
    from probviz.models.logistic import ovr_proba

    S = np.array(data.draw(st.lists(st.lists(_SCORE, min_size=K, max_size=K), min_size=rows, max_size=rows)))
    S = S + shift * data.draw(st.sampled_from([0.0, 1.0]))
    if axis == 0:
        S = np.ascontiguousarray(S.T)  # classes first, as the grid has them
    want = _ovr_reference(S, axis)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # overflow to inf and 0/0 are expected and handled: no warning leaks
        got = ovr_proba(S, axis)
        ovr_proba(S, axis, np.float32)
    assert got.dtype == np.float64 and np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got.sum(axis=axis), 1.0, rtol=1e-14)
    got32 = ovr_proba(S, axis, np.float32)
    assert got32.dtype == np.float32 and np.all(np.isfinite(got32))
    np.testing.assert_allclose(got32, want, rtol=2e-6, atol=2e-7)


def test_one_vs_rest_rows_where_every_sigma_underflows_are_normalised_in_log_space():
    """Far on every class's wrong side: sigma(-800) and sigma(-801) underflow to 0 in linear space, yet
    their ratio is e: p = (e/(1+e), 1/(1+e)). And a sigma lost at -746 beside one at -700 is e^-46 of it."""
    from probviz.models.logistic import ovr_proba

    S = np.array([[-800.0, -801.0], [-700.0, -746.0], [-1e6, -1e6 - 2.0]])
    e = np.e
    want = np.array([[e / (1 + e), 1 / (1 + e)], [1.0, np.exp(-46.0)], [e**2 / (1 + e**2), 1 / (1 + e**2)]])
    np.testing.assert_allclose(ovr_proba(S), want, rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(ovr_proba(S.T.copy(), axis=0), want.T, rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(ovr_proba(S, dtype=np.float32)[[0, 2]], want[[0, 2]], rtol=1e-6)
    # float32: sigma(-89) is lost (e^89 overflows), and beside sigma(-75) it is e^-14 of the row
    np.testing.assert_allclose(ovr_proba(np.array([[-75.0, -89.0]]), dtype=np.float32),
                               [[1 / (1 + np.exp(-14.0)), np.exp(-14.0) / (1 + np.exp(-14.0))]], rtol=1e-6)


def test_one_vs_rest_goes_to_log_space_only_for_rows_under_the_bound(monkeypatch):
    """The log-space pass is for rows whose sigmas are all tiny (sum under 2^-900 in float64, 2^-60 in
    float32), and only those: elsewhere the linear path is exact and four times cheaper."""
    from probviz.models import logistic

    real, rows = logistic.log_sigmoid, []
    monkeypatch.setattr(logistic, "log_sigmoid", lambda a: rows.append(len(a)) or real(a))
    tiny = np.array([[-50.0, -50.0]])  # sum 2e-22: above 2^-900, below 2^-60 (9e-19)
    logistic.ovr_proba(np.vstack([tiny, [[0.0, 1.0]], [[-40.0, -41.0]]]))
    assert rows == []  # float64: all linear
    logistic.ovr_proba(np.vstack([tiny, [[-40.0, -40.0]], [[0.0, 1.0]]]), dtype=np.float32)
    assert rows == [1]  # float32: the first row only (-40: sum 8e-18, above the bound)
    logistic.ovr_proba(np.array([[-700.0, -701.0], [-600.0, -610.0]]))
    assert rows == [1, 1]  # float64: e^-700 (1e-304) under 2^-900 (1.2e-271), e^-600 (2.7e-261) above
