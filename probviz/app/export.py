"""Figures: a session's plot as PNG, SVG or PDF, the same in the GUI and the CLI.

The session goes through the pipeline (the same fit the window shows); the frame is drawn by
:func:`probviz.app.figure.paint_figure` in the figure's own pixel coordinates onto a QImage (PNG), a
QSvgGenerator (SVG) or a QPdfWriter (PDF). The resolution (dpi) only says how large a pixel is on
paper: the PNG records it, the SVG and PDF take their physical size from it; the picture itself is the
same. Files are written atomically: a temporary file beside the target, then a rename.
"""

from __future__ import annotations

import re

import os
from dataclasses import replace

import numpy as np
from PySide6.QtCore import QMarginsF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgGenerator

from probviz import pipeline
from probviz.app.figure import paint_curves, paint_figure
from probviz.colors import class_marker
from probviz.data.atomic import atomic_write
from probviz.data.outputs import check_target  # pipes and devices are written in place
from probviz.data.session import Session
from probviz.figure_layout import layout as figure_layout
from probviz.figure_layout import drawn_step, legend_key, shown_label, view_of
from probviz.snapshot import Snapshot, frame_request, from_session
from probviz.style import INK, Style

FORMATS = (".png", ".svg", ".pdf")
SCREEN_DPI = 96


def figure_format(path: str) -> str:
    """The figure's type from its name's extension (a ValueError naming the file when there is none to draw)."""
    ext = os.path.splitext(path)[1].lower()
    if os.path.isdir(path):  # "-o figures" or "-o ." : a folder, whatever its name ends with
        raise ValueError(f"{os.path.basename(os.path.abspath(path)) or path}: is a folder; name a .png, .svg or .pdf "
                         "file in it")
    if ext not in FORMATS:
        raise ValueError(f"{os.path.basename(os.path.normpath(path)) or path}: unknown figure type {ext or '(none)'}; "
                         "use .png, .svg or .pdf")
    return ext


def export_figure(source: Snapshot | Session, path: str, width: int = 1200, height: int = 900, bounds=None,
                  layers=None, title: str | None = None, legend: bool = True, transparent: bool = False,
                  dpi: int | None = None, style: Style | None = None, spec=None, fits=None, model_label=None,
                  compare=None, section=None, training=None):
    """Draw a snapshot (or a session, read as one) into a figure file; returns the pipeline Frame it
    shows. Its compared model, split, section line and truth are drawn as on screen. ``bounds``
    default to the snapshot's view, else the data's extent; ``spec`` overrides its model, ``compare``
    (a ModelSpec) its compared model and ``section`` its line; ``fits`` (a trainer's step, see
    :func:`probviz.stepping.training_fit`) replace the fit, ``training`` (its TrainingView) says which point an
    SGD step used (ringed), ``model_label`` the legend's title."""
    ext = _check(path, width, height, dpi)
    frame, draw = figure_painter(source, width, height, bounds, layers, title, legend, transparent, style, spec,
                                 fits, model_label, compare, section, training)

    def paint(device):
        painter = QPainter(device)
        try:
            if ext == ".pdf":  # Qt rounds the page to whole points: fill it exactly (a scale within 0.3%)
                painter.scale(device.width() / width, device.height() / height)
            draw(painter)
        finally:
            painter.end()

    atomic_write(path, lambda tmp: _render(ext, tmp, width, height, dpi or SCREEN_DPI, transparent, paint), ext)
    return frame


