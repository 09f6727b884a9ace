"""probviz.plot draws into matplotlib where the axes say: checked on the pixels Agg renders, against
positions known without probviz (a boundary fixed by symmetry, points placed by hand, the lecture's
probe value)."""

import io

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

import probviz  # noqa: E402
from probviz.colors import hex_to_rgb  # noqa: E402
from probviz.mpl import Drawing  # noqa: E402


def _axes(width_in=6.0, height_in=5.0, dpi=100):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = Figure(figsize=(width_in, height_in), dpi=dpi)
    FigureCanvasAgg(fig)
    return fig.add_axes((0.12, 0.12, 0.8, 0.8))


def _pixels(ax) -> np.ndarray:
    """The figure as Agg draws it: (rows, cols, 3), row 0 at the top."""
    ax.figure.canvas.draw()
    return np.asarray(ax.figure.canvas.buffer_rgba())[:, :, :3].astype(int)


def _to_px(ax, x, y) -> tuple[float, float]:
    """Data (x, y) -> (column, row) of the pixel array (display y counts from the bottom)."""
    dx, dy = ax.transData.transform((x, y))
    return dx, ax.figure.bbox.height - dy


def _to_data_x(ax, column: float) -> float:
    return ax.transData.inverted().transform((column, 0))[0]


@pytest.mark.parametrize("c,scale", [(0.7, 1.0), (1e6 + 3.0, 1.0), (2e-6, 1e-6), (-3e5, 1e5)])
def test_a_boundary_fixed_by_symmetry_is_drawn_where_the_axes_put_it(c, scale):
    """Two classes, each the other's mirror image in the line x = c: LDA's boundary (equal priors,
    Bishop eq. 4.66) is that line. The darkest column on a row of the rendered figure is at x = c."""
    half = np.array([[-1.0, 0.0], [-1.5, 1.0], [-0.5, -1.0], [-2.0, 0.4]]) * scale
    X = np.r_[half + [c, 0], half * [-1, 1] + [c, 0]]
    y = np.repeat(["left", "right"], 4)
    ax = _axes()
    view = (c - 3 * scale, c + 2 * scale, -2 * scale, 2 * scale)  # c off the middle
    probviz.plot(X, y, model="lda", ax=ax, layers=["boundaries"], legend=False, view=view)
    assert ax.get_xlim() == view[:2] and ax.get_ylim() == view[2:]  # the view asked for
    img = _pixels(ax)
    for y_data in (-1.3 * scale, 0.2 * scale, 1.7 * scale):
        col, row = _to_px(ax, c, y_data)
        left, right = ax.bbox.x0 + 3, ax.bbox.x1 - 3  # inside the axes' frame
        line = img[round(row)].sum(axis=1)
        dark = np.flatnonzero(line < line.max() * 0.25)
        dark = dark[(dark > left) & (dark < right)]
        assert len(dark), "no boundary on this row"
        found = _to_data_x(ax, dark.mean() + 0.5)  # pixel j covers [j, j + 1)
        assert abs(found - c) <= 1.0 * (view[1] - view[0]) / ax.bbox.width, (found, c)


def test_points_are_drawn_at_their_coordinates_in_their_class_colours():
    X = np.array([[1.0, 1.0], [4.0, 2.5], [2.5, 4.0]])
    ax = _axes(dpi=120)
    drawing = probviz.plot(X, ["u", "v", "w"], model="nb", ax=ax, layers=["points"], legend=False,
                           view=(0, 5, 0, 5))
    colors = [hex_to_rgb(c) for c in drawing.frame.request.colors]
    img = _pixels(ax)
    for (x, y), rgb in zip(X, colors):
        col, row = _to_px(ax, x, y)
        near = np.abs(img - rgb).sum(axis=2) < 30
        rows, cols = np.nonzero(near)
        assert len(rows) > 20, "the class colour is not there"
        # a marker is centred on its bounding box (a triangle's area is not); a sharp corner's pixels are
        # only partly the colour, so the box may lose a pixel on that side
        assert abs((cols.min() + cols.max() + 1) / 2 - col) < 1.5 and abs((rows.min() + rows.max() + 1) / 2 - row) < 1.5


def test_the_lesson_draws_the_lectures_probe_value_and_the_windows_names():
    """The fruit lesson with LDA: p(apple|x) = 0.823 at x = (2.3, 1.5) (the lecture's worked example)."""
    drawing = probviz.plot("example:fruit", model="lda", ax=_axes())
    assert drawing.artists["probe"][1].get_text() == "p(apple|x) = 0.823"
    legend = drawing.artists["legend"][0]
    assert legend.get_title().get_text() == "LDA (shared covariance)"
    texts = [t.get_text() for t in legend.get_texts()]
    assert texts[:2] == ["apple", "peach"] and "class means" in texts


