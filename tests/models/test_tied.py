"""Covariances tied within groups of classes (Bishop 4.2.1-4.2.2, the notes' figures (c)-(d): "red and
green share a covariance, blue has its own; linear between red and green, quadratic between the other
pairs"), against the maximum-likelihood estimates written out here with loops, on adversarial data.

The reference: pi_k = N_k / N (eq. 4.73), mu_k the class mean (4.75), and for a group g of classes
Sigma_g = (1/N_g) sum_{k in g} sum_{n in C_k} (x_n - mu_k)(x_n - mu_k)^T -- the likelihood of eq. 4.71
with one covariance per group is maximised there (the derivation of 4.78-4.80 taken over the group's
points only); one group of all the classes is 4.78 (LDA), a group per class 4.79 (QDA). The posterior is
eq. 4.62 with a_k = ln N(x|mu_k, Sigma_k) pi_k (4.63), densities by scipy.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypo import examples
from scipy.special import logsumexp
from scipy.stats import multivariate_normal

from probviz.models import create
from probviz.models.registry import REGISTRY


# --- the reference ----------------------------------------------------------------------------------

def pooled_ml(X, y, groups):
    """Priors, means and the covariance of every class, each group's pooled over its classes' points
    about their own means. ``groups``: lists of labels; a label in none is alone. Written with loops
    and exact means (fractions), sharing nothing with probviz."""
    labels = sorted(set(int(v) for v in y))
    N = len(X)
    rows = {k: [i for i in range(N) if int(y[i]) == k] for k in labels}
    pi = np.array([len(rows[k]) / N for k in labels])
    mu = {}
    for k in labels:
        mu[k] = np.array([float(sum(Fraction(float(X[i, d])) for i in rows[k]) / len(rows[k])) for d in range(2)])
    of = {k: [k] for k in labels}
    for g in groups:
        present = [k for k in g if k in rows]
        for k in present:
            of[k] = present
    cov = {}
    for k in labels:
        S = np.zeros((2, 2))
        n_g = 0
        for m in of[k]:
            for i in rows[m]:
                d = X[i] - mu[m]
                for a in range(2):
                    for b in range(2):
                        S[a, b] += d[a] * d[b]
                n_g += 1
        cov[k] = S / n_g
    return (np.array(labels), pi, np.array([mu[k] for k in labels]), np.array([cov[k] for k in labels]))


def reference_log_joint(x, pi, mu, cov):
    """a_k = ln N(x|mu_k, Sigma_k) + ln pi_k (eq. 4.63), shape (n, K)."""
    return np.column_stack([multivariate_normal(mu[k], cov[k]).logpdf(x) + np.log(pi[k]) for k in range(len(pi))])


def reference_posterior(x, pi, mu, cov):
    a = reference_log_joint(np.atleast_2d(x), pi, mu, cov)
    return np.exp(a - logsumexp(a, axis=1, keepdims=True))


def groups_text(groups, names):
    return ";".join(",".join(names[k] for k in g) for g in groups)


# --- adversarial data -------------------------------------------------------------------------------

@st.composite
def grouped_data(draw):
    """2-4 points per class, K from 2 to 10, offsets 0 or 1e6 spreads, spreads 1e-6, 1 or 1e6; classes
    put into random groups (some alone)."""
    K = draw(st.integers(2, 10))
    per = draw(st.lists(st.integers(2, 4), min_size=K, max_size=K))
    n = sum(per)
    pts = np.array(draw(st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3)), min_size=n, max_size=n)))
    if draw(st.booleans()):  # hypothesis favours repeated, simple values (singular classes); half the time
        pts = pts + np.random.default_rng(draw(st.integers(0, 2**32 - 1))).normal(0, 0.5, pts.shape)  # not
    scale = draw(st.sampled_from([1e-6, 1.0, 1e6]))
    offset = draw(st.sampled_from([0.0, 1e6]))
    direction = np.array(draw(st.sampled_from([(1, 1), (1, -1), (1, 0), (0, -1)])))
    X = (pts + offset * direction) * scale
    owner = draw(st.lists(st.integers(0, K - 1), min_size=K, max_size=K))  # class k goes to group owner[k]
    groups = [[k for k in range(K) if owner[k] == g] for g in range(K)]
    groups = [g for g in groups if g]
    shuffled = draw(st.permutations(range(len(groups))))  # the text's order of groups does not matter
    return X, np.repeat(np.arange(K), per), [groups[i] for i in shuffled], scale


def well_posed(cov, scale):
    """Every covariance well above the floor of 1e-6 of the data's variance and well conditioned: the
    exact ML estimate is then what the model keeps, and posteriors are not rounding's plaything."""
    return all(np.linalg.eigvalsh(c).min() > 1e-3 * scale ** 2 for c in cov)


