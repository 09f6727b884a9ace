"""LDA, QDA and naive Bayes against scipy's multivariate normal with the ML formulas of Bishop (2006) eqs. 4.73-4.80."""

import numpy as np
import pytest
from scipy.stats import multivariate_normal, norm

from probviz.models import MODEL_NAMES, create


def ml_estimates(X, y):
    classes = np.unique(y)
    pis = np.array([np.mean(y == c) for c in classes])  # eq. (16)
    mus = np.array([X[y == c].mean(axis=0) for c in classes])  # eqs. (17)-(18)
    S = np.array([np.cov(X[y == c].T, bias=True) for c in classes])  # eqs. (20)-(21)
    return classes, pis, mus, S


def bayes(pis, densities):
    """eqs. (1)-(2): p(C_k|x) = p(x|C_k) p(C_k) / sum_j p(x|C_j) p(C_j)."""
    joint = densities * pis
    return joint / joint.sum(axis=1, keepdims=True)


def test_model_names():
    assert MODEL_NAMES == ("lda", "qda", "tied", "nb", "logistic", "softmax", "probit", "leastsquares", "fisher", "perceptron")


def test_qda_matches_scipy(three_blobs, queries):
    X, y = three_blobs
    classes, pis, mus, S = ml_estimates(X, y)
    m = create("qda", reg_covar=0.0).fit(X, y)
    dens = np.column_stack([multivariate_normal(mus[k], S[k]).pdf(queries) for k in range(3)])
    assert list(m.classes_) == ["a", "b", "c"]
    np.testing.assert_allclose(m.priors_, pis, rtol=1e-12)
    np.testing.assert_allclose(m.means_, mus, rtol=1e-12)
    np.testing.assert_allclose(m.covariances_, S, rtol=1e-10)
    assert np.abs(m.predict_proba(queries) - bayes(pis, dens)).max() < 1e-6
    np.testing.assert_allclose(m.log_density(queries), np.log(dens), rtol=1e-9)


def test_lda_matches_scipy_and_eqs_13_14(three_blobs, queries):
    X, y = three_blobs
    classes, pis, mus, S = ml_estimates(X, y)
    sigma = np.einsum("k,kij->ij", pis, S)  # eq. (19): Sigma = sum_k N_k/N S_k
    m = create("lda").fit(X, y)
    np.testing.assert_allclose(m.covariance_, sigma, rtol=1e-10)
    dens = np.column_stack([multivariate_normal(mus[k], sigma).pdf(queries) for k in range(3)])
    assert np.abs(m.predict_proba(queries) - bayes(pis, dens)).max() < 1e-6
    inv = np.linalg.inv(sigma)
    np.testing.assert_allclose(m.coef_, mus @ inv, rtol=1e-9)  # eq. (13)
    w0 = -0.5 * np.einsum("ki,ij,kj->k", mus, inv, mus) + np.log(pis)  # eq. (14)
    np.testing.assert_allclose(m.intercept_, w0, rtol=1e-9)
    # eq. (12): the softmax of a_k = w_k^T x + w_k0 is the posterior
    a = queries @ m.coef_.T + m.intercept_
    p = np.exp(a - a.max(1, keepdims=True))
    np.testing.assert_allclose(m.predict_proba(queries), p / p.sum(1, keepdims=True), atol=1e-9)


def test_two_class_lda_is_sigmoid_of_linear_function(three_blobs, queries):
    """eqs. (10)-(11): p(C_1|x) = sigma(w^T x + w0), w = Sigma^-1 (mu_1 - mu_2)."""
    X, y = three_blobs
    keep = y != "c"
    m = create("lda").fit(X[keep], y[keep])
    inv = np.linalg.inv(m.covariance_)
    mu1, mu2 = m.means_
    w = inv @ (mu1 - mu2)
    w0 = -0.5 * mu1 @ inv @ mu1 + 0.5 * mu2 @ inv @ mu2 + np.log(m.priors_[0] / m.priors_[1])
    expected = 1 / (1 + np.exp(-(queries @ w + w0)))
    assert np.abs(m.predict_proba(queries)[:, 0] - expected).max() < 1e-9


def test_naive_bayes_matches_product_of_normals(three_blobs, queries):
    X, y = three_blobs
    classes, pis, mus, _ = ml_estimates(X, y)
    sd = np.array([X[y == c].std(axis=0) for c in classes])  # ML variances
    dens = np.column_stack([norm(mus[k, 0], sd[k, 0]).pdf(queries[:, 0]) * norm(mus[k, 1], sd[k, 1]).pdf(queries[:, 1])
                            for k in range(3)])
    m = create("nb").fit(X, y)
    assert np.abs(m.predict_proba(queries) - bayes(pis, dens)).max() < 1e-6
    assert np.all(m.covariances_[:, 0, 1] == 0)


