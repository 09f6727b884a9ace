"""Bayesian logistic regression by the Laplace approximation, the predictive distribution and probit regression
(Bishop 2006, sections 4.3.5, 4.4, 4.5), each checked against a computation written out here: the negative log
posterior and its gradient in numpy, its minimiser by scipy, its Hessian by finite differences, the evidence by
brute-force integration over a grid of weights, the predictive integral by scipy's quad and by Monte Carlo from
q(w). Data are what students click: 2-4 points per class, K up to 6, offsets up to 1e6, scales 1e-6 to 1e6,
separable sets (the prior keeps every weight finite)."""

import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from scipy.optimize import minimize
from scipy.special import expit, logsumexp
from scipy.stats import norm

from probviz.models.bayes import (
    PROBIT_LAMBDA2, BinaryProbit, evidence_alpha, exact_predictive, fit_laplace, kappa, log_exact_predictive,
    moderated,
)
from probviz.models.newton import newton
from tests.hypo import examples
from tests.reference import features

DEGREES = {"linear": 1, "quadratic": 2}


# --- the textbook formulas, written out -----------------------------------------------------------

def nlp(w, Phi, t, alpha):
    """-ln p(w|t) up to a constant (Bishop 2006, eq. 4.142 negated): sum softplus(a) - t a + (alpha/2)|w|^2,
    the bias included in the prior."""
    a = Phi @ w
    return np.sum(np.logaddexp(0.0, a) - t * a) + 0.5 * alpha * w @ w


def nlp_grad(w, Phi, t, alpha):
    return Phi.T @ (expit(Phi @ w) - t) + alpha * w


def nlp_hess(w, Phi, t, alpha):
    y = expit(Phi @ w)
    return (Phi * (y * (1 - y))[:, None]).T @ Phi + alpha * np.eye(len(w))


def reference_map(Phi, t, alpha):
    """w_MAP by scipy's trust-region Newton (trust-exact) from zero, to a tight gradient."""
    F = Phi.shape[1]
    r = minimize(nlp, np.zeros(F), args=(Phi, t, alpha), jac=nlp_grad, hess=nlp_hess, method="trust-exact",
                 options={"gtol": 1e-12, "maxiter": 2000})
    return r.x


def fd_hessian(w, Phi, t, alpha, h=1e-4):
    """The Hessian of the negative log posterior by central differences of its gradient."""
    F = len(w)
    H = np.empty((F, F))
    for j in range(F):
        e = np.zeros(F)
        e[j] = h
        H[:, j] = (nlp_grad(w + e, Phi, t, alpha) - nlp_grad(w - e, Phi, t, alpha)) / (2 * h)
    return 0.5 * (H + H.T)


def frame_of(lap, X, standardize):
    """The fit's feature frame, checked against its definition (mean and standard deviation)."""
    if not standardize:
        assert np.all(lap.center == 0) and np.all(lap.scale == 1)
        return lap.center, lap.scale
    sd = X.std(axis=0)
    for d in range(2):
        np.testing.assert_allclose(lap.center[d], X[:, d].mean(), rtol=1e-12, atol=1e-12 * np.abs(X).max())
        if sd[d] > 1e-9 * np.abs(X).max():
            np.testing.assert_allclose(lap.scale[d], sd[d], rtol=1e-9)
    return lap.center, lap.scale


def targets(codes, K):
    """The binary problems: t = codes == 1 for two classes, codes == k for each k one-vs-rest."""
    return [(codes == 1).astype(float)] if K == 2 else [(codes == k).astype(float) for k in range(K)]


def predictive_quad(mu, s2):
    """int sigma(a) N(a | mu, s2) da by adaptive quadrature in u = (a - mu) / s, split where sigma switches."""
    if s2 == 0:
        return float(expit(mu))
    s = np.sqrt(s2)
    pts = sorted({-12.0, 12.0, float(np.clip(-mu / s, -12, 12))})
    total = 0.0
    for lo, hi in zip(pts[:-1], pts[1:]):
        if hi > lo:
            total += quad(lambda u: expit(mu + s * u) * norm.pdf(u), lo, hi, epsabs=1e-14, epsrel=1e-13,
                          limit=500)[0]
    return total


# --- data -------------------------------------------------------------------------------------------

@st.composite
def small_data(draw, max_classes=6, extreme=True):
    K = draw(st.integers(2, max_classes))
    per = draw(st.lists(st.integers(2, 4), min_size=K, max_size=K))
    n = sum(per)
    pts = draw(st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3)), min_size=n, max_size=n))
    X = np.array(pts, float)
    if extreme:
        scale = draw(st.sampled_from([1e-6, 1e-3, 1.0, 1e3, 1e6]))
        offset = draw(st.sampled_from([0.0, 1.0, 1e3, 1e6])) * scale
    else:
        scale, offset = 1.0, draw(st.sampled_from([0.0, 1.0, 3.0]))
    return X * scale + offset, np.repeat(np.arange(K), per), K


def blobs(n_per, seed, shift=(1.5, 0.5)):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(n_per, 2)), rng.normal(size=(n_per, 2)) + shift])
    return X, np.repeat([0, 1], n_per)


TINY = (np.array([[0.0, 0.0], [1.0, 0.3], [0.4, 1.1], [1.2, 1.0], [2.1, 0.4], [1.6, 1.9], [0.9, 0.8]]),
        np.array([0, 0, 0, 1, 1, 1, 0]))
