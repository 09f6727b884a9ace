"""The matplotlib figure of an rbf fit (probviz.mpl.plot): the centres drawn as open diamonds where they are,
and a legend row for them (Bishop 4.3.1)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from probviz.mpl import plot  # noqa: E402


def test_the_centres_are_drawn_where_they_are_with_a_legend_row():
    d = plot("example:xor", model="softmax", basis="rbf", centers="-1,-1;1,1;-1,1;1,-1", width=0.8)
    halo, edge = d.artists["rbf_centers"]
    np.testing.assert_array_equal(np.column_stack(edge.get_data()), [[-1, -1], [1, 1], [-1, 1], [1, -1]])
    assert edge.get_marker() == "D" and edge.get_markerfacecolor() == "none"
    assert "RBF centres" in [t.get_text() for t in d.artists["legend"][0].get_texts()]
    d = plot("example:xor", model="softmax", basis="quadratic")
    assert "rbf_centers" not in d.artists
