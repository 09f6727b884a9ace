"""A known truth: samples by their moments and a goodness-of-fit test, error rates against closed forms,
a grid integral and Monte Carlo; learning curves; the truth in sessions."""

import json

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats
from scipy.special import logsumexp

from hypo import MUTATION, examples
from probviz.data.examples import load, session
from probviz.data.files import DataError
from probviz.data.session import from_json, to_json
from probviz.models import create
from probviz.models.learning import class_counts, learning_curve
from probviz.models.truth import Truth, error_rate, fitted_truth
from probviz.scene import cross_section, truth_scene

FRUIT_SIGMA = np.array([[0.2, 0.1], [0.1, 0.3]])


def shared_bayes_error(p1, m1, m2, S):
    """Two Gaussians sharing S: the log-odds is N(+-D^2/2 + c, D^2) under each class, D the Mahalanobis
    distance of the means and c = ln(p1/p2), so the error is
    p1 Phi((-D^2/2 - c)/D) + p2 Phi((-D^2/2 + c)/D)."""
    d = np.asarray(m2, float) - np.asarray(m1, float)
    D = np.sqrt(d @ np.linalg.solve(S, d))
    c = np.log(p1 / (1 - p1))
    return p1 * stats.norm.cdf((-D * D / 2 - c) / D) + (1 - p1) * stats.norm.cdf((-D * D / 2 + c) / D)


def _gauss_logpdf(X, m, S):
    """ln N(x|m, S) for a 2x2 S, written out: -(1/2) d^T S^-1 d - ln(2 pi) - (1/2) ln|S|."""
    det = S[0, 0] * S[1, 1] - S[0, 1] * S[1, 0]
    d0, d1 = X[:, 0] - m[0], X[:, 1] - m[1]
    maha = (S[1, 1] * d0 * d0 - 2 * S[0, 1] * d0 * d1 + S[0, 0] * d1 * d1) / det
    return -0.5 * maha - np.log(2 * np.pi) - 0.5 * np.log(det)


def _log_joint(truth, X):
    """ln p(x|C_k)p(C_k) from the Gaussian formula written out here (independent of probviz's)."""
    X = np.asarray(X, float).reshape(-1, 2)
    out = []
    for p, w, m, S in zip(truth.priors, truth.weights, truth.means, truth.covariances):
        comps = [np.log(p * wc) + _gauss_logpdf(X, mc, Sc) for wc, mc, Sc in zip(w, m, S)]
        out.append(comps[0] if len(comps) == 1 else logsumexp(np.array(comps), axis=0))  # (a sum of one: itself)
    return np.array(out).T


def grid_error(truth, decide, n=1200, span=9.0):
    """The error by brute force: sum over a fine grid of sum_k p(x, C_k) [decide(x) != k] dA. The grid
    reaches ``span`` standard deviations of the widest class and steps at most a 25th of the narrowest
    class's (the decision's steps make the sum's error first order in the step)."""
    mu = np.vstack(truth.means)
    eig = [np.linalg.eigvalsh(S) for S in np.vstack(truth.covariances)]
    sd, narrow = np.sqrt(np.max(eig)), np.sqrt(np.min(eig))
    lo, hi = mu.min(axis=0) - span * sd, mu.max(axis=0) + span * sd
    n = int(min(max(n, np.max(hi - lo) / (narrow / 25)), 2400))
    xs, ys = np.linspace(lo[0], hi[0], n), np.linspace(lo[1], hi[1], n)
    gx, gy = np.meshgrid(xs, ys)
    X = np.column_stack([gx.ravel(), gy.ravel()])
    J = np.exp(_log_joint(truth, X))
    d = decide(X)
    wrong = J.sum(axis=1) - np.where(d >= 0, J[np.arange(len(X)), np.maximum(d, 0)], 0.0)
    return wrong.sum() * (xs[1] - xs[0]) * (ys[1] - ys[0])


@pytest.mark.parametrize("p1,offset,scale", [(0.7, 0.0, 1.0), (0.5, 1e6, 1.0), (0.9, 0.0, 1e-3), (0.2, -3e4, 1e3),
                                             (0.999, 0.0, 1.0), (0.6, 0.0, 1e50), (0.3, 1e-34, 1e-40)])
def test_bayes_error_of_a_shared_covariance_pair_is_the_closed_form(p1, offset, scale):
    m1, m2 = np.array([1.0, 1.0]), np.array([1.7, 2.5])
    S = FRUIT_SIGMA * scale ** 2
    t = Truth.make([p1, 1 - p1], [m1 * scale + offset, m2 * scale + offset], [S, S])
    expected = shared_bayes_error(p1, m1, m2, FRUIT_SIGMA)
    assert t.bayes_error() == pytest.approx(expected, rel=1e-6, abs=1e-12)


