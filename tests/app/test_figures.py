"""Figures are right: in every format, at every dpi, in both themes, a point at (a, b) is drawn
where the exported axes' ticks say (a, b) is. Each file is read back by an independent renderer
(QImage for PNG, pypdfium2 for PDF, Qt's QSvgRenderer and resvg for SVG), and the tick marks
and point centres are found in the pixels."""

import os
import re
import stat

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from scipy import ndimage

from probviz.app.export import export_figure
from probviz.data.dataset import Dataset
from probviz.data.session import Session
from probviz.style import Style

W, H = 560, 420
VIEW = (-1.0, 4.0, -1.0, 3.0)
BLUE, ORANGE = "#0072B2", "#D55E00"


@pytest.fixture
def grid_session():
    """Points on an integer grid, x in 0..3, y in 0..2, two classes; only the points layer."""
    xs, ys = np.meshgrid(np.arange(4.0), np.arange(3.0))
    X = np.vstack([np.column_stack([xs.ravel(), ys.ravel()]), [[1.0, -1.3]]])  # the last one: below the view
    labels = (X[:, 0] >= 2).astype(int)
    data = Dataset(X, labels, ["left", "right"], [BLUE, ORANGE], ("x", "y"))
    return Session(data, "lda", layers=["points"], view=VIEW)


def to_array(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_RGBA8888)
    arr = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine() // 4, 4)
    return arr[:, :img.width(), :3].astype(int)


def raster(path: str, kind: str) -> np.ndarray:
    """The file as W x H RGB pixels, drawn by a renderer other than the one that wrote it."""
    if kind == "png":
        return to_array(QImage(path))
    if kind == "pdf":
        import pypdfium2 as pdfium

        page = pdfium.PdfDocument(path)[0]
        w_pt, _ = page.get_size()
        bitmap = page.render(scale=W / w_pt, rev_byteorder=True)  # RGB(A) byte order
        return bitmap.to_numpy()[:H, :W, :3].astype(int)
    if kind == "svg-qt":
        img = QImage(W, H, QImage.Format.Format_RGBA8888)
        img.fill(Qt.GlobalColor.white)
        p = QPainter(img)
        QSvgRenderer(path).render(p)
        p.end()
        return to_array(img)
    import resvg_py

    dpi = 25.4 * W / float(re.search(r'width="([\d.]+)mm"', open(path).read(400)).group(1))
    png = resvg_py.svg_to_bytes(svg_path=path, width=W, height=H, background="white", dpi=dpi)
    return to_array(QImage.fromData(bytes(png)))


def blobs(rgb: np.ndarray, color: str) -> np.ndarray:
    """Centres (x, y) of the regions of exactly this colour (point cores; edges are antialiased)."""
    c = np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)])
    mask = np.all(np.abs(rgb - c) <= 6, axis=2)
    lab, n = ndimage.label(mask)
    centres = ndimage.center_of_mass(mask, lab, range(1, n + 1))
    sizes = ndimage.sum(mask, lab, range(1, n + 1))
    return np.array([(x, y) for (y, x), s in zip(centres, sizes) if s >= 20])


def axis_ticks(rgb: np.ndarray, fg) -> tuple[np.ndarray, np.ndarray, float, float]:
    """The bottom and left axis lines (the longest runs of the foreground colour) and the centres of
    the tick marks just outside them."""
    bg = 255 - np.array(fg) if fg[0] < 128 else np.array((24, 24, 28))
    coverage = np.abs(rgb - bg).sum(axis=2) / np.abs(np.array(fg) - bg).sum()
    ink = coverage > 0.3  # a 1-pixel line split over two rows still shows
    row = int(np.argmax(ink.sum(axis=1)))  # the bottom axis
    col = int(np.argmax(ink.sum(axis=0)))  # the left axis
    below = ink[row + 2:row + 4].any(axis=0)
    below[:col - 1] = False
    lab, n = ndimage.label(below)
    xt = np.array([np.mean(np.flatnonzero(lab == i)) for i in range(1, n + 1)])
    left = ink[:, col - 4:col - 2].any(axis=1)
    left[row + 2:] = False
    lab, n = ndimage.label(left)
    yt = np.array([np.mean(np.flatnonzero(lab == i)) for i in range(1, n + 1)])
    return xt, yt, row, col


FORMATS = [("png", 96, "png"), ("png", 150, "png"), ("png", 300, "png"), ("pdf", 96, "pdf"), ("pdf", 300, "pdf"),
           ("svg", 96, "svg-qt"), ("svg", 96, "svg-resvg"), ("svg", 300, "svg-resvg")]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("ext,dpi,reader", FORMATS)
def test_points_sit_where_the_ticks_say(qapp, tmp_path, grid_session, ext, dpi, reader, dark):
    path = str(tmp_path / f"f.{ext}")
    style = Style(1.0, dark)
    export_figure(grid_session, path, W, H, legend=False, dpi=dpi, style=style)
    rgb = raster(path, reader)
    assert rgb.shape[:2] == (H, W)
    xt, yt, axis_row, axis_col = axis_ticks(rgb, style.foreground)
    # ticks every 1 on both axes for this view and size: x at -1..4, y at -1..3
    assert len(xt) == 6 and len(yt) == 5, (xt, yt)
    assert np.ptp(np.diff(xt)) <= 1.5 and np.ptp(np.diff(yt)) <= 1.5  # evenly spaced (marks snap to pixels)
    x_of = lambda v: xt[0] + (v + 1) * np.mean(np.diff(xt))  # noqa: E731 - tick k is the value k - 1
    y_of = lambda v: yt[-1] - (v + 1) * np.mean(np.diff(yt))  # noqa: E731 - rows grow downward
    for color, xs in ((BLUE, (0, 1)), (ORANGE, (2, 3))):
        found = blobs(rgb, color)
        assert len(found) == 6, (color, found)  # the point outside the view is clipped away
        expected = np.array([(x_of(x), y_of(y)) for x in xs for y in (0, 1, 2)])
        for e in expected:  # every point's centre within 1.5 pixels of its tick crossing
            assert np.min(np.hypot(*(found - e).T)) < 1.5, (e, found)
    # the plot area starts where the axes are drawn: the tick at -1 is on the left axis
    assert abs(xt[0] - axis_col) < 1.5 and abs(yt[-1] - axis_row) < 1.5


