"""Text from Windows and text to any console: CSVs in Windows-1252 or UTF-16 load and say so, output never
fails on the console's encoding, a reader that leaves early ends the command quietly, and --version and
--help answer without the numerical stack."""

import json
import subprocess
import sys

import pytest

from probviz.data.csvio import read_csv
from probviz.data.files import DataError

ROWS = "x,y,fruit\n1,2,pomme\n2,3,pêche\n3,1,pêche\n0,0,pomme\n1.5,0.5,crème brûlée €\n"


def _probviz(*args, env=None, **kw):
    import os

    return subprocess.run([sys.executable, "-m", "probviz", *args], capture_output=True, timeout=120,
                          env={**os.environ, **(env or {})}, **kw)


@pytest.mark.parametrize("codec,named", [("cp1252", "Windows-1252"), ("utf-16", "UTF-16"), ("utf-8", None),
                                         ("utf-8-sig", None)])
def test_a_csv_from_excel_loads_and_names_its_encoding(tmp_path, codec, named):
    path = tmp_path / "fruit.csv"
    path.write_bytes(ROWS.encode(codec))
    data = read_csv(str(path))
    assert sorted(data.class_names) == sorted(["crème brûlée €", "pomme", "pêche"])
    notes = [n for n in data.notices if "encod" in n or "UTF" in n or "Windows" in n]
    if named is None:
        assert notes == []
    else:
        assert len(notes) == 1 and named in notes[0] and "fruit.csv" in notes[0]
    out = _probviz("fit", str(path), "--json")
    assert out.returncode == 0
    notices = json.loads(out.stdout)["notices"]
    assert any(named in n for n in notices) if named else not any("Windows" in n or "UTF" in n for n in notices)


def test_bytes_that_are_no_text_we_know_are_refused_naming_the_file(tmp_path):
    path = tmp_path / "odd.csv"
    path.write_bytes(b"x,y,c\n1,2,\x81\x8d\n")  # undefined in Windows-1252, invalid in UTF-8
    with pytest.raises(DataError) as e:
        read_csv(str(path))
    assert str(e.value).startswith("odd.csv, line 2: neither UTF-8 nor Windows-1252 text")


def test_output_never_fails_on_the_consoles_encoding(tmp_path):
    """A Windows console's code page has no σ or ᵀ (the logistic model's lines) and no emoji (a class name)."""
    path = tmp_path / "emoji.csv"
    path.write_text("x,y,c\n0,0,🍎\n1,1,🍑\n0,1,🍎\n1,0,🍑\n", encoding="utf-8")
    for args in (("fit", "example:fruit", "--model", "logistic"), ("fit", str(path))):
        out = _probviz(*args, env={"PYTHONIOENCODING": "cp1252"})
        assert out.returncode == 0, out.stderr
        text = out.stdout.decode("cp1252")
        assert "\\u" in text or "\\U" in text  # the characters cp1252 lacks, escaped
    assert "\\U0001f34e" in _probviz("fit", str(path), env={"PYTHONIOENCODING": "cp1252"}).stdout.decode("cp1252")


def test_a_reader_that_leaves_early_ends_the_command_quietly():
    """`probviz sample ... -o - | head -1`: the rest of the output has nowhere to go; status 0, nothing
    on standard error (not "[Errno 32] Broken pipe")."""
    proc = subprocess.Popen([sys.executable, "-m", "probviz", "sample", "example:fruit", "-n", "300000", "-o", "-"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0 and err == b"" and first == b"roughness,colour,label\n"
    small = subprocess.Popen([sys.executable, "-m", "probviz", "fit", "example:fruit", "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    small.stdout.close()  # gone before a byte was written: the flush at the end meets the closed pipe
    assert small.wait(timeout=120) == 0 and small.stderr.read() == b""


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_answer_without_numpy_scipy_or_qt(flag):
    code = ("import sys\nfrom probviz.cli import main\ntry:\n    main([%r])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('numpy', 'scipy', 'PySide6', 'pyqtgraph') if m in sys.modules]\n"
            "print('HEAVY', heavy)\n") % flag
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in out.stdout, out.stdout[-400:]
    assert ("probviz 0" in out.stdout) if flag == "--version" else ("fit" in out.stdout and "export" in out.stdout)
