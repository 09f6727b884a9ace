"""Logistic and softmax regression against scikit-learn (l2 = 1/C), and the IRLS/Newton solver (Bishop eq. 4.99)."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsRestClassifier
from sklearn.preprocessing import PolynomialFeatures

from probviz.models import create
from probviz.models.newton import BinaryBatch, newton


def sk(C=np.inf, **kw):
    """scikit-learn's reference; C = inf is the unpenalised fit."""
    return LogisticRegression(C=C, tol=1e-12, max_iter=100000, **kw)


@pytest.mark.parametrize("l2", [1.0, 0.05])
def test_binary_logistic_matches_sklearn(three_blobs, queries, l2):
    X, y = three_blobs
    keep = y != "c"
    m = create("logistic", l2=l2, standardize=False).fit(X[keep], y[keep])
    ref = sk(C=1 / l2).fit(X[keep], y[keep])
    assert np.abs(m.predict_proba(queries) - ref.predict_proba(queries)).max() < 1e-4
    np.testing.assert_allclose(m.coef_, ref.coef_, atol=1e-4)
    np.testing.assert_allclose(m.intercept_, ref.intercept_, atol=1e-4)
    assert m.converged_ and m.n_iter_ < 30


def test_unpenalized_logistic_matches_sklearn(three_blobs, queries):
    X, y = three_blobs
    keep = y != "c"
    m = create("logistic", l2=0.0, standardize=False).fit(X[keep], y[keep])
    assert m.converged_
    ref = sk().fit(X[keep], y[keep])
    assert np.abs(m.predict_proba(queries) - ref.predict_proba(queries)).max() < 1e-4


@pytest.mark.parametrize("l2", [1.0, 0.0])
def test_softmax_matches_multinomial_sklearn(three_blobs, queries, l2):
    X, y = three_blobs
    m = create("softmax", l2=l2, standardize=False).fit(X, y)
    ref = sk(C=1 / l2 if l2 else np.inf).fit(X, y)
    assert np.abs(m.predict_proba(queries) - ref.predict_proba(queries)).max() < 1e-4
    assert m.converged_
    np.testing.assert_allclose(m.intercept_.sum(), 0.0, atol=1e-9)  # biases reported centred


def test_one_vs_rest_matches_sklearn(three_blobs, queries):
    X, y = three_blobs
    m = create("logistic", l2=1.0, standardize=False).fit(X, y)
    ref = OneVsRestClassifier(sk(C=1.0)).fit(X, y)
    assert m.ovr_ and any("one-vs-rest" in n for n in m.notices_)
    assert np.abs(m.predict_proba(queries) - ref.predict_proba(queries)).max() < 1e-4


@pytest.mark.parametrize("basis,degree", [("quadratic", 2), ("cubic", 3)])
def test_basis_functions_match_sklearn_on_polynomial_features(three_blobs, queries, basis, degree):
    X, y = three_blobs
    poly = PolynomialFeatures(degree, include_bias=False)
    m = create("softmax", l2=1.0, basis=basis, standardize=False).fit(X, y)
    ref = sk(C=1.0).fit(poly.fit_transform(X), y)
    assert np.abs(m.predict_proba(queries) - ref.predict_proba(poly.transform(queries))).max() < 1e-4
    np.testing.assert_allclose(m.coef_, ref.coef_ - ref.coef_.mean(0), atol=1e-3)


def test_standardize_reports_weights_in_original_units(three_blobs, queries):
    """With standardize the penalty applies to standardized weights; the posterior is the same function."""
    X, y = three_blobs
    keep = y != "c"
    Xs = X * [1000.0, 0.001] + [5e5, -3.0]  # wildly different units
    m = create("logistic", l2=1.0, standardize=True).fit(Xs[keep], y[keep])
    z = (Xs[keep] - Xs[keep].mean(0)) / Xs[keep].std(0)
    ref = sk(C=1.0).fit(z, y[keep])
    Q = queries * [1000.0, 0.001] + [5e5, -3.0]
    zq = (Q - Xs[keep].mean(0)) / Xs[keep].std(0)
    assert np.abs(m.predict_proba(Q) - ref.predict_proba(zq)).max() < 1e-4
    # the reported raw-unit weights give the same log-odds
    a = Q @ m.coef_[0] + m.intercept_[0]
    np.testing.assert_allclose(1 / (1 + np.exp(-a)), m.predict_proba(Q)[:, 1], atol=1e-6)