def figure_painter(source: Snapshot | Session, width: int = 1200, height: int = 900, bounds=None, layers=None,
                   title: str | None = None, legend: bool = True, transparent: bool = False,
                   style: Style | None = None, spec=None, fits=None, model_label=None, compare=None, section=None,
                   training=None):
    """(the Frame, a function of a QPainter that draws the figure in its own pixels, 0..width by
    0..height): what :func:`export_figure` writes into a file, for a page that holds more (a lesson
    deck's handout). The arguments are :func:`export_figure`'s."""
    style = style or Style()
    snap = source if isinstance(source, Snapshot) else from_session(source)
    if layers is not None:
        snap = replace(snap, layers=frozenset(layers))
    if section is not None:
        snap = replace(snap, section=section)
    data = snap.dataset
    bounds = bounds if bounds is not None else (snap.view or view_of(data.X))
    lay = figure_layout(width, height, bounds, style.font_px, bool(title))
    shape = (min(round(lay.plot[2]), 600), min(round(lay.plot[3]), 600))
    specs = snap.specs
    if spec is not None:
        specs = (spec,) + specs[1:]
    if compare is not None:
        specs = specs[:1] + (compare,)
    specs = specs[:1] + tuple(s for s in specs[1:] if s != specs[0])
    request = frame_request(snap, bounds, shape, style.background, style.reject, specs=specs)
    if fits is not None and len(fits) < len(specs):  # the compared model is fitted here
        fits = list(fits) + pipeline.fit_all(request)[len(fits):]
    frame = pipeline.compute(request) if fits is None else pipeline.build_frame(request, fits)
    if fits is not None and training is not None:  # the step's fits came without their run: the ring comes with it
        frame.training = training
    entries = [(n, c, class_marker(i))
               for i, (n, c, k) in enumerate(zip(data.class_names, data.colors, data.counts())) if k > 0]
    legend_spec = (model_label or shown_label(frame), entries, legend_key(specs, frame, request)) if legend else None

    def draw(painter):
        paint_figure(painter, lay, frame, (data.X, data.labels, data.colors), style, data.axis_names,
                     title or "", legend_spec, transparent)

    return frame, draw


def shown_step(first):
    """The legend's title when a session's own training run shows a step ("Logistic regression, Newton /
    IRLS, step 2"), from the frame ``first`` that fitted (or trained) it; None otherwise. A figure drawn
    from ``first``'s fits is built without the run, so its legend would name only the model."""
    return shown_label(first) if drawn_step(first) is not None else None


def _check(path, width, height, dpi) -> str:
    ext = figure_format(path)
    if width < 50 or height < 50 or width > 10000 or height > 10000:
        raise ValueError(f"figure size {width}x{height} is out of range (50 to 10000 pixels)")
    if dpi is not None and not 10 <= dpi <= 2400:
        raise ValueError(f"dpi {dpi} is out of range (10 to 2400)")
    check_target(path)
    return ext


def curve_bounds(curves, x_from_zero: bool = True) -> tuple[float, float, float, float]:
    """A view holding every curve: x from 0 (or its least value) to its greatest, y with 5% room."""
    xs = np.concatenate([np.asarray(c[1], float) for c in curves] or [np.zeros(1)])
    ys = np.concatenate([np.asarray(c[2], float) for c in curves] or [np.zeros(1)])
    ys = ys[np.isfinite(ys)] if np.any(np.isfinite(ys)) else np.zeros(1)
    x0 = 0.0 if x_from_zero else float(xs.min())
    x1 = max(float(xs.max()), x0 + 1.0)
    y0, y1 = float(ys.min()), float(ys.max())
    pad = 0.05 * (y1 - y0) if y1 > y0 else max(abs(y1), 1.0) * 0.5
    return (x0, x1, min(y0 - pad, 0.0) if y0 >= 0 else y0 - pad, y1 + pad)


