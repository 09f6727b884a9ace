"""probviz pictures in matplotlib: the frame the window and its exports draw, drawn into an ``Axes``.

::

    import matplotlib.pyplot as plt
    import probviz

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    probviz.plot("example:fruit", model="lda", ax=left)
    probviz.plot("example:fruit", model="logistic", ax=right)
    fig.savefig("fruit.pdf")

    probviz.plot(X, y, model="qda", layers=["heatmap", "boundaries", "points"])  # a new figure

Data come as a CSV or ``.probviz`` file, ``example:NAME``, a :class:`probviz.data.session.Session`, or
points ``X`` (N, 2) with their ``labels``. The geometry is the pipeline's own frame (Bishop chapter 4:
posteriors, decision regions, boundaries, the Gaussians' ellipses, a known truth's Bayes boundary, a
compared model), drawn with the look of :data:`probviz.style.LOOK`, so a point or a boundary sits at
the same data coordinates here as on screen and in ``probviz export``. The result says what was drawn
(:class:`Drawing`) and shows itself as an image in Jupyter.

Needs matplotlib: ``pip install 'probviz-classifiers[mpl]'``. No Qt.
"""

from __future__ import annotations

import io
import math
import os
from dataclasses import dataclass, field, replace

import numpy as np

from probviz import pipeline
from probviz.colors import class_marker, marker_outline
from probviz.data.dataset import Dataset
from probviz.data.session import Session
from probviz.figure_layout import legend_key, shown_label, view_of
from probviz.layers import LAYERS
from probviz.models import REGISTRY
from probviz.scene import SHADE_ALPHA, SHADE_RGB, miscalibration_ramp
from probviz.snapshot import Snapshot, frame_request, from_session, with_model
from probviz.style import LOOK, SECTION_END, SGD_KEY, SGD_KEY_WIDTH, SGD_RING, SGD_RING_WIDTH, Style

PX_TO_PT = 72.0 / 96.0  # probviz sizes lines and markers in pixels at 96 dpi; matplotlib in points
DASHES = {"solid": "-", "dash": "--", "dot": ":", "dashdot": "-."}
KEY_LINES = {"solid": "boundary", "dashed": "compared", "dashdot": "truth_boundary", "sample": "sample",
             "dotted": "weight_probe"}


@dataclass
class Drawing:
    """What :func:`plot` drew: the ``ax`` it drew into, the pipeline ``frame`` (fits, scene, probe) and
    the matplotlib ``artists`` of each part, by name ("heatmap", "decision", "reject", "undecided",
    "density", "ellipses", "boundaries", "compared", "truth", "points", "held_out", "misclassified",
    "means", "sgd_point", "section", "probe", "note", "legend"); a part not drawn has no entry. In Jupyter it
    shows its figure."""

    ax: object
    frame: pipeline.Frame
    artists: dict = field(default_factory=dict)

    @property
    def figure(self):
        return self.ax.figure

    def __repr__(self) -> str:  # not the frame's arrays: a notebook keeps this text beside the image
        return f"<probviz Drawing: {shown_label(self.frame)}; {', '.join(self.artists) or 'nothing drawn'}>"

    def _repr_png_(self) -> bytes:
        buf = io.BytesIO()
        self.ax.figure.savefig(buf, format="png", dpi=96)
        return buf.getvalue()