def floored(cov, X):
    """LDA's and QDA's convention for a singular covariance: its eigenvalues raised to 1e-6 of the data's
    mean variance (the ML variance of all the points about their exact mean)."""
    centre = np.array([float(sum(map(Fraction, map(float, X[:, d]))) / len(X)) for d in range(2)])
    floor = 1e-6 * float(np.mean(np.sum((X - centre) ** 2, axis=0) / len(X)))
    out, low = [], []
    for c in cov:
        w, V = np.linalg.eigh(c)
        out.append(V @ np.diag(np.maximum(w, floor)) @ V.T)
        low.append(bool(w.min() < floor))
    return np.array(out), np.array(low), floor


NAMES = [f"c{k}" for k in range(10)]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=grouped_data())
def test_tied_is_the_pooled_maximum_likelihood_on_adversarial_data(data):
    X, y, groups, scale = data
    classes, pi, mu, cov = pooled_ml(X, y, groups)
    m = create("tied", groups=groups_text(groups, NAMES)).fit(X, y, names=NAMES)
    np.testing.assert_array_equal(m.classes_, classes)
    np.testing.assert_allclose(m.priors_, pi, rtol=1e-14)
    np.testing.assert_allclose(m.means_, mu, rtol=0, atol=1e-12 * scale)
    # the groups as the model reports them: numbered by their first class, classes in order
    expected = sorted(sorted(NAMES[k] for k in g) for g in groups)
    assert sorted(m.groups_) == expected and len(m.group_covariances_) == len(groups)
    for g, members in enumerate(m.groups_):
        for name in members:
            np.testing.assert_array_equal(m.covariances_[NAMES.index(name)], m.group_covariances_[g])
    if not well_posed(cov, scale):  # a singular group: floored as LDA's and QDA's are, one notice per group
        fixed, low, floor = floored(cov, X)
        assume(floor > 0)
        np.testing.assert_allclose(m.covariances_, fixed, rtol=1e-6, atol=1e-9 * floor)
        singular = {tuple(sorted(members)) for members, c in zip(m.groups_, m.group_covariances_)
                    if any(low[NAMES.index(n)] for n in members)}
        assert m.regularized_ == bool(singular) and len(m.notices_) == len(singular)
        K = len(classes)
        for members in singular:
            if len(members) == K > 1:
                said = "shared covariance is singular (too few or collinear points): regularized"
            elif len(members) > 1:
                said = f"covariance shared by {', '.join(members)} is singular (too few or collinear points): regularized"
            else:
                said = f"covariance of class {members[0]} "
            assert sum(n.startswith(said) for n in m.notices_) == 1, (said, m.notices_)
        return
    assert not m.regularized_ and m.notices_ == []
    np.testing.assert_allclose(m.covariances_, cov, rtol=1e-9, atol=1e-12 * scale ** 2)
    # the posterior at the points and at points between and beyond them (eqs. 4.62-4.63)
    rng = np.random.default_rng(0)
    queries = np.r_[X, X.mean(axis=0) + scale * rng.normal(0, 3, (20, 2))]
    np.testing.assert_allclose(m.predict_proba(queries), reference_posterior(queries, pi, mu, cov), atol=1e-7)
    # the joint log-likelihood (eq. 4.71) summed over the points
    a = reference_log_joint(X, pi, mu, cov)
    assert m.log_likelihood(X, y) == pytest.approx(a[np.arange(len(y)), y].sum(), rel=1e-9, abs=1e-6)
    # parameters: K - 1 priors, 2 K means, three per group's covariance
    K = len(classes)
    assert m.n_parameters() == (K - 1) + 2 * K + 3 * len(groups)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=grouped_data())
def test_one_group_is_lda_and_singletons_are_qda(data):
    """To rounding, on any data, regularized or not: parameters, notices and posteriors."""
    X, y, _, scale = data
    K = len(np.unique(y))
    rng = np.random.default_rng(1)
    queries = np.r_[X, X.mean(axis=0) + scale * rng.normal(0, 3, (10, 2))]
    everyone = ",".join(NAMES[:K])
    for text, other in ((everyone, "lda"), ("", "qda"), (";".join(NAMES[:K]), "qda")):
        t = create("tied", groups=text).fit(X, y, names=NAMES)
        r = create(other).fit(X, y, names=NAMES)
        np.testing.assert_allclose(t.priors_, r.priors_, rtol=1e-15)
        np.testing.assert_allclose(t.means_, r.means_, rtol=1e-15)
        np.testing.assert_allclose(t.covariances_, r.covariances_, rtol=1e-13, atol=1e-300)
        np.testing.assert_allclose(t.predict_proba(queries), r.predict_proba(queries), atol=1e-10)
        assert t.notices_ == r.notices_ and t.regularized_ == r.regularized_
        assert t.n_parameters() == r.n_parameters()
        assert t.log_likelihood(X, y) == pytest.approx(r.log_likelihood(X, y), rel=1e-12, abs=1e-9)
        assert t.scores_.degree == r.scores_.degree  # one group: LDA's linear scores


