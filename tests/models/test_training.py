"""Training step by step (Bishop 4.1.7, 4.3.2-4.3.4): every step replayed by the update formulas
written out here, and the end of the road equal to the direct fit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit, softmax

from hypo import examples
from probviz.data.examples import load
from probviz.models import create
from probviz.models.training import Trainer, separable_note
from reference import binary_reference, features, softmax_reference


def _frame(X):
    return X.mean(axis=0), X.std(axis=0)


def _objective(name, Phi, codes, K, l2, W):
    """E(W) (module docstring of probviz.models.training), written from eqs. 4.90 and 4.108."""
    pen = 0.5 * l2 * np.sum(W[:, 1:] ** 2)
    A = Phi @ W.T
    if name == "softmax":
        A = A - A.max(axis=1, keepdims=True)
        return -np.sum(A[np.arange(len(A)), codes] - np.log(np.exp(A).sum(axis=1))) + pen
    T = np.eye(K)[codes] if K > 2 else (codes == 1)[:, None].astype(float)
    return np.sum(np.logaddexp(0, A) - T * A) + pen


def _gradient(name, Phi, codes, K, l2, W):
    """sum_n (y_n - t_n) phi_n (eqs. 4.91, 4.109) + l2 w (biases unpenalised)."""
    A = Phi @ W.T
    if name == "softmax":
        Y, T = softmax(A, axis=1), np.eye(K)[codes]
    else:
        Y = expit(A)
        T = np.eye(K)[codes] if K > 2 else (codes == 1)[:, None].astype(float)
    G = (Y - T).T @ Phi
    G[:, 1:] += l2 * W[:, 1:]
    return G


def _newton(name, Phi, codes, K, l2, W):
    """IRLS: w_new = w - (Phi^T R Phi + l2 D)^-1 grad (eq. 4.92, R = diag(y(1-y)), eq. 4.98) for each
    binary row; softmax: the Hessian blocks sum_n y_nk (I_kj - y_nj) phi_n phi_n^T (eq. 4.110), solved by
    least squares (the scores are defined up to a common constant, so H is singular)."""
    F = Phi.shape[1]
    D = l2 * np.diag([0.0] + [1.0] * (F - 1))
    G = _gradient(name, Phi, codes, K, l2, W)
    if name == "logistic":
        Y = expit(Phi @ W.T)
        return W - np.stack([np.linalg.solve(Phi.T @ (Phi * (Y[:, k] * (1 - Y[:, k]))[:, None]) + D, G[k])
                             for k in range(len(W))])
    Y = softmax(Phi @ W.T, axis=1)
    H = np.zeros((K * F, K * F))
    for k in range(K):
        for j in range(K):
            c = Y[:, k] * ((k == j) - Y[:, j])
            H[k * F:(k + 1) * F, j * F:(j + 1) * F] = Phi.T @ (Phi * c[:, None]) + (D if k == j else 0)
    return W - np.linalg.lstsq(H, G.ravel(), rcond=1e-12)[0].reshape(W.shape)


def _replay(name, optimizer, X, y, l2, eta, steps, degree=1):
    classes, codes = np.unique(y, return_inverse=True)
    K = len(classes)
    Phi = features(X, degree, True, _frame(X))
    rows = K if name == "softmax" or K > 2 else 1
    W = np.zeros((rows, Phi.shape[1]))
    errors = []
    for s in range(steps):
        if optimizer == "gd":
            W = W - eta * _gradient(name, Phi, codes, K, l2, W)
        elif optimizer == "sgd":
            n = s % len(X)
            G = _gradient(name, Phi[n:n + 1], codes[n:n + 1], K, 0.0, W)
            G[:, 1:] += l2 * W[:, 1:] / len(X)
            W = W - eta * G
        else:
            W = _newton(name, Phi, codes, K, l2, W)
        errors.append(_objective(name, Phi, codes, K, l2, W))
    return W, np.array(errors)


CASES = [("logistic", "fruit"), ("logistic", "shared-vs-own-covariance"), ("softmax", "fruit"),
         ("softmax", "shared-vs-own-covariance")]


@pytest.mark.parametrize("name,example", CASES)
@pytest.mark.parametrize("optimizer,eta,steps", [("gd", 0.004, 25), ("sgd", 0.2, 60), ("newton", None, 6)])
def test_every_step_is_the_update_formula(name, example, optimizer, eta, steps):
    d = load(example)
    t = Trainer(name, d.X, d.labels, optimizer=optimizer, eta=eta, l2=0.05)
    t.step(steps)
    W, errors = _replay(name, optimizer, d.X, d.labels, 0.05, eta, steps)
    np.testing.assert_allclose(t.current.W, W, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose([s.error for s in t.history[1:]], errors, rtol=1e-10)
    if optimizer == "sgd":
        n = (steps - 1) % len(d.X)
        assert t.current.point == n


@pytest.mark.parametrize("name", ["logistic", "softmax"])
@pytest.mark.parametrize("basis,degree", [("linear", 1), ("quadratic", 2)])
def test_newton_ends_at_the_direct_fit_and_gd_heads_there(name, basis, degree):
    """Newton from w = 0 reaches the direct fit's weights (same objective), checked against a generic
    optimiser (BFGS) on the reference objective; gradient descent with a small eta lowers E every step."""
    d = load("shared-vs-own-covariance")
    t = Trainer(name, d.X, d.labels, optimizer="newton", l2=0.1, basis=basis)
    t.step(25)
    E_opt, fitted = t.optimum()
    np.testing.assert_allclose(t.current.error, E_opt, rtol=1e-12)
    assert t.gradient_norm() < 1e-10
    codes = d.labels
    Phi = features(d.X, degree, True, _frame(d.X))
    if name == "softmax":
        _, ref = softmax_reference(Phi, codes, 3, 0.1)
    else:  # one-vs-rest: three separate binary problems
        ref = sum(binary_reference(Phi, (codes == k).astype(float), 0.1)[1] for k in range(3))
    assert t.current.error <= ref + 1e-7 * abs(ref)
    np.testing.assert_allclose(t.model().predict_proba(d.X), fitted.predict_proba(d.X), atol=1e-9)
    g = Trainer(name, d.X, d.labels, optimizer="gd", eta=0.002, l2=0.1, basis=basis)
    g.step(200)
    E = [s.error for s in g.history]
    assert all(b <= a + 1e-12 for a, b in zip(E, E[1:]))
    assert E[-1] < E[0] and E[-1] > E_opt


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(0, 10_000),
       st.sampled_from([0.0, 1e6]), st.sampled_from([1e-6, 1.0, 1e6]), st.sampled_from(["logistic", "softmax"]))
def test_newton_on_few_points_matches_a_generic_optimiser(K, n, seed, offset, scale, name):
    """2-4 points per class, K up to 4, offsets and scales far from 1: Newton's steps on the
    standardized features reach the minimum BFGS finds on the same objective."""
    rng = np.random.default_rng(seed)
    X = (rng.normal(size=(K * n, 2)) + np.repeat(rng.normal(0, 2, (K, 2)), n, axis=0)) * scale + offset
    y = np.repeat(np.arange(K), n)
    t = Trainer(name, X, y, optimizer="newton", l2=0.5)
    t.step(40)
    Phi = features(X, 1, True, t.frame)  # the reported frame (a spread below 1e-12 of |x| counts as none)
    if name == "softmax":
        _, ref = softmax_reference(Phi, y, K, 0.5)
    elif K == 2:
        _, ref = binary_reference(Phi, (y == 1).astype(float), 0.5)
    else:
        ref = sum(binary_reference(Phi, (y == k).astype(float), 0.5)[1] for k in range(K))
    assert t.current.error <= ref + 1e-8 * max(1.0, abs(ref))
    assert t.gradient_norm() < 1e-9


def _map_reference(Phi, t, alpha):
    """-sum_n ln p(t_n|w) + (alpha/2)||w||^2 over every weight, the bias included (the prior N(w|0, alpha^-1 I),
    Bishop eq. 4.142), minimised by BFGS: (w, value)."""
    from scipy.optimize import minimize

    def f(w):
        a = Phi @ w
        return np.sum(np.logaddexp(0, a) - t * a) + 0.5 * alpha * w @ w, Phi.T @ (expit(a) - t) + alpha * w

    def hess(w):
        y = expit(Phi @ w)
        return (Phi * (y * (1 - y))[:, None]).T @ Phi + alpha * np.eye(Phi.shape[1])

    best = None  # BFGS, and a trust region with the exact Hessian (raw coordinates of 1e6 defeat BFGS alone)
    for method, kw in (("BFGS", {}), ("trust-exact", {"hess": hess})):
        r = minimize(f, np.zeros(Phi.shape[1]), jac=True, method=method, options={"gtol": 1e-12, "maxiter": 20000},
                     **kw)
        if best is None or r.fun < best.fun:
            best = r
    return best.x, best.fun


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(0, 10_000), st.sampled_from([0.0, 1e6]),
       st.sampled_from([1e-6, 1.0, 1e6]), st.sampled_from([0.01, 1.0, 100.0]), st.booleans(), st.booleans())
def test_the_bayesian_view_trains_toward_w_map(K, n, seed, offset, scale, alpha, separable, standardize):
    """Logistic regression with the Bayesian view ticked trained the plain L2 objective (its optimum 40.19 on the
    fruit, the Bayesian fit's w_MAP at 49.31): the steps now minimise the cross-entropy plus the prior's
    (alpha/2)||w||^2 on every weight, the bias included. 2-4 points per class, K up to 4 (one-vs-rest), far
    offsets and scales, separable sets (the prior holds the weights): Newton reaches BFGS's minimum of that
    objective (BFGS's or a trust region's), where its gradient Phi^T(y - t) + alpha w vanishes, and the Bayesian
    fit's weights and p(C_k|x)."""
    rng = np.random.default_rng(seed)
    spread = 20.0 if separable else 2.0
    X = (rng.normal(size=(K * n, 2)) + np.repeat(rng.normal(0, spread, (K, 2)), n, axis=0)) * scale + offset
    y = np.repeat(np.arange(K), n)
    t = Trainer("logistic", X, y, optimizer="newton", alpha=alpha, l2=0.5, standardize=standardize)
    t.step(60)
    Phi = features(X, 1, standardize, t.frame)
    targets = [(y == 1).astype(float)] if K == 2 else [(y == k).astype(float) for k in range(K)]
    refs = [_map_reference(Phi, tk, alpha) for tk in targets]
    ref = sum(v for _, v in refs)
    assert t.current.error <= ref + 1e-8 * max(1.0, abs(ref))
    for w, tk, (wr, vr) in zip(t.current.W, targets, refs):  # the optimality condition, and the reference's w
        g = Phi.T @ (expit(Phi @ w) - tk) + alpha * w
        assert np.max(np.abs(g)) <= 1e-8 * max(1.0, np.abs(Phi).sum(axis=0).max())
        if vr > 1e-3:  # (a set fitted to E ~ 1e-12 leaves the scores free to rounding: the conditions above hold)
            np.testing.assert_allclose(Phi @ w, Phi @ wr, atol=1e-5 * max(1.0, np.abs(Phi @ wr).max()))
            if standardize:  # (raw coordinates 1e6 apart by 1e-6 leave w flat along x1 - x2: its scores only)
                np.testing.assert_allclose(w, wr, atol=1e-5 * max(1.0, np.abs(wr).max()))
    E_opt, fitted = t.optimum()
    tol = 1e-8 * max(1.0, abs(ref))  # the Bayesian fit's w_MAP: the same minimum (the reference's at most)
    assert fitted.laplace_ is not None and E_opt <= ref + tol and abs(E_opt - t.current.error) <= tol
    np.testing.assert_allclose(t.model().predict_proba(X), fitted.predict_proba(X), atol=1e-8)
    assert "w_MAP" in separable_note(t) and "bias included" in separable_note(t)


def test_the_prior_belongs_to_logistic_regression_and_is_positive():
    X, y = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([0, 0, 1, 1])
    for name in ("softmax", "perceptron"):
        with pytest.raises(ValueError, match="belongs to logistic regression"):
            Trainer(name, X, y, alpha=1.0)
    for alpha in (0.0, -1.0, float("nan"), float("inf"), True):
        with pytest.raises(ValueError, match="alpha must be a positive number"):
            Trainer("logistic", X, y, alpha=alpha)


def test_separable_data_without_a_penalty_grows_the_weights():
    """l2 = 0 on separable data: E falls toward 0 while ||w|| grows without bound; no optimum (Bishop
    4.3.2), and the note says why."""
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal([-2, 0], 0.5, (10, 2)), rng.normal([2, 0], 0.5, (10, 2))])
    y = np.repeat([0, 1], 10)
    t = Trainer("logistic", X, y, optimizer="gd", eta=0.5, l2=0.0)
    t.step(400)
    norms = [s.norm for s in t.history[::50]]
    assert all(b > a for a, b in zip(norms, norms[1:]))
    assert t.current.error < 0.05 * t.history[0].error and t.current.wrong == 0
    assert t.optimum()[0] is None
    assert "no maximum-likelihood solution" in separable_note(t)
    assert separable_note(Trainer("logistic", X, y, l2=0.01)) == ""


