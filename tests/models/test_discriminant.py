"""Least squares, Fisher and the perceptron (Bishop 4.1) against the formulas written out here."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hypo import examples
from reference import exact_mean
from probviz.data.examples import load
from probviz.models import create
from probviz.scene import build_scene, discriminant_lines, grid_axes


def _raw_design(X):
    return np.column_stack([np.ones(len(X)), X])


def _two_blobs(rng, n=30, offset=0.0, scale=1.0):
    X = np.vstack([rng.normal([-1, 0], 0.6, (n, 2)), rng.normal([1.5, 1], 0.6, (n, 2))]) * scale + offset
    return X, np.repeat([0, 1], n)


@pytest.mark.parametrize("offset,scale", [(0.0, 1.0), (1e6, 1.0), (0.0, 1e-6), (0.0, 1e6), (-3e5, 1e-3)])
def test_least_squares_is_the_pseudo_inverse_solution(offset, scale):
    """W^T = Phi^+ T with 1-of-K targets (Bishop eq. 4.16): y_k(x) at the points equals the reference's,
    computed in centred coordinates (where the pseudo-inverse is well conditioned)."""
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(m, 0.7, (12, 2)) for m in ([0, 0], [2, 1], [0, 3])]) * scale + offset
    y = np.repeat([0, 1, 2], 12)
    m = create("leastsquares").fit(X, y)
    C = X - X.mean(axis=0)
    W = np.linalg.pinv(_raw_design(C / scale)) @ np.eye(3)[y]
    expected = _raw_design(C / scale) @ W
    np.testing.assert_allclose(m.decision_function(X), expected, atol=1e-9)
    # the reported weights in the units of x give the same values
    np.testing.assert_allclose((X - offset) @ m.coef_.T + m.intercept_ + offset * m.coef_.sum(axis=1), expected,
                               atol=1e-6 * (1 + abs(offset) / scale) if offset else 1e-9)
    assert m.probabilistic is False
    with pytest.raises(TypeError):
        m.predict_proba(X)


def test_least_squares_masks_the_middle_class_of_three_in_a_line():
    """Bishop figure 4.5: least squares gives the middle class less than half of its own points; softmax
    regression on the same data assigns each class nearly all of its points; the notice says so."""
    d = load("three-in-a-line")
    ls = create("leastsquares").fit(d.X, d.labels, names=d.class_names)
    recall = [np.mean(ls.predict(d.X)[d.labels == k] == k) for k in range(3)]
    assert recall[1] < 0.5 and recall[0] > 0.9 and recall[2] > 0.9
    soft = create("softmax").fit(d.X, d.labels)
    assert all(np.mean(soft.predict(d.X)[d.labels == k] == k) > 0.9 for k in range(3))
    assert any("C2 only" in n and "masked" in n and "figure 4.5" in n for n in ls.notices_), ls.notices_
    assert not any("C1 only" in n or "C3 only" in n for n in ls.notices_)


def test_one_vs_rest_claims_and_ambiguity():
    """Each y_k > 1/2 claims a point; a point claimed by no class or by several is undecided (-1),
    exactly where the reference's count of claims is not 1 (Bishop 4.1.2)."""
    d = load("three-in-a-line")
    m = create("leastsquares", scheme="one-vs-rest").fit(d.X, d.labels)
    W = np.linalg.pinv(_raw_design(d.X)) @ np.eye(3)[d.labels]
    pts = np.random.default_rng(2).uniform(-5, 5, (4000, 2))
    claims = (_raw_design(pts) @ W) > 0.5
    expected = np.where(claims.sum(axis=1) == 1, np.argmax(claims, axis=1), -1)
    np.testing.assert_array_equal(m.decide(pts), expected)
    assert np.any(expected == -1) and np.any(expected >= 0)
    summary, wrong = m.evaluate(d.X, d.labels)
    assert summary["undecided"] == np.count_nonzero(m.decide(d.X) < 0)
    assert np.all(wrong[m.decide(d.X) < 0])  # undecided counts as wrong
    # its lines are the three y_k = 1/2, whole
    for b in discriminant_lines(m, (-5, 5, -5, 5)):
        np.testing.assert_allclose(_raw_design(b.xy) @ W[:, b.k], 0.5, atol=1e-9)


