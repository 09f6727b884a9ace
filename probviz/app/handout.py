"""A lesson deck's handout: one PDF page per slide, its title above its figure and its notes below.

Each figure is drawn by :func:`probviz.app.export.figure_painter`, the painting ``probviz export``
writes into a file, placed on the page at whole pixels (so a page's plot is the single figure's, pixel
for pixel). The title is set in the figure title's font, the notes and the footer in the figure's text
font (the style's sizes), wrapped to the page. Every band is a whole number of points high, so Qt's
page size is exactly the page drawn. The file is written atomically.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QMarginsF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QColor, QFont, QFontMetricsF, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextLayout, QTextOption,
)

from probviz.data.atomic import atomic_write
from probviz.style import Style


def _font(px: float, bold: bool = False) -> QFont:
    """The figure's fonts (:mod:`probviz.app.figure`): the default family at a size in pixels."""
    f = QFont()
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    return f


def _whole_points(px: float, dpi: int) -> int:
    """``px`` rounded up to a height whose size in points (px * 72 / dpi) is a whole number."""
    step = dpi // math.gcd(dpi, 72)  # the least whole number of pixels that is a whole number of points
    return int(math.ceil(px / step)) * step


def _wrapped(text: str, font: QFont, width: float) -> tuple[list, float]:
    """``text`` laid out in lines at most ``width`` wide (breaking words only where one is wider than a
    line), a paragraph per line of the text, tabs expanded: (the layouts, their height)."""
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    option.setTabStopDistance(4 * QFontMetricsF(font).horizontalAdvance("    "))
    layouts, y = [], 0.0
    for paragraph in text.split("\n"):
        layout = QTextLayout(paragraph, font)
        layout.setTextOption(option)
        layout.beginLayout()
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            line.setPosition(QPointF(0, y))
            y += line.height()
        layout.endLayout()
        layouts.append(layout)
    return layouts, y


def page_bands(width: int, title: str, notes: str, footer: str, style: Style, dpi: int):
    """The heights of a page's title band and notes band (pixels) and the notes' layout."""
    px = style.font_px
    head = _whole_points(2.6 * 1.4 * px, dpi)
    margin = round(1.5 * px)
    layouts, text_h = _wrapped(notes, _font(px), max(width - 2 * margin, 10))
    foot = _font(0.85 * px)
    tail = _whole_points((0.8 * px if notes else 0) + text_h + 1.2 * px + QFontMetricsF(foot).height() + margin, dpi)
    return head, tail, margin, layouts


def write_handout(path: str, pages, width: int, height: int, dpi: int = 96, style: Style | None = None,
                  transparent: bool = False, title: str = "") -> None:
    """Write ``pages``, each (title, notes, footer, draw), ``draw`` painting a width x height figure in
    its own pixels (:func:`probviz.app.export.figure_painter`), into the PDF ``path``: one page each;
    ``title`` (the deck's) is the document's title, as a PDF reader names the file."""
    document_title = title or "probviz handout"
    style = style or Style()
    fg, bg = QColor(*style.foreground), QColor(*style.background)
    title_font, notes_font, foot_font = _font(1.4 * style.font_px), _font(style.font_px), _font(0.85 * style.font_px)
    laid = [(title, notes, footer, draw, page_bands(width, title, notes, footer, style, dpi))
            for title, notes, footer, draw in pages]
    plot_h = _whole_points(height, dpi)

    def page_layout(total_h: int) -> QPageLayout:
        size = QPageSize(QSizeF(width * 72 / dpi, total_h * 72 / dpi), QPageSize.Unit.Point)
        return QPageLayout(size, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0))

    def write(tmp: str) -> None:
        pdf = QPdfWriter(tmp)
        pdf.setResolution(dpi)
        pdf.setTitle(document_title)
        pdf.setCreator("probviz")
        painter = None
        try:
            for i, (title, notes, footer, draw, (head, tail, margin, layouts)) in enumerate(laid):
                total = head + plot_h + tail
                pdf.setPageLayout(page_layout(total))
                if painter is None:
                    painter = QPainter(pdf)
                else:
                    pdf.newPage()
                painter.resetTransform()
                painter.scale(pdf.width() / width, pdf.height() / total)
                if not transparent:
                    painter.fillRect(QRectF(0, 0, width, total), bg)
                painter.setPen(fg)
                painter.setFont(title_font)
                shown = QFontMetricsF(title_font).elidedText(title, Qt.TextElideMode.ElideRight, width - 2 * margin)
                painter.drawText(QRectF(margin, 0, width - 2 * margin, head), Qt.AlignmentFlag.AlignCenter, shown)
                painter.save()
                painter.translate(0, head)
                painter.setClipRect(QRectF(0, 0, width, height))
                draw(painter)
                painter.restore()
                painter.setPen(fg)
                painter.setFont(notes_font)
                top = head + plot_h + 0.8 * style.font_px
                for layout in layouts:
                    layout.draw(painter, QPointF(margin, top))
                painter.setFont(foot_font)
                painter.setPen(QColor(fg.red(), fg.green(), fg.blue(), 160))
                painter.drawText(QRectF(margin, head + plot_h, width - 2 * margin, tail - margin * 0.5),
                                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom, footer)
        finally:
            if painter is not None:
                painter.end()

    atomic_write(path, write, ".pdf")