def test_perceptron_steps():
    """sgd: w <- w + eta phi_n t_n on a misclassified point, nothing otherwise (eq. 4.55); gd: the sum over
    the misclassified; E_P = -sum_M w^T phi_n t_n (eq. 4.54); it stops making mistakes on separable data
    and cycles on XOR, saying so."""
    rng = np.random.default_rng(6)
    X = np.vstack([rng.normal([-2, 0], 0.5, (8, 2)), rng.normal([2, 0], 0.5, (8, 2))])
    y = np.repeat([0, 1], 8)
    Phi = features(X, 1, True, _frame(X))
    tt = np.where(y == 1, 1.0, -1.0)
    t = Trainer("perceptron", X, y, optimizer="sgd", eta=0.7)
    w = np.zeros(3)
    for s in range(40):
        n = s % len(X)
        if tt[n] * (Phi[n] @ w) <= 0:
            w = w + 0.7 * tt[n] * Phi[n]
        t.step()
        np.testing.assert_allclose(t.current.W[0], w, atol=1e-12)
        m = tt * (Phi @ w) <= 0
        np.testing.assert_allclose(t.current.error, -np.sum(tt[m] * (Phi[m] @ w)), atol=1e-12)
    assert t.current.wrong == 0 and separable_note(t) == ""
    g = Trainer("perceptron", X, y, optimizer="gd", eta=0.1)
    g.step(1)
    np.testing.assert_allclose(g.current.W[0], 0.1 * (tt @ Phi), atol=1e-12)  # at w = 0 every point counts
    d = load("xor")
    x = Trainer("perceptron", d.X, d.labels, optimizer="sgd")
    x.step(2000)
    assert min(s.wrong for s in x.history[1000:]) > 0
    assert "never settles" in separable_note(x)
    with pytest.raises(ValueError, match="no Newton step"):
        Trainer("perceptron", X, y, optimizer="newton")


