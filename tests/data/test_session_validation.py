"""Every malformed session is refused whole, with one line naming the file and what is wrong."""

import json

import pytest

from probviz.data.csvio import DataError
from probviz.data.session import from_json

GOOD = {
    "format": "probviz-session", "version": 1, "name": "n", "description": "d", "axis_names": ["a", "b"],
    "classes": [{"name": "u", "color": "#112233"}, {"name": "v", "color": "#445566"}],
    "points": {"x": [0.0, 1.0, 2.0], "y": [1.0, 0.0, 2.0], "label": [0, 1, 1]},
    "probe": [0.5, 0.5], "model": "qda", "params": {"qda": {"reg_covar": 0.2}}, "layers": ["points"],
    "view": [0, 1, 0, 1], "extra": {"theta": 0.3},
}


def broken(**changes):
    doc = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if value is KeyError:
            doc.pop(key)
        else:
            doc[key] = value
    return json.dumps(doc)


def test_the_good_session_loads_every_field():
    s = from_json(json.dumps(GOOD), "ok.probviz")
    d = s.dataset
    assert d.X.tolist() == [[0, 1], [1, 0], [2, 2]] and d.labels.tolist() == [0, 1, 1]
    assert d.class_names == ["u", "v"] and d.colors == ["#112233", "#445566"] and d.axis_names == ("a", "b")
    assert (d.name, d.description, d.probe, d.view) == ("n", "d", (0.5, 0.5), (0, 1, 0, 1))
    assert (s.model, s.params, s.layers, s.view, s.theta) == ("qda", {"qda": {"reg_covar": 0.2}}, ["points"],
                                                             (0, 1, 0, 1), 0.3)
    assert (s.priors, s.compare, s.split, s.section, s.source) == (None, None, (0.0, 0), None, None)


def test_optional_fields_take_their_defaults():
    doc = json.loads(json.dumps(GOOD))
    for key in ("axis_names", "probe", "view", "model", "params", "layers", "extra", "name", "description"):
        doc.pop(key)
    s = from_json(json.dumps(doc), "min.probviz")
    assert s.dataset.axis_names == ("x1", "x2") and s.dataset.probe is None and s.view is None
    assert (s.model, s.params, s.layers, s.theta, s.priors) == ("lda", {}, [], 0.0, None)
    assert (s.dataset.name, s.dataset.description) == ("", "")


@pytest.mark.parametrize("text,what", [
    (broken(format="other"), "no probviz-session header"),
    ("[1, 2]", "no probviz-session header"),
    (broken(version="1"), "no version"),
    (broken(version=KeyError), "no version"),
    (broken(classes=[]), "classes"),
    (broken(classes=KeyError), "classes"),
    (broken(classes=[{"name": "u"}]), "classes"),
    (broken(classes=[{"color": "#112233"}]), "classes"),
    (broken(classes=[{"name": 3, "color": "#112233"}]), "classes"),
    (broken(classes=["u"]), "classes"),
    (broken(points=[1, 2]), "points"),
    (broken(points={"x": [0.0], "y": [0.0, 1.0], "label": [0]}),
     "points: 1 x, 2 y and 1 label values; they must be as many"),
    (broken(points={"x": [0.0], "y": [0.0], "label": [0, 1]}),
     "points: 1 x, 1 y and 2 label values; they must be as many"),
    (broken(points={"x": [0.0], "y": [0.0], "label": [2]}), "point 1: its label is 2, not a class number from 0 to 1"),
    (broken(points={"x": [0.0], "y": [0.0], "label": [-1]}),
     "point 1: its label is -1, not a class number from 0 to 1"),
    (broken(points={"x": [0.0], "y": [0.0], "label": [True]}),
     "point 1: its label is true, not a class number from 0 to 1"),
    (broken(points={"x": ["0"], "y": [0.0], "label": [0]}), 'point 1: its x is "0", not a finite number'),
    (broken(points={"x": [True], "y": [0.0], "label": [0]}), "point 1: its x is true, not a finite number"),
    (broken(points={"x": [0.0], "y": [0.0], "label": "0"}), "points: no list of label values"),
    (broken(points={"y": [0.0], "label": [0]}), "points: no list of x values"),
    (broken(points={"x": [0.0], "y": 0.0, "label": [0]}), "points: no list of y values"),
    (broken(points={"x": [0.0, 1.0, 2.0], "y": [0.0, "y", 1.0], "label": [0, 0, 1]}),
     'point 2: its y is "y", not a finite number'),
    (broken(points={"x": [0.0] * 3, "y": [0.0] * 3, "label": [0, 1, "a" * 40]}),
     'point 3: its label is "aaaaaaaaaaaaaaaaaaaaaa…, not a class number from 0 to 1'),
    (broken(points={"x": [0.0], "y": [0.0], "label": ["a" * 22]}),  # 24 characters with its quotes: whole
     'point 1: its label is "aaaaaaaaaaaaaaaaaaaaaa", not a class number from 0 to 1'),
    (broken(points={"x": [0.0], "y": [0.0], "label": ["a" * 23]}),  # 25: cut to 23 and "…"
     'point 1: its label is "aaaaaaaaaaaaaaaaaaaaaa…, not a class number from 0 to 1'),
    (broken(axis_names=["a"]), "axis names"),
    (broken(axis_names=["a", 2]), "axis names"),
    (broken(axis_names="ab"), "axis names"),
    (broken(probe=[1.0]), "probe"),
    (broken(probe=["1", 2.0]), "probe"),
    (broken(view=[0, 1, 0]), "view"),
    (broken(view="all"), "view"),
    (broken(model=3), "model"),
    (broken(params=[]), "params"),
    (broken(params={"qda": 0.3}), "params"),
    (broken(layers="points"), "layers"),
    (broken(layers=[1]), "layers"),
    (broken(extra=[]), "extra"),
])
def test_a_malformed_session_says_what_is_wrong(text, what):
    with pytest.raises(DataError) as e:
        from_json(text, "bad.probviz")
    assert str(e.value) == f"bad.probviz: not a valid probviz session ({what})"