SEPARABLE = (np.array([[0.0, 0.0], [0.5, 0.2], [3.0, 3.0], [3.4, 2.7]]), np.array([0, 0, 1, 1]))


# --- 1. w_MAP is the minimiser of the negative log posterior --------------------------------------

def check_map(X, codes, K, alpha, basis, standardize):
    lap = fit_laplace(X, codes, K, alpha, basis=basis, standardize=standardize)
    assert lap.converged
    Phi = features(X, DEGREES[basis], standardize, frame_of(lap, X, standardize))
    scale = np.sum(np.abs(Phi).max(axis=1))
    for k, t in enumerate(targets(codes, K)):
        w = lap.w_map[k]
        g = nlp_grad(w, Phi, t, alpha)
        assert np.abs(g).max() <= 1e-9 * (scale + alpha * np.abs(w).max()), (k, g, scale)
        w_ref = reference_map(Phi, t, alpha)
        E, E_ref = nlp(w, Phi, t, alpha), nlp(w_ref, Phi, t, alpha)
        assert E <= E_ref + 1e-12 * max(1.0, abs(E_ref)), (E, E_ref)
        # strictly convex with curvature >= alpha: |w - w*| <= |grad| / alpha for either solution
        g_ref = nlp_grad(w_ref, Phi, t, alpha)
        bound = (np.linalg.norm(g) + np.linalg.norm(g_ref)) / alpha
        assert np.linalg.norm(w - w_ref) <= max(bound, 1e-9 * max(1.0, np.abs(w_ref).max())), (w, w_ref)
    return lap


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=small_data(), alpha=st.sampled_from([1e-3, 0.1, 1.0, 30.0]), basis=st.sampled_from(list(DEGREES)))
def test_w_map_is_the_minimiser(data, alpha, basis):
    X, codes, K = data
    assume(np.unique(X, axis=0).shape[0] >= 2)
    check_map(X, codes, K, alpha, basis, True)


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=small_data(max_classes=4, extreme=False), alpha=st.sampled_from([1e-2, 1.0, 10.0]),
       basis=st.sampled_from(list(DEGREES)))
def test_w_map_on_raw_features_is_the_minimiser(data, alpha, basis):
    """standardize=False: the prior is on the weights of [1, phi(x)] (carried to the standardized frame
    the fit computes in and back)."""
    X, codes, K = data
    assume(np.unique(X, axis=0).shape[0] >= 2)
    check_map(X, codes, K, alpha, basis, False)


@pytest.mark.parametrize("offset,units", [(1e6, 1.0), (1e6, 1e-6), (0.0, 1e6), (1e3, 1e-3)])
def test_separable_points_far_away_have_a_finite_map(offset, units):
    X, y = SEPARABLE
    lap = check_map(X * units + offset, y, 2, 0.01, "quadratic", True)
    assert np.all(np.isfinite(lap.w_map)) and np.all(np.isfinite(lap.log_evidence))


# --- 2. S_N is the inverse Hessian; evidence, BIC, gamma by their formulas -------------------------

CASES = {
    "tiny, linear": (*TINY, 2, 1.0, "linear", True),
    "separable, quadratic, weak prior": (*SEPARABLE, 2, 0.1, "quadratic", True),
    "four classes one-vs-rest": (np.random.default_rng(5).normal(size=(12, 2)), np.repeat(np.arange(4), 3),
                                 4, 0.5, "linear", True),
    "raw features, quadratic": (TINY[0] + 2.0, TINY[1], 2, 0.3, "quadratic", False),
    "offset 1e6, scale 1e-6, cubic": (TINY[0] * 1e-6 + 1e6, TINY[1], 2, 2.0, "cubic", True),
}


@pytest.mark.parametrize("case", CASES)
def test_covariance_is_the_inverse_finite_difference_hessian(case):
    X, codes, K, alpha, basis, standardize = CASES[case]
    lap = fit_laplace(X, codes, K, alpha, basis=basis, standardize=standardize)
    assert lap.converged
    degree = {"linear": 1, "quadratic": 2, "cubic": 3}[basis]
    Phi = features(X, degree, standardize, frame_of(lap, X, standardize))
    N, F = Phi.shape
    for k, t in enumerate(targets(codes, K)):
        w = lap.w_map[k]
        H = fd_hessian(w, Phi, t, alpha)
        np.testing.assert_allclose(lap.precision[k], H, rtol=1e-6, atol=1e-7 * np.abs(H).max())
        S = np.linalg.inv(H)
        np.testing.assert_allclose(lap.cov[k], S, rtol=1e-5, atol=1e-6 * np.abs(S).max())
        assert np.all(lap.cov[k] == lap.cov[k].T)
        # ln p(D|w_MAP), the Laplace evidence (eq. 4.137 with the Gaussian prior), BIC (eq. 4.139)
        a = Phi @ w
        log_lik = np.sum(t * -np.logaddexp(0, -a) + (1 - t) * -np.logaddexp(0, a))
        np.testing.assert_allclose(lap.log_likelihood[k], log_lik, rtol=1e-9, atol=1e-12)
        log_prior = -0.5 * F * np.log(2 * np.pi / alpha) - 0.5 * alpha * w @ w
        evidence = log_lik + log_prior + 0.5 * F * np.log(2 * np.pi) - 0.5 * np.linalg.slogdet(H)[1]
        np.testing.assert_allclose(lap.log_evidence[k], evidence, rtol=1e-7, atol=1e-7)
        np.testing.assert_allclose(lap.bic[k], log_lik - 0.5 * F * np.log(N), rtol=1e-9, atol=1e-12)
        # gamma from the eigenvalues of the data term of the Hessian (the analogue of eq. 3.91)
        lam = np.linalg.eigvalsh(nlp_hess(w, Phi, t, 0.0))
        np.testing.assert_allclose(lap.gamma[k], np.sum(lam / (lam + alpha)), rtol=1e-7, atol=1e-9)
        assert 0 < lap.gamma[k] < F
    assert lap.total_log_evidence == pytest.approx(lap.log_evidence.sum())
    assert lap.total_gamma == pytest.approx(lap.gamma.sum())
    assert lap.total_bic == pytest.approx(lap.bic.sum())


