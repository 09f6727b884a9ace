"""Sizes and colours of a plot, on screen and in figures: one place, plain numbers (no Qt)."""

from __future__ import annotations

from dataclasses import dataclass

PT_TO_PX = 96.0 / 72.0  # text sizes are points at 96 dpi


@dataclass(frozen=True)
class Style:
    """``scale`` enlarges text, markers and lines (presentation mode is 1.8); ``dark`` the theme."""

    scale: float = 1.0
    dark: bool = False

    @property
    def point_size(self) -> float:
        return 11 * self.scale

    @property
    def boundary_width(self) -> float:
        return 3.0 * self.scale

    @property
    def ellipse_width(self) -> float:
        return 1.6 * self.scale

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
