"""Draw a pipeline frame as a figure, with QPainter, in the figure's own pixel coordinates.

Every shape is drawn at its final position with a plain (non-cosmetic) pen and no scaled
transform, and fonts are sized in pixels: the same calls give the same picture on a QImage
(PNG), a QPdfWriter and a QSvgGenerator, whatever their resolution. SVG keeps plain paths,
circles and text, clipped to the plot area, which any SVG renderer draws the same way.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush, QColor, QFont, QFontMetricsF, QImage, QLinearGradient, QPainter, QPainterPath, QPen, QPolygonF, QTransform,
)

from probviz.app.pens import line_pen, outline_pen
from probviz.colors import class_marker, marker_outline
from probviz.figure_layout import Layout, clip_polyline, length_inside, marks_hidden, stripes, tick_labels
from probviz.scene import SHADE_ALPHA, SHADE_RGB, miscalibration_ramp
from probviz.style import HATCH_PERIOD, INK, SECTION_END, SGD_KEY, SGD_KEY_WIDTH, SGD_RING, SGD_RING_WIDTH, Style


def _hatch(p: QPainter, rings_px, style: Style) -> None:
    """Hatching of closed rings (in the figure's pixels) as the canvas draws it, made of lines: vector stripes
    in PDF and SVG (Qt's SVG writer drops clip paths, so the stripes are cut to the rings beforehand)."""
    segments = stripes(rings_px, HATCH_PERIOD * style.scale)
    if not len(segments):
        return
    pen = line_pen(style, "hatch", cosmetic=False)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)  # a stripe ends on the region's edge
    p.setPen(pen)
    p.drawLines([QLineF(*a, *b) for a, b in segments.tolist()])


def rings_path(rings) -> QPainterPath:
    """Closed rings (M, 2) as one path, filled even-odd so that holes stay holes. Made by pyqtgraph's
    arrayToQPath from the vertices at once (each ring closed by its first vertex again): a QPointF a vertex
    cost 2 ms for the 700 vertices of one-vs-rest's undecided regions, every frame of a drag."""
    rings = [np.asarray(ring, dtype=float) for ring in rings if len(ring)]
    if not rings:
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.OddEvenFill)
        return path
    closed = np.vstack([np.vstack([ring, ring[:1]]) for ring in rings])
    connect = np.ones(len(closed), dtype=bool)
    connect[np.cumsum([len(ring) + 1 for ring in rings]) - 1] = False  # no line from a ring to the next
    path = pg.functions.arrayToQPath(closed[:, 0], closed[:, 1], connect=connect)
    path.setFillRule(Qt.FillRule.OddEvenFill)
    return path


@functools.lru_cache(maxsize=None)
def marker_path(name: str) -> QPainterPath:
    """A class's marker (:data:`probviz.colors.MARKERS`) one unit across, centred on 0, as a path:
    the canvas hands it to pyqtgraph as a symbol, figures scale and place it. One object per shape
    (pyqtgraph caches a symbol's rendering by it); never modify it."""
    path = QPainterPath()
    outline = marker_outline(name)
    if outline is None:
        path.addEllipse(QPointF(0, 0), 0.5, 0.5)
    else:
        path.addPolygon(QPolygonF([QPointF(x, y) for x, y in outline]))
        path.closeSubpath()
    return path


def _draw_markers(p: QPainter, name: str, centres, size: float) -> None:
    """Filled markers of one shape, ``size`` pixels across, at pixel ``centres``: circles stay SVG
    circles, the other shapes closed paths."""
    r = size / 2
    if marker_outline(name) is None:
        for x, y in centres:
            p.drawEllipse(QPointF(x, y), r, r)
        return
    unit = marker_path(name)
    for x, y in centres:
        p.drawPath(QTransform(size, 0, 0, size, x, y).map(unit))


def _color(c, alpha: int = 255) -> QColor:
    q = QColor(c) if isinstance(c, str) else QColor(*c[:3])
    q.setAlpha(alpha)
    return q


