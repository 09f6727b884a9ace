"""The training summary's likelihood (the status line, the panel, `probviz fit`) is exact to rounding point by
point, even for a near-perfect fit whose cross-entropy is tiny next to its scores; and the summary of many points,
made in blocks, is the one made in one pass: the same misclassified points, the same accuracy, the
same sums to rounding. References: extended precision, term by term, and scipy's log_expit / log_ndtr."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.special import log_expit, log_ndtr

from probviz.models import base, create

MODELS = ["lda", "qda", "tied", "nb", "logistic", "softmax", "probit"]


def reference_cross_entropy(m, X, y) -> float:
    """-sum_n ln p(t_n|x_n) (one-vs-rest: -sum_k ln p(t_k|X)), each term alone, in extended precision where it
    is a softmax: ln(1 + sum_{j != t} e^(a_j - a_t))."""
    S = m.decision_function(X)
    codes = m._codes(y)
    n = np.arange(len(codes))
    if getattr(m, "ovr_", False):
        sign = np.where(codes[:, None] == np.arange(S.shape[1]), 1.0, -1.0)
        link = log_ndtr if m.name == "probit" else log_expit
        return float(-np.sum(link(sign * S)))
    if m.name == "probit" and S.shape[1] == 2:
        a = S[:, 1] - S[:, 0]
        return float(-np.sum(log_ndtr(np.where(codes == 1, a, -a))))
    d = S.astype(np.longdouble) - S[n, codes].astype(np.longdouble)[:, None]
    d[n, codes] = -np.inf
    return float(np.sum(np.log1p(np.sum(np.exp(d), axis=1))))


def separated(k: int, n_each: int, gap: float, seed: int = 0, offset=0.0):
    rng = np.random.default_rng(seed)
    centres = gap * np.c_[np.cos(2 * np.pi * np.arange(k) / k), np.sin(2 * np.pi * np.arange(k) / k)]
    X = np.vstack([c + rng.normal(0, 1, (n_each, 2)) for c in centres]) + offset
    return X, np.repeat(np.arange(k), n_each)


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("k, gap", [(2, 14.0), (3, 12.0), (5, 16.0)])
def test_a_near_perfect_fits_cross_entropy_keeps_its_digits(name, k, gap):
    """Well separated classes: every p(t_n|x_n) within about 1e-8 of 1 and scores in the hundreds or thousands.
    The sum of ln sum_k e^(a_k) less the sum of a_{t_n} (two large sums nearly equal) was 2% off for QDA; each
    term made whole before the sum is exact to rounding."""
    X, y = separated(k, 400, gap)
    m = create(name).fit(X, y)
    summary, wrong = m.evaluate(X, y)
    ref = reference_cross_entropy(m, X, y)
    assert not wrong.any() and summary["accuracy"] == 1.0
    assert summary["cross_entropy"] == pytest.approx(ref, rel=1e-12, abs=1e-300)
    if getattr(m, "ovr_", False):
        assert summary["log_likelihood"] == pytest.approx(-ref, rel=1e-12, abs=1e-300)


def test_the_cross_entropy_of_a_qda_fit_on_well_separated_classes_is_not_lost_to_cancellation():
    """The case that showed it: two classes 14 apart, 400 points each; the cross-entropy is about 1e-9 while
    the scores reach thousands."""
    X, y = separated(2, 400, 14.0)
    m = create("qda").fit(X, y)
    S = m.decision_function(X)
    ref = reference_cross_entropy(m, X, y)
    assert ref < 1e-6 and np.abs(S).max() > 100  # tiny next to its terms: the cancellation case
    assert m.evaluate(X, y)[0]["cross_entropy"] == pytest.approx(ref, rel=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(MODELS), st.integers(2, 10), st.integers(0, 2**31 - 1), st.sampled_from([0.0, 1e6, -3e5]),
       st.sampled_from([1.0, 1e-6, 1e6]))
def test_the_summary_made_in_blocks_is_the_summary_made_at_once(name, k, seed, offset, scale):
    """Blocks of 64 points (as 65,536 are at a million points), K up to 10, offsets of 1e6 and
    scales of 1e-6 and 1e6: the same misclassified mask and accuracy, and the likelihood's sums equal to
    rounding, to the one-pass summary and to the reference."""
    rng = np.random.default_rng(seed)
    X = rng.normal(0, 2.0, (700, 2)) * scale + offset
    y = rng.integers(0, k, 700)
    y[:k] = np.arange(k)  # every class present
    m = create(name).fit(X[:300], y[:300])
    whole, wrong = m.evaluate(X, y)
    kept, base.EVALUATE_BLOCK = base.EVALUATE_BLOCK, 64
    try:
        blocks, wrong_b = m.evaluate(X, y)
    finally:
        base.EVALUATE_BLOCK = kept
    np.testing.assert_array_equal(wrong_b, wrong)
    assert blocks["accuracy"] == whole["accuracy"]
    ref = reference_cross_entropy(m, X, y)
    for s in (whole, blocks):
        assert s["cross_entropy"] == pytest.approx(ref, rel=1e-10)
    assert blocks["log_likelihood"] == pytest.approx(whole["log_likelihood"], rel=1e-12)
    if "binary_log_likelihoods" in whole:
        np.testing.assert_allclose(blocks["binary_log_likelihoods"], whole["binary_log_likelihoods"], rtol=1e-12)
    assert {k: v for k, v in blocks.items() if not isinstance(v, float) and k != "binary_log_likelihoods"} == \
        {k: v for k, v in whole.items() if not isinstance(v, float) and k != "binary_log_likelihoods"}


@pytest.mark.parametrize("name, k", [("logistic", 2), ("logistic", 3), ("softmax", 2), ("softmax", 4), ("probit", 3)])
def test_a_tie_for_the_largest_posterior_decides_nothing(name, k):
    """At w = 0 every class has p(C_k|x) = 1/K: no point is decided (the first class by a tie would count its
    points right), by the summary and by the trainer alike; and a single point exactly between two symmetric
    LDA classes is undecided while its neighbours are not."""
    from probviz.models.training import Trainer

    rng = np.random.default_rng(k)
    y = np.arange(40) % k
    X = rng.normal(0, 1, (40, 2)) + 3 * np.c_[np.arange(k), np.arange(k) % 2][y]
    t = Trainer(name, X, y, optimizer="gd") if name != "probit" else None
    m = t.model() if t is not None else create(name).fit(X, y)
    if t is not None:
        assert not np.any(t.current.W)
        summary, wrong = m.evaluate(X, y)
        assert summary["accuracy"] == 0.0 and summary["undecided"] == 40 and wrong.all()
        assert t.misclassified(t.current.W) == 40 and t.on_boundary(t.current.W) == 40
        t.step(1)
        assert t.on_boundary(t.current.W) == 0 and "undecided" not in t.model().evaluate(X, y)[0]
    lda = create("lda").fit(np.array([[-1.0, 0.0], [-1.0, 1.0], [1.0, 0.0], [1.0, 1.0]]), np.array([0, 0, 1, 1]))
    between = np.array([[0.0, 0.5], [-1e-9, 0.5], [1e-9, 0.5]])
    S = lda.decision_function(between)
    assert S[0, 0] == S[0, 1] and S[1, 0] > S[1, 1] and S[2, 1] > S[2, 0]  # exact by symmetry
    summary, wrong = lda.evaluate(between, np.array([0, 0, 1]))
    assert summary["undecided"] == 1 and wrong.tolist() == [True, False, False]