@settings(max_examples=examples(5) if not MUTATION else 2, deadline=None)  # every integral is ~1 s, a grid up to 5
@given(st.integers(0, 10_000), st.integers(2, 3))
@example(seed=1390, K=3)  # a wide class: a coarser grid was 2.3e-4 off (the line integral agrees with finer grids)
@example(seed=671, K=3)  # the coarser grid was 3.3e-4 off the line integral; the finer one 6e-5
@example(seed=6768, K=3)  # a wide and a narrow class: the grid was 1.4e-3 off (4,000,000-point Monte Carlo agrees
#                           with the line integral to 1.4e-4, within its standard error of 2.3e-4)
def test_bayes_and_fitted_errors_match_a_grid_integral(seed, K):
    """Own covariances (quadratic Bayes boundaries), K up to 3, and a fitted LDA's (linear) decision."""
    rng = np.random.default_rng(seed)
    means = rng.normal(0, 1.5, (K, 2))
    covs = []
    for _ in range(K):
        A = rng.normal(0, 0.6, (2, 2))
        covs.append(A @ A.T + 0.15 * np.eye(2))
    t = Truth.make(rng.uniform(0.2, 1, K), means, covs)
    ref = grid_error(t, lambda X: np.argmax(_log_joint(t, X), axis=1))
    assert t.bayes_error() == pytest.approx(ref, abs=3e-4)
    X, y = t.sample(60, seed)
    if len(np.unique(y)) == K:
        lda = create("lda").fit(X, y)
        assert error_rate(t, lda) == pytest.approx(grid_error(t, lda.predict), abs=3e-4)
        assert error_rate(t, lda) >= t.bayes_error() - 1e-9  # nothing beats the Bayes classifier


def test_a_mixture_truth_and_its_errors_against_monte_carlo():
    d = load("xor")
    t = d.truth
    assert not t.single and t.model() is None
    X, y = t.sample(300_000, 11)
    mc = np.mean(np.argmax(_log_joint(t, X), axis=1) != y)
    se = np.sqrt(mc * (1 - mc) / len(y))
    assert abs(t.bayes_error() - mc) < 4 * se
    for name, params in (("lda", {}), ("logistic", {"basis": "quadratic"})):
        m = create(name, **params).fit(d.X, d.labels)
        mc = np.mean(m.predict(X) != y)
        assert abs(error_rate(t, m) - mc) < 4 * np.sqrt(mc * (1 - mc) / len(y)) + 1e-4


def test_discriminant_functions_have_true_errors_too():
    """Undecided regions count as errors: one-vs-rest least squares is worse than its k-class form."""
    d = load("shared-vs-own-covariance")
    t = d.truth
    k_class = create("leastsquares").fit(d.X, d.labels)
    ovr = create("leastsquares", scheme="one-vs-rest").fit(d.X, d.labels)
    assert error_rate(t, ovr) > error_rate(t, k_class) > t.bayes_error()
    assert error_rate(t, ovr) == pytest.approx(grid_error(t, ovr.decide, n=1000), abs=5e-4)


def test_samples_have_the_truths_moments_and_distribution():
    t = load("fruit").truth
    X, y = t.sample(20_000, seed=5)
    # class proportions: a two-sided binomial test at the prior
    assert stats.binomtest(int(np.sum(y == 0)), len(y), 0.7).pvalue > 1e-3
    for k, mu in enumerate(([1.0, 1.0], [1.7, 2.5])):
        Xk = X[y == k]
        se = np.sqrt(np.diag(FRUIT_SIGMA) / len(Xk))
        assert np.all(np.abs(Xk.mean(axis=0) - mu) < 4 * se)
        np.testing.assert_allclose(np.cov(Xk.T), FRUIT_SIGMA, atol=0.02)
        # Mahalanobis distances of a 2-D Gaussian are chi-squared with 2 degrees of freedom
        D = Xk - mu
        m2 = np.einsum("ni,ij,nj->n", D, np.linalg.inv(FRUIT_SIGMA), D)
        assert stats.kstest(m2, stats.chi2(2).cdf).pvalue > 1e-3
    X2, y2 = t.sample(20_000, seed=5)
    np.testing.assert_array_equal(X, X2)
    assert not np.array_equal(t.sample(100, seed=6)[0], X[:100])