def test_activation_mean_and_variance():
    """mu_a = w_MAP^T phi, sigma_a^2 = phi^T S_N phi (eqs. 4.149-4.150) on the fit's own features, here and far."""
    X, codes = CASES["four classes one-vs-rest"][:2]
    lap = fit_laplace(X, codes, 4, 0.5, basis="quadratic")
    Q = np.random.default_rng(2).uniform(-30, 30, (500, 2))
    Phi = features(Q, 2, True, frame_of(lap, X, True))
    mu, var = lap.activation(Q)
    assert mu.shape == var.shape == (500, 4)
    np.testing.assert_allclose(mu, Phi @ lap.w_map.T, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(var, np.einsum("nf,kfg,ng->nk", Phi, lap.cov, Phi), rtol=1e-8)
    assert np.all(var >= 0)
    np.testing.assert_array_equal(lap.features(Q), Phi)


# --- 3. the predictive distribution -----------------------------------------------------------------

def test_kappa_and_the_moderated_output_are_their_formulas():
    s2 = np.array([0.0, 1e-3, 0.5, 1.0, 10.0, 1e4])
    np.testing.assert_allclose(kappa(s2), 1.0 / np.sqrt(1.0 + np.pi * s2 / 8.0), rtol=1e-15)
    assert PROBIT_LAMBDA2 == np.pi / 8
    mu = np.linspace(-5, 5, 6)
    np.testing.assert_allclose(moderated(mu, s2), expit(mu / np.sqrt(1.0 + np.pi * s2 / 8.0)), rtol=1e-15)


@settings(max_examples=examples(60), deadline=None)
@given(mu=st.floats(-30, 30), s2=st.one_of(st.floats(0, 1e4), st.sampled_from([0.0, 1e-300, 1e-8, 1.0, 1e4])))
def test_exact_predictive_is_the_integral(mu, s2):
    ref = predictive_quad(mu, s2)
    got = exact_predictive(mu, s2)
    assert abs(got - ref) <= 1e-12, (mu, s2, got, ref)
    assert abs(exact_predictive(-mu, s2) - (1.0 - ref)) <= 1e-12


def test_exact_predictive_on_a_grid_and_at_zero_variance():
    mu = np.linspace(-30, 30, 21)
    s2 = np.array([0.0, 1e-6, 0.3, 0.999, 1.0, 1.001, 4.0, 9.0, 16.0, 60.0, 1e4])
    M, S2 = np.meshgrid(mu, s2)
    got = exact_predictive(M, S2)
    assert got.shape == M.shape
    ref = np.vectorize(predictive_quad)(M, S2)
    assert np.abs(got - ref).max() <= 1e-12
    np.testing.assert_array_equal(exact_predictive(mu, 0.0), expit(mu))
    np.testing.assert_allclose(np.exp(log_exact_predictive(M, S2)), got, rtol=1e-13, atol=1e-300)
    # where the probability underflows its logarithm is still there: ln E[sigma] <= ln sigma(mu + s2/2) bounds
    far = log_exact_predictive(np.array([-800.0, -2000.0]), np.array([0.5, 4.0]))
    assert np.all(np.isfinite(far)) and far[0] == pytest.approx(-800 + 0.25, abs=1e-9)
    with pytest.raises(ValueError):
        exact_predictive(0.0, -1.0)


def test_moderated_output_is_within_its_known_error_of_the_exact():
    """The probit approximation (eq. 4.155) is not exact: over mu in [-30, 30] and s2 in [0, 1e4] the largest gap
    measured is 0.01748 (at mu = -30, s2 = 295; 6001 x 802 grid). As s2 grows with mu / s2^(1/2) = c fixed the
    exact value tends to Phi(c) and the moderated one to sigma(c (8 / pi)^(1/2)), whose largest gap, 0.01767 at
    |c| = 1.73, is the supremum. 0 at s2 = 0 and at mu = 0."""
    mu = np.linspace(-30, 30, 1201)
    s2 = np.r_[0.0, np.logspace(-4, 4, 161)]
    M, S2 = np.meshgrid(mu, s2)
    gap = np.abs(moderated(M, S2) - exact_predictive(M, S2))
    assert gap.max() < 0.02, gap.max()
    assert gap[0].max() == 0.0 and np.abs(moderated(0.0, s2) - 0.5).max() == 0.0


def test_the_predictive_is_the_average_over_q_by_monte_carlo():
    """p(C_k | x, D) = E_q[sigma(w^T phi)]: w drawn from N(w_MAP, S_N), two classes and one-vs-rest, near the
    data and far from it (where the variance is large and the moderated output differs from the plug-in)."""
    rng = np.random.default_rng(11)
    Q = np.array([[0.5, 0.5], [1.5, 1.2], [4.0, -3.0], [-6.0, 8.0], [12.0, 12.0]])
    for X, codes, K in [(*TINY, 2), (*CASES["four classes one-vs-rest"][:2], 4)]:
        lap = fit_laplace(X, codes, K, 1.0)
        Phi = features(Q, 1, True, frame_of(lap, X, True))
        means, ses = [], []
        for k in range(lap.w_map.shape[0]):
            Wk = rng.multivariate_normal(lap.w_map[k], lap.cov[k], size=200_000)
            s = expit(Phi @ Wk.T)
            means.append(s.mean(axis=1))
            ses.append(s.std(axis=1) / np.sqrt(Wk.shape[0]))
        means, ses = np.array(means).T, np.array(ses).T
        mu, var = lap.activation(Q)
        exact = exact_predictive(mu, var)
        assert np.all(np.abs(exact - means) <= 5 * ses + 1e-12), (exact, means, ses)
        assert np.all(np.abs(moderated(mu, var) - means) <= 0.02 + 5 * ses)
        p = lap.proba(Q, "exact")
        want = np.column_stack([1 - means[:, 0], means[:, 0]]) if K == 2 else means / means.sum(1, keepdims=True)
        assert np.abs(p - want).max() <= 5e-3
        assert np.abs(lap.proba(Q, "moderated") - p).max() <= 0.03
        np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-14)
        assert np.abs(lap.proba(Q, "moderated") - lap.proba(Q, "map"))[-1].max() > 0.01  # far: not the plug-in


