"""Qt pens for the lines of the look table (probviz.style.LOOK): the canvas's (cosmetic, widths in the
screen's device pixels, so a line keeps its thickness at 200% scaling) and the figures' (real widths,
the same in every renderer)."""

from __future__ import annotations

import functools

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen

from probviz.style import LOOK, Style

DASHES = {"solid": Qt.PenStyle.SolidLine, "dash": Qt.PenStyle.DashLine, "dot": Qt.PenStyle.DotLine,
          "dashdot": Qt.PenStyle.DashDotLine}


def _role(style: Style, role: str, color):
    return {"fg": style.foreground, "bg": style.background}.get(role, color)


def _qcolor(c) -> QColor:
    return QColor(c) if isinstance(c, str) else QColor(*c)


def _join(cosmetic: bool) -> Qt.PenJoinStyle:
    """Round joins for figures; bevelled on screen (cosmetic pens). The canvas's curves are polylines of short
    segments turning a few degrees at each vertex, where a bevel and a round join differ by far less than a
    pixel, and Qt strokes a bevel's outline with fewer vertices: 1.4 ms less a paint for QDA at 10,000 points."""
    return Qt.PenJoinStyle.BevelJoin if cosmetic else Qt.PenJoinStyle.RoundJoin


def line_pen(style: Style, line: str, color=None, ratio: float = 1.0, cosmetic: bool = True) -> QPen:
    """The pen of a line of kind ``line``; ``color`` is the class's colour for "class" lines; ``ratio``
    the device pixel ratio a cosmetic pen's width is multiplied by. A pen of its own (a copy of the one made
    for these arguments the first time: the canvas asks for its pens with every frame and every edit)."""
    try:
        return QPen(_line_pen(style, line, color, ratio, cosmetic))
    except TypeError:  # a colour that is not hashable (a list of components)
        return _line_pen.__wrapped__(style, line, color, ratio, cosmetic)


@functools.lru_cache(maxsize=256)
def _line_pen(style: Style, line: str, color, ratio: float, cosmetic: bool) -> QPen:
    stroke = LOOK[line]
    qc = _qcolor(_role(style, stroke.role, color))
    if stroke.opacity < 1:
        qc.setAlphaF(stroke.opacity * qc.alphaF())
    pen = QPen(qc, style.width(line) * ratio, DASHES[stroke.dash], Qt.PenCapStyle.RoundCap, _join(cosmetic))
    pen.setCosmetic(cosmetic)
    return pen


def outline_pen(style: Style, line: str, ratio: float = 1.0, cosmetic: bool = True) -> QPen | None:
    """The background outline under a line of kind ``line``, or None when it has none."""
    width = style.outline_width(line)
    if not width:
        return None
    pen = QPen(_qcolor(style.background), width * ratio, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
               _join(cosmetic))
    pen.setCosmetic(cosmetic)
    return pen
