"""The decision stage (Bishop 1.5): loss matrices, the loss decision against a brute-force argmin, the
confusion, expected loss and Bayes risk under a truth against closed forms (two Gaussians sharing a
covariance, a linear rule: every entry is Phi of a signed distance), a grid sum and Monte Carlo; the Brier
score under the truth against Monte Carlo."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from hypo import MUTATION, examples
from probviz import decision as D
from probviz.data.examples import load
from probviz.models import create
from probviz.models.truth import Truth, error_rate

SIGMA = np.array([[0.2, 0.1], [0.1, 0.3]])


# --- loss matrices ---------------------------------------------------------------------------------

def test_a_loss_matrix_is_read_row_by_row():
    np.testing.assert_array_equal(D.parse_loss("0,1;5,0", 2), [[0, 1], [5, 0]])
    np.testing.assert_array_equal(D.parse_loss(" 0, 1.5 ,2; 3,0,4 ;1e3,0,0", 3), [[0, 1.5, 2], [3, 0, 4], [1000, 0, 0]])


@pytest.mark.parametrize("text,K,message", [
    ("0,1;5,0", 3, "the loss matrix needs 3 rows of 3 numbers (one row per true class), got 2 rows of 2, 2"),
    ("0,1;5", 2, "the loss matrix needs 2 rows of 2 numbers (one row per true class), got 2 rows of 2, 1"),
    ("0,1,2;5,0,1", 2, "needs 2 rows of 2 numbers"),
    ("0,x;5,0", 2, "the loss matrix must be numbers, commas between them and semicolons between rows"),
    ("0,1;;5,0", 2, "the loss matrix must be numbers"),
    ("", 2, "the loss matrix must be numbers"),
    ("0,nan;5,0", 2, "the loss matrix's numbers must be finite"),
    ("0,inf;5,0", 2, "the loss matrix's numbers must be finite"),
    ("0,-1;5,0", 2, "the loss matrix's numbers must not be negative"),
])
def test_a_bad_loss_matrix_says_what_is_wrong(text, K, message):
    with pytest.raises(ValueError) as e:
        D.parse_loss(text, K)
    assert message in str(e.value) and "\n" not in str(e.value)


def _brute_decide(P, L, reject_cost=None):
    """argmin_j sum_k L_kj p_k by loops over j and k (elementwise over the points; the first of equal
    minima), -1 above the rejection cost."""
    P = np.asarray(P, float)
    best, best_j = np.full(len(P), np.inf), np.zeros(len(P), int)
    for j in range(L.shape[1]):
        r = np.zeros(len(P))
        for k in range(P.shape[1]):
            r = r + L[k][j] * P[:, k]
        best_j = np.where(r < best, j, best_j)
        best = np.minimum(r, best)
    return np.where(best > reject_cost, -1, best_j) if reject_cost is not None else best_j


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32 - 1), st.sampled_from([None, 0.05, 0.3, 0.9]))
def test_the_loss_decision_is_the_brute_force_argmin(K, seed, reject_cost):
    """Eq. 1.81 and exercise 1.24 for K up to 10, posteriors near 0 and 1, integer losses (ties)."""
    rng = np.random.default_rng(seed)
    A = rng.normal(0, rng.choice([0.1, 3.0, 30.0]), (50, K))
    P = np.exp(A - A.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    L = rng.integers(0, 4, (K, K)).astype(float) if seed % 2 else rng.uniform(0, 10, (K, K))
    np.testing.assert_array_equal(D.loss_decide(P, L, reject_cost), _brute_decide(P, L, reject_cost))


@pytest.mark.parametrize("theta", [0.0, 0.3, 0.5, 0.62, 0.9, 0.999])
def test_the_zero_one_loss_with_cost_one_minus_theta_is_the_theta_reject_rule(theta):
    """With the 0-1 loss the expected loss of choosing C_j is 1 - p(C_j|x): rejecting when the least of
    them exceeds lambda = 1 - theta rejects when max_k p(C_k|x) < theta (Bishop 1.5.3)."""
    rng = np.random.default_rng(3)
    for K in (2, 3, 7):
        A = rng.normal(0, 2, (4000, K))
        P = np.exp(A) / np.exp(A).sum(axis=1, keepdims=True)
        P = P[np.abs(P.max(axis=1) - theta) > 1e-9]  # away from the threshold's rounding
        theta_rule = np.where(P.max(axis=1) < theta, -1, np.argmax(P, axis=1))
        np.testing.assert_array_equal(D.loss_decide(P, D.zero_one_loss(K), 1 - theta), theta_rule)
        if 0 < theta:
            assert np.any(theta_rule == -1) or theta <= 1 / K


def test_a_loss_equal_to_the_rejection_cost_is_not_rejected():
    """Exercise 1.24 rejects when the least expected loss exceeds lambda; at equality the class is chosen, as
    the theta rule keeps max_k p = theta (binary fractions: no rounding)."""
    P = np.array([[0.5, 0.5], [0.75, 0.25], [0.25, 0.75], [0.375, 0.625]])
    np.testing.assert_array_equal(D.loss_decide(P, D.zero_one_loss(2), 0.5), [0, 0, 1, 1])
    np.testing.assert_array_equal(D.loss_decide(P, D.zero_one_loss(2), 0.25), [-1, 0, 1, -1])
    np.testing.assert_array_equal(D.loss_decide(P, [[0, 2], [2, 0]], 0.75), [-1, 0, 1, 1])  # losses 1, .5, .5, .75
    np.testing.assert_array_equal(D.loss_decide(P, [[0, 2], [2, 0]], 0.5), [-1, 0, 1, -1])


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(1, 10), st.integers(0, 2**32 - 1), st.sampled_from([None, 0.4]))
def test_counts_and_loss_per_point_against_a_plain_loop(K, seed, reject_cost):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    t = rng.integers(0, K, n)
    d = rng.integers(-1 if reject_cost is not None else 0, K, n)
    L = rng.uniform(0, 5, (K, K))
    C, undecided = D.confusion_counts(d, t, K)
    Cref, Uref, total = np.zeros((K, K), int), np.zeros(K, int), 0.0
    for ti, di in zip(t, d):
        if di < 0:
            Uref[ti] += 1
            total += reject_cost
        else:
            Cref[ti][di] += 1
            total += L[ti][di]
    np.testing.assert_array_equal(C, Cref)
    np.testing.assert_array_equal(undecided, Uref)
    assert D.expected_loss(d, t, L, reject_cost) == pytest.approx(total / n, rel=1e-12)


# --- under the truth ----------------------------------------------------------------------------

def _pair(p1, scale=1.0, offset=0.0, m1=(1.0, 1.0), m2=(1.7, 2.5)):
    S = SIGMA * scale ** 2
    return Truth.make([p1, 1 - p1], [np.array(m1) * scale + offset, np.array(m2) * scale + offset], [S, S])


def _bayes_pair_confusion(p1, L, m1=(1.0, 1.0), m2=(1.7, 2.5)):
    """Two Gaussians sharing S, the Bayes rule with the loss L: choose C_2 where the log-odds
    a(x) = ln p(x, C_2)/p(x, C_1) exceeds c = ln((L_12 - L_11)/(L_21 - L_22)); under C_1 a ~ N(-D^2/2 + pi, D^2),
    under C_2 a ~ N(D^2/2 + pi, D^2), pi = ln(p_2/p_1), D the Mahalanobis distance of the means (Bishop 4.2.1)."""
    d = np.subtract(m2, m1)
    Dm = np.sqrt(d @ np.linalg.solve(SIGMA, d))
    pi = np.log((1 - p1) / p1)
    with np.errstate(divide="ignore"):  # a free mistake: c infinite, C_2 never (or always) chosen
        c = np.log(np.float64(L[0][1] - L[0][0])) - np.log(np.float64(L[1][0] - L[1][1]))
    c12 = p1 * stats.norm.cdf((-Dm * Dm / 2 + pi - c) / Dm)
    c21 = (1 - p1) * stats.norm.cdf((c - Dm * Dm / 2 - pi) / Dm)
    return np.array([[p1 - c12, c12], [c21, 1 - p1 - c21]])


@pytest.mark.parametrize("p1,scale,offset,L", [(0.7, 1.0, 0.0, [[0, 1], [5, 0]]), (0.5, 1.0, 1e6, [[0, 3], [0.5, 0]]),
                                               (0.3, 1e-6, 0.0, [[1, 2], [7, 0.5]]), (0.6, 1e6, 0.0, [[0, 1], [5, 0]]),
                                               (0.8, 1e-6, 1.0, [[0, 3], [0.5, 0]]),
                                               (0.9, 1.0, -1e6, [[0, 1], [0, 0]])])
def test_the_bayes_confusion_and_risk_with_a_loss_are_the_closed_form(p1, scale, offset, L):
    t = _pair(p1, scale, offset)
    ref = _bayes_pair_confusion(p1, L)
    C = D.bayes_confusion(t, L)
    np.testing.assert_allclose(C[:, :2], ref, rtol=1e-6, atol=1e-9)
    assert C[:, 2] == pytest.approx([0, 0], abs=1e-12)
    assert D.bayes_risk(t, L) == pytest.approx(float(np.sum(np.multiply(L, ref))), rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("scale,offset", [(1.0, 0.0), (1.0, 1e6), (1e-6, 0.0), (1e6, -3e6)])
@pytest.mark.parametrize("L", [None, [[0, 1], [5, 0]], [[0, 0.2], [1, 0]]])
def test_a_fitted_linear_rule_with_a_loss_has_the_closed_form_confusion(scale, offset, L):
    """A fitted LDA's two scores differ by a linear d(x) = w^T x + b; with the loss L it chooses C_2 where
    d(x) > c (as the Bayes rule above), and under the Gaussian class C_t, d(x) ~ N(w^T mu_t + b, w^T S_t w):
    C[t, 2] = p_t Phi((w^T mu_t + b - c) / sqrt(w^T S_t w)) (Bishop 4.1.1, 2.3)."""
    t = _pair(0.65, scale, offset)
    X, y = t.sample(40, seed=4)
    lda = create("lda").fit(X, y)
    Lm = D.zero_one_loss(2) if L is None else np.array(L, float)
    c = np.log((Lm[0, 1] - Lm[0, 0]) / (Lm[1, 0] - Lm[1, 1]))
    ref = np.zeros((2, 2))
    for k in range(2):  # d at the mean and its gradient from the model's scores (in raw units the offset costs digits)
        mu = t.means_[k]
        at = lda.decision_function(np.array([mu, mu + [scale, 0], mu + [0, scale]]))
        dd = at[:, 1] - at[:, 0]
        m, g = dd[0], (dd[1:] - dd[0]) / scale
        s = np.sqrt(g @ t.covariances_[k] @ g)
        ref[k] = t.priors[k] * np.array([stats.norm.cdf((c - m) / s), stats.norm.cdf((m - c) / s)])
    C = D.confusion_true(t, lda, None, L)
    np.testing.assert_allclose(C[:, :2], ref, rtol=1e-5, atol=1e-9)
    assert D.loss_of_confusion(C, Lm) == pytest.approx(float(np.sum(Lm * ref)), rel=1e-5, abs=1e-9)
    assert D.loss_of_confusion(C, Lm) >= D.bayes_risk(t, Lm) - 1e-9  # nothing beats the Bayes decision


def _grid_confusion(truth, decide, n=900, span=8.0):
    """sum over a fine grid of p(x, C_k) [decide(x) = j] dA: (K, K + 1), the last column for -1 (a written-out
    Riemann sum, its error first order in the step at the decision's jumps)."""
    mu = np.vstack(truth.means)
    sd = np.sqrt(np.max([np.linalg.eigvalsh(S) for S in np.vstack(truth.covariances)]))
    lo, hi = mu.min(axis=0) - span * sd, mu.max(axis=0) + span * sd
    xs, ys = np.linspace(lo[0], hi[0], n), np.linspace(lo[1], hi[1], n)
    gx, gy = np.meshgrid(xs, ys)
    X = np.column_stack([gx.ravel(), gy.ravel()])
    J = np.exp(truth.log_joint(X))
    d = decide(X)
    K = truth.K
    out = np.zeros((K, K + 1))
    for j in range(-1, K):
        out[:, j if j >= 0 else K] = J[d == j].sum(axis=0)
    return out * (xs[1] - xs[0]) * (ys[1] - ys[0])


@pytest.mark.parametrize("example,model,params,L,reject_cost", [
    ("shared-vs-own-covariance", "qda", {}, [[0, 1, 4], [1, 0, 1], [6, 1, 0]], None),
    ("shared-vs-own-covariance", "softmax", {}, None, 0.2),
    ("shared-vs-own-covariance", "logistic", {}, [[0, 2, 2], [1, 0, 9], [1, 1, 0]], 0.5),
    ("fruit", "qda", {}, [[0, 1], [5, 0]], 0.15),
])
def test_a_loss_and_a_reject_cost_under_the_truth_match_a_grid_sum(example, model, params, L, reject_cost):
    """The loss decision's confusion (the rejected mass in its last column) against a brute-force grid sum
    of the brute-force argmin; the Bayes decision's too."""
    d = load(example)
    t = d.truth
    m = create(model, **params).fit(d.X, d.labels)
    Lm = D.zero_one_loss(t.K) if L is None else np.array(L, float)

    def brute(X):
        P = np.zeros((len(X), t.K))
        P[:, m.classes_] = m.predict_proba(X)
        return _brute_decide(P, Lm, reject_cost)

    C = D.confusion_true(t, m, m.classes_, L, reject_cost)
    np.testing.assert_allclose(C, _grid_confusion(t, brute), atol=4e-4)
    np.testing.assert_allclose(C.sum(axis=1), t.priors, atol=1e-8)
    if reject_cost is not None:
        assert C[:, -1].sum() > 1e-3  # the option is exercised
    Cb = D.bayes_confusion(t, L, reject_cost)
    np.testing.assert_allclose(Cb, _grid_confusion(t, lambda X: _brute_decide(t.posterior(X), Lm, reject_cost)),
                               atol=4e-4)
    assert D.loss_of_confusion(Cb, Lm, reject_cost) <= D.loss_of_confusion(C, Lm, reject_cost) + 1e-9


@pytest.mark.parametrize("example,model,params", [
    ("fruit", "lda", {}), ("fruit", "qda", {}), ("xor", "logistic", {"basis": "quadratic"}),
    ("shared-vs-own-covariance", "nb", {}), ("shared-vs-own-covariance", "leastsquares", {"scheme": "one-vs-rest"}),
    ("three-in-a-line", "softmax", {}),
])
def test_the_error_is_one_minus_the_trace_of_the_zero_one_confusion(example, model, params):
    d = load(example)
    t = d.truth
    if t is None:
        t = Truth.make([1] * len(d.class_names), [d.X[d.labels == k].mean(axis=0) for k in range(len(d.class_names))],
                       [np.cov(d.X[d.labels == k].T) + 0.01 * np.eye(2) for k in range(len(d.class_names))])
    m = create(model, **params).fit(d.X, d.labels)
    C = D.confusion_true(t, m, m.classes_)
    assert 1 - np.trace(C) == pytest.approx(error_rate(t, m, m.classes_), abs=2e-8)
    np.testing.assert_allclose(C.sum(axis=1), t.priors, atol=1e-8)
    assert D.bayes_risk(t) == pytest.approx(t.bayes_error(), abs=2e-8)


def test_a_mixture_truths_loss_and_bayes_risk_against_monte_carlo():
    d = load("xor")
    t = d.truth
    L = np.array([[0.0, 1.0], [4.0, 0.0]])
    m = create("logistic", basis="quadratic").fit(d.X, d.labels)
    X, y = t.sample(400_000, 5)
    for got, decided in ((D.loss_of_confusion(D.confusion_true(t, m, m.classes_, L), L),
                          _brute_decide(m.predict_proba(X[:100_000]), L)),
                         (D.bayes_risk(t, L), _brute_decide(t.posterior(X[:100_000]), L))):
        losses = L[y[:100_000], decided]
        se = losses.std() / np.sqrt(len(losses))
        assert abs(got - losses.mean()) < 4 * se + 1e-5


@pytest.mark.parametrize("example,model,params", [("fruit", "lda", {}), ("xor", "logistic", {"basis": "quadratic"}),
                                                  ("shared-vs-own-covariance", "probit", {})])
def test_the_brier_score_under_the_truth_against_monte_carlo(example, model, params):
    d = load(example)
    t = d.truth
    m = create(model, **params).fit(d.X, d.labels)
    X, y = t.sample(400_000, 9)
    P = m.predict_proba(X)
    P[np.arange(len(y)), y] -= 1.0
    scores = (P ** 2).sum(axis=1)
    se = scores.std() / np.sqrt(len(y))
    assert abs(D.brier_true(t, m, m.classes_) - scores.mean()) < 4 * se


def test_the_brier_score_of_a_known_posterior_is_exact():
    """A model whose posterior is constant, p = (a, 1 - a): the Brier score is p_1 ((1-a)^2 + (1-a)^2) +
    p_2 (a^2 + a^2), whatever the quadrature."""
    t = _pair(0.7)
    X = np.array([[0.0, 0], [1, 1], [0.5, 0.5], [1, 0], [0, 1]])  # both classes' means (0.5, 0.5)
    m = create("lda").fit(X, np.array([0, 0, 0, 1, 1]))
    a = 0.6  # the LDA's prior of the first class; the posterior is the prior everywhere
    np.testing.assert_allclose(m.predict_proba(np.random.default_rng(0).normal(0, 5, (20, 2)))[:, 0], a)
    assert D.brier_true(t, m) == pytest.approx(0.7 * 2 * (1 - a) ** 2 + 0.3 * 2 * a ** 2, rel=1e-12)


def test_a_discriminant_function_cannot_weigh_losses():
    d = load("fruit")
    m = create("fisher").fit(d.X, d.labels)
    with pytest.raises(ValueError, match="gives no p"):
        D.fit_report(m, d.X, d.labels, 2, d.truth, np.array([[0, 1], [5, 0.0]]))
    r = D.fit_report(m, d.X, d.labels, 2, d.truth, np.array([[0, 2], [2, 0.0]]))  # the 0-1 loss, scaled: argmax
    assert r["brier_true"] is None and np.sum(r["confusion"]) == len(d.X)


@pytest.mark.skipif(MUTATION, reason="slow")
def test_five_classes_with_a_loss():
    rng = np.random.default_rng(2)
    K = 5
    t = Truth.make(rng.uniform(0.5, 1, K), rng.normal(0, 4, (K, 2)), [np.eye(2) * v for v in rng.uniform(0.3, 1, K)])
    X, y = t.sample(300, 1)
    m = create("qda").fit(X, y)
    L = rng.uniform(0, 3, (K, K))
    np.fill_diagonal(L, 0)
    C = D.confusion_true(t, m, m.classes_, L)
    np.testing.assert_allclose(C.sum(axis=1), t.priors, atol=1e-8)
    Xs, ys = t.sample(200_000, 3)
    P = np.zeros((len(Xs), K))
    P[:, m.classes_] = m.predict_proba(Xs)
    losses = L[ys, D.loss_decide(P, L)]  # checked against the brute-force argmin above
    assert abs(D.loss_of_confusion(C, L) - losses.mean()) < 4 * losses.std() / np.sqrt(len(ys)) + 1e-5


# --- ROC ----------------------------------------------------------------------------------------

def _roc_by_loop(scores, positive):
    """(fpr, tpr) at every distinct score t, highest first: the fractions of each side with score >= t."""
    pos = [s for s, p in zip(scores, positive) if p]
    neg = [s for s, p in zip(scores, positive) if not p]
    fpr, tpr = [0.0], [0.0]
    for t in sorted(set(scores), reverse=True):
        tpr.append(sum(s >= t for s in pos) / len(pos))
        fpr.append(sum(s >= t for s in neg) / len(neg))
    return fpr, tpr


@settings(max_examples=examples(80), deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(0, 2**32 - 1),
       st.sampled_from([(0.0, 1.0), (1e6, 1.0), (0.0, 1e-6), (0.0, 1e6), (1e6, 1e-6)]), st.booleans())
def test_the_roc_on_points_is_the_loop_and_its_auc_the_mann_whitney_statistic(n_pos, n_neg, seed, frame, ties):
    """2-4 points a side, ties (integer scores) or none, offsets and scales: the step curve is the plain
    loop's and the AUC is U / (n_pos n_neg) (scipy's mannwhitneyu, ties counted one half)."""
    offset, scale = frame
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 3, n_pos + n_neg) if ties else rng.normal(0, 1, n_pos + n_neg)
    scores = offset + scale * raw.astype(float)
    positive = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    rng.shuffle(positive)
    r = D.roc_points(scores, positive)
    fpr, tpr = _roc_by_loop(list(scores), list(positive))
    np.testing.assert_allclose(r["fpr"], fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(r["tpr"], tpr, rtol=0, atol=1e-15)
    U = stats.mannwhitneyu(scores[positive], scores[~positive]).statistic
    assert r["auc"] == pytest.approx(U / (n_pos * n_neg), abs=1e-12)
    precision = [sum(s >= t and p for s, p in zip(scores, positive)) / sum(s >= t for s in scores)
                 for t in sorted(set(scores), reverse=True)]
    np.testing.assert_allclose(r["precision"], precision, atol=1e-15)


def test_a_roc_needs_both_sides():
    with pytest.raises(ValueError, match="points of the chosen class and of the others"):
        D.roc_points([0.1, 0.2], [True, True])


@pytest.mark.parametrize("p1,scale,offset", [(0.7, 1.0, 0.0), (0.5, 1e-6, 1e6 * 1e-6), (0.2, 1e6, -1e6),
                                             (0.5, 1.0, 1e6)])
def test_the_bayes_roc_of_a_shared_covariance_pair_is_binormal(p1, scale, offset):
    """The true log-odds a(x) is N(-D^2/2 + pi, D^2) under C_1 and N(D^2/2 + pi, D^2) under C_2 (pi = ln p2/p1):
    FPR(t) = Phi((-D^2/2 + pi - t)/D), TPR(t) = Phi((D^2/2 + pi - t)/D), so TPR = Phi(Phi^-1(FPR) + D) and
    the AUC is Phi(D/sqrt 2)."""
    t = _pair(p1, scale, offset)
    d = np.subtract((1.7, 2.5), (1.0, 1.0))
    dp = np.sqrt(d @ np.linalg.solve(SIGMA, d))
    pi = np.log((1 - p1) / p1)
    r = D.bayes_roc(t, 1)
    tau = np.array(r["thresholds"])
    fpr, tpr = np.array(r["fpr"][1:-1]), np.array(r["tpr"][1:-1])
    np.testing.assert_allclose(fpr, stats.norm.cdf((-dp * dp / 2 + pi - tau) / dp), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(tpr, stats.norm.cdf((dp * dp / 2 + pi - tau) / dp), rtol=1e-6, atol=1e-9)
    inside = (fpr > 1e-9) & (fpr < 1 - 1e-9)
    np.testing.assert_allclose(tpr[inside], stats.norm.cdf(stats.norm.ppf(fpr[inside]) + dp), atol=1e-7)
    assert r["auc"] == pytest.approx(stats.norm.cdf(dp / np.sqrt(2)), abs=1e-4)
    assert np.all(np.diff(r["fpr"]) >= 0) and np.all(np.diff(r["tpr"]) >= 0)


def test_a_fitted_scores_roc_under_the_truth_is_the_closed_form_and_below_the_bayes_roc():
    """LDA's log-odds d(x) is linear: under C_t it is N(d(mu_t), g^T S_t g), so P(d > t | C_t) is Phi of a
    signed distance at every threshold."""
    t = _pair(0.6, 1.0, 0.0)
    X, y = t.sample(30, seed=8)
    lda = create("lda").fit(X, y)
    r = D.roc_true(t, D.model_score(lda, 1), 1)
    tau = np.array(r["thresholds"])
    side = []
    for k in range(2):
        mu = t.means_[k]
        at = lda.decision_function(np.array([mu, mu + [1, 0], mu + [0, 1]]))
        dd = at[:, 1] - at[:, 0]
        g = dd[1:] - dd[0]
        side.append(stats.norm.cdf((dd[0] - tau) / np.sqrt(g @ t.covariances_[k] @ g)))
    np.testing.assert_allclose(r["fpr"][1:-1], side[0], atol=1e-9)
    np.testing.assert_allclose(r["tpr"][1:-1], side[1], atol=1e-9)
    bayes = D.bayes_roc(t, 1)
    assert r["auc"] <= bayes["auc"] + 1e-6


def test_one_against_the_rest_under_the_truth_against_monte_carlo():
    d = load("shared-vs-own-covariance")
    t = d.truth
    m = create("qda").fit(d.X, d.labels)
    score = D.model_score(m, 2, m.classes_)
    tau = np.array([-4.0, -1.0, 0.0, 2.5])
    r = D.roc_true(t, score, 2, thresholds=tau)
    X, y = t.sample(300_000, 21)
    s = score(X)
    for i, th in enumerate(tau[::-1]):  # the curve runs from the highest threshold
        for rate, side in ((r["tpr"][i + 1], y == 2), (r["fpr"][i + 1], y != 2)):
            f = np.mean(s[side] > th)
            assert abs(rate - f) < 4 * np.sqrt(f * (1 - f) / side.sum()) + 1e-6


# --- calibration --------------------------------------------------------------------------------

@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 60), st.integers(0, 2**32 - 1), st.sampled_from([1, 3, 10, 20]))
def test_reliability_bins_against_a_plain_loop(n, seed, bins):
    """Probabilities on the bin edges (0, 0.1, ..., 1 exactly) and between them."""
    rng = np.random.default_rng(seed)
    edges = np.linspace(0, 1, bins + 1)
    p = np.where(rng.random(n) < 0.3, rng.choice(edges, n), rng.random(n))
    hit = rng.random(n) < p
    q = np.clip(p + rng.normal(0, 0.1, n), 0, 1)
    r = D.reliability(p, hit, bins, q)
    count, sp, sh, sq = [0] * bins, [0.0] * bins, [0.0] * bins, [0.0] * bins
    for pi, hi, qi in zip(p, hit, q):
        for b in range(bins):
            if edges[b] <= pi < edges[b + 1] or (b == bins - 1 and pi == 1.0):
                count[b] += 1
                sp[b] += pi
                sh[b] += hi
                sq[b] += qi
                break
    assert r["count"] == count
    ece = ece_true = 0.0
    for b in range(bins):
        if count[b]:
            assert r["mean_p"][b] == pytest.approx(sp[b] / count[b], rel=1e-12)
            assert r["frequency"][b] == pytest.approx(sh[b] / count[b], rel=1e-12)
            assert r["mean_true"][b] == pytest.approx(sq[b] / count[b], rel=1e-12)
            ece += abs(sh[b] - sp[b]) / n
            ece_true += abs(sq[b] - sp[b]) / n
        else:
            assert r["mean_p"][b] is None and r["frequency"][b] is None
    assert r["ece"] == pytest.approx(ece, rel=1e-9, abs=1e-15)
    assert r["ece_true"] == pytest.approx(ece_true, rel=1e-9, abs=1e-15)
    assert r["mean_abs_error_true"] == pytest.approx(np.mean([abs(a - b) for a, b in zip(p, q)]), rel=1e-12)