def test_infinite_numbers_are_refused():
    text = json.dumps(GOOD).replace("2.0]", "Infinity]", 1)
    with pytest.raises(DataError, match=r"bad.probviz: not a valid probviz session \(point 3: its x is Infinity, not"):
        from_json(text, "bad.probviz")


def test_not_json_names_the_line():
    with pytest.raises(DataError) as e:
        from_json('{\n"format": "probviz-session",\n oops}', "x.probviz")
    assert str(e.value).startswith("x.probviz, line 3: not valid JSON (")


def test_a_newer_version_asks_for_an_update():
    with pytest.raises(DataError) as e:
        from_json(broken(version=2), "new.probviz")
    assert str(e.value) == ("new.probviz: saved by a newer probviz (session version 2; this one reads up to 1); "
                            "please update probviz")


def opened(extra, n_classes=2):
    """A session of ``n_classes`` classes whose file holds ``extra``: the session, or the one-line refusal."""
    doc = json.loads(json.dumps(GOOD))
    doc["classes"] = [{"name": str(i), "color": "#112233"} for i in range(n_classes)]
    doc["points"] = {"x": [0.0] * n_classes, "y": [0.0] * n_classes, "label": list(range(n_classes))}
    doc["extra"] = extra
    try:
        return from_json(json.dumps(doc), "p.probviz")
    except DataError as e:
        return str(e)


@pytest.mark.parametrize("priors,expected", [
    ([0.25, 0.75], (0.25, 0.75)), ([1, 3], (1.0, 3.0)), (None, None)])
def test_saved_priors_are_one_positive_number_per_class(priors, expected):
    assert opened({"priors": priors}).priors == expected


@pytest.mark.parametrize("priors", [[0.5], [0.5, 0], [0.5, -1], [0.5, "x"], [True, 0.5], [0.5, 1e300], "0.5"])
def test_other_priors_refuse_the_file_naming_them(priors):
    assert opened({"priors": priors}) == ("p.probviz: not a valid probviz session (priors must be 2 positive "
                                          "numbers, one per class)")


@pytest.mark.parametrize("theta,expected", [(0.4, 0.4), (0, 0.0), (1, 0.99)])
def test_a_saved_theta_lies_in_the_unit_interval_and_stops_where_theta_stops(theta, expected):
    assert opened({"theta": theta}).theta == expected
    assert opened({}).theta == 0.0


@pytest.mark.parametrize("theta", [1.5, -0.1, "0.4", True, None])
def test_another_theta_refuses_the_file_naming_it(theta):
    assert opened({"theta": theta}) == "p.probviz: not a valid probviz session (theta must be a number from 0 to 1)"


def test_an_autosave_names_the_file_it_came_from():
    assert opened({"source": "/home/t/lesson.probviz"}).source == "/home/t/lesson.probviz"
    assert opened({"source": 3}).source is None


def test_nesting_deeper_than_a_session_is_refused_on_every_python():
    """40 levels parse on any Python (no RecursionError to rely on): the depth itself is checked."""
    doc = json.loads(json.dumps(GOOD))
    doc["extra"] = {"note": json.loads("[" * 40 + "]" * 40)}
    with pytest.raises(DataError, match=r"bad.probviz: not a valid probviz session \(nested too deeply\)"):
        from_json(json.dumps(doc), "bad.probviz")
    doc["extra"] = {"note": json.loads("[" * 20 + "]" * 20)}
    from_json(json.dumps(doc), "ok.probviz")  # shallower is fine