def test_a_fitted_generative_model_can_generate_and_a_discriminative_one_cannot():
    d = load("circles")
    lda = create("lda").fit(d.X, d.labels)
    ft = fitted_truth(lda)
    np.testing.assert_allclose(ft.covariances_[0], ft.covariances_[1])  # LDA believes in one covariance
    X, y = ft.sample(30_000, 1)
    np.testing.assert_allclose([X[y == k].mean(axis=0) for k in (0, 1)], lda.means_, atol=0.05)
    with pytest.raises(ValueError, match="cannot generate"):
        fitted_truth(create("logistic").fit(d.X, d.labels))


def test_learning_curves_show_when_each_model_wins():
    """Shared-covariance Gaussians: LDA is closer to the Bayes error with few points; a truth whose
    covariances differ breaks LDA's assumption and logistic regression ends lower (Bishop 4.3,
    the generative/discriminative trade-off)."""
    t = load("fruit").truth
    r = learning_curve(t, [("lda", {}), ("logistic", {})], [8, 16], seeds=30)
    lda, logistic = (np.array(r["models"][m]["mean"]) for m in ("lda", "logistic"))
    assert np.all(lda < logistic) and np.all(lda > r["bayes_error"])
    assert np.array(r["models"]["lda"]["errors"]).shape == (2, 30)
    other = Truth.make([0.5, 0.5], [[0, 0], [2, 0.5]], [[[1, 0], [0, 1]], [[0.1, 0], [0, 3]]])
    r = learning_curve(other, [("lda", {}), ("logistic", {})], [1000], seeds=3)
    assert r["models"]["logistic"]["mean"][0] < r["models"]["lda"]["mean"][0] - 0.01
    np.testing.assert_array_equal(class_counts(t, 4), [6, 2])  # 8 points by the priors, at least 2 a class
    with pytest.raises(ValueError):
        learning_curve(t, [("lda", {})], [0], 3)


def test_a_learning_curves_training_sets_come_in_a_random_order_and_the_perceptron_learns():
    """Each training set held its points class by class: the perceptron, which cycles through the points in file
    order, ended every pass on the peaches and called almost everything a peach, so its true error grew from 0.15
    at 16 points a class to 0.6 at 1,000 (a student would read that more data hurts it). The set is the same
    points in a random order (as an i.i.d. sample comes): its error at 1,000 a class is below always answering
    "apple" (the peaches' prior, 0.3) and below its error at 4 a class."""
    from probviz.models.learning import training_set

    t = load("fruit").truth
    X, y = training_set(t, 1000, 0)
    ordered_X, ordered_y = t.sample_counts(class_counts(t, 1000), seed=int(np.random.SeedSequence([0, 1000])
                                                                              .generate_state(1)[0]))
    order = np.lexsort((X[:, 1], X[:, 0], y))
    again = np.lexsort((ordered_X[:, 1], ordered_X[:, 0], ordered_y))
    np.testing.assert_array_equal(X[order], ordered_X[again])  # the same points, and labels
    np.testing.assert_array_equal(y[order], ordered_y[again])
    assert np.count_nonzero(np.diff(y)) > 0.3 * len(y)  # mixed: the class changes at a third of the steps at least
    X2, y2 = training_set(t, 1000, 0)
    np.testing.assert_array_equal(X2, X)  # the same set for every model and run
    r = learning_curve(t, [("perceptron", {})], [4, 1000], seeds=3)
    small, large = r["models"]["perceptron"]["mean"]
    assert large < min(0.2, small), (small, large)


def test_a_truth_survives_a_session_and_bad_ones_are_refused():
    for name in ("fruit", "xor"):
        s = session(name)
        back = from_json(to_json(s)).dataset.truth
        assert back.to_json() == s.dataset.truth.to_json()
    doc = json.loads(to_json(session("fruit")))
    for bad, message in (({"priors": [1, 1], "means": [[0, 0], [1, 1]], "covariances": [[[1, 2], [2, 1]]] * 2},
                          "positive definite"),
                         ({"priors": [1], "means": [[0, 0]], "covariances": [[[1, 0], [0, 1]]]}, "1 classes"),
                         ({"priors": [1, "a"], "means": [[0, 0], [1, 1]], "covariances": [[[1, 0], [0, 1]]] * 2},
                          "numbers only"),
                         ({"priors": [1, 1]}, "means and covariances")):
        doc["truth"] = bad
        with pytest.raises(DataError, match=message):
            from_json(json.dumps(doc), "t.probviz")


