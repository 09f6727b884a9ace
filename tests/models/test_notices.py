"""What the discriminative fits say, word for word, and the state they leave in edge cases."""

import numpy as np
import pytest

from probviz.models import create
from probviz.models.newton import separation


def test_one_class_fits_nothing_and_says_so():
    X = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 1.0]])
    for name, F in (("logistic", 3), ("softmax", 3)):
        for standardize in (True, False):
            m = create(name, standardize=standardize, basis="linear").fit(X, [5, 5, 5])
            assert m.notices_ == ["only one class: nothing to discriminate, p(C|x) = 1 everywhere"]
            assert m.weights_.shape == (0, F) and m.coef_.shape == (0, F - 1) and m.intercept_.shape == (0,)
            assert (m.n_iter_, m.converged_, m.start_, m.separation_, m.gradient_) == (0, True, "zero", "", 0.0)
            np.testing.assert_array_equal(m.predict_proba(X), np.ones((3, 1)))
            c, s = m.frame_
            if standardize:
                np.testing.assert_allclose(c, X.mean(0)) and np.testing.assert_allclose(s, X.std(0))
            else:
                assert c.tolist() == [0.0, 0.0] and s.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("name, link", [("logistic", "sigma"), ("probit", "Phi")])
def test_one_vs_rest_says_how_its_posterior_is_made(name, link):
    """In the words of its own link: probit's posterior is Phi(a_k) normalised, not sigma(a_k)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2)) + np.repeat([[0, 0], [3, 0], [0, 3]], 10, axis=0)
    m = create(name).fit(X, np.repeat([0, 1, 2], 10))
    assert m.notices_ == [f"3 classes: fitted one-vs-rest (Bishop 4.1.2); hatched regions are ambiguous (no class, "
                          f"or several, has {link}(a_k) > 1/2); the posterior shown is {link}(a_k) normalised over k"]


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_separable_and_quasi_separable_notices(name):
    X = np.array([[0, 0], [1, 0], [3, 3], [4, 3]], float)
    m = create(name, l2=0.0).fit(X, [0, 0, 1, 1])
    assert m.notices_ == ["the classes are separable: without a penalty (l2 = 0) the maximum-likelihood weights are "
                          "infinite (Bishop 4.3.2); Newton stopped once every point was on its side. Raise l2 for a "
                          "finite fit"]
    X = np.array([[0, 0], [1, 0], [2, 0.5], [2, 0.5], [3, 1], [4, 1]], float)
    m = create(name, l2=0.0).fit(X, [0, 0, 0, 1, 1, 1])
    assert m.notices_ == ["the classes are quasi-separable (a line puts every point on its side or on the line): "
                          f"without a penalty (l2 = 0) no finite maximum-likelihood weights exist; stopped after "
                          f"{m.n_iter_} Newton steps. Raise l2 for a finite fit"]
    assert 0 < m.n_iter_ <= 25 and m.gradient_ > 0


def test_a_fit_cut_short_says_so():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] + 0.3 * rng.normal(size=40) > 0).astype(int)
    m = create("softmax", max_iter=1).fit(X, y)
    assert not m.converged_ and m.n_iter_ == 1 and m.gradient_ > 1e-10
    (note,) = m.notices_
    assert note.startswith("Newton did not reach the optimum (max_iter after 1 steps, gradient ")
    assert note.endswith(" of its scale): the posteriors are approximate")


def test_one_vs_rest_without_a_penalty_counts_every_problems_steps():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2)) * 2
    y = np.repeat([0, 1, 2], 20)
    m = create("logistic", l2=0.0).fit(X, y)
    singles = [create("logistic", l2=0.0).fit(X, (y == k).astype(int)) for k in range(3)]
    assert m.converged_ and m.n_iter_ == sum(s.n_iter_ for s in singles)
    for k, s in enumerate(singles):  # each one-vs-rest problem is the two-class fit of k against the rest
        np.testing.assert_allclose(m.coef_[k], s.coef_[0], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("X,y,K,expected", [
    ([[0, 0], [1, 0], [3, 3], [4, 3]], [0, 0, 1, 1], 2, "separable"),
    ([[0, 0], [1, 0], [2, 0.5], [2, 0.5], [3, 1], [4, 1]], [0, 0, 0, 1, 1, 1], 2, "quasi-separable"),
    ([[0, 0], [1, 0], [2, 0], [0.5, 0.2], [1.5, 0.1], [2.5, 0.3]], [0, 1, 0, 1, 0, 1], 2, ""),
    ([[0, 0], [0.2, 0], [5, 5], [5.2, 5], [-5, 5], [-5.2, 5]], [0, 0, 1, 1, 2, 2], 3, "separable"),
    ([[0, 0], [1, 1], [0, 1], [1, 0], [0.5, 0.5], [0.4, 0.6]], [0, 0, 1, 1, 2, 2], 3, ""),
])
def test_separation_by_linear_programming(X, y, K, expected):
    X = np.asarray(X, float)
    Z = (X - X.mean(0)) / X.std(0)
    assert separation(np.column_stack([np.ones(len(X)), Z]), np.asarray(y), K) == expected
    for offset, scale in ((0.0, 1.0), (1e6, 1.0), (0.0, 1e-6), (3e3, 1e3)):  # through the models, any units
        for standardize in (True, False):
            m = create("softmax", l2=0.0, standardize=standardize).fit(X * scale + offset, y)
            assert m.separation_ == expected, (offset, scale, standardize)
            assert m.converged_ == (expected == "")


def test_separation_edge_cases():
    assert separation(np.array([[1.0, 1.0, 1.0]]), np.array([0]), 2) == "separable"  # a class alone
    assert separation(np.empty((0, 3)), np.empty(0, int), 2) == ""
    assert separation(np.ones((3, 3)), np.zeros(3, int), 1) == ""
