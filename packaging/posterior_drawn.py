"""Screenshot the virtual screen and check that the fruit lesson's posterior heatmap is drawn: large
areas of its two classes' tints (orange for apple, blue for peach, as probviz.colors gives them).
Usage: DISPLAY=... QT_QPA_PLATFORM=xcb python posterior_drawn.py OUT.png"""

import sys

from PySide6.QtGui import QGuiApplication

app = QGuiApplication(sys.argv[:1])
image = app.primaryScreen().grabWindow(0).toImage()
image.save(sys.argv[1])
orange = blue = 0
for y in range(0, image.height(), 4):
    for x in range(0, image.width(), 4):
        c = image.pixelColor(x, y)
        r, g, b = c.red(), c.green(), c.blue()
        orange += r > 200 and 140 < g < 210 and b < 170 and r - b > 60
        blue += b > 180 and r < 170 and b - r > 50
total = (image.width() // 4) * (image.height() // 4)
print(f"posterior tints: orange {orange / total:.1%}, blue {blue / total:.1%} of the screen")
sys.exit(0 if orange > 0.05 * total and blue > 0.05 * total else 1)
