"""The feature space of a radial-basis fit (Bishop 2006, figure 4.12, right): each point x drawn at
(phi_a(x), phi_b(x)) for two of its Gaussian basis functions. With exactly two basis functions the scores
s_k = w_k0 + w_ka phi_a + w_kb phi_b are linear there, so every decision boundary, a curve in x, is a straight
line in this plane: the lesson of the figure. With more basis functions the plane is a slice of a larger space
and the boundary is not a line in it: the points are drawn, the lines not (said in ``note``).

Computing is pure numpy; :func:`draw` makes the picture with matplotlib (imported only there).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class FeatureSpace:
    points: np.ndarray  # (N, 2): (phi_a(x_n), phi_b(x_n))
    labels: np.ndarray  # (N,) the points' labels (as given)
    pair: tuple  # (a, b): which basis functions, counted from 0
    lines: list = field(default_factory=list)  # (k, j, (2, 2) segment): s_k = s_j where k and j lead, in [0, 1]^2
    note: str = ""


def _segment(c, box=(0.0, 1.0)):
    """The part of {u : c0 + c1 u1 + c2 u2 = 0} inside the square box^2, as a point and a direction with the
    parameter interval, or None."""
    n = np.array([c[1], c[2]], float)
    nn = float(n @ n)
    if nn == 0.0:
        return None
    p0 = -c[0] * n / nn
    d = np.array([-n[1], n[0]]) / np.sqrt(nn)
    lo, hi = -np.inf, np.inf
    for axis in range(2):
        if d[axis] == 0.0:
            if not box[0] <= p0[axis] <= box[1]:
                return None
            continue
        t1, t2 = sorted(((box[0] - p0[axis]) / d[axis], (box[1] - p0[axis]) / d[axis]))
        lo, hi = max(lo, t1), min(hi, t2)
    return (p0, d, lo, hi) if lo < hi else None


def feature_space(model, X, labels, pair=(0, 1)) -> FeatureSpace:
    """The points of a fitted radial-basis model in the plane of basis functions ``pair``, and, with exactly
    two basis functions, its boundaries there (straight lines, exact). A ValueError for another model."""
    scores = getattr(model, "scores_", None)
    if getattr(scores, "kind", "") != "rbf":
        raise ValueError("the feature space is drawn for the rbf basis (logistic, softmax or probit regression with "
                         "--basis rbf)")
    M = len(scores.mus)
    a, b = (int(v) for v in pair)
    if M < 2:
        raise ValueError("the feature space needs two basis functions or more: give two centres or more")
    if not (0 <= a < M and 0 <= b < M and a != b):
        raise ValueError(f"the feature space's basis functions must be two different ones from 1 to {M}")
    Phi = scores.features(np.asarray(X, float))
    out = FeatureSpace(Phi[:, [a, b]], np.asarray(labels), (a, b))
    if M != 2:
        out.note = (f"{M} basis functions: this plane is a slice of a {M}-dimensional feature space, where the "
                    "boundary is a hyperplane; it is drawn as a line only with two basis functions")
        return out
    W = scores.coefs[:, [0, 1 + a, 1 + b]]  # scores linear in (phi_a, phi_b)
    K = len(W)
    for k in range(K):
        for j in range(k + 1, K):
            seg = _segment(W[k] - W[j])
            if seg is None:
                continue
            p0, d, lo, hi = seg
            for m in range(K):  # keep the interval where k and j beat every other class (all linear in t)
                if m in (k, j):
                    continue
                c = W[k] - W[m]
                g0 = c[0] + c[1:] @ p0
                slope = c[1:] @ d
                if slope == 0.0:
                    if g0 < 0:
                        lo, hi = 1.0, 0.0
                elif slope > 0:
                    lo = max(lo, -g0 / slope)
                else:
                    hi = min(hi, -g0 / slope)
            if lo < hi:
                out.lines.append((k, j, np.vstack([p0 + lo * d, p0 + hi * d])))
    return out


def draw(fs: FeatureSpace, path: str, names, colors, title: str = "", width: int = 900, height: int = 800) -> None:
    """The feature space as a figure (PNG, SVG or PDF by the file's suffix), with matplotlib."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    from probviz.colors import class_marker

    markers = {"circle": "o", "square": "s", "triangle": "^", "diamond": "D", "triangle-down": "v", "pentagon": "p",
               "star": "*", "hexagon": "h"}
    fig = Figure(figsize=(width / 100, height / 100), dpi=100)
    ax = fig.add_subplot()
    for k, (name, color) in enumerate(zip(names, colors)):
        mask = fs.labels == k
        if mask.any():
            ax.scatter(fs.points[mask, 0], fs.points[mask, 1], c=[color], marker=markers.get(class_marker(k), "o"),
                       edgecolors="white", linewidths=0.8, s=50, label=name, zorder=3)
    for i, (_, _, seg) in enumerate(fs.lines):
        ax.plot(seg[:, 0], seg[:, 1], color="black", linewidth=2.2, zorder=2, label="boundary" if i == 0 else None)
    a, b = fs.pair
    ax.set_xlabel(f"φ{a + 1}(x)")
    ax.set_ylabel(f"φ{b + 1}(x)")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.set_title(title or "Feature space (Bishop figure 4.12)")
    if fs.note:
        ax.text(0.5, -0.16, fs.note, transform=ax.transAxes, ha="center", va="top", fontsize=8, wrap=True)
    ax.legend(loc="best")
    fig.savefig(path)
