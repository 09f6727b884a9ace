"""Colour-blind-safe class colours as plain RGB tuples; no Qt here."""

from __future__ import annotations

import numpy as np

#: Okabe and Ito's colours without black (black draws the boundaries and means), reordered so that
#: the first classes contrast most with each other and with white.
OKABE_ITO = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#E69F00",  # orange
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
)
#: Ten class colours: Okabe-Ito's seven, then three of Paul Tol's muted scheme chosen to stay apart
#: from them under protanopia, deuteranopia and tritanopia (CIELAB distance at least 13 after
#: Machado et al.'s simulation, for every pair).
PALETTE = OKABE_ITO + (
    "#332288",  # indigo
    "#882255",  # wine
    "#117733",  # green
)


def hex_to_rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    if len(c) != 6:
        raise ValueError(f"not a #RRGGBB colour: {color!r}")
    return tuple(int(c[i:i + 2], 16) for i in (0, 2, 4))


def class_color(index: int) -> str:
    """The default colour of the class at this position (cycles after ten, the most classes there are)."""
    return PALETTE[index % len(PALETTE)]


def rgb_array(colors) -> np.ndarray:
    """(K, 3) float32 in [0, 255] from hex strings or RGB tuples."""
    return np.array([hex_to_rgb(c) if isinstance(c, str) else c[:3] for c in colors], dtype=np.float32)


#: A marker shape per class, in the palette's order, so that classes stay apart in greyscale (a
#: washed-out projector, a printed handout) too. The canvas, its legend, the class table and every
#: exported figure draw them from :func:`marker_outline`.
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "pentagon", "star", "hexagon",
           "cross", "triangle-right")


def class_marker(index: int) -> str:
    """The marker shape of the class at this position (cycles like the colours)."""
    return MARKERS[index % len(MARKERS)]


def _regular(n: int, start: float) -> np.ndarray:
    a = np.radians(start + 360.0 * np.arange(n) / n)
    return np.column_stack([np.cos(a), np.sin(a)])


_RAW = {
    "square": np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float),
    "triangle": _regular(3, -90.0),
    "triangle-down": _regular(3, 90.0),
    "triangle-right": _regular(3, 0.0),
    "diamond": _regular(4, -90.0) * (0.85, 1.0),
    "pentagon": _regular(5, -90.0),
    "hexagon": _regular(6, -90.0),
    "star": np.stack([_regular(5, -90.0), 0.45 * _regular(5, -54.0)], axis=1).reshape(-1, 2),
    "cross": np.array([[-1, -3], [1, -3], [1, -1], [3, -1], [3, 1], [1, 1], [1, 3], [-1, 3], [-1, 1],
                       [-3, 1], [-3, -1], [-1, -1]], float),
}


def _area(v: np.ndarray) -> float:
    x, y = v[:, 0], v[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def marker_outline(name: str) -> np.ndarray | None:
    """The marker's outline as (M, 2) vertices for a marker one unit across, centred on 0 (the middle of
    its bounding box), y pointing down (screen and figure pixels); None for the circle (diameter 1).
    Every shape covers as much as the circle, pi/4 square units."""
    if name == "circle":
        return None
    if name not in _RAW:
        raise ValueError(f"no marker shape {name!r}")
    v = _RAW[name]
    v = v - (v.min(axis=0) + v.max(axis=0)) / 2
    return v * np.sqrt(np.pi / 4 / _area(v))
