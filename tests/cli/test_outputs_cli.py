"""No output flag loses a byte: `sample`, `curve` and `export` onto their own input, onto each other,
through links, onto pipes and folders. FIFOs are made in the test's folder, never /dev/null."""

import os
import stat
import subprocess
import sys
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from probviz import cli
from probviz.data.csvio import read_csv
from probviz.data.session import Session, write_session
from tests.hypo import examples

CSV = "x,y,label\n0,0,a\n1,0,a\n0,1,a\n5,5,b\n6,5,b\n5,6,b\n"


def run(*args, timeout=180):
    return subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, text=True, timeout=timeout)


def test_export_of_a_csv_named_like_its_figure_keeps_the_csv(tmp_path):
    data = tmp_path / "data.png"  # a CSV whose name ends in .png
    data.write_text(CSV)
    r = run("export", str(data), "-o", str(data))
    assert r.returncode == 2 and data.read_text() == CSV
    assert r.stderr == f"probviz: error: -o {data} is the input {data}: writing it would destroy it; " \
                       "choose another output file\n"


def test_sample_onto_its_own_session_keeps_it(tmp_path):
    session = tmp_path / "x.probviz"
    csv = tmp_path / "pts.csv"
    csv.write_text(CSV)
    write_session(str(session), Session(read_csv(str(csv))))
    before = session.read_bytes()
    r = run("sample", str(session), "--fitted", "-n", "3", "-o", str(session))
    assert r.returncode == 2 and session.read_bytes() == before
    assert r.stderr.count("\n") == 1 and f"is the input {session}" in r.stderr


def test_export_refuses_two_outputs_on_one_file(tmp_path):
    fig = tmp_path / "f.png"
    r = run("export", "example:fruit", "-o", str(fig), "--section", "0,0,1,1", "--section-out", str(fig))
    assert r.returncode == 2 and not fig.exists()
    assert r.stderr == f"probviz: error: --section-out {fig} and -o {fig} are the same file: the second " \
                       "would overwrite the first; give each its own file\n"


def test_export_streams_a_figure_into_a_named_pipe(tmp_path):
    fifo = tmp_path / "fig.png"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        r = run("export", "example:fruit", "-o", str(fifo), "--width", "200", "--height", "150")
        out, _ = reader.communicate(timeout=60)
    finally:
        reader.kill()
    assert r.returncode == 0, r.stderr
    assert out.startswith(b"\x89PNG\r\n\x1a\n") and stat.S_ISFIFO(os.lstat(fifo).st_mode)


KINDS = ("new", "regular", "the input", "link to the input", "hard link to the input", "pipe", "folder",
         "missing folder")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), through_link=st.booleans())
def test_sample_never_writes_over_what_it_must_not(kind, through_link, capsys):
    """Any output path: the points written, or exit 2 with one line naming the output; the input
    unchanged, a pipe still a pipe, and no warning on standard error."""
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "in.csv")
        with open(data, "w") as f:
            f.write(CSV)
        out = os.path.join(d, "out.csv")
        if kind == "regular":
            with open(out, "w") as f:
                f.write("old")
        elif kind == "the input":
            out = data
        elif kind == "link to the input":
            os.symlink(data, out)
        elif kind == "hard link to the input":
            os.link(data, out)
        elif kind == "pipe":
            os.mkfifo(out)
        elif kind == "folder":
            os.mkdir(out)
        elif kind == "missing folder":
            out = os.path.join(d, "nowhere", "out.csv")
        named = out
        if through_link and kind != "missing folder":
            named = os.path.join(d, "via.csv")
            os.symlink(out, named)
        code = cli.main(["sample", data, "--fitted", "-n", "4", "-o", named])
        captured = capsys.readouterr()
        with open(data) as f:
            assert f.read() == CSV
        if kind in ("new", "regular"):
            assert code == 0 and captured.err == ""
            with open(out) as f:
                assert f.read().count("\n") == 5  # a header and four points
        else:
            assert code == 2 and captured.err.count("\n") == 1
            assert captured.err.startswith("probviz: error: ") and named in captured.err
            assert "Warning" not in captured.err and ".probviz-" not in captured.err
        if kind == "pipe":
            assert stat.S_ISFIFO(os.lstat(out).st_mode)
        if kind == "folder":
            assert os.path.isdir(out) and os.listdir(out) == []
