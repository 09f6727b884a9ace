"""One way in for every command: example:NAME, a .probviz session, or a CSV file."""

import numpy as np
import pytest

from probviz.data.csvio import DataError
from probviz.data.dataset import Dataset
from probviz.data.inputs import load_dataset, load_session
from probviz.data.session import Session, write_session
from probviz.data.synthetic import blobs


def test_an_example_by_name():
    d = load_dataset("example:fruit")
    assert d.name == "fruit" and len(d.X) == 250
    s = load_session("example:fruit")
    assert s.model == "lda" and s.view == (-1.0, 3.5, -1.0, 4.5) and len(s.dataset.X) == 250
    with pytest.raises(DataError, match="no example named 'nope'; try one of fruit"):
        load_dataset("example:nope")


def test_a_session_file_as_saved(tmp_path):
    d = Dataset([[0.0, 0.0], [1.0, 1.0]], [0, 1], ["a", "b"])
    p = tmp_path / "s.probviz"
    write_session(str(p), Session(d, "qda", {"qda": {"reg_covar": 0.5}}, ["points"], (0, 1, 0, 1)))
    s = load_session(str(p))
    assert s.model == "qda" and s.params == {"qda": {"reg_covar": 0.5}} and s.view == (0, 1, 0, 1)
    assert load_dataset(str(p)).class_names == ["a", "b"]


def test_a_csv_file_with_the_defaults(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("x,y,label\n0,1,a\n2,3,b\n")
    s = load_session(str(p))
    assert s.model == "lda" and s.params == {} and s.view is None
    np.testing.assert_array_equal(s.dataset.X, [[0, 1], [2, 3]])
    assert s.dataset.class_names == ["a", "b"]
    with pytest.raises(DataError, match="nowhere.csv: no such file"):
        load_session(str(tmp_path / "nowhere.csv"))


def test_blobs_are_reproducible_gaussian_classes():
    X, y = blobs(3000, 4, seed=5)
    X2, y2 = blobs(3000, 4, seed=5)
    assert X.shape == (3000, 2) and np.array_equal(X, X2) and np.array_equal(y, y2)
    assert set(np.unique(y)) == {0, 1, 2, 3} and np.all(np.bincount(y) > 600)
    assert not np.array_equal(blobs(3000, 4, seed=6)[0], X)
    spreads = [np.cov(X[y == k].T) for k in range(4)]
    assert all(np.all(np.linalg.eigvalsh(c) > 0.001) for c in spreads)


def test_explicit_columns_reach_the_reader(tmp_path):
    p = tmp_path / "wide.csv"
    p.write_text("a,b,c,kind\n0.5,1,9,u\n1.5,2,8,v\n2.5,0.5,7,u\n")
    d = load_dataset(str(p), x="c", y="a", label="kind")
    np.testing.assert_allclose(d.X, [[9, 0.5], [8, 1.5], [7, 2.5]])
    assert d.axis_names == ("c", "a") and d.class_names == ["u", "v"]
    s = load_session(str(p), x=3, y=1, label="")
    assert s.dataset.class_names == ["1"] and s.dataset.X[0].tolist() == [9, 0.5]


def test_a_dataset_takes_numbers_of_any_type_and_checks_its_labels():
    d = Dataset([[0, 1], [2, 3]], [0.0, 1.0], ["a", "b"])
    assert d.X.dtype == float and d.labels.dtype == np.int64 and d.X.shape == (2, 2)
    assert d.colors == ["#0072B2", "#D55E00"]  # the palette fills in missing colours
    with pytest.raises(ValueError) as e:
        Dataset([[0, 1], [2, 3]], [0], ["a"])
    assert str(e.value) == "X and labels differ in length"
    for bad in ([0, 2], [-1, 0]):
        with pytest.raises(ValueError) as e:
            Dataset([[0, 1], [2, 3]], bad, ["a", "b"])
        assert str(e.value) == "a label does not name a class"
    assert Dataset(np.empty((0, 2)), [], ["a"]).counts().tolist() == [0]


def test_an_example_that_names_its_view_shows_every_one_of_its_points():
    """The fruit's view once cut off two of its 250 points (one at colour 4.39 above a view ending at 4)."""
    from probviz.data.examples import EXAMPLES, load

    for name in EXAMPLES:
        d = load(name)
        if d.view is not None:
            x0, x1, y0, y1 = d.view
            inside = (d.X[:, 0] >= x0) & (d.X[:, 0] <= x1) & (d.X[:, 1] >= y0) & (d.X[:, 1] <= y1)
            assert inside.all(), (name, d.X[~inside])