def _message(**changes) -> str:
    try:
        from_json(broken(**changes), "b.probviz")
    except DataError as e:
        return str(e)
    return "loaded"


def test_every_limit_is_inclusive_and_one_past_it_is_refused_by_name():
    """Each limit, at the limit and one past it: the first loads, the second names the file and field."""
    from probviz.data.files import MAX_ABS, MAX_CLASSES, MAX_NAME
    from probviz.data.session import MAX_TEXT

    bad = "b.probviz: not a valid probviz session ("
    assert _message(name="n" * MAX_TEXT, description="d" * MAX_TEXT) == "loaded"
    assert _message(name="n" * (MAX_TEXT + 1)) == bad + "name or description too long)"
    assert _message(description="d" * (MAX_TEXT + 1)) == bad + "name or description too long)"
    assert _message(name=3) == bad + "name or description)"
    assert _message(description=None) == bad + "name or description)"
    edge = {"x": [MAX_ABS, -MAX_ABS, 0.0], "y": [-MAX_ABS, MAX_ABS, 0.0], "label": [0, 1, 1]}
    assert _message(points=edge, probe=[MAX_ABS, -MAX_ABS], view=[-MAX_ABS, MAX_ABS, -MAX_ABS, MAX_ABS]) == "loaded"
    for axis in "xy":
        past = json.loads(json.dumps(edge))
        past[axis][0] = MAX_ABS * (1 + 1e-15)
        assert _message(points=past) == bad + "a coordinate beyond ±1e+100)"
    assert _message(probe=[MAX_ABS * (1 + 1e-15), 0]) == bad + "probe)"
    assert _message(view=[0, MAX_ABS * (1 + 1e-15), 0, 1]) == bad + "view)"
    assert _message(view=[0, 0, 0, 1]) == bad + "view)" and _message(view=[0, 1, 1, 1]) == bad + "view)"
    classes = [{"name": f"c{i}", "color": "#112233"} for i in range(MAX_CLASSES)]
    assert _message(classes=classes) == "loaded"
    assert _message(classes=classes + [{"name": "one more", "color": "#112233"}]) == (
        bad + f"{MAX_CLASSES + 1} classes; probviz shows at most {MAX_CLASSES})")
    assert _message(classes=[{"name": "u", "color": "#112233"}, {"name": "v" * (MAX_NAME + 1), "color": "#445566"}]) == (
        bad + f"the name of class 2 is {MAX_NAME + 1} characters long; the limit is {MAX_NAME})")
    assert _message(axis_names=["a", "b" * (MAX_NAME + 1)]) == (
        bad + f"an axis name is {MAX_NAME + 1} characters long; the limit is {MAX_NAME})")
    assert _message(classes=[{"name": "u", "color": "#112233"}, {"name": "v", "color": "#44556" + "6" * 30}]) == (
        bad + f"the colour of class 'v' is {('#44556' + '6' * 30)[:20]!r}, not #RRGGBB)")  # its first 20 characters
    assert _message(model="m" * 60) == bad + f"unknown model {'m' * 40!r}; probviz has lda, qda, tied, nb, logistic, " \
                                              "softmax, probit, leastsquares, fisher, perceptron)"


def test_saved_priors_up_to_1e300_exclusive():
    assert opened({"priors": [0.5, 9.9e299]}).priors == (0.5, 9.9e299)
    assert isinstance(opened({"priors": [0.5, 1e300]}), str)


def test_a_split_of_fraction_zero_is_not_written_and_a_training_run_is_only_when_set(tmp_path):
    from probviz.data import examples
    from probviz.data.session import to_json
    from probviz.models.training import TrainingSpec

    s = examples.session("fruit")
    s.split = (0.0, 7)
    s.training = TrainingSpec(run=5)  # a run number alone is the document's, not the file's
    extra = json.loads(to_json(s))["extra"]
    assert "split" not in extra and "training" not in extra
    s.training = TrainingSpec(steps=0, shown=True)
    assert json.loads(to_json(s))["extra"]["training"] == {"optimizer": "gd", "eta": None, "start": "zero",
                                                          "steps": 0, "shown": True}
    assert opened({"training": {"steps": 0, "shown": True}}).training == TrainingSpec(steps=0, shown=True)
    assert opened({"training": {"steps": 1e6}}).training.steps == 1_000_000
    assert opened({"training": {"steps": 1e6 + 1}}).training.steps == 0