def test_the_example_against_the_reference_and_its_groups():
    """The notes' figure (c): red and green share a covariance, blue has its own."""
    from probviz.data.examples import session

    s = session("tied")
    d = s.dataset
    assert d.class_names == ["red", "green", "blue"] and d.truth is not None
    assert s.params == {"tied": {"groups": "red,green"}} and s.model == "lda"  # opens as every example does
    m = create("tied", **s.params["tied"]).fit(d.X, d.labels, names=d.class_names)
    classes, pi, mu, cov = pooled_ml(d.X, d.labels, [[0, 1]])
    np.testing.assert_allclose(m.covariances_, cov, rtol=1e-12)
    assert m.groups_ == [["red", "green"], ["blue"]]
    np.testing.assert_allclose(m.predict_proba(d.X), reference_posterior(d.X, pi, mu, cov), atol=1e-10)
    # the truth it is drawn from has the same shape: red's and green's covariances are one matrix
    t = d.truth
    np.testing.assert_array_equal(t.covariances_[0], t.covariances_[1])
    assert not np.allclose(t.covariances_[0], t.covariances_[2])


# --- the groups text ---------------------------------------------------------------------------------

def three():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(30, 2)) + np.repeat([[0, 0], [3, 0], [0, 3]], 10, axis=0)
    return X, np.repeat([0, 1, 2], 10)


@pytest.mark.parametrize("text,message", [
    ("a,x;y", "groups name no class 'x', 'y' (the classes are a, b, c)"),
    ("a,b;a", "groups name 'a' more than once; put each class in one group"),
    ("a, b ; b,c", "groups name 'b' more than once; put each class in one group"),
])
def test_bad_groups_are_named(text, message):
    X, y = three()
    with pytest.raises(ValueError) as e:
        create("tied", groups=text).fit(X, y, names=("a", "b", "c"))
    assert str(e.value) == message


def test_spaces_and_empty_pieces_are_forgiven_and_order_does_not_matter():
    X, y = three()
    ref = create("tied", groups="a,c").fit(X, y, names=("a", "b", "c"))
    for text in (" c , a ;", ";;c,a", "c,a;b", "b;a,,c"):
        m = create("tied", groups=text).fit(X, y, names=("a", "b", "c"))
        assert m.groups_ == [["a", "c"], ["b"]]
        np.testing.assert_array_equal(m.covariances_, ref.covariances_)


def test_a_document_class_without_points_may_be_named():
    """The document's classes reach the fit as ``names`` (label -> name); one with no points yet is in no
    fit, and naming it is no mistake. A name that is no class at all still is."""
    X, y = three()
    m = create("tied", groups="a,d;b,c").fit(X, y, names=("a", "b", "c", "d"))
    assert m.groups_ == [["a"], ["b", "c"]]
    with pytest.raises(ValueError, match="no class 'e'"):
        create("tied", groups="a,e").fit(X, y, names=("a", "b", "c", "d"))
    m = create("tied", groups="0,2").fit(X, y)  # without names the labels are the names
    assert m.groups_ == [["0", "2"], ["1"]]


def test_a_drag_updates_from_the_statistics_with_the_same_groups():
    """The window's O(moved points) update (fit_moved) keeps the groups and the document's names."""
    X, y = three()
    names = ("a", "b", "c", "d")
    first = create("tied", groups="a,d,c").fit(X, y, names=names)
    X2 = X.copy()
    X2[3] += [0.4, -0.2]
    moved = create("tied", groups="a,d,c").fit_moved(first, y[[3]], X[[3]], X2[[3]])
    full = create("tied", groups="a,d,c").fit(X2, y, names=names)
    assert moved is not None and moved.groups_ == full.groups_ == [["a", "c"], ["b"]]
    np.testing.assert_allclose(moved.covariances_, full.covariances_, rtol=1e-12)
    np.testing.assert_allclose(moved.predict_proba(X2), full.predict_proba(X2), atol=1e-12)