def test_one_vs_one_votes():
    """One line per pair fitted to that pair's points only (targets +1, -1), a vote, -1 on a tie."""
    d = load("shared-vs-own-covariance")
    m = create("leastsquares", scheme="one-vs-one").fit(d.X, d.labels)
    pts = np.random.default_rng(3).uniform(-5, 5, (4000, 2))
    votes = np.zeros((len(pts), 3), int)
    for k, j in ((0, 1), (0, 2), (1, 2)):
        mine = (d.labels == k) | (d.labels == j)
        w = np.linalg.pinv(_raw_design(d.X[mine])) @ np.where(d.labels[mine] == k, 1.0, -1.0)
        s = _raw_design(pts) @ w
        votes[:, k] += s > 0
        votes[:, j] += s <= 0
    top = votes.max(axis=1)
    expected = np.where((votes == top[:, None]).sum(axis=1) == 1, np.argmax(votes, axis=1), -1)
    np.testing.assert_array_equal(m.decide(pts), expected)
    assert np.any(expected == -1)
    assert m.n_parameters() == 9


def test_fisher_direction_and_threshold():
    """w ∝ S_W^-1 (m_2 - m_1) (eq. 4.30), S_W the summed within-class scatter (eq. 4.28), unit length in x
    units; y(x) = w^T (x - m) with m the overall mean (eq. 4.34)."""
    d = load("fruit")
    X, y = d.X, d.labels
    m1, m2 = X[y == 0].mean(axis=0), X[y == 1].mean(axis=0)
    S_W = sum((X[y == k] - mk).T @ (X[y == k] - mk) for k, mk in ((0, m1), (1, m2)))
    w = np.linalg.solve(S_W, m2 - m1)
    w /= np.linalg.norm(w)
    f = create("fisher").fit(X, y)
    np.testing.assert_allclose(f.direction_, w, atol=1e-12)
    np.testing.assert_allclose(f.coef_[0], w, atol=1e-12)
    np.testing.assert_allclose(f.intercept_[0], -w @ X.mean(axis=0), atol=1e-12)
    np.testing.assert_allclose(f.project(X), X @ w, atol=1e-12)
    pts = np.random.default_rng(4).uniform(-1, 4, (500, 2))
    np.testing.assert_array_equal(f.predict(pts), ((pts - X.mean(axis=0)) @ w > 0).astype(int))
    # the optimality condition: no direction separates the projected classes better (eq. 4.26)
    def criterion(v):
        p = [X[y == k] @ v for k in (0, 1)]
        return (p[1].mean() - p[0].mean()) ** 2 / (p[0].var() * len(p[0]) + p[1].var() * len(p[1]))
    angles = np.linspace(0, np.pi, 721)
    best = max(criterion(np.array([np.cos(a), np.sin(a)])) for a in angles)
    assert criterion(w) >= best * (1 - 1e-12)
    assert criterion(w) > 1.01 * criterion((m2 - m1) / np.linalg.norm(m2 - m1))


def test_fisher_with_singular_scatter_and_more_classes():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [3.0, 0.0], [4.0, 1.0]])  # within-class scatter of rank 1
    f = create("fisher").fit(X, [0, 0, 1, 1])
    assert f.accuracy(X, [0, 0, 1, 1]) == 1.0 and any("no spread" in n for n in f.notices_)
    np.testing.assert_allclose(np.abs(f.direction_), [np.sqrt(0.5)] * 2)  # across the spread, not along it
    X = np.array([[0.0, 0.0], [2.0, 0.0]])  # one point per class: no scatter, the line joining the means
    f = create("fisher").fit(X, [0, 1])
    np.testing.assert_allclose(f.direction_, [1.0, 0.0])
    with pytest.raises(ValueError, match="two classes"):
        create("fisher").fit(np.zeros((3, 2)) + np.arange(3)[:, None], [0, 1, 2])


