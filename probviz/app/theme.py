"""Light and dark themes for the widgets (the canvas has its own Style)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QImage, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle


class DarkStyle(QProxyStyle):
    """Fusion, whose dock title bars' float and close buttons are drawn dark on light: in the dark theme they
    are drawn inverted, light on dark, as legible as the rest of the window."""

    INVERTED = (QStyle.StandardPixmap.SP_TitleBarNormalButton, QStyle.StandardPixmap.SP_TitleBarCloseButton,
                QStyle.StandardPixmap.SP_DockWidgetCloseButton)

    def __init__(self):
        super().__init__("Fusion")

    def standardIcon(self, standard, option=None, widget=None):  # noqa: N802 (Qt's name)
        icon = super().standardIcon(standard, option, widget)
        if standard not in self.INVERTED:
            return icon
        inverted = QIcon()
        for size in icon.availableSizes() or [QSize(16, 16)]:
            image = icon.pixmap(size).toImage().convertToFormat(QImage.Format.Format_ARGB32)
            image.invertPixels(QImage.InvertMode.InvertRgb)  # the alpha kept: the same shape, light
            inverted.addPixmap(QPixmap.fromImage(image))
        return inverted


def desktop_prefers_dark() -> bool:
    """The desktop's light or dark preference (Qt's colour scheme), where the platform says."""
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def apply_theme(dark: bool) -> None:
    """Fusion with a light or a dark palette (and light title bar buttons on the dark one)."""
    app = QApplication.instance()
    if app is None:
        return
    if not dark:
        app.setStyle("Fusion")
        app.setPalette(app.style().standardPalette())
        return
    app.setStyle(DarkStyle())  # the application owns it
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