def export_curves(path: str, curves, axis_names=("step", "E(w)"), width: int = 1200, height: int = 900,
                  title: str | None = None, dpi: int | None = None, style: Style | None = None,
                  transparent: bool = False, bounds=None, bands=(), x_labels=None, fills=(), x_step=0.0) -> None:
    """Line plots (label, xs, ys, colour, dashed) as a figure file, like :func:`export_figure`;
    ``x_labels`` ((value, text), ...) replaces the x axis's ticks, ``x_step`` is their least spacing (1 for
    steps); ``bands`` and ``fills`` as :func:`probviz.app.figure.paint_curves` takes them."""
    ext = _check(path, width, height, dpi)
    style = style or Style()
    bounds = bounds or curve_bounds(curves)
    lay = figure_layout(width, height, bounds, style.font_px, bool(title))
    if x_labels is not None:
        lay = replace(lay, x_labels=tuple(x_labels))
    if x_step:
        lay = replace(lay, x_step=float(x_step))

    def paint(device):
        painter = QPainter(device)
        try:
            if ext == ".pdf":
                painter.scale(device.width() / width, device.height() / height)
            paint_curves(painter, lay, curves, style, axis_names, title or "", transparent, bands, fills)
        finally:
            painter.end()

    atomic_write(path, lambda tmp: _render(ext, tmp, width, height, dpi or SCREEN_DPI, transparent, paint), ext)


def training_curves(runs, optimum: bool = True):
    """The curves of one or more training runs (:class:`probviz.stepping.TrainingView`): (curves, axis
    names). E(w) for each run (for the perceptron also its count of misclassified points), the optimum
    E(w*) dashed."""
    from probviz.colors import OKABE_ITO
    from probviz.models.training import OPTIMIZER_LABELS

    curves = []
    for i, run in enumerate(runs):
        color = OKABE_ITO[i % len(OKABE_ITO)]
        curves.append((f"E(w), {OPTIMIZER_LABELS[run.optimizer]}", run.steps, run.errors, color, False))
        if run.wrongs is not None:
            curves.append(("misclassified points", run.steps, run.wrongs, OKABE_ITO[(i + 3) % 7], True))
    if optimum and runs and runs[0].optimum is not None:
        best = runs[0].optimum
        end = max(max(c[1]) for c in curves)
        curves.append((f"optimum E(w*) = {best:.4g}", [0, end], [best, best], "#555555", True))
    y_name = "E_P(w)" if runs and runs[0].model == "perceptron" else "E(w)"
    return curves, ("step", y_name)


def _render(ext, path, width, height, dpi, transparent, paint) -> None:
    if ext == ".png":
        img = QImage(width, height, QImage.Format.Format_ARGB32)
        img.fill(Qt.GlobalColor.transparent if transparent else Qt.GlobalColor.white)
        paint(img)
        img.setDotsPerMeterX(round(dpi / 0.0254))  # metadata only: the pixels are drawn already
        img.setDotsPerMeterY(round(dpi / 0.0254))
        if not img.save(path, "PNG"):
            raise OSError(f"{path}: cannot write the file")
    elif ext == ".svg":
        gen = QSvgGenerator(QSvgGenerator.SvgVersion.Svg11)  # 1.1: clip paths for the plot area
        gen.setFileName(path)
        gen.setSize(QSize(width, height))
        gen.setViewBox(QRectF(0, 0, width, height))
        gen.setResolution(dpi)  # width and height in mm: width / dpi inches
        gen.setTitle("probviz figure")
        paint(gen)
        _generic_fonts(path)
    else:
        pdf = QPdfWriter(path)
        pdf.setResolution(dpi)
        pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(width * 72 / dpi, height * 72 / dpi), QPageSize.Unit.Point),
                                      QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
        pdf.setTitle("probviz figure")
        pdf.setCreator("probviz")
        paint(pdf)


