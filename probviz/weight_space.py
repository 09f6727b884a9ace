"""Weight space: the Bayesian view of two-class logistic regression seen over its two slopes (w1, w2).

Bishop's figure 3.7 tells sequential learning for regression: the prior, the likelihood of the data and
their product, the posterior, drawn over the weights, narrowing as points arrive. This module draws the
same story for logistic regression with the linear basis, whose weights are (w0, w1, w2) on the features
phi = [1, (x - center) / scale] the prior N(w | 0, alpha^-1 I) is on (Bishop 4.5.1):

- the prior, ln N(w | 0, alpha^-1 I);
- the likelihood, ln p(t | w) = sum_n ln sigma(+-w^T phi_n) (eq. 4.89);
- the exact posterior, their sum (unnormalised, eq. 4.140);
- the Laplace approximation q(w) = N(w_MAP, S_N) (eq. 4.143) and weights drawn from it,

each over (w1, w2) with the bias held at w_MAP's (a slice of three dimensions: the Laplace ellipses are
then those of q's conditional at that bias, precision S_N^-1's (w1, w2) block). Contours are drawn where a
surface lies 1/2, 2 and 9/2 below its largest value (1, 2 and 3 standard deviations of a Gaussian).

Pure: no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import contourpy
import numpy as np
from probviz.special import log_expit

#: how far below a surface's largest value its contours lie: k^2 / 2 for k = 1, 2, 3 standard deviations
LEVELS = (0.5, 2.0, 4.5)
#: the grid's nodes along each axis, and the most points whose likelihood the panel evaluates on it
SIZE, MAX_POINTS = 61, 5_000
#: the plot spans w_MAP +- SPAN posterior standard deviations (and the prior's centre when it is near)
SPAN, NEAR = 4.0, 12.0


@dataclass
class WeightSpace:
    """What the weight-space panel draws (the weights on the prior's features, bias first).

    w1, w2 : the grid's axes (SIZE nodes, more along an axis widened to a plot's shape); bias : w_MAP's bias,
        the slice's; w_map : (3,).
    surfaces : {"prior", "likelihood", "posterior"} -> (len(w2), len(w1)) log values (rows w2, columns w1) less
        their largest value on the slice (the prior's and the posterior's exactly, the likelihood's on the
        grid: it may grow without bound on separable data).
    contours : the same names -> one list of polylines (M, 2) per level of LEVELS; "laplace" -> one ellipse
        (M, 2) per level: q(w)'s conditional on the slice.
    samples : (S, 2) the (w1, w2) of weights drawn from q(w), those of the canvas's boundary cloud.
    alpha, n : the prior's precision and the number of points.
    """

    w1: np.ndarray
    w2: np.ndarray
    bias: float
    w_map: np.ndarray
    surfaces: dict
    contours: dict
    samples: np.ndarray
    alpha: float
    n: int
    cov: np.ndarray = field(default_factory=lambda: np.eye(3))  # S_N
    levels: tuple = LEVELS
    center: np.ndarray = field(default_factory=lambda: np.zeros(2))
    scale: np.ndarray = field(default_factory=lambda: np.ones(2))


#: why the panel is empty while the canvas draws a training step (its weights have no Laplace posterior)
TRAINING_SHOWN = ("The canvas shows a training step, not the fit: weight space shows the fit's Bayesian view. "
                  "T shows the fit again.")


def unavailable(model, n_points: int) -> str:
    """Why the panel cannot draw the weight space of ``model`` ("" when it can)."""
    lap = getattr(model, "laplace_", None)
    if getattr(model, "name", "") == "logistic" and getattr(model, "bayes", False) and lap is None:
        return "Weight space needs points of two classes; these are all of one class (add a point of another)."
    if getattr(model, "name", "") != "logistic" or lap is None:
        return "Weight space shows logistic regression's Bayesian view: choose logistic regression and tick " \
               "'Bayesian view (Laplace)'."
    if lap.K != 2:
        return f"Weight space shows two classes (three weights); these points have {lap.K}."
    if lap.degree != 1:
        return "Weight space shows the linear basis's three weights; choose basis 'linear'."
    if n_points > MAX_POINTS:
        return f"Weight space evaluates the likelihood of at most {MAX_POINTS:,} points on its grid; " \
               f"these are {n_points:,}."
    return ""


def _box(lap) -> tuple[tuple[float, float], tuple[float, float]]:
    """The plot's ranges: w_MAP +- SPAN posterior standard deviations along each slope, stretched to the
    prior's centre 0 when it lies within NEAR of them (the prior and the posterior on one picture)."""
    w, sd = lap.w_map[0][1:], np.sqrt(np.diag(lap.cov[0])[1:])
    out = []
    for c, s in zip(w, sd):
        lo, hi = c - SPAN * s, c + SPAN * s
        if abs(c) < NEAR * s:
            lo, hi = min(lo, -SPAN * s), max(hi, SPAN * s)
        out.append((float(lo), float(hi)))
    return out[0], out[1]


def _widened(x, y, aspect: float):
    """The ranges ``x`` and ``y``, one of them widened about its middle so that span(y) / span(x) = ``aspect``
    (> 0; unchanged otherwise)."""
    (x0, x1), (y0, y1) = x, y
    if not aspect > 0:
        return x, y
    if (y1 - y0) < aspect * (x1 - x0):
        half, mid = aspect * (x1 - x0) / 2, (y0 + y1) / 2
        return x, (mid - half, mid + half)
    half, mid = (y1 - y0) / aspect / 2, (x0 + x1) / 2
    return (mid - half, mid + half), y


