"""Where a figure's parts go, in pixels: the plot rectangle, the ticks, the data-to-pixel map.

Pure Python and numpy. A figure is ``width`` x ``height`` pixels whatever its format; the
exporters draw everything in these pixel coordinates (no scaled transforms), so a point at
(a, b) lands exactly where the ticks say (a, b) is, in PNG, PDF and SVG alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Bounds = tuple[float, float, float, float]  # x0, x1, y0, y1


def view_of(X: np.ndarray, margin: float = 0.15) -> Bounds:
    """A view framing the points with a margin of ``margin`` of their extent (a default when empty). An extent
    is framed as it is down to a billionth of the coordinates (a float holds 15 digits: at 1e6 a spread of 1e-3
    is data, drawn and fitted exactly; it was framed as a tenth of the coordinates, the points in one pixel)."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if len(X) == 0:
        return (-5.0, 5.0, -5.0, 5.0)
    lo, hi = X.min(axis=0), X.max(axis=0)
    flat = hi == lo  # one point, or points on a line along an axis: no extent to frame in that direction
    span = np.maximum(hi - lo, 1e-9 * (1.0 + np.abs(hi)))
    half = margin * span
    if flat.any():  # the other direction's half width when it has one, else a unit (a tenth of |x| when larger)
        other = half[::-1]
        half = np.where(flat, np.where(flat[::-1], np.maximum(1.0, 0.1 * np.abs(hi)), 0.5 * (hi - lo)[::-1] + other),
                        half)
    (x0, y0), (x1, y1) = lo - half, hi + half
    return (float(x0), float(x1), float(y0), float(y1))


def nice_ticks(lo: float, hi: float, length_px: float, target_px: float = 80.0,
               least: float = 0.0) -> tuple[list[float], float]:
    """Tick values at 1, 2 or 5 times a power of ten, about ``target_px`` apart (``least`` apart at the least: 1
    on an axis of counts, which has no half steps), inside [lo, hi]."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo or length_px <= 0:
        return [], 0.0
    raw = max((hi - lo) * target_px / length_px, least)
    power = 10.0 ** math.floor(math.log10(raw))
    spacing = next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw)
    first = math.ceil(lo / spacing - 1e-9)
    values = []
    k = first
    while k * spacing <= hi * (1 + 1e-12) + 1e-12 * abs(spacing):
        values.append(k * spacing)
        k += 1
    return values, spacing


def tick_labels(values: list[float], spacing: float) -> list[str]:
    """Labels with just the decimals the spacing needs, the same for every label ("0.0", "0.5", "1.0");
    -0 is written as 0. Large or tiny values (from 1e6, or below a spacing of 1e-4) are written in whichever of
    the plain and the scientific form is shorter, each with the digits the spacing needs: "1e+06", "2e+06" a
    million apart, but "1000000.5", "1000001.0" half a unit apart (where "1.0000005e+06" says the same longer)."""
    if not values:
        return []
    decimals = max(0, -math.floor(math.log10(spacing) + 1e-9))
    plain = []
    for v in values:
        text = f"{v:.{decimals}f}"
        plain.append(text.lstrip("-") if float(text) == 0 else text)
    big = max(abs(v) for v in values)
    if big >= 1e6 or (big and spacing < 1e-4):
        digits = max(0, -math.floor(math.log10(spacing)) + math.floor(math.log10(big)))
        scientific = [f"{v:.{min(digits, 12)}e}" for v in values]
        if max(map(len, scientific)) < max(map(len, plain)):
            return scientific
    return plain


@dataclass(frozen=True)
class Layout:
    """A figure: its size, the plot rectangle (left, top, width, height) in pixels, the view."""

    width: int
    height: int
    plot: tuple[float, float, float, float]
    bounds: Bounds
    x_labels: tuple | None = None  # ((value, text), ...): ticks of their own (a log axis), else nice ones
    x_step: float = 0.0  # the least spacing of the x ticks (1: the x axis counts steps)

    def x_px(self, x):
        left, _, w, _ = self.plot
        x0, x1, _, _ = self.bounds
        return left + (np.asarray(x, dtype=float) - x0) * (w / (x1 - x0))

    def y_px(self, y):
        _, top, _, h = self.plot
        _, _, y0, y1 = self.bounds
        return top + (y1 - np.asarray(y, dtype=float)) * (h / (y1 - y0))

    def to_px(self, xy: np.ndarray) -> np.ndarray:
        """(N, 2) data coordinates -> (N, 2) pixel coordinates (y pointing down)."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        return np.column_stack([self.x_px(xy[:, 0]), self.y_px(xy[:, 1])])

    def x_ticks(self):
        return nice_ticks(self.bounds[0], self.bounds[1], self.plot[2], least=self.x_step)

    def y_ticks(self):
        return nice_ticks(self.bounds[2], self.bounds[3], self.plot[3], target_px=60.0)


