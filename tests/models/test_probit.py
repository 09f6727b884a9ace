"""Probit regression (Bishop 4.3.5) against a generic optimiser on the same objective, written here
from the textbook with scipy (no probviz code), on adversarial data: 2-4 points a class, offsets of
1e6, scales of 1e-6 and 1e6, separable sets (the penalty keeps them finite), K up to 6."""

import numpy as np
import pytest
from hypo import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.special import log_ndtr, ndtr
from scipy.stats import norm

from probviz.models import create

L2 = 0.3


def _features(X, degree):
    """[1, z1, z2(, z1^2, z1 z2, z2^2)] with z standardized by the mean and the population deviation."""
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    cols = [np.ones(len(X)), Z[:, 0], Z[:, 1]]
    if degree == 2:
        cols += [Z[:, 0] ** 2, Z[:, 0] * Z[:, 1], Z[:, 1] ** 2]
    return np.column_stack(cols)


def _objective(Phi, t, l2):
    """-sum_n ln Phi(s_n a_n) + (l2 / 2) ||w||^2 (the bias free), s = 2t - 1 (Bishop eqs. 4.114 and 4.90)."""
    s = 2.0 * t - 1.0

    def f(w):
        a = s * (Phi @ w)
        r = np.exp(norm.logpdf(a) - log_ndtr(a))  # phi / Phi, safe in the tails
        grad = -(s * r) @ Phi + l2 * np.r_[0.0, w[1:]]
        return -np.sum(log_ndtr(a)) + 0.5 * l2 * np.sum(w[1:] ** 2), grad
    return f


def _reference(X, y, K, degree=1, l2=L2):
    """Each binary problem (one-vs-rest for K > 2) minimised by BFGS to a tight gradient: p(C_k|x)."""
    Phi = _features(X, degree)
    targets = [(y == 1).astype(float)] if K == 2 else [(y == k).astype(float) for k in range(K)]
    A = []
    for t in targets:
        res = minimize(_objective(Phi, t, l2), np.zeros(Phi.shape[1]), jac=True, method="BFGS",
                       options={"gtol": 1e-11, "maxiter": 10_000})
        A.append(Phi @ res.x)
    A = np.array(A).T
    if K == 2:
        return np.column_stack([ndtr(-A[:, 0]), ndtr(A[:, 0])])
    P = ndtr(A)
    return P / P.sum(axis=1, keepdims=True)


def _data(K, per, offset, scale, seed):
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 1.2, (K, 2))
    X = np.vstack([rng.normal(c, 1.0, (per, 2)) for c in centres])
    return X * scale + offset, np.repeat(np.arange(K), per)


@pytest.mark.parametrize("K, per, offset, scale, degree", [
    (2, 2, 0.0, 1.0, 1), (2, 3, 1e6, 1.0, 1), (3, 4, 0.0, 1e-6, 1), (4, 3, -1e6, 1e6, 1),
    (6, 2, 0.0, 1.0, 1), (2, 4, 0.0, 1.0, 2), (3, 30, 5.0, 1e-3, 2)])
def test_probit_matches_a_generic_optimiser_on_the_same_objective(K, per, offset, scale, degree):
    X, y = _data(K, per, offset, scale, seed=K * per)
    basis = "linear" if degree == 1 else "quadratic"
    model = create("probit", l2=L2, basis=basis).fit(X, y)
    assert model.converged_ and model.ovr_ == (K > 2)
    np.testing.assert_allclose(model.predict_proba(X), _reference(X, y, K, degree), atol=2e-7)


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(2, 5), st.integers(2, 4), st.sampled_from([0.0, 1e6, -3e5]),
       st.sampled_from([1e-6, 1.0, 1e6]), st.integers(0, 10_000))
def test_probit_is_at_its_optimum_on_any_small_set(K, per, offset, scale, seed):
    """Any small set, any offset and scale: the posteriors of the generic optimiser's minimum."""
    X, y = _data(K, per, offset, scale, seed)
    model = create("probit", l2=L2).fit(X, y)
    assert model.converged_
    np.testing.assert_allclose(model.predict_proba(X), _reference(X, y, K), atol=2e-6)


def test_separable_points_are_named_without_a_penalty_and_finite_with_one():
    X = np.array([[0.0, 0.0], [0.3, 0.1], [2.0, 2.0], [2.2, 1.9]])
    y = np.array([0, 0, 1, 1])
    free = create("probit", l2=0.0).fit(X, y)
    assert free.separation_ == "separable" and not free.converged_
    held = create("probit", l2=1.0).fit(X, y)
    assert held.converged_ and np.all(np.isfinite(held.coef_))
    np.testing.assert_allclose(held.predict_proba(X), _reference(X, y, 2, l2=1.0), atol=2e-7)