def test_truth_scene_draws_the_bayes_boundary():
    t = load("shared-vs-own-covariance").truth
    sc = truth_scene(t, (-5, 5, -6, 4))
    for b in sc.boundaries:  # on the boundary the two classes' p(x|C)p(C) are equal
        pts = b.xy[np.all(np.isfinite(b.xy), axis=1)]
        A = _log_joint(t, pts)
        np.testing.assert_allclose(A[:, b.k], A[:, b.j], atol=1e-6)
    assert len(sc.ellipses) == 3
    x = truth_scene(load("xor").truth, (-3, 3, -3, 3))
    assert len(x.ellipses) == 4 and x.boundaries
    pts = x.boundaries[0].xy[np.all(np.isfinite(x.boundaries[0].xy), axis=1)]
    A = _log_joint(load("xor").truth, pts)
    assert np.max(np.abs(A[:, 0] - A[:, 1])) < 0.05  # traced on a grid: close, not exact


def test_cross_section_follows_the_posterior():
    d = load("fruit")
    m = create("lda").fit(d.X, d.labels)
    sec = cross_section(m, (0, 0), (2.5, 3.5), n=301, theta=0.8)
    X = np.array([0, 0]) + np.outer(sec.t / sec.t[-1], [2.5, 3.5])
    np.testing.assert_allclose(sec.posterior, m.predict_proba(X), atol=1e-12)
    np.testing.assert_allclose(sec.joint, np.exp(m.log_joint(X)), rtol=1e-10)
    assert len(sec.reject) == 1
    t0, t1 = sec.reject[0]
    inside = (sec.t >= t0) & (sec.t <= t1)
    assert np.all(sec.posterior[inside].max(axis=1) < 0.8) and np.all(sec.posterior[~inside].max(axis=1) >= 0.8)
    assert len(sec.changes) == 2  # into and out of the reject band
    plain = cross_section(m, (0, 0), (2.5, 3.5), n=301)
    (c,) = plain.changes  # the boundary: where p(apple|x) = 1/2
    p = m.predict_proba([np.array([2.5, 3.5]) * c / sec.t[-1]])[0]
    assert abs(p[0] - 0.5) < 0.02
    with pytest.raises(ValueError, match="two different"):
        cross_section(m, (1, 1), (1, 1))
    t = d.truth
    with_truth = cross_section(m, (0, 0), (2.5, 3.5), n=301, truth=t)
    np.testing.assert_allclose(with_truth.true_posterior, np.exp(_log_joint(t, X) - logsumexp(_log_joint(t, X), axis=1,
                                                                                              keepdims=True)), atol=1e-12)