def test_the_parameter_is_checked_as_text():
    spec = {p.name: p for p in REGISTRY["tied"].params}["groups"]
    assert spec.kind == "text" and spec.default == ""
    assert spec.check("a,b;c") == "a,b;c"
    for bad in (3, None, ["a", "b"], True):
        with pytest.raises(ValueError, match="groups must be text"):
            spec.check(bad)
    with pytest.raises(ValueError, match="'a' more than once"):
        spec.check("a;a")
    with pytest.raises(ValueError, match="at most 4000"):
        spec.check("a" * 4001)
    assert REGISTRY["tied"].check({"groups": "x,y", "reg_covar": 0.5}) == {"groups": "x,y", "reg_covar": 0.5}


# --- degenerate data: LDA's and QDA's conventions, their messages ---------------------------------------

def test_a_singular_group_is_regularized_and_named_once():
    """Two classes of two points each on one line: their pooled covariance is singular; the group is
    regularized as LDA's shared matrix is, with one notice naming its classes. The third class alone
    with a single point gets QDA's message."""
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [0.0, 3.0], [1.0, 2.5], [0.5, 4.0], [5.0, 0.0]])
    y = np.array([0, 0, 1, 1, 2, 2, 2, 3])
    m = create("tied", groups="a,b").fit(X, y, names=("a", "b", "c", "d"))
    assert m.regularized_
    assert m.notices_ == ["covariance shared by a, b is singular (too few or collinear points): regularized",
                          "covariance of class d has a single point: regularized"]
    assert np.all(np.linalg.eigvalsh(m.covariances_) > 0) and np.all(np.isfinite(m.predict_proba(X)))
    np.testing.assert_array_equal(m.covariances_[0], m.covariances_[1])
    # the floor is LDA's and QDA's: eigenvalues raised to 1e-6 of the data's mean variance
    raw = pooled_ml(X, y, [[0, 1]])[3][0]
    w, V = np.linalg.eigh(raw)
    floor = 1e-6 * np.mean(np.diag(np.cov(X.T, bias=True)))
    np.testing.assert_allclose(m.covariances_[0], V @ np.diag(np.maximum(w, floor)) @ V.T, rtol=1e-9, atol=1e-15)
    everyone = create("tied", groups="a,b,c,d").fit(X, y, names=("a", "b", "c", "d"))
    assert everyone.notices_ == create("lda").fit(X, y, names=("a", "b", "c", "d")).notices_


def test_pooling_makes_a_one_point_class_well_posed():
    """A class of one point has no covariance of its own (QDA regularizes it); tied to another class it
    takes their pooled one, exactly as LDA does (eq. 4.78 over the group)."""
    X = np.array([[0.0, 0.0], [1.0, 0.5], [0.3, 1.2], [2.0, 2.0], [5.0, 5.0], [6.0, 5.5], [5.5, 7.0]])
    y = np.array([0, 0, 0, 1, 2, 2, 2])
    m = create("tied", groups="0,1").fit(X, y)
    assert not m.regularized_ and m.notices_ == []
    np.testing.assert_allclose(m.covariances_[1], np.cov(X[:3].T, bias=True) * 3 / 4, rtol=1e-12)
    assert create("tied").fit(X, y).regularized_  # alone, as in QDA


def test_single_class_and_no_points():
    X = np.random.default_rng(0).normal(size=(5, 2))
    m = create("tied", groups="0").fit(X, np.zeros(5, int))
    np.testing.assert_array_equal(m.predict_proba(X), 1.0)
    assert any("one class" in n for n in m.notices_)
    with pytest.raises(ValueError, match="no points"):
        create("tied").fit(np.empty((0, 2)), np.empty(0))


# --- the boundaries: lines within a group, the exact conics across groups -------------------------------

def _four_classes():
    rng = np.random.default_rng(21)
    A = np.array([[0.5, 0.3], [0.3, 0.4]])
    B = np.array([[0.2, -0.1], [-0.1, 1.0]])
    means = ([-2.0, 1.5], [1.5, 2.0], [-1.5, -2.0], [2.0, -1.5])
    covs = (A, A * 1.3, B, B * 0.7)  # the data's own covariances differ a little within each group
    X = np.vstack([rng.multivariate_normal(m, c, 40) for m, c in zip(means, covs)])
    return X, np.repeat([0, 1, 2, 3], 40), ("a", "b", "c", "d"), "a,b;c,d", [[0, 1], [2, 3]]


def _example():
    from probviz.data.examples import load

    d = load("tied")
    return d.X, d.labels, tuple(d.class_names), "red,green", [[0, 1]]


