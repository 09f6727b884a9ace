"""What the canvas draws, computed once per fit: pure numpy (plus contourpy), no Qt.

* the posterior p(C_k|x) on a grid and an RGBA image of it,
* decision boundaries as polylines in data coordinates (exact lines for linear
  models; for curved ones, contourpy on the exact score polynomial, every vertex
  then projected onto the curve by Newton steps), kept only where the two classes
  are the top two,
* covariance ellipses at Mahalanobis radii and iso-density contours of p(x|C_k),
  both from the eigen-decomposition of each covariance (closed form).
"""

from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass, field

import contourpy
import numpy as np
from probviz.special import expit, ndtr

from probviz.colors import rgb_array
from probviz.layers import SAMPLES, SAMPLES_SEED

Bounds = tuple[float, float, float, float]  # xmin, xmax, ymin, ymax


def grid_axes(bounds: Bounds, cols: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel-centre coordinates of a cols x rows image covering ``bounds``."""
    x0, x1, y0, y1 = bounds
    xs = x0 + (np.arange(cols) + 0.5) * ((x1 - x0) / cols)
    ys = y0 + (np.arange(rows) + 0.5) * ((y1 - y0) / rows)
    return xs, ys


_local = threading.local()


def _scratch(shape) -> np.ndarray:
    """A float64 work array reused between frames (per thread): a fresh 1.5 MB array each
    frame costs more in page faults than the arithmetic done in it."""
    buf = getattr(_local, "buf", None)
    if buf is None or buf.shape != shape:
        buf = _local.buf = np.empty(shape)
    return buf


def grid_scores(model, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The model's scores a_k at every grid node, (K, len(ys), len(xs)) float64, exact (evaluated separably).
    They live in a work array of this thread that the next call overwrites."""
    K = model.scores_.coefs.shape[0]
    return model.scores_.evaluate_grid(xs, ys, out=_scratch((K, len(ys), len(xs))))


def posterior_grid(model, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """p(C_k|x) at every grid node: float32 array of shape (len(ys), len(xs), K).

    Scores are evaluated separably in float64 (exact), shifted by their maximum,
    and exponentiated in float32: the K * rows * cols exponentials are the cost floor.
    """
    return posterior_of_scores(model, grid_scores(model, xs, ys))


def posterior_of_scores(model, S: np.ndarray) -> np.ndarray:
    """p(C_k|x) from the grid's scores ``S`` (K, R, C) (:func:`grid_scores`; ``S`` may be overwritten): float32
    (R, C, K)."""
    if S.shape[0] == 1:
        return np.ones(S.shape[1:] + (1,), dtype=np.float32)
    P = model.proba_from_scores(S, axis=0, dtype=np.float32)
    # a (rows, cols, K) view of contiguous class planes: per-pixel reductions over the
    # classes then run as K elementwise passes instead of a slow short-axis reduction
    return np.moveaxis(P, 0, -1)


def posterior_image(P: np.ndarray, colors, background=(255, 255, 255), strength: float = 0.45,
                    alpha: int = 255) -> np.ndarray:
    """RGBA uint8 image (rows, cols, 4) blending the class colours by posterior.

    Certainty c = (max_k p_k - 1/K) / (1 - 1/K) is 1 where one class has p = 1 and 0
    where the posterior is uniform; the pixel is background + strength * c * (mix - background),
    with mix = sum_k p_k colour_k. ``strength`` < 1 keeps the heatmap lighter than the points.
    """
    R, C, K = P.shape
    cols = rgb_array(colors)[:K]
    bg = np.asarray(background[:3], dtype=np.float32)
    planes = np.moveaxis(P, -1, 0)  # (K, R, C); contiguous when P came from posterior_grid
    if K > 1:  # strength * certainty
        c = np.maximum.reduce(planes, axis=0)
        c -= 1.0 / K
        c *= strength * K / (K - 1.0)
    else:
        c = np.full((R, C), strength, np.float32)
    out = np.empty((R, C, 4), dtype=np.uint8)
    for ch in range(3):  # bg + c * (sum_k p_k colour_k - bg); a convex blend needs no clipping
        mix = planes[0] * cols[0, ch]
        for k in range(1, K):
            mix += planes[k] * cols[k, ch]
        mix -= bg[ch]
        mix *= c
        mix += bg[ch] + 0.5
        out[..., ch] = mix
    out[..., 3] = alpha
    return out


def decision_image(P: np.ndarray, colors, theta: float = 0.0, background=(255, 255, 255),
                   reject=(170, 170, 170), strength: float = 0.45, alpha: int = 255) -> np.ndarray:
    """The decision stage (Bishop 1.5.4): argmax_k p(C_k|x) as flat class colours, RGBA uint8.

    Where max_k p(C_k|x) < theta the point is rejected (no decision): drawn in ``reject`` grey.
    """
    K = P.shape[2]
    bg = np.asarray(background[:3], dtype=np.float32)
    planes = np.moveaxis(P, -1, 0)  # (K, R, C); contiguous when P came from posterior_grid
    best, top = np.zeros(P.shape[:2], np.intp), planes[0].copy()
    for k in range(1, K):  # the first of equal maxima, as np.argmax: K passes, not a reduction across a short axis
        best[planes[k] > top] = k
        np.maximum(top, planes[k], out=top)
    table = bg + strength * (rgb_array(colors)[:K] - bg)
    if theta > 0:  # rejected: the row after the classes'
        table = np.vstack([table, np.asarray(reject[:3], dtype=np.float32)])
        best[top < theta] = K
    return flat_image(best, table, alpha)


def reject_region(P: np.ndarray, bounds: Bounds, theta: float) -> list[np.ndarray]:
    """Where no decision is made (max_k p(C_k|x) < theta, Bishop 1.5.3) as polygons: closed rings
    (M, 2) in data coordinates, holes included (fill them even-odd). Traced by contourpy on the
    posterior grid, so their edges are smooth lines, not the grid's pixel staircase; the grid is
    extended to the view's edges by its edge values."""
    if theta <= 0:
        return []
    return _below(P.max(axis=2), bounds, -1.0, theta)


def _below(Z: np.ndarray, bounds: Bounds, low: float, level: float, axes=None) -> list[np.ndarray]:
    """Closed rings around where the pixel-centred grid Z (R, C) lies between ``low`` and ``level`` (``axes``:
    the nodes' xs and ys inside ``bounds``, by default the pixel centres of an R x C image over them)."""
    x0, x1, y0, y1 = bounds
    R, C = Z.shape
    xs, ys = grid_axes(bounds, C, R) if axes is None else axes
    Z = np.pad(Z.astype(np.float64), 1, mode="edge")
    gx, gy = np.meshgrid(np.r_[x0, xs, x1], np.r_[y0, ys, y1])
    bad = ~np.isfinite(Z)
    # contourpy's serial generator made directly, as zero_lines makes it: contour_generator's checks and
    # masked-array conversion cost 2 ms at 258 x 258 nodes, three times the trace
    gen = contourpy.SerialContourGenerator(
        gx, gy, Z, bad if bad.any() else None, corner_mask=True, line_type=contourpy.LineType.Separate,
        fill_type=contourpy.FillType.OuterOffset, quad_as_tri=False, z_interp=contourpy.ZInterp.Linear,
        x_chunk_size=0, y_chunk_size=0)
    points, offsets = gen.filled(low, level)
    rings = []
    for pts, off in zip(points, offsets):
        rings += [pts[a:b] for a, b in zip(off[:-1], off[1:]) if b - a >= 3]
    return rings


def undecided_rings(S: np.ndarray | None, bounds: Bounds, scores=None) -> list[np.ndarray]:
    """Where one-vs-rest cannot decide (Bishop 4.1.2: no class, or more than one, has a_k > 0, that is
    sigma(a_k) > 1/2 or Phi(a_k) > 1/2), as polygons: closed rings (M, 2) in data coordinates,
    holes included (fill them even-odd; a hole runs the other way round from the ring around it).

    Straight boundaries (``scores``, the fit's polynomials, of degree 1): exact, by :func:`_undecided_polygons`
    (``S`` is not read). Curved ones: traced by contourpy on the scores ``S`` (K, R, C) of the pixel-centred
    grid over ``bounds``, at every other node (a quarter of the cost: under a millisecond at 256 x 256). A point is decided
    where h = min(max_k a_k, -second largest a_k) > 0 (one score positive, the rest not); h is continuous and
    vanishes on the curves a_k = 0 that bound the decided regions, so the rings' edges are smooth lines
    (linear interpolation, exact where h is linear between nodes), not the grid's pixel staircase."""
    if scores is not None and getattr(scores, "degree", 2) <= 1 and hasattr(scores, "coefs"):
        return _undecided_polygons(scores, bounds)
    xs, ys = grid_axes(bounds, S.shape[2], S.shape[1])
    S = S[:, ::2, ::2]
    top, second = np.full(S.shape[1:], -np.inf), np.full(S.shape[1:], -np.inf)
    for plane in S:  # the largest and second largest score at each node
        np.maximum(second, np.minimum(top, plane), out=second)
        np.maximum(top, plane, out=top)
    h = np.minimum(top, -second)
    if not (h <= 0).any():
        return []
    return _below(h, bounds, float(h.min()) - 1.0, 0.0, axes=(xs[::2], ys[::2]))


def _undecided_polygons(poly, bounds: Bounds) -> list[np.ndarray]:
    """One-vs-rest's undecided region for straight scores a_k = c_k + w_k . z, z = (x - center) / scale: the view
    with each class's decided region cut out as a hole. Class k decides where a_k > 0 and a_j <= 0 for every other
    j, an intersection of half-planes, so a convex polygon: the view's rectangle clipped by each line a_j = 0
    (Sutherland-Hodgman) in z, where the scores are well scaled at any offset, and taken back to x. The decided
    polygons are disjoint (no point has two classes' a_k > 0 and a_k <= 0 alike), so the view's ring with them
    as holes is exact: no grid, a few dozen vertices instead of hundreds. The view runs anticlockwise, the holes
    clockwise (a nonzero fill leaves them empty too). A handful of vertices: plain floats, not arrays."""
    x0, x1, y0, y1 = bounds
    (m1, m2), (s1, s2) = (float(v) for v in poly.center), (float(v) for v in poly.scale)
    coefs = poly.coefs
    lines = [(float(coefs[j, 0, 0]), float(coefs[j, 1, 0]) if coefs.shape[1] > 1 else 0.0,
              float(coefs[j, 0, 1]) if coefs.shape[2] > 1 else 0.0) for j in range(len(coefs))]  # degree 1: no more
    view = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]  # anticlockwise
    in_z = [((x - m1) / s1, (y - m2) / s2) for x, y in view]
    holes, decided = [], 0.0
    for k in range(len(lines)):
        ring = in_z
        for j in [k] + [j for j in range(len(lines)) if j != k]:  # its own half-plane first: often empty at once
            c, a, b = lines[j]
            sign = 1.0 if j == k else -1.0
            ring = _keep_side(ring, [sign * (c + a * u + b * v) for u, v in ring])
            if len(ring) < 3:
                break
        else:
            hole = np.array([(m1 + s1 * u, m2 + s2 * v) for u, v in ring])
            area = _area(hole)
            if area != 0:
                holes.append(hole[::-1] if area > 0 else hole)  # clockwise
                decided += abs(area)
    if decided >= (x1 - x0) * (y1 - y0) * (1 - 1e-12):
        return []  # one class decides the whole view
    return [np.array(view, dtype=float)] + holes


def _keep_side(ring: list, g: list) -> list:
    """The convex polygon ``ring`` (vertices (u, v)) cut to where the linear function with values ``g`` at its
    vertices is >= 0: the vertices kept, and where an edge crosses g = 0 the crossing (linear interpolation, exact
    for a linear g)."""
    out = []
    n = len(ring)
    for i in range(n):
        j = (i + 1) % n
        if g[i] >= 0:
            out.append(ring[i])
        if (g[i] >= 0) != (g[j] >= 0):
            t = g[i] / (g[i] - g[j])
            (u0, v0), (u1, v1) = ring[i], ring[j]
            out.append((u0 + t * (u1 - u0), v0 + t * (v1 - v0)))
    return out


def _area(ring: np.ndarray) -> float:
    """A polygon's signed area (shoelace, about its first vertex: no cancellation at large offsets): positive
    anticlockwise."""
    d = ring - ring[0]
    return 0.5 * float(np.dot(d[:-1, 0], d[1:, 1]) - np.dot(d[1:, 0], d[:-1, 1]))


def hatch_image(mask: np.ndarray, color=(40, 40, 40), alpha: int = 120, period: int = 6) -> np.ndarray:
    """Diagonal hatching where ``mask`` (rows, cols) is True, transparent elsewhere: RGBA uint8."""
    return _hatching(mask.shape, tuple(int(c) for c in color[:3]), int(alpha), int(period)) * mask[..., None]


@functools.lru_cache(maxsize=4)
def _hatching(shape, color, alpha: int, period: int) -> np.ndarray:
    """Diagonal stripes over a whole image of ``shape`` (rows, cols): RGBA uint8, read-only. Every frame of a
    one-vs-rest model masks the same stripes; making them is a pass of integer arithmetic and a scatter."""
    rows, cols = shape
    stripe = ((np.arange(rows)[:, None] + np.arange(cols)[None, :]) % period) < period // 2
    out = np.zeros((rows, cols, 4), dtype=np.uint8)
    out[stripe, :3] = color
    out[stripe, 3] = alpha
    out.flags.writeable = False
    return out


def regions_image(codes: np.ndarray, colors, background=(255, 255, 255), strength: float = 0.45) -> np.ndarray:
    """A discriminant's decision regions (Bishop 4.1): class ``codes`` (rows, cols) in flat colours,
    the background where the scheme decides nothing (code -1). RGBA uint8."""
    K = int(codes.max()) + 1 if codes.size else 0
    bg = np.asarray(background[:3], dtype=np.float32)
    table = np.vstack([bg + strength * (rgb_array(colors)[:max(K, 1)] - bg), bg])  # row -1: the background
    return flat_image(codes, table)


def flat_image(codes: np.ndarray, table, alpha: int = 255) -> np.ndarray:
    """RGBA uint8 (rows, cols, 4), each pixel the colour (r, g, b) of ``table`` (n, 3, each in [0, 255]: blends of
    colours, or a colour) at its integer code (-1: the last row), rounded to the nearest byte: each colour is
    rounded once and its four bytes gathered as one 32-bit word (0.1 ms at 256 x 256; rounding the floats of every
    pixel took 3 ms)."""
    rgba = np.empty((len(table), 4), dtype=np.uint8)
    rgba[:, :3] = np.asarray(table) + 0.5  # (truncated to a byte: rounded)
    rgba[:, 3] = alpha
    return rgba.view(np.uint32)[:, 0][codes].view(np.uint8).reshape(np.shape(codes) + (4,))


DENSITY_THRESHOLD = 50_000  # more points than this are drawn as a density image, not one by one
DENSITY_SHAPE = (480, 360)


@dataclass(frozen=True)
class Density:
    """Many points binned on the pixels of an image over ``bounds`` (``shape`` = cols x rows): each class's
    count per pixel, their totals, and the RGBA image they make (see :func:`density`)."""

    counts: np.ndarray  # (K, rows * cols) int64
    total: np.ndarray  # (rows * cols,) int64
    image: np.ndarray  # (rows, cols, 4) uint8
    bounds: tuple
    shape: tuple
    rgb: np.ndarray  # (K, 3) int64, the class colours


def rgb_ints(colors) -> np.ndarray:
    """(K, 3) int64 in [0, 255]: the class colours a density image mixes."""
    return np.rint(rgb_array(colors)).astype(np.int64)


def _pixel_index(X: np.ndarray, bounds: Bounds, shape) -> np.ndarray:
    """The flat pixel (row * cols + col) each point falls in, -1 outside the view."""
    cols, rows = shape
    x0, x1, y0, y1 = bounds
    ix = np.floor((X[:, 0] - x0) * (cols / (x1 - x0))).astype(np.int64)
    iy = np.floor((X[:, 1] - y0) * (rows / (y1 - y0))).astype(np.int64)
    return np.where((ix >= 0) & (ix < cols) & (iy >= 0) & (iy < rows), iy * cols + ix, -1)


def _shade(d: Density, pixels: np.ndarray, lut: np.ndarray) -> None:
    """Paint ``pixels`` of ``d.image`` from their counts, in integers (the same bytes however many are
    painted at once): the count-weighted mix of the class colours rounded half up, the opacity from
    ``lut`` (by the pixel's total)."""
    flat = d.image.reshape(-1, 4)
    total = d.total[pixels]
    hit = total > 0
    mixed = d.counts[:, pixels].T @ d.rgb  # (n, 3) exact integers
    safe = np.maximum(total, 1)[:, None]
    flat[pixels, :3] = np.where(hit[:, None], (2 * mixed + safe) // (2 * safe), 0)
    flat[pixels, 3] = lut[total]


def _opacity(most: int) -> np.ndarray:
    """Opacity by a pixel's count n: 90 + 165 log(1 + n) / log(1 + n_max), rounded; 0 for none."""
    n = np.arange(most + 1, dtype=float)
    lut = (90.5 + 165.0 * np.log1p(n) / np.log1p(max(most, 1))).astype(np.uint8)
    lut[0] = 0
    return lut


def density(X: np.ndarray, labels: np.ndarray, colors, bounds: Bounds, shape=(400, 300)) -> Density:
    """Many points as one RGBA image (cols x rows pixels over ``bounds``): each pixel's colour is
    the count-weighted mix of the class colours in it, its opacity grows with log(1 + count).

    Every class with a point in view tints the pixels it falls in, however outnumbered.
    """
    cols, rows = shape
    rgb = rgb_ints(colors)
    K, P = len(rgb), rows * cols
    pix = _pixel_index(X, bounds, shape)
    keep = pix >= 0
    counts = np.bincount(labels[keep] * P + pix[keep], minlength=K * P).reshape(K, P)
    total = counts.sum(axis=0)
    d = Density(counts, total, np.zeros((rows, cols, 4), np.uint8), tuple(bounds), tuple(shape), rgb)
    _shade(d, np.flatnonzero(total), _opacity(int(total.max(initial=0))))
    return d


def density_moved(d: Density, old: np.ndarray, new: np.ndarray, labels: np.ndarray) -> Density:
    """``d`` after the points of ``labels`` at ``old`` moved to ``new`` (a drag): the same counts and image
    as :func:`density` of the points as they are now, in O(moved points) unless the largest count
    changes (every pixel's opacity then changes with it)."""
    P = len(d.total)
    before, after = _pixel_index(old, d.bounds, d.shape), _pixel_index(new, d.bounds, d.shape)
    counts, total = d.counts.copy(), d.total.copy()
    for pix, sign in ((before, -1), (after, 1)):
        inside = pix >= 0
        np.add.at(counts.reshape(-1), labels[inside] * P + pix[inside], sign)
        np.add.at(total, pix[inside], sign)
    out = Density(counts, total, d.image.copy(), d.bounds, d.shape, d.rgb)
    most, was = int(total.max(initial=0)), int(d.total.max(initial=0))
    changed = np.unique(np.r_[before, after])
    changed = changed[changed >= 0]
    if most != was:
        changed = np.flatnonzero(total)
        out.image[...] = 0
    _shade(out, changed, _opacity(most))
    return out


def density_image(X: np.ndarray, labels: np.ndarray, colors, bounds: Bounds, shape=(400, 300)) -> np.ndarray:
    """The image of :func:`density`."""
    return density(X, labels, colors, bounds, shape).image


# --- boundaries -----------------------------------------------------------------

@dataclass
class Boundary:
    """The decision boundary between classes k and j: polyline (M, 2), NaN rows between pieces."""

    k: int
    j: int
    xy: np.ndarray


def _clip_line(x0, d, bounds) -> tuple[float, float] | None:
    """Liang-Barsky: the parameter interval of x0 + t d inside the box, or None."""
    lo, hi = -np.inf, np.inf
    box = ((bounds[0], bounds[1]), (bounds[2], bounds[3]))
    for axis, (a, b) in enumerate(box):
        if d[axis] == 0:
            if not a <= x0[axis] <= b:
                return None
            continue
        t1, t2 = sorted(((a - x0[axis]) / d[axis], (b - x0[axis]) / d[axis]))
        lo, hi = max(lo, t1), min(hi, t2)
    return (lo, hi) if lo < hi else None


def _line(poly, k, j, bounds):
    """The line s_k = s_j as a point and direction in data units, clipped: (x0, d, t0, t1)."""
    c = poly.coefs[k] - poly.coefs[j]
    n = np.array([c[1, 0], c[0, 1]])
    nn = float(n @ n)
    if nn == 0.0:
        return None
    z0 = -c[0, 0] * n / nn
    x0 = poly.center + poly.scale * z0
    d = poly.scale * np.array([-n[1], n[0]])
    d /= np.hypot(*d)
    span = _clip_line(x0, d, bounds)
    return None if span is None else (x0, d, *span)


def _top_two_interval(poly, k, j, x0, d, t0, t1):
    """Exact sub-interval of the line where k and j beat every other class (all scores linear)."""
    for m in range(poly.coefs.shape[0]):
        if m in (k, j):
            continue
        g0, g1 = (poly(np.array([x0, x0 + d])) @ _pick(poly, k, m))
        slope = g1 - g0  # g(t) = s_k - s_m along the line, linear in t
        if slope == 0.0:
            if g0 < 0:
                return None
        elif slope > 0:
            t0 = max(t0, -g0 / slope)
        else:
            t1 = min(t1, -g0 / slope)
        if t0 >= t1:
            return None
    return t0, t1


def _pick(poly, k, m):
    v = np.zeros(poly.coefs.shape[0])
    v[k], v[m] = 1.0, -1.0
    return v


def _project(poly_km, pts, steps=4, free=None):
    """Newton steps x <- x - f grad f / |grad f|^2 onto the zero set of one polynomial.

    ``free`` (N, 2) of 0/1, if given, says in which coordinates each point may move: a point with
    one coordinate held slides along that line (a 1-D Newton step). Starting within a contour cell,
    two steps usually reach machine precision; up to ``steps`` are taken while any point still moves
    by more than 1e-12 of the frame.
    """
    pts = pts.copy()
    tiny = 1e-12 * float(np.max(poly_km.scale))
    for _ in range(steps):
        f = poly_km(pts)[:, 0]
        g = poly_km.gradient(pts)[:, 0, :]
        if free is not None:
            g = g * free
        gg = np.einsum("ni,ni->n", g, g)
        ok = gg > 0
        delta = (f[ok] / gg[ok])[:, None] * g[ok]
        pts[ok] -= delta
        if not delta.size or np.abs(delta).max() < tiny:
            break
    return pts


def _project_keeping_edges(poly_km, line, bounds):
    """Project a traced curve onto the exact zero set; an end that lies on an edge of the view
    slides along that edge, so the curve still ends exactly at the plot's edge."""
    free = np.ones_like(line)
    line = line.copy()
    tol = 1e-9 * max(bounds[1] - bounds[0], bounds[3] - bounds[2])  # contourpy's edge nodes may be an ulp off
    for i in (0, len(line) - 1):
        for axis, edges in ((0, bounds[:2]), (1, bounds[2:])):
            near = [e for e in edges if abs(line[i, axis] - e) <= tol]
            if near:
                line[i, axis] = near[0]  # exactly on the edge, and held there
                free[i, axis] = 0.0
                break
    out = _project(poly_km, line, steps=6, free=free)
    lo, hi = np.array([bounds[0], bounds[2]]), np.array([bounds[1], bounds[3]])
    out[[0, -1]] = np.clip(out[[0, -1]], lo, hi)  # an end never leaves the view
    return out


def _margin(poly, pts, k, j):
    """min(s_k, s_j) - max over other classes: >= 0 where k and j are the top two."""
    S = poly(pts)
    pair = np.minimum(S[:, k], S[:, j])
    others = np.delete(S, [k, j], axis=1)
    return pair - (others.max(axis=1) if others.shape[1] else -np.inf)


def _mask_top_two(poly, k, j, line: np.ndarray) -> list[np.ndarray]:
    """Pieces of a polyline on which k and j are the top two; cut points found by bisection."""
    keep = _margin(poly, line, k, j) >= 0
    if keep.all():
        return [line]
    if not keep.any():
        return []
    change = np.flatnonzero(np.diff(keep.astype(np.int8)))  # keep flips between i and i + 1
    inside = np.where(keep[change], change, change + 1)
    outside = np.where(keep[change], change + 1, change)
    cuts = _cut(poly, poly.difference(k, j), k, j, line[inside], line[outside])
    pieces = []
    starts = np.flatnonzero(keep & np.r_[True, ~keep[:-1]])
    for s in starts:
        e = s + int(np.argmin(np.r_[keep[s:], False]))  # one past the last kept vertex
        head = cuts[change == s - 1]
        tail = cuts[change == e - 1]
        pieces.append(np.vstack([head, line[s:e], tail]))
    return pieces


def _cut(poly, diff, k, j, inside, outside, iterations=60):
    """Where, on many short chords at once, the pair stops being the top two.

    There a third class m ties with k and j: a few regula falsi steps on the margin (Illinois:
    when one end is kept twice, the other end's value is halved) bring each chord near that
    triple point, then Newton's method on the two equations s_k = s_j, s_k = s_m lands on it to
    machine precision in a few steps. A chord where Newton does not settle inside its bracket goes
    on with regula falsi (every guess projected back onto the boundary) until the bracket is below
    1e-12 of the chord's scale.
    """
    a, b = inside.copy(), outside.copy()
    ma, mb = _margin(poly, a, k, j), _margin(poly, b, k, j)
    tiny = 1e-12 * (float(np.max(np.abs(np.r_[a.ravel(), b.ravel()]))) + float(np.max(poly.scale)))
    kept = np.zeros(len(a), dtype=np.int8)  # 1: a was replaced last, -1: b was
    done = np.zeros(len(a), dtype=bool)
    found = a.copy()
    for it in range(iterations):
        if it == 4:  # near enough: try the triple point directly
            ok = _triple_points(poly, k, j, a, b, tiny)
            found[ok[0]] = ok[1]
            done[ok[0]] = True
            if done.all():
                return found
        live = ~done
        denom = ma - mb
        t = np.where(denom > 0, ma / np.where(denom > 0, denom, 1.0), 0.5)[:, None]
        c = _project(diff, a + np.clip(t, 0.0, 1.0) * (b - a), steps=2)
        mc = _margin(poly, c, k, j)
        ok = (mc >= 0) & live
        bad = (mc < 0) & live
        a[ok], ma[ok] = c[ok], mc[ok]
        b[bad], mb[bad] = c[bad], mc[bad]
        mb[ok & (kept == 1)] *= 0.5
        ma[bad & (kept == -1)] *= 0.5
        kept = np.where(ok, 1, np.where(bad, -1, kept)).astype(np.int8)
        if np.all(done | (np.hypot(*(b - a).T) <= tiny)):
            break
    found[~done] = _project(diff, a[~done], steps=2)
    return found


def _triple_points(poly, k, j, a, b, tiny, steps=8):
    """Newton on s_k - s_j = 0, s_k - s_m = 0 (m: the class that takes over at ``b``) from the
    chords' midpoints. Returns (indices, points) of the chords where it converged to a point within
    the bracket's neighbourhood at which k, j and m are indeed the top three, equal."""
    S = poly(b)
    others = np.delete(np.arange(S.shape[1]), [k, j])
    if not len(others):
        return np.empty(0, int), np.empty((0, 2))
    third = others[np.argmax(S[:, others], axis=1)]
    idx_all, pts_all = [], []
    for m in np.unique(third):
        sel = np.flatnonzero(third == m)
        x = 0.5 * (a[sel] + b[sel])
        width = np.hypot(*(b[sel] - a[sel]).T)
        for _ in range(steps):
            V = poly(x)
            G = poly.gradient(x)
            f = np.stack([V[:, k] - V[:, j], V[:, k] - V[:, m]], axis=1)
            J = np.stack([G[:, k] - G[:, j], G[:, k] - G[:, m]], axis=1)  # (n, 2 equations, 2 coordinates)
            det = J[:, 0, 0] * J[:, 1, 1] - J[:, 0, 1] * J[:, 1, 0]
            safe = np.abs(det) > 0
            d = np.zeros_like(x)
            d[safe, 0] = (J[safe, 1, 1] * f[safe, 0] - J[safe, 0, 1] * f[safe, 1]) / det[safe]
            d[safe, 1] = (-J[safe, 1, 0] * f[safe, 0] + J[safe, 0, 0] * f[safe, 1]) / det[safe]
            x = x - d
            if np.all(np.abs(d) <= tiny):
                break
        V = poly(x)
        scale = np.abs(V).max(axis=1) + 1.0
        rest = np.delete(V, [k, j, m], axis=1)
        top = V[:, k] >= (rest.max(axis=1) if rest.shape[1] else -np.inf) - 1e-12 * scale
        equal = (np.abs(V[:, k] - V[:, j]) <= 1e-12 * scale) & (np.abs(V[:, k] - V[:, m]) <= 1e-12 * scale)
        near = np.hypot(*(x - 0.5 * (a[sel] + b[sel])).T) <= 2.0 * width + tiny
        good = np.all(np.isfinite(x), axis=1) & top & equal & near
        idx_all.append(sel[good])
        pts_all.append(x[good])
    return np.concatenate(idx_all), np.vstack(pts_all) if pts_all else np.empty((0, 2))


def _join(pieces: list[np.ndarray]) -> np.ndarray:
    if not pieces:
        return np.empty((0, 2))
    sep = np.full((1, 2), np.nan)
    out = [pieces[0]]
    for p in pieces[1:]:
        out += [sep, p]
    return np.vstack(out)


#: Grid nodes across the view for a draft of the curved boundaries (while the hand moves)
DRAFT_RESOLUTION = 128


def boundaries(model, bounds: Bounds, resolution: int = 128, draft: bool = False) -> list[Boundary]:
    """Decision boundaries of a fitted model inside ``bounds``, one per pair of classes that meet.

    Exact: traced on a grid, each vertex projected onto the zero set of s_k - s_j, each end cut where a
    third class takes over at the triple point. A ``draft`` of curved boundaries (drawn while the hand
    moves, see :func:`draft_boundaries`) costs a few milliseconds for five classes; straight boundaries
    are exact either way.
    """
    poly = model.scores_
    if draft and poly.degree > 1:
        return draft_boundaries(model, bounds)
    K = poly.coefs.shape[0]
    linear_model = poly.degree <= 1
    out = []
    for k in range(K):
        for j in range(k + 1, K):
            diff = poly.difference(k, j)
            if diff.degree <= 1:
                seg = _line(poly, k, j, bounds)
                if seg is None:
                    continue
                x0, d, t0, t1 = seg
                if linear_model:
                    span = _top_two_interval(poly, k, j, x0, d, t0, t1)
                    pieces = [] if span is None else [x0 + np.outer(span, d)]
                else:
                    line = x0 + np.outer(np.linspace(t0, t1, 512), d)
                    pieces = _mask_top_two(poly, k, j, line)
            else:
                pieces = []
                for line in _curves(diff, bounds, resolution):
                    pieces += _mask_top_two(poly, k, j, _project_keeping_edges(diff, line, bounds))
            pieces = [p for p in pieces if len(p) >= 2]
            if pieces:
                out.append(Boundary(k, j, _join(pieces)))
    return out


def draft_boundaries(model, bounds: Bounds, resolution: int = DRAFT_RESOLUTION) -> list[Boundary]:
    """Each class's region outlined as traced on a ``resolution``-node grid: the zero set of
    s_k - max_{j != k} s_j, which is positive inside region k and vanishes exactly on its boundary, so
    one trace per class gives every boundary and its ends at the triple points, with no pairing, no
    projection and no cutting. Every boundary of the last class is also a boundary of the class on its other
    side, so the first K - 1 classes' traces draw each boundary once (``j`` = -1: the side is not said).
    Linear interpolation between nodes keeps a smooth stretch within a small fraction of a grid cell of the
    curve, a triple point or the tip of a region thinner than a cell within about a cell."""
    xs = np.linspace(bounds[0], bounds[1], resolution)
    ys = np.linspace(bounds[2], bounds[3], resolution)
    return _outlines(model.scores_.evaluate_grid(xs, ys), xs, ys)  # (K, R, C)


def _outlines(S: np.ndarray, xs, ys) -> list[Boundary]:
    """Each class's region {k = argmax_j S_j} outlined on the grid of planes S (K, R, C) over axes xs, ys:
    the zero set of S_k - max_{j != k} S_j (see :func:`draft_boundaries`), kept where the class across it
    (see :func:`_across`) comes later than k. So each boundary is drawn once, with the first of its two
    classes (drawn twice, in opposite directions, a dashed line's dashes filled each other's gaps); the last
    class has none of its own.

    The K - 1 planes are traced as one: stacked one above another, a row of masked nodes between each two,
    in the grid's index coordinates, then placed on the axes (linear between nodes, as a trace on the axes
    places them). The numpy work around each trace was a good part of a draft: 1.75 against 1.4 ms for three
    classes (contourpy's own part goes by the grid's cells, 0.26 ms a 128-node plane)."""
    K, R, C = S.shape
    if K < 2:
        return []
    top, second = np.full((R, C), -np.inf), np.full((R, C), -np.inf)
    first = np.zeros((R, C), np.intp)  # the class of the largest
    for i, plane in enumerate(S):  # the largest and second largest score at each node
        first[plane > top] = i
        np.maximum(second, np.minimum(top, plane), out=second)
        np.maximum(top, plane, out=top)
    step = R + 1  # class k's plane is rows k * step ... k * step + R - 1 of the stack
    F = np.full(((K - 1) * step - 1, C), np.nan)  # (zero_lines masks what is not finite: the rows between)
    for k in range(K - 1):  # the last class's boundaries are each another's: traced with that one
        np.subtract(S[k], np.where(S[k] >= top, second, top), out=F[k * step:k * step + R])
    lines = zero_lines(None, None, F, _index_grid(*F.shape))
    if not lines:
        return []
    lengths = [len(line) for line in lines]
    V = np.concatenate(lines)  # every line's vertices in one pass: a frame traces a dozen lines
    block = np.repeat(np.floor_divide([line[0, 1] for line in lines], step).astype(np.intp), lengths)
    V[:, 1] -= block * step  # each vertex in its own plane's index coordinates
    keep = _across(V, F, first, block * step) > block
    lo, hi = _run_bounds(lengths, keep)
    if not len(lo):
        return []
    V = np.column_stack([np.interp(V[:, 0], np.arange(C), xs), np.interp(V[:, 1], np.arange(R), ys)])
    out = []
    for k in range(K - 1):
        mine = block[lo] == k
        if mine.any():
            out.append(Boundary(k, -1, _join([V[a:b] for a, b in zip(lo[mine].tolist(), hi[mine].tolist())])))
    return out


@functools.lru_cache(maxsize=8)
def _index_grid(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.meshgrid`` of the column and row indices of a (rows, cols) grid, read-only (shared between frames)."""
    grid = np.meshgrid(np.arange(cols, dtype=np.float64), np.arange(rows, dtype=np.float64))
    for g in grid:
        g.flags.writeable = False
    return grid[0], grid[1]


def _across(V: np.ndarray, F: np.ndarray, first: np.ndarray, offset) -> np.ndarray:
    """The class across an outline at each of its vertices ``V`` (M, 2), in the grid's index coordinates (column,
    row) of the plane whose rows start at row ``offset`` (one for all, or one a vertex) of ``F`` (F > 0 inside the
    region): the class that wins (``first``, (R, C)) at the nearest corner of the vertex's cell outside the region
    (F < 0): the other end of the grid's edge the vertex lies on. At the nearest corner when none is outside (a
    vertex on a node: the region's class may win there, and the vertex is not kept)."""
    R, C = first.shape
    i = np.clip(np.floor(V[:, 0]).astype(np.intp), 0, C - 2)[:, None] + np.array([0, 1, 0, 1])  # the corners
    j = np.clip(np.floor(V[:, 1]).astype(np.intp), 0, R - 2)[:, None] + np.array([0, 0, 1, 1])
    d2 = (i - V[:, :1]) ** 2 + (j - V[:, 1:]) ** 2
    outside = F[j + np.reshape(offset, (-1, 1)), i] < 0
    d2[outside] -= 4.0  # (a corner is at most 2 away in squared index units): an outside corner comes first
    pick = np.argmin(d2, axis=1)
    rows = np.arange(len(V))
    return first[j[rows, pick], i[rows, pick]]


def _run_bounds(lengths, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the runs of :func:`_runs`, as index arrays into the vertices."""
    lengths = np.asarray(lengths, dtype=np.intp)
    ends = np.cumsum(lengths)
    start, end = np.repeat(ends - lengths, lengths), np.repeat(ends, lengths)  # each vertex's line
    i = np.arange(len(keep))
    before = np.r_[False, keep[:-1]] & (i != start)  # the previous vertex is kept and on the same line
    after = np.r_[keep[1:], False] & (i + 1 != end)
    first, last = np.flatnonzero(keep & ~before), np.flatnonzero(keep & ~after)
    lo, hi = np.maximum(first - 1, start[first]), np.minimum(last + 2, end[first])
    long = hi - lo >= 2
    return lo[long], hi[long]


def _runs(lengths, vertices: np.ndarray, keep: np.ndarray) -> list[np.ndarray]:
    """The stretches of lines whose vertices are kept, each with the vertex on either side of it in its own
    line (the class across changes somewhere on that segment, near a triple point: the stretch reaches it).
    ``vertices`` (M, 2) are the lines' one after another, ``lengths`` how many each has; runs of fewer than
    two vertices are left out."""
    lo, hi = _run_bounds(lengths, keep)
    return [vertices[a:b] for a, b in zip(lo.tolist(), hi.tolist())]


def _curves(diff, bounds, resolution):
    # nodes on the view's edges (not pixel centres): the traced curves reach the edge of the plot
    xs = np.linspace(bounds[0], bounds[1], resolution)
    ys = np.linspace(bounds[2], bounds[3], resolution)
    return zero_lines(xs, ys, diff.evaluate_grid(xs, ys)[0])


def zero_lines(xs: np.ndarray, ys: np.ndarray, Z: np.ndarray, grid=None) -> list[np.ndarray]:
    """The zero set of Z (R, C) over the axes xs, ys: contourpy's separate lines, each (M, 2), as
    ``contour_generator(xs, ys, Z, line_type=Separate).lines(0.0)`` gives them, nodes where Z is not finite
    masked as it masks them. Its serial generator is made directly: contour_generator's argument checks
    and masked-array conversion cost more than tracing a 128-node grid (0.5 against 0.2 ms, a drag's frame
    traces K - 1 of them). ``grid``: the nodes' (x, y) as ``np.meshgrid(xs, ys)`` makes them, when made already."""
    Z = np.ascontiguousarray(Z, dtype=np.float64)
    bad = ~np.isfinite(Z)
    gx, gy = grid if grid is not None else np.meshgrid(np.asarray(xs, np.float64), np.asarray(ys, np.float64))
    gen = contourpy.SerialContourGenerator(
        gx, gy, Z, bad if bad.any() else None, corner_mask=True, line_type=contourpy.LineType.Separate,
        fill_type=contourpy.FillType.OuterOffset, quad_as_tri=False, z_interp=contourpy.ZInterp.Linear,
        x_chunk_size=0, y_chunk_size=0)
    return gen.lines(0.0)


# --- class-conditional geometry --------------------------------------------------

def _unit_circle(n=129):
    t = np.linspace(0.0, 2.0 * np.pi, n)
    return np.stack([np.cos(t), np.sin(t)])


#: Vertices of a ring in a draft (the hand moves): half as many. Each vertex lies on the ellipse; a chord strays from
#: it by r (1 - cos(pi / 64)) = 0.0012 r, half a pixel for a ring of radius 400 pixels, within the rounding of a line
#: drawn without antialiasing, as a draft is. A 1.6-pixel line's stroke costs by its vertices: 0.19 against 0.32 ms
#: a class's three rings (offscreen, 2 cores).
DRAFT_RING_POINTS = 65


def ellipses(model, radii=(1.0, 2.0, 3.0), draft: bool = False) -> list[np.ndarray]:
    """For each class, the Mahalanobis-radius ellipses of N(mu_k, Sigma_k): (M, 2), NaN-separated; a ``draft``'s
    rings have :data:`DRAFT_RING_POINTS` vertices, an exact one's 129.

    Empty for models without class-conditional densities.
    """
    if not getattr(model, "generative", False):
        return []
    points = DRAFT_RING_POINTS if draft else RING_POINTS
    return [ellipses_for(model, k, radii, points) for k in range(len(model.classes_))]


def density_levels(model, n: int = 6) -> np.ndarray:
    """Shared levels of p(x|C_k): halvings down from 80% of the highest class peak."""
    peak = np.max(1.0 / (2.0 * np.pi * np.exp(0.5 * model.log_dets_)))
    return peak * 0.8 * 0.5 ** np.arange(n)


def density_contours(model, levels=None) -> list[np.ndarray]:
    """Iso-density lines p(x|C_k) = level for each class, exact ellipses: (M, 2), NaN-separated.

    A Gaussian's density equals L on the Mahalanobis radius r with
    r^2 = -2 ln(2 pi |Sigma|^(1/2) L); levels above a class's peak draw nothing.
    """
    if not getattr(model, "generative", False):
        return []
    levels = density_levels(model) if levels is None else np.asarray(levels, float)
    out = []
    for k in range(len(model.classes_)):
        r2 = -2.0 * (np.log(2.0 * np.pi * levels) + 0.5 * model.log_dets_[k])
        radii = np.sqrt(r2[r2 > 0])
        out.append(ellipses_for(model, k, radii))
    return out


RING_POINTS = 129  # a ring's vertices: a chord strays from the ellipse by r (1 - cos(pi / 128)) = 0.0003 r
_CIRCLE = _unit_circle(RING_POINTS)
_CIRCLE.flags.writeable = False
_CIRCLES = {RING_POINTS: _CIRCLE}


def ellipses_for(model, k: int, radii, points: int = RING_POINTS) -> np.ndarray:
    """Ellipses (x - mu_k)^T Sigma_k^-1 (x - mu_k) = r^2 for each r, from Sigma_k's eigen-decomposition: one
    ring mu_k + r A c per radius (A A^T = Sigma_k, c on the unit circle), NaN rows between them. Read-only: the
    same array for the same mu_k, Sigma_k, radii and ``points`` a ring (see :func:`_rings`)."""
    radii = np.asarray(radii, dtype=float)
    if not len(radii):
        return np.empty((0, 2))
    return _rings(np.asarray(model.means_[k], dtype=float).tobytes(),
                  np.asarray(model.covariances_[k], dtype=float).tobytes(), radii.tobytes(), points)


@functools.lru_cache(maxsize=64)
def _rings(mean: bytes, covariance: bytes, radii: bytes, points: int = RING_POINTS) -> np.ndarray:
    """:func:`ellipses_for` of a class's mean, covariance and radii (their float64 bytes), made once for each: a
    drag moves one class's points and the other classes of a model with a covariance each keep theirs, so their
    ellipses are the frame before's very arrays (the canvas then keeps their paths without comparing them)."""
    mu, r = np.frombuffer(mean), np.frombuffer(radii)
    w, V = np.linalg.eigh(np.frombuffer(covariance).reshape(2, 2))
    circle = _CIRCLES.get(points)
    if circle is None:
        circle = _CIRCLES[points] = _unit_circle(points)
    ring = ((V * np.sqrt(np.maximum(w, 0.0))) @ circle).T  # (points, 2): r = 1, centred
    n = len(ring)
    out = np.full((len(r), n + 1, 2), np.nan)
    np.multiply(r[:, None, None], ring, out=out[:, :n])
    out[:, :n] += mu
    out = out.reshape(-1, 2)[:-1]
    out.flags.writeable = False
    return out


# --- everything at once ----------------------------------------------------------

ALL_LAYERS = frozenset({"heatmap", "decision", "boundaries", "ellipses", "density"})


@dataclass
class Scene:
    """What one fitted model contributes to a frame; a layer not asked for is left empty."""

    bounds: Bounds
    posterior: np.ndarray | None = None  # (R, C, K) float32, when the heatmap or decision regions are shown
    image: np.ndarray | None = None  # (R, C, 4) uint8: the posterior heatmap
    decision: np.ndarray | None = None  # (R, C, 4) uint8: the decision regions
    ambiguous: np.ndarray | None = None  # (R, C, 4) uint8: a discriminant scheme's undecided regions, hatched
    ambiguous_rings: list | None = None  # one-vs-rest's undecided regions as smooth polygons, to be hatched
    reject: list[np.ndarray] = field(default_factory=list)  # rings where max_k p < theta (decision layer)
    reject_color: tuple = (170, 170, 170)
    boundaries: list[Boundary] = field(default_factory=list)
    ellipses: list[np.ndarray] = field(default_factory=list)
    density: list[np.ndarray] = field(default_factory=list)
    shade: np.ndarray | None = None  # (R, C, 4) uint8: the predictive variance sigma_a^2 (Bayesian view)
    samples: list[np.ndarray] = field(default_factory=list)  # boundaries of weights drawn from q(w): polylines
    miscalibration: np.ndarray | None = None  # (R, C) float32: max_k |p^(C_k|x) - p_true(C_k|x)|, with a truth

    @property
    def hatched(self) -> bool:
        """Undecided regions are part of the picture (one-vs-rest, a discriminant scheme), hatched (the legend
        and the status line say so), even where none lies in the view."""
        return self.ambiguous is not None or self.ambiguous_rings is not None


#: The predictive variance's shade: its colour, its opacity as sigma_a^2 -> infinity, and the sigma_a^2 at half
#: of it (sigma_a = 2: where the moderated output is about two thirds of the way from the plug-in one to 1/2)
SHADE_RGB, SHADE_ALPHA, SHADE_HALF = (40, 40, 40), 150, 4.0


#: The map of |p^ - p_true| (the "miscalibration" layer): the background at 0, the ramp's end colour at MISCAL_TOP
#: and above; one hue darkening on a light background (lightening on a dark one) reads without colour vision
MISCAL_TOP, MISCAL_DARK, MISCAL_LIGHT = 0.5, (84, 22, 112), (255, 200, 120)


_last_true_posterior: tuple = (None, None, None)  # (truth, grid key, posterior): the truth stays while points move


def true_posterior_grid(truth, xs, ys) -> np.ndarray:
    """The truth's p(C_k|x) at every grid node, (len(ys), len(xs), K), kept for the next call with the same truth
    (immutable: a new object when edited) and grid: a drag redraws every frame, and this is most of the map's
    cost (a mixture's densities at every node)."""
    global _last_true_posterior
    key = (xs[0], xs[-1], len(xs), ys[0], ys[-1], len(ys))
    last, last_key, grid = _last_true_posterior
    if last is not truth or last_key != key:
        gx, gy = np.meshgrid(xs, ys)
        grid = truth.posterior(np.column_stack([gx.ravel(), gy.ravel()])).reshape(len(ys), len(xs), truth.K)
        grid.flags.writeable = False
        _last_true_posterior = (truth, key, grid)  # one tuple swap: safe between the GUI and worker threads
    return grid


def miscalibration_grid(P: np.ndarray, class_index, truth, xs, ys) -> np.ndarray:
    """max_k |p^(C_k|x) - p_true(C_k|x)| at every grid node, float32 (len(ys), len(xs)): ``P`` (R, C, M) the
    fitted posterior over its classes ``class_index`` (of the truth's K; a class the model has not seen has
    p^ = 0), the truth's posterior from its joint densities. For two classes it is |p^(C_1|x) - p_true(C_1|x)|."""
    D = true_posterior_grid(truth, xs, ys).copy()
    for m, k in enumerate(class_index):
        D[..., k] -= P[..., m]
    return np.abs(D).max(axis=2).astype(np.float32)


def miscalibration_ramp(background=(255, 255, 255)) -> tuple:
    """The colour of the ramp's end (|p^ - p_true| >= MISCAL_TOP): dark on a light background, light on a dark one."""
    light = 0.299 * background[0] + 0.587 * background[1] + 0.114 * background[2] > 128
    return MISCAL_DARK if light else MISCAL_LIGHT


def miscalibration_image(D: np.ndarray, background=(255, 255, 255)) -> np.ndarray:
    """RGBA uint8 (R, C, 4) of :func:`miscalibration_grid`'s values: background + min(D / MISCAL_TOP, 1) *
    (ramp end - background), opaque."""
    bg = np.asarray(background[:3], dtype=np.float32)
    end = np.asarray(miscalibration_ramp(background), dtype=np.float32)
    t = np.clip(D / MISCAL_TOP, 0.0, 1.0)[..., None]
    out = np.empty(D.shape + (4,), dtype=np.uint8)
    out[..., :3] = bg + t * (end - bg) + 0.5
    out[..., 3] = 255
    return out


def predictive_grid(lap, xs, ys, moments=None) -> np.ndarray:
    """The moderated predictive p(C_k|x, D) (Bishop eq. 4.155) at every grid node: (len(ys), len(xs), K).
    ``moments``: the grid's (mu_a, sigma_a^2) when the caller has them (see :func:`grid_moments`)."""
    mu, var = grid_moments(lap, xs, ys) if moments is None else moments
    return lap.proba_from(mu, var, "moderated").astype(np.float32).reshape(len(ys), len(xs), -1)


def grid_moments(lap, xs, ys) -> tuple[np.ndarray, np.ndarray]:
    """mu_a and sigma_a^2 (eqs. 4.149-4.150) at every grid node, rows of ys by columns of xs flattened."""
    return lap.activation(np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2))


def variance_shade(lap, xs, ys, moments=None) -> np.ndarray:
    """sigma_a^2 = phi^T S_N phi (eq. 4.150; for one-vs-rest the largest over the classes) as a grey veil, RGBA
    uint8 (rows, cols, 4): opacity SHADE_ALPHA * s / (SHADE_HALF + s), none where w is certain, half of it at
    sigma_a = 2, rising away from the data."""
    var = (grid_moments(lap, xs, ys) if moments is None else moments)[1]
    v = var.max(axis=1).reshape(len(ys), len(xs))
    img = np.empty((len(ys), len(xs), 4), np.uint8)
    img[..., :3] = SHADE_RGB
    img[..., 3] = np.rint(SHADE_ALPHA * v / (SHADE_HALF + v)).astype(np.uint8)
    return img


def sample_boundaries(model, bounds: Bounds, count: int = SAMPLES, seed: int = SAMPLES_SEED) -> list[np.ndarray]:
    """The boundaries of ``count`` weight vectors drawn from the Laplace posterior q(w) = N(w_MAP, S_N) of a
    Bayesian logistic fit (seeded: the same cloud for the same fit), traced as drafts: thin lines that show how
    sure the data make the boundary (Bishop figure 4.14's lesson, drawn under the user's own points)."""
    global _last_samples
    lap = model.laplace_
    key = (tuple(bounds), int(count), int(seed))
    last_lap, last_key, out = _last_samples
    if last_lap is lap and last_key == key:  # a redraw of the same fit (the probe, theta, a layer): as before
        return out
    out = []
    for W in lap.sample(count, seed):
        drawn = type(model).from_weights(W, (lap.z_center, lap.z_scale), model.classes_,
                                         {"basis": model.basis, "standardize": model.standardize})
        out += [b.xy for b in boundaries(drawn, bounds, draft=True)]
    _last_samples = (lap, key, out)  # one tuple swap: safe between the GUI and worker threads
    return out


_last_samples: tuple = (None, None, [])  # (Laplace, (bounds, count, seed), polylines) of the last cloud drawn


def build_scene(model, bounds: Bounds, colors, shape=(256, 256), layers=ALL_LAYERS,
                background=(255, 255, 255), reject=(170, 170, 170), theta: float = 0.0,
                radii=(1.0, 2.0, 3.0), strength: float = 0.45, draft: bool = False,
                samples: tuple = (SAMPLES, SAMPLES_SEED), loss=None, truth=None, class_index=None) -> Scene:
    """The layers of ``layers`` for one fitted model, over ``bounds`` at ``shape`` = (cols, rows).

    Only what is shown is computed: a hidden layer costs nothing. ``draft``: curved boundaries as
    :func:`draft_boundaries` traces them (while the hand moves); ``samples``: (count, seed) of the Bayesian
    view's boundary cloud; ``loss``: a loss matrix (K, K) over the model's classes, rows the truth, whose
    decision argmin_j sum_k L_kj p(C_k|x) (Bishop eq. 1.81) the regions and boundaries then show, with
    theta's reject option as the rejection cost lambda = 1 - theta (Bishop exercise 1.24); None (or the
    0-1 loss) decides by the largest posterior. ``truth`` (with the model's classes ``class_index`` among its
    K): the "miscalibration" layer maps |p^(C_k|x) - p_true(C_k|x)| in place of the heatmap.
    """
    loss = None if loss is None or _is_zero_one(loss) else np.asarray(loss, dtype=float)
    sc = Scene(bounds=bounds)
    if not getattr(model, "probabilistic", True):
        return _discriminant_scene(sc, model, bounds, colors, shape, layers, background, strength)
    lap = getattr(model, "laplace_", None)
    xs, ys = grid_axes(bounds, *shape)
    predictive = lap is not None and "predictive" in layers and ("heatmap" in layers or "decision" in layers)
    # the heatmap and the veil need the same moments of the activation: evaluated once a frame
    moments = grid_moments(lap, xs, ys) if predictive or (lap is not None and "variance" in layers) else None
    judged = truth is not None and "miscalibration" in layers
    if "heatmap" in layers or "decision" in layers or (loss is not None and "boundaries" in layers) or judged:
        # the heatmap's numbers: the miscalibration map judges what the heatmap would show
        predictive = predictive or (judged and lap is not None and "predictive" in layers)
        if predictive:
            sc.posterior = predictive_grid(lap, xs, ys, moments)
        else:
            S = grid_scores(model, xs, ys)
            if getattr(model, "ovr_", False):  # from the scores, before the posterior may overwrite them
                sc.ambiguous_rings = undecided_rings(S, bounds, model.scores_)
            sc.posterior = posterior_of_scores(model, S)
        if judged:
            idx = range(sc.posterior.shape[2]) if class_index is None else class_index
            sc.miscalibration = miscalibration_grid(sc.posterior, idx, truth, xs, ys)
            sc.image = miscalibration_image(sc.miscalibration, background)
        elif "heatmap" in layers:
            sc.image = posterior_image(sc.posterior, colors, background, strength)
        if "decision" in layers and loss is not None:
            sc.decision, sc.reject = loss_regions(sc.posterior, loss, theta, bounds, colors, background, strength)
            sc.reject_color = tuple(reject)
        elif "decision" in layers:
            sc.decision = decision_image(sc.posterior, colors, 0.0, background, reject, strength)
            sc.reject, sc.reject_color = reject_region(sc.posterior, bounds, theta), tuple(reject)
        if getattr(model, "ovr_", False) and sc.ambiguous_rings is None:  # the Bayesian view's heatmap: its own scores
            poly = model.scores_
            sc.ambiguous_rings = undecided_rings(None if poly.degree <= 1 else poly.evaluate_grid(xs, ys), bounds, poly)
    if lap is not None and "variance" in layers:
        sc.shade = variance_shade(lap, xs, ys, moments)
    if lap is not None and "samples" in layers:
        sc.samples = sample_boundaries(model, bounds, *samples)
    if "boundaries" in layers and loss is not None:
        sc.boundaries = loss_boundaries(model, loss, bounds, sc.posterior, draft=draft, predictive=predictive)
    elif "boundaries" in layers:
        sc.boundaries = boundaries(model, bounds, draft=draft)
    if "ellipses" in layers:
        sc.ellipses = ellipses(model, radii, draft=draft)
    if "density" in layers:
        sc.density = density_contours(model)
    return sc


# --- decisions with a loss matrix (Bishop 1.5.2) ----------------------------------------------

def _is_zero_one(L) -> bool:
    """The 0-1 loss decides by the largest posterior: nothing to change."""
    L = np.asarray(L, dtype=float)
    return L.shape[0] < 2 or np.array_equal(L, 1.0 - np.eye(len(L)))


def loss_weights(L) -> np.ndarray | None:
    """c (K,) with argmin_j sum_k L_kj p_k = argmax_j c_j p_j for every posterior p, or None: when each row's
    losses off the diagonal are equal, c_k = L_kj - L_kk (j != k) > 0. Then
    sum_k L_kj p_k = sum_k L_kk p_k + sum_k c_k p_k - c_j p_j. Every 2 x 2 loss with L_01 > L_00 and
    L_10 > L_11 is one: the decision is then the posterior's with priors weighted by c."""
    L = np.asarray(L, dtype=float)
    K = len(L)
    c = np.empty(K)
    for k in range(K):
        off = np.delete(L[k], k)
        if not np.all(off == off[0]):
            return None
        c[k] = off[0] - L[k, k]
    return c if np.all(c > 0) else None


def _softmax_of_scores(model) -> bool:
    """Whether the model's p(C_k|x) is the softmax of its polynomial scores (eq. 4.62): not one-vs-rest's
    normalised sigmoids, not probit's Phi."""
    from probviz.models.base import Classifier

    if getattr(model, "ovr_", False) or getattr(model, "name", "") == "probit":
        return False
    return type(model).proba_from_scores is Classifier.proba_from_scores or getattr(model, "name", "") == "logistic"


class _Shifted:
    """A model's polynomial scores with ln c_k added to class k's: its boundaries are those of the decision
    argmax_k c_k p(C_k|x), lines and conics as the model's own."""

    def __init__(self, model, c):
        poly = model.scores_
        if hasattr(poly, "shifted"):  # radial basis scores (probviz.models.rbf): the bias is coefs[:, 0]
            self.scores_ = poly.shifted(np.log(c))
            return
        coefs = np.array(poly.coefs, dtype=float)
        coefs[:, 0, 0] += np.log(c)
        self.scores_ = type(poly)(poly.center, poly.scale, coefs)


def loss_boundaries(model, L, bounds: Bounds, posterior=None, draft: bool = False,
                    predictive: bool = False) -> list[Boundary]:
    """The boundaries of the decision argmin_j sum_k L_kj p(C_k|x) (eq. 1.81): exact -- as the model's own --
    where it is the argmax of c_k p(C_k|x) (:func:`loss_weights`) of a model whose posterior is the softmax
    of its scores; otherwise each choice's region outlined on the ``posterior`` grid (pixel centres, the
    view's edges extended), within a small fraction of a pixel where the boundary is smooth."""
    c = loss_weights(L)
    if c is not None and not predictive and _softmax_of_scores(model):
        return boundaries(_Shifted(model, c), bounds, draft=draft)
    if posterior is None:
        return []
    R, C, K = posterior.shape
    xs, ys = grid_axes(bounds, C, R)
    risk = np.tensordot(posterior.astype(np.float64), np.asarray(L, float), axes=([2], [0]))  # (R, C, K)
    S = -np.pad(np.moveaxis(risk, 2, 0), ((0, 0), (1, 1), (1, 1)), mode="edge")
    return _outlines(S, np.r_[bounds[0], xs, bounds[1]], np.r_[bounds[2], ys, bounds[3]])


def loss_regions(P, L, theta: float, bounds: Bounds, colors, background=(255, 255, 255), strength: float = 0.45):
    """The decision image of argmin_j sum_k L_kj p(C_k|x) (eq. 1.81), RGBA uint8, and the reject rings where
    the smallest expected loss exceeds lambda = 1 - theta (theta > 0; with the 0-1 loss exactly theta's
    rule max_k p(C_k|x) < theta). The image is not greyed there: the rings are drawn over it, smooth (greyed
    pixels stood out of them as a staircase), as the 0-1 loss's reject region is."""
    K = P.shape[2]
    risk = np.tensordot(P.astype(np.float64), np.asarray(L, float), axes=([2], [0]))
    choice = np.argmin(risk, axis=2)
    bg = np.asarray(background[:3], dtype=np.float32)
    out = flat_image(choice, bg + strength * (rgb_array(colors)[:K] - bg))
    rings = []
    if theta > 0:
        least = risk.min(axis=2)
        rings = _below(-least, bounds, -float(least.max()) - 1.0, -(1.0 - theta))
    return out, rings


def _discriminant_scene(sc, model, bounds, colors, shape, layers, background, strength) -> Scene:
    """A discriminant function has no posterior: the heatmap and the decision layer both show its
    regions, hatched where its scheme leaves a point undecided; its lines are its boundaries."""
    if "heatmap" in layers or "decision" in layers:
        xs, ys = grid_axes(bounds, *shape)
        codes = model.decide_grid(xs, ys)
        image = regions_image(codes, colors, background, strength)
        if "decision" in layers:
            sc.decision = image
        else:
            sc.image = image
        if np.any(codes < 0):
            sc.ambiguous = hatch_image(codes < 0)
    if "boundaries" in layers:
        sc.boundaries = discriminant_lines(model, bounds)
    return sc


def discriminant_lines(model, bounds: Bounds) -> list[Boundary]:
    """The lines a discriminant draws. For the one-vs-rest and one-vs-one schemes (Bishop figure 4.2)
    the pieces of each binary discriminant's zero line across which the decided class (or
    "undecided") changes: a pair's line running through a region another class wins outright decides
    nothing there, and is not drawn. Else its decision boundaries."""
    own = model.lines(bounds)
    if own is None:
        return boundaries(model, bounds)
    zeros = [(k, j, _with_zero(poly)) for k, j, poly in own]
    size = max(bounds[1] - bounds[0], bounds[3] - bounds[2])
    out = []
    for k, j, zero in zeros:
        seg = _line(zero, 0, 1, bounds)
        if seg is None:
            continue
        x0, d, t0, t1 = seg
        # every other line crosses this one at one t: between two crossings the decision on each side
        # is the same all along, so one look at each interval's middle, just off the line, is exact
        cuts = [t0, t1]
        for _, _, other in zeros:
            g0, g1 = other(np.array([x0, x0 + d]))[:, 0]  # its score along this line, linear in t
            if g1 != g0:
                t = -g0 / (g1 - g0)
                if t0 < t < t1:
                    cuts.append(t)
        cuts = np.unique(cuts)
        mids = 0.5 * (cuts[:-1] + cuts[1:])
        off = 1e-7 * size * np.array([-d[1], d[0]])
        pts = x0 + np.outer(mids, d)
        changes = (model.decide(pts + off) != model.decide(pts - off)) & (np.diff(cuts) > 1e-12 * size)
        pieces = []
        for a, b, keep in zip(cuts[:-1], cuts[1:], changes):
            if not keep:
                continue
            if pieces and pieces[-1][1] == a:
                pieces[-1][1] = b  # one straight piece across a crossing that changes nothing here
            else:
                pieces.append([a, b])
        if pieces:
            out.append(Boundary(k, j, _join([x0 + np.outer(ab, d) for ab in pieces])))
    return out


def _with_zero(poly):  # noqa: N802
    """Two scores (poly, 0): their tie is poly's zero line."""
    return type(poly)(poly.center, poly.scale, np.concatenate([poly.coefs, np.zeros_like(poly.coefs)]))


# --- a cross-section -----------------------------------------------------------------

@dataclass
class Section:
    """The model along the segment a -> b: the two stages of Bishop 1.5.4 in one dimension."""

    a: np.ndarray
    b: np.ndarray
    t: np.ndarray  # (n,) distance from a, in data units
    posterior: np.ndarray | None  # (n, K) p(C_k|x); None for a discriminant function
    joint: np.ndarray | None  # (n, K) p(x|C_k) p(C_k) for generative models, else None
    decision: np.ndarray  # (n,) class index (into the model's classes), -1 undecided or rejected
    changes: np.ndarray  # distances where the decision changes (the boundaries crossed)
    reject: list  # (t0, t1) intervals where max_k p(C_k|x) < theta
    true_posterior: np.ndarray | None = None  # (n, K) p(C_k|x) under the truth, when one is given
    predictive: np.ndarray | None = None  # (n, K) the moderated p(C_k|x, D) of a Bayesian view (eq. 4.155)
    band: np.ndarray | None = None  # (n, 2) two classes: sigma(mu_a -+ sigma_a), p(C_2|x)'s central 68% under q(w)
    link: tuple | None = None  # (label, (n,) values): the other link's approximation to p(C_2|x) (eq. 4.154's lambda)


def cross_section(model, a, b, n: int = 512, theta: float = 0.0, truth=None, loss=None) -> Section:
    """Sample the model (and the ``truth``'s posterior, its classes those of the model's ``classes_``)
    at n points from a to b (a != b). With a ``loss`` matrix (over the model's classes) the decision is
    argmin_j sum_k L_kj p(C_k|x) and theta's reject option the rejection cost 1 - theta (as the scene's)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    length = float(np.hypot(*(b - a)))
    if not length > 0:
        raise ValueError("a cross-section needs two different end points")
    t = np.linspace(0.0, length, n)
    X = a + np.outer(t / length, b - a)
    posterior = joint = None
    low = None
    if getattr(model, "probabilistic", True):
        posterior = model.predict_proba(X)
        if loss is not None and not _is_zero_one(loss):
            risk = posterior @ np.asarray(loss, dtype=float)
            decision = np.argmin(risk, axis=1)
            low = risk.min(axis=1) > 1.0 - theta if theta > 0 else None
        else:
            decision = np.argmax(posterior, axis=1)
            low = posterior.max(axis=1) < theta if theta > 0 else None
        if low is not None:
            decision = np.where(low, -1, decision)
        if getattr(model, "generative", False):
            joint = np.exp(model.log_joint(X))
    else:
        decision = model.decide(X)
    flips = np.flatnonzero(decision[1:] != decision[:-1])
    changes = 0.5 * (t[flips] + t[flips + 1])
    reject = []
    if low is not None:
        edges = np.flatnonzero(np.diff(np.r_[0, low.astype(int), 0]))
        reject = [(float(t[i]), float(t[min(j, n) - 1])) for i, j in zip(edges[::2], edges[1::2])]
    true_posterior = None
    if truth is not None:
        true_posterior = truth.posterior(X)[:, np.asarray(model.classes_, dtype=int)]
    out = Section(a, b, t, posterior, joint, decision, changes, reject, true_posterior)
    if posterior is not None and posterior.shape[1] == 2:
        out.link = _link_approximation(model, X)
    lap = getattr(model, "laplace_", None)
    if lap is not None:
        mu, var = lap.activation(X)
        out.predictive = lap.proba_from(mu, var, "moderated")
        if lap.K == 2:  # sigma is increasing: the quantiles of sigma(a), a ~ N(mu_a, sigma_a^2), are sigma's of a's
            s = np.sqrt(var[:, 0])
            out.band = np.column_stack([expit(mu[:, 0] - s), expit(mu[:, 0] + s)])
    return out


def _link_approximation(model, X):
    """sigma(a) ≈ Phi(lambda a), lambda^2 = pi / 8 (Bishop 4.5.2), along a section of a two-class logistic or
    probit model of activation a: beside probit's Phi(a) the sigmoid sigma(a / lambda), beside the Bayesian
    logistic sigma(a) (whose moderated output rests on the approximation) Phi(lambda a); else None."""
    name = getattr(model, "name", "")
    if name not in ("probit", "logistic") or (name == "logistic" and getattr(model, "laplace_", None) is None):
        return None
    S = model.decision_function(X)
    a = S[:, 1] - S[:, 0]
    lam = math.sqrt(math.pi / 8.0)
    if name == "probit":
        return "σ(a/λ)", expit(a / lam)
    return "Φ(λa)", ndtr(lam * a)


# --- the truth -------------------------------------------------------------------------

@dataclass
class TruthScene:
    """What a known truth draws: the Bayes-optimal boundaries and each component's 2-sigma ellipse."""

    boundaries: list = field(default_factory=list)  # Boundary, classes as the truth's
    ellipses: list = field(default_factory=list)  # (class k, polyline (M, 2))


def _ellipse(mu, S, r):
    w, V = np.linalg.eigh(S)
    return (np.asarray(mu)[:, None] + r * ((V * np.sqrt(np.maximum(w, 0.0))) @ _CIRCLE)).T


def truth_scene(truth, bounds: Bounds, resolution: int = 256) -> TruthScene:
    """The Bayes-optimal boundaries of ``truth`` in ``bounds`` (exact, as a QDA's, for one Gaussian a
    class; for mixtures traced by contourpy on ln p(x|C_k)p(C_k) - ln p(x|C_j)p(C_j) where k and j are
    the two most probable classes) and the 2-sigma ellipse of every component."""
    out = TruthScene()
    for k, (means, covs) in enumerate(zip(truth.means, truth.covariances)):
        for mu, S in zip(means, covs):
            out.ellipses.append((k, _ellipse(mu, S, 2.0)))
    bayes = truth.model()
    if bayes is not None:
        out.boundaries = boundaries(bayes, bounds)
        return out
    xs = np.linspace(bounds[0], bounds[1], resolution)
    ys = np.linspace(bounds[2], bounds[3], resolution)
    gx, gy = np.meshgrid(xs, ys)
    A = truth.log_joint(np.column_stack([gx.ravel(), gy.ravel()])).reshape(resolution, resolution, truth.K)
    order = np.argsort(-A, axis=2)
    for k in range(truth.K):
        for j in range(k + 1, truth.K):
            top_two = ((order[..., 0] == k) & (order[..., 1] == j)) | ((order[..., 0] == j) & (order[..., 1] == k))
            D = np.ma.masked_array(A[..., k] - A[..., j], mask=~top_two)
            lines = contourpy.contour_generator(xs, ys, D, line_type=contourpy.LineType.Separate).lines(0.0)
            pieces = [line for line in lines if len(line) >= 2]
            if pieces:
                out.boundaries.append(Boundary(k, j, _join(pieces)))
    return out