def test_the_true_posterior_is_calibrated_and_lda_on_xor_is_not():
    """Points drawn from the truth: binned, the true posterior's frequencies match it (within the binomial
    spread); LDA on the xor truth is far from the true posterior."""
    d = load("xor")
    t = d.truth
    X, y = t.sample(100_000, 2)
    q = t.posterior(X)[:, 1]
    r = D.reliability(q, y == 1, 10, q)
    for n_b, m, f in zip(r["count"], r["mean_p"], r["frequency"]):
        if n_b > 100:
            assert abs(f - m) < 5 * np.sqrt(0.25 / n_b)
    assert r["ece_true"] == 0 and r["mean_abs_error_true"] == 0
    lda = create("lda").fit(d.X, d.labels)
    assert D.reliability(lda.predict_proba(X)[:, 1], y == 1, 10, q)["mean_abs_error_true"] > 0.3


def test_a_loss_that_rewards_mistakes_decides_the_least_probable_class():
    """L = [[1, 0], [0, 1]]: the expected loss of C_j is p(C_j|x), so the choice is the other class and the
    confusion is the 0-1 one with its columns swapped."""
    d = load("fruit")
    lda = create("lda").fit(d.X, d.labels)
    L = np.array([[1.0, 0.0], [0.0, 1.0]])
    np.testing.assert_array_equal(D.model_decide(lda, d.X, None, 2, L), 1 - lda.predict(d.X))
    C01 = D.confusion_true(d.truth, lda)
    np.testing.assert_allclose(D.confusion_true(d.truth, lda, None, L), C01[:, [1, 0, 2]], atol=1e-8)
    np.testing.assert_allclose(D.bayes_confusion(d.truth, L), D.bayes_confusion(d.truth)[:, [1, 0, 2]], atol=1e-8)


