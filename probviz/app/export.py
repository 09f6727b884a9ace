"""Figures: a session's plot as PNG, SVG or PDF, the same in the GUI and the CLI.

The session goes through the pipeline (the same fit the window shows); the frame is drawn by
:func:`probviz.app.figure.paint_figure` in the figure's own pixel coordinates onto a QImage (PNG), a
QSvgGenerator (SVG) or a QPdfWriter (PDF). The resolution (dpi) only says how large a pixel is on
paper: the PNG records it, the SVG and PDF take their physical size from it; the picture itself is the
same. Files are written atomically: a temporary file beside the target, then a rename.
"""

from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QMarginsF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgGenerator

from probviz import pipeline
from probviz.app.figure import paint_curves, paint_figure
from probviz.data.atomic import atomic_write
from probviz.data.session import Session
from probviz.figure_layout import layout as figure_layout
from probviz.figure_layout import view_of
from probviz.layers import DEFAULT_LAYERS
from probviz.pipeline import session_request
from probviz.style import Style

FORMATS = (".png", ".svg", ".pdf")
SCREEN_DPI = 96


def figure_format(path: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        raise ValueError(f"{os.path.basename(path)}: unknown figure type {ext or '(none)'}; "
                         "use .png, .svg or .pdf")
    return ext


def check_target(path: str) -> None:
    """A one-line reason why ``path`` cannot be written, before any work is done."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise OSError(f"{path}: directory does not exist")
    if not os.access(folder, os.W_OK):
        raise OSError(f"{path}: directory is not writable")
    if os.path.isdir(path):
        raise OSError(f"{path}: is a directory")


def export_figure(session: Session, path: str, width: int = 1200, height: int = 900, bounds=None,
                  layers=None, title: str | None = None, legend: bool = True, transparent: bool = False,
                  dpi: int | None = None, style: Style | None = None, spec=None, fits=None, model_label=None):
    """Draw ``session`` into a figure file; returns the pipeline Frame it shows. ``bounds`` default to
    the session's view, else the data's extent; ``spec`` overrides the session's model; ``fits``
    (a trainer's step, see :func:`probviz.pipeline.trainer_fit`) replace the fit, ``model_label``
    the legend's title."""
    ext = _check(path, width, height, dpi)
    style = style or Style()
    data = session.dataset
    bounds = bounds if bounds is not None else (session.view or view_of(data.X))
    shown = frozenset(session.layers if layers is None else layers) or DEFAULT_LAYERS
    lay = figure_layout(width, height, bounds, style.font_px, bool(title))
    shape = (min(round(lay.plot[2]), 600), min(round(lay.plot[3]), 600))
    request = session_request(session, bounds, shape, shown, background=style.background,
                              reject=style.reject, spec=spec)
    frame = pipeline.compute(request) if fits is None else pipeline.build_frame(request, fits)
    entries = [(n, c) for n, c, k in zip(data.class_names, data.colors, data.counts()) if k > 0]
    legend_spec = (model_label or request.specs[0].label, entries) if legend else None

    def paint(device):
        painter = QPainter(device)
        try:
            if ext == ".pdf":  # Qt rounds the page to whole points: fill it exactly (a scale within 0.3%)
                painter.scale(device.width() / width, device.height() / height)
            paint_figure(painter, lay, frame, (data.X, data.labels, data.colors), style, data.axis_names,
                         title or "", legend_spec, transparent)
        finally:
            painter.end()

    atomic_write(path, lambda tmp: _render(ext, tmp, width, height, dpi or SCREEN_DPI, transparent, paint), ext)
    return frame


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
                  transparent: bool = False, bounds=None) -> None:
    """Line plots (label, xs, ys, colour, dashed) as a figure file, like :func:`export_figure`."""
    ext = _check(path, width, height, dpi)
    style = style or Style()
    bounds = bounds or curve_bounds(curves)
    lay = figure_layout(width, height, bounds, style.font_px, bool(title))

    def paint(device):
        painter = QPainter(device)
        try:
            if ext == ".pdf":
                painter.scale(device.width() / width, device.height() / height)
            paint_curves(painter, lay, curves, style, axis_names, title or "", transparent)
        finally:
            painter.end()

    atomic_write(path, lambda tmp: _render(ext, tmp, width, height, dpi or SCREEN_DPI, transparent, paint), ext)


def training_curves(trainers, optimum: bool = True):
    """The curves of one or more trainers' runs: (curves, axis names). E(w) for each run (for the
    perceptron also its count of misclassified points), the optimum E(w*) dashed."""
    from probviz.colors import OKABE_ITO
    from probviz.models.training import OPTIMIZER_LABELS

    curves = []
    for i, t in enumerate(trainers):
        steps = [s.index for s in t.history]
        color = OKABE_ITO[i % len(OKABE_ITO)]
        curves.append((f"E(w), {OPTIMIZER_LABELS[t.optimizer]}", steps, [s.error for s in t.history], color, False))
        if t.name == "perceptron":
            curves.append(("misclassified points", steps, [s.wrong for s in t.history], OKABE_ITO[(i + 3) % 7], True))
    if optimum and trainers:
        best, _ = trainers[0].optimum()
        if best is not None:
            end = max(max(c[1]) for c in curves)
            curves.append((f"optimum E(w*) = {best:.4g}", [0, end], [best, best], "#555555", True))
    y_name = "E_P(w)" if trainers and trainers[0].name == "perceptron" else "E(w)"
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
    else:
        pdf = QPdfWriter(path)
        pdf.setResolution(dpi)
        pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(width * 72 / dpi, height * 72 / dpi), QPageSize.Unit.Point),
                                      QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
        pdf.setTitle("probviz figure")
        pdf.setCreator("probviz")
        paint(pdf)
