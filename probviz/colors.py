"""Colour-blind-safe class colours (Okabe & Ito) as plain RGB tuples; no Qt here."""

from __future__ import annotations

import numpy as np

#: Okabe-Ito, reordered so that the first classes contrast most with each other and with white.
OKABE_ITO = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#E69F00",  # orange
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",  # black
)


def hex_to_rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    if len(c) != 6:
        raise ValueError(f"not a #RRGGBB colour: {color!r}")
    return tuple(int(c[i:i + 2], 16) for i in (0, 2, 4))


def class_color(index: int) -> str:
    """The default colour of the class at this position; cycles after eight."""
    return OKABE_ITO[index % len(OKABE_ITO)]


def rgb_array(colors) -> np.ndarray:
    """(K, 3) float32 in [0, 255] from hex strings or RGB tuples."""
    return np.array([hex_to_rgb(c) if isinstance(c, str) else c[:3] for c in colors], dtype=np.float32)