def test_bad_settings_are_refused():
    d = load("fruit")
    for kwargs, message in (({"optimizer": "adam"}, "optimizer"), ({"eta": 0.0}, "eta"), ({"eta": -1.0}, "eta"),
                            ({"start": np.zeros((2, 3))}, "start")):
        with pytest.raises(ValueError, match=message):
            Trainer("logistic", d.X, d.labels, **kwargs)
    with pytest.raises(ValueError, match="not trained"):
        Trainer("lda", d.X, d.labels)
    with pytest.raises(ValueError, match="two classes"):
        Trainer("perceptron", np.arange(6.0).reshape(3, 2), [0, 1, 2])
    t = Trainer("logistic", d.X, d.labels, optimizer="gd", eta=1e6)
    with pytest.raises(FloatingPointError, match="too large"):
        t.step(50)
    assert np.all(np.isfinite(t.current.W))  # the last good step is kept


def test_a_training_step_is_a_model_in_the_units_of_x():
    """The step's model gives p(C_2|x) = sigma(w^T z + w0) with z the standardized x, and its coef_ and
    intercept_ are the same function in the units of x."""
    d = load("fruit")
    t = Trainer("logistic", d.X, d.labels, optimizer="gd", eta=0.01)
    t.step(7)
    m = t.model()
    center, scale = _frame(d.X)
    w = t.current.W[0]
    p = expit(w[0] + ((d.X - center) / scale) @ w[1:])
    np.testing.assert_allclose(m.predict_proba(d.X)[:, 1], p, rtol=1e-12)
    np.testing.assert_allclose(expit(d.X @ m.coef_[0] + m.intercept_[0]), p, rtol=1e-9)
    assert m.n_iter_ == 7 and not m.converged_
    fitted = create("logistic").fit(d.X, d.labels)
    assert not np.allclose(m.coef_, fitted.coef_, rtol=1e-3)