def test_a_compared_model_is_dashed_and_the_truth_dash_dotted_as_on_screen():
    drawing = probviz.plot("example:fruit", model="logistic", compare="qda", ax=_axes(),
                           layers=["heatmap", "boundaries", "truth", "points"])
    assert {a.get_linestyle() for a in drawing.artists["compared"]} == {"--"}
    assert {a.get_linestyle() for a in drawing.artists["boundaries"]} == {"-"}
    truth_lines = [a for a in drawing.artists["truth"] if a.get_linestyle() == "-."]
    assert truth_lines, "the Bayes boundary is not dash-dotted"
    texts = [t.get_text() for t in drawing.artists["legend"][0].get_texts()]
    assert "QDA (own covariances): boundary" in texts and "true model: Bayes boundary" in texts


def test_a_session_file_draws_its_split_hollow(tmp_path):
    from probviz.data import examples
    from probviz.data.session import write_session

    session = examples.session("fruit")
    session.split = (0.2, 4)
    path = tmp_path / "lesson.probviz"
    write_session(str(path), session)
    drawing = probviz.plot(path, ax=_axes())
    held = drawing.artists["held_out"][0].get_offsets()
    assert len(held) == round(0.2 * 250)  # a split holds out round(f n) points


def test_without_an_axes_a_figure_of_its_own_shows_itself_as_a_png():
    import matplotlib.image
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    drawing = probviz.plot("example:fruit", model="qda")
    assert isinstance(drawing, Drawing) and plt.get_fignums() == before  # no pyplot window opened
    png = matplotlib.image.imread(io.BytesIO(drawing._repr_png_()), format="png")
    assert png.shape[:2] == (int(4.8 * 96), int(6.4 * 96))


@pytest.mark.parametrize("call,message", [
    (lambda: probviz.plot(np.zeros((3, 2))), "points need their labels"),
    (lambda: probviz.plot(np.zeros((3, 3)), [0, 1, 1]), "shape (N, 2)"),
    (lambda: probviz.plot(np.zeros((3, 2)), [0, 1]), "3 points and 2 labels"),
    (lambda: probviz.plot([[0, 0], [np.nan, 1]], [0, 1]), "NaN"),
    (lambda: probviz.plot("example:fruit", model="svm"), "unknown model 'svm'"),
    (lambda: probviz.plot("example:fruit", compare="svm"), "unknown model 'svm'"),
    (lambda: probviz.plot("example:fruit", layers=["heat"]), "unknown layer 'heat'"),
    (lambda: probviz.plot("example:fruit", view=(1, 0, 0, 1)), "is empty"),
    (lambda: probviz.plot("example:fruit", resolution=1), "out of range"),
])
def test_bad_arguments_say_what_is_wrong(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert message in str(e.value)


def test_a_model_that_cannot_fit_draws_the_points_and_says_why():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [3.0, 3.0], [4.0, 3.0], [3.0, 4.0]])
    drawing = probviz.plot(X, [0, 0, 1, 1, 2, 2], model="fisher", ax=_axes())
    assert len(drawing.artists["points"]) == 3
    assert "two classes" in drawing.artists["note"][0].get_text()