@pytest.mark.parametrize("name", ["lda", "qda", "nb", "logistic", "probit"])  # (softmax lands 2.7e-19 off the tie)
def test_points_whose_largest_posterior_is_shared_are_undecided_in_the_confusion_as_in_the_summary(name):
    """Two points of different classes at the same place midway between two symmetric classes: p = 1/2 each.
    The status line counts them undecided and wrong (accuracy 75%); the confusion gave them to the first
    class (a new user saw "a: 4 0 / b: 1 3" beside 75%). They are in its "no decision" entries, its error rate
    is 1 - accuracy, and with the 0-1 loss each costs 1."""
    X = np.array([[-1, 0], [-1, 1], [-1, -1], [1, 0], [1, 1], [1, -1], [0, 0], [0, 0]], float)
    y = np.array([0, 0, 0, 1, 1, 1, 0, 1])
    m = create(name).fit(X, y)
    a = m.decision_function(X[6:7])[0]
    assert a[0] == a[1]  # the fit is symmetric to the last bit: (0, 0) is a tie
    summary, _ = m.evaluate(X, y)
    assert summary["accuracy"] == 0.75 and summary["undecided"] == 2
    report = D.fit_report(m, X, y, 2)
    assert report["confusion"] == [[3, 0], [0, 3]] and report["confusion_undecided"] == [1, 1]
    C = np.array(report["confusion"])
    assert np.trace(C) / len(X) == summary["accuracy"]
    report = D.fit_report(m, X, y, 2, L=[[0, 1], [1, 0]])  # the 0-1 loss: each undecided point an error
    assert report["expected_loss"] == pytest.approx(0.25)