def test_a_perceptron_step_is_a_model_with_that_steps_weights():
    """Any step (not only the last) as a drawable model: its discriminant is w^T phi at that step, its
    counts say how far it got, its names are the classes'."""
    rng = np.random.default_rng(8)
    X = np.vstack([rng.normal([-2, 0], 0.5, (6, 2)), rng.normal([2, 0], 0.5, (6, 2))])
    y = np.repeat([0, 1], 6)
    t = Trainer("perceptron", X, y, optimizer="sgd", eta=0.5, names=["left", "right"])
    t.step(7)
    Phi = features(X, 1, True, _frame(X))
    for s in (t.history[3], t.history[7]):
        m = t.model(s)
        y_step = m.decision_function(X)[:, 1] - m.decision_function(X)[:, 0]
        np.testing.assert_allclose(y_step, Phi @ s.W[0], atol=1e-12)
        assert m.n_iter_ == s.index and m.epochs_ == -(-s.index // len(X))
        assert m.class_names_ == ["left", "right"] and m.n_features_in_ == 2
        assert m.converged_ == (s.wrong == 0)
    assert t.model().n_iter_ == 7


def test_logistic_step_models_know_their_classes_and_state():
    d = load("shared-vs-own-covariance")
    t = Trainer("logistic", d.X, d.labels, optimizer="newton", l2=0.1, names=["r", "g", "b"])
    m0 = t.model()
    np.testing.assert_allclose(m0.predict_proba(d.X), 1 / 3)  # w = 0: every class equally likely
    assert not m0.converged_ and m0.ovr_ and m0.class_names_ == ["r", "g", "b"]
    t.step(20)
    assert t.model().converged_ and t.model().n_iter_ == 20
    assert t.model(t.history[1]).n_iter_ == 1


def test_misclassified_counts_and_unstandardized_features():
    """The readout's count of misclassified points is the plain count of wrong MAP decisions; with
    standardize off the steps are taken on x itself."""
    d = load("shared-vs-own-covariance")
    rng = np.random.default_rng(3)
    for name in ("logistic", "softmax"):
        t = Trainer(name, d.X, d.labels, l2=0.1)
        W = rng.normal(size=t.current.W.shape)
        A = t.Phi @ W.T
        assert t.misclassified(W) == np.count_nonzero(np.argmax(A, axis=1) != d.labels)
    fruit = load("fruit")
    t = Trainer("logistic", fruit.X, fruit.labels)
    w = np.array([[0.3, -1.0, 2.0]])
    a = t.Phi @ w[0]
    assert t.misclassified(w) == np.count_nonzero((a > 0).astype(int) != fruit.labels)
    raw = Trainer("logistic", fruit.X, fruit.labels, optimizer="gd", eta=0.001, l2=0.5, standardize=False)
    np.testing.assert_array_equal(raw.Phi, np.column_stack([np.ones(len(fruit.X)), fruit.X]))
    raw.step(3)
    W = np.zeros((1, 3))
    Phi = raw.Phi
    tt = fruit.labels.astype(float)
    for _ in range(3):
        g = Phi.T @ (expit(Phi @ W[0]) - tt)
        g[1:] += 0.5 * W[0, 1:]
        W = W - 0.001 * g
    np.testing.assert_allclose(raw.current.W, W, rtol=1e-12)
    np.testing.assert_allclose(raw.raw_weights()["coef"][0], W[0, 1:], rtol=1e-12)


def test_penalty_and_overflow_are_reported_exactly():
    d = load("fruit")
    for l2 in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="l2 must be a non-negative number"):
            Trainer("logistic", d.X, d.labels, l2=l2)
    with pytest.raises(ValueError, match="basis must be one of linear, quadratic, cubic, got 'fourier'"):
        Trainer("logistic", d.X, d.labels, basis="fourier")
    with pytest.raises(ValueError, match="at least two classes"):
        Trainer("logistic", d.X, np.zeros(len(d.X), int))
    t = Trainer("softmax", d.X, d.labels, optimizer="gd", eta=1e8, l2=1.0)
    with pytest.raises(FloatingPointError) as e:
        t.step(100)
    assert f"at step {t.current.index + 1}: eta = 1e+08 is too large" in str(e.value)