def test_irls_step_is_the_weighted_least_squares_solution_of_004():
    """w_new = (Phi^T R Phi)^-1 Phi^T R z with z = Phi w - R^-1 (y - t), for l2 = 0."""
    rng = np.random.default_rng(5)
    Phi = np.column_stack([np.ones(50), rng.normal(size=(50, 2))])
    t = (rng.random(50) < 1 / (1 + np.exp(-Phi @ [0.3, 1.0, -2.0]))).astype(float)
    w = np.zeros(3)
    for _ in range(25):
        y = 1 / (1 + np.exp(-Phi @ w))
        R = y * (1 - y)
        z = Phi @ w - (y - t) / R
        w = np.linalg.solve(Phi.T @ (R[:, None] * Phi), Phi.T @ (R * z))
    result = newton(BinaryBatch(Phi, t, np.zeros((3, 3))), np.zeros((1, 3)), np.ones((1, 3), bool))
    assert result.converged
    np.testing.assert_allclose(result.W[0], w, atol=1e-7)


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_separable_data_without_penalty_stops_cleanly(name):
    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(0, 1, (30, 2)), rng.normal(8, 1, (30, 2))])
    y = np.repeat([0, 1], 30)
    m = create(name, l2=0.0).fit(X, y)
    assert not m.converged_
    assert any("separable" in n for n in m.notices_)
    P = m.predict_proba(X)
    assert np.all(np.isfinite(P)) and m.accuracy(X, y) == 1.0
    # with a penalty the same data has a finite optimum
    m2 = create(name, l2=0.01).fit(X, y)
    assert m2.converged_ and np.all(np.isfinite(m2.coef_))


@pytest.mark.parametrize("kind", ["binary", "probit", "multinomial"])
@pytest.mark.parametrize("N, K", [(1, 2), (7, 3), (500, 10)])
def test_the_objective_at_zero_weights_needs_no_pass_over_the_points(kind, N, K):
    """E(0), which the fit compares with its other starts, as the pass over every point gives it: N K ln 2 for K
    two-class problems (softplus(0) = -ln Phi(0) = ln 2), N ln K for softmax."""
    from probviz.models.bayes import BinaryProbit
    from probviz.models.newton import Multinomial

    rng = np.random.default_rng(N + K)
    Phi = np.column_stack([np.ones(N), rng.normal(size=(N, 2)) * 1e3])
    codes = rng.integers(0, K, N)
    T = (codes[:, None] == np.arange(K)).astype(float)
    R = np.diag([0.0, 0.5, 0.5])
    problem = {"binary": lambda: BinaryBatch(Phi, T, R), "probit": lambda: BinaryProbit(Phi, T, R),
               "multinomial": lambda: Multinomial(Phi, codes, K, R)}[kind]()
    want = N * (np.log(K) if kind == "multinomial" else K * np.log(2.0))
    assert problem.zero_value() == pytest.approx(want, rel=1e-15)
    assert problem.zero_value() == pytest.approx(problem.value(np.zeros((K, 3)))[0], rel=1e-13)


@pytest.mark.parametrize("name", ["logistic", "softmax", "probit"])
def test_a_start_worse_than_zero_weights_gives_way_to_them(name, three_blobs):
    """A previous fit of the classes relabelled (every point called the next class) is a worse start than zero
    weights: the fit starts from zero, and reaches the optimum a cold fit reaches."""
    X, y = three_blobs
    wrong = create(name).fit(X, np.select([y == "a", y == "b"], ["b", "c"], "a"))
    m = create(name).fit(X, y, init=wrong)
    cold = create(name).fit(X, y)
    assert m.start_ == "zero" and m.converged_
    np.testing.assert_allclose(m.predict_proba(X), cold.predict_proba(X), atol=1e-9)


def test_warm_start_reaches_the_same_optimum_in_fewer_steps(three_blobs):
    X, y = three_blobs
    first = create("softmax", l2=0.1).fit(X, y)
    X2 = X.copy()
    X2[0] += 0.05  # one point dragged a little
    m = create("softmax", l2=0.1).fit(X2, y, init=first)
    cold = create("softmax", l2=0.1).fit(X2, y)
    assert m.start_ == "the previous fit" and m.n_iter_ < cold.n_iter_
    np.testing.assert_allclose(m.predict_proba(X), cold.predict_proba(X), atol=1e-6)