def test_the_loss_of_a_confusion_with_and_without_its_no_decision_column():
    """sum_kj L_kj C_kj (eq. 1.80), written out here: a K x K confusion, and a K x (K + 1) one whose last column
    (no decision) costs the rejection cost, or, without one, its class's largest loss (a tie is an error)."""
    L = np.array([[0.0, 2.0, 5.0], [1.0, 0.0, 3.0], [4.0, 1.0, 0.0]])
    C = np.array([[0.20, 0.03, 0.02], [0.01, 0.30, 0.04], [0.05, 0.02, 0.25]])
    plain = sum(L[k, j] * C[k, j] for k in range(3) for j in range(3))
    assert D.loss_of_confusion(C, L) == pytest.approx(plain, rel=1e-12)
    undecided = np.array([0.02, 0.03, 0.03])
    Cu = np.column_stack([C, undecided])
    assert D.loss_of_confusion(Cu, L, 0.4) == pytest.approx(plain + 0.4 * undecided.sum(), rel=1e-12)
    assert D.loss_of_confusion(Cu, L) == pytest.approx(plain + 5.0 * 0.02 + 3.0 * 0.03 + 4.0 * 0.03, rel=1e-12)
    assert D.loss_of_confusion(np.column_stack([C, np.zeros(3)]), L) == pytest.approx(plain, rel=1e-12)


