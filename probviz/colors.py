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