def test_bad_parameters_are_refused(three_blobs):
    X, y = three_blobs
    with pytest.raises(ValueError, match="basis"):
        create("logistic", basis="quartic").fit(X, y)
    with pytest.raises(ValueError, match="l2"):
        create("softmax", l2=-1).fit(X, y)


@pytest.mark.parametrize("degree,offset,per,K,unit,line", [
    (1, 0.0, 3, 4, 1.0, False), (2, 0.0, 4, 4, 1.0, False), (1, 1e6, 2, 4, 1.0, False),
    (2, 1e6, 4, 4, 1.0, False), (3, -1e6, 4, 4, 1.0, False), (1, 0.0, 2, 10, 1e-6, False),
    (1, 0.0, 1, 10, 1e6, False), (1, -1e6, 2, 10, 1.0, False), (1, 5.0, 1, 3, 1.0, False),
    (1, 0.0, 3, 4, 1.0, True), (1, 0.0, 1, 3, 1e-6, True)])
def test_one_vs_rest_generative_start_is_each_class_against_the_rest(degree, offset, per, K, unit, line):
    """The start one-vs-rest Newton takes: for each class k, the Gaussian model (LDA for the linear basis, else
    QDA with reg_covar 0.1) fitted to k against every other point, here refitted on those two labels directly.
    (The linear basis's starts are computed for all K at once from the classes' statistics.) Down to one point a
    class, ten classes, tiny and huge units, points on a line."""
    from probviz.models.base import data_frame
    from probviz.models.gaussian import LDA, QDA

    rng = np.random.default_rng(degree + per + K)
    sizes = per + np.arange(K)  # unequal classes: the pooled mean is weighted by their counts
    X = np.vstack([rng.normal(size=(n, 2)) * (1 + k) + 3 * np.array([np.cos(k), np.sin(k)])
                   for k, n in enumerate(sizes)])
    if line:  # every point on one line: the covariances are singular, their eigenvalues floored as LDA floors them
        X[:, 1] = 0.5 * X[:, 0]
    X = X * unit + offset
    codes = np.repeat(np.arange(K), sizes)
    center, scale = data_frame(X)
    model = create("logistic")
    W = model.generative_start(X, codes, K, center, scale, degree)
    for k in range(K):
        g = (LDA() if degree == 1 else QDA(reg_covar=0.1)).fit(X, (codes == k).astype(np.int64))
        C = g.scores_.in_frame(center, scale, degree)
        np.testing.assert_allclose(W[k], model._weights_from_scores(C)[0], rtol=1e-9, atol=1e-9 * np.abs(W[k]).max())


def test_the_one_vs_rest_start_of_points_all_in_one_place_is_the_optimum():
    """Every point in one place: no covariance to estimate (LDA floors it), the means alike, so each class's log-odds
    against the rest is its prior's, ln(n_k / (N - n_k)) with zero weights, which is also the one-vs-rest optimum
    (the penalty leaves the biases free): the fit starts there and takes no step."""
    from probviz.models.base import data_frame

    X = np.full((9, 2), 3.0)
    codes = np.repeat([0, 1, 2], [2, 3, 4])
    center, scale = data_frame(X)
    model = create("logistic")
    W = model.generative_start(X, codes, 3, center, scale, 1)
    prior_odds = np.log(np.array([2, 3, 4]) / np.array([7, 6, 5]))
    np.testing.assert_allclose(W, np.column_stack([prior_odds, np.zeros((3, 2))]), rtol=1e-15, atol=0)
    fitted = create("logistic").fit(X, codes)
    assert fitted.converged_ and fitted.n_iter_ == 0 and fitted.start_ == "the Gaussian model's log-odds"


def _problem_with_margins(s):
    """A one-feature two-class problem whose signed activations at W = [[1]] are ``s``."""
    s = np.asarray(s, dtype=float)
    T = (np.arange(len(s)) % 2).astype(float)  # either target: s = (1 - 2t) a
    Phi = ((1.0 - 2.0 * T) * s)[:, None]
    return BinaryBatch(Phi, T, np.zeros((1, 1))), np.ones((1, 1))