def test_a_models_decisions_in_the_documents_classes_with_ties_a_reject_cost_and_a_missing_class():
    """model_decide speaks the document's class numbers: a model fitted on classes 0 and 2 of three (class 1 has
    no points) decides 0 or 2, never 1, by the MAP rule and by a loss; a tie is -1; a rejection cost rejects
    where max_k p(C_k|x) < 1 - cost. The symmetric set puts p = 1/2 exactly at (0, 0); (+-6, 0) are sure."""
    X = np.array([[-1, 0], [-1, 1], [-1, -1], [1, 0], [1, 1], [1, -1]], float)
    m = create("lda").fit(X, np.array([0, 0, 0, 1, 1, 1]))
    at = np.array([[-6.0, 0.0], [0.0, 0.0], [6.0, 0.0]])
    idx = np.array([0, 2])  # the model's two classes are the document's 0 and 2
    np.testing.assert_array_equal(D.model_decide(m, at), [0, -1, 1])
    np.testing.assert_array_equal(D.model_decide(m, at, idx, 3), [0, -1, 2])
    # a rejection cost with the 0-1 loss: p = 1/2 at (0, 0) is rejected below cost 1/2, the sure ends are not
    np.testing.assert_array_equal(D.model_decide(m, at, reject_cost=0.3), [0, -1, 1])
    np.testing.assert_array_equal(D.model_decide(m, at, idx, 3, reject_cost=0.3), [0, -1, 2])
    np.testing.assert_array_equal(D.model_decide(m, at, idx, 3, reject_cost=0.6)[[0, 2]], [0, 2])
    # a loss over the document's three classes whose cheapest choice for a sure point is the other seen class
    # (choosing the unseen class 1 costs 9 whatever the truth): the sure ends swap
    L = np.array([[1.0, 9.0, 0.0], [0.0, 9.0, 0.0], [0.0, 9.0, 1.0]])
    np.testing.assert_array_equal(D.model_decide(m, at, idx, 3, L)[[0, 2]], [2, 0])
