"""The canvas: pyqtgraph items for a frame's layers and the mouse tools that edit the document.

Items are created once and updated in place (setData/setImage). The canvas never fits or
evaluates a model: it draws the points it is given and the frames the pipeline builds, and
turns clicks and drags into Document edits. Without a document (an export) it only draws.
"""

from __future__ import annotations

import html
import time

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.LegendItem import ItemSample
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush, QColor, QCursor, QFont, QFontMetrics, QFontMetricsF, QImage, QPainter, QPainterPath, QPen, QPixmap,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsRectItem

from probviz import scene as scenes
from probviz.models.rbf import format_centers
from probviz.models.truth import handles as truth_handles
from probviz.models.truth import with_axis as truth_with_axis
from probviz.models.truth import with_handle as truth_with_handle
from probviz.app.pens import line_pen, outline_pen
from probviz.app.widgets import move_in_place, plain_ticks
from probviz.app.document import Document
from probviz.app.figure import RBF_CENTER_SIZE, marker_path, rings_path
from probviz.colors import class_marker
from probviz.figure_layout import length_inside, marks_hidden, view_of
from probviz.layers import DEFAULT_LAYERS
from probviz.style import HATCH_PERIOD, SECTION_END, SGD_KEY, SGD_KEY_WIDTH, SGD_RING, SGD_RING_WIDTH, Style

GRAB_TOLERANCE = 3  # screen pixels beyond a marker's edge that still grab it
DENSITY_THRESHOLD = scenes.DENSITY_THRESHOLD  # more points than this: the frame's density image
CARRIED_MAX = 2_000  # with many points, a drag draws the points it carries as markers, up to this many
MOVE_INTERVAL = 0.010  # seconds: mouse moves closer than this are paced (pyqtgraph's own rate, 100 a second)
FEW_MARKS = 32  # a scatter of no more marks than this is painted mark by mark (Marks._paint_few)


class Curve(pg.PlotCurveItem):
    """A curve that costs nothing to empty while it is empty: most of the canvas's curves (the truth, the
    samples, the overlays, the weight line, the cross-section) are empty on most frames, and pyqtgraph's
    setData redoes its bounds and tells the view of a change even then (0.05-0.1 ms each, every frame)."""

    def setData(self, *args, **kargs):  # noqa: N802
        emptied = len(args) == 2 and not kargs and not len(args[0]) and not len(args[1])
        if emptied and (self.xData is None or not len(self.xData)):
            return
        super().setData(*args, **kargs)

    under = None  # the curve this one is drawn under as its outline (see :meth:`getPath`)
    _pixel = None  # a pixel's lengths along the data's x and y, kept until the view's transform changes

    def viewTransformChanged(self):  # noqa: N802
        self._pixel = None
        super().viewTransformChanged()

    def boundingRect(self):  # noqa: N802
        """As pyqtgraph's (the data's bounds, out by the pen's half width in pixels), with a pixel's lengths kept
        until the view's transform changes: pyqtgraph asks the view for its device transform each time the data
        changes (a drag changes a few curves every frame, 50 us each)."""
        if self._boundingRect is None:
            (x0, x1), (y0, y1) = self.dataBounds(ax=0), self.dataBounds(ax=1)
            if x0 is None or x1 is None or y0 is None or y1 is None:
                return QRectF()
            pad = self.pixelPadding()
            px = py = 0.0
            if pad > 0:
                if self._pixel is None:
                    vx, vy = self.pixelVectors()
                    try:
                        self._pixel = (vx.length(), vy.length())
                    except (AttributeError, OverflowError):  # no view yet, or a pixel beyond float64: pyqtgraph's
                        return super().boundingRect()
                px, py = self._pixel[0] * pad, self._pixel[1] * pad
            self._boundingRect = QRectF(x0 - px, y0 - py, 2 * px + x1 - x0, 2 * py + y1 - y0)
        return self._boundingRect

    def getPath(self):  # noqa: N802
        """The path of the curve this one outlines when it holds that curve's very arrays (the boundaries' outline
        with no compared model's lines: 0.15-0.2 ms a frame to build the same path twice), else pyqtgraph's."""
        twin = self.under
        if (twin is not None and self.path is None and _one_array(twin.xData, self.xData)
                and _one_array(twin.yData, self.yData) and twin.opts["connect"] == self.opts["connect"]):
            self.path = twin.getPath()
        return super().getPath()

    def dataBounds(self, ax, frac=1.0, orthoRange=None):  # noqa: N802
        """As pyqtgraph's for the whole data under a cosmetic pen (the canvas's lines, asked at every paint after
        a change): its NaN-aware minimum and maximum, under a guard against warnings, cost about 40 us an axis
        against 5 for ``fmin.reduce``. Infinite or no finite values, a part of the data, a fill or a pen of width
        in data units: pyqtgraph's own."""
        cache = self._boundsCache[ax]
        if cache is not None and cache[0] == (frac, orthoRange):
            return cache[1]
        d = self.xData if ax == 0 else self.yData
        pens = (self.opts["pen"], self.opts["shadowPen"])
        if (frac != 1.0 or orthoRange is not None or d is None or not len(d) or ax not in (0, 1)
                or self.opts["fillLevel"] not in (None, "enclosed")
                or any(p is not None and not p.isCosmetic() and p.style() != Qt.PenStyle.NoPen for p in pens)):
            return super().dataBounds(ax, frac, orthoRange)
        b = (float(np.fmin.reduce(d)), float(np.fmax.reduce(d)))
        if not (np.isfinite(b[0]) and np.isfinite(b[1])):
            return super().dataBounds(ax, frac, orthoRange)
        self._boundsCache[ax] = [(frac, orthoRange), b]
        return b


def _one_array(a, b) -> bool:
    """``a`` and ``b`` are views of one array's memory, the same elements in the same order (pyqtgraph keeps a view
    of the arrays it is given)."""
    return (a is not None and b is not None and a.shape == b.shape and a.strides == b.strides and a.dtype == b.dtype
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def _curve(**kargs) -> pg.PlotCurveItem:
    """A curve item drawn as one path. (For a pen wider than a pixel pyqtgraph draws every segment on its own,
    each with its round caps: the same pixels, at 2.0 ms a paint against 1.5 for LDA's ellipses and boundaries.)"""
    item = Curve(**kargs)
    item.setSegmentedLineMode("off")
    return item


def _hover_unless_dragging(scene):
    """pyqtgraph's hover delivery for ``scene``, skipped while a button is held: mid-drag it only tells items that
    they may not take the hover, after a search of the items near the cursor (about 30 of pyqtgraph's costly
    bounding rectangles, 2 ms a mouse move). The release delivers it as before."""
    deliver = scene.sendHoverEvents

    def send(ev, exitOnly=False):  # noqa: N803 (pyqtgraph's name)
        if exitOnly or not ev.buttons():
            deliver(ev, exitOnly)

    return send


def _with_descendants(item) -> list:
    items = [item]
    for child in item.childItems():
        items += _with_descendants(child)
    return items


def _pass(ev) -> None:
    ev.ignore()


def _passive(item) -> None:
    """``item`` takes no clicks or drags: they go to what is under it."""
    item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # Qt's own events
    item.mouseClickEvent = item.mouseDragEvent = _pass  # pyqtgraph's, which ignore the line above


class Marks(pg.ScatterPlotItem):
    """A scatter of marks that costs nothing to paint while it holds none: most of the canvas's marks (the
    misclassified, the selection, the probe, the means...) are empty most of the time, and pyqtgraph
    culls and transforms even an empty scatter on every paint. While empty it also says it has no contents, and the
    view passes it by: an empty scatter's paint call cost 0.03 ms, and a drag's frame has about seven."""

    def clear(self):
        super().clear()
        self._say_contents()

    def addPoints(self, *args, **kargs):  # noqa: N802
        super().addPoints(*args, **kargs)
        self._say_contents()

    def _say_contents(self) -> None:
        empty = not len(self.data)
        if bool(self.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents) != empty:
            self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, empty)

    def paint(self, p, option, widget=None):
        n = len(self.data)
        if not n:
            return
        atlas = self.fragmentAtlas
        if (n > FEW_MARKS or self._exportOpts is not False or widget is None or not self.opts["pxMode"]
                or not self.opts["useCache"] or widget.devicePixelRatioF() != atlas.devicePixelRatio()):
            super().paint(p, option, widget)
            return
        self._paint_few(p, atlas)

    def _paint_few(self, p, atlas) -> None:
        """A few marks (the means, the point in hand, the probe...) stamped one by one from pyqtgraph's atlas of
        marker images, as its paint does for many: its culling and array work cost 0.3-0.4 ms a paint whatever
        the count, against about 0.02 here."""
        data = self.data[self.data["visible"]]
        t = p.transform()
        ratio = atlas.devicePixelRatio()
        pixmap = atlas.pixmap
        p.resetTransform()
        for x, y, (sx, sy, sw, sh) in zip(data["x"].tolist(), data["y"].tolist(), data["sourceRect"].tolist()):
            c = t.map(QPointF(x, y))
            if abs(c.x()) < 2 ** 30 and abs(c.y()) < 2 ** 30:  # (as pyqtgraph clips: NaN and far points are not drawn)
                w, h = sw / ratio, sh / ratio
                p.drawPixmap(QRectF(c.x() - w / 2, c.y() - h / 2, w, h), pixmap, QRectF(sx, sy, sw, sh))

    _rect = None  # (what the rectangle follows from, the rectangle)

    def boundingRect(self):  # noqa: N802
        """None while empty: the view then passes it by. pyqtgraph's costs ~50 us and the view asks several times
        a paint (26 calls a paint at 10,000 points): kept until the marks' extent, their largest marker or the
        view's transform changes."""
        if not len(self.data):
            return QRectF()
        key = (self.dataBounds(0), self.dataBounds(1), self._maxSpotPxWidth)
        if self._rect is None or self._rect[0] != key:
            self._rect = (key, QRectF(super().boundingRect()))
        return QRectF(self._rect[1])

    def viewTransformChanged(self):  # noqa: N802
        self._rect = None
        super().viewTransformChanged()

    def setData(self, *args, **kargs):  # noqa: N802
        """As pyqtgraph's, but no work to empty what is empty (most marks, on every frame)."""
        pos = kargs.get("pos", args[0] if len(args) == 1 else None)
        if not len(self.data) and not args[1:] and pos is not None and not len(pos):
            return
        super().setData(*args, **kargs)