def _perceptron_reference(X, y, eta, epochs):
    """eq. 4.55 on z = (x - mean) / std with a constant 1, in order from w = 0 (the exact mean: the
    perceptron's path depends on where the origin is)."""
    center = exact_mean(X)
    Phi = np.column_stack([np.ones(len(X)), (X - center) / np.sqrt(np.mean((X - center) ** 2, axis=0))])
    t = np.where(y == 1, 1.0, -1.0)
    w = np.zeros(3)
    for _ in range(epochs):
        changed = False
        for n in range(len(X)):
            if t[n] * (Phi[n] @ w) <= 0:
                w = w + eta * t[n] * Phi[n]
                changed = True
        if not changed:
            break
    return Phi @ w


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(2, 4), st.integers(0, 10_000), st.sampled_from([0.0, 1e6]), st.sampled_from([1e-6, 1.0, 1e6]))
def test_perceptron_follows_its_rule_and_stops_on_separable_data(n, seed, offset, scale):
    rng = np.random.default_rng(seed)
    X, y = _two_blobs(rng, n, offset, scale)
    X[y == 1] += 3 * scale  # separable
    p = create("perceptron").fit(X, y)
    assert p.converged_
    y_ref = _perceptron_reference(X, y, 1.0, 100)
    np.testing.assert_allclose(p.decision_function(X)[:, 1] - p.decision_function(X)[:, 0], y_ref,
                               atol=1e-6 * np.abs(y_ref).max())
    assert np.all(p.predict(X) == y)  # the optimality condition: every point on its side


def test_perceptron_never_settles_on_xor():
    d = load("xor")
    p = create("perceptron").fit(d.X, d.labels)
    assert not p.converged_ and p.epochs_ == 100
    assert any("never settles" in n for n in p.notices_)


@pytest.mark.parametrize("name,params", [("leastsquares", {}), ("leastsquares", {"scheme": "one-vs-rest"}),
                                         ("leastsquares", {"scheme": "one-vs-one"}), ("fisher", {}),
                                         ("perceptron", {})])
def test_regions_are_drawn_where_the_discriminant_decides(name, params):
    """No heatmap: each pixel has the colour of the class ``decide`` gives its centre, the background
    where it gives none, and hatching exactly there."""
    d = load("three-in-a-line" if name == "leastsquares" else "fruit")
    m = create(name, **params).fit(d.X, d.labels)
    bounds, shape = (-5.0, 5.0, -4.0, 6.0), (60, 40)
    colors = ["#D55E00", "#009E73", "#0072B2"]
    sc = build_scene(m, bounds, colors, shape, {"heatmap", "boundaries"})
    assert sc.posterior is None and sc.image is not None
    xs, ys = grid_axes(bounds, *shape)
    gx, gy = np.meshgrid(xs, ys)
    codes = m.decide(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gy.shape)
    flat = [np.round(255 + 0.45 * (np.array([int(c[i:i + 2], 16) for i in (1, 3, 5)]) - 255)) for c in colors]
    for k in range(len(m.classes_)):
        assert np.all(np.abs(sc.image[codes == k, :3].astype(int) - flat[k]) <= 1)
    assert np.all(sc.image[codes == -1, :3] == 255)
    if np.any(codes == -1):
        assert np.all(sc.ambiguous[codes >= 0, 3] == 0) and np.any(sc.ambiguous[codes == -1, 3] > 0)
    else:
        assert sc.ambiguous is None
    assert sc.boundaries


def test_single_class_and_degenerate_data_fit_without_nan():
    X = np.array([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]])
    for name in ("leastsquares", "fisher", "perceptron"):
        m = create(name).fit(X, [0, 0, 0])
        assert np.all(m.predict(X) == 0) and any("one class" in n for n in m.notices_)
        m = create(name).fit(np.array([[0.0, 0.0], [0.0, 0.0], [1e-300, 0.0]]), [0, 1, 1])
        assert np.all(np.isfinite(m.decision_function(np.array([[1.0, 2.0]]))))


def test_fisher_reports_its_means_scatter_and_projections():
    d = load("fisher-projection")
    X, y = d.X, d.labels
    f = create("fisher").fit(X, y)
    m = [X[y == k].mean(axis=0) for k in (0, 1)]
    np.testing.assert_allclose(f.means_, m, atol=1e-12)
    np.testing.assert_allclose(f.mean_, X.mean(axis=0), atol=1e-12)
    S_W = sum((X[y == k] - m[k]).T @ (X[y == k] - m[k]) for k in (0, 1))
    np.testing.assert_allclose(f.within_, S_W, rtol=1e-10)
    np.testing.assert_allclose(f.means_direction(), (m[1] - m[0]) / np.linalg.norm(m[1] - m[0]))
    h = f.histograms(X, y, bins=12)
    for key, v in (("means", f.means_direction()), ("fisher", f.direction_)):
        edges, counts, threshold = h[key]
        p = X @ v
        np.testing.assert_allclose(edges, np.linspace(p.min(), p.max(), 13))
        np.testing.assert_array_equal(counts, [np.histogram(p[y == k], edges)[0] for k in (0, 1)])
        assert threshold == pytest.approx(X.mean(axis=0) @ v)
        J = f.overlap(X, y, v)
        P = [X[y == k] @ v for k in (0, 1)]
        assert J == pytest.approx((P[1].mean() - P[0].mean()) ** 2 / (np.sum((P[0] - P[0].mean()) ** 2)
                                                                       + np.sum((P[1] - P[1].mean()) ** 2)))
    assert f.overlap(X, y, f.direction_) > 2 * f.overlap(X, y, f.means_direction())