def test_proba_two_classes_and_one_vs_rest():
    X, codes = TINY
    lap = fit_laplace(X, codes, 2, 1.0)
    Q = np.array([[1e3, 1e3], [-1e3, -1e3], [1.0, 1.0]])
    mu, var = lap.activation(Q)
    for kind in ("map", "moderated", "exact"):
        P = lap.proba(Q, kind)
        assert P.shape == (3, 2) and np.all(P >= 0)
        want = {"map": expit, "moderated": lambda m: moderated(m, var[:, 0]),
                "exact": lambda m: exact_predictive(m, var[:, 0])}[kind]
        np.testing.assert_allclose(P[:, 1], want(mu[:, 0]), rtol=1e-14)
        np.testing.assert_allclose(P[:, 0], want(-mu[:, 0]), rtol=1e-14)  # not 1 - p: exact when tiny
        if kind == "map":
            assert P[1, 1] < 1e-100 and P[0, 0] < 1e-100
    X4, c4 = CASES["four classes one-vs-rest"][:2]
    lap4 = fit_laplace(X4, c4, 4, 0.5, basis="quadratic")
    Q = np.r_[np.random.default_rng(0).normal(size=(50, 2)), [[1e4, -1e4], [3e5, 3e5]]]
    mu, var = lap4.activation(Q)
    for kind in ("map", "moderated", "exact"):
        P = lap4.proba(Q, kind)
        assert P.shape == (52, 4) and np.all(np.isfinite(P))
        np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-14)
    s = expit(mu[:50] / np.sqrt(1 + np.pi * var[:50] / 8))
    np.testing.assert_allclose(lap4.proba(Q[:50], "moderated"), s / s.sum(1, keepdims=True), rtol=1e-12)
    with pytest.raises(ValueError, match="kind"):
        lap4.proba(Q, "plugin")


def test_exact_predictive_is_fast_and_small_on_a_grid():
    """65,536 points (a 256 x 256 grid) in under a few seconds on one core, under 100 MB at once."""
    rng = np.random.default_rng(0)
    mu, s2 = rng.normal(size=65536) * 10, rng.uniform(0, 100, 65536)
    tracemalloc.start()
    start = time.perf_counter()
    exact_predictive(mu, s2)
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100e6, peak
    assert elapsed < 10.0  # 0.7 s measured on the development machine


# --- 4. the Laplace evidence against brute-force integration --------------------------------------

def brute_log_evidence(Phi, t, alpha, center, sd, n, width):
    """ln int p(t|w) N(w|0, alpha^-1 I) dw over a uniform grid of w (the Riemann sum of a smooth integrand
    that vanishes at the box's edges: spectrally accurate), with logsumexp."""
    axes = [np.linspace(c - width * s, c + width * s, n) for c, s in zip(center, sd)]
    log_cell = float(np.sum([np.log(ax[1] - ax[0]) for ax in axes]))
    grids = np.meshgrid(*axes, indexing="ij")
    W = np.stack([g.ravel() for g in grids], axis=1)
    F = W.shape[1]
    sign = 1.0 - 2.0 * t
    parts = []
    for start in range(0, len(W), 20_000):
        Wc = W[start:start + 20_000]
        A = Wc @ Phi.T
        log_lik = -np.sum(np.logaddexp(0.0, sign * A), axis=1)
        log_prior = -0.5 * F * np.log(2 * np.pi / alpha) - 0.5 * alpha * np.sum(Wc ** 2, axis=1)
        parts.append(logsumexp(log_lik + log_prior))
    return float(logsumexp(parts)) + log_cell


