"""Hatching as vector lines (figure_layout.stripes): every segment lies on a stripe x + y = offset + k * period,
inside the rings (even-odd: holes stay empty), and the stripes are covered inside the rings and nowhere else.
Checked against matplotlib's point-in-polygon test on polygons with holes, vertices on the stripes, touches
at corners and far offsets."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from matplotlib.path import Path

from probviz.figure_layout import stripes


def inside(rings, pts) -> np.ndarray:
    """Even-odd: inside an odd number of the (simple) rings."""
    count = np.zeros(len(pts), int)
    for r in rings:
        count += Path(np.asarray(r, float)).contains_points(pts)
    return count % 2 == 1


def check(rings, period, offset=0.0, samples=4000):
    segs = stripes(rings, period, offset)
    allv = np.vstack(rings)
    scale = max(1.0, float(np.abs(allv).max()))
    u = segs.sum(axis=2)  # x + y at both ends
    k = (u - offset) / period
    assert np.allclose(k, np.round(k), atol=1e-7 * scale / period) and np.allclose(k[:, 0], k[:, 1])
    length = np.hypot(*(segs[:, 1] - segs[:, 0]).T)
    assert np.all(length > 0)
    long = length > 1e-6 * scale
    for f in (0.31, 0.69):  # each segment is inside (two points along it: a middle may touch a hole's corner)
        assert np.all(inside(rings, (segs[:, 0] + f * (segs[:, 1] - segs[:, 0]))[long]))
    # along each stripe over the rings' extent, the inked length is the length inside, sampled independently
    lo, hi = allv.sum(axis=1).min(), allv.sum(axis=1).max()
    vlo, vhi = (allv[:, 0] - allv[:, 1]).min(), (allv[:, 0] - allv[:, 1]).max()
    ks = np.arange(np.ceil((lo - offset) / period), np.floor((hi - offset) / period) + 1)
    vs = np.linspace(vlo, vhi, samples)
    kseg = np.round((segs[:, 0].sum(axis=1) - offset) / period)
    on_edge = {float(k) for r in rings for ua, ub in zip(r.sum(axis=1), np.roll(r, -1, axis=0).sum(axis=1))
               if ua == ub and float((ua - offset) / period).is_integer() for k in [(ua - offset) / period]}
    for kk in ks[:: max(1, len(ks) // 25)]:
        if kk in on_edge:
            continue  # a stripe along an edge: on the boundary, drawn or not
        c = offset + kk * period
        pts = np.c_[(c + vs) / 2, (c - vs) / 2]
        sampled = inside(rings, pts).mean() * (vhi - vlo) / np.sqrt(2)
        drawn = length[kseg == kk].sum()
        crossings = 2 * len(rings) + 2 * len(allv)  # a bound on the ends the sampling can miss
        assert drawn == pytest.approx(sampled, abs=crossings * (vhi - vlo) / samples + 1e-9 * scale)
    return segs


def star(rng_values, centre, r_lo, r_hi):
    n = len(rng_values)
    angles = np.sort(np.asarray(rng_values[:, 0])) * 2 * np.pi
    angles = angles + np.arange(n) * 1e-3  # distinct angles: a simple polygon around the centre
    radii = r_lo + (r_hi - r_lo) * np.asarray(rng_values[:, 1])
    return np.c_[centre[0] + radii * np.cos(angles), centre[1] + radii * np.sin(angles)]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(3, 40), st.sampled_from([1.0, 3.0, 9.0, 9.5, 0.37]),
       st.floats(-50, 50), st.sampled_from([0.0, 1e4, -3e5]), st.booleans())
def test_stripes_cover_exactly_the_inside_of_rings_with_holes(seed, n, period, offset, far, hole):
    rng = np.random.default_rng(seed)
    centre = np.array([far + 200.0, far - 100.0])
    outer = star(rng.random((n, 2)), centre, 60.0, 150.0)
    rings = [outer]
    if hole:
        rings.append(star(rng.random((max(3, n // 2), 2)), centre, 10.0, 50.0))  # inside the outer's least radius
    check(rings, period, offset)


def test_vertices_on_the_stripes_and_touching_corners():
    """An axis-aligned square whose corners sit on stripes (x + y = 0 and 20 touch it at one corner each), a
    diamond with two edges along stripes and two across them, two squares side by side sharing an edge, and a
    square with a square hole."""
    square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    segs = check([square], 2.0)
    assert len(segs) == 9  # x + y = 2, 4, ..., 18: the corners at 0 and 20 are touches, not stripes
    np.testing.assert_array_equal(stripes([square], 2.0), segs)  # the stripes start at x + y = 0 unless told
    np.testing.assert_array_equal(np.sort(segs.sum(axis=2)[:, 0]), np.arange(2.0, 19.0, 2.0))
    diamond = np.array([[10.0, 0.0], [20.0, 10.0], [10.0, 20.0], [0.0, 10.0]])  # edges along and across the stripes
    check([diamond], 2.0)
    check([diamond], 2.5, 0.3)
    pair = [square, square + [10.0, 0.0]]
    check(pair, 1.5)
    holed = [square * 3, square + 10]  # a hole in the middle
    segs = check(holed, 2.0)
    for f in (0.31, 0.69):
        assert not np.any(inside([square + 10], segs[:, 0] + f * (segs[:, 1] - segs[:, 0])))


def test_nothing_to_hatch():
    assert stripes([], 4.0).shape == (0, 2, 2)
    assert stripes([np.array([[0.0, 0.0], [1.0, 1.0]])], 4.0).shape == (0, 2, 2)  # no area
    assert stripes([np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])], 0.0).shape == (0, 2, 2)
    tiny = np.array([[0.1, 0.1], [0.3, 0.1], [0.1, 0.3]])
    assert stripes([tiny], 4.0).shape == (0, 2, 2)  # between two stripes
    square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    broken = np.array([[2.0, 2.0], [np.nan, 3.0], [4.0, 8.0], [1.0, 6.0]])
    np.testing.assert_array_equal(stripes([square, broken], 2.0), stripes([square], 2.0))  # a ring with a NaN: left out