def test_svg_tick_labels_are_text_at_their_ticks(qapp, tmp_path, grid_session):
    """The labels say what the ticks are: each x label is centred on the column of its value's points."""
    path = str(tmp_path / "f.svg")
    export_figure(grid_session, path, W, H, legend=False)
    svg = open(path).read()
    rgb = raster(path, "svg-resvg")
    found = np.vstack([blobs(rgb, BLUE), blobs(rgb, ORANGE)])
    columns = sorted(set(np.round(found[:, 0], 0)))
    assert len(columns) == 4
    for value, x_px in zip(("0", "1", "2", "3"), columns):
        m = re.search(rf'<text[^>]*x="([\d.]+)"[^>]*>\s*{value}\s*</text>', svg) or re.search(
            rf'x="([\d.]+)"[^>]*\n?[^<]*>{value}</text>', svg)
        assert m, value
        x_text = float(m.group(1))
        assert abs(x_text + 4.5 - x_px) < 6, (value, x_text, x_px)  # a digit is about 9 px wide at 15 px


def test_svg_text_names_a_css_generic_family_last(qapp, tmp_path, grid_session):
    """Qt writes font-family="Sans Serif", which no CSS renderer knows; every text names real families
    and ends with the generic sans-serif, so any renderer draws a sans face of about the measured width."""
    path = str(tmp_path / "f.svg")
    export_figure(grid_session, path, W, H)
    families = re.findall(r'font-family="([^"]*)"', open(path).read())
    assert families and all(f.split(",")[-1].strip() == "sans-serif" for f in families), set(families)
    assert not any("Sans Serif" in f for f in families)


def test_svg_and_pdf_sizes_follow_the_dpi(qapp, tmp_path, grid_session):
    import pypdfium2 as pdfium

    export_figure(grid_session, str(tmp_path / "a.svg"), W, H, dpi=300)
    head = open(tmp_path / "a.svg").read(400)
    w_mm = float(re.search(r'width="([\d.]+)mm"', head).group(1))
    assert w_mm == pytest.approx(W / 300 * 25.4, rel=1e-3)
    export_figure(grid_session, str(tmp_path / "a.pdf"), W, H, dpi=150)
    w_pt, h_pt = pdfium.PdfDocument(str(tmp_path / "a.pdf"))[0].get_size()
    assert w_pt == pytest.approx(W / 150 * 72, abs=0.5) and h_pt == pytest.approx(H / 150 * 72, abs=0.5)
    export_figure(grid_session, str(tmp_path / "a.png"), W, H, dpi=300)
    img = QImage(str(tmp_path / "a.png"))
    assert round(img.dotsPerMeterX() * 0.0254) == 300 and (img.width(), img.height()) == (W, H)


def test_dark_theme_heatmap_and_boundary_read_on_dark(qapp, tmp_path):
    """The heatmap is blended over the dark background, and the boundary has a dark outline."""
    from probviz.data.examples import load

    s = Session(load("fruit"), "lda", layers=["heatmap", "boundaries"], view=(-1, 3, -1, 4))
    export_figure(s, str(tmp_path / "d.png"), 600, 450, legend=False, style=Style(1.0, True))
    rgb = raster(str(tmp_path / "d.png"), "png")
    inner = rgb[60:380, 120:580]
    assert inner.mean() < 110  # a dark picture, not the light heatmap
    light = np.all(inner > 200, axis=2)  # the boundary line: light pixels
    assert light.sum() > 200
    ys, xs = np.nonzero(light)
    # next to the line, within its outline, sits the dark background colour
    near = [inner[y + d, x] for y, x in zip(ys[::25], xs[::25]) for d in (-3, 3) if 0 <= y + d < inner.shape[0]]
    assert min(np.abs(np.array(near) - (24, 24, 28)).sum(axis=1)) < 30


def test_unwritable_target_says_why_and_nothing_is_left_behind(qapp, tmp_path, grid_session):
    with pytest.raises(OSError, match="directory does not exist"):
        export_figure(grid_session, str(tmp_path / "no" / "such" / "x.png"))
    target = tmp_path / "keep.png"
    target.write_bytes(b"old")
    os.chmod(target, 0o644)
    export_figure(grid_session, str(target), 200, 150)
    assert QImage(str(target)).width() == 200
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o666 & ~_umask()
    assert [p.name for p in tmp_path.iterdir()] == ["keep.png"]  # no temporary file left


def test_a_failed_export_keeps_the_old_file(qapp, tmp_path, grid_session, monkeypatch):
    import probviz.app.export as export

    target = tmp_path / "keep.svg"
    target.write_text("old")

    def boom(*a, **k):
        raise RuntimeError("disk full")

    monkeypatch.setattr(export, "paint_figure", boom)
    with pytest.raises(RuntimeError):
        export_figure(grid_session, str(target), 200, 150)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["keep.svg"]


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m


