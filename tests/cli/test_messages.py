"""One clear line for each mistake a flag or a file can hold, naming the flag or the file."""

import json
import subprocess
import sys

import pytest

from probviz import cli
from probviz.models.learning import learning_curve
from probviz.models.truth import Truth


def run(*args, timeout=180):
    return subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("args,message", [
    (["sample", "example:fruit", "-n", "3", "--seed", "-1", "-o", "-"],
     "probviz sample: error: argument --seed: -1 is out of range (0 to 9223372036854775807)"),
    (["curve", "example:fruit", "--models", ""], "probviz: error: --models needs at least one model name, got ''"),
    (["curve", "example:fruit", "--models", " , "], "probviz: error: --models needs at least one model name, got ' , '"),
    (["curve", "example:fruit", "--models", "lda,logistic,lda"],
     "probviz: error: --models lists lda 2 times; name each model once"),
])
def test_flags_are_named(args, message, capsys):
    with pytest.raises(SystemExit) if args[0] == "sample" else _nothing():
        code = cli.main(args)
        assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def test_learning_curve_refuses_a_model_twice_and_none():
    truth = Truth.from_json({"priors": [0.5, 0.5], "means": [[0, 0], [2, 0]], "covariances": [[[1, 0], [0, 1]]] * 2})
    with pytest.raises(ValueError, match="lda with the same parameters is listed twice"):
        learning_curve(truth, [("lda", {}), ("lda", {})], [4], 1)
    with pytest.raises(ValueError, match="no models"):
        learning_curve(truth, [], [4], 1)
    out = learning_curve(truth, [("lda", {}), ("lda", {"reg_covar": 0.5})], [4], 1)
    assert len(out["models"]) == 2  # the same model with other parameters is another curve


def test_a_number_of_thousands_of_digits_names_the_file(tmp_path, capsys):
    doc = {"format": "probviz-session", "version": 1, "classes": [{"name": "u", "color": "#112233"}],
           "points": {"x": [1], "y": [2], "label": [0]}}
    path = tmp_path / "big.probviz"
    path.write_text(json.dumps(doc).replace('"x": [1]', '"x": [' + "9" * 5001 + "]"))
    assert cli.main(["fit", str(path)]) == 2
    assert capsys.readouterr().err == ("probviz: error: big.probviz: not a valid probviz session (a number "
                                       "with thousands of digits)\n")


@pytest.mark.parametrize("model", ["fisher", "perceptron"])
def test_export_refuses_what_fit_refuses_and_writes_nothing(model, tmp_path):
    out = tmp_path / "f.png"
    fit = run("fit", "example:iris", "--model", model)
    export = run("export", "example:iris", "--model", model, "-o", str(out))
    assert fit.returncode == export.returncode == 2
    assert export.stderr == fit.stderr and "cannot fit" in export.stderr and export.stderr.count("\n") == 1
    assert not out.exists()