@pytest.mark.parametrize("case,data,bound", [
    ("tiny", TINY, 0.1),
    ("two points per class, separable", (SEPARABLE[0], SEPARABLE[1]), 0.1),
    ("N = 20", blobs(10, 3), 0.15),
    ("well determined, N = 200", blobs(100, 3), 0.03),
])
def test_laplace_evidence_against_brute_force(case, data, bound):
    """The gap is the Laplace approximation's error, not rounding (the grid's own error is below 1e-8): measured
    -0.053 (tiny, 7 points), -0.036 (separable, 4 points), -0.080 (N = 20), -0.030 (N = 100), -0.016 (N = 200),
    -0.005 (N = 800): it shrinks roughly like 1/N. The Laplace evidence is the smaller: the posterior's tails
    are heavier than the Gaussian's."""
    X, codes = data
    alpha = 1.0
    lap = fit_laplace(X, codes, 2, alpha)
    Phi = features(X, 1, True, frame_of(lap, X, True))
    t = (codes == 1).astype(float)
    sd = np.sqrt(np.diag(lap.cov[0]))
    n = 61 if len(X) > 50 else 101
    brute = brute_log_evidence(Phi, t, alpha, lap.w_map[0], sd, n, 8.0)
    finer = brute_log_evidence(Phi, t, alpha, lap.w_map[0], sd, n + 20, 10.0)
    assert abs(brute - finer) < 1e-6  # the grid has converged
    gap = lap.log_evidence[0] - brute
    assert np.isfinite(gap) and abs(gap) < bound, (case, gap)


def test_evidence_tends_to_n_ln_half_as_the_prior_tightens():
    """As alpha grows every w is pinned near 0: p(D) -> (1/2)^N, and ln p(D) = N ln(1/2) + C / alpha + O(1/alpha^2)
    with C = (|g0|^2 - ||Phi||_F^2 / 4) / 2, g0 = Phi^T (t - 1/2) (expand E_prior[p(D|w)] about w = 0). The
    Laplace evidence has the same first-order term."""
    X, codes = TINY
    for basis, degree in (("linear", 1), ("quadratic", 2)):
        lap0 = fit_laplace(X, codes, 2, 1.0, basis=basis)
        Phi = features(X, degree, True, frame_of(lap0, X, True))
        t = (codes == 1).astype(float)
        g0 = Phi.T @ (t - 0.5)
        C = 0.5 * (g0 @ g0 - np.sum(Phi ** 2) / 4)
        N = len(X)
        for alpha, rtol in ((1e4, 1e-2), (1e6, 1e-4)):
            ev = fit_laplace(X, codes, 2, alpha, basis=basis).log_evidence[0]
            assert alpha * (ev - N * np.log(0.5)) == pytest.approx(C, rel=rtol), (basis, alpha)


# --- 5. the evidence's alpha --------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["tiny", "separable", "three classes, quadratic", "blobs"])
def test_evidence_alpha_is_a_maximum(case):
    rng = np.random.default_rng(7)
    K, basis = 2, "linear"
    if case == "tiny":
        X, codes = TINY
    elif case == "separable":
        X, codes = SEPARABLE
    elif case == "blobs":
        X, codes = blobs(40, 1)
    else:
        X = np.vstack([rng.normal(size=(4, 2)) + c for c in ([0, 0], [2, 1], [-1, 2])])
        codes, K, basis = np.repeat([0, 1, 2], 4), 3, "quadratic"
    best = evidence_alpha(X, codes, K, basis=basis)
    assert best.converged and 1e-6 <= best.alpha <= 1e6
    top = best.total_log_evidence
    tol = 1e-9 * max(1.0, abs(top))
    # the same alpha from zero: two Newton runs that each stop at a gradient of 1e-10 of its scale agree to
    # about that (the evidence's ln|S_N^-1| moves with w_MAP to first order)
    np.testing.assert_allclose(top, fit_laplace(X, codes, K, best.alpha, basis=basis).total_log_evidence,
                               rtol=1e-10)
    for f in (1 - 1e-3, 1 + 1e-3):
        assert fit_laplace(X, codes, K, best.alpha * f, basis=basis).total_log_evidence <= top + tol
    scan = [fit_laplace(X, codes, K, a, basis=basis).total_log_evidence for a in np.logspace(-6, 6, 121)]
    assert max(scan) <= top + tol, (max(scan), top)


def test_evidence_alpha_at_a_bound_is_returned_there():
    """Each point carries both labels: w_MAP = 0 at every alpha and the evidence N ln(1/2) - (1/2) ln|I + D/alpha|
    rises with alpha: its maximum is the upper bound. A signal the evidence wants fitted with a weak prior and
    bounds that allow only strong ones: the lower bound."""
    P = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.5]])
    X, codes = np.vstack([P, P]), np.repeat([0, 1], 4)
    assert evidence_alpha(X, codes, 2).alpha == 1e6
    assert evidence_alpha(X, codes, 2, bounds=(1e-2, 1e2)).alpha == 1e2
    X, codes = blobs(50, 2, shift=(4.0, 0.0))
    assert evidence_alpha(X, codes, 2, bounds=(1e3, 1e6)).alpha == 1e3


# --- 6. probit regression -------------------------------------------------------------------------------

def probit_objective(w, Phi, t, l2):
    """-sum t ln Phi(a) + (1 - t) ln Phi(-a) + (l2/2)|w[1:]|^2 (Bishop 4.3.5), ln Phi by norm.logcdf (exact in
    the tails, where np.log(norm.cdf(a)) is -inf)."""
    a = Phi @ w
    return -np.sum(t * norm.logcdf(a) + (1 - t) * norm.logcdf(-a)) + 0.5 * l2 * w[1:] @ w[1:]


def probit_gradient(w, Phi, t, l2):
    a = Phi @ w
    s = (2 * t - 1) * a
    mills = np.exp(norm.logpdf(s) - norm.logcdf(s))
    g = Phi.T @ (-(2 * t - 1) * mills)
    g[1:] += l2 * w[1:]
    return g