def layout(width: int, height: int, bounds: Bounds, font_px: float, title: bool = False,
           y_label_chars: int | None = None) -> Layout:
    """Room for the tick labels and axis names on the left and bottom, and the title on top. The left margin
    fits the longest y tick label (``y_label_chars`` characters, by default those of the ticks this plot's
    height gets), so the y axis's name sits beside its labels, not a page's width away."""
    bottom = round(font_px * 3.3)
    top = round(font_px * (2.6 if title else 0.9))
    right = round(font_px * 1.2)
    plot_h = max(height - top - bottom, 10)
    if y_label_chars is None:
        values, spacing = nice_ticks(float(bounds[2]), float(bounds[3]), plot_h, target_px=60.0)
        y_label_chars = max([len(t) for t in tick_labels(values, spacing)] + [2])
    left = round(font_px * (0.66 * y_label_chars + 2.6))
    return Layout(width, height, (left, top, max(width - left - right, 10), plot_h),
                  tuple(float(b) for b in bounds))


def clip_polyline(P: np.ndarray, rect: tuple[float, float, float, float]) -> list[np.ndarray]:
    """The parts of a polyline (N, 2) inside ``rect`` = (left, top, width, height), as a list of
    polylines; NaN rows in ``P`` break it. Each segment is cut exactly (Liang-Barsky), so a figure
    needs no clip path to stay inside its plot area."""
    P = np.asarray(P, dtype=float).reshape(-1, 2)
    if len(P) < 2:
        return []
    a, d, t0, t1, keep = _cut_segments(P, rect)
    A, B = a + t0[:, None] * d, a + t1[:, None] * d
    pieces, current, last = [], [], -2
    for i in np.flatnonzero(keep):
        if not (i == last + 1 and t0[i] == 0.0 and t1[last] == 1.0):  # not a continuation of the last one
            if len(current) >= 2:
                pieces.append(np.array(current))
            current = [A[i]]
        current.append(B[i])
        last = i
    if len(current) >= 2:
        pieces.append(np.array(current))
    return pieces


