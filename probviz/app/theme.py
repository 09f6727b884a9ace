"""Light and dark themes for the widgets (the canvas has its own Style)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication


def apply_theme(dark: bool, scale: float = 1.0) -> None:
    """Fusion with a light or dark palette, and the base font scaled (presentation mode)."""
    app = QApplication.instance()
    if app is None:
        return
    app.setStyle("Fusion")
    if not hasattr(app, "_probviz_font"):
        app._probviz_font = app.font()
    font = app._probviz_font.__class__(app._probviz_font)
    size = app._probviz_font.pointSizeF()
    if size > 0:
        font.setPointSizeF(size * scale)
    app.setFont(font)
    if not dark:
        app.setPalette(app.style().standardPalette())
        return
    p = QPalette()
    base, window, text = QColor(30, 30, 34), QColor(44, 44, 50), QColor(232, 232, 232)
    for role, color in ((QPalette.ColorRole.Window, window), (QPalette.ColorRole.WindowText, text),
                        (QPalette.ColorRole.Base, base), (QPalette.ColorRole.AlternateBase, window),
                        (QPalette.ColorRole.Text, text), (QPalette.ColorRole.Button, window),
                        (QPalette.ColorRole.ButtonText, text), (QPalette.ColorRole.ToolTipBase, window),
                        (QPalette.ColorRole.ToolTipText, text),
                        (QPalette.ColorRole.Highlight, QColor(86, 180, 233)),
                        (QPalette.ColorRole.HighlightedText, QColor(0, 0, 0))):
        p.setColor(role, color)
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor(120, 120, 120))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor(120, 120, 120))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(120, 120, 120))
    app.setPalette(p)
