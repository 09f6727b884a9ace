"""CSV import: a corpus of quirky-but-good files and bad ones, each bad one with its message."""

import os
from pathlib import Path

import numpy as np
import pytest

from probviz.data import csvio, files
from probviz.data.csvio import DataError, read_csv, write_csv
from probviz.data.dataset import Dataset

HERE = Path(__file__).parent / "csv"
POINTS = np.array([[0.5, 1.0], [1.5, 2.0], [2.5, 0.5]])


@pytest.mark.parametrize("name,classes,labels,axes", [
    ("plain.csv", ["a", "b"], [0, 1, 0], ("x", "y")),
    ("semicolon_bom_crlf_index.csv", ["blau", "rot"], [1, 0, 1], ("X", "Y")),
    ("tabs_numeric_labels.tsv", ["1", "2"], [0, 1, 0], ("a", "b")),
    ("no_header.csv", ["0", "1"], [0, 1, 0], ("x1", "x2")),
    ("quoted.csv", ["apple, red", "peach"], [0, 1, 0], ("value_x", "value_y")),
    ("blank_lines.csv", ["a", "b"], [0, 1, 0], ("x", "y")),
    ("pandas_index_extra.csv", ["a", "b"], [0, 1, 0], ("x", "y")),
])
def test_quirky_files_load(name, classes, labels, axes):
    d = read_csv(str(HERE / "good" / name))
    np.testing.assert_allclose(d.X, POINTS)
    assert d.class_names == classes
    assert list(d.labels) == labels
    assert d.axis_names == axes


@pytest.mark.parametrize("name,message", [
    ("empty.csv", "empty.csv: the file is empty"),
    ("header_only.csv", "header_only.csv: the file has a header but no data rows"),
    ("one_numeric.csv", "one_numeric.csv: needs two numeric columns for x and y; found 1 numeric column"),
    ("ragged.csv", "ragged.csv, line 4: has 2 fields, expected 3"),
    ("nan.csv", "nan.csv, line 3: y is nan; values must be finite"),
    ("inf.csv", "inf.csv, line 4: x is inf; values must be finite"),
    ("not_a_number.csv", "not_a_number.csv, line 3: y is 'oops', not a number"),
    ("binary.csv", "binary.csv: this is a binary file, not text"),
    ("not_text.csv", "not_text.csv, line 2: neither UTF-8 nor Windows-1252 text"),
])
def test_bad_files_say_file_and_line(name, message):
    with pytest.raises(DataError) as err:
        read_csv(str(HERE / "bad" / name))
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_missing_file():
    with pytest.raises(DataError, match="nothere.csv: no such file"):
        read_csv(str(HERE / "nothere.csv"))


def test_too_large_file_is_refused_with_the_limit(tmp_path, monkeypatch):
    p = tmp_path / "big.csv"
    p.write_text("x,y,label\n" + "1,2,a\n" * 100)
    monkeypatch.setattr(files, "MAX_BYTES", 500)
    with pytest.raises(DataError, match=r"big.csv: file is 0 MB; the limit is 0 MB"):
        read_csv(str(p))


def test_explicit_columns_by_name_and_number(tmp_path):
    p = tmp_path / "four.csv"
    p.write_text("a,b,c,d,kind\n1,2,3,4,u\n5,6,7,8,v\n")
    layout = csvio.inspect_csv(str(p))
    assert layout.ambiguous  # four numeric columns: the GUI asks
    d = read_csv(str(p), x="C", y="4", label="kind")
    np.testing.assert_allclose(d.X, [[3, 4], [7, 8]])
    assert d.axis_names == ("c", "d") and d.class_names == ["u", "v"]
    with pytest.raises(DataError, match="no x column 'zz'"):
        read_csv(str(p), x="zz")
    one = read_csv(str(p), label="")
    assert one.class_names == ["1"] and set(one.labels) == {0}


def test_obvious_files_are_not_ambiguous():
    for name in ("plain.csv", "semicolon_bom_crlf_index.csv", "no_header.csv", "pandas_index_extra.csv"):
        assert not csvio.inspect_csv(str(HERE / "good" / name)).ambiguous, name


def test_export_round_trip(tmp_path):
    d = Dataset(POINTS, [0, 1, 0], ["apple, red", 'say "hi"'], axis_names=("rough", "colour"))
    p = tmp_path / "out.csv"
    write_csv(str(p), d)
    back = read_csv(str(p))
    np.testing.assert_array_equal(back.X, d.X)  # repr() keeps every digit
    assert back.class_names == sorted(d.class_names) and back.axis_names == ("rough", "colour")
    assert [back.class_names[i] for i in back.labels] == [d.class_names[i] for i in d.labels]


def test_a_million_rows_load_through_the_fast_path(tmp_path):
    rng = np.random.default_rng(0)
    n = 1_000_000
    X = rng.normal(size=(n, 2))
    labels = rng.integers(0, 5, n)
    p = tmp_path / "million.csv"
    with open(p, "w") as f:
        f.write("x,y,label\n")
        np.savetxt(f, np.c_[X, labels], fmt=["%.6f", "%.6f", "%d"], delimiter=",")
    d = read_csv(str(p))
    assert len(d.X) == n and d.class_names == ["0", "1", "2", "3", "4"]
    np.testing.assert_allclose(d.X, np.round(X, 6), atol=1e-9)
    assert os.path.getsize(p) > 10_000_000