def test_the_readmes_example_runs_as_written(tmp_path, monkeypatch):
    """The README's matplotlib example, copied as a reader copies it: it runs and writes its two figures."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    code = re.search(r"## In matplotlib and Jupyter.*?```python\n(.*?)```", readme, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    names = {}
    exec(compile(code, "README.md", "exec"), names)
    assert (tmp_path / "fruit.pdf").stat().st_size > 10_000 and (tmp_path / "qda.png").stat().st_size > 10_000
    assert repr(names["drawing"]).startswith("<probviz Drawing: QDA (own covariances); heatmap, boundaries")
    assert len(repr(names["drawing"])) < 200  # a notebook keeps this text beside the image: no arrays


def test_one_vs_rest_undecided_region_is_hatched_where_the_scores_say():
    """Logistic regression's one-vs-rest undecided region (no class, or several, with a_k > 0; Bishop 4.1.2) is
    hatched by matplotlib over exactly that region, a vector patch (not an image of the grid)."""
    from matplotlib.patches import PathPatch

    X = np.array([[1.5, 2.6], [1.3, 2.3], [1.7, 2.3], [0.0, 0.0], [0.3, -0.2], [-0.2, 0.3],
                  [3.0, 0.0], [2.7, -0.2], [3.2, 0.3]])
    ax = _axes(dpi=100)
    drawing = probviz.plot(X, np.repeat(["a", "b", "c"], 3), model="logistic", ax=ax, layers=["heatmap"],
                           legend=False, view=(-1, 4, -1, 3))
    [patch] = drawing.artists["undecided"]
    assert isinstance(patch, PathPatch) and patch.get_hatch() == "///"
    assert len(drawing.artists["heatmap"]) == 1 and len(ax.images) == 1  # the heatmap is the only image
    img = _pixels(ax)
    h, w = img.shape[:2]
    rows, cols = np.mgrid[0:h, 0:w]
    xy = ax.transData.inverted().transform(np.c_[cols.ravel() + 0.5, h - (rows.ravel() + 0.5)])
    a = drawing.frame.fit.model.decision_function(xy)
    undecided = ((a > 0).sum(axis=1) != 1).reshape(h, w)
    x0, y0 = ax.transData.transform((-1, -1))
    x1, y1 = ax.transData.transform((4, 3))
    plot = (cols > x0 + 3) & (cols < x1 - 3) & (rows > h - y1 + 3) & (rows < h - y0 - 3)
    from scipy import ndimage

    ink = img.mean(axis=2) < 150
    inner = ndimage.binary_erosion(undecided, iterations=3) & plot
    outer = ~ndimage.binary_dilation(undecided, iterations=3) & plot
    assert inner.sum() > 2000 and outer.sum() > 20000
    assert ink[outer].mean() < 0.002 and ink[inner].mean() > 0.05


def test_the_reject_option_s_grey_has_its_legend_row():
    """A session with Reject θ = 0.9 and the decision regions: the grey of no decision has a legend row, its
    patch that grey, as on screen and in the exports; without θ, none."""
    from probviz.data.examples import session
    from probviz.style import Style

    s = session("fruit")
    s.layers, s.theta = ["decision", "points"], 0.9
    legend = probviz.plot(s, ax=_axes()).artists["legend"][0]
    texts = [t.get_text() for t in legend.get_texts()]
    row = texts.index("rejected, no decision (θ = 0.9)")
    handle = legend.legend_handles[row]
    assert tuple(round(255 * c) for c in handle.get_facecolor()[:3]) == Style().reject
    s.theta = 0.0
    legend = probviz.plot(s, ax=_axes()).artists["legend"][0]
    assert not any(t.get_text().startswith("rejected") for t in legend.get_texts())


def test_a_session_at_an_sgd_step_rings_the_point_the_step_used():
    """A session saved at a stochastic gradient descent step draws, as the window does, a ring in the ink round
    the point the step used: nearly all the way round at the ring's radius, nothing between it and the marker."""
    from probviz.data.dataset import Dataset
    from probviz.data.session import Session
    from probviz.models.training import TrainingSpec
    from probviz.style import SGD_RING, Style

    X = np.array([[-3.0, -2.0], [-1.0, 2.5], [-2.5, 1.0], [2.0, -2.5], [3.0, 1.5], [1.0, 2.0]])
    session = Session(Dataset(X, np.array([0, 0, 0, 1, 1, 1]), ["a", "b"]), model="logistic",
                      training=TrainingSpec(optimizer="sgd", steps=2, run=1, shown=True))
    ax = _axes()
    drawing = probviz.plot(session, ax=ax, view=(-5, 5, -4, 4), legend=False)
    spot = drawing.frame.training.highlight
    assert any(np.array_equal(spot, x) for x in X)
    rgb = _pixels(ax)
    cx, cy = _to_px(ax, *spot)
    style = Style()
    dpi_scale = ax.figure.dpi / 96  # probviz's sizes are pixels at 96 dpi
    r = SGD_RING * style.point_size / 2 * dpi_scale
    turn = np.linspace(0, 2 * np.pi, 48, endpoint=False)

    def inked(radius):
        return np.mean([rgb[int(round(cy + radius * np.sin(a))), int(round(cx + radius * np.cos(a)))].max() < 90
                        for a in turn])

    assert inked(r) > 0.9, inked(r)
    assert inked((style.point_size / 2 * dpi_scale + r) / 2 - 1) < 0.2
    assert "sgd_point" in drawing.artists
    legend = probviz.plot(session, ax=_axes(), view=(-5, 5, -4, 4)).artists["legend"][0]
    assert "the point this SGD step used" in [t.get_text() for t in legend.get_texts()]
