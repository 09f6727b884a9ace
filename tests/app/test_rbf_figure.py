"""An exported figure of an rbf fit (Bishop 4.3.1) draws its centres as open diamonds where the axis ticks say
they are, in every format, with a legend row for them."""

import numpy as np
import pytest
from scipy import ndimage
from test_figures import FORMATS, H, W, axis_ticks, raster

from probviz.app.export import export_figure
from probviz.data.dataset import Dataset
from probviz.data.session import Session
from probviz.style import Style

CENTRES = [(0.0, 0.0), (2.0, 1.0), (3.0, 2.0)]


@pytest.mark.parametrize("ext,dpi,reader", [f for f in FORMATS if f[1] == 96])
def test_centres_sit_where_the_ticks_say(qapp, tmp_path, ext, dpi, reader):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-6, 0.5, (6, 2)), rng.normal(9, 0.5, (6, 2))])  # every point outside the view
    data = Dataset(X, np.repeat([0, 1], 6), ["a", "b"], ["#0072B2", "#D55E00"], ("x", "y"))
    text = ";".join(f"{x:g},{y:g}" for x, y in CENTRES)
    session = Session(data, "softmax", {"softmax": {"basis": "rbf", "centers": text, "width": 3.0}},
                      layers=["points"], view=(-1.0, 4.0, -1.0, 3.0))
    path = str(tmp_path / f"f.{ext}")
    style = Style()
    frame = export_figure(session, path, W, H, legend=False, dpi=dpi, style=style)
    np.testing.assert_array_equal(frame.rbf_centers, CENTRES)
    rgb = raster(path, reader)
    xt, yt, row, col = axis_ticks(rgb, style.foreground)
    x_of = lambda v: xt[0] + (v + 1) * np.mean(np.diff(xt))  # noqa: E731 - tick k is the value k - 1
    y_of = lambda v: yt[-1] - (v + 1) * np.mean(np.diff(yt))  # noqa: E731
    ink = np.abs(rgb - np.array(style.foreground)).sum(axis=2) < 150
    ink[int(row) - 3:, :] = False  # the plot's inside only: no axis, tick or label
    ink[:, :int(col) + 3] = False
    lab, n = ndimage.label(ink)
    sizes = ndimage.sum(ink, lab, range(1, n + 1))
    found = np.array([(x, y) for (y, x), s in zip(ndimage.center_of_mass(ink, lab, range(1, n + 1)), sizes)
                      if s >= 15])
    assert len(found) == len(CENTRES), found  # one diamond ring a centre, nothing else inked inside
    for c in CENTRES:
        e = np.array([x_of(c[0]), y_of(c[1])])
        assert np.min(np.hypot(*(found - e).T)) < 1.5, (c, e, found)