def test_the_tails_are_exact_far_from_the_boundary():
    """p(C_1|x) = Phi(a) where a is -40: 3.7e-350 underflows a double, yet ln p is exact (log_ndtr), and
    the posterior never turns into NaN or a wrong 0/1 on the near side."""
    X = np.array([[-1.0, 0.0], [-0.5, 0.2], [0.5, -0.1], [1.0, 0.0]])
    y = np.array([0, 0, 1, 1])
    model = create("probit", l2=1.0).fit(X, y)
    w, w0 = model.coef_[0], model.intercept_[0]
    far = np.array([[-40.0, 0.0]])
    a = float(far[0] @ w + w0)
    assert a < -35
    assert model.predict_log_proba(far)[0, 1] == pytest.approx(float(log_ndtr(a)), rel=1e-12)
    p = model.predict_proba(far)[0]
    assert p[0] == 1.0 and 0 <= p[1] < 1e-250


def test_the_logistic_sigmoid_is_close_to_probit_with_lambda_squared_pi_over_8():
    """sigma(a) ≈ Phi(lambda a), lambda^2 = pi/8 (Bishop 4.5.2): the largest gap over a is below 0.02,
    and the fitted probit weights are about lambda times the logistic ones on well-mixed data."""
    from probviz.models.probit import LAMBDA

    a = np.linspace(-10, 10, 20001)
    assert np.max(np.abs(1 / (1 + np.exp(-a)) - ndtr(LAMBDA * a))) < 0.02
    X, y = _data(2, 200, 0.0, 1.0, seed=4)
    ratio = create("probit").fit(X, y).coef_ / create("logistic").fit(X, y).coef_
    assert np.all(np.abs(ratio / LAMBDA - 1) < 0.15)


@pytest.mark.parametrize("K", [2, 4])
def test_the_summary_is_the_probit_likelihood_of_the_fit(K):
    """The summary's ln p(t|X): sum_n ln Phi(+-a_n) for two classes; for one-vs-rest the sum over the K binary
    problems of sum_n ln Phi(+-a_kn) (each listed), with a the fit's own activations (from coef and intercept,
    in the units of x); ln p(C_k|x) of the normalised posterior Phi(a_k) / sum_j Phi(a_j)."""
    X, y = _data(K, 5, 3.0, 2.0, seed=K)
    model = create("probit", l2=L2).fit(X, y)
    A = X @ model.coef_.T + model.intercept_
    s = model.summary(X, y)
    if K == 2:
        a = A[:, 0]
        ll = float(np.sum(log_ndtr(np.where(y == 1, a, -a))))
        assert s["log_likelihood"] == pytest.approx(ll, rel=1e-10) and s["cross_entropy"] == pytest.approx(-ll)
        want = np.column_stack([log_ndtr(-a), log_ndtr(a)])
    else:
        each = [float(np.sum(log_ndtr(np.where(y == k, A[:, k], -A[:, k])))) for k in range(K)]
        np.testing.assert_allclose(s["binary_log_likelihoods"], each, rtol=1e-10)
        assert s["log_likelihood"] == pytest.approx(sum(each), rel=1e-10)
        assert s["log_likelihood_kind"] == f"sum of the {K} one-vs-rest ln p(t_k|X)"
        L = log_ndtr(A)
        want = L - np.log(np.sum(np.exp(L), axis=1, keepdims=True))
    np.testing.assert_allclose(model.predict_log_proba(X), want, atol=1e-10)
    np.testing.assert_allclose(model.predict_proba(X), np.exp(want), atol=1e-12)


def test_one_class_and_the_generative_start():
    """One class: p(C|x) = 1 everywhere. The Newton start from the Gaussian log-odds is scaled by lambda, so
    it lies nearer the probit optimum than the unscaled log-odds (a start is only a start: the fit is the same)."""
    from probviz.models.base import data_frame
    from probviz.models.probit import LAMBDA

    X, y = _data(2, 30, 0.0, 1.0, seed=9)
    one = create("probit").fit(X[y == 0], y[y == 0])
    np.testing.assert_array_equal(one.predict_proba(X), np.ones((len(X), 1)))
    model = create("probit", l2=L2).fit(X, y)
    center, scale = data_frame(X)
    start = model.generative_start(X, y, 2, center, scale, 1)
    logistic_start = create("logistic", l2=L2).generative_start(X, y, 2, center, scale, 1)
    np.testing.assert_allclose(start, LAMBDA * logistic_start, rtol=1e-12)
    assert np.linalg.norm(start - model.weights_) < np.linalg.norm(logistic_start - model.weights_)


