"""`probviz fit INPUT --model logistic|softmax --basis rbf --centers "x,y;x,y" --width S --json`: Gaussian radial
basis functions (Bishop 4.3.1), the weights checked against an independent fit of the same features; the JSON
says which centres and width were used; `probviz export` takes the same options (--rbf-width there: its
--width is the figure's); a bad --centers is one line and exit code 2."""

import json
import subprocess
import sys

import numpy as np
import pytest
from rbf_reference import design, reference_binary, reference_softmax

from probviz import cli


def _data(tmp_path, offset=0.0, scale=1.0):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(36, 2)) * 1.3
    r = np.hypot(*X.T)
    labels = np.where(r < 0.9, "in", np.where(X[:, 0] > 0, "right", "left"))
    X = offset + scale * X
    path = tmp_path / "ring.csv"
    path.write_text("x,y,label\n" + "".join(f"{float(x)!r},{float(y)!r},{t}\n" for (x, y), t in zip(X, labels)))
    return path, X, labels


def fit_json(capsys, *args):
    assert cli.main(["fit", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("offset,scale", [(0.0, 1.0), (1e6, 1e-3)])
def test_softmax_json_against_an_independent_fit(tmp_path, capsys, offset, scale):
    path, X, labels = _data(tmp_path, offset, scale)
    C = offset + scale * np.array([[0.0, 0.0], [1.5, 0.0], [-1.5, 0.0], [0.0, 1.5], [0.0, -1.5]])
    text = ";".join(f"{float(a)!r},{float(b)!r}" for a, b in C)
    out = fit_json(capsys, str(path), "--model", "softmax", "--basis", "rbf", f"--centers={text}",
                   "--width", repr(0.8 * scale), "--l2", "0.05")
    assert out["model"] == "softmax" and out["parameters"]["basis"] == "rbf"
    np.testing.assert_array_equal(np.array(out["centers"]), C)
    assert out["width"] == 0.8 * scale
    names = sorted(set(labels))
    codes = np.searchsorted(names, labels)
    W = reference_softmax(design(X, C, 0.8 * scale), codes, 3, 0.05)
    got = np.column_stack([out["intercept"], out["coef"]])
    np.testing.assert_allclose(got, W, atol=1e-6 * np.abs(W).max())
    assert out["n_parameters"] == 2 * 6 and out["converged"]


def test_logistic_json_with_the_default_centres(tmp_path, capsys):
    path, X, labels = _data(tmp_path)
    keep = labels != "left"
    path.write_text("x,y,label\n" + "".join(f"{float(x)!r},{float(y)!r},{t}\n"
                                            for (x, y), t in zip(X[keep], labels[keep])))
    out = fit_json(capsys, str(path), "--model", "logistic", "--basis", "rbf")
    C = np.array(out["centers"])
    lo, hi = X[keep].min(axis=0), X[keep].max(axis=0)
    expected = np.array([(x, y) for y in np.linspace(lo[1], hi[1], 3) for x in np.linspace(lo[0], hi[0], 3)])
    np.testing.assert_allclose(C, expected, rtol=1e-15, atol=1e-15)  # the 3 x 3 lattice over the box
    nearest = [min(np.hypot(*(c - d)) for d in expected if not np.array_equal(c, d)) for c in expected]
    np.testing.assert_allclose(out["width"], np.mean(nearest), rtol=1e-12)  # the mean nearest-neighbour distance
    w = reference_binary(design(X[keep], C, out["width"]), labels[keep] == "right", 0.01)
    np.testing.assert_allclose(np.r_[out["intercept"], out["coef"][0]], w, atol=1e-6 * np.abs(w).max())
    assert out["parameters"]["centers"] == "" and out["parameters"]["width"] == 0.0  # as given: the defaults


def test_text_output_names_the_basis_functions(tmp_path, capsys):
    path, *_ = _data(tmp_path)
    assert cli.main(["fit", str(path), "--model", "softmax", "--basis", "rbf", "--centers", "0,0;1,1",
                     "--width", "0.5"]) == 0
    text = capsys.readouterr().out
    assert "φ_m(x) = exp(−‖x − μ_m‖²/(2s²)), s = 0.5" in text and "centres μ_m: (0, 0); (1, 1)" in text
    assert "Parameters: 6" in text  # (K - 1)(M + 1) = 2 x 3


@pytest.mark.parametrize("centers,message", [
    ("1,2;3", "probviz fit: error: argument --centers: centers: centre 2 ('3') is not one x,y pair; write x,y pairs "
              "separated by ';' (0,0;1,1) (see probviz fit --help)"),
    ("a,b", "probviz fit: error: argument --centers: centers: centre 1 ('a,b') is not two numbers "
            "(see probviz fit --help)"),
    ("0,0;;1,1", "probviz fit: error: argument --centers: centers: centre 2 is empty; write x,y pairs separated by "
                 "';' (0,0;1,1) (see probviz fit --help)"),
])
def test_bad_centers_are_one_line(tmp_path, capsys, centers, message):
    path, *_ = _data(tmp_path)
    try:
        code = cli.main(["fit", str(path), "--model", "softmax", "--basis", "rbf", "--centers", centers, "--json"])
    except SystemExit as e:  # argparse's own usage error
        code = e.code
    assert code == 2
    assert capsys.readouterr().err == message + "\n"


def test_no_traceback_and_refusals(tmp_path):
    path, *_ = _data(tmp_path)
    run = lambda *a: subprocess.run([sys.executable, "-m", "probviz", *a], capture_output=True, text=True)  # noqa: E731
    r = run("fit", str(path), "--model", "logistic", "--basis", "rbf", "--centers", "1,x")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    r = run("fit", str(path), "--model", "lda", "--width", "2")
    assert r.returncode == 2 and r.stderr == ("probviz: error: --rbf-width does not apply to lda "
                                              "(it takes --reg-covar)\n")
    r = run("fit", str(path), "--model", "logistic", "--basis", "rbf", "--bayes")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "polynomial bases" in r.stderr
    r = run("fit", str(path), "--model", "logistic", "--basis", "rbf", "--optimizer", "gd")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "rbf" in r.stderr


def test_export_takes_the_same_options(tmp_path):
    path, *_ = _data(tmp_path)
    out = tmp_path / "rbf.svg"
    r = subprocess.run([sys.executable, "-m", "probviz", "export", str(path), "--model", "softmax", "--basis", "rbf",
                        "--centers", "0,0;1.5,0;-1.5,0", "--rbf-width", "0.8", "-o", str(out), "--width", "600",
                        "--height", "450"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    svg = out.read_text()
    assert "RBF centres" in svg  # the legend's row for the open diamonds
    r = subprocess.run([sys.executable, "-m", "probviz", "export", str(path), "--model", "softmax", "--basis", "rbf",
                        "--centers", "0,0;oops", "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "centre 2" in r.stderr


def test_feature_space_out(tmp_path, capsys):
    """Bishop figure 4.12: two centres, and the boundary in (phi_1, phi_2) is the line where the scores tie."""
    path, X, labels = _data(tmp_path)
    keep = labels != "left"
    path.write_text("x,y,label\n" + "".join(f"{float(x)!r},{float(y)!r},{t}\n"
                                            for (x, y), t in zip(X[keep], labels[keep])))
    fig = tmp_path / "fs.png"
    out = fit_json(capsys, str(path), "--model", "logistic", "--basis", "rbf", "--centers", "0,0;1.5,0",
                   "--width", "1", "--feature-space-out", str(fig))
    assert fig.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (line,) = out["feature_space"]["lines"]
    ends = np.array(line["ends"])
    w = np.r_[out["intercept"], out["coef"][0]]
    np.testing.assert_allclose(np.column_stack([np.ones(2), ends]) @ w, 0.0, atol=1e-12)
    r = subprocess.run([sys.executable, "-m", "probviz", "fit", str(path), "--model", "logistic",
                        "--feature-space-out", str(fig)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "rbf basis" in r.stderr
