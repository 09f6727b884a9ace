"""Discriminative fits reach the minimiser of their stated objective, or say plainly that they did not.

The objective (Bishop 2006, eqs. 4.90 and 4.108, plus the penalty) is written out here on the
model's own feature frame, its gradient computed by the test, and its minimum found by an
independent generic optimiser (scipy's L-BFGS/BFGS). Data are what students click: 2-5 points
per class, K up to 10, offsets up to 1e6, scales from 1e-6 to 1e6, separable or not.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypo import examples
from reference import binary_reference, features, softmax_objective, softmax_reference
from scipy.special import expit, logsumexp

from probviz.models import create

DEGREES = {"linear": 1, "quadratic": 2}


def frame_of(m, X):
    """The model's feature frame, checked against its definition (mean and standard deviation)."""
    c, s = m.frame_
    if m.standardize:
        sd = X.std(axis=0)
        for d in range(2):
            np.testing.assert_allclose(c[d], X[:, d].mean(), rtol=1e-12, atol=1e-12 * np.abs(X).max())
            if sd[d] > 1e-9 * np.abs(X).max():  # below that a column counts as constant
                np.testing.assert_allclose(s[d], sd[d], rtol=1e-9)
    else:
        assert np.all(c == 0) and np.all(s == 1)
    return c, s


def objective(Phi, codes, K, l2, W, binary):
    """E(W) and its gradient: binary W (1, F) for p(C_2|x) = sigma(a); else K softmax rows."""
    if binary:
        a = Phi @ W[0]
        t = (codes == 1).astype(float)
        E = np.sum(np.logaddexp(0, a) - t * a) + 0.5 * l2 * W[0, 1:] @ W[0, 1:]
        g = Phi.T @ (expit(a) - t)
        g[1:] += l2 * W[0, 1:]
        return E, g[None]
    return softmax_objective(Phi, codes, K, l2, W)


def check_fit(name, X, y, l2, basis="linear", standardize=True):
    """Fit, then: converged means KKT holds and no lower objective exists; not converged is said."""
    K = len(np.unique(y))
    m = create(name, l2=l2, basis=basis, standardize=standardize).fit(X, y)
    codes = np.searchsorted(m.classes_, y)
    binary = name == "logistic" and K == 2
    if name == "logistic" and K > 2:
        return m  # one-vs-rest: K binary problems, checked one by one below
    Phi = features(X, DEGREES[basis], standardize, frame_of(m, X))
    W = m.weights_
    E, G = objective(Phi, codes, K, l2, W, binary)
    scale = np.sum(np.abs(Phi).max(axis=1))
    if binary:
        _, E_ref = binary_reference(Phi, (codes == 1).astype(float), l2)
    else:
        _, E_ref = softmax_reference(Phi, codes, K, l2)
    if m.converged_:
        # the stationarity condition, from the test's own gradient (the softmax gauge pins one bias)
        free = np.ones_like(G, bool)
        if not binary:
            free[-1, 0] = False
        # standardized weights are the solver's own (exact); raw-unit weights at an offset of 1e6 carry
        # the rounding of their conversion
        tol = 1e-10 if standardize else 1e-7
        assert np.abs(G[free]).max() <= tol * scale, (np.abs(G[free]).max(), scale)
        assert E <= E_ref + 1e-8 * max(1.0, abs(E_ref)), (E, E_ref)
    else:
        assert m.notices_ and (m.separation_ or "did not reach" in " ".join(m.notices_))
    return m


# --- named cases from the issue -------------------------------------------------------

FOUR = (np.array([[1, 2], [1, 5], [0, 2], [0, 5]], float), np.array([0, 0, 1, 1]))


@pytest.mark.parametrize("name", ["logistic", "softmax"])
@pytest.mark.parametrize("standardize", [True, False])
def test_four_clicked_points(name, standardize):
    """The four points of the report: every p(C2|x_n) was 1.0, reported converged."""
    X, y = FOUR
    m = check_fit(name, X, y, 0.01, standardize=standardize)
    assert m.converged_
    p = m.predict_proba(X)[:, 1]
    Phi = features(X, 1, standardize, (X.mean(0), X.std(0)))
    if name == "logistic":
        w, _ = binary_reference(Phi, y.astype(float), 0.01)
        ref = expit(Phi @ w)
    else:
        W, _ = softmax_reference(Phi, y, 2, 0.01)
        ref = np.exp(Phi @ W.T - logsumexp(Phi @ W.T, axis=1, keepdims=True))[:, 1]
    np.testing.assert_allclose(p, ref, atol=1e-7)
    if not standardize and name == "logistic":
        np.testing.assert_allclose(p, [0.0336, 0.0336, 0.9664, 0.9664], atol=1e-4)  # the report's reference


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_ten_classes_two_points_each(name):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(20, 2)) * 3
    y = np.repeat(np.arange(10), 2)
    check_fit("softmax", X, y, 0.01)
    m = create(name).fit(X, y)
    assert m.converged_


