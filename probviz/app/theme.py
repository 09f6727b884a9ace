"""Light and dark themes for the widgets (the canvas has its own Style)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QImage, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle


class DarkStyle(QProxyStyle):
    """Fusion for the dark palette. Fusion draws the dock title bars' float and close buttons dark grey, and an
    unticked box (in a panel or a menu) with an outline darker than the window: on the dark window both all but
    vanished. Here the buttons are drawn in the palette's text colour, and a box's or a radio button's outline
    in that colour half-way to the window's."""

    INKED = (QStyle.StandardPixmap.SP_TitleBarNormalButton, QStyle.StandardPixmap.SP_TitleBarCloseButton,
             QStyle.StandardPixmap.SP_DockWidgetCloseButton)

    def __init__(self):
        super().__init__("Fusion")

    def standardIcon(self, standard, option=None, widget=None):  # noqa: N802 (Qt's name)
        icon = super().standardIcon(standard, option, widget)
        if standard not in self.INKED:
            return icon
        ink = QApplication.palette().color(QPalette.ColorRole.WindowText)
        inked = QIcon()
        for size in icon.availableSizes() or [QSize(16, 16)]:
            inked.addPixmap(_in_ink(icon.pixmap(size).toImage(), ink))
        return inked

    def drawPrimitive(self, element, option, painter, widget=None):  # noqa: N802 (Qt's name)
        super().drawPrimitive(element, option, painter, widget)
        box = element == QStyle.PrimitiveElement.PE_IndicatorCheckBox
        if not box and element != QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            return
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        text = option.palette.color(QPalette.ColorRole.WindowText)
        back = option.palette.color(QPalette.ColorRole.Window)
        mix = 0.55 if enabled else 0.25  # of the text's colour: an outline, quieter than the text
        outline = QColor(*(round(mix * a + (1 - mix) * b) for a, b in zip(text.getRgb()[:3], back.getRgb()[:3])))
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(outline, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = QRectF(option.rect).adjusted(0.5, 0.5, -1.5, -1.5)  # Fusion's own outline, on its pixels
        if box:
            painter.drawRect(rect)
        else:
            painter.drawEllipse(rect)
        painter.restore()


def _in_ink(image: QImage, ink: QColor) -> QPixmap:
    """The image's shape in ``ink``: each pixel as opaque as it was dark (the darkest fully), its colour ink's."""
    argb = image.convertToFormat(QImage.Format.Format_ARGB32)
    h, w = argb.height(), argb.width()
    px = np.frombuffer(argb.constBits(), np.uint8).reshape(h, argb.bytesPerLine() // 4, 4)[:, :w]  # B, G, R, A
    alpha = px[..., 3] / 255.0
    dark = (1.0 - px[..., :3].mean(axis=2) / 255.0) * alpha
    weight = dark / dark.max() if dark.max() > 0 else dark
    out = np.empty((h, w, 4), np.uint8)
    out[..., 0], out[..., 1], out[..., 2] = ink.blue(), ink.green(), ink.red()
    out[..., 3] = np.round(255 * weight).astype(np.uint8)
    result = QImage(out.tobytes(), w, h, 4 * w, QImage.Format.Format_ARGB32)
    return QPixmap.fromImage(result.copy())


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
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Highlight, QColor(90, 90, 96))  # a disabled slider's
    app.setPalette(p)  # fill grey, as the light palette has it (it kept the blue)
    app.setStyle(DarkStyle())  # after the palette, whose ink it draws the title bar buttons in (it owns it)
