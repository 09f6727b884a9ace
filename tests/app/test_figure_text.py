"""Every exported figure's text stays on the page and clear of other text, in PDF, PNG and SVG.

The glyphs' boxes are read back from the PDF by pdfium (an independent reader); the PNG (Qt) and the SVG
drawn by resvg must show ink in each of those boxes: the same text at the same place in every format.
The figures are made as a person makes them, with the command line, in states that crowd the page: a
small page with long names, presentation scale, every line style in the legend, learning curves on a
log axis, a training run's E(w)."""

import re

import numpy as np
import pytest
from PySide6.QtGui import QImage

from probviz import cli
from probviz.data import examples
from probviz.data.session import write_session

LONG = "a class name long enough to crowd the legend"


def _crowded_session(path):
    s = examples.session("fruit")
    d = s.dataset
    d.class_names = [LONG, LONG.replace("a class", "another class")]
    d.axis_names = ("roughness of the skin, measured by hand", "colour from green to red, by eye")
    write_session(str(path), s)
    return str(path)


def _figures(tmp_path) -> dict:
    """name -> (command line without its output, the option that takes the figure's path)."""
    crowded = _crowded_session(tmp_path / "crowded.probviz")
    return {
        "the lesson": (["export", "example:fruit"], "-o"),
        "a small page, long names and title": (["export", crowded, "--width", "420", "--height", "320", "--title",
                                                "LDA on two fruits whose names are long, on a small page"], "-o"),
        "presentation scale": (["export", "example:fruit", "--scale", "1.8", "--width", "1024", "--height", "768"],
                               "-o"),
        "every line style": (["export", "example:fruit", "--compare", "logistic", "--width", "700", "--height",
                              "500", "--layers", "heatmap,boundaries,ellipses,truth,points"], "-o"),
        "learning curves": (["curve", "example:fruit", "--sizes", "4,8,16,32,64,128,256,512,1000", "--seeds", "2",
                             "--width", "640", "--height", "420"], "-o"),
        "a training run's E(w)": (["export", "example:fruit", "--model", "logistic", "--optimizer", "gd", "--steps",
                                   "40", "-o", str(tmp_path / "fit.png"), "--width", "500", "--height", "360"],
                                  "--curve"),
    }


def _glyphs(path):
    """The PDF's glyph boxes (left, top, right, bottom) in page pixels from the top, their characters,
    and the page size in points."""
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(path)[0]
    w, h = page.get_size()
    text = page.get_textpage()
    boxes, chars = [], []
    for i in range(text.count_chars()):
        ch = text.get_text_range(i, 1)
        if not ch.strip():
            continue
        left, bottom, right, top = text.get_charbox(i)
        box = (left, h - top, right, h - bottom)
        if boxes and np.allclose(box, boxes[-1]):  # a ligature: "fi" is one glyph for two characters
            chars[-1] += ch
            continue
        boxes.append(box)
        chars.append(ch)
    return np.array(boxes), chars, (w, h)


def _raster(path, width, height) -> np.ndarray:
    if path.endswith(".svg"):
        import resvg_py

        mm = float(re.search(r'width="([\d.]+)mm"', open(path).read(400)).group(1))
        png = resvg_py.svg_to_bytes(svg_path=path, width=width, height=height, background="white",
                                    dpi=25.4 * width / mm)
        img = QImage.fromData(bytes(png))
    else:
        img = QImage(path)
    img = img.convertToFormat(QImage.Format.Format_RGBA8888)
    arr = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine() // 4, 4)
    return arr[:height, :width, :3].astype(int)


@pytest.mark.parametrize("name", ["the lesson", "a small page, long names and title", "presentation scale",
                                  "every line style", "learning curves", "a training run's E(w)"])
def test_text_stays_on_the_page_and_clear_of_other_text_in_every_format(qapp, tmp_path, name):
    args, option = _figures(tmp_path)[name]
    paths = {ext: str(tmp_path / f"figure.{ext}") for ext in ("pdf", "png", "svg")}
    for path in paths.values():
        assert cli.main([*args, option, path]) == 0
    boxes, chars, (pw, ph) = _glyphs(paths["pdf"])
    assert len(chars) > 20, chars
    left, top, right, bottom = boxes.T
    off = (left < -0.5) | (top < -0.5) | (right > pw + 0.5) | (bottom > ph + 0.5)
    assert not off.any(), [chars[i] for i in np.flatnonzero(off)]

    # no two glyphs overlap by more than a sliver (a kerned pair touches; colliding labels cover each other)
    ix = np.clip(np.minimum(right[:, None], right) - np.maximum(left[:, None], left), 0, None)
    iy = np.clip(np.minimum(bottom[:, None], bottom) - np.maximum(top[:, None], top), 0, None)
    area = (right - left) * (bottom - top)
    overlap = ix * iy / np.maximum(np.minimum(area[:, None], area), 1e-9)
    np.fill_diagonal(overlap, 0)
    i, j = np.unravel_index(np.argmax(overlap), overlap.shape)
    context = lambda k: "".join(chars[max(0, k - 8):k + 8])  # noqa: E731
    assert overlap[i, j] < 0.2, (context(i), context(j), overlap[i, j])

    # the PNG and the SVG draw each glyph where the PDF does
    width, height = QImage(paths["png"]).width(), QImage(paths["png"]).height()
    scale = width / pw
    for ext in ("png", "svg"):
        rgb = _raster(paths[ext], width, height)
        missing = []
        for k, (l, t, r, b) in enumerate(boxes * scale):
            if r - l < 1.5 or b - t < 1.5:
                continue  # a full stop or a minus sign: too thin to test by ink
            patch = rgb[max(0, int(t) - 1):int(np.ceil(b)) + 1, max(0, int(l) - 1):int(np.ceil(r)) + 1]
            spread = patch.max(axis=(0, 1)) - patch.min(axis=(0, 1))
            if spread.max() < 60:  # no ink: one flat colour where the PDF has a glyph
                missing.append(chars[k])
        assert len(missing) <= 0.02 * len(chars), (ext, "".join(missing))


@pytest.mark.parametrize("sizes,shown", [([4, 8, 16, 32, 64, 128, 256, 512, 1000], "4 8 16 32 64 128 256 512 1000"),
                                         ([5, 10, 20, 40], "8 16 32"), ([3, 6, 12, 24, 48, 96], "4 8 16 32 64 96"),
                                         ([10, 1000], "16 32 64 128 256 512 1000")])
def test_learning_curves_label_sizes_inside_the_axis_only(sizes, shown):
    """Powers of two inside the sizes run, and the largest size when no power of two is near it: no tick
    beyond the axis's end (a "1024" past a run that ends at 1000)."""
    from probviz.app.export import learning_curves

    result = {"sizes": sizes, "bayes_error": 0.1,
              "models": {"lda": {"name": "lda", "mean": [0.2] * len(sizes), "errors": [[0.2, 0.2]] * len(sizes)}}}
    _, _, (x0, x1, _, _), labels = learning_curves(result)
    assert " ".join(text for _, text in labels) == shown
    assert all(x0 - 1e-9 <= v <= x1 + 1e-9 for v, _ in labels)