@pytest.mark.parametrize("aniso", [False, True])
def test_three_classes_offset_by_a_million(aniso):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(9, 2)) * ([1.0, 1e-3] if aniso else 1.0) + 1e6
    y = np.repeat([0, 1, 2], 3)
    for standardize in (True, False):
        check_fit("softmax", X, y, 0.01, standardize=standardize)


def test_separable_with_a_penalty_reaches_the_finite_optimum():
    X = np.array([[0, 0], [0.2, 0.1], [3, 3], [3.1, 2.8], [-3, 3], [-2.9, 3.2]], float)
    y = np.array([0, 0, 1, 1, 2, 2])
    m = check_fit("softmax", X, y, 0.01)
    assert m.converged_ and not m.separation_


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_quasi_separable_without_a_penalty_is_named(name):
    """Two classes share a point: a line puts every point on its side or on the line."""
    X = np.array([[0, 0], [1, 0], [2, 0.5], [2, 0.5], [3, 1], [4, 1]], float)
    y = np.array([0, 0, 0, 1, 1, 1])
    m = create(name, l2=0.0).fit(X, y)
    assert not m.converged_ and m.separation_ == "quasi-separable"
    assert any("quasi-separable" in n for n in m.notices_)


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_separable_without_a_penalty_is_named(name):
    X = np.array([[0, 0], [1, 0], [3, 3], [4, 3]], float)
    y = np.array([0, 0, 1, 1])
    m = create(name, l2=0.0).fit(X, y)
    assert not m.converged_ and m.separation_ == "separable"
    _, E_ref = softmax_reference(features(X, 1, True, (X.mean(0), X.std(0))), y, 2, 0.0)
    assert E_ref < 1e-3  # the independent optimiser drives the error toward zero: no finite optimum


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_overlapping_without_a_penalty_converges(name):
    X = np.array([[0, 0], [1, 0], [2, 0], [0.5, 0.2], [1.5, 0.1], [2.5, 0.3]], float)
    y = np.array([0, 1, 0, 1, 0, 1])
    m = check_fit(name, X, y, 0.0)
    assert m.converged_ and m.separation_ == ""


@pytest.mark.parametrize("units", [1e-3, 1e-6, 1e3, 1e6])
@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_posteriors_do_not_depend_on_the_units(units, name):
    from probviz.data.examples import load

    d = load("fruit")
    base = create(name).fit(d.X, d.labels).predict_proba(d.X)
    moved = create(name).fit(d.X * units + 1e6 * units, d.labels).predict_proba(d.X * units + 1e6 * units)
    np.testing.assert_allclose(moved, base, atol=1e-7)


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_offsets_do_not_change_an_unstandardized_linear_fit(name):
    """Without standardizing, an offset is absorbed by the unpenalised bias: same posteriors."""
    from probviz.data.examples import load

    d = load("fruit")
    base = create(name, standardize=False).fit(d.X, d.labels).predict_proba(d.X)
    for offset in (1e3, 1e6):
        m = create(name, standardize=False).fit(d.X + offset, d.labels)
        assert m.converged_
        np.testing.assert_allclose(m.predict_proba(d.X + offset), base, atol=1e-6)


def test_one_vs_rest_problems_are_each_optimal():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(12, 2))
    y = np.repeat([0, 1, 2, 3], 3)
    m = create("logistic", l2=0.01).fit(X, y)
    assert m.converged_ and m.ovr_
    Phi = features(X, 1, True, (X.mean(0), X.std(0)))
    for k in range(4):
        _, E_ref = binary_reference(Phi, (y == k).astype(float), 0.01)
        E, G = objective(Phi, (y == k).astype(int), 2, 0.01, m.weights_[k:k + 1], binary=True)
        assert E <= E_ref + 1e-8 * max(1, E_ref) and np.abs(G).max() <= 1e-7 * len(X) * 3


# --- the search -------------------------------------------------------------------------