def inner_box(x, y, aspect: float):
    """The largest box of ``aspect`` = span(y) / span(x) (> 0) inside the ranges ``x`` and ``y``, about their
    middle: one of them narrowed (``_widened``'s inverse)."""
    (x0, x1), (y0, y1) = x, y
    if (y1 - y0) > aspect * (x1 - x0):
        half, mid = aspect * (x1 - x0) / 2, (y0 + y1) / 2
        return x, (mid - half, mid + half)
    half, mid = (y1 - y0) / aspect / 2, (x0 + x1) / 2
    return (mid - half, mid + half), y


def log_likelihood(Phi, t, bias, w1, w2) -> np.ndarray:
    """ln p(t | w) = sum_n ln sigma(s_n a_n), s_n = 2 t_n - 1, a_n = bias + w1 phi_n1 + w2 phi_n2, at every
    (w1[j], w2[i]): (len(w2), len(w1)); the points taken a block at a time (memory)."""
    s = 2.0 * np.asarray(t, float) - 1.0
    W1, W2 = np.meshgrid(np.asarray(w1, float), np.asarray(w2, float))
    out = np.zeros(W1.size)
    step = max(1, 2_000_000 // max(W1.size, 1))
    for i in range(0, len(Phi), step):
        P, sign = Phi[i:i + step], s[i:i + step, None]
        A = bias + np.outer(P[:, 1], W1.ravel()) + np.outer(P[:, 2], W2.ravel())
        out += log_expit(sign * A).sum(axis=0)
    return out.reshape(W1.shape)


def _lines(w1, w2, Z, levels):
    gen = contourpy.contour_generator(w1, w2, Z, line_type=contourpy.LineType.Separate)
    return [[line for line in gen.lines(-d) if len(line) >= 2] for d in levels]


def laplace_ellipses(lap, levels=LEVELS, points: int = 129) -> list[np.ndarray]:
    """q(w)'s contours on the slice at w_MAP's bias: the (w1, w2) with d^T A d = 2 * level, d = w - w_MAP's
    slopes, A the (w1, w2) block of S_N^-1 (a Gaussian's conditional precision)."""
    A = lap.precision[0][1:, 1:]
    L = np.linalg.cholesky(A)  # A = L L^T: d = L^-T u with |u| = r gives d^T A d = r^2
    u = np.vstack([np.cos(np.linspace(0, 2 * np.pi, points)), np.sin(np.linspace(0, 2 * np.pi, points))])
    D = np.linalg.solve(L.T, u)
    return [(lap.w_map[0][1:, None] + np.sqrt(2.0 * d) * D).T for d in levels]


def weight_space(lap, X, t, samples: tuple = (30, 0), size: int = SIZE, aspect: float = 0.0) -> WeightSpace:
    """The weight space of a two-class, linear-basis Laplace fit ``lap`` of points ``X`` with targets ``t``
    (1 for the second class), and the (w1, w2) of ``samples`` = (count, seed) draws from q(w). ``aspect``: the
    height over the width of the plot that shows it with equal scales (circles round), to which the box is
    widened about its middle: its contours then reach every edge of that plot (0: the box as it is)."""
    X, t = np.asarray(X, float), np.asarray(t, float)
    box = _box(lap)
    (a0, a1), (b0, b1) = _widened(*box, aspect)
    # a widened axis keeps its nodes' spacing (at most four times as many): the contours stay as fine
    n1, n2 = (min(4 * size, round(size * (hi - lo) / (b[1] - b[0]))) for (lo, hi), b in zip(((a0, a1), (b0, b1)), box))
    w1, w2 = np.linspace(a0, a1, n1), np.linspace(b0, b1, n2)
    w = lap.w_map[0]
    bias = float(w[0])
    W1, W2 = np.meshgrid(w1, w2)
    prior = -0.5 * lap.alpha * (W1 ** 2 + W2 ** 2)  # less its largest value on the slice, at (0, 0)
    Phi = lap.features(X)
    lik = log_likelihood(Phi, t, bias, w1, w2)
    top = log_likelihood(Phi, t, bias, [w[1]], [w[2]])[0, 0] - 0.5 * lap.alpha * (w[1] ** 2 + w[2] ** 2)
    post = lik + prior - top  # the slice's largest value is at w_MAP's slopes
    lik = lik - lik.max()
    surfaces = {"prior": prior, "likelihood": lik, "posterior": post}
    contours = {name: _lines(w1, w2, Z, LEVELS) for name, Z in surfaces.items()}
    contours["laplace"] = laplace_ellipses(lap)
    count, seed = samples
    drawn = lap.sample_on_features(int(count), int(seed))[:, 0, 1:] if count > 0 else np.empty((0, 2))
    return WeightSpace(w1, w2, bias, w.copy(), surfaces, contours, drawn, float(lap.alpha), len(X),
                       cov=np.asarray(lap.cov[0], float).copy(), center=np.asarray(lap.center, float), scale=np.asarray(lap.scale, float))


def boundary_weights(lap, w1: float, w2: float) -> np.ndarray:
    """The (1, 3) weights (bias first, on the prior's features) of the point (w1, w2) of the slice."""
    return np.array([[lap.w_map[0][0], float(w1), float(w2)]])
