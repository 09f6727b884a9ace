"""Figures: a session's plot as PNG, SVG or PDF, the same in the GUI and the CLI.

The session goes through the pipeline (the same fit the window shows); the frame is drawn by
:func:`probviz.app.figure.paint_figure` in the figure's own pixel coordinates onto a QImage (PNG), a
QSvgGenerator (SVG) or a QPdfWriter (PDF). The resolution (dpi) only says how large a pixel is on
paper: the PNG records it, the SVG and PDF take their physical size from it; the picture itself is the
same. Files are written atomically: a temporary file beside the target, then a rename.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QMarginsF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgGenerator

from probviz import pipeline
from probviz.app.figure import paint_figure
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
                  dpi: int | None = None, style: Style | None = None, spec=None):
    """Draw ``session`` into a figure file; returns the pipeline Frame it shows. ``bounds`` default to
    the session's view, else the data's extent; ``spec`` overrides the session's model."""
    ext = figure_format(path)
    if width < 50 or height < 50 or width > 10000 or height > 10000:
        raise ValueError(f"figure size {width}x{height} is out of range (50 to 10000 pixels)")
    if dpi is not None and not 10 <= dpi <= 2400:
        raise ValueError(f"dpi {dpi} is out of range (10 to 2400)")
    check_target(path)
    style = style or Style()
    data = session.dataset
    bounds = bounds if bounds is not None else (session.view or view_of(data.X))
    shown = frozenset(session.layers if layers is None else layers) or DEFAULT_LAYERS
    lay = figure_layout(width, height, bounds, style.font_px, bool(title))
    shape = (min(round(lay.plot[2]), 600), min(round(lay.plot[3]), 600))
    request = session_request(session, bounds, shape, shown, background=style.background,
                              reject=style.reject, spec=spec)
    frame = pipeline.compute(request)
    entries = [(n, c) for n, c, k in zip(data.class_names, data.colors, data.counts()) if k > 0]
    legend_spec = (request.specs[0].label, entries) if legend else None

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
