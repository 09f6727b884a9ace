"""Figures: the plot as PNG, SVG or PDF, drawn by the same canvas code in the GUI and the CLI.

An offscreen Canvas (bound to no document) is sized to the figure, given the pipeline's
frame of the session at that size, and rendered through QPainter: into a QImage (PNG), a
QSvgGenerator (SVG) or a QPdfWriter (PDF). Lines, ellipses and points stay
vectors in SVG and PDF; the posterior heatmap is embedded as an image.
"""

from __future__ import annotations

import html
import os

from PySide6.QtCore import QMarginsF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QImage, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication

from probviz import pipeline
from probviz.app.canvas import Canvas, Style
from probviz.data.session import Session
from probviz.layers import DEFAULT_LAYERS
from probviz.pipeline import session_request

FORMATS = (".png", ".svg", ".pdf")


def figure_format(path: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        raise ValueError(f"{os.path.basename(path)}: unknown figure type {ext or '(none)'}; "
                         "use .png, .svg or .pdf")
    return ext


def build_figure(session: Session, width: int, height: int, bounds=None, layers=None, title: str | None = None,
                 legend: bool = True, transparent: bool = False, style: Style | None = None,
                 spec=None) -> Canvas:
    """An offscreen canvas showing ``session`` at the figure's size, fitted and drawn; the session
    and any window stay as they are."""
    data = session.dataset
    canvas = Canvas()
    canvas.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    canvas.apply_style(style or Style())
    canvas.resize(width, height)
    canvas.show()
    canvas.set_axis_names(data.axis_names)
    shown = frozenset(session.layers if layers is None else layers) or DEFAULT_LAYERS
    canvas.set_points(data.X, data.labels, data.colors, shown)
    if bounds is None:
        canvas.fit_view(session.view)
    else:
        x0, x1, y0, y1 = bounds
        canvas.vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)
    QApplication.processEvents()
    canvas.update_points()
    s = canvas.style
    request = session_request(session, canvas.view_bounds(), (min(width, 600), min(height, 600)), shown,
                              background=s.background, reject=s.reject, spec=spec)
    frame = pipeline.compute(request)
    canvas.show_frame(frame)
    if title:
        size = round(1.4 * canvas.style.font_size)
        canvas.setTitle(html.escape(title), size=f"{size}pt", color=canvas.style.foreground)
        height = 2.4 * size  # pyqtgraph fixes the title row at 30 px: too small past 12 pt
        canvas.plotItem.titleLabel.setMaximumHeight(height)
        canvas.plotItem.layout.setRowFixedHeight(0, height)
    if legend:
        counts = data.counts()
        canvas.set_legend(True, request.specs[0].label,
                          [(n, c) for n, c, k in zip(data.class_names, data.colors, counts) if k > 0])
    if transparent:
        canvas.setBackground(None)
    QApplication.processEvents()
    return canvas


def render(canvas: Canvas, path: str, dpi: int | None = None, transparent: bool = False) -> None:
    """Write the canvas to ``path``; its extension picks PNG, SVG or PDF."""
    ext = figure_format(path)
    w, h = canvas.width(), canvas.height()
    if ext == ".png":
        img = QImage(w, h, QImage.Format.Format_ARGB32)
        img.fill(Qt.GlobalColor.transparent if transparent else Qt.GlobalColor.white)
        if dpi:
            img.setDotsPerMeterX(round(dpi / 0.0254))
            img.setDotsPerMeterY(round(dpi / 0.0254))
        _paint(canvas, img)
        if not img.save(path, "PNG"):
            raise OSError(f"{os.path.basename(path)}: cannot write the file")
    elif ext == ".svg":
        gen = QSvgGenerator()
        gen.setFileName(path)
        gen.setSize(QSize(w, h))
        gen.setViewBox(QRectF(0, 0, w, h))
        gen.setTitle("probviz figure")
        _paint(canvas, gen)
    else:
        pdf = QPdfWriter(path)
        pdf.setResolution(72)  # one pixel of the figure is one point of the page
        pdf.setPageSize(QPageSize(QSizeF(w, h), QPageSize.Unit.Point))
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0))
        pdf.setTitle("probviz figure")
        _paint(canvas, pdf)
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        raise OSError(f"{os.path.basename(path)}: cannot write the file")


def _paint(canvas: Canvas, device) -> None:
    # pyqtgraph's export mode makes scatter points paths instead of cached pixmaps,
    # so they stay vectors in SVG and PDF
    items = [i for i in canvas.scene().items() if hasattr(i, "setExportMode")]
    for item in items:
        item.setExportMode(True, {"antialias": True, "background": None, "painter": None})
    painter = QPainter(device)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        canvas.render(painter)
    finally:
        painter.end()
        for item in items:
            item.setExportMode(False)


def export_figure(session: Session, path: str, width: int = 1200, height: int = 900, bounds=None,
                  layers=None, title: str | None = None, legend: bool = True, transparent: bool = False,
                  dpi: int | None = None, style: Style | None = None, spec=None):
    """Draw ``session`` into a figure file; returns the pipeline Frame it shows. ``bounds`` default
    to the session's view, else the data's extent."""
    figure_format(path)
    if width < 50 or height < 50 or width > 10000 or height > 10000:
        raise ValueError(f"figure size {width}x{height} is out of range (50 to 10000 pixels)")
    canvas = build_figure(session, width, height, bounds if bounds is not None else session.view, layers,
                          title, legend, transparent, style, spec)
    try:
        render(canvas, path, dpi, transparent)
        return canvas.frame
    finally:
        canvas.close()
        canvas.deleteLater()