def probit_reference(Phi, t, l2, w0):
    best = None
    for x0 in (np.zeros(Phi.shape[1]), w0):
        for method in ("BFGS", "L-BFGS-B"):
            r = minimize(probit_objective, x0, args=(Phi, t, l2), jac=probit_gradient, method=method,
                         options={"gtol": 1e-12, "maxiter": 20000} | ({"ftol": 1e-16} if method == "L-BFGS-B" else {}))
            if best is None or r.fun < best.fun:
                best = r
    return best.x, best.fun


PROBIT = {
    "overlapping": (blobs(15, 4), 0.0),
    "separable, ridge": ((SEPARABLE[0], SEPARABLE[1]), 0.1),
    "separable-ish with one stray point, ridge": ((np.r_[SEPARABLE[0], [[0.3, 0.3]]], np.r_[SEPARABLE[1], 1]), 0.01),
    # points at |a| ~ 40 on their side, and a slope fixed to about 1 by the overlapping ones near the origin
    "tails": ((np.array([[-1.0, 0], [-0.4, 0], [0.1, 0], [0.5, 0], [1.1, 0], [-40.0, 0], [-36.0, 1], [41.0, 0],
                         [38.0, -1], [0.0, 0.5], [0.2, -0.7]]), np.array([0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1])), 1e-3),
}


@pytest.mark.parametrize("case", PROBIT)
def test_probit_by_newton_is_the_minimiser(case):
    (X, codes), l2 = PROBIT[case]
    Phi = np.column_stack([np.ones(len(X)), X])
    t = (codes == 1).astype(float)
    R = np.diag([0.0, l2, l2])
    result = newton(BinaryProbit(Phi, t, R), np.zeros((1, 3)), np.ones((1, 3), bool), 100)
    assert result.converged, result
    w = result.W[0]
    scale = np.sum(np.abs(Phi).max(axis=1))
    assert np.abs(probit_gradient(w, Phi, t, l2)).max() <= 1e-9 * scale
    w_ref, E_ref = probit_reference(Phi, t, l2, w)
    E = probit_objective(w, Phi, t, l2)
    assert E <= E_ref + 1e-12 * max(1.0, E_ref), (E, E_ref)
    if case == "tails":
        a = Phi @ w
        assert np.abs(a).max() > 35  # the tails were reached


def test_probit_value_gradient_and_curvature_in_the_tails():
    """At s = -40 (a point 40 deep on the wrong side) log(norm.cdf) is -inf; the objective is 800.6...; the
    gradient matches central differences of the test's objective; the curvature r (r + s) lies in (0, 1)
    (1 minus the variance of a truncated normal) and is the derivative of the test's own Mills ratio."""
    with np.errstate(divide="ignore"):
        assert np.log(norm.cdf(-40.0)) == -np.inf
    Phi = np.column_stack([np.ones(4), [-40.0, 2.0, 39.0, -1.0], [0.0, 1.0, 0.5, 0.0]])
    t = np.array([1.0, 0.0, 1.0, 0.0])
    w = np.array([0.0, 1.0, 0.2])
    l2 = 0.3
    problem = BinaryProbit(Phi, t, np.diag([0.0, l2, l2]))
    E, S = problem.value(w[None])
    assert E == pytest.approx(probit_objective(w, Phi, t, l2), rel=1e-14)
    assert E > 800
    G = problem.gradient(w[None], S)[0]
    h = 1e-6
    fd = np.array([(probit_objective(w + h * e, Phi, t, l2) - probit_objective(w - h * e, Phi, t, l2)) / (2 * h)
                   for e in np.eye(3)])
    np.testing.assert_allclose(G, probit_gradient(w, Phi, t, l2), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(G, fd, rtol=1e-6)
    s = np.r_[-np.logspace(4, -3, 60), 0.0, np.logspace(-3, np.log10(37), 40)]
    curv = problem.weights(s[:, None])[:, 0]
    assert np.all(curv >= 0) and np.all(curv < 1)
    assert np.all(curv[s < 30] > 0)

    def mills(x):
        return np.exp(norm.logpdf(x) - norm.logcdf(x))

    x = np.array([1e2, 1e3, 1e4, 1e6])  # deep on the wrong side: r (r + s) = 1 - 1/x^2 + 6/x^4 + O(x^-6), s = -x
    deep = problem.weights(-x[:, None])[:, 0]
    assert np.all(np.abs(deep - (1 - 1 / x ** 2 + 6 / x ** 4)) <= 4e-16 + 100 / x ** 6), deep
    mid = s[(s > -30) & (s < 8)]
    np.testing.assert_allclose(problem.weights(mid[:, None])[:, 0], -(mills(mid + 1e-5) - mills(mid - 1e-5)) / 2e-5,
                               rtol=1e-6)


def test_probit_batch_solves_each_problem():
    X, codes = CASES["four classes one-vs-rest"][:2]
    Phi = np.column_stack([np.ones(len(X)), X])
    T = np.stack([codes == k for k in range(4)], axis=1).astype(float)
    R = np.diag([0.0, 0.5, 0.5])
    result = newton(BinaryProbit(Phi, T, R), np.zeros((4, 3)), np.ones((4, 3), bool), 100)
    assert result.converged
    for k in range(4):
        assert np.abs(probit_gradient(result.W[k], Phi, T[:, k], 0.5)).max() <= 1e-9 * np.sum(np.abs(Phi).max(1))


# --- 7. more data, a tighter posterior ---------------------------------------------------------------

def test_posterior_spread_shrinks_as_the_data_grow():
    """Points from two fixed Gaussians: the trace of S_N (the spread of the boundaries drawn from q(w)) falls
    roughly like 1/N."""
    sizes = [10, 40, 160, 640]
    traces = []
    for n in sizes:
        traces.append(np.mean([np.trace(fit_laplace(*blobs(n, seed), 2, 1.0).cov[0]) for seed in range(6)]))
    assert all(b < a for a, b in zip(traces, traces[1:])), traces
    assert traces[-1] < traces[0] / 20, traces


# --- inputs --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,message", [
    ({"alpha": 0.0}, "alpha"), ({"alpha": -1.0}, "alpha"), ({"alpha": np.inf}, "alpha"), ({"alpha": np.nan}, "alpha"),
    ({"K": 1}, "K"), ({"basis": "quartic"}, "basis"),
])
def test_bad_arguments_are_named(kwargs, message):
    X, codes = TINY
    args = {"alpha": 1.0, "K": 2} | kwargs
    with pytest.raises(ValueError, match=message):
        fit_laplace(X, codes, args.pop("K"), args.pop("alpha"), **args)


