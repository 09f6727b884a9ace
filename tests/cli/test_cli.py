"""The command line, run as a user runs it: a subprocess, exit codes, stdout and stderr."""

import json
import subprocess
import sys

import pytest

from probviz import __version__


def run(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_version():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"probviz {__version__}"


def test_examples_lists_each_with_its_lesson():
    r = run("examples")
    assert r.returncode == 0
    names = [line.split()[0] for line in r.stdout.splitlines()]
    assert {"fruit", "shared-vs-own-covariance", "xor", "circles", "outliers", "three-in-a-line"} <= set(names)


def test_fit_json_on_the_fruit_example():
    r = run("fit", "example:fruit", "--model", "lda", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["classes"] == ["apple", "peach"] and out["n_points"] == 250
    assert out["n_parameters"] == 8 and 0.9 < out["accuracy"] <= 1.0
    assert len(out["coef"]) == 2 and len(out["covariance"]) == 2


@pytest.mark.parametrize("args,message", [
    (("fit", "nowhere.csv"), "nowhere.csv: no such file"),
    (("fit", "example:nope"), "no example named 'nope'"),
    (("fit", "example:fruit", "--model", "svm"), "unknown model 'svm'"),
])
def test_errors_are_one_line_without_traceback(args, message):
    r = run(*args)
    assert r.returncode != 0
    assert r.stderr.startswith("probviz: error: ") and message in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_importing_probviz_core_does_not_import_qt():
    code = ("import sys, probviz, probviz.models, probviz.scene, probviz.data.inputs, probviz.cli; "
            "print(any(m.startswith(('PySide6', 'pyqtgraph', 'superqt')) for m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "False", r.stderr