class StillMarks(Marks):
    """Marks that most frames leave as they are: a class's points, the misclassified points' crosses. Painted
    again unchanged (neither they nor the view changed), they are drawn from an image in the view's pixels,
    made at that second paint: most frames change the fit and not the points (a drag, a model, a parameter, a
    training step), a drag hides the points it carries here (``Canvas.carried`` draws them), and its crosses
    wait for the hand to rest, so its frames repaint them from the images. The first paint after a
    change is marker by marker, so that frames that change the points or the view each time (a pan, the
    brush) make no image they would not use. The canvas's paint at 10,000 points: 15.4 ms median marker by
    marker, 9.0 ms from the images (real window, 2 cores); a class of 300 points 0.6 against 0.15 ms."""

    def __init__(self, *args, **kargs):
        super().__init__(*args, **kargs)
        self._image = None  # (key, QImage, its top-left in the view's pixels)
        self._seen = None  # the key of the last paint marker by marker

    def invalidate(self):
        self._image = self._seen = None
        super().invalidate()

    def paint(self, p, option, widget=None):
        if self._exportOpts is not False or widget is None:
            super().paint(p, option, widget)
            return
        t = p.transform()
        dpr = widget.devicePixelRatioF()
        key = (t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy(), dpr, widget.width(), widget.height())
        if self._image is None or self._image[0] != key:
            if self._seen != key:  # new points or a new view: painted as they are, an image once they stay
                self._seen, self._image = key, None
                super().paint(p, option, widget)
                return
            self._image = (key, *self._render(p, t, dpr, option, widget))
        _, image, origin = self._image
        if image is not None:
            p.resetTransform()
            p.drawImage(origin, image)

    def _render(self, p, t: QTransform, dpr: float, option, widget):
        """The points as pyqtgraph paints them, into an image of their extent within the widget."""
        scale = QTransform.fromScale(dpr, dpr)  # the image's pixels are the screen's: aligned to them, not to
        area = (t * scale).mapRect(self.boundingRect())  # the widget's (a fractional ratio would shift the image)
        area = area.intersected(scale.mapRect(QRectF(widget.rect()))).toAlignedRect()
        if area.isEmpty():
            return None, QPointF()
        origin = QPointF(area.x() / dpr, area.y() / dpr)
        image = QImage(area.size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(dpr)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHints(p.renderHints())
        painter.setTransform(t * QTransform.fromTranslate(-origin.x(), -origin.y()))
        super().paint(painter, option, widget)
        painter.end()
        return image, origin


class Picture(pg.ImageItem):
    """An RGBA uint8 image (rows, columns, 4; row 0 at the bottom) drawn in the raster engine's own formats: RGB32
    where every pixel is opaque (the heatmap: copied to the screen, nothing to blend), premultiplied ARGB32
    otherwise. pyqtgraph makes a non-premultiplied ARGB32 copy of it (0.4 ms at 256 x 256), which the painter
    converts again at every paint: 0.9 ms scaled to a 900 x 620 plot, against 0.45 in RGB32 (offscreen, 2 cores).
    Anything else (levels, a lookup table, another type) is rendered as pyqtgraph renders it."""

    def __init__(self):
        super().__init__(axisOrder="row-major")

    def render(self):
        image = self.image
        if (image is None or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 4 or not image.size
                or self.lut is not None or (self.levels is not None and not np.array_equal(self.levels, (0, 255)))):
            super().render()
            return
        rows, cols = image.shape[:2]
        data = np.ascontiguousarray(image)
        opaque = bool(data[..., 3].min() == 255)
        rgba = QImage(data.data, cols, rows, 4 * cols, QImage.Format.Format_RGBA8888)
        self.qimage = rgba.convertToFormat(QImage.Format.Format_RGB32 if opaque
                                           else QImage.Format.Format_ARGB32_Premultiplied)  # a copy: data may go
        self._renderRequired = False
        self._unrenderable = False


#: the side (pixels) the hatching's brush is at least: a whole number of its stripes' periods
HATCH_TILE = 48


class Hatching(QGraphicsPathItem):
    """Polygons in the plot's data coordinates, hatched in the screen's pixels: the stripes stay straight, thin
    and evenly spaced at any zoom. (An image of the hatching on the heatmap's grid, scaled to the plot, drew
    stair-stepped stripes and region edges; a pattern brush in data coordinates would be scaled with them.)"""

    def __init__(self):
        super().__init__()
        self.setPen(QPen(Qt.PenStyle.NoPen))
        self._hatch = QBrush()

    def set_look(self, color: QColor, period: float, width: float) -> None:
        """Stripes rising to the right (as the legend's hatched sample) of ``width`` pixels, ``period`` apart."""
        n = max(4, round(period))
        tile = QPixmap(n, n)
        tile.fill(Qt.GlobalColor.transparent)
        p = QPainter(tile)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(color, width))
        for shift in (-n, 0, n):  # the stripe and its neighbours, ends outside the tile (no caps in a corner)
            p.drawLine(QPointF(shift - n, 2 * n), QPointF(shift + 2 * n, -n))
        p.end()
        # the brush repeats that tile's pixels over HATCH_TILE pixels or more a side: the painter fills a region
        # a brush's width at a time, and 9-pixel pieces took 0.6-1.2 ms a paint of a third of a 1000 x 700 plot
        # against 0.25-0.3 for 54-pixel ones (offscreen, 2 cores); its pixels are the tile's copied, not stripes
        # drawn anew (their antialiasing differs by a level here and there)
        side = n * -(-HATCH_TILE // n)
        brush = QPixmap(side, side)
        brush.fill(Qt.GlobalColor.transparent)
        p = QPainter(brush)
        p.fillRect(brush.rect(), QBrush(tile))
        p.end()
        self._hatch = QBrush(brush)
        self.update()

    def paint(self, painter, option, widget=None):
        path = painter.transform().map(self.path())  # to the device's pixels, where the brush's tiles lie
        painter.save()
        painter.resetTransform()
        # the stripes are antialiased in their tile; the region's edge, crossed by stripes, needs none: a third of
        # the cost (1.1 against 3.5 ms for a third of a 900 x 650 plot)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.fillPath(path, self._hatch)
        painter.restore()


class CanvasViewBox(pg.ViewBox):
    """Routes mouse gestures to the canvas's tools; pans and zooms otherwise."""

    def __init__(self, canvas: "Canvas"):
        super().__init__(enableMenu=False)
        self.canvas = canvas

    def mouseClickEvent(self, ev):
        # pyqtgraph's axes hand their clicks and drags to the view: a click on an axis's numbers or name, outside
        # the plot, must not add a point there (where no one sees it)
        inside = self.sceneBoundingRect().contains(ev.scenePos())
        if inside and self.canvas.on_click(ev.button(), self.mapSceneToView(ev.scenePos()), ev.modifiers()):
            ev.accept()
        else:
            super().mouseClickEvent(ev)

    def mouseDragEvent(self, ev, axis=None):
        # a drag along an axis (axis given) pans or zooms that axis, as pyqtgraph's does
        if axis is None and ev.button() == Qt.MouseButton.LeftButton and self.canvas.on_drag(ev):
            ev.accept()
        else:
            super().mouseDragEvent(ev, axis)


#: The legend's line styles and the canvas lines whose pens they show.
KEY_LINES = {"solid": "boundary", "dashed": "compared", "dashdot": "truth_boundary"}


def dash_period(pen: QPen) -> float:
    """One period of a pen's dash pattern in pixels (0 for a solid line): Qt scales it by the pen's width."""
    if pen.style() in (Qt.PenStyle.SolidLine, Qt.PenStyle.NoPen):
        return 0.0
    return float(sum(pen.dashPattern())) * max(pen.widthF(), 1.0)


class KeySample(ItemSample):
    """A legend row's sample: as pyqtgraph draws it, but a line is ``length`` pixels long, at least two
    periods of the longest dash pattern in the legend. pyqtgraph's 20 pixels hold less than one period of
    presentation mode's thick dashes, and solid, dashed and dash-dotted then look alike."""

    length = 20.0

    @classmethod
    def of_length(cls, length: float) -> type:
        """The sample type of one legend (pyqtgraph's LegendItem takes a class, and tests items against it)."""
        return type("KeySample", (cls,), {"length": float(length)})

    def __init__(self, item):
        super().__init__(item)
        self.line = not isinstance(item, pg.ScatterPlotItem) and item.opts.get("pen") is not None
        if self.line:
            self.setFixedWidth(self.length)

    def boundingRect(self):
        return QRectF(0, 0, self.length, 20) if self.line else super().boundingRect()

    def paint(self, p, *args):
        if not self.line:
            return super().paint(p, *args)
        p.setRenderHint(p.RenderHint.Antialiasing)
        p.setPen(pg.mkPen(self.item.opts["pen"]))
        p.drawLine(QPointF(0, 11), QPointF(self.length, 11))


def _turn(u, v) -> float:
    """The sign of the turn from u to v (the z of their cross product)."""
    return float(np.sign(u[0] * v[1] - u[1] * v[0]))


def steady_handles(H: np.ndarray, before: np.ndarray | None, drag=None) -> np.ndarray:
    """The truth's handles (K, 3, 2) [mean, axis end, axis end] as drawn. An eigenvector's sign and the order
    of the axes are arbitrary: each class's two axis ends are taken at whichever ends of its axes (and in
    whichever order) lie nearest the handles drawn before. While an axis end is dragged, ``drag`` = (class,
    handle, the hand's point, the turn from that axis to the other at the drag's start): that class's dragged
    handle is the end nearest the hand and the other keeps its side, however far the hand moved between two
    draws. Without this the dragged handle showed up at the far end of its axis, or the other leapt across
    the mean."""
    if (before is None or before.shape != H.shape) and drag is None:
        return H
    out = H.copy()
    for k in range(len(H)):
        mu, a, b = H[k, 0], H[k, 1] - H[k, 0], H[k, 2] - H[k, 0]
        options = [(mu + s * x, mu + t * y) for x, y in ((a, b), (b, a)) for s in (1, -1) for t in (1, -1)]
        if drag is not None and drag[0] == k:
            _, which, hand, turn = drag
            ends = [o if which == 1 else o[::-1] for o in options]  # (the dragged end, the other)
            ends = [e for e in ends if _turn(e[0] - mu, e[1] - mu) == turn] or ends
            near = min(ends, key=lambda e: float(np.sum((e[0] - np.asarray(hand)) ** 2)))
            out[k, which], out[k, 3 - which] = near
        elif before is not None and before.shape == H.shape:
            out[k, 1], out[k, 2] = min(options, key=lambda o: float(np.sum((o[0] - before[k, 1]) ** 2)
                                                                    + np.sum((o[1] - before[k, 2]) ** 2)))
    return out


class Canvas(pg.PlotWidget):
    hovered = Signal(float, float)  # data coordinates under the cursor
    left = Signal()  # the cursor left the canvas
    selection_changed = Signal(int)
    rested = Signal()  # a drag's hand has been still for REST_MS: time for the exact picture
    dragged = Signal()  # a drag has edited the document: its frame is wanted before the next paint

    #: A drag's frames draw curved boundaries as a draft (see probviz.scene.draft_boundaries) until the
    #: hand has been still this long, or lets go
    REST_MS = 150

    def __init__(self, doc: Document | None = None, parent=None):
        self.vb = CanvasViewBox(self)
        super().__init__(parent, viewBox=self.vb)
        for name in ("left", "bottom"):  # the figures' labels: far from the origin pyqtgraph wrote "1e+06" everywhere
            plain_ticks(self.plotItem.getAxis(name))
        self.doc = doc
        self._points = (np.empty((0, 2)), np.empty(0, np.int64), [])  # X, labels, class colours
        self.layers = frozenset(DEFAULT_LAYERS)
        self.tool = "add"
        self.brush_radius = 30.0  # screen pixels
        self.brush_density = 3  # points per mouse move
        self.selection = np.empty(0, dtype=np.int64)
        self.style = Style()
        self._drag = None  # (indices, grab offsets, stroke) while dragging points
        self._drag_top = 0  # the undo stack's index with the drag's command on top
        self.drafting = False  # a drag is moving what the fit sees: frames may draw drafts
        self._rest = QTimer(self)
        self._rest.setSingleShot(True)
        self._rest.setInterval(self.REST_MS)
        self._rest.timeout.connect(self._rested)
        self._rng = np.random.default_rng()
        self._brushes: dict[str, QBrush] = {}
        self._hover_global: QPoint | None = None  # the cursor over the plot, in screen coordinates
        self._handles_drawn = None  # the truth's handles where they are drawn (steady_handles)
        self._wrong = None
        self._wrong_rows = (None, None)  # (the misclassified mask, its rows)
        self._class_points_key = None  # (the document's revision, what the class items were drawn from)
        self.frame = None  # the frame on screen

        self.setAntialiasing(True)
        self.setMinimumSize(320, 240)  # in a small window the panel gives way, not the plot
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.plotItem.showGrid(x=False, y=False)
        self.plotItem.hideButtons()  # pyqtgraph's "A" (auto-range): F and "Fit view" frame the data
        for name in ("left", "bottom"):  # painted again with every frame of the plot beside them: kept as pixmaps
            self.plotItem.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # until they change
        title = self.plotItem.titleLabel  # pyqtgraph makes a title's text width its minimum width, so a
        title.updateMin = lambda: title.setMinimumSize(0, title.itemRect().height())  # long one pushed the
        # plot out of the canvas; the window fits the caption to the width instead
        self.vb.setAspectLocked(False)

        self.heatmap = Picture()
        self.heatmap.setZValue(-10)
        self.decision = Picture()
        self.decision.setZValue(-9)
        self.reject = QGraphicsPathItem()  # the reject region, as smooth polygons over the regions
        self.reject.setPen(QPen(Qt.PenStyle.NoPen))
        self.reject.setZValue(-8.5)
        self.ambiguous = Picture()  # a discriminant scheme's undecided regions
        self.ambiguous.setZValue(-8)
        self.undecided = Hatching()  # one-vs-rest's undecided regions, as smooth polygons
        self.undecided.setZValue(-8)
        self.shade = Picture()  # the Bayesian view's predictive variance
        self.shade.setZValue(-7.5)
        self.samples = _curve(connect="finite")  # boundaries of weights drawn from q(w)
        self.samples.setZValue(4.5)
        self.weight_line = _curve(connect="finite")  # the boundary of the weights clicked in weight space
        self.weight_line.setZValue(5.5)
        self.weight_outline = _curve(connect="finite")
        self.weight_outline.setZValue(5.4)
        self.legend: pg.LegendItem | None = None
        self.boundary = _curve(connect="finite")
        self.boundary.setZValue(5)
        self.boundary_outline = _curve(connect="finite")  # reads on any heatmap, light or dark
        self.boundary_outline.setZValue(4.9)
        self.boundary_outline.under = self.boundary
        self.overlay = _curve(connect="finite")  # a compared model's boundaries, dashed
        self.overlay.setZValue(5.1)
        self.truth_boundary = _curve(connect="finite")  # the Bayes-optimal boundary, dash-dotted
        self.truth_boundary.setZValue(5.2)
        self.truth_outline = _curve(connect="finite")  # under it, as in every figure
        self.truth_outline.setZValue(5.15)
        self.truth_items: list[pg.PlotCurveItem] = []  # the truth's ellipses, dotted
        self.section_line = _curve()  # the cross-section
        self.section_line.setZValue(14)
        self.section_ends = Marks(symbol="o", pxMode=True, pen=pg.mkPen(None))  # its ends, filled, as in the figures
        self.section_ends.setZValue(14)
        self.holes = Marks(pxMode=True)  # held-out points are drawn hollow
        self.holes.setZValue(10.5)
        self.truth_handles = Marks(pxMode=True)  # drag the truth: means and ellipse axes
        self.truth_handles.setZValue(12.8)
        self.ellipse_items: list[pg.PlotCurveItem] = []
        self.density_items: list[pg.PlotCurveItem] = []
        self.means = Marks(symbol="+", pxMode=True)
        self.means.setZValue(11.5)  # over the points: dense data must not hide where the means are
        self.rbf_centers = Marks(symbol="d", pxMode=True, brush=None)  # an rbf fit's centres, open
        self.rbf_centers.setZValue(11.6)
        self.rbf_outline = Marks(symbol="d", pxMode=True, brush=None)  # their halo, as in the figures
        self.rbf_outline.setZValue(11.55)
        self.class_points: list[pg.ScatterPlotItem] = []  # one item per class: one brush each
        self.density = Picture()  # all points, when there are too many
        self.density.setZValue(10)
        self.wrong = StillMarks(symbol="x", pxMode=True)
        self.wrong.setZValue(11.7)  # over the means too: a point at its class's mean kept its cross under the "+"
        self.carried = Marks(pxMode=True)  # the points a drag carries, drawn over the rest (still in their images)
        self.carried.setZValue(10.2)  # under the misclassified crosses, as the points themselves
        self.selected = Marks(pxMode=True, brush=None)
        self.selected.setZValue(12)
        self.probe = Marks(symbol="o", pxMode=True)
        self.probe.setZValue(13)
        self.spotlight = Marks(symbol="o", pxMode=True, brush=None)  # the point SGD just used
        self.spotlight.setZValue(12.5)
        self.probe_label = pg.TextItem(anchor=(0, 1.2))
        self.probe_label.setZValue(13)
        self.hint = pg.TextItem("Press 1 and click to add points", anchor=(0.5, 0.5))
        self.note = pg.TextItem(anchor=(0.5, 0.5))  # why no model is drawn (Fisher with three classes)
        self.note.setZValue(14)  # over the points
        self.band = QGraphicsRectItem()
        self.band.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # never steal the drag it draws
        self.band.setZValue(20)
        self.band.hide()
        for item in (self.heatmap, self.decision, self.reject, self.ambiguous, self.undecided, self.shade, self.samples,
                     self.boundary_outline, self.boundary, self.weight_outline, self.weight_line,
                     self.overlay, self.truth_outline, self.truth_boundary, self.section_line, self.section_ends,
                     self.holes, self.truth_handles, self.means, self.density, self.wrong, self.carried, self.selected,
                     self.spotlight, self.probe, self.probe_label):
            self._add_passive(item)
        self._add_passive(self.rbf_centers)
        self._add_passive(self.rbf_outline)
        self.vb.addItem(self.hint, ignoreBounds=True)
        self.vb.addItem(self.note, ignoreBounds=True)
        self.vb.addItem(self.band, ignoreBounds=True)
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.scene().sendHoverEvents = _hover_unless_dragging(self.scene())
        # pyqtgraph drops a mouse move that comes within 10 ms of the last: the cursor's last move before it rests
        # was lost (the readout said where it had been, a point held still sat short of the hand). The canvas
        # paces the moves itself (mouseMoveEvent) and delivers the last one held back.
        self.scene()._moveEventIsAllowed = lambda: True
        self._move_at, self._held_move = -np.inf, None
        self._move_timer = QTimer(self, singleShot=True)
        self._move_timer.timeout.connect(self._deliver_held_move)
        self.vb.sigResized.connect(lambda *_: self._place_texts())
        self.vb.sigRangeChanged.connect(lambda *_: self._place_texts())
        self.apply_style(self.style)

    def _add_passive(self, item) -> None:
        """Add a drawn item that takes no clicks: the canvas alone decides what a click means (a
        scatter item would swallow clicks anywhere within its markers: 11 px around a mean, more in
        presentation mode, and the click would add nothing)."""
        _passive(item)
        self.addItem(item)

    # --- appearance -------------------------------------------------------------------
    def apply_style(self, style: Style) -> None:
        self.style = style
        self.setBackground(style.background)
        fg = QColor(*style.foreground)
        font = QFont()
        font.setPointSize(style.font_size)
        for name in ("left", "bottom"):
            ax = self.plotItem.getAxis(name)
            ax.setPen(fg)
            ax.setTextPen(fg)
            ax.setTickFont(font)
            ax.label.setFont(font)
            # pyqtgraph keeps an axis's room for the largest numbers it has drawn, within 10 pixels: for new text it
            # starts again from its first room, as at the start (F5 and back left the plot a few pixels taller)
            ax.textWidth, ax.textHeight = ax.style["tickTextWidth"], ax.style["tickTextHeight"]
            ax.setStyle()  # (laid out again for that room)
        # a tick label is centred on its tick: at the top of the plot half of it stands above, at the right end
        # half of it stands beyond; room kept for both (and the plot does not run into the window's edge),
        # and the bottom axis draws a label that reaches into that room (pyqtgraph hides it otherwise)
        metrics = QFontMetrics(font)
        right = metrics.horizontalAdvance("-0.00") // 2 + 1
        self.plotItem.layout.setContentsMargins(1, metrics.height() // 2 + 1, right, 1)
        self.plotItem.getAxis("bottom").setStyle(hideOverlappingLabels=right)
        r = self.devicePixelRatioF()  # cosmetic widths are device pixels: as thick at 200% scaling as at 100%
        self.boundary.setPen(line_pen(style, "boundary", ratio=r))
        self.boundary_outline.setPen(outline_pen(style, "boundary", ratio=r))
        self.wrong.setPen(line_pen(style, "misclassified", ratio=r))
        self.selected.setPen(pg.mkPen(fg, width=2.0 * style.scale, style=Qt.PenStyle.DashLine))
        self.probe.setPen(line_pen(style, "probe", ratio=r))
        self.probe.setBrush(pg.mkBrush(*style.background))
        self.spotlight.setPen(pg.mkPen(fg, width=SGD_RING_WIDTH * style.scale))
        self.overlay.setPen(line_pen(style, "compared", ratio=r))
        self.samples.setPen(line_pen(style, "sample", ratio=r))
        self.weight_line.setPen(line_pen(style, "weight_probe", ratio=r))
        self.weight_outline.setPen(outline_pen(style, "weight_probe", ratio=r))
        self.rbf_centers.setPen(line_pen(style, "rbf_center", ratio=r))
        self.rbf_outline.setPen(outline_pen(style, "rbf_center", ratio=r))
        self.truth_boundary.setPen(line_pen(style, "truth_boundary", ratio=r))
        self.truth_outline.setPen(outline_pen(style, "truth_boundary", ratio=r))
        self.section_line.setPen(line_pen(style, "section", ratio=r))
        self.section_ends.setBrush(pg.mkBrush(fg))
        self.section_ends.setSize(SECTION_END * style.scale)
        self.band.setPen(pg.mkPen(fg, width=1, style=Qt.PenStyle.DashLine))
        self.band.setBrush(pg.mkBrush(*style.foreground, 30))
        self.hint.setColor(fg)
        self.hint.setFont(font)
        self.note.setColor(fg)
        self.note.setFont(font)
        self.note.fill = pg.mkBrush(*style.background, 220)  # readable over the points
        self.probe_label.setColor(fg)
        self.probe_label.setFont(font)
        self.probe_label.fill = pg.mkBrush(*style.background, 210)  # readable over points and lines
        self.undecided.set_look(line_pen(style, "hatch").color(), HATCH_PERIOD * style.scale, style.width("hatch"))
        self.probe_label.border = pg.mkPen(fg, width=1)
        self._place_probe_label()  # its size follows the font
        self.update_points()

    def _brush(self, color: str) -> QBrush:
        if color not in self._brushes:
            self._brushes[color] = pg.mkBrush(color)
        return self._brushes[color]

    # --- drawing ----------------------------------------------------------------------
    def set_axis_names(self, names) -> None:
        self.setLabel("bottom", html.escape(names[0]))  # pyqtgraph's labels are rich text
        self.setLabel("left", html.escape(names[1]))

    @property
    def dense(self) -> bool:
        """Too many points to draw one by one: they are drawn as a density image."""
        return len(self._points[0]) > DENSITY_THRESHOLD

    def show_document_points(self) -> None:
        """The document's points as they are now, in its layers (the canvas follows its document)."""
        doc = self.doc
        self.set_points(doc.X, doc.labels, [c.color for c in doc.classes], doc.layers)

    def set_points(self, X, labels, colors, layers=None) -> None:
        """The points to draw (the document's, or a figure's) and the layers shown."""
        self._points = (X, labels, list(colors))
        if layers is not None:
            self.layers = frozenset(layers)
        self.update_points()

    def update_points(self) -> None:
        X, labels, colors = self._points
        visible = "points" in self.layers
        s = self.style
        dense = self.dense
        while len(self.class_points) < len(colors):
            item = StillMarks(pxMode=True)
            item.setZValue(10)
            self._add_passive(item)
            self.class_points.append(item)
        pen = line_pen(s, "point_edge", ratio=self.devicePixelRatioF())
        drag = self._drag
        carried = np.asarray(drag[1] if visible and drag is not None and drag[0] == "move" else (), np.int64)
        carried = carried[carried < len(X)] if len(carried) <= CARRIED_MAX else carried[:0]  # (an undo may drop some)
        key = (id(X), id(labels), len(X), tuple(colors), visible, dense, s, self.devicePixelRatioF(), carried.tobytes())
        if not self._only_carried_moved(key, carried):
            self._class_points_drawn(X, labels, colors, visible, dense, carried, pen)
        self._class_points_key = (self.doc.revision, key) if self.doc is not None and X is self.doc.X else None
        # many points: the frame brings their density image, computed off the GUI thread (show_frame)
        self.density.setVisible(dense and visible and self.density.image is not None)
        if len(carried):  # the point in hand (a pixel of the density image, or out of its class's image)
            k = labels[carried]
            look = (tuple(k), s.point_size, s.scale, s.background, tuple(colors))
            if getattr(self.carried, "_look", None) != look or not move_in_place(self.carried, X[carried]):
                self.carried.setData(pos=X[carried], brush=[self._brush(colors[c]) for c in k], size=s.point_size,
                                     pen=pen, symbol=[marker_path(class_marker(c)) for c in k])
                self.carried._look = look
        else:
            self.carried.setData(pos=np.empty((0, 2)))
            self.carried._look = None
        self._update_wrong()
        sel = self.selection[self.selection < len(X)]
        self.selected.setData(pos=X[sel], size=s.point_size + 8 * s.scale, brush=None)
        self.hint.setVisible(len(X) == 0 and self.doc is not None)
        if len(X) == 0:
            r = self.vb.viewRect()
            self.hint.setPos(r.center())
        if self.legend is not None:  # the points changed: the legend keeps off them (a class dragged under it)
            self.place_legend()

    def _only_carried_moved(self, key, carried) -> bool:
        """Nothing the class items draw changed since they were last drawn: the document's points moved since
        then are all carried by the hand (hidden there, drawn by ``carried``), and nothing else changed. Then a
        drag's move costs them nothing, not a pass over every point (1.9 ms a move at 10,000 points)."""
        last = self._class_points_key
        if last is None or last[1] != key or not len(carried):
            return False
        moved = self.doc.moves_since(last[0])
        return moved is not None and set(moved[0].tolist()) <= set(carried.tolist())

    def _class_points_drawn(self, X, labels, colors, visible, dense, carried, pen) -> None:
        """Each class's points, moved in place where only positions changed (a drag), else set anew; the ``carried``
        ones hidden there."""
        s = self.style
        held = None
        if len(carried) and not dense:  # they leave their class's still image while the hand moves them
            held = np.zeros(len(X), bool)
            held[carried] = True
        for k, item in enumerate(self.class_points):
            if k < len(colors) and visible and not dense:
                in_k = labels == k
                pos = X[in_k]
                shown = ~held[in_k] if held is not None else None
                look = (colors[k], s.point_size, s.background, s.scale)
                if getattr(item, "_look", None) != look or not move_in_place(item, pos, shown):
                    item.setData(pos=pos, brush=self._brush(colors[k]), size=s.point_size, pen=pen,
                                 symbol=marker_path(class_marker(k)))
                    item._look = look
                    if shown is not None:
                        item.data["visible"] = shown
                item.setVisible(True)
            else:
                item.setData(pos=np.empty((0, 2)))
                item._look = None
                item.setVisible(False)

    def _show_density(self, frame) -> None:
        """The frame's density image of the points (drawn instead of them when there are many)."""
        if frame is not None and frame.density is not None:
            self._set_image(self.density, frame.density, frame.request.bounds)
        self.density.setVisible(self.dense and "points" in self.layers and frame is not None
                                and frame.density is not None)

    _wrong_drawn = None  # (the misclassified mask, the points, the size, the document's revision) drawn last

    def _update_wrong(self):
        X = self._points[0]
        w = self._wrong
        if w is not None and len(w) == len(X) and "points" in self.layers and not self.dense:
            if self._wrong_rows[0] is not w:  # a drag keeps them: not a pass over every point
                self._wrong_rows = (w, np.flatnonzero(w))
            rows, size = self._wrong_rows[1], self.style.point_size * 0.8
            doc = self.doc
            revision = doc.revision if doc is not None and X is doc.X else None
            if self._wrong_unmoved(w, X, size):
                self._wrong_drawn = (w, X, size, revision)
                return
            pos = X[rows]
            if getattr(self.wrong, "_look", None) != size or not move_in_place(self.wrong, pos):
                self.wrong.setData(pos=pos, size=size)  # (a drag moves them in place: one mark per point)
                self.wrong._look = size
            self._wrong_drawn = (w, X, size, revision)
        else:
            self._wrong_drawn = None
            self.wrong.setData(pos=np.empty((0, 2)))

    def _wrong_unmoved(self, w, X, size) -> bool:
        """The crosses drawn last are of this mask, these points and size, and no point under one has moved since
        (a drag's frame and its edit each ask, and the hand carries one point, seldom a misclassified one): nothing
        to compare or move, where a pass over the crosses cost 0.2 ms a call at 10,000 points."""
        drawn = self._wrong_drawn
        if drawn is None or drawn[0] is not w or drawn[1] is not X or drawn[2] != size or drawn[3] is None:
            return False
        moved = self.doc.moves_since(drawn[3])
        return moved is not None and not w[moved[0]].any()  # (the mask read at the moved rows)

    def _set_image(self, item, image, bounds):
        if image is None:
            item.setVisible(False)
            return
        x0, x1, y0, y1 = bounds
        item.setImage(image, autoLevels=False, levels=(0, 255))
        placed = (tuple(bounds), image.shape[:2])
        if getattr(item, "placed", None) != placed:  # (a drag's frames keep the view: no new transform to tell)
            item.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))
            item.placed = placed
        item.setVisible(True)

    _smooth = False  # pyqtgraph draws lines aliased until told otherwise

    def _smooth_lines(self, on: bool) -> None:
        """The canvas's lines (boundaries, ellipses, the truth's, samples...) antialiased when the hand rests,
        aliased while it moves (a draft: antialiasing costs a frame 2-4 ms there, and moving lines hide it)."""
        if on == self._smooth:
            return
        self._smooth = on
        for item in self.vb.addedItems:
            if isinstance(item, Curve):
                item.opts["antialias"] = on
                item.update()

    def show_frame(self, frame) -> None:
        """Draw a pipeline Frame: every layer updated in place, from the frame alone."""
        self.frame = frame
        s = self.style
        self._smooth_lines(frame is None or not frame.request.draft)
        sc = frame.scene if frame is not None else None
        error = frame.fit.error if sc is None and frame is not None and len(frame.request.X) else ""
        self.note.setText(error.replace(": ", ":\n", 1))  # the reason, then what would do
        self.note.setVisible(bool(error))
        self._place_note()
        self.layers = frozenset(frame.request.layers) if frame is not None else self.layers
        for item in (self.weight_outline, self.weight_line):
            _set_line(item, frame.weight_line if frame is not None else [])
        centres = getattr(frame, "rbf_centers", None)
        for item in (self.rbf_outline, self.rbf_centers):
            item.setData(pos=np.empty((0, 2)) if centres is None else centres, size=RBF_CENTER_SIZE * s.point_size)
        if sc is None:
            self.heatmap.setVisible(False)
            self.decision.setVisible(False)
            self.reject.setVisible(False)
            self.ambiguous.setVisible(False)
            self.undecided.setVisible(False)
            self.shade.setVisible(False)
            self.samples.setData([], [])
            self.boundary.setData([], [])
            self.boundary_outline.setData([], [])
            self._set_curves(self.ellipse_items, [], [], "ellipse")
            self._set_curves(self.density_items, [], [], "density")
            self.means.setData(pos=np.empty((0, 2)))
            self._wrong = None
            self._update_wrong()
            self._draw_probe(None)
            self.spotlight.setData(pos=np.empty((0, 2)))
            self._spot_drawn = None
            self._draw_analysis(frame)
            self._show_density(frame)
            return
        self._show_density(frame)
        spot = frame.training.highlight if frame.training is not None else None  # the point SGD's step used
        self.spotlight.setData(pos=np.empty((0, 2)) if spot is None else [spot], size=SGD_RING * s.point_size)
        if spot != self._spot_drawn:
            self._spot_drawn = spot
            self.place_legend()  # off the ring
        self._set_image(self.heatmap, sc.image, sc.bounds)
        self._set_image(self.decision, sc.decision, sc.bounds)
        self.reject.setPath(rings_path(sc.reject))
        self.reject.setBrush(QBrush(QColor(*sc.reject_color)))
        self.reject.setVisible(bool(sc.reject))
        rings = sc.ambiguous_rings  # one-vs-rest's, hatched crisply; a discriminant scheme's stay an image
        self.undecided.setPath(rings_path(rings) if rings else QPainterPath())
        self.undecided.setVisible(bool(rings))
        self._set_image(self.ambiguous, sc.ambiguous if rings is None else None, sc.bounds)
        self._set_image(self.shade, sc.shade, sc.bounds)
        _set_line(self.samples, sc.samples)
        lines = [b.xy for b in sc.boundaries]
        overlays = [b.xy for over in frame.overlays for b in over]
        _set_line(self.boundary, lines)
        if overlays:
            xy = _joined(lines + overlays)  # the outline under both: they read on any heatmap
            self.boundary_outline.setData(xy[:, 0], xy[:, 1], connect="finite")
        elif lines:  # the boundaries' own arrays: it draws their path
            self.boundary_outline.setData(self.boundary.xData, self.boundary.yData, connect="finite")
        else:
            self.boundary_outline.setData([], [])
        _set_line(self.overlay, overlays)
        self._draw_analysis(frame)
        fit = frame.fit
        colors = [frame.request.colors[i] for i in fit.class_index]
        self._set_curves(self.ellipse_items, sc.ellipses, colors, "ellipse")
        self._set_curves(self.density_items, sc.density, colors, "density")
        look = (s.scale, s.foreground, s.background)
        if not sc.ellipses:
            self.means.setData(pos=np.empty((0, 2)))
        elif getattr(self.means, "_look", None) != look or not move_in_place(self.means, fit.model.means_):
            self.means.setData(pos=fit.model.means_, size=22 * s.scale, brush=pg.mkBrush(s.foreground),
                               pen=pg.mkPen(s.background, width=1.5 * s.scale))  # (a drag moves them in place)
            self.means._look = look
        wrong = frame.wrong
        if (wrong is None and fit.model is not None and not fit.summary and self._wrong is not None
                and len(self._wrong) == len(frame.request.X)):
            wrong = self._wrong  # its summary is still to come (a drag's waits for the hand to rest): the crosses stay
        self._wrong = wrong
        self._update_wrong()
        self._draw_probe(frame.probe)

    def _draw_analysis(self, frame) -> None:
        """The true model, the held-out points and the cross-section line of ``frame``'s request."""
        s = self.style
        truth = frame.truth if frame is not None else None
        _set_line(self.truth_boundary, [b.xy for b in truth.boundaries] if truth is not None else [])
        _set_line(self.truth_outline, [b.xy for b in truth.boundaries] if truth is not None else [])
        ellipses = truth.ellipses if truth is not None else []
        colors = [frame.request.colors[k] for k, _ in ellipses]
        self._set_curves(self.truth_items, [line for _, line in ellipses], colors, "truth_ellipse")
        req = frame.request if frame is not None else None
        held = req.held_out if req is not None else None
        if held is not None and len(held) == len(req.X) and np.any(held) and "points" in req.layers:
            self.holes.setData(pos=req.X[held], size=0.5 * s.point_size, brush=pg.mkBrush(*s.background),
                               pen=pg.mkPen(None))
        else:
            self.holes.setData(pos=np.empty((0, 2)))
        self.update_truth_handles()
        line = req.section if req is not None else None
        if line is not None:
            (x0, y0), (x1, y1) = line
            self.section_line.setData([x0, x1], [y0, y1])
            self.section_ends.setData(pos=[(x0, y0), (x1, y1)], size=SECTION_END * s.scale)
        else:
            self.section_line.setData([], [])
            self.section_ends.setData(pos=np.empty((0, 2)))

    def _truth_handles(self):
        """(K, 3, 2) handles of the document's truth when it is shown and editable here, else None."""
        doc = self.doc
        truth = doc.usable_truth() if doc is not None else None
        if truth is None or not truth.single or "truth" not in doc.layers:
            return None
        return truth_handles(truth)

    def update_truth_handles(self, drag=None) -> None:
        """Called with every frame, and by a drag of the truth's axis end with every move (``drag``, as
        :func:`steady_handles` takes it); redone only when the truth, its layer, the colours or the style
        change (a drag of the points redraws every frame and moves no handle)."""
        doc = self.doc
        truth = doc.usable_truth() if doc is not None else None  # immutable: an edit makes a new one
        rest = ("truth" in doc.layers if doc is not None else False,
                tuple(c.color for c in doc.classes) if doc is not None else (), self.style)
        last = getattr(self, "_handles_key", None)
        if last is not None and last[0] is truth and last[1] == rest:
            return
        self._handles_key = (truth, rest)
        H = self._truth_handles()
        if H is None:
            self._handles_drawn = None
            self.truth_handles.setData(pos=np.empty((0, 2)))
            return
        H = self._handles_drawn = steady_handles(H, self._handles_drawn, drag)
        s = self.style
        colors = [c.color for c in self.doc.classes]
        spots, dots = [], []
        for k, h in enumerate(H):
            spots.append({"pos": h[0], "symbol": "d", "size": 16 * s.scale, "brush": pg.mkBrush(colors[k]),
                          "pen": pg.mkPen(s.foreground, width=1.5 * s.scale)})
            for p in h[1:]:  # a ring in the plot's ink round a dot of the class's colour: no point is drawn so
                # (points are filled, held-out ones outlined in their class's colour; the probe is a ring alone)
                spots.append({"pos": p, "symbol": "o", "size": 13 * s.scale, "brush": pg.mkBrush(s.background),
                              "pen": pg.mkPen(s.foreground, width=1.5 * s.scale)})
                dots.append({"pos": p, "symbol": "o", "size": 6 * s.scale, "brush": pg.mkBrush(colors[k]),
                             "pen": pg.mkPen(None)})
        self.truth_handles.setData(spots + dots)  # [mean, axis end, axis end] a class, then the dots

    def truth_at(self, pos: QPointF):
        """(class, handle) of the truth's handle under ``pos`` (0 the mean, 1 and 2 the axis ends as drawn), or
        None."""
        H = self._truth_handles()
        if H is None:
            return None
        drawn = self._handles_drawn
        if drawn is not None and drawn.shape == H.shape:
            H = drawn
        pw, ph = self.vb.viewPixelSize()
        d2 = ((H[..., 0] - pos.x()) / pw) ** 2 + ((H[..., 1] - pos.y()) / ph) ** 2
        k, which = np.unravel_index(int(np.argmin(d2)), d2.shape)
        return (int(k), int(which)) if d2[k, which] <= (8 * self.style.scale + GRAB_TOLERANCE) ** 2 else None

    def rbf_center_at(self, pos: QPointF):
        """Index of the shown rbf fit's centre whose diamond is under ``pos``, or None (not while a training
        step or another basis is shown)."""
        frame, doc = self.frame, self.doc
        C = getattr(frame, "rbf_centers", None) if frame is not None else None
        if C is None or not len(C) or doc is None or doc.params.get(doc.model_name, {}).get("basis") != "rbf":
            return None
        pw, ph = self.vb.viewPixelSize()
        d2 = ((C[:, 0] - pos.x()) / pw) ** 2 + ((C[:, 1] - pos.y()) / ph) ** 2
        m = int(np.argmin(d2))
        return m if d2[m] <= (RBF_CENTER_SIZE * self.style.point_size / 2 + GRAB_TOLERANCE) ** 2 else None

    def _set_curves(self, items, lines, colors, kind: str):
        """One curve per line, in its class's colour, drawn as ``kind`` (a line of the look table)."""
        ratio = self.devicePixelRatioF()
        while len(items) < len(lines):
            item = _curve(connect="finite")
            item.opts["antialias"] = self._smooth  # as the canvas's other lines are now
            item.setZValue(4)
            self._add_passive(item)
            items.append(item)
        for i, item in enumerate(items):
            if i < len(lines):
                pen = line_pen(self.style, kind, colors[i], ratio)
                if item.opts["pen"] != pen:
                    item.setPen(pen)
                # a drag moves one class's ellipses: the others keep their paths (the very same arrays, or equal ones)
                if getattr(item, "line", None) is not lines[i] and not _same_line(item, lines[i]):
                    item.setData(lines[i][:, 0], lines[i][:, 1], connect="finite")
                item.line = lines[i]
                item.setVisible(True)
            else:
                item.setVisible(False)

    _probe_drawn = None  # (where, text) of the probe's label when the legend last made way for it
    _spot_drawn = None  # where the SGD step's ring is drawn (data coordinates), None when it is not
    _probe_at = None  # where the probe is drawn (data coordinates), None when it is not
    _probe_side = None  # (below, right): the diagonal its label was last given

    def _draw_probe(self, probe):
        if probe is None:
            self._probe_at = None
            self.probe.setData(pos=np.empty((0, 2)))
            self.probe_label.setVisible(False)  # its frame would show even without text
            return
        self.probe_label.setVisible(True)
        self.probe.setData(pos=[probe.x], size=self.probe_size)
        self.probe_label.setText(probe.label)
        self._probe_at = tuple(probe.x)
        self._place_probe_label()
        if self.legend is not None and self._probe_drawn != (probe.x, probe.label):
            self._probe_drawn = (probe.x, probe.label)
            self.place_legend()  # the legend keeps off the label where it now is

    def _place_probe_label(self) -> None:
        """The probe's label beside its ring, diagonally: above or below it, to its right or its left, whichever
        of the four hides the least (as the legend weighs it, :meth:`hidden_by`: whole classes, then points with
        their markers; then the length of boundary under it), the side with more room first on a tie; each moved
        along the plot's edge it meets so that the box stays whole inside the plot and clear of the ring (at a
        narrow plot's edge a label beside the ring alone ran past it; above and to the right it hid the points
        and the boundary a lesson is about)."""
        if self._probe_at is None:
            return
        px = self._to_vb_pixels(np.array([self._probe_at]))
        size = self.probe_label.textItem.boundingRect()
        w, h = self.vb.width(), self.vb.height()
        if px is None or size.isEmpty():
            return
        x, y = px[0]
        inside = bool(0 <= x <= w and 0 <= y <= h)
        self.probe_label.setVisible(inside)  # a probe out of sight (the view moved) takes its label with it
        if not inside:
            return
        lw, lh = size.width(), size.height()
        r = self.probe_size / 2
        margin, gap = 2.0, max(0.2 * lh, r + 2)  # clear of the ring
        right_first = x <= w / 2
        sides = [(below, right) for below in (False, True) for right in (right_first, not right_first)]
        boxes = [QRectF(x + 0.05 * lw if right else x - 1.05 * lw, y + gap if below else y - gap - lh, lw, lh)
                 for below, right in sides]
        for box in boxes:
            box.moveTo(max(margin, min(box.left(), w - lw - margin)), max(margin, min(box.top(), h - lh - margin)))
        if self.drafting and self._probe_side in sides:  # the hand moves points: the diagonal stays (weighing the
            best = boxes[sides.index(self._probe_side)]  # four costs 2-3 ms a frame at 100,000); again at rest
        else:
            ring = QRectF(x - r, y - r, 2 * r, 2 * r)
            obstacles = (None, *self._obstacles()[1:])  # the points and their classes (not the label itself)
            best = boxes[self.least_hiding(boxes, obstacles, first=lambda box: (box.intersects(ring),))]
            self._probe_side = sides[boxes.index(best)]
        self.probe_label.setAnchor((0.0, 0.0))
        self.probe_label.setPos(self.vb.mapToView(best.topLeft()))

    def _place_texts(self) -> None:
        """The view or the plot's size changed: the probe's label, then the legend (which keeps off it) and the note."""
        self._place_probe_label()
        self.place_legend()
        self._place_note()

    # --- view ---------------------------------------------------------------------------
    def view_bounds(self) -> tuple[float, float, float, float]:
        r = self.vb.viewRect()
        return (r.left(), r.right(), r.top(), r.bottom())

    def fit_view(self) -> None:
        """Frame the points (F, Home), or the default view when there are none."""
        x0, x1, y0, y1 = view_of(self._points[0])
        self.vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    # --- picking --------------------------------------------------------------------------
    def point_at(self, pos: QPointF) -> int | None:
        """Index of the point nearest ``pos`` (view coordinates) within its marker's radius plus
        GRAB_TOLERANCE pixels, or None."""
        X = self.doc.X
        if len(X) == 0 or "points" not in self.doc.layers:
            return None
        pw, ph = self.vb.viewPixelSize()
        d2 = ((X[:, 0] - pos.x()) / pw) ** 2 + ((X[:, 1] - pos.y()) / ph) ** 2
        i = int(np.argmin(d2))
        radius = self.style.point_size / 2 + GRAB_TOLERANCE
        return i if d2[i] <= radius ** 2 else None

    @property
    def _hover(self) -> QPointF | None:
        """The data point under the cursor, through the canvas and the view as they are now: a cursor that
        rests while the view changes (a slide, an undo, Fit view) or the canvas moves (F5 folding the
        panels) reads where it is, not where it was. None off the plot."""
        if self._hover_global is None:
            return None
        scene_pos = self.mapToScene(self.viewport().mapFromGlobal(self._hover_global))
        if not self.vb.sceneBoundingRect().contains(scene_pos):
            return None
        return self.vb.mapSceneToView(scene_pos)

    def hover_position(self) -> tuple[float, float] | None:
        """Data coordinates under the cursor, or None when it is off the plot."""
        hover = self._hover
        return None if hover is None else (hover.x(), hover.y())

    @property
    def probe_size(self) -> float:
        return 14 * self.style.scale

    def set_selection(self, indices, redraw: bool = True) -> None:
        self.selection = np.unique(np.asarray(indices, dtype=np.int64))
        if redraw:
            self.update_points()
        self.selection_changed.emit(len(self.selection))

    # --- gestures ---------------------------------------------------------------------------
    def near_probe(self, pos: QPointF) -> bool:
        probe = self.doc.probe
        if probe is None:
            return False
        pw, ph = self.vb.viewPixelSize()
        return ((probe[0] - pos.x()) / pw) ** 2 + ((probe[1] - pos.y()) / ph) ** 2 <= (self.probe_size / 2 + GRAB_TOLERANCE) ** 2

    def on_click(self, button, pos: QPointF, modifiers) -> bool:
        if self.doc is None:
            return False
        if button == Qt.MouseButton.LeftButton and modifiers & Qt.KeyboardModifier.ShiftModifier:
            self.doc.set_probe((pos.x(), pos.y()))
            return True
        hit = self.point_at(pos)
        if button == Qt.MouseButton.RightButton:
            if hit is not None:
                self.doc.delete_points([hit])
            return True
        if button != Qt.MouseButton.LeftButton:
            return False
        if self.tool == "section":  # the section tool draws by dragging; a click adds nothing
            return True
        if self.tool == "select":
            self.set_selection([] if hit is None else [hit])
        elif self.tool == "brush":
            self._spray(pos, self.doc.new_stroke())
        elif hit is None:
            if len(self.selection):
                self.set_selection([])
            self.doc.add_points([[pos.x(), pos.y()]], self.doc.active_class)
        return True

    def on_drag(self, ev) -> bool:
        if self.doc is None:
            return False
        pos = self.vb.mapSceneToView(ev.scenePos())
        if ev.isStart():
            start = self.vb.mapSceneToView(ev.buttonDownScenePos())
            hit = self.point_at(start)
            handle = self.truth_at(start) if self.tool != "brush" else None
            if self.tool == "section":
                self._drag = ("section", (start.x(), start.y()))
            elif handle is not None:  # an axis end: the other axis keeps its drawn length through the drag
                k, which = handle
                H = self._handles_drawn if self._handles_drawn is not None else self._truth_handles()
                other = float(np.hypot(*(H[k, 3 - which] - H[k, 0]))) if which else None
                turn = _turn(H[k, which] - H[k, 0], H[k, 3 - which] - H[k, 0]) if which else 0.0
                self._drag = ("truth", handle, self.doc.new_stroke(), other, turn)
            elif self.tool != "brush" and self.rbf_center_at(start) is not None:  # drawn over the points
                self._drag = ("rbf", self.rbf_center_at(start), np.array(self.frame.rbf_centers, float),
                              self.doc.new_stroke())
            elif self.near_probe(start) and self.tool != "brush":
                self._drag = ("probe", self.doc.new_stroke())
            elif self.tool == "brush":
                self._drag = ("brush", self.doc.new_stroke())
                self._spray(start, self._drag[1])
            elif hit is not None:
                indices = self.selection if hit in self.selection else np.array([hit])
                offsets = self.doc.X[indices] - [start.x(), start.y()]
                self._drag = ("move", indices, offsets, self.doc.new_stroke(), len(self.doc.X))
                self._drag_top = self.doc.undo_stack.index()  # the undo stack's top: the drag's command will be it
            elif self.tool == "select":
                self._drag = ("band", start)
            else:
                self._drag = None
                return False  # an empty-canvas drag pans the view
        if self._drag is None:
            return False
        kind = self._drag[0]
        if kind in ("move", "brush", "rbf") and not ev.isFinish():
            self.drafting = True
            self._rest.start()
        if kind == "section":
            a = self._drag[1]
            if (pos.x(), pos.y()) != a:
                self.doc.view_state.set_section((a, (pos.x(), pos.y())))
        elif kind == "truth":
            (k, which), stroke, other, turn = self._drag[1:]
            try:
                xy = (pos.x(), pos.y())
                truth = (truth_with_axis(self.doc.truth, k, xy, other) if which else
                         truth_with_handle(self.doc.truth, k, 0, xy))
            except ValueError:  # a degenerate shape (an axis of zero length): keep the last good one
                truth = None
            if truth is not None:
                self.doc.set_truth(truth, "Edit the true model", stroke)
                if which:  # the handles follow the hand now, not at the next frame
                    self.update_truth_handles(drag=(k, which, xy, turn))
        elif kind == "probe":
            self.doc.set_probe((pos.x(), pos.y()), self._drag[1])
        elif kind == "rbf":  # the centres as text, the dragged one where the hand is: one merged undo step
            _, m, C, stroke = self._drag
            C[m] = (pos.x(), pos.y())
            decimals = int(np.ceil(-np.log10(min(self.vb.viewPixelSize())))) + 1
            self.doc.set_param("centers", format_centers(C, decimals), stroke)
        elif kind == "brush":
            self._spray(pos, self._drag[1])
        elif kind == "move":
            _, indices, offsets, stroke, count = self._drag
            stack = self.doc.undo_stack
            if len(self.doc.X) == count and stack.index() >= self._drag_top:
                self.doc.move_points(indices, offsets + [pos.x(), pos.y()], stroke)
                self._drag_top = stack.index()  # the drag's command (its moves merge into one)
            else:  # points were deleted or added under the hand (Delete, a paste): their indices say nothing now;
                # or the drag's move was undone (Ctrl+Z): moving on would undo the undo and lose the redo
                self._drag = ("let go",)
                self.update_points()
        elif kind == "band":
            start = self._drag[1]
            rect = QRectF(start, pos).normalized()
            self.band.setRect(rect)
            self.band.setVisible(not ev.isFinish())
            if ev.isFinish():
                X = self.doc.X
                inside = ((X[:, 0] >= rect.left()) & (X[:, 0] <= rect.right())
                          & (X[:, 1] >= rect.top()) & (X[:, 1] <= rect.bottom()))
                self.set_selection(np.flatnonzero(inside))
        if ev.isFinish():
            moved = self._drag[0] == "move"
            self._drag = None
            if moved:  # let go: back into its class (or the density image)
                self.update_points()
            self.drafting = False  # the frame of this last move is drawn exactly
            self._rest.stop()
        if kind != "band":
            self.dragged.emit()
        return True

    def _rested(self):
        if self.drafting:
            self.drafting = False
            self.rested.emit()

    def _spray(self, pos: QPointF, stroke: int) -> None:
        pw, ph = self.vb.viewPixelSize()
        n = self.brush_density
        r = self.brush_radius * np.sqrt(self._rng.random(n))
        t = self._rng.uniform(0, 2 * np.pi, n)
        pts = np.c_[pos.x() + r * np.cos(t) * pw, pos.y() + r * np.sin(t) * ph]
        self.doc.add_points(pts, self.doc.active_class, stroke)

    def delete_under_cursor_or_selection(self) -> None:
        if len(self.selection):
            indices = self.selection
            self.set_selection([])
            self.doc.delete_points(indices)
        elif (hover := self._hover) is not None:
            hit = self.point_at(hover)
            if hit is not None:
                self.doc.delete_points([hit])

    def _on_mouse_moved(self, scene_pos):
        if self.vb.sceneBoundingRect().contains(scene_pos):
            self._hover_global = self.viewport().mapToGlobal(self.mapFromScene(scene_pos))
            hover = self.vb.mapSceneToView(scene_pos)
            self.hovered.emit(hover.x(), hover.y())
        else:
            self._hover_global = None
            self.left.emit()

    def keyPressEvent(self, ev):
        steps = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, 1), Qt.Key.Key_Down: (0, -1)}
        if ev.key() in steps and ev.modifiers() in (Qt.KeyboardModifier.NoModifier,
                                                   Qt.KeyboardModifier.ShiftModifier,
                                                   Qt.KeyboardModifier.KeypadModifier):
            self.nudge_probe(*steps[ev.key()], fine=bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier))
            ev.accept()
            return
        super().keyPressEvent(ev)

    def nudge_probe(self, dx: int, dy: int, fine: bool = False) -> None:
        """Arrow keys: move the probe by 2% of the view (0.4% with Shift), no further than the view's edge (it went
        on out of sight, its label sliding off the plot); place it first if needed."""
        x0, x1, y0, y1 = self.view_bounds()
        if self.doc.probe is None:
            self.doc.set_probe(((x0 + x1) / 2, (y0 + y1) / 2))
            return
        f = 0.004 if fine else 0.02
        px, py = self.doc.probe
        to = (min(max(px + dx * f * (x1 - x0), x0), x1), min(max(py + dy * f * (y1 - y0), y0), y1))
        if to != (px, py):
            self.doc.set_probe(to, stroke=-1)

    # --- legend -------------------------------------------------------------------------------
    def set_legend(self, visible: bool, model_label: str = "", entries=(), key=()) -> None:
        """An on-canvas legend: the model's name (if given), then (class name, colour, marker) of each
        class on the plot, then a row for each other line style or marker drawn (``key``, as the exported
        figure's legend has it), in the corner where it hides the fewest points."""
        if self.legend is not None:
            if self.legend.scene() is not None:
                self.legend.scene().removeItem(self.legend)
            self.legend = None
        if not visible or not entries:
            return
        s = self.style
        periods = [dash_period(self._key_pen(kind)) for _, kind in key if kind in KEY_LINES]
        sample = KeySample.of_length(max([20.0] + [2.2 * p for p in periods]))
        self.legend = pg.LegendItem(offset=(10, 10), labelTextColor=s.foreground,
                                    labelTextSize=f"{s.font_size}pt", brush=pg.mkBrush(*s.background, 225),
                                    pen=pg.mkPen(s.foreground, width=1), verSpacing=-2, sampleType=sample)
        self.legend.setParentItem(self.vb)
        if model_label:
            self.legend.addItem(pg.PlotDataItem(pen=None), f"<b>{html.escape(model_label)}</b>")
        for name, color, marker in entries:
            sample = pg.ScatterPlotItem(size=s.point_size, brush=pg.mkBrush(color), symbol=marker_path(marker),
                                        pen=pg.mkPen(s.background, width=1.2))
            self.legend.addItem(sample, html.escape(name))
        for text, kind in key:
            self.legend.addItem(self._key_sample(kind), html.escape(text))
        for item in _with_descendants(self.legend):  # clicks and drags go through it to the canvas: a point under
            _passive(item)  # it can still be grabbed, and it stays in its corner (pyqtgraph's can be dragged away)
        self.place_legend()

    def _key_pen(self, kind: str) -> QPen:
        """The pen of the canvas line a legend row's line style stands for (KEY_LINES)."""
        return line_pen(self.style, KEY_LINES[kind], ratio=self.devicePixelRatioF())

    def _key_sample(self, kind: str):
        """A legend sample for a line style ("solid", "dashed", "dashdot": drawn with the pen of the line it
        names) or marker ("hollow", "hatch")."""
        s = self.style
        if kind in KEY_LINES:
            return pg.PlotDataItem(pen=self._key_pen(kind))
        if kind in ("sample", "dotted"):
            return pg.PlotDataItem(pen=line_pen(s, "sample" if kind == "sample" else "weight_probe",
                                                ratio=self.devicePixelRatioF()))
        if kind == "ramp":  # the miscalibration map's darkest shade
            return pg.ScatterPlotItem(size=s.point_size, symbol="s", pen=pg.mkPen(s.foreground, width=1),
                                      brush=pg.mkBrush(*scenes.miscalibration_ramp(s.background)))
        if kind == "veil":
            return pg.ScatterPlotItem(size=s.point_size, symbol="s", pen=pg.mkPen(None),
                                      brush=pg.mkBrush(*scenes.SHADE_RGB, scenes.SHADE_ALPHA))
        if kind == "reject":
            return pg.ScatterPlotItem(size=s.point_size, symbol="s", pen=pg.mkPen(None), brush=pg.mkBrush(*s.reject))
        if kind == "diamond":  # an rbf fit's centres
            return pg.ScatterPlotItem(size=RBF_CENTER_SIZE * s.point_size, symbol="d", brush=None,
                                      pen=line_pen(s, "rbf_center", ratio=self.devicePixelRatioF()))
        if kind == "ring":  # the SGD step's ring, a little larger than a marker (within the sample's room)
            return pg.ScatterPlotItem(size=SGD_KEY * s.point_size, symbol="o", brush=None,
                                      pen=pg.mkPen(s.foreground, width=SGD_KEY_WIDTH * s.scale))
        if kind == "hollow":
            return pg.ScatterPlotItem(size=s.point_size, symbol="o", brush=pg.mkBrush(*s.background),
                                      pen=pg.mkPen(s.foreground, width=1.5 * s.scale))
        if kind in ("cross", "plus"):  # as the misclassified points and the class means are marked
            pen = line_pen(s, "misclassified", ratio=self.devicePixelRatioF()) if kind == "cross" else \
                pg.mkPen(s.foreground, width=2 * s.scale)
            return pg.ScatterPlotItem(size=0.8 * s.point_size, symbol="x" if kind == "cross" else "+", pen=pen,
                                      brush=pg.mkBrush(s.foreground) if kind == "plus" else None)
        return pg.ScatterPlotItem(size=s.point_size, symbol="s", pen=pg.mkPen(s.foreground, width=1),
                                  brush=QBrush(QColor(*s.foreground), Qt.BrushStyle.BDiagPattern))

    def _place_note(self) -> None:
        """The note (why no model is drawn) wrapped within the plot, at the left, middle or right of its top or
        bottom edge, as wide as 40 characters or narrower and taller, where it hides the least (:meth:`hidden_by`,
        as the legend) and not the legend (mid-view, one long line, it ran past a narrow plot's sides and over
        the points)."""
        if not self.note.isVisible():
            return
        w, h = self.vb.width(), self.vb.height()
        if w <= 0 or h <= 0:
            return
        obstacles = self._obstacles()
        legend = self.legend_rect(self.legend.opts["offset"]) if self.legend is not None and self.legend.isVisible() \
            else QRectF()
        widest = min(0.9 * w, 40 * QFontMetricsF(self.note.textItem.font()).averageCharWidth() + 16)
        best, margin = None, 6.0
        for width in (widest, 0.55 * widest):  # the wide box first: it wins a tie
            self.note.setTextWidth(width)
            size = self.note.textItem.boundingRect()
            for fy in (0.0, 1.0):  # top, then bottom
                for fx in (0.5, 0.0, 1.0):  # middle, left, right
                    box = QRectF(margin + fx * (w - size.width() - 2 * margin),
                                 margin + fy * (h - size.height() - 2 * margin), size.width(), size.height())
                    cost = (box.intersects(legend), *self.hidden_by(box, obstacles))
                    if best is None or cost < best[0]:
                        best = (cost, width, box)
        _, width, box = best
        self.note.setTextWidth(width)
        self.note.setAnchor((0.0, 0.0))
        self.note.setPos(self.vb.mapToView(box.topLeft()))

    def place_legend(self) -> None:
        """Move the legend to the corner where it hides the least (see :meth:`emptiest_corner`; again when the
        view, the canvas or the probe changes: the same legend covers more of the data when the plot is
        smaller)."""
        if self.legend is not None:
            offset = self.emptiest_corner()
            if tuple(self.legend.opts["offset"]) != offset:
                self.legend.setOffset(offset)

    def lines_under(self, rect: QRectF) -> float:
        """How much of the boundaries drawn (the fit's, a compared model's, the truth's), in pixels of length,
        a box in the ViewBox's own pixels would hide."""
        f = self.frame
        if f is None or f.scene is None:
            return 0.0
        lines = [b.xy for b in f.scene.boundaries] + [b.xy for over in f.overlays for b in over]
        if f.truth is not None:
            lines += [b.xy for b in f.truth.boundaries]
        lines = [xy for xy in lines if len(xy)]
        px = self._to_vb_pixels(_joined(lines)) if lines else None
        return 0.0 if px is None else length_inside(px, (rect.left(), rect.top(), rect.width(), rect.height()))

    def _to_vb_pixels(self, X: np.ndarray) -> np.ndarray | None:
        """Data points as the ViewBox's own pixels (None when the view or the box is empty)."""
        x0, x1, y0, y1 = self.view_bounds()
        w, h = self.vb.width(), self.vb.height()
        if len(X) == 0 or x1 <= x0 or y1 <= y0 or w <= 0 or h <= 0:
            return None
        return np.column_stack([(X[:, 0] - x0) / (x1 - x0) * w, (y1 - X[:, 1]) / (y1 - y0) * h])

    def legend_rect(self, offset) -> QRectF:
        """The legend's box in the ViewBox's pixels when placed at ``offset`` (pyqtgraph's: positive
        from the left or top, negative from the right or bottom)."""
        b = self.legend.boundingRect()
        w, h = self.vb.width(), self.vb.height()
        x = offset[0] if offset[0] >= 0 else w + offset[0] - b.width()
        y = offset[1] if offset[1] >= 0 else h + offset[1] - b.height()
        return QRectF(x, y, b.width(), b.height())

    def emptiest_corner(self) -> tuple[int, int]:
        """The legend's offset: the corner where its box hides the least, worst first: the SGD step's ring, the
        probe's label, a whole class (every point of it), the points, then the boundaries (top left on a tie)."""
        corners = ((10, 10), (-10, 10), (10, -10), (-10, -10))
        if self.legend is None:
            return corners[0]
        ring = self._spot_box()
        return corners[self.least_hiding([self.legend_rect(c) for c in corners], self._obstacles(),
                                         first=lambda box: (ring is not None and box.intersects(ring),))]

    def _spot_box(self) -> QRectF | None:
        """The SGD step's ring, in the ViewBox's pixels (None when there is none)."""
        spot = self._spot_drawn
        px = self._to_vb_pixels(np.array([spot])) if spot is not None else None
        if px is None:
            return None
        reach = SGD_RING * self.style.point_size / 2 + SGD_RING_WIDTH * self.style.scale
        return QRectF(px[0, 0] - reach, px[0, 1] - reach, 2 * reach, 2 * reach)

    def least_hiding(self, boxes, obstacles, first=lambda box: ()) -> int:
        """The index of the box (the ViewBox's own pixels) that hides the least: ``first(box)`` before all (what it
        must not cover), then :meth:`hidden_by` ``obstacles``, then, between boxes as good on those only, the
        length of boundary under it (the costlier measure); the earliest on a tie. The legend's corner and the
        probe label's diagonal are chosen by it."""
        hidden = [(*first(box), *self.hidden_by(box, obstacles)) for box in boxes]
        fewest = [i for i, cost in enumerate(hidden) if cost == min(hidden)]
        if len(fewest) == 1:
            return fewest[0]
        return min(fewest, key=lambda i: (self.lines_under(boxes[i]), i))

    def _obstacles(self):
        """What a legend could hide: the probe's label (its box in the ViewBox's pixels, or None), the points in
        the ViewBox's pixels (every k-th of many) and their classes (the document's class indices)."""
        label = self.probe_label
        probe = self.vb.mapRectFromScene(label.sceneBoundingRect()) if label.isVisible() else None
        X, labels = self._points[0], self._points[1]
        if len(X) > 20_000:  # a count, not a census: every k-th point
            step = len(X) // 20_000
            X, labels = X[::step], labels[::step]
        return probe, self._to_vb_pixels(X), np.asarray(labels, dtype=np.intp)

    def hidden_by(self, rect: QRectF, obstacles=None) -> tuple[int, int, int]:
        """What a box in the ViewBox's own pixels would hide, worst first: the probe's label (1 or 0), how many
        classes it hides every point of, and how many points (with their markers)."""
        probe, px, codes = obstacles if obstacles is not None else self._obstacles()
        over_label = int(probe is not None and probe.intersects(rect))
        if px is None:
            return over_label, 0, 0
        box = (rect.left(), rect.top(), rect.width(), rect.height())
        return (over_label, *marks_hidden(px, codes, box, self.style.point_size / 2))

    def mouseMoveEvent(self, ev):  # noqa: N802
        """At most one move every MOVE_INTERVAL reaches the plot, as pyqtgraph paces them; a move that comes
        sooner is held back and delivered when its time comes, unless another replaces it first."""
        wait = self._move_at + MOVE_INTERVAL - time.perf_counter()
        if wait > 0:
            self._held_move = ev.clone()  # Qt reuses the event it hands over
            if not self._move_timer.isActive():
                self._move_timer.start(max(1, int(np.ceil(1000 * wait))))
            return
        self._move_timer.stop()
        self._held_move = None
        self._move_at = time.perf_counter()
        super().mouseMoveEvent(ev)

    def _deliver_held_move(self) -> None:
        ev, self._held_move = self._held_move, None
        if ev is not None:
            self._move_at = time.perf_counter()
            super().mouseMoveEvent(ev)

    def _drop_held_move(self) -> None:
        """A press or a release carries its own position; the cursor that left takes its readout away."""
        self._move_timer.stop()
        self._held_move = None

    def mousePressEvent(self, ev):  # noqa: N802
        self._drop_held_move()
        super().mousePressEvent(ev)

    def mouseReleaseEvent(self, ev):  # noqa: N802
        self._drop_held_move()
        super().mouseReleaseEvent(ev)

    def leaveEvent(self, ev):
        self._drop_held_move()
        self._hover_global = None
        self.left.emit()
        super().leaveEvent(ev)

    def enterEvent(self, ev):  # noqa: N802
        """The cursor is over the canvas again without a move (a dialog over it closed): the readout under it
        comes back at once, not at the next move."""
        super().enterEvent(ev)
        pixel = self.viewport().mapFromGlobal(QCursor.pos())
        if self.viewport().rect().contains(pixel):
            self._on_mouse_moved(self.mapToScene(pixel))


def _joined(lines) -> np.ndarray:
    sep = np.full((1, 2), np.nan)
    return np.vstack([part for line in lines for part in (line, sep)])


def _same_line(item, xy: np.ndarray) -> bool:
    """``item`` holds the polyline ``xy`` (NaN rows between pieces) already. (A line that moved differs in its
    first vertex: told apart without a pass over both.)"""
    x, y = item.getData()
    return (x is not None and len(x) == len(xy) and np.array_equal(x[:1], xy[:1, 0], equal_nan=True)
            and np.array_equal(x, xy[:, 0], equal_nan=True) and np.array_equal(y, xy[:, 1], equal_nan=True))


def _set_line(item, lines) -> None:
    """Polylines into one curve item (NaN rows between them), or nothing."""
    if lines:
        xy = _joined(lines)
        item.setData(xy[:, 0], xy[:, 1], connect="finite")
    else:
        item.setData([], [])
    item.setVisible(bool(lines))  # an empty curve hidden costs the view nothing to pass by