@pytest.mark.parametrize("ext,dpi,reader", [("png", 150, "png"), ("pdf", 96, "pdf"), ("svg", 96, "svg-resvg")])
def test_the_reject_region_is_where_max_p_is_below_theta_in_every_format(qapp, tmp_path, ext, dpi, reader):
    """Grey (the reject colour) exactly where the model does not decide: the grey pixels, mapped back
    through the axes' ticks, have max_k p(C_k|x) < theta, and the grey share of the plot matches the
    share of the view where max p < theta."""
    from probviz.models import create

    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal([1.0, 1.0], 0.6, (30, 2)), rng.normal([2.0, 1.5], 0.6, (30, 2))])
    labels = np.repeat([0, 1], 30)
    data = Dataset(X, labels, ["a", "b"], [BLUE, ORANGE], ("x", "y"))
    session = Session(data, "lda", layers=["decision"], view=VIEW, theta=0.9)
    path = str(tmp_path / f"r.{ext}")
    style = Style(1.0, False)
    export_figure(session, path, W, H, legend=False, dpi=dpi, style=style)
    rgb = raster(path, reader)
    to_data, xt, yt, _, _ = plot_to_data(rgb, style.foreground)
    grey = np.all(np.abs(rgb - np.array(style.reject)) <= 2, axis=2)
    model = create("lda").fit(X, labels)
    p = model.predict_proba(to_data(*np.nonzero(grey))).max(axis=1)
    assert np.mean(p < 0.9 + 0.01) > 0.995  # grey pixels are undecided points (edge pixels aside)
    u, v = np.meshgrid(np.linspace(-1, 4, 501), np.linspace(-1, 3, 401))
    share = np.mean(model.predict_proba(np.c_[u.ravel(), v.ravel()]).max(axis=1) < 0.9)
    plot_pixels = (xt[-1] - xt[0]) * (yt[-1] - yt[0])
    assert grey.sum() / plot_pixels == pytest.approx(share, rel=0.03)


@pytest.mark.parametrize("ext,dpi,reader", [("png", 96, "png"), ("png", 300, "png"), ("pdf", 300, "pdf"),
                                            ("svg", 150, "svg-resvg")])
def test_curves_sit_where_the_ticks_say(qapp, tmp_path, ext, dpi, reader):
    """The error plot (and every line plot): a level line at E = 3 from step 1 to 4 lies on the row and
    between the columns the ticks give, in every format, read back by another renderer."""
    from probviz.app.export import export_curves

    path = str(tmp_path / f"c.{ext}")
    export_curves(path, [("", [1, 4], [3, 3], BLUE, False)], width=W, height=H, dpi=dpi, bounds=(0, 5, 0, 5))
    rgb = raster(path, reader)
    xt, yt, _, _ = axis_ticks(rgb, Style().foreground)
    x_of = lambda v: xt[0] + v * np.mean(np.diff(xt))  # noqa: E731 - ticks every 1 from 0
    y_of = lambda v: yt[-1] - v * np.mean(np.diff(yt))  # noqa: E731
    assert len(xt) == 6 and len(yt) == 6, (xt, yt)
    c = np.array([int(BLUE[i:i + 2], 16) for i in (1, 3, 5)])
    ys, xs = np.nonzero(np.all(np.abs(rgb - c) <= 40, axis=2))
    assert abs(np.median(ys) - y_of(3)) < 1.5
    assert abs(xs.min() - x_of(1)) < 2.5 and abs(xs.max() - x_of(4)) < 2.5


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_curve_in_the_ink_is_drawn_in_the_themes_foreground(qapp, tmp_path, dark):
    """A cross-section's Φ(λa) curve was coloured #222222 in every figure: unseen on the dark theme's background.
    A curve of colour INK is drawn in the theme's foreground, light or dark, where the ticks say."""
    from probviz.app.export import export_curves
    from probviz.style import INK

    style = Style(1.0, dark)
    path = str(tmp_path / "ink.png")
    export_curves(path, [("", [1, 4], [3, 3], INK, False)], width=W, height=H, bounds=(0, 5, 0, 5), style=style)
    rgb = raster(path, "png")
    xt, yt, _, _ = axis_ticks(rgb, style.foreground)
    y3 = yt[-1] - 3 * np.mean(np.diff(yt))
    band = rgb[int(round(y3)) - 2:int(round(y3)) + 3, int(xt[1] + 5):int(xt[4] - 5)].astype(int)  # along the curve
    ink = np.array(style.foreground[:3])
    nearest = np.abs(band - ink).max(axis=2).min(axis=0)  # each column's pixel nearest the ink, across the line
    assert np.all(nearest <= 40), nearest
    assert np.abs(ink - np.array(style.background[:3])).max() > 150