def test_learning_curve_reports_progress_cancels_and_checks_its_arguments():
    t = load("fruit").truth
    calls = []
    r = learning_curve(t, [("lda", {}), ("lda", {"reg_covar": 0.5})], [1, 3], seeds=2,
                       progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert list(r["models"]) == ["lda()", "lda(reg_covar=0.5)"]  # the same model twice: told apart by parameters
    for m in r["models"].values():
        E = np.array(m["errors"])
        np.testing.assert_allclose(m["sd"], E.std(axis=1))
        np.testing.assert_allclose(m["mean"], E.mean(axis=1))
        assert m["name"] == "lda"
    assert r["sizes"] == [1, 3] and r["seeds"] == 2 and r["bayes_error"] == pytest.approx(t.bayes_error())
    # a cancelled run returns nothing, at once
    calls.clear()
    assert learning_curve(t, [("lda", {})], [4, 8], seeds=5, progress=lambda d, n: calls.append(d) or False) is None
    assert calls == [1]
    for sizes, seeds in (([0], 2), ([100_001], 2), ([], 2), ([4], 0), ([4], 201)):
        with pytest.raises(ValueError):
            learning_curve(t, [("lda", {})], sizes, seeds)
    with pytest.raises(ValueError, match="unknown model"):
        learning_curve(t, [("svm", {})], [4], 1)
    # the same (size, seed) gives every model the same training set
    from probviz.models.learning import training_set

    a, b = training_set(t, 8, 3), training_set(t, 8, 3)
    np.testing.assert_array_equal(a[0], b[0])
    assert not np.array_equal(training_set(t, 8, 4)[0], a[0])
    np.testing.assert_array_equal(np.bincount(a[1]), class_counts(t, 8))


def test_a_truth_refuses_what_is_not_one():
    ok = dict(priors=[1, 1], means=[[0, 0], [1, 1]], covariances=[np.eye(2), np.eye(2)])
    Truth.make(**ok)
    for change, message in ((dict(means=[[0, 0, 0], [1, 1, 1]]), "per class"),
                            (dict(covariances=[np.eye(2)]), "per class"),
                            (dict(priors=[1, 0]), "positive"),
                            (dict(means=[[0, np.nan], [1, 1]]), "finite"),
                            (dict(covariances=[[[1, 0.5], [0.4, 1]], np.eye(2)]), "symmetric"),
                            (dict(covariances=[[[1, 1], [1, 1]], np.eye(2)]), "positive definite")):
        with pytest.raises(ValueError, match=message):
            Truth.make(**{**ok, **change})
    t = Truth.make([2, 6], [[0, 0], [1, 1]], [np.eye(2), 2 * np.eye(2)])
    np.testing.assert_allclose(t.priors, [0.25, 0.75])
    np.testing.assert_allclose(t.weights[0], [1.0])
    for bad, message in (({"priors": [1]}, "means and covariances"), ({}, "priors"),
                         ({"priors": [1], "components": [[{"weight": 1, "mean": [0, 0]}]]}, "weight, mean, covariance"),
                         ({"priors": [1], "components": [[]]}, "1 to 8 components"),
                         ({"priors": [1], "components": [[{"weight": -1, "mean": [0, 0], "covariance": np.eye(2)}]]},
                          "weights must be positive")):
        with pytest.raises(ValueError, match=message):
            Truth.from_json(bad)
    x = load("xor").truth
    back = Truth.from_json(json.loads(json.dumps(x.to_json())))
    for a, b in zip(back.means, x.means):
        np.testing.assert_array_equal(a, b)
    m, S = x.mean_and_covariance()
    X, y = x.sample(200_000, 2)
    for k in range(2):
        np.testing.assert_allclose(X[y == k].mean(axis=0), m[k], atol=0.02)
        np.testing.assert_allclose(np.cov(X[y == k].T), S[k], atol=0.03)
    with pytest.raises(ValueError, match="from 0 to"):
        x.sample(-1)
    Xc, yc = x.sample_counts([3, 5], seed=1)
    np.testing.assert_array_equal(yc, [0, 0, 0, 1, 1, 1, 1, 1])


def test_the_truths_handles_and_dragging_them():
    """Handles: the mean and the ends of the 2-sigma ellipse's axes. Dragging an axis end sets that axis's
    direction and length (the other keeps its length, at right angles); dragging the mean moves it."""
    from probviz.models.truth import handles, with_handle

    S = np.array([[2.0, 0.6], [0.6, 1.0]])
    t = Truth.make([1, 2], [[0.0, 0.0], [3.0, 1.0]], [S, np.eye(2)])
    H = handles(t)
    lam, V = np.linalg.eigh(S)
    np.testing.assert_allclose(H[0, 0], [0, 0])
    for which, i in ((1, 1), (2, 0)):  # major, minor
        d = H[0, which] - H[0, 0]
        assert np.linalg.norm(d) == pytest.approx(2 * np.sqrt(lam[i]))
        assert abs(d @ V[:, i]) == pytest.approx(np.linalg.norm(d))
    moved = with_handle(t, 1, 0, (4.0, -1.0))
    np.testing.assert_allclose(moved.means_[1], [4.0, -1.0])
    np.testing.assert_allclose(moved.covariances_, t.covariances_)
    np.testing.assert_allclose(moved.priors, t.priors)
    minor = np.linalg.norm(H[0, 2] - H[0, 0])
    turned = with_handle(t, 0, 1, (0.0, 3.0))  # the major axis now vertical, 2 sigma = 3
    lam2, V2 = np.linalg.eigh(turned.covariances_[0])
    np.testing.assert_allclose(np.sqrt(lam2) * 2, sorted([minor, 3.0]))
    np.testing.assert_allclose(abs(V2[:, np.argmax(lam2)] @ [0, 1]), 1.0)
    np.testing.assert_allclose(turned.means_[0], [0, 0])
    np.testing.assert_allclose(turned.covariances_[1], np.eye(2))
    squeezed = with_handle(t, 0, 2, (0.5, 0.0))  # the minor axis end dragged: that axis becomes x, length 0.5
    w, U = np.linalg.eigh(squeezed.covariances_[0])
    np.testing.assert_allclose(sorted(2 * np.sqrt(w)), sorted([0.5, np.linalg.norm(H[0, 1] - H[0, 0])]))
    assert with_handle(t, 0, 1, (0.0, 0.0)) is t  # an axis of no length: nothing changes


def test_a_mixtures_error_integral_costs_one_full_evaluation_per_line(monkeypatch):
    """A truth of 10 classes x 8 components took 522 s in `probviz fit`: Brent's method refined each
    cut with the full log-joint (every class, every component, logsumexp's overhead) per iterate, about
    30 per line. Bounded now: one full evaluation per line (the decision there); the cuts use the
    components' slices on the line. The value still matches the grid (as above)."""
    rng = np.random.default_rng(0)
    comps = [[(1.0 + rng.random(), rng.normal(size=2) * 3, np.diag(0.3 + rng.random(2))) for _ in range(4)]
             for _ in range(3)]
    t = Truth.mixture(np.ones(3) / 3, comps)
    calls = {"line": 0, "log_joint": 0}
    for name in calls:
        real = getattr(Truth, "_line" if name == "line" else name)

        def counted(self, *args, real=real, name=name):
            calls[name] += 1
            return real(self, *args)
        monkeypatch.setattr(Truth, "_line" if name == "line" else name, counted)
    value = t.bayes_error()
    assert calls["log_joint"] <= calls["line"], calls
    monkeypatch.undo()
    assert value == pytest.approx(grid_error(t, lambda X: np.argmax(t.log_joint(X), axis=1)), abs=3e-4)


def _random_mixture(seed, K, C, offset=0.0, scale=1.0):
    rng = np.random.default_rng(seed)
    comps = []
    for _ in range(K):
        cls = []
        for _ in range(C):
            A = rng.normal(size=(2, 2))
            cls.append((rng.uniform(0.5, 2), offset + scale * rng.uniform(-6, 6, 2),
                        scale ** 2 * (A @ A.T + 0.2 * np.eye(2))))
        comps.append(cls)
    return Truth.mixture(rng.uniform(0.5, 2, K), comps)


@settings(max_examples=25 if not MUTATION else 5, deadline=None)
@given(seed=st.integers(0, 10_000), K=st.integers(2, 6), C=st.integers(2, 5),
       offset=st.sampled_from([0.0, 1e6, -3e4]), scale=st.sampled_from([1.0, 1e-3, 1e3]),
       a=st.floats(-1, 1))
def test_a_mixtures_bayes_cuts_are_the_roots_brents_method_finds(seed, K, C, offset, scale, a):
    """Every cut on a line x1 = a is where two classes' joint densities cross: checked by scipy's brentq
    on the same bracket, with ln p(x, C_k) written out independently (each Gaussian's slice, logsumexp)."""
    from scipy.optimize import brentq

    from probviz.models.truth import _bayes_cuts

    t = _random_mixture(seed, K, C, offset, scale)
    x1 = offset + scale * 6 * a

    def joint(x2):
        X = np.array([[x1, x2]])
        return np.array([logsumexp([np.log(p * w) + _gauss_logpdf(X, m, S)[0]
                                    for w, m, S in zip(ws, ms, Ss)])
                         for p, ws, ms, Ss in zip(t.priors, t.weights, t.means, t.covariances)])

    cuts = _bayes_cuts(t, x1)
    for cut in cuts:
        # a cut is where two classes' joint densities cross (the best two, unless the grid that brackets
        # the cuts stepped over a sliver of a third class narrower than its spacing: a known limit)
        reach = 1e-9 * max(1.0, abs(cut)) + 1e-9 * scale  # the cut's own tolerance, and a little more
        below, above = joint(cut - reach), joint(cut + reach)
        crossing = [(k, j) for k in range(t.K) for j in range(k) if (below[k] - below[j]) * (above[k] - above[j]) <= 0]
        assert crossing, (cut, below, above)
        k, j = crossing[0]
        ref = brentq(lambda x2: float(np.diff(joint(x2)[[k, j]])[0]), cut - reach, cut + reach, xtol=1e-15)
        assert abs(cut - ref) <= 1e-9 * max(1.0, abs(ref)) + 1e-9 * scale, (cut, ref)


def test_a_mixtures_error_integral_stops_when_asked_and_nothing_is_remembered():
    """A 10 x 8 mixture's Bayes error takes seconds: the worker must be able to give it up at once when a
    newer frame waits (the window's frames would otherwise stall behind it)."""
    import time

    from probviz import analysis
    from probviz.models.truth import Cancelled

    t = _random_mixture(1, 10, 8)
    asked = []

    def cancelled():
        asked.append(time.perf_counter())
        return len(asked) > 3
    start = time.perf_counter()
    with pytest.raises(Cancelled):
        t.bayes_error(cancelled)
    assert len(asked) == 4 and time.perf_counter() - start < 2.0
    analysis.compute_errors(t, [], cancelled=lambda: True)
    assert analysis.known_errors(t, []) == ({}, True)
    # asked after the first line: given up inside the integral, still nothing remembered
    calls = []
    analysis.compute_errors(t, [], cancelled=lambda: calls.append(1) or len(calls) > 2)
    assert analysis.known_errors(t, []) == ({}, True) and len(calls) == 3


@settings(max_examples=examples(30) if not MUTATION else 6, deadline=None)
@given(seed=st.integers(0, 10_000), per_class=st.integers(2, 4), model=st.sampled_from(["lda", "logistic"]),
       offset=st.sampled_from([0.0, 1e6, -3e4]), scale=st.sampled_from([1.0, 1e-3, 1e3]),
       swap=st.booleans())
def test_a_two_class_linear_rules_error_in_closed_form_is_the_line_integral(seed, per_class, model, offset, scale, swap):
    """Two Gaussian classes and a linear rule: the error is Phi of each class's projected mean over its
    projected spread (the fast path the learning curves take); the line integral (quad over x1 of each
    line's wrong mass, the path every other rule takes) must agree, on 2-4 points a class, far off the
    origin and at any scale, the model's classes in either order of the truth's."""
    from probviz.models.truth import _integrate_errors, model_cuts

    rng = np.random.default_rng(seed)
    covs = []
    for _ in range(2):
        A = rng.normal(0, 1, (2, 2))
        covs.append((A @ A.T + 0.2 * np.eye(2)) * scale ** 2)
    t = Truth.make(rng.uniform(0.2, 1, 2), offset + scale * rng.normal(0, 1.5, (2, 2)), covs)
    X, y = t.sample_counts([per_class, per_class], seed)
    m = create(model).fit(X, y)
    idx = np.array([1, 0]) if swap else np.arange(2)
    closed = error_rate(t, m, idx)
    line = _integrate_errors(t, lambda a: model_cuts(m, a), lambda Q: idx[np.argmax(m.decision_function(Q), axis=1)])
    assert closed == pytest.approx(line, abs=1e-7)


def test_the_closed_form_is_taken_only_where_it_holds(monkeypatch):
    """Two classes and a linear rule skip the integral; a quadratic rule, three classes or a mixture do not."""
    import probviz.models.truth as truth_module

    calls = []
    real = truth_module._integrate_errors
    monkeypatch.setattr(truth_module, "_integrate_errors", lambda *a, **k: calls.append(1) or real(*a, **k))
    fruit = load("fruit")
    error_rate(fruit.truth, create("lda").fit(fruit.X, fruit.labels))
    assert calls == []
    error_rate(fruit.truth, create("qda").fit(fruit.X, fruit.labels))
    assert calls == [1]
    three = Truth.make([1, 1, 1], [[0, 0], [3, 0], [0, 3]], [np.eye(2)] * 3)
    X, y = three.sample(30, 0)
    error_rate(three, create("lda").fit(X, y))
    assert calls == [1, 1]


def test_a_mixtures_cuts_converge_like_newtons_method(monkeypatch):
    """Refining a bracket a 1024-point grid left takes a handful of steps (quadratic convergence from a
    1/1000 bracket); a wrong slope or a lost safeguard would fall back to ~35 halvings."""
    import probviz.models.truth as truth_module

    t = _random_mixture(3, 4, 3)
    calls = []
    real = truth_module._pair_gap
    monkeypatch.setattr(truth_module, "_pair_gap", lambda *a: calls.append(1) or real(*a))
    for a in np.linspace(-4, 4, 9):
        calls.clear()
        cuts = truth_module._bayes_cuts(t, a)
        if len(cuts):
            assert len(calls) <= 8, (a, len(cuts), len(calls))


COEF = st.one_of(st.just(0.0), st.builds(lambda m, e, sign: sign * m * 10.0 ** e, st.floats(0.1, 1),
                                         st.integers(-6, 6), st.sampled_from([-1, 1])))


@settings(max_examples=examples(300) if not MUTATION else 60, deadline=None)
@given(rows=st.lists(st.tuples(COEF, COEF, COEF), min_size=1, max_size=6), linear=st.booleans(),
       tangent=st.booleans())
@example(rows=[(1.0, -2.0, 1.0)], linear=False, tangent=False)  # a double root
@example(rows=[(0.0, 0.0, 3.0), (0.0, 2.0, -1.0)], linear=False, tangent=False)  # no root, then a line's
@example(rows=[(-0.125, -0.828125, 0.0)], linear=False, tangent=True)  # a tangency: numpy 4e-8 apart, here none
def test_many_low_degree_roots_at_once_are_numpys_roots(rows, linear, tangent):
    """The pairwise score differences' roots on a line, found all at once: every root numpy finds
    (companion-matrix eigenvalues, row by row) to 1e-7 relative, and nothing else but a tangency's double
    root, which numpy's eigenvalues may leave 1e-8 complex (a double root never changes the decision)."""
    from probviz.models.truth import _low_degree_roots, _real_roots

    D = np.array(rows, float)
    if tangent and np.all(D[:, 0] != 0):  # b^2 = 4ac up to rounding: a tangency
        D[:, 2] = D[:, 1] ** 2 / (4 * D[:, 0])
    if linear:
        D = D[:, 1:]
    everything = _low_degree_roots(D)
    assert len(everything) == sum(len(_low_degree_roots(r[None])) for r in D)  # rows are independent
    for r in D:
        mine, ref = np.sort(_low_degree_roots(r[None])), np.sort(np.asarray(_real_roots(r), float))
        assert len(mine) <= len(r) - 1
        pair = len(ref) == 2 and abs(ref[1] - ref[0]) <= 1e-6 * max(1.0, abs(ref[0]))
        if pair and not len(mine):  # a tangency numpy's eigenvalues split by 1e-8 and rounding made complex here
            continue
        for x in ref:
            assert np.min(np.abs(mine - x), initial=np.inf) <= 1e-7 * max(1.0, abs(x)), (r, mine, ref)
        if len(mine) > len(ref):  # a double root only
            assert len(mine) == 2 and mine[0] == pytest.approx(mine[1], rel=1e-6, abs=1e-9), (r, mine, ref)


@pytest.mark.parametrize("offset, scale", [(0.0, 1.0), (1e6, 1.0), (0.0, 1e-6), (0.0, 1e6), (-3e5, 1e-3)])
def test_with_axis_puts_the_end_and_the_perpendicular_on_the_two_sigma_ellipse(offset, scale):
    """with_axis: the dragged end and the point ``other`` from the mean at right angles both lie on the new
    2-sigma ellipse ((x - mu)^T Sigma^-1 (x - mu) = 4), and det Sigma = (L other / 4)^2; the other class and
    the means stay. Checked with scipy's Mahalanobis distance, at offsets and scales."""
    from scipy.spatial.distance import mahalanobis

    from probviz.models.truth import Truth, with_axis

    means = np.array([[offset, offset], [offset + 2 * scale, offset + scale]])
    covs = np.array([np.diag([1.0, 0.5]), [[0.6, 0.2], [0.2, 0.4]]]) * scale ** 2
    t = Truth.make([0.4, 0.6], means, covs)
    end = means[1] + scale * np.array([-1.5, 2.0])
    other = 0.7 * scale
    new = with_axis(t, 1, end, other)
    S = new.covariances_[1]
    VI = np.linalg.inv(S)
    u = (end - means[1]) / np.hypot(*(end - means[1]))
    side = means[1] + other * np.array([-u[1], u[0]])
    rel = 1e-9 + 8 * 2.0 ** -52 * abs(offset) / scale  # the points themselves are rounded at the offset's size
    assert mahalanobis(end, means[1], VI) == pytest.approx(2.0, rel=rel)
    assert mahalanobis(side, means[1], VI) == pytest.approx(2.0, rel=rel)
    assert np.linalg.det(S) == pytest.approx((np.hypot(*(end - means[1])) * other / 4) ** 2, rel=1e-9)
    np.testing.assert_array_equal(new.means_, means)
    np.testing.assert_array_equal(new.covariances_[0], t.covariances_[0])
    assert with_axis(t, 1, means[1], other) is t  # an end on the mean: nothing to turn


@pytest.mark.parametrize("name, K", [("logistic", 2), ("softmax", 3), ("logistic", 3)])
def test_weights_of_zero_decide_nothing_so_their_true_error_is_one(name, K):
    """At w = 0 every class has p(C_k|x) = 1/K everywhere: nothing is decided, and an undecided point is an
    error, as the training summary counts it (accuracy 0). The true error is then 1, not 1 - p(C_1) (every tie
    given to the first class: a new user saw "true error 0.3" beside "accuracy 0.0%"), and the whole mass is in
    the confusion's "no decision" column. Two classes take the closed form, three the integral."""
    from probviz.decision import confusion_true, loss_of_confusion
    from probviz.models import REGISTRY

    rng = np.random.default_rng(K)
    t = Truth.make(rng.uniform(0.2, 1, K), rng.normal(0, 1.5, (K, 2)), [np.eye(2) * 0.5] * K)
    cls = type(create(name))
    rows = 1 if (name == "logistic" and K == 2) else K
    model = cls.from_weights(np.zeros((rows, 3)), (np.zeros(2), np.ones(2)), np.arange(K), REGISTRY[name].defaults())
    assert error_rate(t, model) == pytest.approx(1.0, abs=1e-9)
    C = confusion_true(t, model)
    np.testing.assert_allclose(C[:, :K], 0.0, atol=1e-9)
    np.testing.assert_allclose(C[:, K], t.priors, atol=1e-7)
    assert loss_of_confusion(C, np.ones((K, K)) - np.eye(K)) == pytest.approx(1.0, abs=1e-7)  # 0-1: each an error
    X, y = t.sample(40, 1)
    summary, wrong = model.evaluate(X, y)
    assert summary["accuracy"] == 0.0 and wrong.all()