def _cut_segments(P: np.ndarray, rect):
    """The segments of polyline ``P`` (N >= 2 rows) as starts ``a`` and steps ``d``, with the parameters
    t0 <= t1 in [0, 1] of the part of each inside ``rect`` = (left, top, width, height) (Liang-Barsky) and
    which segments have such a part (``keep``; a NaN row's segments have none)."""
    left, top, w, h = rect
    a, b = P[:-1], P[1:]
    d = b - a
    t0, t1 = np.zeros(len(a)), np.ones(len(a))
    keep = np.all(np.isfinite(a), axis=1) & np.all(np.isfinite(b), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in ((-d[:, 0], a[:, 0] - left), (d[:, 0], left + w - a[:, 0]),
                     (-d[:, 1], a[:, 1] - top), (d[:, 1], top + h - a[:, 1])):
            keep &= ~((p == 0) & (q < 0))
            r = q / p
            t0 = np.where(p < 0, np.maximum(t0, r), t0)
            t1 = np.where(p > 0, np.minimum(t1, r), t1)
    keep &= t0 <= t1
    return a, d, t0, t1, keep


def marks_hidden(px: np.ndarray, codes: np.ndarray | None, rect: tuple[float, float, float, float],
                 radius: float) -> tuple[int, int]:
    """What a box (left, top, width, height) would hide of marks of ``radius`` pixels centred at ``px`` (M, 2):
    how many classes (``codes``, non-negative class indices of the marks, or None) it hides every mark of, and
    how many marks. A legend is placed where this is least, on screen and in figures."""
    left, top, w, h = rect
    inside = ((px[:, 0] > left - radius) & (px[:, 0] < left + w + radius)
              & (px[:, 1] > top - radius) & (px[:, 1] < top + h + radius))
    whole = 0
    if codes is not None and len(codes):
        counts = np.bincount(codes)
        hidden = np.bincount(codes, weights=inside, minlength=len(counts))
        whole = int(np.count_nonzero((hidden == counts) & (counts > 0)))  # (a class with no marks hides nowhere)
    return whole, int(np.count_nonzero(inside))


def stripes(rings, period: float, offset: float = 0.0) -> np.ndarray:
    """Hatching as vector lines: the stripes x + y = offset + k * period (in pixels, rows down: they rise to
    the right), cut to the inside of closed ``rings`` (M, 2) in pixel coordinates, filled even-odd (holes stay
    holes). Segments (S, 2, 2), each from one ring edge to the next along its stripe. A stripe's crossings are
    counted from each vertex's stripe index, an edge crossing the stripes in [its lower end, its upper end)
    of x + y: a closed ring is crossed an even number of times on every stripe, whatever the rounding."""
    rings = [np.asarray(r, dtype=float).reshape(-1, 2) for r in rings]
    rings = [r for r in rings if len(r) >= 3 and np.all(np.isfinite(r))]
    if not rings or not period > 0:
        return np.empty((0, 2, 2))
    a = np.vstack(rings)
    b = np.vstack([np.roll(r, -1, axis=0) for r in rings])  # edges a -> b, each ring closed on its first vertex
    ua, ub = a.sum(axis=1), b.sum(axis=1)
    ka, kb = np.ceil((ua - offset) / period), np.ceil((ub - offset) / period)  # the first stripe at or above
    k0, n = np.minimum(ka, kb), np.abs(kb - ka).astype(np.intp)
    edge = np.repeat(np.arange(len(a)), n)
    k = np.repeat(k0, n) + (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n))
    c = offset + k * period
    t = np.clip((c - ua[edge]) / (ub[edge] - ua[edge]), 0.0, 1.0)  # n > 0: ua != ub
    v = a[edge, 0] - a[edge, 1] + t * ((b[edge, 0] - b[edge, 1]) - (a[edge, 0] - a[edge, 1]))  # x - y along it
    order = np.lexsort((v, k))
    c, v = c[order], v[order]  # on each stripe in turn, its crossings in order: inside between pairs
    c, v0, v1 = c[0::2], v[0::2], v[1::2]
    keep = v1 > v0  # not a touch at a vertex
    c, v0, v1 = c[keep], v0[keep], v1[keep]
    return np.stack([np.c_[(c + v0) / 2, (c - v0) / 2], np.c_[(c + v1) / 2, (c - v1) / 2]], axis=1)


def length_inside(P: np.ndarray, rect: tuple[float, float, float, float]) -> float:
    """How long a polyline (N, 2; NaN rows break it) runs inside ``rect`` = (left, top, width, height): what of
    a boundary a legend box there would hide. One pass over the segments, without the pieces."""
    P = np.asarray(P, dtype=float).reshape(-1, 2)
    if len(P) < 2:
        return 0.0
    _, d, t0, t1, keep = _cut_segments(P, rect)
    return float(np.sum(np.hypot(d[keep, 0], d[keep, 1]) * (t1[keep] - t0[keep])))


SHORT_NAMES = {"lda": "LDA", "qda": "QDA", "tied": "tied", "nb": "naive Bayes", "logistic": "logistic",
               "softmax": "softmax", "probit": "probit", "leastsquares": "least squares", "fisher": "Fisher",
               "perceptron": "perceptron"}  # a model in a projector's legend, where the caption gives its full name