def test_bad_data_is_named():
    X, codes = TINY
    with pytest.raises(ValueError, match="NaN"):
        fit_laplace(np.where(X == X[0, 0], np.nan, X), codes, 2, 1.0)
    with pytest.raises(ValueError, match="codes"):
        fit_laplace(X, codes + 1, 2, 1.0)
    with pytest.raises(ValueError, match="shape"):
        fit_laplace(X[:, :1], codes, 2, 1.0)
    with pytest.raises(ValueError, match="bounds"):
        evidence_alpha(X, codes, 2, bounds=(1.0, 1e-3))


def test_samples_from_q_have_its_mean_and_covariance():
    """The boundary cloud's weights: their mean is w_MAP and their covariance S_N (the reported ones, which
    are the computation's own when the features are standardized), to the sampling error of 40,000 draws."""
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(0, 1, (15, 2)), rng.normal(1.5, 1, (15, 2))]) * 1e-3 + 1e6
    y = np.repeat([0, 1], 15)
    lap = fit_laplace(X, y, 2, 0.5)
    W = lap.sample(40_000, seed=1)[:, 0]
    sd = np.sqrt(np.diag(lap.cov[0]))
    assert np.all(np.abs(W.mean(axis=0) - lap.w_map[0]) <= 5 * sd / np.sqrt(40_000))
    assert np.all(np.abs(np.cov(W.T) - lap.cov[0]) <= 0.03 * np.outer(sd, sd))
    np.testing.assert_array_equal(lap.sample(5, seed=2), lap.sample(5, seed=2))  # seeded


@pytest.mark.parametrize("K", [2, 3])
def test_each_kind_of_posterior_is_its_formula(K):
    """proba(kind) at scattered points, each against its formula written out from the reported w_MAP and S_N
    (standardized features, bias first): the plug-in sigma(mu_a), the moderated sigma(kappa mu_a) (eq. 4.155)
    and the exact integral of eq. 4.151 by scipy's quad; one-vs-rest normalises the K class probabilities."""
    rng = np.random.default_rng(11)
    X = np.vstack([rng.normal(c, 0.9, (6, 2)) for c in ((0, 0), (2, 0.5), (0.5, 2))[:K]])
    codes = np.repeat(np.arange(K), 6)
    lap = fit_laplace(X, codes, K, 0.7)
    Q = np.array([[0.3, 0.2], [4.0, -3.0], [-2.5, 3.5], [1.0, 1.0]])
    Phi = np.column_stack([np.ones(len(Q)), (Q - lap.center) / lap.scale])
    mu = Phi @ lap.w_map.T
    s2 = np.einsum("nf,kfg,ng->nk", Phi, lap.cov, Phi)

    def exact(m, v):
        sd = np.sqrt(v)
        return quad(lambda a: expit(a) * norm.pdf(a, m, sd), m - 14 * sd, m + 14 * sd, epsabs=1e-14, limit=200)[0]
    per_kind = {"map": expit(mu), "moderated": expit(mu / np.sqrt(1 + np.pi * s2 / 8)),
                "exact": np.vectorize(exact)(mu, s2)}
    for kind, p in per_kind.items():
        want = np.column_stack([1 - p[:, 0], p[:, 0]]) if K == 2 else p / p.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(lap.proba(Q, kind), want, atol=1e-10, err_msg=kind)
    assert np.max(np.abs(per_kind["exact"] - per_kind["moderated"])) > 1e-4  # the three differ here
    with pytest.raises(ValueError, match="kind must be one of map, moderated, exact"):
        lap.proba(Q, "plug-in")


