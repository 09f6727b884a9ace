"""Drive the real window as a person does: data coordinates mapped to pixels, clicks, drags, keys."""

import numpy as np
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest


def settle(win):
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    win.refitter.flush()
    QApplication.processEvents()


def to_pixel(win, x, y) -> QPoint:
    """Data coordinates -> canvas widget pixels, through the ViewBox."""
    scene_pt = win.canvas.vb.mapViewToScene(QPointF(x, y))
    return win.canvas.mapFromScene(scene_pt)


def click(qtbot, win, x, y, button=Qt.MouseButton.LeftButton):
    qtbot.mouseClick(win.canvas.viewport(), button, pos=to_pixel(win, x, y))
    settle(win)


def drag(qtbot, win, start, end, steps=8):
    vp = win.canvas.viewport()
    a, b = to_pixel(win, *start), to_pixel(win, *end)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    for t in np.linspace(0, 1, steps + 1)[1:]:
        p = QPoint(round(a.x() + t * (b.x() - a.x())), round(a.y() + t * (b.y() - a.y())))
        QTest.qWait(12)  # pyqtgraph drops mouse moves closer than 10 ms (its mouseRateLimit)
        qtbot.mouseMove(vp, p)
        settle(win)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=b)
    settle(win)


def key(qtbot, win, k, mod=Qt.KeyboardModifier.NoModifier):
    qtbot.keyClick(win.canvas, k, mod)
    settle(win)


def type_into(qtbot, win, field, text: str):
    """Click into a NumberField's box, replace its text by typing, press Enter: as a person types."""
    edit = field.spin.lineEdit()
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    settle(win)


def menu_action(window, text):
    """The menu bar's action of this text (its mnemonic's & left out)."""
    for menu in window.menuBar().actions():
        for action in menu.menu().actions():
            if action.text().replace("&", "") == text:
                return action
    raise AssertionError(f"no menu action {text!r}")


def show_lab(window):
    """View > Lab panel, then its tab (the dock shares the panel's place with the others): a Lab behind
    another tab draws nothing."""
    if not window.lab_dock.isVisible():
        menu_action(window, "Lab panel (true model, samples, comparison)").trigger()
    window.lab_dock.raise_()
    settle(window)
    QTest.qWait(50)


def click_dock_tab(qtbot, window, title: str):
    """Click the tab of the tabbed dock named ``title``, as a person brings a panel to the front."""
    from PySide6.QtWidgets import QTabBar

    for bar in window.findChildren(QTabBar):
        for i in range(bar.count()):
            if bar.tabText(i).replace("&", "") == title and bar.isVisible():
                qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(i).center())
                settle(window)
                QTest.qWait(50)
                settle(window)
                return
    raise AssertionError(f"no dock tab {title!r}")


def menu_item(win, *path):
    """The action at ``path`` of the menu bar (texts without their &), each menu opened on the way (a menu
    that fills or enables its entries as it opens does so)."""
    actions = win.menuBar().actions()
    for i, text in enumerate(path):
        found = next((a for a in actions if a.text().replace("&", "") == text), None)
        assert found is not None, f"no menu entry {' > '.join(path[:i + 1])!r}"
        if i == len(path) - 1:
            return found
        menu = found.menu()
        menu.aboutToShow.emit()
        actions = menu.actions()


def present(qtbot, win, source: str, size=(1024, 768)):
    """``source`` (a deck, an example) opened in the window at a projector's ``size``, then F5 pressed in the
    active window, as a teacher starts a lesson."""
    win.resize(*size)
    assert win.open_path(source)
    settle(win)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    qtbot.keyClick(win, Qt.Key.Key_F5)
    settle(win)


def assert_reads(window, here) -> None:
    """The readout under the cursor names ``here`` (a QPointF in data coordinates) to the pixel: each coordinate
    within a pixel of it, written with as many decimals as a pixel's size needs (ceil(-log10 of it), none for a
    pixel of 1 or more)."""
    import math
    import re

    text = window.hover.text()
    found = re.match(r"x = (-?\d+(?:\.(\d+))?), y = (-?\d+(?:\.(\d+))?)(?:\s|$)", text)
    assert found is not None, text
    for value, places, want, pixel in ((found.group(1), found.group(2), here.x(), window.canvas.vb.viewPixelSize()[0]),
                                       (found.group(3), found.group(4), here.y(), window.canvas.vb.viewPixelSize()[1])):
        assert abs(float(value) - want) <= pixel, (text, want, pixel)
        assert len(places or "") == max(0, math.ceil(-math.log10(pixel))), (text, pixel)


def drawn_tick_labels(axis) -> list[str]:
    """The tick labels a pyqtgraph ``axis`` draws (it leaves out one that reaches past the axis's end)."""
    from PySide6.QtGui import QImage, QPainter

    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _rect, _flags, text in specs[2]]