@pytest.mark.parametrize("ext,reader", [("png", "png"), ("svg", "svg-resvg"), ("pdf", "pdf")])
def test_held_out_points_are_hollow_in_figures(qapp, tmp_path, grid_session, ext, reader):
    """A session's train/test split: the held-out points are drawn with a hole in the middle (the
    background colour at their centre), the others solid, where the ticks say they are."""
    from probviz.pipeline import held_out_mask

    grid_session.split = (0.5, 3)
    path = str(tmp_path / f"h.{ext}")
    frame = export_figure(grid_session, path, W, H, legend=False)
    held = held_out_mask(len(grid_session.dataset.X), 0.5, 3)
    assert frame.request.held_out is not None and np.array_equal(frame.request.held_out, held)
    assert 0 < held[:-1].sum() < len(held) - 1
    rgb = raster(path, reader)
    xt, yt, _, _ = axis_ticks(rgb, Style().foreground)
    x_of = lambda v: xt[0] + (v + 1) * np.mean(np.diff(xt))  # noqa: E731
    y_of = lambda v: yt[-1] - (v + 1) * np.mean(np.diff(yt))  # noqa: E731
    X, labels = grid_session.dataset.X, grid_session.dataset.labels
    wrong = frame.fit.wrong
    seen = {True: 0, False: 0}
    for (x, y), k, h, w in zip(X[:-1], labels[:-1], held[:-1], wrong[:-1]):  # the last point is outside the view
        if w:
            continue  # a misclassified point is crossed out at its centre
        seen[bool(h)] += 1
        c = rgb[int(round(y_of(y))), int(round(x_of(x)))]
        colour = np.array([int((BLUE, ORANGE)[k][i:i + 2], 16) for i in (1, 3, 5)])
        if h:
            assert np.all(c >= 235), (x, y, c)
        else:
            assert np.abs(c - colour).max() <= 12, (x, y, c)
    assert seen[True] >= 2 and seen[False] >= 2  # hollow and solid points both checked


def fill_ratios(rgb: np.ndarray, color: str) -> list[float]:
    """For each region of this colour (a marker's core): the share of its bounding box it fills. A
    circle fills pi/4 of its box, a square all of it, a triangle or a diamond half of it."""
    c = np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)])
    mask = np.all(np.abs(rgb - c) <= 40, axis=2)
    lab, n = ndimage.label(mask)
    out = []
    for i, box in enumerate(ndimage.find_objects(lab), start=1):
        region = lab[box] == i
        if region.size >= 100:  # a marker, not a stray antialiased pixel
            out.append(region.sum() / region.size)
    return out


GREEN = "#009E73"
MARKED = np.array([[1.0, -4.0], [2.5, -3.0], [3.5, -5.0]])
MARKED_VIEW = (-1.0, 4.0, -6.0, 3.0)  # the points far below the legend in the top left corner


@pytest.mark.parametrize("ext,reader", [("png", "png"), ("pdf", "pdf"), ("svg", "svg-qt"), ("svg", "svg-resvg")])
def test_each_class_has_its_own_marker_shape_in_figures_and_their_legend(qapp, tmp_path, ext, reader):
    """In greyscale every class used to be the same circle: the first class is a circle, the second a
    square, the third a triangle, in the plot and in the legend alike."""
    data = Dataset(MARKED, np.array([0, 1, 2]), ["a", "b", "c"], [BLUE, ORANGE, GREEN], ("x", "y"))
    session = Session(data, "lda", layers=["points"], view=MARKED_VIEW)
    path = str(tmp_path / f"m.{ext}")
    export_figure(session, path, W, H, legend=True, style=Style(1.8), dpi=96)  # 20-pixel markers
    rgb = raster(path, reader)
    circle, square, triangle = (fill_ratios(rgb, c) for c in (BLUE, ORANGE, GREEN))
    assert len(circle) == len(square) == len(triangle) == 2  # the point and its legend entry
    assert all(0.70 < r < 0.86 for r in circle), circle
    assert all(r > 0.9 for r in square), square
    assert all(0.4 < r < 0.6 for r in triangle), triangle


def test_each_class_has_its_own_marker_shape_on_the_canvas_and_its_legend(qtbot):
    from probviz.app.canvas import Canvas

    canvas = Canvas()
    qtbot.addWidget(canvas)
    canvas.resize(W, H)
    canvas.show()
    qtbot.waitExposed(canvas)
    canvas.apply_style(Style(1.8))
    canvas.set_points(MARKED, np.array([0, 1, 2]), [BLUE, ORANGE, GREEN], ["points"])
    canvas.vb.setRange(xRange=MARKED_VIEW[:2], yRange=MARKED_VIEW[2:], padding=0)
    canvas.set_legend(True, "", [("a", BLUE, "circle"), ("b", ORANGE, "square"), ("c", GREEN, "triangle")])
    rgb = to_array(canvas.grab().toImage())
    circle, square, triangle = (fill_ratios(rgb, c) for c in (BLUE, ORANGE, GREEN))
    assert len(circle) == len(square) == len(triangle) == 2
    assert all(0.70 < r < 0.86 for r in circle), circle
    assert all(r > 0.9 for r in square), square
    assert all(0.4 < r < 0.6 for r in triangle), triangle