def test_the_cross_section_sets_sigma_a_over_lambda_beside_probit():
    """Along a section of a two-class probit model, the sigmoid sigma(a / lambda) of its activation
    a = Phi^-1(p): within 0.02 of Phi(a) everywhere (Bishop 4.5.2's approximation), and not the same curve."""
    from scipy.special import expit, ndtri

    from probviz.scene import cross_section

    X = np.array([[0.0, 0.0], [1.0, 0.4], [0.3, 1.0], [2.0, 2.1], [2.6, 1.5], [1.2, 2.9]])
    m = create("probit").fit(X, np.array([0, 0, 0, 1, 1, 1]))
    sec = cross_section(m, (-3.0, -3.0), (5.0, 5.0), n=101)
    p = sec.posterior[:, 1]
    keep = (p > 1e-12) & (p < 1 - 1e-12)
    label, values = sec.link
    assert label == "σ(a/λ)"
    np.testing.assert_allclose(values[keep], expit(ndtri(p[keep]) / np.sqrt(np.pi / 8)), atol=1e-9)
    gap = np.abs(values - p)
    assert gap.max() < 0.02 and gap.max() > 1e-3
    assert sec.predictive is None and sec.band is None  # no Bayesian view of probit


@settings(max_examples=examples(40), deadline=None)
@given(K=st.integers(2, 10), seed=st.integers(0, 10_000), spread=st.sampled_from([1.0, 10.0, 60.0, 1e3]),
       shift=st.sampled_from([0.0, -30.0, -45.0, -800.0]), classes_first=st.booleans())