def plot(data, labels=None, *, model: str | None = None, ax=None, layers=None, compare: str | None = None,
         view=None, resolution: int = 300, legend: bool = True, dark: bool = False, **params) -> Drawing:
    """Draw ``data`` fitted by ``model`` into ``ax`` (a new figure when None) and return the :class:`Drawing`.

    ``data``: a path (CSV, ``.probviz``), ``"example:NAME"``, a Session, or points (N, 2) with ``labels``
    (names or numbers, one per point). ``model``: a name of ``probviz models`` (default: the session's,
    else LDA); ``params`` its parameters (``l2=0.1``, ``basis="quadratic"``, ...). ``layers``: any of
    heatmap, decision, boundaries, ellipses, density, truth (a known truth's Bayes boundary and
    ellipses), points (default: the session's). ``compare``: a
    second model whose boundaries are drawn dashed. ``view``: (x0, x1, y0, y1), default the session's
    view, else the data's extent. ``resolution``: the posterior grid's cells across. ``dark``: the dark
    theme's colours.
    """
    snap = _snapshot(data, labels)
    if model is not None or params:
        snap = with_model(snap, model, params)
    if layers is not None:
        layers = [layers] if isinstance(layers, str) else list(layers)
        unknown = [v for v in layers if v not in LAYERS]
        if unknown:
            raise ValueError(f"unknown layer {unknown[0]!r}; the layers are {', '.join(LAYERS)}")
        snap = replace(snap, layers=frozenset(layers))
    if compare is not None:
        if compare not in REGISTRY:
            raise ValueError(f"unknown model {compare!r}; probviz has {', '.join(REGISTRY)}")
        snap = replace(snap, compare=compare)
    if not 2 <= int(resolution) <= 2000:
        raise ValueError(f"resolution {resolution} is out of range (2 to 2000 cells)")
    data = snap.dataset
    bounds = tuple(float(v) for v in (view if view is not None else (snap.view or view_of(data.X))))
    if not (bounds[0] < bounds[1] and bounds[2] < bounds[3]):
        raise ValueError(f"view {bounds} is empty: give (x0, x1, y0, y1) with x0 < x1 and y0 < y1")
    style = Style(dark=dark)
    request = frame_request(snap, bounds, (int(resolution), int(resolution)), style.background, style.reject)
    frame = pipeline.compute(request)
    if ax is None:
        from matplotlib.figure import Figure  # not pyplot: nothing opens a window, the Drawing shows itself

        ax = Figure(figsize=(6.4, 4.8), layout="constrained").add_subplot()
    drawing = Drawing(ax, frame)
    _draw(drawing, snap, style)
    if legend:
        _legend(drawing, snap, style)
    x0, x1, y0, y1 = bounds
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_xlabel(data.axis_names[0])
    ax.set_ylabel(data.axis_names[1])
    return drawing