@pytest.mark.parametrize("spread", ["tiny terms", "every size"])
def test_binary_objective_gradient_and_curvature_from_one_exponential_are_exact(spread):
    """E, its gradient and its curvature, against scipy's expit and numpy's logaddexp term by term: exact to
    rounding however small a term (a well-classified point's softplus(s) ~ e^s)."""
    from scipy.special import expit

    rng = np.random.default_rng(3)
    s = -rng.uniform(30, 700, 200) if spread == "tiny terms" else rng.uniform(-700, 700, 200)
    problem, W = _problem_with_margins(s)
    E, cache = problem.value(W)
    np.testing.assert_allclose(E, np.sum(np.logaddexp(0.0, s)), rtol=1e-13)
    y = expit(problem.Phi[:, 0])  # sigma(a)
    np.testing.assert_allclose(problem.gradient(W, cache)[0, 0], np.sum((y - problem.T[:, 0]) * problem.Phi[:, 0]),
                               rtol=1e-12)
    np.testing.assert_allclose(problem.curvature(W, cache)[0, 0, 0],
                               np.sum(expit(s) * expit(-s) * problem.Phi[:, 0] ** 2), rtol=1e-12)


def test_curvatures_kept_as_outer_products_equal_the_plain_sums():
    """Below OUTER_MAX a problem keeps phi_n phi_n^T and each curvature is one product; above, the sums are
    made per problem. Both equal sum_n y (1 - y) phi phi^T."""
    from scipy.special import expit

    from probviz.models.newton import OUTER_MAX, gram, outer_products

    rng = np.random.default_rng(5)
    Phi = np.c_[np.ones(300), rng.normal(size=(300, 2)), rng.normal(size=300) ** 2]
    T = rng.integers(0, 2, (300, 3)).astype(float)
    W = rng.normal(size=(3, 4))
    problem = BinaryBatch(Phi, T, np.eye(4))
    A = Phi @ W.T
    plain = np.stack([(Phi * (expit(A[:, k]) * expit(-A[:, k]))[:, None]).T @ Phi for k in range(3)])
    assert problem.outer is not None
    np.testing.assert_allclose(problem.curvature(W, problem.state(W)), plain, rtol=1e-12)
    np.testing.assert_allclose(gram(Phi, expit(A) * expit(-A)), plain, rtol=1e-12)
    assert outer_products(np.ones((OUTER_MAX // 9, 3))) is not None
    assert outer_products(np.ones((OUTER_MAX // 9 + 1, 3))) is None


def test_softmax_objective_and_gradient_are_exact_when_every_point_is_well_classified():
    """Every point 25-60 nats inside its class: each ln p(t_n|x_n) and each y_nk - t_nk is about e^-25 or less,
    below float64's eps next to 1. E (eq. 4.108) and its gradient (eq. 4.109) against 50-digit decimals."""
    from decimal import Decimal, getcontext

    from probviz.models.newton import Multinomial

    getcontext().prec = 50
    rng = np.random.default_rng(11)
    K, N = 3, 15
    Phi = np.c_[np.ones(N), rng.normal(size=(N, 2))]
    W = rng.normal(size=(K, 3)) * 40
    A = Phi @ W.T
    codes = A.argmax(axis=1)
    keep = np.sort(A, axis=1)[:, -1] - np.sort(A, axis=1)[:, -2] > 25
    Phi, codes, A = Phi[keep], codes[keep], A[keep]
    assert len(codes) >= 5
    problem = Multinomial(Phi, codes, K, np.zeros((3, 3)))
    E, P = problem.value(W)
    exact_E, exact_G = Decimal(0), [[Decimal(0)] * 3 for _ in range(K)]
    for a, t, phi in zip(A, codes, Phi):
        d = [Decimal(float(v)) - Decimal(float(a[t])) for v in a]  # the scores as float64 holds them
        Z = sum(x.exp() for x in d)
        exact_E += Z.ln()
        for k in range(K):
            y_minus_t = d[k].exp() / Z - (1 if k == t else 0)
            for f in range(3):
                exact_G[k][f] += y_minus_t * Decimal(float(phi[f]))
    assert 0 < E < 1e-10
    np.testing.assert_allclose(E, float(exact_E), rtol=1e-12)
    np.testing.assert_allclose(problem.gradient(W, P), np.array(exact_G, dtype=float), rtol=1e-10, atol=0)