@st.composite
def small_data(draw):
    K = draw(st.integers(2, 6))
    per = draw(st.lists(st.integers(2, 4), min_size=K, max_size=K))
    n = sum(per)
    pts = draw(st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3)), min_size=n, max_size=n))
    X = np.array(pts, float)
    scale = draw(st.sampled_from([1e-6, 1e-3, 1.0, 1e3, 1e6]))
    offset = draw(st.sampled_from([0.0, 1.0, 1e3, 1e6])) * scale
    y = np.repeat(np.arange(K), per)
    return X * scale + offset, y


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=small_data(), l2=st.sampled_from([0.01, 1.0]), name=st.sampled_from(["logistic", "softmax"]))
def test_every_small_fit_is_optimal_or_says_not(data, l2, name):
    X, y = data
    assume(np.unique(X, axis=0).shape[0] >= 2)
    check_fit(name if len(np.unique(y)) == 2 else "softmax", X, y, l2)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=small_data(), name=st.sampled_from(["logistic", "softmax"]))
def test_without_a_penalty_converged_means_optimal(data, name):
    X, y = data
    assume(np.unique(X, axis=0).shape[0] >= 2)
    y = (y % 2)  # two classes
    m = check_fit(name, X, y, 0.0)
    if m.separation_ == "separable":
        Phi = features(X, 1, True, frame_of(m, X))
        assert softmax_reference(Phi, y, 2, 0.0)[1] < 1e-2


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_a_drag_continues_from_the_previous_fit_in_a_few_steps(name):
    """Each small move of a drag starts Newton at the previous optimum: it must finish there in a few
    quadratic steps, not wander at the rounding level of E (the Armijo test then compares noise
    with noise) for a hundred steps and restart from zero (150 ms a frame at N = 1,000)."""
    from probviz.data.synthetic import blobs

    X, y = blobs(1000, 3)
    X = X.copy()
    i = int(np.argmin(np.hypot(*(X - X.mean(0)).T)))
    home = X[i].copy()
    m = create(name).fit(X, y)
    for step in range(40):
        X[i] = home + [0.011 * (step % 20) + 0.03, 0.006 * (step % 7)]
        m = create(name).fit(X, y, init=m)
        assert m.start_ == "the previous fit" and m.converged_, (step, m.start_, m.notices_)
        assert m.n_iter_ <= 8, (step, m.n_iter_)


# --- a flat objective: a weak penalty in the units of x --------------------------------------

def _log1p_softmax_loss(A, codes):
    """-ln softmax(A)_t per row, to a few ulps of itself even when it is 1e-15 (the target wins:
    ln(1 + sum_{j != t} e^(a_j - a_t)) by log1p; logsumexp would round it to an absolute eps)."""
    D = A - A[np.arange(len(A)), codes][:, None]
    D[np.arange(len(A)), codes] = -np.inf
    top = D.max(axis=1)
    wins = top <= 0
    out = np.empty(len(A))
    out[wins] = np.log1p(np.exp(D[wins]).sum(axis=1))
    out[~wins] = top[~wins] + np.log(np.exp(D[~wins] - top[~wins, None]).sum(axis=1) + np.exp(-top[~wins]))
    return out


FLAT = {  # points (in units of 1e3 about 1e6) and class sizes where the fit stopped at 5x and 2.5e4x its minimum
    "three classes, 4-4-2": ([[-0.11, 1.24], [1.43, 0.87], [0.84, 0.19], [-1.21, -1.68], [1.73, 0.69],
                              [1.12, -1.45], [2.94, 0.77], [-2.99, 0.74], [-1.91, -1.08], [-0.55, -2.76]], [4, 4, 2]),
    "three classes, 2-4-3": ([[0.08, 1.07], [-1.38, 2.26], [0.64, -2.56], [2.96, 2.14], [0.82, -2.11],
                              [1.56, -2.65], [0.6, -2.73], [-1.12, 0.77], [-2.54, 1.33]], [2, 4, 3]),
}


