"""A session's train/test split: checked at load like every field, and the fits it leads to."""

import dataclasses
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from probviz.data import examples
from probviz.data.csvio import DataError
from probviz.data.session import MAX_SEED, from_json
from probviz.pipeline import compute
from probviz.snapshot import frame_request, from_session, with_model
from tests.hypo import examples as budget

GOOD = {
    "format": "probviz-session", "version": 1,
    "classes": [{"name": "u", "color": "#112233"}, {"name": "v", "color": "#445566"}],
    "points": {"x": [0.0, 1.0, 2.0, 3.0], "y": [1.0, 0.0, 2.0, 1.0], "label": [0, 0, 1, 1]},
}


def session_text(split) -> str:
    doc = dict(GOOD, extra={"split": split})
    return json.dumps(doc, allow_nan=True)


@pytest.mark.parametrize("split,field", [
    ([-0.5, 0], "fraction"), ([1.5, 0], "fraction"), ([float("nan"), 0], "fraction"), (["half", 0], "fraction"),
    ([True, 0], "fraction"), ([0.2, -1], "seed"), ([0.2, 1e30], "seed"), ([0.2, float("nan")], "seed"),
    ([0.2, 2.5], "seed"), ([0.2, 2**31], "seed"), ([0.2, "7"], "seed"), ([0.2, 1, 2], None), ({"f": 0.2}, None),
    ("half", None), ([0.2], None),
])
def test_an_invalid_split_refuses_the_file_naming_the_field(split, field):
    with pytest.raises(DataError) as e:
        from_json(session_text(split), "s.probviz")
    message = str(e.value)
    assert message.startswith("s.probviz: not a valid probviz session (") and "split" in message
    assert "\n" not in message
    if field is not None:
        assert f"split's {'held-out fraction' if field == 'fraction' else 'seed'}" in message


@settings(max_examples=budget(200), deadline=None)
@given(split=st.one_of(
    st.lists(st.one_of(st.floats(allow_nan=True), st.integers(-2**40, 2**40), st.text(max_size=3), st.none(),
                       st.booleans()), max_size=3),
    st.floats(), st.text(max_size=5), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2)))
def test_any_split_loads_as_a_valid_one_or_is_refused(split):
    """Whatever a file holds: a split whose mask can be drawn, or one line naming the file and the split."""
    try:
        s = from_json(session_text(split), "s.probviz")
    except DataError as e:
        assert str(e).startswith("s.probviz: not a valid probviz session (") and "split" in str(e)
        return
    fraction, seed = s.split
    assert 0 <= fraction <= 0.9 and 0 <= seed <= MAX_SEED and isinstance(seed, int)
    assert isinstance(split, list) and math.isclose(fraction, split[0]) and seed == split[1]
    frame_request(from_session(s), (0, 1, 0, 1), (8, 8))  # the held-out mask is drawn without error


def test_a_valid_split_is_kept():
    s = from_json(session_text([0.25, 7]), "s.probviz")
    assert s.split == (0.25, 7)
    s = from_json(session_text([0, 3.0]), "s.probviz")  # a seed written as 3.0 is the whole number 3
    assert s.split == (0.0, 3)


@pytest.mark.parametrize("model", ["lda", "qda", "nb"])
def test_after_a_class_was_held_out_whole_the_next_fit_sees_every_point(model):
    """Every point of a class held out, then the split removed and a point moved: the model is refitted
    on all points (not updated from the statistics of the fit that never saw the class)."""
    s = examples.session("fruit")
    d = s.dataset
    request = frame_request(with_model(from_session(s), model), (0, 3, 0, 3), (16, 16))
    held = compute(dataclasses.replace(request, held_out=d.labels == 1))
    assert held.fit.model.classes_.tolist() == [0]
    X = d.X.copy()
    moved = (np.array([0]), X[[0]].copy())
    X[0] += 0.25
    frame = compute(dataclasses.replace(request, X=X, held_out=None), held, True, moved)
    model_ = frame.fit.model
    assert model_.classes_.tolist() == [0, 1]
    for k in (0, 1):  # the class means of every point, computed here independently
        assert np.allclose(model_.means_[k], X[d.labels == k].mean(axis=0))
    assert frame.fit.summary["accuracy"] > 0.5