def legend_key(specs, frame, request, brief: bool = False) -> list[tuple[str, str]]:
    """The legend's rows for every line style and marker drawn besides the fitted model and its classes:
    (text, how its sample is drawn: "solid", "dashed", "dashdot", "hatch", "hollow", "cross", "plus", and for
    the Bayesian view "sample" (a thin translucent line), "veil" (the grey of the predictive variance), "reject"
    (the reject option's region, in the style's reject grey) and "dotted" (the boundary of weights clicked in
    weight space), "ramp" (the miscalibration map's scale, its darkest shade) and "ring" (the point a stochastic
    gradient descent step used)). Only what is drawn. ``brief`` (a projector's legend, beside a caption that
    names the model): the boundaries by the models' short names ("QDA boundary", "Bayes boundary"), so the
    legend stays small."""
    key = []

    def boundary(spec) -> str:
        return f"{SHORT_NAMES.get(spec.name, spec.label)} boundary" if brief else f"{spec.label}: boundary"

    drawn = frame.scene is not None and bool(frame.scene.boundaries)  # (none at w = 0, or with the layer off)
    if drawn and (len(specs) > 1 or frame.truth is not None):  # with other lines around, say which one is the fit
        key.append((boundary(specs[0]), "solid"))
    if len(specs) > 1:
        key.append((boundary(specs[1]), "dashed"))
    if frame.truth is not None:
        key.append(("Bayes boundary" if brief else "true model: Bayes boundary", "dashdot"))
    if frame.scene is not None and frame.scene.hatched:
        key.append(("undecided", "hatch"))
    if frame.scene is not None and frame.scene.reject:  # the reject option's grey: no decision there
        key.append(("rejected" if brief else f"rejected, no decision (θ = {request.theta:g})", "reject"))
    if request.held_out is not None and request.held_out.any():
        held = int(request.held_out.sum())
        key.append((f"held out ({held})" if brief else f"held out ({held}), not fitted", "hollow"))
    wrong = frame.wrong
    if "points" in request.layers and wrong is not None and len(wrong) == len(request.X) and wrong.any():
        key.append((f"misclassified ({int(wrong.sum())})", "cross"))
    if frame.scene is not None and frame.scene.ellipses:
        key.append(("class means", "plus"))
    if frame.scene is not None and frame.scene.samples:
        key.append((f"boundaries of {request.samples[0]} w drawn from q(w)", "sample"))
    if frame.scene is not None and frame.scene.shade is not None:
        key.append(("predictive variance σ_a² (grey)", "veil"))
    if frame.weight_line:
        key.append(("boundary of the weights clicked", "dotted"))
    if getattr(frame, "rbf_centers", None) is not None:
        key.append(("RBF centres", "diamond"))
    training = getattr(frame, "training", None)
    if training is not None and training.highlight is not None:  # the point a stochastic step used, ringed
        key.append(("point of this step" if brief else "the point this SGD step used", "ring"))
    if frame.scene is not None and frame.scene.miscalibration is not None:
        from probviz.scene import MISCAL_TOP

        key.append((f"|fitted − true p|: 0 to {MISCAL_TOP:g}+", "ramp"))
    return key


def drawn_step(frame):
    """The training step the frame draws instead of the fit (its view: index, optimizer), or None."""
    t, view = frame.request.training, frame.training
    return view if t is not None and t.shown and view is not None and not view.problem else None


def shown_label(frame, short: bool = False) -> str:
    """What the picture shows, as its legend and caption name it: the model, and while a training step is
    drawn instead of the fit, the optimizer and the step ("Logistic regression, Gradient descent, step 3");
    with the Bayesian view, its prior ("Logistic regression, Bayesian, α = 0.111"), the steps' too (they go to
    w_MAP: "Logistic regression, Bayesian, α = 1, Newton / IRLS, step 8"). ``short``: the optimizer's short name
    ("SGD"), where room is short (a projector's caption)."""
    from probviz.models.training import OPTIMIZER_LABELS, OPTIMIZER_SHORT
    from probviz.pipeline import shown_loss
    from probviz.stepping import training_alpha

    spec = frame.request.specs[0]
    view = drawn_step(frame)
    if view is not None:
        alpha = training_alpha(spec)
        prior = f", Bayesian, α = {alpha:.3g}" if alpha is not None else ""
        names = OPTIMIZER_SHORT if short else OPTIMIZER_LABELS
        return f"{spec.label}{prior}, {names.get(view.optimizer, view.optimizer)}, step {view.index}"
    lap = getattr(frame.fit.model, "laplace_", None) if frame.fits else None
    label = f"{spec.label}, Bayesian, α = {lap.alpha:.3g}" if lap is not None else spec.label  # which prior
    if frame.fits and shown_loss(frame.request, frame.fit) is not None:  # the decision's losses
        label += ", loss " + ";".join(",".join(f"{v:g}" for v in row) for row in frame.request.loss)
    return label