def test_the_careful_path_keeps_delimiters_quotes_and_blank_rows(tmp_path):
    """Quotes send a file down the row-by-row path: it must split on the file's own delimiter, skip
    blank rows (not stop at them), and keep a label that merely looks empty after stripping quotes."""
    p = tmp_path / "semi.csv"
    p.write_text('x;y;label\n0.5;1;"a, b"\n\n;;\n1.5;2;"c"\n2.5;0.5;"a, b"\n')
    d = read_csv(str(p))
    np.testing.assert_allclose(d.X, POINTS)
    assert d.class_names == ["a, b", "c"] and d.labels.tolist() == [0, 1, 0]


@pytest.mark.parametrize("row,message", [
    ('"0.5"', "q.csv, line 3: has 1 field, expected 3"),
    ('"0.5",1', "q.csv, line 3: has 2 fields, expected 3"),
    ('"0.5",1,""', "q.csv, line 3: the label (label) is empty"),
    ('1,"0,a\n0,1,b\n1,1,b', 'q.csv, line 3: a quote (") opened on this line is not closed; it runs to line 5'),
    ('"1\n",0,a\n1,x,b', "q.csv, line 5: y is 'x', not a number"),  # a closed quote over two lines: counted
])
def test_the_careful_path_names_the_line(tmp_path, row, message):
    p = tmp_path / "q.csv"
    p.write_text(f'x,y,label\n"0",1,a\n{row}\n')
    with pytest.raises(DataError) as err:
        read_csv(str(p))
    assert str(err.value) == message


def test_inspect_takes_the_columns_asked_for(tmp_path):
    p = tmp_path / "wide.csv"
    p.write_text("id,a,b,c,kind\n1,0.5,1,9,u\n2,1.5,2,8,v\n3,2.5,0.5,7,u\n")
    layout = csvio.inspect_csv(str(p), x="c", y=2, label="kind")
    assert (layout.x, layout.y, layout.label) == (3, 1, 4) and not layout.ambiguous
    assert csvio.inspect_csv(str(p)).ambiguous  # four numeric columns and no x, y: ask
    with pytest.raises(DataError, match="wide.csv"):
        csvio.inspect_csv(str(p), x="nope")


def test_the_careful_path_reads_numeric_labels(tmp_path):
    p = tmp_path / "n.csv"
    p.write_text('x,y,label\n"0.5",1,2\n"1.5",2,7\n"2.5",0.5,2\n')
    d = read_csv(str(p))
    np.testing.assert_allclose(d.X, POINTS)
    assert d.X.shape == (3, 2) and d.class_names == ["2", "7"] and d.labels.tolist() == [0, 1, 0]


def test_columns_by_number_at_both_ends_and_unknown_ones(tmp_path):
    p = tmp_path / "cols.csv"
    p.write_text("a,b,c,kind\n0.5,1,9,u\n1.5,2,8,v\n2.5,0.5,7,u\n")
    d = read_csv(str(p), x="1", y="3", label="4")
    np.testing.assert_allclose(d.X[:, 0], [0.5, 1.5, 2.5]) and np.testing.assert_allclose(d.X[:, 1], [9, 8, 7])
    assert d.class_names == ["u", "v"]
    for kw, message in (({"y": "5"}, "cols.csv: no y column '5' (columns: a, b, c, kind)"),
                        ({"x": "0"}, "cols.csv: no x column '0' (columns: a, b, c, kind)"),
                        ({"label": "z"}, "cols.csv: no label column 'z' (columns: a, b, c, kind)")):
        with pytest.raises(DataError) as err:
            read_csv(str(p), **kw)
        assert str(err.value) == message
    q = tmp_path / "bare.csv"
    q.write_text("0.5,1,9\n1.5,2,8\n2.5,0.5,7\n")
    with pytest.raises(DataError) as err:
        read_csv(str(q), x="4")
    assert str(err.value) == "bare.csv: no x column '4' (columns: 1..3)"


def test_progress_rises_to_one_and_a_cancel_stops_the_read(tmp_path, monkeypatch):
    monkeypatch.setattr(csvio, "CHUNK", 50)
    p = tmp_path / "p.csv"
    p.write_text("x,y,label\n" + "".join(f"{i},{i % 7},{'ab'[i % 2]}\n" for i in range(400)))
    seen = []
    d = read_csv(str(p), progress=lambda f: seen.append(f))
    assert len(d.X) == 400 and len(seen) > 10
    assert seen == sorted(seen) and seen[-1] == 1.0 and 0 < seen[0] < 0.1
    calls = []
    with pytest.raises(csvio.Cancelled):
        read_csv(str(p), progress=lambda f: calls.append(f) or len(calls) < 3)
    assert len(calls) == 3  # stopped at the first piece after the answer