@pytest.mark.parametrize("name,example", [("logistic", "fruit"), ("logistic", "shared-vs-own-covariance"),
                                          ("softmax", "shared-vs-own-covariance")])
def test_the_generative_start_is_the_gaussian_models_log_odds(name, example):
    """Reset to "the Gaussian model's log-odds": at step 0 the model's decisions are LDA's (Bishop 4.2.2:
    the same linear form); for two classes and softmax its posterior is LDA's exactly; one-vs-rest's
    scores are each class's LDA log-odds against the rest."""
    d = load(example)
    t0 = Trainer(name, d.X, d.labels)
    W = t0.generative_start()
    t = Trainer(name, d.X, d.labels, start=W)
    m = t.model()
    if name == "logistic" and len(np.unique(d.labels)) > 2:
        for k in range(3):
            lda_k = create("lda").fit(d.X, (d.labels == k).astype(int))
            np.testing.assert_allclose(m.decision_function(d.X)[:, k], np.log(lda_k.predict_proba(d.X)[:, 1])
                                       - np.log(lda_k.predict_proba(d.X)[:, 0]), atol=1e-8)
    else:
        np.testing.assert_allclose(m.predict_proba(d.X), create("lda").fit(d.X, d.labels).predict_proba(d.X),
                                   atol=1e-10)
    assert Trainer("perceptron", d.X[d.labels < 2], d.labels[d.labels < 2]).generative_start() is None