@pytest.mark.parametrize("case", FLAT)
def test_a_weak_raw_penalty_is_minimised_not_stopped_at_a_small_gradient(case):
    """Standardize off, quadratic basis, x ~ 1e6 +- 3e3: the penalty on the raw weights is ~1e-12 on
    standardized ones, the objective is nearly flat, and a gradient of 1e-10 of its scale left E
    several times above its minimum (posteriors in the view off by up to 1). E(w) is written out here
    on the raw features (Bishop eq. 4.108 plus (l2/2)||w||^2 on the raw weights) and minimised by
    scipy in the test's own frame z = (x - 1e6) / 1e3, from zero and from the fit."""
    from scipy.optimize import minimize

    pts, per = FLAT[case]
    K, N = len(per), len(pts)
    X = np.array(pts) * 1e3 + 1e6
    y = np.repeat(np.arange(K), per)
    c, s, l2 = 1e6, 1e3, 1.0
    m = create("softmax", l2=l2, basis="quadratic", standardize=False).fit(X, y)
    Z = (X - c) / s
    Phi = np.column_stack([np.ones(N), Z[:, 0], Z[:, 1], Z[:, 0] ** 2, Z[:, 0] * Z[:, 1], Z[:, 1] ** 2])

    def raw(V):  # the same scores' coefficients on x1, x2, x1^2, x1 x2, x2^2 (the penalised ones)
        return np.column_stack([V[:, 1] / s - (2 * c * V[:, 3] + c * V[:, 4]) / s ** 2,
                                V[:, 2] / s - (c * V[:, 4] + 2 * c * V[:, 5]) / s ** 2,
                                V[:, 3] / s ** 2, V[:, 4] / s ** 2, V[:, 5] / s ** 2])

    def E(v):
        V = v.reshape(K, 6)
        return _log1p_softmax_loss(Phi @ V.T, y).sum() + 0.5 * l2 * np.sum(raw(V) ** 2)

    E_fit = _log1p_softmax_loss(m.decision_function(X), y).sum() + 0.5 * l2 * np.sum(m.coef_ ** 2)
    C = m.scores_.in_frame(np.array([c, c]), np.array([s, s]), 2)
    v_fit = np.column_stack([C[:, 0, 0], C[:, 1, 0], C[:, 0, 1], C[:, 2, 0], C[:, 1, 1], C[:, 0, 2]]).ravel()
    np.testing.assert_allclose(E(v_fit), E_fit, rtol=1e-6)  # the fit's weights in the test's frame
    options = {"BFGS": {"gtol": 1e-30, "maxiter": 20000}, "Powell": {"xtol": 1e-12, "ftol": 1e-15, "maxiter": 20000}}
    E_ref = min(minimize(E, v0, method=method, options=options[method]).fun
                for v0 in (np.zeros(K * 6), v_fit) for method in options)
    assert m.converged_
    # The fit's gradient holds 1 - y_nt, which rounds to an absolute eps per point when the target wins
    # (y_nt = 1 - 1e-10 here): its Newton steps cannot bring E closer than about N eps to the minimum
    # (Powell, searching without a gradient, goes 1.5e-15 further on the first case). The stops this
    # guards against were 5x and 2.5e4x the minimum.
    assert E_fit <= E_ref * (1 + 1e-6) + 4 * N * np.finfo(float).eps, (E_fit, E_ref)


@pytest.mark.parametrize("K,F", [(2, 3), (3, 3), (4, 6)])
@pytest.mark.parametrize("partial", [False, True])
def test_a_newton_direction_solves_its_damped_system(K, F, partial):
    """The step of the safeguarded Newton driver (and of a drag's one-step draft) solves (H + damping I) d = g,
    H the curvature plus the penalty R in each class's diagonal block (softmax), or per two-class problem
    (C_k + R + damping I) d_k = g_k, on the free weights only, the others zero: checked against the system
    written out here (numpy's kron and a dense solve)."""
    from probviz.models.newton import BinaryBatch, Multinomial

    rng = np.random.default_rng(K * 10 + F + partial)
    free = np.ones((K, F), bool)
    if partial:
        free[rng.random((K, F)) < 0.3] = False
        free[0, 0] = True
    A = rng.normal(size=(K * F, K * F))
    C = A @ A.T  # a curvature: symmetric, positive definite
    B = rng.normal(size=(F, F))
    R = B @ B.T
    G = rng.normal(size=(K, F))
    idx = np.flatnonzero(free.ravel())
    for damping in (0.0, 2.5):
        d = Multinomial.direction(C, R, G, free, damping)
        assert d.shape == G.shape
        H = C + np.kron(np.eye(K), R) + damping * np.eye(K * F)
        want = np.zeros(K * F)
        want[idx] = np.linalg.solve(H[np.ix_(idx, idx)], G.ravel()[idx])
        np.testing.assert_allclose(d.ravel(), want, rtol=1e-9, atol=1e-12)
        Cs = np.stack([C[k * F:(k + 1) * F, k * F:(k + 1) * F] for k in range(K)])
        d = BinaryBatch.direction(Cs, R, G, free, damping)
        assert d.shape == G.shape
        for k in range(K):
            on = free[k]
            want = np.linalg.solve((Cs[k] + R + damping * np.eye(F))[np.ix_(on, on)], G[k, on])
            np.testing.assert_allclose(d[k, on], want, rtol=1e-9, atol=1e-12)
            assert np.all(d[k, ~on] == 0)
