"""probviz.special stands for scipy.special's functions, imported on first use: the same values, and the window's
modules load without scipy.special (its import cost the start-up a quarter of a second)."""

import subprocess
import sys

import numpy as np
import pytest
import scipy.special as sc

from probviz import special


@pytest.mark.parametrize("name", special.__all__)
def test_each_name_is_scipys_function_on_hard_arguments(name):
    x = np.array([-1e300, -745.5, -40.0, -1e-300, -0.0, 0.0, 5e-324, 1.0, 37.5, 709.8, 1e300, np.inf, -np.inf, np.nan])
    ours, theirs = getattr(special, name), getattr(sc, name)
    assert ours.__name__ == name and name in ours.__doc__  # what help() and a traceback say
    if name == "logsumexp":
        M = np.vstack([x[:-3], x[:-3][::-1]])
        for axis in (None, 0, 1):
            np.testing.assert_array_equal(ours(M, axis=axis), theirs(M, axis=axis))
        np.testing.assert_array_equal(ours(M, axis=1, b=[[2.0]]), theirs(M, axis=1, b=[[2.0]]))
        return
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ours(x), theirs(x))
        out = np.empty_like(x)
        assert ours(x, out=out) is out  # a ufunc's keywords pass through
        np.testing.assert_array_equal(out, theirs(x))


def test_the_window_and_the_models_load_without_scipy_special():
    code = ("import sys, probviz.app.main_window, probviz.models, probviz.pipeline, probviz.models.bayes; "
            "print('scipy.special' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "False"