def test_a_softmax_step_draws_what_a_fitted_softmax_with_those_weights_draws():
    """Softmax has no undecided region (Bishop 4.3.4): every x goes to the largest a_k. A training step
    is drawn like the fitted model: started at the direct fit's weights, step 0's scene is the fit's
    scene, with no one-vs-rest hatching; a step from w = 0 has the posterior softmax(W phi) written out
    here. One-vs-rest logistic regression keeps its hatching (Bishop 4.1.2)."""
    from probviz.scene import build_scene, grid_axes

    d = load("shared-vs-own-covariance")
    bounds, colors, shape = (-4.0, 6.0, -4.0, 6.0), [(230, 159, 0), (86, 180, 233), (0, 158, 115)], (96, 80)
    fitted = create("softmax", l2=0.1).fit(d.X, d.labels)
    t = Trainer("softmax", d.X, d.labels, optimizer="gd", eta=0.002, l2=0.1, start=fitted.weights_)
    ours, theirs = (build_scene(m, bounds, colors, shape) for m in (t.model(), fitted))
    assert not ours.hatched and not theirs.hatched
    np.testing.assert_allclose(ours.posterior, theirs.posterior, atol=1e-6)
    np.testing.assert_array_equal(ours.decision, theirs.decision)
    np.testing.assert_array_equal(ours.image, theirs.image)
    assert len(ours.boundaries) == len(theirs.boundaries) > 0
    # from w = 0, a few steps: p(C_k|x) = exp(a_k) / sum_j exp(a_j), a = W [1, z], z the standardized x
    t = Trainer("softmax", d.X, d.labels, optimizer="gd", eta=0.002, l2=0.1)
    t.step(15)
    scene = build_scene(t.model(), bounds, colors, shape)
    assert not scene.hatched
    xs, ys = grid_axes(bounds, *shape)
    G = np.column_stack([np.tile(xs, len(ys)), np.repeat(ys, len(xs))])
    P = softmax(features(G, 1, True, _frame(d.X)) @ t.current.W.T, axis=1)
    np.testing.assert_allclose(scene.posterior.reshape(-1, 3), P, atol=1e-6)
    # one-vs-rest logistic regression's step is hatched where no sigma(a_k), or several, exceed 1/2
    o = Trainer("logistic", d.X, d.labels, optimizer="gd", eta=0.002, l2=0.1)
    o.step(15)
    from matplotlib.path import Path

    def scores(P):
        return features(P, 1, True, _frame(d.X)) @ o.current.W.T

    A = scores(G)
    undecided = np.count_nonzero(A > 0, axis=1) != 1
    rings = build_scene(o.model(), bounds, colors, shape).ambiguous_rings
    inside = sum(Path(r).contains_points(G).astype(int) for r in rings) % 2 == 1  # even-odd: holes stay holes
    h = 1e-3  # each a_k is linear in x: its distance to a_k = 0 is |a_k| / |grad a_k|
    grad = np.hypot(scores(G + [h, 0]) - scores(G), scores(G + [0, h]) - scores(G)) / h
    clear = (np.abs(A) / grad).min(axis=1) > 2 * 2 * 10.0 / min(shape)  # two cells of the every-other-node trace
    assert undecided[clear].any() and (~undecided[clear]).any() and clear.mean() > 0.5
    np.testing.assert_array_equal(inside[clear], undecided[clear])