def _snapshot(data, labels) -> Snapshot:
    if isinstance(data, Snapshot):
        return data
    if isinstance(data, Session):
        return from_session(data)
    if isinstance(data, (str, os.PathLike)):
        from probviz.data.inputs import load_session

        return from_session(load_session(os.fspath(data)))
    if labels is None:
        raise ValueError("points need their labels: plot(X, labels, ...)")
    X = np.asarray(data, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must be N points of two coordinates, shape (N, 2); got shape {X.shape}")
    labels = np.asarray(labels)
    if labels.shape != (len(X),):
        raise ValueError(f"{len(X)} points and {labels.size} labels: give one label per point")
    if not np.isfinite(X).all():
        raise ValueError("X holds NaN or infinite coordinates")
    return Snapshot(Dataset.from_labels(X, labels))


def _rings_path(rings):
    """Closed rings (M, 2) as one matplotlib path (contourpy traces a hole the other way round from the ring
    around it: matplotlib's nonzero rule leaves it empty)."""
    from matplotlib.path import Path

    return Path.make_compound_path(*(Path(np.vstack([r, r[:1]]), closed=True) for r in rings))


def _rgb(c) -> tuple:
    """A colour for matplotlib: '#rrggbb' as it is, (r, g, b) 0-255 as fractions."""
    return c if isinstance(c, str) else tuple(v / 255 for v in c[:3])


def _line_kw(style: Style, kind: str, color=None) -> dict:
    stroke = LOOK[kind]
    role = {"fg": style.foreground, "bg": style.background}.get(stroke.role, color)
    kw = {"color": _rgb(role), "linewidth": style.width(kind) * PX_TO_PT, "linestyle": DASHES[stroke.dash],
          "solid_capstyle": "round", "dash_capstyle": "round"}
    if stroke.opacity < 1:
        kw["alpha"] = stroke.opacity
    if stroke.outline:  # a background outline under the line, so that it reads on any heatmap
        from matplotlib import patheffects

        kw["path_effects"] = [patheffects.Stroke(linewidth=style.outline_width(kind) * PX_TO_PT,
                                                 foreground=_rgb(style.background)), patheffects.Normal()]
    return kw


def _lines(ax, polylines, z, **kw) -> list:
    """Polylines (M, 2) with NaN rows between pieces, as one Line2D each."""
    return [ax.plot(xy[:, 0], xy[:, 1], zorder=z, **kw)[0] for xy in polylines if len(xy)]


def _joined(lines) -> list:
    return [np.vstack([part for xy in lines for part in (xy, np.full((1, 2), np.nan))])] if lines else []


def _marker(k: int):
    """Class k's marker (:data:`probviz.colors.MARKERS`), and the factor that keeps its area the circle's
    (matplotlib scales a path marker to its largest extent)."""
    outline = marker_outline(class_marker(k))
    if outline is None:
        return "o", 1.0
    from matplotlib.path import Path

    v = outline * (1, -1)  # y up
    return Path(np.vstack([v, v[:1]]), closed=True), 2 * float(np.max(np.abs(v)))


def _draw(d: Drawing, snap: Snapshot, style: Style) -> None:
    ax, frame, art = d.ax, d.frame, d.artists
    request, sc = frame.request, frame.scene
    x0, x1, y0, y1 = request.bounds
    extent = (x0, x1, y0, y1)
    bg, fg = _rgb(style.background), _rgb(style.foreground)
    ax.set_facecolor(bg)
    if sc is not None:
        ambiguous = sc.ambiguous if sc.ambiguous_rings is None else None  # a discriminant scheme's, on the grid
        for name, img, z in (("heatmap", sc.image, 0), ("decision", sc.decision, 0.1), ("undecided", ambiguous, 0.3),
                             ("variance", sc.shade, 0.4)):
            if img is not None:  # row 0 is the bottom of the view
                art[name] = [ax.imshow(img, origin="lower", extent=extent, aspect="auto", interpolation="bilinear",
                                       zorder=z)]
        from matplotlib.patches import PathPatch

        if sc.reject:
            art["reject"] = [ax.add_patch(PathPatch(_rings_path(sc.reject), facecolor=_rgb(sc.reject_color),
                                                    edgecolor="none", fill=True, zorder=0.2))]
        if sc.ambiguous_rings:  # one-vs-rest's undecided regions: matplotlib's own (vector) hatching
            hatch = LOOK["hatch"]
            art["undecided"] = [ax.add_patch(PathPatch(_rings_path(sc.ambiguous_rings), facecolor="none",
                                                       edgecolor=(*_rgb(style.foreground), hatch.opacity),
                                                       linewidth=0, hatch="///", zorder=0.3))]
        colors = [request.colors[i] for i in frame.fit.class_index]
        for name, lines in (("density", sc.density), ("ellipses", sc.ellipses)):
            if lines:
                kind = "density" if name == "density" else "ellipse"
                art[name] = [a for k, xy in enumerate(lines) for a in _lines(ax, [xy], 2, **_line_kw(style, kind, colors[k]))]
        if sc.samples:
            art["samples"] = _lines(ax, _joined(sc.samples), 2.5, **_line_kw(style, "sample"))
    if frame.weight_line:
        art["weight_line"] = _lines(ax, _joined(frame.weight_line), 3.5, **_line_kw(style, "weight_probe"))
    if sc is not None:
        if sc.boundaries:
            art["boundaries"] = _lines(ax, _joined([b.xy for b in sc.boundaries]), 3, **_line_kw(style, "boundary"))
        compared = [b.xy for over in frame.overlays for b in over]
        if compared:
            art["compared"] = _lines(ax, _joined(compared), 3, **_line_kw(style, "compared"))
    if frame.truth is not None:
        truth = [a for k, xy in frame.truth.ellipses
                 for a in _lines(ax, [xy], 2.5, **_line_kw(style, "truth_ellipse", request.colors[k]))]
        truth += _lines(ax, _joined([b.xy for b in frame.truth.boundaries]), 3.5, **_line_kw(style, "truth_boundary"))
        art["truth"] = truth
    _points(d, snap, style)
    if sc is not None and sc.ellipses and frame.fit.model is not None:  # the class means, over the points
        m = np.asarray(frame.fit.model.means_)
        size = 11 * style.scale * PX_TO_PT
        art["means"] = [ax.plot(m[:, 0], m[:, 1], linestyle="none", marker="+", markersize=size, markeredgewidth=mew,
                                color=c, zorder=5)[0]
                        for c, mew in ((bg, 4.5 * style.scale * PX_TO_PT), (fg, 2.0 * style.scale * PX_TO_PT))]
    spot = frame.training.highlight if frame.training is not None else None
    if spot is not None:  # the point the SGD step shown used: ringed in the ink, as on the canvas
        art["sgd_point"] = ax.plot([spot[0]], [spot[1]], linestyle="none", marker="o", markerfacecolor="none",
                                   markersize=SGD_RING * style.point_size * PX_TO_PT, markeredgecolor=fg,
                                   markeredgewidth=SGD_RING_WIDTH * style.scale * PX_TO_PT, zorder=5.4)
    if getattr(frame, "rbf_centers", None) is not None:  # an rbf fit's centres: open diamonds over a halo
        C, kw = frame.rbf_centers, _line_kw(style, "rbf_center")
        kw.pop("path_effects", None)
        art["rbf_centers"] = [ax.plot(C[:, 0], C[:, 1], linestyle="none", marker="D", markerfacecolor="none",
                                      markersize=1.5 * 11 * style.scale * PX_TO_PT / math.sqrt(2),
                                      markeredgecolor=color, markeredgewidth=width, zorder=5.2)[0]
                              for color, width in ((bg, kw["linewidth"] + 2.0 * style.scale * PX_TO_PT),
                                                   (kw["color"], kw["linewidth"]))]
    if request.section is not None:
        ends = np.asarray(request.section, float)
        art["section"] = _lines(ax, [ends], 5.5, **_line_kw(style, "section")) + [
            ax.plot(ends[:, 0], ends[:, 1], linestyle="none", marker="o",
                    markersize=SECTION_END * style.scale * PX_TO_PT, color=fg, zorder=5.5)[0]]
    if frame.probe is not None:
        _probe(d, style)
    if frame.fit.error:  # nothing fitted: the points stay drawn and the reason is written over them
        art["note"] = [ax.text(0.5, 0.5, frame.fit.error, transform=ax.transAxes, ha="center", va="center", wrap=True,
                               color=fg, zorder=7, bbox={"facecolor": bg, "edgecolor": fg, "alpha": 0.85})]


def _points(d: Drawing, snap: Snapshot, style: Style) -> None:
    ax, frame, art = d.ax, d.frame, d.artists
    request = frame.request
    if "points" not in request.layers or not len(request.X):
        return
    X, labels = request.X, request.labels
    size = style.point_size * PX_TO_PT
    edge = _line_kw(style, "point_edge")
    art["points"] = []
    for k, color in enumerate(request.colors):
        mask = labels == k
        if mask.any():
            marker, factor = _marker(k)
            art["points"].append(ax.scatter(X[mask, 0], X[mask, 1], s=(size * factor) ** 2, marker=marker, c=[color],
                                            edgecolors=[edge["color"]], linewidths=edge["linewidth"], zorder=4,
                                            label=snap.dataset.class_names[k]))
    held = request.held_out
    if held is not None and held.any():  # held-out points are drawn hollow
        art["held_out"] = [ax.scatter(X[held, 0], X[held, 1], s=(0.5 * size) ** 2, marker="o",
                                      c=[_rgb(style.background)], linewidths=0, zorder=4.1)]
    wrong = frame.wrong
    if wrong is not None and len(wrong) == len(X) and wrong.any():
        kw = _line_kw(style, "misclassified")
        art["misclassified"] = [ax.scatter(X[wrong, 0], X[wrong, 1], s=(0.4 * size) ** 2, marker="x", c=[kw["color"]],
                                           linewidths=kw["linewidth"], zorder=5.3)]  # over the means


def _probe(d: Drawing, style: Style) -> None:
    ax, probe = d.ax, d.frame.probe
    kw = _line_kw(style, "probe")
    bg, fg = _rgb(style.background), _rgb(style.foreground)
    x, y = probe.x
    ring = ax.plot([x], [y], linestyle="none", marker="o", markersize=14 * style.scale * PX_TO_PT,
                   markerfacecolor=bg, markeredgecolor=kw["color"], markeredgewidth=kw["linewidth"], zorder=6)[0]
    x0, x1, _, _ = d.frame.request.bounds
    right_half = x > (x0 + x1) / 2
    offset = 12 * style.scale * PX_TO_PT
    label = ax.annotate(probe.label, (x, y), xytext=(-offset if right_half else offset, offset),
                        textcoords="offset points", ha="right" if right_half else "left", va="bottom", color=fg,
                        zorder=6, annotation_clip=True,
                        bbox={"boxstyle": "square,pad=0.25", "facecolor": bg, "edgecolor": fg, "alpha": 0.82})
    d.artists["probe"] = [ring, label]


def _legend(d: Drawing, snap: Snapshot, style: Style) -> None:
    """The classes with their markers, then a row for every other line style and marker drawn (the
    window's and the exports' legend key), titled with the shown model's name."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    frame, data = d.frame, snap.dataset
    size = style.point_size * PX_TO_PT
    edge = _line_kw(style, "point_edge")
    handles = []
    for k, (name, color, n) in enumerate(zip(data.class_names, data.colors, data.counts())):
        if n:
            marker, factor = _marker(k)
            handles.append(Line2D([], [], linestyle="none", marker=marker, markersize=size * factor,
                                  markerfacecolor=color, markeredgecolor=edge["color"], label=name))
    fg = _rgb(style.foreground)
    for text, kind in legend_key(frame.request.specs, frame, frame.request):
        if kind in KEY_LINES:
            kw = _line_kw(style, KEY_LINES[kind])
            kw.pop("path_effects", None)
            handles.append(Line2D([], [], label=text, **kw))
        elif kind == "hatch":
            handles.append(Patch(facecolor="none", edgecolor=fg, hatch="///", label=text))
        elif kind == "ramp":
            handles.append(Patch(facecolor=_rgb(miscalibration_ramp(style.background)), edgecolor=fg, label=text))
        elif kind == "veil":
            handles.append(Patch(facecolor=_rgb(SHADE_RGB), alpha=SHADE_ALPHA / 255, edgecolor="none", label=text))
        elif kind == "reject":
            handles.append(Patch(facecolor=_rgb(style.reject), edgecolor="none", label=text))
        elif kind == "diamond":  # an rbf fit's centres
            handles.append(Line2D([], [], linestyle="none", marker="D", markersize=1.5 * size / math.sqrt(2),
                                  markerfacecolor="none", markeredgecolor=fg, label=text))
        elif kind == "hollow":
            handles.append(Line2D([], [], linestyle="none", marker="o", markersize=size, markerfacecolor="none",
                                  markeredgecolor=fg, label=text))
        elif kind == "ring":  # the SGD step's ring
            handles.append(Line2D([], [], linestyle="none", marker="o", markersize=SGD_KEY * size,
                                  markerfacecolor="none", markeredgecolor=fg,
                                  markeredgewidth=SGD_KEY_WIDTH * style.scale * PX_TO_PT,
                                  label=text))
        else:  # "cross" (misclassified) or "plus" (class means)
            handles.append(Line2D([], [], linestyle="none", marker="x" if kind == "cross" else "+",
                                  markersize=0.6 * size, color=fg, label=text))
    if handles:
        d.artists["legend"] = [d.ax.legend(handles=handles, title=shown_label(frame), loc="best",
                                           framealpha=0.85, alignment="left")]