def _pen(color, width: float, style=Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(_color(color), width, style, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    pen.setCosmetic(False)  # a real width, the same in every renderer
    return pen


def _font(px: float, bold: bool = False) -> QFont:
    f = QFont()
    f.setPixelSize(max(1, round(px)))
    f.setBold(bold)
    return f


def _image(rgba: np.ndarray) -> QImage:
    """An RGBA array whose row 0 is the bottom of the view, as a QImage whose row 0 is the top."""
    data = np.ascontiguousarray(rgba[::-1])
    img = QImage(data.data, data.shape[1], data.shape[0], 4 * data.shape[1], QImage.Format.Format_RGBA8888)
    return img.copy()  # own the pixels: ``data`` goes away


def _path(layout: Layout, xy: np.ndarray) -> QPainterPath:
    """A polyline in data coordinates (NaN rows between pieces) as a path in pixels, cut at the plot
    area: SVG viewers that ignore clip paths (Qt's own among them) draw the same picture."""
    path = QPainterPath()
    for piece in clip_polyline(layout.to_px(xy), layout.plot):
        path.moveTo(*piece[0])
        for x, y in piece[1:]:
            path.lineTo(x, y)
    return path


def _inside(layout: Layout, px: np.ndarray, margin: float) -> np.ndarray:
    """Which marks (pixel centres) of radius ``margin`` show at least partly in the plot area."""
    left, top, w, h = layout.plot
    return ((px[:, 0] > left - margin) & (px[:, 0] < left + w + margin)
            & (px[:, 1] > top - margin) & (px[:, 1] < top + h + margin))


def paint_figure(p: QPainter, layout: Layout, frame, points, style: Style, axis_names=("x1", "x2"),
                 title: str = "", legend=None, transparent: bool = False) -> None:
    """Draw ``frame`` (a pipeline Frame, or None) and ``points`` = (X, labels, colours) on ``p``.

    ``legend`` is (model label, [(class name, colour, marker), ...]) or None.
    """
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    fg, bg = style.foreground, style.background
    if not transparent:
        p.fillRect(QRectF(0, 0, layout.width, layout.height), _color(bg))
    left, top, w, h = layout.plot
    plot = QRectF(left, top, w, h)
    layers = frame.request.layers if frame is not None else frozenset({"points"})
    sc = frame.scene if frame is not None else None
    marks = layout.to_px(points[0]) if "points" in layers and len(points[0]) else None
    lines = _boundary_px(layout, frame) if legend else None
    classes = np.asarray(points[1]) if marks is not None else None
    spot = frame.training.highlight if frame is not None and frame.training is not None else None
    spot_px = layout.to_px([spot]) if spot is not None else None
    ring = None
    if spot_px is not None:  # the point the SGD step shown used: the legend keeps off its ring
        (sx, sy), = spot_px
        reach = SGD_RING * style.point_size / 2 + SGD_RING_WIDTH * style.scale
        ring = QRectF(sx - reach, sy - reach, 2 * reach, 2 * reach)
    legend_box = _legend_box(layout, style, *legend, marks=marks, lines=lines, classes=classes,
                             avoid=ring) if legend else None

    p.save()
    p.setClipRect(plot)
    if sc is not None:
        for img in (sc.image, sc.decision):
            if img is not None:
                p.drawImage(plot, _image(img))
        if sc.reject:  # smooth polygons over the regions
            p.fillPath(rings_path([layout.to_px(ring) for ring in sc.reject]), QBrush(_color(sc.reject_color)))
        if sc.ambiguous_rings is not None:  # one-vs-rest's undecided regions: stripes as lines, cut to them
            _hatch(p, [layout.to_px(ring) for ring in sc.ambiguous_rings], style)
        elif sc.ambiguous is not None:  # a discriminant scheme's, on the heatmap's grid
            p.drawImage(plot, _image(sc.ambiguous))
        if sc.shade is not None:  # the Bayesian view's predictive variance
            p.drawImage(plot, _image(sc.shade))
        if sc.samples:  # boundaries drawn from q(w), under the fit's own
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(line_pen(style, "sample", cosmetic=False))
            for line in sc.samples:
                p.drawPath(_path(layout, line))
        fit = frame.fit
        colors = [frame.request.colors[i] for i in fit.class_index]
        p.setBrush(Qt.BrushStyle.NoBrush)
        for k, line in enumerate(sc.density):
            p.setPen(line_pen(style, "density", colors[k], cosmetic=False))
            p.drawPath(_path(layout, line))
        for k, line in enumerate(sc.ellipses):
            p.setPen(line_pen(style, "ellipse", colors[k], cosmetic=False))
            p.drawPath(_path(layout, line))
        for lines, kind in (([b.xy for b in sc.boundaries], "boundary"),
                            ([b.xy for over in frame.overlays for b in over], "compared")):
            if lines:  # the shown model's boundaries solid, a compared model's dashed
                path = _path(layout, _joined(lines))
                p.setPen(outline_pen(style, kind, cosmetic=False))  # an outline: it reads on any heatmap
                p.drawPath(path)
                p.setPen(line_pen(style, kind, cosmetic=False))
                p.drawPath(path)
    if frame is not None and frame.weight_line:  # the boundary of weights clicked in weight space, dotted
        path = _path(layout, _joined(frame.weight_line))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(outline_pen(style, "weight_probe", cosmetic=False))
        p.drawPath(path)
        p.setPen(line_pen(style, "weight_probe", cosmetic=False))
        p.drawPath(path)
    if frame is not None and frame.truth is not None:  # the true model: Bayes boundary dashed, ellipses dotted
        for k, line in frame.truth.ellipses:
            p.setPen(line_pen(style, "truth_ellipse", frame.request.colors[k], cosmetic=False))
            p.drawPath(_path(layout, line))
        if frame.truth.boundaries:
            path = _path(layout, _joined([b.xy for b in frame.truth.boundaries]))
            p.setPen(outline_pen(style, "truth_boundary", cosmetic=False))
            p.drawPath(path)
            p.setPen(line_pen(style, "truth_boundary", cosmetic=False))
            p.drawPath(path)
    X, labels, point_colors = points
    if "points" in layers and len(X):
        r = style.point_size / 2
        p.setPen(line_pen(style, "point_edge", cosmetic=False))
        for k, color in enumerate(point_colors):
            p.setBrush(QBrush(_color(color)))
            px = layout.to_px(X[labels == k])
            _draw_markers(p, class_marker(k), px[_inside(layout, px, r)], style.point_size)
        held = frame.request.held_out if frame is not None else None
        if held is not None and len(held) == len(X) and np.any(held):  # held-out points are drawn hollow
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(_color(bg)))
            px = layout.to_px(X[held])
            for x, y in px[_inside(layout, px, r)]:
                p.drawEllipse(QPointF(x, y), 0.5 * r, 0.5 * r)
    if sc is not None and sc.ellipses:  # the means, on top of the points
        d = 11 * style.scale
        px = layout.to_px(frame.fit.model.means_)
        for x, y in px[_inside(layout, px, d / 2)]:
            for color, width in ((bg, 4.5 * style.scale), (fg, 2.0 * style.scale)):
                p.setPen(_pen(color, width))
                p.drawLine(QPointF(x - d / 2, y), QPointF(x + d / 2, y))
                p.drawLine(QPointF(x, y - d / 2), QPointF(x, y + d / 2))
    # the misclassified points' crosses, over the means too (a point at its class's mean had its cross under them)
    wrong = frame.wrong if frame is not None else None
    if "points" in layers and wrong is not None and len(wrong) == len(X):
        p.setPen(line_pen(style, "misclassified", cosmetic=False))
        d = 0.4 * style.point_size / 2  # (0.4 of the marker's radius, as on the canvas)
        px = layout.to_px(X[wrong])
        for x, y in px[_inside(layout, px, d)]:
            p.drawLine(QPointF(x - d, y - d), QPointF(x + d, y + d))
            p.drawLine(QPointF(x - d, y + d), QPointF(x + d, y - d))
    if spot_px is not None:  # the point the SGD step shown used: ringed in the ink, as on the canvas
        r = SGD_RING * style.point_size / 2
        p.setPen(_pen(fg, SGD_RING_WIDTH * style.scale))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for x, y in spot_px[_inside(layout, spot_px, 0)]:
            p.drawEllipse(QPointF(x, y), r, r)
    if frame is not None and getattr(frame, "rbf_centers", None) is not None:  # an rbf fit's centres: open diamonds
        px = layout.to_px(frame.rbf_centers)
        _rbf_diamonds(p, px[_inside(layout, px, 0)], style)
    if frame is not None and frame.request.section is not None:  # a cross-section: the line and its ends
        a, b = (np.asarray(v, float) for v in frame.request.section)
        p.setPen(line_pen(style, "section", cosmetic=False))
        p.drawPath(_path(layout, np.vstack([a, b])))
        p.setBrush(QBrush(_color(fg)))
        for x, y in layout.to_px(np.vstack([a, b])):
            p.drawEllipse(QPointF(x, y), SECTION_END / 2 * style.scale, SECTION_END / 2 * style.scale)
        p.setBrush(Qt.BrushStyle.NoBrush)
    if frame is not None and frame.probe is not None and _inside(layout, layout.to_px([frame.probe.x]), 0).all():
        _probe(p, layout, frame.probe, style, avoid=legend_box,
               hide=(marks, classes, lines if legend else _boundary_px(layout, frame)))
    p.restore()

    _axes(p, layout, style, axis_names)
    if title:
        _title(p, layout, style, title)
    if legend is not None:
        _legend(p, layout, style, *legend, box=legend_box)


def _title(p, layout, style, title: str) -> None:
    """The title centred above the plot, elided to the page's width."""
    p.setPen(_pen(style.foreground, 1))
    font = _font(1.4 * style.font_px)
    p.setFont(font)
    text = QFontMetricsF(font).elidedText(title, Qt.TextElideMode.ElideRight, layout.width - 8)
    p.drawText(QRectF(0, 0, layout.width, layout.plot[1]), Qt.AlignmentFlag.AlignCenter, text)


def _joined(lines) -> np.ndarray:
    """Polylines as one, NaN rows between them."""
    return np.vstack([part for line in lines for part in (line, np.full((1, 2), np.nan))])


def _probe(p, layout, probe, style, avoid: QRectF | None = None, hide=(None, None, None)):
    """The probe's ring and its label beside it, diagonally: above or below, towards the plot's middle or away,
    whichever of the four hides the least of ``hide`` = (the points' pixel centres, their classes, the boundaries
    in pixels), as the canvas places it (no class whole, then the fewest points, then the least boundary; the
    order above on a tie); kept inside the plot (elided to its width), clear of the ring and off the legend
    (``avoid``); left out when no place is free."""
    fg, bg = style.foreground, style.background
    (x, y), = layout.to_px([probe.x])
    p.setPen(line_pen(style, "probe", cosmetic=False))
    p.setBrush(QBrush(_color(bg)))
    r = 7 * style.scale
    p.drawEllipse(QPointF(x, y), r, r)
    font = _font(style.font_px)
    p.setFont(font)
    fm = QFontMetricsF(font)
    left, top, w, h = layout.plot
    text = fm.elidedText(probe.label, Qt.TextElideMode.ElideMiddle, w - 12)  # the value at the end stays
    tw, th = fm.horizontalAdvance(text) + 8, fm.height() + 4
    right_half = x > left + w / 2
    sides = [x - tw - 1.4 * r, x + 1.4 * r] if right_half else [x + 1.4 * r, x - tw - 1.4 * r]
    boxes = [QRectF(min(max(bx, left + 2), left + w - tw - 2), min(max(by, top + 2), top + h - th - 2), tw, th)
             for by in (y - th - 1.4 * r, y + 1.4 * r) for bx in sides]
    free = [box for box in boxes if avoid is None or not box.intersects(avoid)]
    if not free:
        return
    marks, classes, lines = hide
    codes = np.unique(classes, return_inverse=True)[1].reshape(-1) if classes is not None else None
    ring = QRectF(x - r, y - r, 2 * r, 2 * r)

    def hidden(box):
        rect = (box.left(), box.top(), box.width(), box.height())
        whole, points = marks_hidden(marks, codes, rect, style.point_size / 2) if marks is not None else (0, 0)
        return (box.intersects(ring), whole, points, 0.0 if lines is None else length_inside(lines, rect),
                free.index(box))
    box = min(free, key=hidden)
    p.setPen(_pen(fg, 1))
    p.setBrush(QBrush(_color(bg, 210)))
    p.drawRect(box)
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def _crisp(v: float) -> float:
    """The centre of the pixel ``v`` falls in: a 1-pixel line there covers one pixel, not two halves."""
    return math.floor(v) + 0.5


def _axes(p, layout, style, axis_names):
    fg = style.foreground
    left, top, w, h = layout.plot
    left, bottom = _crisp(left), _crisp(top + h)
    tick = round(5 * style.scale)
    font = _font(style.font_px)
    p.setFont(font)
    fm = QFontMetricsF(font)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(_pen(fg, 1.0 * style.scale))
    p.drawLine(QPointF(left, top), QPointF(left, bottom))
    p.drawLine(QPointF(left, bottom), QPointF(left + w, bottom))
    if layout.x_labels is not None:
        values, texts = [v for v, _ in layout.x_labels], [t for _, t in layout.x_labels]
    else:
        values, spacing = layout.x_ticks()
        texts = tick_labels(values, spacing)
    for v, text in zip(values, texts):
        x = float(layout.x_px(v))
        if not left - 0.5 <= x <= left + w + 0.5:
            continue  # a tick beyond the view's ends
        p.drawLine(QPointF(_crisp(x), bottom), QPointF(_crisp(x), bottom + tick))
        tw = fm.horizontalAdvance(text)
        at = min(max(x - tw / 2, 1.0), layout.width - tw - 1.0)  # centred on its tick, but on the page
        p.drawText(QPointF(at, top + h + tick + fm.ascent() + 2), text)
    values, spacing = layout.y_ticks()
    for v, text in zip(values, tick_labels(values, spacing)):
        y = float(layout.y_px(v))
        p.drawLine(QPointF(left - tick, _crisp(y)), QPointF(left, _crisp(y)))
        tw = fm.horizontalAdvance(text)
        p.drawText(QPointF(left - tick - 4 - tw, y + fm.ascent() / 2 - fm.descent() / 2), text)
    p.drawText(QRectF(left, top + h + tick + fm.height() + 2, w, fm.height() + 4),
               Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
               fm.elidedText(axis_names[0], Qt.TextElideMode.ElideRight, w))
    p.save()
    p.translate(fm.height() * 0.4, top + h / 2)
    p.rotate(-90)
    p.drawText(QRectF(-h / 2, 0, h, fm.height() + 4), Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
               fm.elidedText(axis_names[1], Qt.TextElideMode.ElideRight, h))
    p.restore()


def _boundary_px(layout, frame) -> np.ndarray | None:
    """The boundaries drawn (the fit's, a compared model's, the truth's) in pixels, as one polyline with NaN
    rows between the pieces, or None."""
    if frame is None or frame.scene is None:
        return None
    lines = [b.xy for b in frame.scene.boundaries] + [b.xy for over in frame.overlays for b in over]
    if frame.truth is not None:
        lines += [b.xy for b in frame.truth.boundaries]
    lines = [xy for xy in lines if len(xy)]
    return layout.to_px(_joined(lines)) if lines else None


def _legend_metrics(style):
    """The legend's bold and plain fonts, their metrics, its row height and the width of a row's sample."""
    bold, plain = _font(style.font_px, bold=True), _font(style.font_px)
    fm_b, fm = QFontMetricsF(bold), QFontMetricsF(plain)
    row = max(fm.height(), style.point_size) + 4 * style.scale
    sw = max(style.point_size, 3 * style.font_px) + 10 * style.scale  # room for a line's dashes
    return bold, plain, fm_b, fm, row, sw


def _legend_box(layout, style, model_label, entries, key=(), marks=None, lines=None, classes=None,
                avoid: QRectF | None = None) -> QRectF | None:
    """Where the legend goes: as wide as its longest text (at most the plot's width), as tall as its rows, in
    the plot's corner off ``avoid`` (the SGD step's ring) if it can, then where it hides no class whole (every
    one of its ``marks``, the points' pixel centres, of the labels ``classes``) if it can, then the fewest marks,
    then the least length of ``lines`` (the boundaries in pixels, NaN rows between pieces; the top left on a tie,
    and without either), as the canvas places its own; None without classes."""
    if not entries:
        return None
    _, _, fm_b, fm, row, sw = _legend_metrics(style)
    texts = [n for n, _, _ in entries] + [t for t, _ in key]
    room = layout.plot[2] - 20  # the legend stays inside the plot
    width = min(room, max([fm_b.horizontalAdvance(model_label)] + [sw + fm.horizontalAdvance(t) for t in texts]) + 16)
    height = row * (len(entries) + len(key) + (1 if model_label else 0)) + 8
    left, top, w, h = layout.plot
    corners = [QRectF(x, y, width, height) for y in (top + 10, top + h - 10 - height)
               for x in (left + 10, left + w - 10 - width)]  # top left, top right, bottom left, bottom right
    r = style.point_size / 2

    codes = np.unique(classes, return_inverse=True)[1].reshape(-1) if classes is not None else None

    def hidden(box):
        rect = (box.left(), box.top(), box.width(), box.height())
        whole, points = marks_hidden(marks, codes, rect, r) if marks is not None else (0, 0)
        return (avoid is not None and box.intersects(avoid), whole, points,
                0.0 if lines is None else length_inside(lines, rect), corners.index(box))
    return min(corners, key=hidden)


def _legend(p, layout, style, model_label, entries, key=(), box=None):
    """The model's name, its classes (marker and colour), then a row for each other line style or
    marker drawn (``key``: (text, "solid" | "dashed" | "dashdot" | "hatch" | "hollow")), each with its
    sample, in ``box`` (by default :func:`_legend_box`'s). Long texts are elided to the plot's width:
    nothing leaves the figure."""
    box = box if box is not None else _legend_box(layout, style, model_label, entries, key)
    if box is None:
        return
    fg, bg = style.foreground, style.background
    bold, plain, fm_b, fm, row, sw = _legend_metrics(style)
    x0, y0, width, height = box.x(), box.y(), box.width(), box.height()
    model_label = fm_b.elidedText(model_label, Qt.TextElideMode.ElideRight, width - 16)
    p.setPen(_pen(fg, 1))
    p.setBrush(QBrush(_color(bg, 225)))
    p.drawRect(QRectF(x0, y0, width, height))
    y = y0 + 4
    if model_label:
        p.setFont(bold)
        p.drawText(QRectF(x0 + 8, y, width - 8, row), Qt.AlignmentFlag.AlignVCenter, model_label)
        y += row
    p.setFont(plain)
    text_w = width - sw - 16
    for name, color, marker in entries:
        p.setPen(_pen(bg, 1.2 * style.scale))
        p.setBrush(QBrush(_color(color)))
        _draw_markers(p, marker, [(x0 + 8 + (sw - 10 * style.scale) / 2, y + row / 2)], style.point_size)
        p.setPen(_pen(fg, 1))
        p.drawText(QRectF(x0 + 8 + sw, y, text_w, row), Qt.AlignmentFlag.AlignVCenter,
                   fm.elidedText(name, Qt.TextElideMode.ElideRight, text_w))
        y += row
    for text, kind in key:
        _key_sample(p, kind, QRectF(x0 + 8, y, sw - 10 * style.scale, row), style)
        p.setPen(_pen(fg, 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawText(QRectF(x0 + 8 + sw, y, text_w, row), Qt.AlignmentFlag.AlignVCenter,
                   fm.elidedText(text, Qt.TextElideMode.ElideRight, text_w))
        y += row


def _rbf_diamonds(p, centres, style) -> None:
    """Open diamonds (RBF_CENTER_SIZE point sizes across) at pixel ``centres``: the edge over a halo."""
    h = RBF_CENTER_SIZE * style.point_size / 2
    p.setBrush(Qt.BrushStyle.NoBrush)
    for pen in (outline_pen(style, "rbf_center", cosmetic=False), line_pen(style, "rbf_center", cosmetic=False)):
        p.setPen(pen)
        for x, y in centres:
            p.drawPolygon([QPointF(x, y - h), QPointF(x + h, y), QPointF(x, y + h), QPointF(x - h, y)])


#: an RBF centre's diamond, in point sizes across (larger than a point: it surrounds the point it may sit on)
RBF_CENTER_SIZE = 1.5


def _key_sample(p, kind: str, box: QRectF, style) -> None:
    """A legend row's sample of a line style or marker, in the foreground colour, inside ``box``."""
    fg, bg = style.foreground, style.background
    mid = box.center().y()
    if kind in ("solid", "dashed", "dashdot"):
        pen = _pen(fg, 2 * style.scale)
        pen.setStyle({"solid": Qt.PenStyle.SolidLine, "dashed": Qt.PenStyle.DashLine,
                      "dashdot": Qt.PenStyle.DashDotLine}[kind])
        p.setPen(pen)
        p.drawLine(QPointF(box.left(), mid), QPointF(box.right(), mid))
    elif kind in ("sample", "dotted"):
        p.setPen(line_pen(style, "sample" if kind == "sample" else "weight_probe", cosmetic=False))
        p.drawLine(QPointF(box.left(), mid), QPointF(box.right(), mid))
    elif kind == "ramp":  # the miscalibration map's scale: the background to its darkest shade
        side = min(box.height() - 4, box.width())
        ramp = QLinearGradient(box.center().x() - side / 2, mid, box.center().x() + side / 2, mid)
        ramp.setColorAt(0.0, _color(bg))
        ramp.setColorAt(1.0, QColor(*miscalibration_ramp(bg)))
        p.setPen(_pen(fg, 1))
        p.setBrush(QBrush(ramp))
        p.drawRect(QRectF(box.center().x() - side / 2, mid - side / 2, side, side))
    elif kind in ("veil", "reject"):
        side = min(box.height() - 4, box.width())
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(QColor(*SHADE_RGB, SHADE_ALPHA) if kind == "veil" else _color(style.reject)))
        p.drawRect(QRectF(box.center().x() - side / 2, mid - side / 2, side, side))
    elif kind == "diamond":
        _rbf_diamonds(p, [(box.center().x(), mid)], style)
    elif kind == "ring":  # the SGD step's ring, a little larger than a marker
        r = SGD_KEY * style.point_size / 2
        p.setPen(_pen(fg, SGD_KEY_WIDTH * style.scale))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(box.center().x(), mid), r, r)
    elif kind == "hollow":
        p.setPen(_pen(fg, 1.5 * style.scale))
        p.setBrush(QBrush(_color(bg)))
        r = style.point_size / 2
        p.drawEllipse(QPointF(box.center().x(), mid), r, r)
    elif kind in ("cross", "plus"):
        c, d = box.center().x(), 0.4 * style.point_size
        if kind == "cross":
            p.setPen(line_pen(style, "misclassified", cosmetic=False))
            p.drawLine(QPointF(c - d, mid - d), QPointF(c + d, mid + d))
            p.drawLine(QPointF(c - d, mid + d), QPointF(c + d, mid - d))
        else:
            p.setPen(_pen(fg, 2.0 * style.scale))
            p.drawLine(QPointF(c - d, mid), QPointF(c + d, mid))
            p.drawLine(QPointF(c, mid - d), QPointF(c, mid + d))
    elif kind == "hatch":  # a square of the plot's hatching, framed
        side = min(box.height() - 4, box.width())
        square = QRectF(box.center().x() - side / 2, mid - side / 2, side, side)
        _hatch(p, [np.array([[square.left(), square.top()], [square.right(), square.top()],
                             [square.right(), square.bottom()], [square.left(), square.bottom()]])], style)
        p.setPen(_pen(fg, 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(square)


_LINE_STYLES = {False: Qt.PenStyle.SolidLine, True: Qt.PenStyle.DashLine, "dashdot": Qt.PenStyle.DashDotLine,
                "dot": Qt.PenStyle.DotLine}


def paint_curves(p: QPainter, layout: Layout, curves, style: Style, axis_names=("step", "E(w)"),
                 title: str = "", transparent: bool = False, bands=(), fills=()) -> None:
    """Line plots in data coordinates: ``curves`` is a list of (label, xs, ys, colour, dashed), drawn
    in order, with the axes of ``layout`` and a legend of their labels (the error against the step,
    the learning curves, a cross-section); ``dashed`` False, True, "dashdot" or "dot". ``bands`` are
    (x0, x1, colour) shaded across the plot's height, ``fills`` (xs, low, high, colour) shaded between
    two curves, both under the curves (the reject band, the predictive band of a cross-section). A colour of
    ``INK`` is the style's foreground."""
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    fg, bg = style.foreground, style.background
    curves = [(label, xs, ys, fg if color == INK else color, dashed) for label, xs, ys, color, dashed in curves]
    if not transparent:
        p.fillRect(QRectF(0, 0, layout.width, layout.height), _color(bg))
    p.save()
    p.setClipRect(QRectF(*layout.plot))
    for x0, x1, color in bands:
        left, right = float(layout.x_px(x0)), float(layout.x_px(x1))
        p.fillRect(QRectF(left, layout.plot[1], right - left, layout.plot[3]), _color(color, 110))
    for xs, low, high, color in fills:
        outline = layout.to_px(np.column_stack([np.r_[xs, xs[::-1]], np.r_[low, high[::-1]]]).astype(float))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(_color(color, 60)))
        p.drawPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in outline]))
    p.setBrush(Qt.BrushStyle.NoBrush)
    for _, xs, ys, color, dashed in curves:
        xy = np.column_stack([xs, ys]).astype(float)
        p.setPen(_pen(color, 2.0 * style.scale, _LINE_STYLES[dashed]))
        p.drawPath(_path(layout, xy))
    p.restore()
    _axes(p, layout, style, axis_names)
    if title:
        _title(p, layout, style, title)
    labelled = [(label, color, dashed) for label, _, _, color, dashed in curves if label]
    if not labelled:
        return
    font = _font(style.font_px)
    fm = QFontMetricsF(font)
    row, sw = fm.height() + 4 * style.scale, 28 * style.scale
    width = max(fm.horizontalAdvance(label) for label, _, _ in labelled) + sw + 24
    height = row * len(labelled) + 8
    left, top, w, h = layout.plot
    corners = [(left + w - width - 10, top + 10), (left + 10, top + 10), (left + w - width - 10, top + h - height - 10),
               (left + 10, top + h - height - 10)]
    gap = np.full((1, 2), np.nan)
    px = [part for _, xs, ys, _, _ in curves if len(xs)
          for part in (layout.to_px(np.column_stack([xs, ys]).astype(float)), gap)]
    px = np.vstack(px) if px else np.empty((0, 2))

    def covered(corner):  # how much of the curves the box would hide: their length under it (a few steps' line
        return length_inside(px, (*corner, width, height))  # runs under a box that holds none of its vertices)

    x0, y0 = min(corners, key=covered)  # the first corner (top right) unless another hides less
    p.setPen(_pen(fg, 1))
    p.setBrush(QBrush(_color(bg, 225)))
    p.drawRect(QRectF(x0, y0, width, height))
    p.setFont(font)
    y = y0 + 4
    for label, color, dashed in labelled:
        p.setPen(_pen(color, 2.0 * style.scale, _LINE_STYLES[dashed]))
        p.drawLine(QPointF(x0 + 8, y + row / 2), QPointF(x0 + 8 + sw, y + row / 2))
        p.setPen(_pen(fg, 1))
        p.drawText(QRectF(x0 + 16 + sw, y, width - sw - 16, row), Qt.AlignmentFlag.AlignVCenter, label)
        y += row