def test_a_perceptron_step_decides_what_its_criterion_counts():
    """E_P's M holds the points with w^T phi_n t_n <= 0 (eq. 4.54): a point on the boundary counts as
    misclassified. The step's model says the same (undecided there, not the first class by a tie), so
    its accuracy is 1 - |M| / N; at w = 0 it decides nothing, and E_P is +0, not -0."""
    d = load("fruit")
    N = len(d.X)
    Phi = features(d.X, 1, True, _frame(d.X))
    tt = np.where(d.labels == 1, 1.0, -1.0)
    t = Trainer("perceptron", d.X, d.labels, optimizer="gd", eta=0.01)
    s = t.current
    assert s.error == 0.0 and np.copysign(1.0, s.error) == 1.0 and f"{s.error:.5g}" == "0"
    assert s.wrong == N and t.on_boundary(s.W) == N
    summary, wrong = t.model().evaluate(d.X, d.labels)
    assert summary["accuracy"] == 0.0 and summary["undecided"] == N and wrong.all()
    assert np.all(t.model().decide_grid(np.linspace(-3, 8, 7), np.linspace(-3, 8, 5)) == -1)
    for _ in range(4):
        t.step()
        w = t.current.W[0]
        in_M = tt * (Phi @ w) <= 0
        summary, wrong = t.model().evaluate(d.X, d.labels)
        assert t.current.wrong == np.count_nonzero(in_M) == np.count_nonzero(wrong)
        np.testing.assert_array_equal(wrong, in_M)
        assert summary["accuracy"] == pytest.approx(1 - np.count_nonzero(in_M) / N)
        assert t.on_boundary(t.current.W) == 0 and summary["undecided"] == 0


@pytest.mark.parametrize("eta", [1e-100, 1e-3, 1.0, 1e100])
def test_the_perceptrons_eta_only_scales_w(eta):
    """From w = 0 each step adds eta phi_n t_n (eq. 4.55), so w is eta times the eta = 1 run's and every eta
    makes the same decisions (Bishop 4.1.7); an eta that would overflow or vanish is refused by name."""
    d = load("fruit")
    one = Trainer("perceptron", d.X, d.labels, optimizer="gd", eta=1.0)
    one.step(15)
    t = Trainer("perceptron", d.X, d.labels, optimizer="gd", eta=eta)
    t.step(15)
    np.testing.assert_allclose(t.current.W, eta * one.current.W, rtol=1e-12)
    np.testing.assert_array_equal(t.model().predict(d.X), one.model().predict(d.X))
    assert np.isfinite(t.current.error) and np.isfinite(t.current.norm)


@pytest.mark.parametrize("eta", [1e-200, 1e154, 1e200])
def test_an_eta_the_perceptron_cannot_carry_is_refused(eta):
    d = load("fruit")
    with pytest.raises(ValueError, match=r"only scales w .* use one from 1e-100 to 1e\+100"):
        Trainer("perceptron", d.X, d.labels, optimizer="gd", eta=eta)