def test_a_figure_streams_into_a_named_pipe_in_a_folder_it_cannot_write(qapp, grid_session, tmp_path, monkeypatch):
    """As /dev/null for a user who is not root: the pipe is written in place, so its folder's
    permissions do not matter (the figure used to be refused with "directory is not writable")."""
    import threading

    fifo = tmp_path / "fig.png"
    os.mkfifo(fifo)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if mode & os.W_OK and os.path.samefile(
        p, tmp_path) else real_access(p, mode, **kw))
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    keep = os.open(fifo, os.O_WRONLY)  # blocks until the reader has the pipe open
    try:
        export_figure(grid_session, str(fifo), W, H, legend=False)
    finally:
        os.close(keep)
    reader.join(10)
    assert got and got[0].startswith(b"\x89PNG\r\n\x1a\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.listdir(tmp_path) == ["fig.png"]
    assert not QImage.fromData(got[0]).isNull()


def _pdf_text(path):
    """A PDF page's text, its characters' boxes (left, bottom, right, top) in points, and the page size."""
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(path)[0]
    text = page.get_textpage()
    boxes = [text.get_charbox(i) for i in range(text.count_chars())]
    return " ".join(text.get_text_range().split()), boxes, page.get_size()


def test_the_legend_explains_every_line_style_drawn_and_stays_on_the_page(qapp, tmp_path):
    """The compared model dashed, the truth dash-dotted, held-out points hollow: one legend row each, with
    its sample, only when drawn; a model name longer than the figure is elided, never cut by the page."""
    from probviz.data.examples import session

    s = session("fruit")
    s.compare, s.split = "logistic", (0.1, 0)
    s.layers = ["heatmap", "boundaries", "points", "truth"]
    path = str(tmp_path / "lab.pdf")
    export_figure(s, path, 700, 500)
    text, _, _ = _pdf_text(path)
    for row in ("LDA (shared covariance): boundary", "Logistic regression: boundary", "true model: Bayes boundary",
                "held out (25), not fitted"):
        assert row in text, (row, text)
    plain = session("fruit")
    plain.layers = ["heatmap", "boundaries", "points"]
    export_figure(plain, path, 700, 500)
    text, _, _ = _pdf_text(path)
    assert "boundary" not in text and "held out" not in text, text  # no other lines drawn: no such rows
    assert "misclassified (" in text and "class means" not in text  # crosses on the points; no ellipses
    plain.layers = ["boundaries", "ellipses"]
    export_figure(plain, path, 700, 500)
    text, _, _ = _pdf_text(path)
    assert "class means" in text and "misclassified" not in text, text  # no points layer: no crosses
    export_figure(s, path, 420, 320, model_label="An extremely long model description " * 4)
    text, boxes, (pw, ph) = _pdf_text(path)
    for left, bottom, right, top in boxes:
        assert -0.5 <= left and right <= pw + 0.5 and -0.5 <= bottom and top <= ph + 0.5, (left, right, pw)
    assert "An extremely long" in text and "…" in text, text


@pytest.mark.parametrize("ext,reader", [("png", "png"), ("pdf", "pdf"), ("svg", "svg-resvg")])
def test_the_legend_has_a_row_for_the_reject_option_s_grey(qapp, tmp_path, ext, reader):
    """Reject θ set with the decision regions shown: the plot has grey regions where no decision is taken, and
    the legend said nothing of them. It has a row, "rejected, no decision (θ = 0.9)", whose sample is a square of
    the regions' grey, in every format; with θ = 0 there are no grey regions and no such row."""
    from probviz.data.examples import session

    grey = np.array(Style().reject)

    def legend_greys(theta):
        s = session("fruit")
        s.layers, s.theta, s.view = ["decision", "points"], theta, (-1.0, 3.5, -1.0, 5.0)
        with_legend, without = str(tmp_path / f"r.{ext}"), str(tmp_path / f"n.{ext}")
        export_figure(s, with_legend, W, H, legend=True, dpi=96)
        export_figure(s, without, W, H, legend=False, dpi=96)
        a, b = raster(with_legend, reader), raster(without, reader)
        rows, cols = np.nonzero(np.abs(a - b).sum(axis=2) > 30)
        box = a[rows.min():rows.max() + 1, cols.min():cols.max() + 1]  # the legend
        labels, count = ndimage.label(np.abs(box - grey).max(axis=2) <= 8)
        squares = []
        for sl in ndimage.find_objects(labels):
            h, w = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
            if h >= 6 and abs(h - w) <= 2:
                squares.append((h, w))
        return squares, with_legend

    squares, path = legend_greys(0.9)
    assert len(squares) == 1, squares  # the row's sample: one square of the regions' grey
    if ext == "pdf":
        text, _, _ = _pdf_text(path)
        assert "rejected, no decision (θ = 0.9)" in text, text
    squares, path = legend_greys(0.0)
    assert squares == []
    if ext == "pdf":
        assert "rejected" not in _pdf_text(path)[0]


@pytest.mark.parametrize("ext,reader", [("png", "png"), ("pdf", "pdf"), ("svg", "svg-resvg")])
def test_a_misclassified_point_at_the_other_class_s_mean_shows_its_cross(qapp, tmp_path, ext, reader):
    """An apple exactly at the peaches' mean (misclassified): its cross was drawn under the mean's "+" and its
    halo, and could not be seen (the legend counted it). The crosses are drawn over the means: the cross's arms
    are ink where the halo alone would be background, read back through the axes' ticks."""
    rng = np.random.default_rng(3)
    A, B = rng.normal([0.5, 0.5], 0.4, (12, 2)), rng.normal([3.0, 2.0], 0.4, (12, 2))
    X = np.vstack([A, B, B.mean(axis=0)])
    labels = np.r_[np.zeros(12, int), np.ones(12, int), 0]  # the last: an apple where the peaches' mean is
    data = Dataset(X, labels, ["a", "b"], [BLUE, ORANGE], ("x", "y"))
    fg = Style().foreground
    ref, out = str(tmp_path / f"ref.{ext}"), str(tmp_path / f"f.{ext}")
    export_figure(Session(data, "lda", layers=["points"], view=VIEW), ref, W, H, legend=False, dpi=96)
    frame = export_figure(Session(data, "lda", layers=["points", "ellipses"], view=VIEW), out, W, H, legend=False,
                          dpi=96)
    assert frame.wrong[-1]  # misclassified indeed
    xt, yt, _, _ = axis_ticks(raster(ref, reader), fg)  # the same layout: the same view, size and names
    col = xt[0] + (X[-1, 0] + 1.0) * np.mean(np.diff(xt))  # the ticks sit at whole numbers from -1
    row = yt[-1] - (X[-1, 1] + 1.0) * np.mean(np.diff(yt))
    rgb = raster(out, reader)
    arms = [rgb[int(round(row + dy)), int(round(col + dx))] for dx in (-1.5, 1.5) for dy in (-1.5, 1.5)]
    assert all(np.abs(a - np.array(fg)).sum() < 300 for a in arms), arms  # ink, not the halo's background


def plot_to_data(rgb: np.ndarray, fg):
    """The plot's frame found in the pixels and a map from pixel (rows, cols) to data coordinates through the
    ticks, which sit at whole numbers from VIEW's -1: (to_data, xt, yt, row, col), row and col the axes."""
    xt, yt, row, col = axis_ticks(rgb, fg)
    dx, dy = np.mean(np.diff(xt)), np.mean(np.diff(yt))

    def to_data(rows, cols):
        return np.c_[(np.asarray(cols) - xt[0]) / dx - 1.0, (yt[-1] - np.asarray(rows)) / dy - 1.0]
    return to_data, xt, yt, row, col


def inked_points(rgb: np.ndarray, fg, threshold: int = 60) -> tuple[np.ndarray, float]:
    """The plot's inked pixels (off white by more than ``threshold``; the axes and what is outside them left
    out) mapped back to data coordinates through the ticks, which sit at whole numbers from VIEW's -1:
    ((n, 2) points, the pixels per data unit along x)."""
    to_data, xt, _, row, col = plot_to_data(rgb, fg)
    ink = np.abs(rgb - 255).sum(axis=2) > threshold
    ink[row - 3:, :] = False
    ink[:, :col + 3] = False
    return to_data(*np.nonzero(ink)), np.mean(np.diff(xt))


def _legend_ink(data, tmp_path, ext, reader):
    """The box (top, bottom, left, right, in pixels) of what the legend adds to the figure of ``data`` (LDA, its
    points only), and the figure drawn without it (RGB)."""
    session = Session(data, "lda", layers=["points"], view=VIEW)
    with_legend, without = str(tmp_path / f"l.{ext}"), str(tmp_path / f"n.{ext}")
    export_figure(session, with_legend, W, H, legend=True, dpi=96)
    export_figure(session, without, W, H, legend=False, dpi=96)
    a, b = raster(with_legend, reader), raster(without, reader)
    rows, cols = np.nonzero(np.abs(a - b).sum(axis=2) > 30)
    assert len(rows), "no legend drawn"
    return (rows.min(), rows.max(), cols.min(), cols.max()), b


@pytest.mark.parametrize("ext,reader", [("png", "png"), ("pdf", "pdf"), ("svg", "svg-resvg")])
def test_the_legend_goes_to_the_corner_where_it_hides_no_point(qapp, tmp_path, ext, reader):
    """Points crowd the top left, the top right and the bottom left of the view; the bottom right is empty:
    the legend (found as what it adds to the figure drawn without it) lies there, over none of the points
    (found in the figure without it), as the canvas places its own. It used to sit in the top left whatever
    it hid."""
    xs, ys = np.meshgrid([0.0, 0.6, 1.2], [0.0, 0.6])
    block = np.column_stack([xs.ravel(), ys.ravel()])  # six points half a unit and more apart
    X = np.vstack([block + (-0.6, 2.0), block + (2.2, 2.0), block + (-0.6, -0.8)])
    labels = (X[:, 0] > 1.8).astype(int)  # split by x: every point fitted right, no crosses over the markers
    data = Dataset(X, labels, ["left", "right"], [BLUE, ORANGE], ("x", "y"))
    (top, bottom, left, right), b = _legend_ink(data, tmp_path, ext, reader)
    assert top > H / 2 and left > W / 2, (top, bottom, left, right)  # the bottom right quadrant
    points = np.vstack([blobs(b, BLUE), blobs(b, ORANGE)])
    assert len(points) == 18  # every point, found in the figure without the legend
    inside = ((points[:, 0] > left - 6) & (points[:, 0] < right + 6)
              & (points[:, 1] > top - 6) & (points[:, 1] < bottom + 6))
    assert not inside.any(), points[inside]


@pytest.mark.parametrize("ext,reader", [("png", "png"), ("pdf", "pdf")])
def test_the_legend_hides_no_class_whole_where_another_corner_hides_none(qapp, tmp_path, ext, reader):
    """A cluster in each corner of the view: top left the whole of a class (three points), top right four,
    bottom left five and bottom right six points of classes with more points elsewhere. The fewest points hide
    top left, but all of a class: the legend (found as what it adds to the figure drawn without it) goes top
    right, as the canvas places its own."""
    corner = {(-0.7, 2.7): (3, 2), (3.7, 2.7): (4, 0), (-0.7, -0.7): (5, 0), (3.7, -0.7): (6, 1)}
    offsets = np.array([[0, 0], [0.12, 0], [0, 0.12], [0.12, 0.12], [0.24, 0], [0, 0.24]]) - 0.06
    X = np.vstack([np.array(c) + offsets[:n] * np.sign([-c[0] + 1.5, -c[1] + 1]) for c, (n, _) in corner.items()]
                  + [np.array([[1.2, 1.0], [1.4, 1.2], [1.6, 0.8], [1.8, 1.1]])])
    labels = np.r_[[k for n, k in corner.values() for _ in range(n)], [0, 1, 0, 1]]
    data = Dataset(X, labels, ["a", "b", "c"], [BLUE, ORANGE, "#009E73"], ("x", "y"))
    (top, bottom, left, right), _ = _legend_ink(data, tmp_path, ext, reader)
    assert bottom < H / 2 and left > W / 2, (top, bottom, left, right)  # the top right quadrant


@pytest.mark.parametrize("view", [VIEW, (-1.0, 4.0, -12_000.0, 31_000.0)])
def test_the_y_axis_name_sits_beside_its_tick_labels(qapp, tmp_path, grid_session, view):
    """The y axis's name is a short gap left of its widest tick label, never on it: short labels ("-1") used
    to leave the name a page margin away, sized for six-character labels. Read back from the PDF's glyph
    boxes."""
    grid_session.view = view
    path = str(tmp_path / "y.pdf")
    style = Style(1.0)
    export_figure(grid_session, path, W, H, legend=False, dpi=96, style=style)
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(path)[0]
    text = page.get_textpage()
    chars = [(text.get_text_range(i, 1), text.get_charbox(i)) for i in range(text.count_chars())]
    name = [box for c, box in chars if c == "y"]
    assert len(name) == 1
    name_right = name[0][2]
    page_width = page.get_size()[0]
    labels = [box for c, box in chars if c in "-0123456789" and box[0] < 0.2 * page_width]
    assert labels  # the y tick labels: the digits in the page's left fifth
    gap = min(box[0] for box in labels) - name_right
    em = style.font_px * 72 / 96
    assert 0.1 * em < gap < 1.5 * em, (gap, em)


@pytest.mark.parametrize("ext,reader", [("png", "png"), ("pdf", "pdf")])
def test_among_corners_free_of_points_the_legend_takes_one_free_of_the_boundary(qapp, tmp_path, ext, reader):
    """No point near any corner, the boundary through the top left and bottom right corners: the legend goes
    where it hides none of the boundary (found as the dark line of the figure drawn without it)."""
    X = np.array([[0.0, 0.5], [0.5, 0.0], [0.0, 0.0], [2.0, 2.0], [2.5, 1.5], [2.0, 1.5]])
    data = Dataset(X, np.array([0, 0, 0, 1, 1, 1]), ["a", "b"], [BLUE, ORANGE], ("x", "y"))
    session = Session(data, "lda", layers=["points", "boundaries"], view=VIEW)
    with_legend, without = str(tmp_path / f"l.{ext}"), str(tmp_path / f"n.{ext}")
    export_figure(session, with_legend, W, H, legend=True, dpi=96)
    export_figure(session, without, W, H, legend=False, dpi=96)
    a, b = raster(with_legend, reader), raster(without, reader)
    rows, cols = np.nonzero(np.abs(a - b).sum(axis=2) > 30)
    top, bottom, left, right = rows.min(), rows.max(), cols.min(), cols.max()
    dark = np.all(b < 70, axis=2)  # the boundary (and the axes, outside the plot)
    assert dark[:, W // 4:].sum() > 100  # a boundary is drawn
    assert not dark[top:bottom + 1, left:right + 1].any(), (top, bottom, left, right)
    corners = {(False, False): "top left", (False, True): "top right", (True, False): "bottom left",
               (True, True): "bottom right"}
    assert corners[(top > H / 2, left > W / 2)] in ("top right", "bottom left")


def test_rings_make_one_even_odd_path_whose_holes_stay_holes(qapp):
    """A square with a square hole and a triangle apart: inside the frame and the triangle filled, the hole and
    the space between them not; each ring its own subpath (one move each), none joined to the next."""
    from PySide6.QtGui import QPainterPath

    from probviz.app.figure import rings_path

    outer = np.array([[0, 0], [4, 0], [4, 4], [0, 4]], float)
    hole = np.array([[1, 1], [3, 1], [3, 3], [1, 3]], float)
    triangle = np.array([[6, 0], [8, 0], [7, 2]], float)
    path = rings_path([outer, hole, triangle])
    assert path.fillRule() == Qt.FillRule.OddEvenFill
    for (x, y), filled in (((0.5, 0.5), True), ((2, 2), False), ((3.5, 2), True), ((7, 0.5), True),
                           ((5, 0.5), False), ((7, 3), False)):
        assert path.contains(QPointF(x, y)) == filled, (x, y)
    moves = [path.elementAt(i).type for i in range(path.elementCount())]
    assert moves.count(QPainterPath.ElementType.MoveToElement) == 3
    assert rings_path([]).isEmpty()


@pytest.mark.parametrize("ext,dpi,reader", [("png", 96, "png"), ("pdf", 300, "pdf"), ("svg", 150, "svg-resvg"),
                                            ("svg", 96, "svg-qt")])
def test_undecided_hatching_is_vector_stripes_inside_the_undecided_region(qapp, tmp_path, ext, dpi, reader):
    """One-vs-rest logistic regression leaves a region where no class, or several, claim a point (Bishop 4.1.2,
    figure 4.2). The figure hatches it with stripes rising to the right: dark ink inside the region the model's
    own scores say is undecided (a_k > 0 for a number of k other than one), none outside it, and in SVG the
    stripes are lines, not an image."""
    from probviz.style import HATCH_PERIOD

    X = np.array([[1.5, 2.6], [1.3, 2.3], [1.7, 2.3], [0.0, 0.0], [0.3, -0.2], [-0.2, 0.3],
                  [3.0, 0.0], [2.7, -0.2], [3.2, 0.3]])
    labels = np.repeat([0, 1, 2], 3)
    data = Dataset(X, labels, ["a", "b", "c"], [BLUE, ORANGE, "#009E73"], ("x", "y"))
    session = Session(data, "logistic", layers=["heatmap"], view=VIEW)
    path = str(tmp_path / f"h.{ext}")
    style = Style(1.0, False)
    frame = export_figure(session, path, W, H, legend=False, dpi=dpi, style=style)
    rgb = raster(path, reader)
    xt, yt, row, col = axis_ticks(rgb, style.foreground)
    dx, dy = np.mean(np.diff(xt)), np.mean(np.diff(yt))
    rows, cols = np.mgrid[0:H, 0:W]
    data_xy = np.c_[(cols.ravel() - xt[0]) / dx - 1.0, (yt[-1] - rows.ravel()) / dy - 1.0]
    a = frame.fit.model.decision_function(data_xy)  # (N, K): the scores a_k at each pixel's centre
    undecided = ((a > 0).sum(axis=1) != 1).reshape(H, W)
    plot = np.zeros((H, W), bool)
    plot[5:row - 3, col + 3:W - 5] = True
    plot &= (data_xy[:, 0] < VIEW[1] - 0.05).reshape(H, W) & (data_xy[:, 1] < VIEW[3] - 0.05).reshape(H, W)
    ink = rgb.mean(axis=2) < 150  # the heatmap is pale; the stripes darken it by about half
    margin = 3  # pixels: antialiased stripe ends and the region's edge traced on the grid
    inner = ndimage.binary_erosion(undecided, iterations=margin) & plot
    outer = ~ndimage.binary_dilation(undecided, iterations=margin) & plot
    assert inner.sum() > 2000 and outer.sum() > 20000  # a real region and a real outside
    assert ink[outer].mean() < 0.002
    assert 0.15 < ink[inner].mean() < 0.5  # stripes 2.2 px wide, 9 px apart along x (6.4 across)
    # rising to the right, HATCH_PERIOD apart: ink repeats one period along x, and along the stripe (x+1, y-1)
    r, c = np.nonzero(inner & ink)
    step = int(round(HATCH_PERIOD))
    ok = (c + step < W) & (r >= 1) & (c + 1 < W)
    assert ink[r[ok], c[ok] + step].mean() > 0.8 and ink[r[ok] - 1, c[ok] + 1].mean() > 0.8
    assert ink[r[ok], (c[ok] + step // 2)].mean() < 0.2  # half a period on: between two stripes
    if ext == "svg":
        svg = open(path).read()
        assert svg.count("<image") == 1  # the heatmap only: the hatching is lines


def test_on_the_canvas_too_the_cross_is_drawn_over_the_mean(qtbot, window):
    """The same apple at the peaches' mean in the window, with the class means shown: the cross's arms are ink
    in the canvas's pixels where the mean's halo alone would be background."""
    from guihelp import settle, to_pixel

    rng = np.random.default_rng(3)
    A, B = rng.normal([0.5, 0.5], 0.4, (12, 2)), rng.normal([3.0, 2.0], 0.4, (12, 2))
    X = np.vstack([A, B, B.mean(axis=0)])
    labels = np.r_[np.zeros(12, int), np.ones(12, int), 0]
    window.load_session(Session(Dataset(X, labels, ["a", "b"], [BLUE, ORANGE], ("x", "y")), "lda",
                                layers=["points", "ellipses"], view=VIEW))
    settle(window)
    assert window.canvas.frame.wrong[-1]
    image = window.canvas.grab().toImage()
    ratio = image.devicePixelRatio()
    at = to_pixel(window, *X[-1])
    fg = np.array(window.canvas.style.foreground)
    arms = []
    for dx in (-2, 2):
        for dy in (-2, 2):
            c = image.pixelColor(int(round((at.x() + dx) * ratio)), int(round((at.y() + dy) * ratio)))
            arms.append(np.array([c.red(), c.green(), c.blue()]))
    assert all(np.abs(a - fg).sum() < 300 for a in arms), arms


def test_a_curves_legend_keeps_off_a_line_that_has_no_vertex_under_it(qtbot):
    """E(w) of three steps: four vertices, the line between them crossing the top right corner where the legend
    goes first. The legend counted the vertices under it, none, and sat on the line. It now weighs the length
    of line under it and goes to a corner the line does not cross: every pixel of the line keeps its colour."""
    from probviz.app.figure import paint_curves
    from probviz.figure_layout import Layout

    w, h = 800, 600
    lay = Layout(w, h, (60.0, 20.0, 720.0, 540.0), (0.0, 3.0, 0.0, 200.0))
    xs, ys = [0, 1, 2, 3], [60.0, 100.0, 140.0, 199.0]  # its last step rises through the top right corner
    img = QImage(w, h, QImage.Format.Format_RGBA8888)
    img.fill(Qt.GlobalColor.white)
    p = QPainter(img)
    paint_curves(p, lay, [("E(w), Stochastic gradient descent", xs, ys, "#0072B2", False),
                          ("optimum E(w*) = 40.19", [0, 3], [40.0, 40.0], "#555555", True)], Style())
    p.end()
    rgb = to_array(img)
    blue = np.array([0x00, 0x72, 0xB2])
    t = np.linspace(0, 1, 40)[1:-1]
    for (x0, y0), (x1, y1) in zip(zip(xs, ys), zip(xs[1:], ys[1:])):
        for px, py in lay.to_px(np.column_stack([x0 + t * (x1 - x0), y0 + t * (y1 - y0)])):
            patch = rgb[int(py) - 1:int(py) + 2, int(px) - 1:int(px) + 2].reshape(-1, 3)
            assert np.abs(patch - blue).max(axis=1).min() < 40, (px, py)