def test_one_vs_rest_where_every_sigma_underflows():
    """Where every class's sigma(a_k) underflows a double (here: every bias lowered by 1000), the posteriors
    are the K log-probabilities normalised in log space, for every kind: finite, summing to one, and equal to
    log_expit's (and the exact integral's logarithm's) normalisation written out here."""
    from dataclasses import replace

    from scipy.special import log_expit

    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(c, 0.5, (8, 2)) for c in ((0, 0), (3, 0), (1.5, 2.6))])
    codes = np.repeat(np.arange(3), 8)
    lap = fit_laplace(X, codes, 3, 0.3)
    lap = replace(lap, z_w=lap.z_w - np.array([1000.0, 0.0, 0.0]))
    Q = np.array([[0.5, 0.5], [2.0, 1.0], [-3.0, 4.0]])
    mu, s2 = lap.activation(Q)
    assert mu.max() < -800 and np.all(expit(mu) < 1e-300)  # every sigma underflows here

    def log_exact(m, v):  # ln E[sigma(a)], a ~ N(m, v), computed relative to e^m
        sd = np.sqrt(v)
        rel = quad(lambda a: np.exp(log_expit(a) - m) * norm.pdf(a, m, sd), m - 12 * sd, m + 12 * sd,
                   epsabs=0, epsrel=1e-12, limit=400)[0]
        return np.log(rel) + m
    logs = {"map": log_expit(mu), "moderated": log_expit(mu / np.sqrt(1 + np.pi * s2 / 8)),
            "exact": np.vectorize(log_exact)(mu, s2)}
    for kind, L in logs.items():
        P = lap.proba(Q, kind)
        np.testing.assert_allclose(P, np.exp(L - logsumexp(L, axis=1, keepdims=True)), rtol=1e-6, err_msg=kind)
        assert np.all(np.isfinite(P)) and np.allclose(P.sum(axis=1), 1.0)


@pytest.mark.parametrize("mu, s2", [(-60.0, 4.0), (-998.86, 1.019), (-40.0, 25.0), (-12.0, 0.3), (-700.0, 600.0)])
def test_tiny_predictive_probabilities_keep_their_relative_precision(mu, s2):
    """Where mu + s2 < 0 the expectation's mass lies far out in the tail (one-vs-rest's far field, where the
    normalisation divides tiny numbers): E[sigma(a)] to 1e-10 relative, and its logarithm where it underflows,
    against quad of the integrand tilted to where its mass is, e^(-(mu + s2/2)) sigma(a) N(a | mu, s2)."""
    from scipy.special import log_expit

    from probviz.models.bayes import log_exact_predictive

    sd, peak = np.sqrt(s2), mu + s2
    rel = quad(lambda a: np.exp(log_expit(a) - (mu + s2 / 2)) * norm.pdf(a, mu, sd), peak - 14 * sd,
               min(peak + 14 * sd, 0.0) if peak + 14 * sd > 0 else peak + 14 * sd, epsabs=0, epsrel=1e-13, limit=400)[0]
    if peak + 14 * sd > 0:  # the rest of the mass, where sigma(a) is no longer e^a
        rel += quad(lambda a: np.exp(log_expit(a) - (mu + s2 / 2)) * norm.pdf(a, mu, sd), 0.0, peak + 14 * sd,
                    epsabs=0, epsrel=1e-13, limit=400)[0]
    want = np.log(rel) + mu + s2 / 2
    assert float(log_exact_predictive(mu, s2)) == pytest.approx(want, rel=1e-12, abs=1e-10)
    if want > -700:
        assert float(exact_predictive(mu, s2)) == pytest.approx(np.exp(want), rel=1e-10)


def test_a_cross_section_of_the_bayesian_view():
    """Along a line: the moderated p(C_k|x,D) (eq. 4.155), p(C_2|x)'s central 68% under q(w) -- its
    quantiles, since sigma is increasing, sigma(mu_a -+ sigma_a) -- checked against weights drawn from
    N(w_MAP, S_N) by numpy, and Phi(lambda a) beside the plug-in sigmoid; written out from w_MAP and S_N."""
    from scipy.special import expit, ndtr

    from probviz.models import create
    from probviz.scene import cross_section

    X = np.array([[0.0, 0.0], [1.0, 0.4], [0.3, 1.0], [2.0, 2.1], [2.6, 1.5], [0.8, 0.9]])
    t = np.array([0, 0, 1, 1, 1, 0])
    m = create("logistic", bayes=True, alpha=0.5).fit(X, t)
    lap = m.laplace_
    a, b = np.array([-2.0, 1.0]), np.array([4.0, 0.5])
    sec = cross_section(m, a, b, n=41)
    P = a + np.outer(sec.t / sec.t[-1], b - a)
    Phi = np.column_stack([np.ones(len(P)), (P - lap.center) / lap.scale])
    mu = Phi @ lap.w_map[0]
    s2 = np.einsum("nf,fg,ng->n", Phi, lap.cov[0], Phi)
    p = expit(mu / np.sqrt(1 + np.pi * s2 / 8))
    np.testing.assert_allclose(sec.predictive, np.column_stack([1 - p, p]), rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(sec.band, np.column_stack([expit(mu - np.sqrt(s2)), expit(mu + np.sqrt(s2))]),
                               rtol=1e-9)
    W = np.random.default_rng(3).multivariate_normal(lap.w_map[0], lap.cov[0], size=20000)
    draws = expit(Phi @ W.T)  # (n, draws): p(C_2|x) under sampled weights
    below, above = (draws < sec.band[:, :1]).mean(axis=1), (draws > sec.band[:, 1:]).mean(axis=1)
    np.testing.assert_allclose(below, 0.158655, atol=0.012)
    np.testing.assert_allclose(above, 0.158655, atol=0.012)
    assert sec.link[0] == "Φ(λa)"
    np.testing.assert_allclose(sec.link[1], ndtr(np.sqrt(np.pi / 8) * mu), rtol=1e-9, atol=1e-300)
    plain = cross_section(create("logistic").fit(X, t), a, b, n=41)
    assert plain.predictive is None and plain.band is None and plain.link is None