def _cycle():
    """Three classes around a triangle with points in its middle: there the pairwise votes go round."""
    rng = np.random.default_rng(5)
    corners = np.array([[0.0, 3.0], [-2.6, -1.5], [2.6, -1.5]])
    X = np.vstack([corners[k] + rng.normal(0, 0.6, (30, 2)) for k in range(3)] + [rng.normal(0, 0.3, (9, 2))])
    return X, np.r_[np.repeat([0, 1, 2], 30), np.arange(9) % 3]


def test_least_squares_notices_name_the_scheme_and_the_undecided():
    d = load("three-in-a-line")
    ovr = create("leastsquares", scheme="one-vs-rest").fit(d.X, d.labels, names=d.class_names)
    undecided = int(np.count_nonzero(ovr.decide(d.X) < 0))
    assert undecided > 0
    assert ovr.notices_[0] == (f"one-vs-rest: {undecided} training points fall where nothing is decided (no class "
                               "or several claim them; hatched, Bishop 4.1.2, figure 4.2)")
    ovo = create("leastsquares", scheme="one-vs-one").fit(d.X, d.labels, names=d.class_names)
    # every training point has a winner, and the tie region lies far outside the data: nothing to say
    # about hatching, which is nowhere near
    assert np.all(ovo.decide(d.X) >= 0)
    xs, ys = grid_axes((-5, 5, -5, 5), 200, 200)
    assert np.all(ovo.decide_grid(xs, ys) >= 0)
    assert not any("hatch" in n or "decided" in n for n in ovo.notices_)
    tie = create("leastsquares", scheme="one-vs-one").fit(*_cycle())
    n_tied = int(np.count_nonzero(tie.decide(_cycle()[0]) < 0))
    assert n_tied > 0 and tie.notices_[0] == (f"one-vs-one: {n_tied} training points fall where nothing is decided "
                                              "(a tie in the vote; hatched, Bishop 4.1.2, figure 4.2)")
    assert [(k, j) for k, j, _ in ovo.pairs_] == [(0, 1), (0, 2), (1, 2)]
    two = create("leastsquares").fit(d.X[d.labels < 2], d.labels[d.labels < 2])
    assert two.notices_ == []  # two classes, one discriminant: nothing to say
    with pytest.raises(ValueError, match="scheme must be one of k-class, one-vs-rest, one-vs-one, got 'svm'"):
        create("leastsquares", scheme="svm").fit(d.X, d.labels)
    assert create("leastsquares", scheme="one-vs-one").fit(d.X, d.labels).n_parameters() == 9
    four = np.vstack([d.X, d.X[:5] + 8])
    m4 = create("leastsquares", scheme="one-vs-one").fit(four, np.r_[d.labels, [3] * 5])
    assert m4.n_parameters() == 18 and create("leastsquares").fit(four, np.r_[d.labels, [3] * 5]).n_parameters() == 12


def test_discriminant_summaries_count_what_they_decide():
    d = load("three-in-a-line")
    for name, params in (("leastsquares", {}), ("leastsquares", {"scheme": "one-vs-rest"})):
        m = create(name, **params).fit(d.X, d.labels)
        summary, wrong = m.evaluate(d.X, d.labels)
        decided = m.decide(d.X)
        np.testing.assert_array_equal(wrong, decided != d.labels)
        assert summary["accuracy"] == pytest.approx(np.mean(decided == d.labels))
        assert summary == {"model": "leastsquares", "classes": ["0", "1", "2"], "n_parameters": 9,
                           "accuracy": summary["accuracy"], "undecided": int(np.sum(decided < 0)),
                           "notices": m.notices_}


