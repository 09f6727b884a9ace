"""A truth from a file with extreme or malformed numbers: a valid truth or one line naming the file,
never a Python warning or numpy's own words."""

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from probviz.data.csvio import DataError
from probviz.data.session import from_json
from tests.hypo import examples

BASE = {"format": "probviz-session", "version": 1,
        "classes": [{"name": "u", "color": "#112233"}, {"name": "v", "color": "#445566"}],
        "points": {"x": [0, 1, 5, 6], "y": [0, 1, 5, 6], "label": [0, 0, 1, 1]}}
EYE = [[1, 0], [0, 1]]


def load(truth):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any RuntimeWarning fails the test
        return from_json(json.dumps(dict(BASE, truth=truth)), "t.probviz")


@pytest.mark.parametrize("truth,message", [
    ({"priors": [0.5, 0.5], "means": [[0, 0], [5, 5]], "covariances": [[[1e308, 0], [0, 1]], EYE]},
     "a truth's means, covariances and weights must be within ±1e+100"),
    ({"priors": [0.5, 0.5], "means": [[0, 1e300], [5, 5]], "covariances": [EYE, EYE]},
     "a truth's means, covariances and weights must be within ±1e+100"),
    ({"priors": [0.5, 0.5], "means": [[0, 0], [5, 5]], "covariances": [[[1, [0]], [0, 1]], EYE]},
     "a truth needs, per class, a prior, a mean (2 numbers) and a 2x2 covariance"),
    ({"priors": [0.5, 0.5], "components": [[{"weight": 1, "mean": [0, [1]], "covariance": EYE}],
                                           [{"weight": 1, "mean": [5, 5], "covariance": EYE}]]},
     "class 1 of the truth: a mean is 2 numbers and a covariance 2x2"),
])
def test_extreme_or_malformed_truths_are_refused_in_one_line(truth, message):
    with pytest.raises(DataError) as e:
        load(truth)
    assert str(e.value) == f"t.probviz: not a valid probviz session ({message})"


def test_huge_priors_are_only_proportions():
    truth = load({"priors": [1e308, 1e308], "means": [[0, 0], [5, 5]], "covariances": [EYE, EYE]}).dataset.truth
    assert truth.priors.tolist() == [0.5, 0.5]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert 0 < truth.bayes_error() < 0.01  # two unit Gaussians 5·√2 apart: Φ(-2.5) ≈ 0.0062


NUMBER = st.one_of(st.floats(-1e308, 1e308), st.sampled_from([0.0, 1e-308, 1e100, 1e101, 1e308, -1e308]))


@settings(max_examples=examples(150), deadline=None)
@given(priors=st.lists(NUMBER, min_size=2, max_size=2), mean=st.lists(NUMBER, min_size=2, max_size=2),
       cov=st.tuples(NUMBER, NUMBER, NUMBER))
def test_any_numbers_give_a_truth_or_one_line(priors, mean, cov):
    a, b, d = cov
    truth = {"priors": priors, "means": [mean, [5, 5]], "covariances": [[[a, b], [b, d]], EYE]}
    try:
        t = load(truth).dataset.truth
    except DataError as e:
        assert str(e).startswith("t.probviz: not a valid probviz session (") and "\n" not in str(e)
        return
    assert np.all(np.isfinite(t.priors)) and abs(t.priors.sum() - 1) < 1e-12


def test_the_command_line_prints_no_warning():
    doc = dict(BASE, truth={"priors": [0.5, 0.5], "means": [[0, 0], [5, 5]],
                            "covariances": [[[1e308, 0], [0, 1]], EYE]})
    r = subprocess.run([sys.executable, "-m", "probviz", "fit", "-"], input=json.dumps(doc), text=True,
                       capture_output=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Warning" not in r.stderr
