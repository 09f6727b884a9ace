"""The fast paths for posteriors at arbitrary points equal the plain computations they replace."""

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