def test_against_scikit_learn(three_blobs, queries):
    """scikit-learn's LDA and GaussianNB use the same ML estimates (its QDA divides by N_k - 1)."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.naive_bayes import GaussianNB

    X, y = three_blobs
    for name, ref in [("lda", LinearDiscriminantAnalysis(solver="lsqr")), ("nb", GaussianNB(var_smoothing=0.0))]:
        ours = create(name).fit(X, y).predict_proba(queries)
        assert np.abs(ours - ref.fit(X, y).predict_proba(queries)).max() < 1e-6, name


def test_priors_override_and_renormalize(three_blobs, queries):
    X, y = three_blobs
    m = create("lda", priors=[2, 1, 1]).fit(X, y)
    np.testing.assert_allclose(m.priors_, [0.5, 0.25, 0.25])
    base = create("lda").fit(X, y)
    # eq. (14): priors enter only through w_k0
    np.testing.assert_allclose(m.coef_, base.coef_)
    np.testing.assert_allclose(m.intercept_ - base.intercept_, np.log(m.priors_) - np.log(base.priors_))


def test_bad_priors_are_refused(three_blobs):
    X, y = three_blobs
    with pytest.raises(ValueError, match="3 classes"):
        create("qda", priors=[0.5, 0.5]).fit(X, y)
    with pytest.raises(ValueError, match="positive"):
        create("qda", priors=[1, 0, 1]).fit(X, y)


def test_reg_covar_shrinks_toward_isotropic(three_blobs):
    X, y = three_blobs
    raw = create("qda").fit(X, y).covariances_
    full = create("qda", reg_covar=1.0).fit(X, y).covariances_
    half = create("qda", reg_covar=0.5).fit(X, y).covariances_
    iso = np.trace(raw, axis1=1, axis2=2)[:, None, None] / 2 * np.eye(2)
    np.testing.assert_allclose(full, iso, atol=1e-12)
    np.testing.assert_allclose(half, (raw + iso) / 2, atol=1e-12)


def test_parameter_counts_of_001():
    """Bishop 4.3.2: 1 + 2M + M(M+1)/2 for two Gaussian classes sharing Sigma, M + 1 for logistic."""
    X = np.random.default_rng(3).normal(size=(40, 2))
    y = np.repeat([0, 1], 20)
    M = 2
    assert create("lda").fit(X, y).n_parameters() == 1 + 2 * M + M * (M + 1) // 2
    assert create("logistic").fit(X, y).n_parameters() == M + 1
    assert create("qda").fit(X, y).n_parameters() == 1 + 2 * M + 2 * M * (M + 1) // 2
    assert create("nb").fit(X, y).n_parameters() == 1 + 2 * M + 2 * M


def test_joint_log_likelihood_of_002(three_blobs):
    X, y = three_blobs
    m = create("qda").fit(X, y)
    classes, pis, mus, S = ml_estimates(X, y)
    expected = sum(np.sum(np.log(pis[k]) + multivariate_normal(mus[k], S[k]).logpdf(X[y == c]))
                   for k, c in enumerate(classes))
    assert m.log_likelihood(X, y) == pytest.approx(expected, rel=1e-10)


def test_fruit_example_of_002():
    """The apple/peach data regenerated from the worked example's parameters; the probe's p(apple|x) = 0.823, as there."""
    from probviz.data.examples import load

    d = load("fruit")
    assert len(d.X) == 250 and d.class_names == ["apple", "peach"] and d.probe == (2.3, 1.5)
    m = create("lda").fit(d.X, d.labels)
    p = m.predict_proba([d.probe])[0, 0]
    # independent: Bishop eqs. 4.69-4.70 with beta_k = Sigma^-1 mu_k, gamma_k = -1/2 mu_k^T Sigma^-1 mu_k + log pi_k
    apples, peaches = d.X[d.labels == 0], d.X[d.labels == 1]
    pi = np.array([len(apples), len(peaches)]) / 250
    sigma = pi[0] * np.cov(apples.T, bias=True) + pi[1] * np.cov(peaches.T, bias=True)
    dens = [multivariate_normal(g.mean(0), sigma).pdf(d.probe) for g in (apples, peaches)]
    assert p == pytest.approx(pi[0] * dens[0] / (pi[0] * dens[0] + pi[1] * dens[1]), rel=1e-12)
    assert p == pytest.approx(0.823, abs=0.001)


@pytest.mark.parametrize("name,shared", [("lda", True), ("qda", False)])
def test_summary_matches_independent_formulas(three_blobs, name, shared):
    """Joint ln p(X, t) (eq. 4.71), cross-entropy of the posteriors (eq. 4.62) and accuracy, from scipy."""
    from reference import gaussian_ml

    X, y = three_blobs
    classes, pi, mu, S = gaussian_ml(X, y, shared)
    logjoint = np.column_stack([np.log(pi[k]) + multivariate_normal(mu[k], S[k]).logpdf(X) for k in range(3)])
    codes = np.searchsorted(classes, y)
    logpost = logjoint - np.logaddexp.reduce(logjoint, axis=1, keepdims=True)
    s, wrong = create(name).fit(X, y).evaluate(X, y)
    assert s["log_likelihood"] == pytest.approx(logjoint[np.arange(len(y)), codes].sum(), rel=1e-10)
    assert s["cross_entropy"] == pytest.approx(-logpost[np.arange(len(y)), codes].sum(), rel=1e-10)
    np.testing.assert_array_equal(wrong, np.argmax(logjoint, axis=1) != codes)
    assert s["accuracy"] == pytest.approx(np.mean(np.argmax(logjoint, axis=1) == codes))
    assert s["n_parameters"] == (2 + 6 + (3 if shared else 9))  # (K-1) + KM + covariance entries
