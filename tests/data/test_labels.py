"""Which column is the label and what a label means: numbers equal in value are one class, "nan" is
a missing label (refused by line), a column of names is not the label when a column of classes is
there, one point per class is pointed out, and a row index is named in the message that refuses."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from probviz.data.csvio import DataError, parse_csv
from tests.hypo import examples


def load(text, name="t.csv", **kw):
    return parse_csv(text, name, **kw)


def test_numeric_labels_equal_in_value_are_one_class_named_as_first_written():
    d = load("x,y,label\n0,0,2.0\n1,0,2\n0,1,2e0\n5,5,10\n6,5,10.00\n")
    assert d.class_names == ["2.0", "10"]
    assert [d.class_names[i] for i in d.labels] == ["2.0", "2.0", "2.0", "10", "10"]
    assert d.notices == []


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.sampled_from(["{}", "{}.0", "{}.00", "{}e0", "+{}"])),
                min_size=2, max_size=30))
def test_a_class_is_a_value_not_a_spelling(rows):
    """However each number is written, the points with one value share one class, and no two values do."""
    labels = [fmt.format(v) if not (fmt == "+{}" and v < 0) else str(v) for v, fmt in rows]
    text = "x,y,label\n" + "".join(f"{i},{i % 3},{lab}\n" for i, lab in enumerate(labels))
    d = load(text)
    values = [v for v, _ in rows]
    assert len(d.class_names) == len(set(values))
    for i in range(len(values)):
        for j in range(len(values)):
            assert (d.labels[i] == d.labels[j]) == (values[i] == values[j])
    assert [float(n) for n in d.class_names] == sorted(set(values))  # ordered by value


@pytest.mark.parametrize("missing", ["nan", "NaN", "NA", "n/a", "null", "#N/A"])
def test_a_missing_label_is_refused_naming_its_line(missing):
    with pytest.raises(DataError) as e:
        load(f"x,y,kind\n0,0,a\n1,0,b\n2,2,{missing}\n3,3,a\n")
    assert str(e.value) == f"t.csv, line 4: the label (kind) is {missing!r} (a missing value); " \
                           "every point needs a label"


def test_text_labels_that_look_missing_but_are_classes_stay():
    d = load("x,y,kind\n0,0,none\n1,0,-\n2,2,none\n")
    assert d.class_names == ["-", "none"]


def test_the_label_is_the_text_column_whose_values_repeat_not_the_names():
    text = ("name,height,weight,species,notes\nann,1.6,60,elf,tall one\nbob,1.8,80,orc,grumpy\n"
            "cid,1.7,70,elf,quiet\ndee,1.5,55,orc,kind\n")
    d = load(text)
    assert d.axis_names == ("height", "weight") and d.class_names == ["elf", "orc"]
    assert d.notices == []
    d = load("name,a,b\nann,1,2\nbob,3,4\ncid,5,6\n")  # no column repeats: the only text column it is
    assert d.class_names == ["ann", "bob", "cid"]


def test_one_point_per_class_is_pointed_out():
    d = load("a,b,name\n0,0,p\n1,0,q\n5,5,r\n")
    assert d.notices == ["every class has a single point: is name the label column? (name another one with "
                         "--label)"]
    assert load("a,b,name\n0,0,p\n1,0,q\n5,5,q\n").notices == []


def test_a_row_index_is_named_not_counted_twice():
    with pytest.raises(DataError) as e:
        load("id,x\n1,0.5\n2,0.7\n3,0.1\n", "idx.csv")
    assert str(e.value) == ("idx.csv: needs two numeric columns for x and y; found 1 numeric column besides "
                            "the row index id (name the columns to use it)")
    assert load("id,x\n1,0.5\n2,0.7\n3,0.1\n", x="id", y="x", label="").X.shape == (3, 2)