@example(K=3, seed=0, spread=10.0, shift=-30.0, classes_first=False)  # posteriors of 1e-167 beside 1: ln Phi keeps them
def test_the_posterior_from_scores_is_the_normalised_phi_of_each_activation(K, seed, spread, shift, classes_first):
    """p from the scores, as a frame's grid and predict_proba ask for it, against the textbook written here with
    scipy: two classes Phi(-a), Phi(a) with a = s_1 - s_0; one-vs-rest Phi(a_k) / sum_j Phi(a_j), normalised in
    log space (ln Phi exact in the tail). Activations far in the tails (every Phi under 1e-200, or lost to 0),
    both layouts of the class axis, in float64 (the softmax of ln Phi: every posterior to its own precision)
    and in float32 (a frame's grid: Phi itself, normalised, to float32's precision and smallest number)."""
    model = create("probit")
    model.ovr_ = K > 2
    rng = np.random.default_rng(seed)
    S = shift + spread * rng.standard_normal((300, K))
    S[:5] = shift - 40 - rng.uniform(0, 5, (5, K))  # rows where every Phi is tiny or 0
    if K == 2:
        a = S[:, 1] - S[:, 0]
        logs = np.column_stack([log_ndtr(-a), log_ndtr(a)])
    else:
        logs = log_ndtr(S)
    want = np.exp(logs - logs.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    T, axis = (np.ascontiguousarray(S.T), 0) if classes_first else (S, -1)
    for dtype, tol in ((np.float64, 1e-12), (np.float32, 2e-6)):
        got = model.proba_from_scores(T, axis=axis, dtype=dtype)
        got = got.T if classes_first else got
        assert got.dtype == dtype and np.all(np.isfinite(got))
        np.testing.assert_allclose(got, want, rtol=tol, atol=np.finfo(dtype).tiny)


def _fourth_derivative_of_ln_phi(a):
    """The fourth derivative of ln Phi, from m = phi / Phi (the first) and m' = -m (a + m), by hand."""
    m = np.exp(-0.5 * a * a - 0.5 * np.log(2 * np.pi) - log_ndtr(a))
    dm = -m * (a + m)
    return dm * (a + m) * (a + 2 * m) + m * (1 + dm) * (a + 2 * m) + m * (a + m) * (1 + 2 * dm) - dm


#: ln Phi's table for a frame's grid: Hermite's cubic between nodes h = 2^-5 apart is within h^4 / 384 of ln Phi
#: times the largest fourth derivative
TABLE_BOUND = 2.0 ** -20 / 384 * np.abs(_fourth_derivative_of_ln_phi(np.linspace(-40.0, 8.5, 1_000_001))).max()


def test_the_fourth_derivative_of_ln_phi_is_the_finite_differences():
    for x in (-30.0, -5.0, 0.0, 2.07, 6.0):
        e = 1e-2
        f = log_ndtr(x + e * np.arange(-2, 3))
        assert abs((f[0] - 4 * f[1] + 6 * f[2] - 4 * f[3] + f[4]) / e ** 4 - _fourth_derivative_of_ln_phi(x)) < 1e-4


def test_the_grids_ln_phi_table_is_within_its_bound_of_scipys_log_ndtr():
    """A frame's grid reads ln Phi from a table (Hermite's cubic between nodes 2^-5 apart). Everywhere within
    4.7e-10 of scipy's log_ndtr: a million places, the midway points between nodes where the error is largest
    (near a = 2.07, where the bound is met), the ends of the table and beyond them (exact below its start,
    within 1e-17 of 0 above its end), a NaN, the infinities; any shape and layout."""
    from probviz.models.probit import TABLE_ERROR, log_ndtr_table

    assert TABLE_BOUND <= TABLE_ERROR < 5e-10  # the bound it says is the table's own
    rng = np.random.default_rng(0)
    a = np.concatenate([rng.uniform(-45.0, 12.0, 1_000_000), -40.0 + 2.0 ** -5 * (np.arange(1552) + 0.5),
                        [-40.0, -40.0 - 1e-12, -41.0, -1e3, -1e300, 8.5 - 1e-12, 8.5, 8.5 + 1e-12, 30.0, 1e300, 0.0]])
    want = log_ndtr(a)
    got = log_ndtr_table(a)
    far = a < -40.0
    np.testing.assert_array_equal(got[far], want[far])  # below the table: scipy's own value (-inf at -1e300)
    error = np.abs(got[~far] - want[~far])
    assert error.max() <= TABLE_BOUND
    assert error.max() > TABLE_BOUND / 2  # the bound is the table's own (its step is not finer)
    assert np.all(np.abs(got[a >= 8.5]) < 1e-17)
    with np.errstate(invalid="ignore"):
        special = log_ndtr_table(np.array([np.nan, -np.inf, np.inf]))
    assert np.isnan(special[0]) and special[1] == -np.inf and abs(special[2]) < 1e-17
    for kind in (np.float32, np.int64):  # other numbers are taken as float64 (a float32 u would lose the fraction)
        values = np.array([-45, -39, -7, 0, 3, 20]).astype(kind)
        np.testing.assert_allclose(log_ndtr_table(values), log_ndtr(values.astype(float)), rtol=0, atol=TABLE_BOUND)
    grid = rng.uniform(-50.0, 10.0, (4, 30, 20))
    np.testing.assert_allclose(log_ndtr_table(np.moveaxis(grid, 0, -1)), np.moveaxis(log_ndtr(grid), 0, -1),
                               rtol=0, atol=TABLE_BOUND)


@given(K=st.integers(3, 10), seed=st.integers(0, 10_000), spread=st.sampled_from([0.1, 3.0, 30.0, 300.0]),
       shift=st.sampled_from([0.0, 5.0, -20.0, -39.9, -60.0, -1e4]))
@example(K=3, seed=0, spread=30.0, shift=-20.0)
def test_a_frames_one_vs_rest_grid_is_phi_normalised_to_a_few_float32_ulps(K, seed, spread, shift):
    """The float32 grid of a one-vs-rest probit fit, Phi(a_k) / sum_j Phi(a_j), against the same written here in
    float64 log space with scipy: within a relative 5e-7 (4 float32 ulps at most) for every posterior above
    float32's smallest normal number, also where every Phi underflows (rows far in the tail) and across the
    table's ends (-40 and 8.5). A float32 softmax that rounds the shift first is off by up to 5e-6."""
    model = create("probit")
    model.ovr_ = True
    rng = np.random.default_rng(seed)
    S = shift + spread * rng.standard_normal((K, 40, 30))
    logs = log_ndtr(S)
    want = np.exp(logs - logs.max(axis=0))
    want /= want.sum(axis=0)
    got = model.proba_from_scores(S.copy(), axis=0, dtype=np.float32)
    assert got.dtype == np.float32 and got.shape == S.shape
    from probviz.models.probit import log_ndtr_table, softmax_f32
    assert softmax_f32(log_ndtr_table(S)).dtype == np.float32  # float32 throughout: half the passes' bytes
    np.testing.assert_allclose(got, want, rtol=5e-7, atol=np.finfo(np.float32).tiny)