def _segments_distance(P, xy):
    """The distance of each point of P to the polyline xy (NaN rows between pieces)."""
    a, b = xy[:-1], xy[1:]
    ok = np.all(np.isfinite(a), axis=1) & np.all(np.isfinite(b), axis=1)
    a, b = a[ok], b[ok]
    d = b - a
    t = np.clip(np.einsum("pnk,nk->pn", P[:, None, :] - a[None], d) / np.maximum(np.einsum("nk,nk->n", d, d), 1e-300),
                0, 1)
    nearest = a[None] + t[..., None] * d[None]
    return np.sqrt(((P[:, None, :] - nearest) ** 2).sum(axis=2)).min(axis=1)


@pytest.mark.parametrize("case", [_example, _four_classes])
def test_boundaries_are_lines_within_groups_and_the_exact_curves_across(case):
    from probviz.scene import boundaries

    X, y, names, text, groups = case()
    m = create("tied", groups=text).fit(X, y, names=names)
    classes, pi, mu, cov = pooled_ml(X, y, groups)
    lo, hi = X.min(axis=0) - 1.0, X.max(axis=0) + 1.0
    bounds = (lo[0], hi[0], lo[1], hi[1])
    extent = float(max(hi - lo))
    drawn = {(b.k, b.j): b.xy for b in boundaries(m, bounds)}
    tied = {(k, j) for g in groups for k in g for j in g if k < j}
    # the brute force: where the decided class (the reference's argmax a_k) changes between neighbours
    n = 1201
    xs, ys = np.linspace(lo[0], hi[0], n), np.linspace(lo[1], hi[1], n)
    G = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    A = reference_log_joint(G, pi, mu, cov).reshape(n, n, -1)
    best = A.argmax(axis=2)
    crossings = {}
    for r in range(n):
        for c in np.flatnonzero(best[r, :-1] != best[r, 1:]):
            k, j = sorted((best[r, c], best[r, c + 1]))
            f0, f1 = A[r, c, k] - A[r, c, j], A[r, c + 1, k] - A[r, c + 1, j]
            x = xs[c] + (xs[c + 1] - xs[c]) * f0 / (f0 - f1)  # the log-odds' zero, linearly between the nodes
            crossings.setdefault((k, j), []).append((x, ys[r]))
    assert set(crossings) <= set(drawn) and tied & set(drawn)  # a drawn boundary for every pair that meets
    for (k, j), xy in drawn.items():
        pts = xy[np.all(np.isfinite(xy), axis=1)]
        # on the exact zero set of a_k - a_j (eq. 4.63): |f| / |grad f| is the distance to it, to first order
        a = reference_log_joint(pts, pi, mu, cov)
        f = a[:, k] - a[:, j]
        grad = (np.einsum("ij,nj->ni", np.linalg.inv(cov[j]), pts - mu[j])
                - np.einsum("ij,nj->ni", np.linalg.inv(cov[k]), pts - mu[k]))
        assert np.all(np.abs(f) / np.linalg.norm(grad, axis=1) <= 1e-9 * extent), (k, j)
        # k and j are the top two there (the boundary stops where a third class takes over)
        others = np.delete(a, [k, j], axis=1)
        if others.shape[1]:
            assert np.all(a[:, k] >= others.max(axis=1) - 1e-9 * np.abs(a).max()), (k, j)
        if (k, j) in tied:  # a straight line: every point on the line through the two farthest apart
            p, q = pts[0], pts[np.argmax(np.linalg.norm(pts - pts[0], axis=1))]
            u = (q - p) / np.linalg.norm(q - p)
            off = np.abs((pts[:, 0] - p[0]) * u[1] - (pts[:, 1] - p[1]) * u[0])
            assert off.max() <= 1e-12 * extent, (k, j, off.max())
            np.testing.assert_array_equal(m.scores_.difference(k, j).coefs[0, 2:, :], 0.0)
            np.testing.assert_array_equal(m.scores_.difference(k, j).coefs[0, :, 2:], 0.0)
        else:
            assert m.scores_.difference(k, j).degree == 2
        # the brute force's zeros lie on the drawn curve (to the grid's interpolation error)
        if (k, j) in crossings:
            near = _segments_distance(np.array(crossings[(k, j)]), xy)
            assert near.max() <= 1e-4 * extent, (k, j, near.max())
    assert set(drawn) - tied  # and curves between the groups


def test_a_name_two_classes_share_groups_both():
    """The window lets two classes have one name; the name then stands for both."""
    X, y = three()
    m = create("tied", groups="a").fit(X, y, names=("a", "b", "a"))
    assert m.groups_ == [["a", "a"], ["b"]]
    np.testing.assert_array_equal(m.covariances_[0], m.covariances_[2])
