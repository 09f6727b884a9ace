"""Sizes and colours of a plot, on screen and in figures: one place, plain numbers (no Qt)."""

from __future__ import annotations

from dataclasses import dataclass

PT_TO_PX = 96.0 / 72.0  # text sizes are points at 96 dpi


@dataclass(frozen=True)
class Stroke:
    """How one kind of line is drawn, on screen and in every figure: the role of its colour ("fg", the
    theme's foreground; "bg", its background; "class", the class's own colour), its width in pixels at
    scale 1, its dash ("solid", "dash", "dot" or "dashdot"), the width a background outline adds
    under it (0: none), so that it reads on any heatmap, and its opacity."""

    role: str
    width: float
    dash: str = "solid"
    outline: float = 0.0
    opacity: float = 1.0


#: the look of each line a frame draws: one table, read by the canvas and the figure painter alike
LOOK = {
    "boundary": Stroke("fg", 3.0, outline=2.5),  # the shown model's decision boundaries
    "compared": Stroke("fg", 3.0, "dash", outline=2.5),  # a compared model's
    "truth_boundary": Stroke("fg", 1.8, "dashdot", outline=2.0),  # the Bayes-optimal boundary
    "ellipse": Stroke("class", 1.6),  # Mahalanobis radius 1, 2, 3
    "density": Stroke("class", 1.12, "dot"),  # iso-density contours
    "truth_ellipse": Stroke("class", 1.6, "dot"),  # the truth's 2-sigma ellipses
    "section": Stroke("fg", 2.0, "dash"),  # the cross-section line
    "misclassified": Stroke("fg", 1.5),  # the cross on a misclassified point
    "point_edge": Stroke("bg", 1.2),  # the ring around each point
    "probe": Stroke("fg", 2.5),  # the probe's ring
    "sample": Stroke("fg", 1.0, opacity=0.35),  # a boundary of weights drawn from q(w) (Bayesian view)
    "weight_probe": Stroke("fg", 2.5, "dot", outline=2.0),  # the boundary of weights clicked in weight space
    "rbf_center": Stroke("fg", 2.0, outline=2.0),  # the edge of an RBF centre's open diamond (and its halo)
    "hatch": Stroke("fg", 2.2, opacity=120 / 255),  # a stripe of one-vs-rest's undecided regions' hatching
}

#: a curve's colour that means the theme's foreground, whatever it is (black on light, white on dark)
INK = "ink"

#: the diameter of a cross-section's end marks, filled discs of the foreground (pixels at scale 1)
SECTION_END = 7.0

#: the ring round the point a stochastic gradient descent step used, in the foreground: its diameter in marker
#: sizes and its line's width in pixels at scale 1 (the canvas, the figures and matplotlib alike); a legend's
#: sample of it is SGD_KEY marker sizes across, its line thinner in proportion
SGD_RING, SGD_RING_WIDTH, SGD_KEY = 2.2, 3.0, 1.25
#: the line width of the legend's sample of the ring (pixels at scale 1): the ring's, in proportion to its size
SGD_KEY_WIDTH = SGD_KEY / SGD_RING * SGD_RING_WIDTH

#: the hatching's stripes rise to the right, this many pixels apart (along x) at scale 1
HATCH_PERIOD = 9.0


@dataclass(frozen=True)
class Style:
    """``scale`` enlarges text, markers and lines (presentation mode is 1.8); ``dark`` the theme."""

    scale: float = 1.0
    dark: bool = False

    @property
    def point_size(self) -> float:
        return 11 * self.scale

    def width(self, line: str) -> float:
        """The width of a line of kind ``line`` (a key of LOOK) at this style's scale."""
        return LOOK[line].width * self.scale

    def outline_width(self, line: str) -> float:
        """The width of its background outline (the line's own width plus the outline's), 0 for none."""
        stroke = LOOK[line]
        return (stroke.width + stroke.outline) * self.scale if stroke.outline else 0.0

    @property
    def boundary_width(self) -> float:
        return self.width("boundary")

    @property
    def ellipse_width(self) -> float:
        return self.width("ellipse")

    @property
    def font_size(self) -> int:
        """Points."""
        return int(round(11 * self.scale))

    @property
    def font_px(self) -> float:
        return self.font_size * PT_TO_PX

    @property
    def background(self) -> tuple:
        return (24, 24, 28) if self.dark else (255, 255, 255)

    @property
    def foreground(self) -> tuple:
        return (235, 235, 235) if self.dark else (20, 20, 20)

    @property
    def reject(self) -> tuple:
        return (90, 90, 96) if self.dark else (170, 170, 170)
