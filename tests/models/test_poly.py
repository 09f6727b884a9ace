"""Polynomials moved between coordinate frames keep their values, even at large offsets."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypo import examples

from probviz.models.poly import Poly2D


def test_the_same_frame_gives_the_same_coefficients():
    """No detour through raw units: at an offset of 1e6 and a scale of 1e-3 that detour
    rounds the constant term by about 1e-6 (a weight of 5 times 1e6 / 1e-3 = 5e9, then back)."""
    rng = np.random.default_rng(0)
    c, s = np.array([1e6, -1e6]), np.array([1.1, 7.5e-4])
    p = Poly2D(c, s, rng.normal(size=(3, 3, 3)) * np.tri(3)[::-1])
    assert np.array_equal(p.in_frame(c, s, 2), p.coefs)


@settings(max_examples=examples(50), deadline=None)
@given(seed=st.integers(0, 2**31), offset=st.sampled_from([0.0, 1e3, 1e6]),
       scale=st.sampled_from([1e-6, 1.0, 1e6]), degree=st.integers(1, 3))
def test_values_agree_in_a_nearby_frame(seed, offset, scale, degree):
    """In the frame (c + delta, s * gamma) the coefficients give the same values at the same points,
    computed independently: z' = (x - c') / s' and the monomials summed by hand."""
    rng = np.random.default_rng(seed)
    c = offset + scale * rng.normal(size=2)
    s = scale * rng.uniform(0.5, 2, size=2)
    coefs = rng.normal(size=(2, degree + 1, degree + 1))
    coefs *= np.add.outer(np.arange(degree + 1), np.arange(degree + 1)) <= degree
    p = Poly2D(c, s, coefs)
    c2, s2 = c + scale * rng.normal(size=2), s * rng.uniform(0.5, 2, size=2)
    new = p.in_frame(c2, s2, degree)
    X = c + s * rng.normal(size=(20, 2))
    z, z2 = (X - c) / s, (X - c2) / s2
    for k in range(2):
        want = sum(coefs[k, i, j] * z[:, 0] ** i * z[:, 1] ** j
                   for i in range(degree + 1) for j in range(degree + 1))
        got = sum(new[k, i, j] * z2[:, 0] ** i * z2[:, 1] ** j
                  for i in range(degree + 1) for j in range(degree + 1))
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-8 * np.abs(coefs[k]).sum() * 10 ** degree)



@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 2**31), degree=st.integers(1, 3), offset=st.sampled_from([0.0, 1e3]))
def test_the_gradient_is_the_derivative(seed, degree, offset):
    """Against central differences of the values, written out here."""
    rng = np.random.default_rng(seed)
    coefs = rng.normal(size=(3, degree + 1, degree + 1))
    coefs *= np.add.outer(np.arange(degree + 1), np.arange(degree + 1)) <= degree
    p = Poly2D(offset + rng.normal(size=2), rng.uniform(0.5, 2, size=2), coefs)
    X = p.center + p.scale * rng.normal(size=(25, 2))
    h = 1e-5 * p.scale
    num = np.stack([(p(X + [h[0], 0]) - p(X - [h[0], 0])) / (2 * h[0]),
                    (p(X + [0, h[1]]) - p(X - [0, h[1]])) / (2 * h[1])], axis=-1)
    np.testing.assert_allclose(p.gradient(X), num, rtol=1e-6, atol=1e-6 * np.abs(num).max())


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31), K=st.integers(1, 4), degree=st.integers(1, 3), data=st.data())
def test_values_at_points_are_the_sum_of_the_terms_whichever_terms_are_used(seed, K, degree, data):
    """Any pattern of monomials (z1 alone, z2 alone, no linear term at all, only a constant): the values at
    points are sum_ij coefs[k, i, j] z1^i z2^j written out term by term."""
    rng = np.random.default_rng(seed)
    coefs = np.zeros((K, degree + 1, degree + 1))
    terms = [(i, j) for i in range(degree + 1) for j in range(degree + 1) if i + j <= degree]
    used = data.draw(st.lists(st.sampled_from(terms), unique=True, max_size=len(terms)))
    for i, j in used:
        coefs[:, i, j] = rng.normal(size=K)
    poly = Poly2D(rng.normal(size=2), np.exp(rng.normal(size=2)), coefs)
    X = rng.normal(size=(50, 2)) * 3
    z = (X - poly.center) / poly.scale
    plain = sum(coefs[:, i, j][None] * (z[:, :1] ** i * z[:, 1:] ** j) for i, j in terms)
    plain = plain + np.zeros((len(X), K))
    np.testing.assert_allclose(poly(X), plain, rtol=1e-12, atol=1e-12 * (1 + np.abs(plain).max()))
