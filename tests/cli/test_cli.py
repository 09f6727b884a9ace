"""The command line, run as a user runs it: a subprocess, exit codes, stdout and stderr."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
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
    (("fit", "example:fruit", "--model", "svm"), "invalid choice: 'svm' (choose from 'lda', 'qda', 'tied', 'nb', "
                                                 "'logistic', 'softmax', 'probit', 'leastsquares', 'fisher', 'perceptron')"),
    (("frobnicate",), "'frobnicate' is neither a command (fit, examples, export, deck, sample, curve, roc, bench, "
                      "install-desktop, completion, gui) nor an existing file"),
])
def test_errors_are_one_line_without_traceback(args, message):
    r = run(*args)
    assert r.returncode == 2
    assert r.stderr.startswith("probviz") and ": error: " in r.stderr and message in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_importing_probviz_core_does_not_import_qt():
    code = ("import sys, probviz, probviz.models, probviz.scene, probviz.data.inputs, probviz.cli; "
            "print(any(m.startswith(('PySide6', 'pyqtgraph', 'superqt')) for m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "False", r.stderr


def test_export_png_has_the_size_and_is_not_blank(tmp_path):
    from PySide6.QtGui import QImage

    out = tmp_path / "fig.png"
    r = run("export", "example:fruit", "-o", str(out), "--width", "640", "--height", "480",
            "--title", "Apple or peach?")
    assert r.returncode == 0, r.stderr
    img = QImage(str(out))
    assert (img.width(), img.height()) == (640, 480)
    colours = {img.pixel(x, y) for x in range(0, 640, 16) for y in range(0, 480, 16)}
    assert len(colours) > 20  # heatmap, points and lines, not an empty canvas


def test_export_svg_is_vector(tmp_path):
    import xml.etree.ElementTree as ET

    out = tmp_path / "fig.svg"
    r = run("export", "example:shared-vs-own-covariance", "-o", str(out), "--model", "qda",
            "--layers", "heatmap,boundaries,ellipses,points")
    assert r.returncode == 0, r.stderr
    root = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    from probviz.data.examples import load

    data = load("shared-vs-own-covariance")
    n, first = len(data.X), int((data.labels == 0).sum())
    circles, paths = len(root.findall(f".//{ns}circle")), len(root.findall(f".//{ns}path"))
    assert first - 10 <= circles < n  # the first class's points are circles (a few may lie outside the view)
    assert circles + paths >= n - 10  # the other classes' markers (squares, triangles) are paths
    assert len(root.findall(f".//{ns}image")) == 1  # only the heatmap is a picture
    assert "non-scaling" not in out.read_text()  # strokes have real widths: any renderer draws the same
    texts = [t.text for t in root.iter(f"{ns}text")]
    assert "x1" in texts and "x2" in texts and "0" in texts  # text stays text


def test_export_pdf_page_matches_the_size(tmp_path):
    import re

    out = tmp_path / "fig.pdf"
    r = run("export", "example:iris", "-o", str(out), "--width", "800", "--height", "600")
    assert r.returncode == 0, r.stderr
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert box and (round(float(box.group(1))), round(float(box.group(2)))) == (600, 450)  # 96 dpi: 0.75 pt a pixel
    r = run("export", "example:iris", "-o", str(out), "--width", "800", "--height", "600", "--dpi", "300")
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", out.read_bytes())
    assert (round(float(box.group(1))), round(float(box.group(2)))) == (192, 144)  # 800 / 300 inches


@pytest.mark.parametrize("args,message", [
    (("export", "example:fruit", "-o", "fig.gif"), "fig.gif: unknown figure type .gif"),
    (("export", "example:fruit", "-o", "nowhere/"), "nowhere: unknown figure type (none)"),
    (("export", "example:fruit", "-o", "fig.png", "--layers", "heatmap,glitter"), "unknown layer 'glitter'"),
    (("export", "missing.csv", "-o", "fig.png"), "missing.csv: no such file"),
    (("export", "example:fruit", "-o", "fig.png", "--width", "5"), "figure size 5x900 is out of range"),
])
def test_export_errors(tmp_path, args, message):
    r = subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode != 0 and message in r.stderr and "Traceback" not in r.stderr
    assert not list(tmp_path.iterdir())  # nothing half-written


@pytest.mark.parametrize("target", ["figures", "plots.png", "."])
def test_export_into_a_folder_says_it_is_a_folder(tmp_path, target):
    """``-o`` naming a folder (even one whose name ends in .png): one line saying so, nothing written in it."""
    folder = tmp_path / "work"
    (folder / "figures").mkdir(parents=True)
    (folder / "plots.png").mkdir()
    r = subprocess.run([sys.executable, "-m", "probviz", "export", "example:fruit", "-o", target],
                       capture_output=True, text=True, cwd=folder)
    name = {"figures": "figures", "plots.png": "plots.png", ".": "work"}[target]
    assert r.returncode == 2 and r.stderr.strip() == (f"probviz: error: {name}: is a folder; name a .png, .svg or "
                                                      ".pdf file in it")
    assert sorted(p.name for p in folder.rglob("*")) == ["figures", "plots.png"]


def test_fit_reads_csv_files(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("x,y,label\n0,0,a\n1,0.2,a\n0.2,1,a\n3,3,b\n4,3.1,b\n3.2,4,b\n")
    r = run("fit", str(p), "--model", "qda", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["classes"] == ["a", "b"]
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y,label\n1,2,a\n3\n")
    r = run("fit", str(bad))
    assert r.returncode == 2 and r.stderr.strip() == "probviz: error: bad.csv, line 3: has 1 field, expected 3"


def test_gui_without_a_screen_gives_a_one_line_hint(monkeypatch):
    from probviz.app import launch

    monkeypatch.setattr(launch.sys, "platform", "linux")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert "no display found" in launch.display_problem()
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(launch.ctypes.util, "find_library", lambda name: None)
    assert "libxcb-cursor0" in launch.display_problem()
    monkeypatch.setattr(launch.ctypes.util, "find_library", lambda name: "libxcb-cursor.so.0")
    assert launch.display_problem() is None


def test_gui_command_without_display_exits_cleanly():
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run([sys.executable, "-m", "probviz"], capture_output=True, text=True, env=env, timeout=60)
    if sys.platform.startswith("linux"):
        assert r.returncode == 1 and r.stderr.startswith("probviz: error: no display found")


def test_bench_quick_json_reports_every_model_and_the_targets():
    r = run("bench", "--quick", "--repeat", "1", "--json", timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert {row["model"] for row in out["rows"]} == {"lda", "qda", "nb", "logistic", "softmax"}
    assert all(row["fit_ms"] > 0 and row["sklearn_ms"] > 0 for row in out["rows"])
    assert out["cores"] >= 1 and any("scikit-learn" in v for v in out["verdicts"])


def test_export_to_a_missing_folder_says_which(tmp_path):
    target = tmp_path / "no" / "such" / "x.png"
    r = run("export", "example:fruit", "-o", str(target))
    assert r.returncode == 2 and r.stderr.strip() == f"probviz: error: {target}: directory does not exist"


def test_fit_does_not_depend_on_the_units(tmp_path):
    """The fruit data in units of 1/1000 fit as well as in the original units (standardized features)."""
    from probviz.data.examples import load

    d = load("fruit")
    path = tmp_path / "milli.csv"
    path.write_text("x,y,label\n" + "".join(f"{float(x) * 1e-3!r},{float(y) * 1e-3!r},{d.class_names[k]}\n"
                                             for (x, y), k in zip(d.X, d.labels)))
    outs = []
    for source in ("example:fruit", str(path)):
        r = run("fit", source, "--model", "logistic", "--json")
        assert r.returncode == 0, r.stderr
        outs.append(json.loads(r.stdout))
    assert outs[1]["accuracy"] == outs[0]["accuracy"] > 0.9 and outs[1]["converged"]
    assert outs[1]["log_likelihood"] == pytest.approx(outs[0]["log_likelihood"], rel=1e-9)


@pytest.mark.parametrize("name,message", [
    ("negative_l2.probviz", "negative_l2.probviz: not a valid probviz session (logistic: l2 must be a number"),
    ("near_overflow.csv", "near_overflow.csv, line 2: x is 1e308; probviz handles values up to ±1e+100"),
    ("too_many_classes.probviz", "too_many_classes.probviz: not a valid probviz session (300 classes"),
])
def test_hostile_files_exit_with_one_line_and_write_nothing(tmp_path, name, message):
    """The fuzz corpus through `export` (which used to write a figure of no model and exit 0, or die
    with a traceback) and `fit` (which printed inf): refused, nothing written."""
    src = Path(__file__).parent.parent / "data" / "fuzz" / name
    for args in (("export", str(src), "-o", "fig.png"), ("fit", str(src), "--json")):
        r = subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, text=True,
                           cwd=tmp_path, timeout=60)
        assert r.returncode == 2 and r.stdout == "", (args, r.stdout)
        assert r.stderr.startswith("probviz: error: " + message) and len(r.stderr.splitlines()) == 1
        assert not list(tmp_path.iterdir())


def test_a_fifo_does_not_hang_the_command_line(tmp_path):
    os.mkfifo(tmp_path / "pipe.csv")
    r = subprocess.run([sys.executable, "-m", "probviz", "fit", "pipe.csv"], capture_output=True, text=True,
                       cwd=tmp_path, timeout=60)
    assert r.returncode == 2 and r.stderr == "probviz: error: pipe.csv: not a regular file (a device, pipe or socket)\n"


def test_fit_reads_standard_input(tmp_path):
    """`fit -` takes CSV, or a session's JSON, from standard input."""
    csv_text = "x,y,label\n0,0,a\n1,0.5,a\n0.2,1,a\n3,3,b\n2.5,3.4,b\n3.4,2.1,b\n"
    r = subprocess.run([sys.executable, "-m", "probviz", "fit", "-", "--json"], input=csv_text,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["classes"] == ["a", "b"] and out["n_points"] == 6
    from probviz.data import examples
    from probviz.data.session import to_json

    r = subprocess.run([sys.executable, "-m", "probviz", "fit", "-", "--model", "qda", "--json"],
                       input=to_json(examples.session("xor")), capture_output=True, text=True)
    assert r.returncode == 0 and json.loads(r.stdout)["n_points"] == 160
    r = subprocess.run([sys.executable, "-m", "probviz", "fit", "-"], input="x,y\n", capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("probviz: error: standard input")


def test_bash_completion_completes_commands_and_choices(tmp_path):
    """`probviz completion bash` (shtab, from the parser itself): a valid script whose function offers the
    commands and each option's choices."""
    r = run("completion", "bash")
    assert r.returncode == 0
    script = tmp_path / "probviz.bash"
    script.write_text(r.stdout)

    def complete(*words):
        line = " ".join(["probviz", *words])
        cmd = (f"source {script}; COMP_WORDS=(probviz {' '.join(repr(w) for w in words)}); "
               f"COMP_CWORD={len(words)}; COMP_LINE={line!r}; COMP_POINT={len(line)}; _shtab_probviz; "
               'printf "%s\\n" "${COMPREPLY[@]}"')
        return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=30).stdout.split()

    assert complete("ex") == ["examples", "export"]
    assert complete("fit", "example:fruit", "--optimizer", "") == ["gd", "sgd", "newton"]
    assert "leastsquares" in complete("export", "x", "--model", "")
    zsh = run("completion", "zsh")
    assert zsh.returncode == 0 and zsh.stdout.startswith("#compdef probviz")


def test_curve_shows_its_progress_on_a_terminal_and_nothing_in_a_pipe():
    """A learning curve takes seconds: on a terminal its standard error counts the training sets (one
    line, cleared at the end); piped, standard error stays empty."""
    import os
    import pty
    import subprocess
    import sys

    command = [sys.executable, "-m", "probviz", "curve", "example:fruit", "--sizes", "4,8", "--seeds", "3"]
    parent, child = pty.openpty()
    run = subprocess.run(command, stdout=subprocess.PIPE, stderr=child, timeout=120)
    os.close(child)
    seen = b""
    while True:
        try:
            chunk = os.read(parent, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(parent)
    assert run.returncode == 0
    text = seen.decode()
    assert "1 of 6 training sets" in text and "6 of 6 training sets" in text and text.endswith("\r\x1b[K")
    piped = subprocess.run(command, capture_output=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == b"" and b"Bayes error" in piped.stdout


def test_curves_drawn_by_the_command_line_name_the_models_as_the_window_does(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "curves.svg"
    run = subprocess.run([sys.executable, "-m", "probviz", "curve", "example:fruit", "--sizes", "4,8", "--seeds", "2",
                          "-o", str(out)], capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    svg = out.read_text()
    assert "LDA (shared covariance): mean true error" in svg and "Logistic regression: mean true error" in svg
    assert ">lda:" not in svg and ">logistic:" not in svg


def test_the_window_keeps_blas_to_one_thread_and_a_users_setting_wins():
    """The window's fits are small products on a worker beside the GUI thread: BLAS gets one thread (set
    before numpy loads), unless the user set their own; other commands leave BLAS alone."""
    pytest.importorskip("threadpoolctl")
    code = ("import sys, threadpoolctl\nfrom probviz import cli\n"
            "try:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print(max(i['num_threads'] for i in threadpoolctl.threadpool_info() if i['user_api'] == 'blas'))")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}

    def threads(*argv, **extra):
        r = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120,
                           env={**env, **extra})
        return int(r.stdout.split()[-1])
    assert threads("gui", "--help") == 1
    assert threads("gui", "--help", OPENBLAS_NUM_THREADS="2") == 2
    assert threads("examples") > 1 or os.cpu_count() == 1  # other commands: BLAS's own choice


def test_the_window_starts_without_scipys_optimisers_linear_algebra_or_quadrature():
    """scipy.optimize, scipy.linalg and scipy.integrate cost the window's start-up about half a second and
    are needed only later (an unpenalised fit's separation test, the evidence's alpha, a Bayes error):
    they load when first asked for."""
    code = ("import sys\nimport probviz.app.main_window\n"
            "print(sorted(m for m in ('scipy.optimize', 'scipy.linalg', 'scipy.integrate') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[-2] == "[]"


def test_the_bench_judges_a_real_windows_drag_by_its_size():
    """One 60 Hz frame at 10,000 points, 30 frames a second at 100,000 (medians)."""
    from probviz.bench import verdicts

    result = {"rows": [], "real_window": {"10000": {"lda": {"median_ms": 16.5, "p95_ms": 20.0},
                                        "qda": {"median_ms": 16.9, "p95_ms": 20.0}},
                              "100000": {"lda": {"median_ms": 32.9, "p95_ms": 50.0},
                                         "nb": {"median_ms": 33.2, "p95_ms": 50.0}}}}
    lines = verdicts(result)
    judged = {re.search(r"N=([\d,]+) (\w+) median", line).groups(): line.split(":")[0]
              for line in lines if "real window" in line}
    assert judged == {("10,000", "lda"): "met", ("10,000", "qda"): "NOT met",
                      ("100,000", "lda"): "met", ("100,000", "nb"): "NOT met"}
    assert all("30 frames a second" in line for line in lines if "N=100,000" in line)


def test_the_bench_asks_a_real_windows_drag_at_10000_points_for_a_p95_within_two_frames():
    """The issue's target at 10,000 points: the median within one 60 Hz frame and the 95th percentile within two
    (16.7 and 33.4 ms)."""
    from probviz.bench import verdicts

    result = {"rows": [], "real_window": {"10000": {"lda": {"median_ms": 15.0, "p95_ms": 33.3},
                                                    "nb": {"median_ms": 15.0, "p95_ms": 33.5}}}}
    judged = {re.search(r"N=[\d,]+ (\w+) median", line).group(1): line.split(":")[0]
              for line in verdicts(result) if "real window" in line}
    assert judged == {"lda": "met", "nb": "NOT met"}


@pytest.mark.parametrize("seconds, verdict", [(4.9, "met"), (5.1, "NOT met")])
def test_the_bench_times_the_default_learning_curves_against_five_seconds(seconds, verdict):
    from probviz.bench import verdicts

    lines = [line for line in verdicts({"rows": [], "curve": {"source": "example:fruit", "seconds": seconds}})
             if "probviz curve" in line]
    assert lines == [f"{verdict}: probviz curve example:fruit with its defaults in {seconds:.1f} s (target 5 s)"]


def test_fit_prints_a_near_perfect_fits_tiny_cross_entropy_not_zero(tmp_path):
    """Two clusters of four points, six apart: QDA's cross-entropy is far below 1e-4, not 0. The report gives its
    digits (0.0000 said the fit was perfect), as the JSON has them."""
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal([0, 0], 0.5, (4, 2)), rng.normal([6, 0], 0.5, (4, 2))])
    path = tmp_path / "far.csv"
    path.write_text("x,y,label\n" + "".join(f"{a},{b},{c}\n" for (a, b), c in zip(X, "aaaabbbb")))
    text = run("fit", str(path), "--model", "qda")
    assert text.returncode == 0, text.stderr
    data = json.loads(run("fit", str(path), "--model", "qda", "--json").stdout)
    assert 0 < data["cross_entropy"] < 1e-6
    shown = re.search(r"Cross-entropy: (\S+)", text.stdout).group(1)
    assert float(shown) == pytest.approx(data["cross_entropy"], rel=5e-3)  # three significant digits
    assert "Cross-entropy: 0.0000" not in text.stdout


@pytest.mark.parametrize("v, places, shown", [(7.91e-44, 4, "7.91e-44"), (-0.0060123, 4, "-0.0060"), (0.0, 4, "0.0000"),
                                              (-0.0, 2, "0.00"), (12.3456, 2, "12.35"), (4e-5, 4, "4e-05"),
                                              (5e-5, 4, "0.0001"), (-0.004, 2, "-0.004"), (0.005, 2, "0.01")])
def test_decimals_keep_a_nonzero_value_from_reading_zero(v, places, shown):
    from probviz.report import decimals

    assert decimals(v, places) == shown
    if places == 4:  # the report's four decimals unless told
        assert decimals(v) == shown


def test_the_benchs_windows_leave_the_users_settings_alone_and_each_opens_as_at_a_first_start(tmp_path):
    """`probviz bench` times real windows, which save their size and panels as they close: it keeps them in a
    folder of its own, never the user's, and each opens with the panels of a first start (a Training panel
    that an earlier measure brought to the front stays behind its tab for the next one)."""
    code = "\n".join([
        "from probviz.app.latency import _window",
        "app, win, X, y = _window(50, 2, (900, 600))",
        "print(win.training_dock.visibleRegion().isEmpty())",
        "win.training_dock.show(); win.training_dock.raise_(); app.processEvents()",
        "print(win.training_dock.visibleRegion().isEmpty())",
        "win.doc.mark_saved(); win.close(); app.processEvents()",
        "app, win, X, y = _window(50, 2, (900, 600))",
        "print(win.training_dock.visibleRegion().isEmpty())",
        "win.doc.mark_saved(); win.close()",
    ])
    env = dict(os.environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "False", "True"]  # behind its tab, brought forward, behind again
    assert not [p for p in tmp_path.rglob("*") if "probviz" in p.name]  # nothing of probviz's in the user's home


def test_counts_of_one_are_singular(tmp_path):
    """`probviz fit` on a CSV of one row said "1 points" and "for 1 classes"; `probviz sample -n 1` likewise."""
    one = tmp_path / "one.csv"
    one.write_text("x,y,label\n1,2,a\n")
    r = run("fit", str(one))
    assert r.returncode == 0, r.stderr
    assert "one.csv: 1 point, classes a" in r.stdout and "(for 1 class: " in r.stdout
    assert "1 points" not in r.stdout and "1 classes" not in r.stdout
    r = run("fit", "example:fruit")
    assert "fruit: 250 points, classes apple, peach" in r.stdout and "(for 2 classes: " in r.stdout
    r = run("sample", "example:fruit", "-n", "1", "-o", str(tmp_path / "s.csv"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"wrote {tmp_path / 's.csv'} (1 point, ")