def test_fisher_when_the_means_are_close_or_equal():
    rng = np.random.default_rng(9)
    X = rng.normal(0, 0.1, (40, 2))
    y = np.repeat([0, 1], 20)
    X[y == 1] += [0.3, 0.1]  # means closer than 1: still the line joining them
    f = create("fisher").fit(X, y)
    d = X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)
    np.testing.assert_allclose(f.means_direction(), d / np.linalg.norm(d))
    same = np.array([[0.0, 0.0], [1.0, 2.0], [0.0, 0.0], [1.0, 2.0]])
    f = create("fisher").fit(same, [0, 0, 1, 1])
    np.testing.assert_allclose(f.means_direction(), [1.0, 0.0])  # no line joins equal means: the x axis
    np.testing.assert_allclose(f.direction_, [1.0, 0.0])
    assert any("means coincide" in n for n in f.notices_) and np.all(np.isfinite(f.coef_))
    edges, counts, _ = f.histograms(np.zeros((4, 2)), [0, 0, 1, 1], bins=4)["means"]
    np.testing.assert_allclose(edges, np.linspace(0.0, 1.0, 5))  # all projections equal: a unit-wide range
    np.testing.assert_array_equal(counts, [[2, 0, 0, 0], [2, 0, 0, 0]])


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 10), st.integers(1, 4), st.integers(0, 10_000), st.sampled_from([0.0, 1e6]),
       st.sampled_from([1e-6, 1.0, 1e6]), st.booleans())
def test_any_few_points_fit_to_finite_discriminants(K, n, seed, offset, scale, collinear):
    """2-4 points a class (or one), up to 10 classes, far offsets and scales, collinear sets: every
    discriminant fits to finite weights and decides every point to a class it knows (or, for the
    one-vs-* schemes, none); the two-class ones refuse more classes with a message."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(K * n, 2))
    if collinear:
        X[:, 1] = 2 * X[:, 0]
    X = X * scale + offset
    y = np.repeat(np.arange(K), n)
    probe = np.vstack([X, X.mean(axis=0) + scale * rng.normal(size=(20, 2))])
    for name, params in (("leastsquares", {}), ("leastsquares", {"scheme": "one-vs-rest"}),
                         ("leastsquares", {"scheme": "one-vs-one"}), ("fisher", {}), ("perceptron", {})):
        if name != "leastsquares" and K > 2:
            with pytest.raises(ValueError, match="two classes"):
                create(name, **params).fit(X, y)
            continue
        m = create(name, **params).fit(X, y)
        assert np.all(np.isfinite(m.coef_)) and np.all(np.isfinite(m.intercept_))
        d = m.decide(probe)
        assert np.all((d >= -1) & (d < K))
        if params.get("scheme", "k-class") == "k-class":
            assert np.all(d >= 0)


def test_explain_and_the_readouts_say_y_and_the_decision_not_a_probability():
    from probviz.report import discriminant_readout, probe_lines

    d = load("three-in-a-line")
    for params in ({}, {"scheme": "one-vs-one"}):
        m = create("leastsquares", **params).fit(d.X, d.labels)
        x = np.array([0.3, -0.2])
        e = m.explain(x)
        np.testing.assert_allclose(e["y"], m.decision_function([x])[0])
        assert e["decision"] == m.decide([x])[0]
        if params:
            np.testing.assert_allclose(e["pairs"], m._pair_scores([x])[0])
        names = {0: "C1", 1: "C2", 2: "C3"}
        line = discriminant_readout(m, names, x)
        assert line.startswith(f"y_C1(x) = {e['y'][0]:.3f}") and line.endswith(f"→ {names[e['decision']]}")
        assert "p(" not in line and any("no p(C_k|x)" in s for s in probe_lines(m, names, x))
    f = create("fisher").fit(load("fruit").X, load("fruit").labels)
    line = discriminant_readout(f, {0: "apple", 1: "peach"}, (2.3, 1.5))
    y = f.coef_[0] @ [2.3, 1.5] + f.intercept_[0]
    assert line == f"y(x) = {y:.3f}   → {'peach' if y > 0 else 'apple'}"
    assert create("leastsquares").count_parameters(4) == 12 and create("fisher").count_parameters(2) == 3