def _generic_fonts(path: str) -> None:
    """Qt writes the font's family as Qt names it ("Sans Serif", no CSS family), so a renderer without
    it falls back at random. Name the family the figure was measured with, then others of its width,
    then CSS's generic sans-serif."""
    from PySide6.QtGui import QFont, QFontInfo

    used = QFontInfo(QFont()).family().replace('"', "")  # the default font, as the figure uses it
    families = ", ".join(dict.fromkeys([used, "DejaVu Sans", "Verdana", "Arial", "Helvetica", "sans-serif"]))
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r'font-family="[^"]*"', f'font-family="{families}"', text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def learning_curves(result: dict):
    """(curves, axis names, bounds, x tick labels) of a :func:`probviz.models.learning.learning_curve`
    result: each model's mean true error against log2 of the size, the 10th and 90th percentiles over
    the seeds dashed (the error never drops below the Bayes error, as mean minus a deviation could),
    the Bayes error dashed grey; the ticks read as sizes (4, 8, 16, ...)."""
    from probviz.colors import OKABE_ITO
    from probviz.models.learning import shown_labels

    sizes = np.log2(np.asarray(result["sizes"], float))
    curves = []
    for i, (label, r) in enumerate(shown_labels(result).items()):
        color = OKABE_ITO[i % len(OKABE_ITO)]
        E = np.asarray(r["errors"], float)
        curves.append((f"{label}: mean true error", sizes, np.asarray(r["mean"], float), color, False))
        with np.errstate(invalid="ignore"):
            lo, hi = np.nanpercentile(E, 10, axis=1), np.nanpercentile(E, 90, axis=1)
        curves.append(("" if i else "10% and 90% of the seeds", sizes, hi, color, True))
        curves.append(("", sizes, lo, color, True))
    b = result["bayes_error"]
    curves.append((f"Bayes error {b:.3g}", [sizes[0], sizes[-1]], [b, b], "#555555", True))
    x0, x1, y0, y1 = curve_bounds(curves, x_from_zero=False)
    labels = [(float(v), f"{2 ** v:g}") for v in range(int(np.ceil(sizes.min() - 1e-9)), int(np.floor(sizes.max() + 1e-9)) + 1)]
    if not labels or sizes.max() - labels[-1][0] >= 0.5:  # the largest size run, when no power of two is near it
        labels.append((float(sizes.max()), f"{max(result['sizes']):g}"))
    return curves, ("points per class (log scale)", "error rate under the truth"), (x0, x1, min(y0, 0.0), y1), labels


def section_curves(section, names, colors, theta: float = 0.0):
    """(curves, axis names, bands, fills) of a :class:`probviz.scene.Section`: p(C_k|x) solid, the
    predictive p(C_k|x,D) dash-dotted with its central 68% shaded, p(x|C_k)p(C_k) scaled to a largest
    value of 1 dashed, the other link's approximation dotted, the boundaries crossed as vertical lines,
    theta's reject band shaded (the key: :func:`probviz.report.section_key`)."""
    curves = []
    t = section.t
    fills = []
    if section.band is not None:
        lo, hi = section.band[:, 0], section.band[:, 1]
        fills = [(t, 1.0 - hi, 1.0 - lo, colors[0]), (t, lo, hi, colors[1])]
    if section.posterior is not None:
        for k, (n, c) in enumerate(zip(names, colors)):
            curves.append((f"p({n}|x)", t, section.posterior[:, k], c, False))
    if section.predictive is not None:
        for k, (n, c) in enumerate(zip(names, colors)):
            curves.append((f"p({n}|x,D)", t, section.predictive[:, k], c, "dashdot"))
    if section.link is not None:
        curves.append((f"{section.link[0]}, λ² = π/8", t, section.link[1], INK, "dot"))
    if section.joint is not None:
        top = float(section.joint.max()) or 1.0
        for k, (n, c) in enumerate(zip(names, colors)):
            curves.append((f"p(x|{n})p({n}), scaled", t, section.joint[:, k] / top, c, True))
    if section.true_posterior is not None:
        for k, (n, c) in enumerate(zip(names, colors)):
            curves.append(("true p(C_k|x)" if k == 0 else "", t, section.true_posterior[:, k], "#555555", True))
    for x in section.changes:
        curves.append(("", [x, x], [0.0, 1.0], "#555555", False))
    if theta > 0 and section.posterior is not None:
        curves.append((f"θ = {theta:g}", [t[0], t[-1]], [theta, theta], "#555555", True))
    bands = [(t0, t1, (170, 170, 170)) for t0, t1 in section.reject]
    return curves, ("distance along the line", "p(C_k|x)"), bands, fills
