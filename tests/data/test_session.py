"""Session files: exact round trips, refusal of malformed and future files, atomic saves."""

import json
import os
import signal
import stat
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from probviz.data.csvio import DataError
from probviz.data.dataset import Dataset
from probviz.data.session import Session, from_json, read_session, to_json, write_session
from probviz.models.training import TrainingSpec


def sample():
    rng = np.random.default_rng(3)
    d = Dataset(rng.normal(size=(40, 2)) * 1e3 + 0.1, rng.integers(0, 3, 40), ["a", "b é", "c"],
                ["#112233", "#445566", "#778899"], ("rough", "colour"), "demo", "a lesson", (2.3, 1.5),
                (-1.0, 3.5, -1.0, 4.5))
    return Session(d, "softmax", {"softmax": {"l2": 0.5, "basis": "cubic", "standardize": True}},
                   ["boundaries", "heatmap"], (-2.0, 2.0, -3.0, 3.0), priors=(0.2, 0.3, 0.5), theta=0.4,
                   compare="qda", split=(0.25, 9), section=((0.0, -1.5), (2.5, 1e-7)),
                   training=TrainingSpec("newton", None, "generative", 7, 0, True), source="/home/t/lesson.probviz")


def test_round_trip_restores_everything(tmp_path):
    s = sample()
    p = tmp_path / "s.probviz"
    write_session(str(p), s)
    back = read_session(str(p))
    np.testing.assert_array_equal(back.dataset.X, s.dataset.X)  # bit for bit
    np.testing.assert_array_equal(back.dataset.labels, s.dataset.labels)
    for field in ("class_names", "colors", "axis_names", "name", "description", "probe"):
        assert getattr(back.dataset, field) == getattr(s.dataset, field), field
    assert back.dataset.view == s.view  # the view saved is the one on screen
    assert (back.model, back.params, back.layers, back.view) == (s.model, s.params, s.layers, s.view)
    assert (back.priors, back.theta, back.compare, back.split, back.section, back.training, back.source) == (
        (0.2, 0.3, 0.5), 0.4, "qda", (0.25, 9), ((0.0, -1.5), (2.5, 1e-7)),
        TrainingSpec("newton", None, "generative", 7, 0, True), "/home/t/lesson.probviz")


def test_future_version_is_refused_politely():
    doc = json.loads(to_json(sample()))
    doc["version"] = 99
    with pytest.raises(DataError, match="saved by a newer probviz"):
        from_json(json.dumps(doc), "new.probviz")


@pytest.mark.parametrize("mutate,what", [
    (lambda d: d.pop("format"), "no probviz-session header"),
    (lambda d: d["points"].update(x=[1, 2]), "points: 2 x, "),
    (lambda d: d["points"]["label"].__setitem__(0, 7), "point 1: its label is 7, not a class number from 0 to "),
    (lambda d: d["points"]["x"].__setitem__(0, "__import__('os')"),
     "point 1: its x is \"__import__\\('os'\\)\", not a "),
    (lambda d: d.update(classes=[]), "classes"),
    (lambda d: d.update(view=[0, 1]), "view"),
])
def test_malformed_sessions_are_refused(mutate, what):
    doc = json.loads(to_json(sample()))
    mutate(doc)
    with pytest.raises(DataError, match=f"bad.probviz: not a valid probviz session \\({what}"):
        from_json(json.dumps(doc), "bad.probviz")


def test_not_json_names_the_line():
    with pytest.raises(DataError, match=r"x.probviz, line 2: not valid JSON"):
        from_json('{"format":\n oops}', "x.probviz")


def test_a_save_killed_halfway_leaves_the_old_file(tmp_path):
    """A process is killed in the middle of writing: the old session must still be there, whole."""
    p = tmp_path / "work.probviz"
    write_session(str(p), sample())
    before = p.read_bytes()
    script = textwrap.dedent(f"""
        import os, signal, numpy as np
        import probviz.data.atomic as atomic
        from probviz.data.dataset import Dataset
        from probviz.data.session import Session, write_session
        import builtins
        real_open = builtins.open
        class Dying:
            def __init__(self, f): self.f = f
            def __enter__(self): return self
            def __exit__(self, *a): return False
            def write(self, text):
                self.f.write(text[: len(text) // 2]); self.f.flush()
                os.kill(os.getpid(), signal.SIGKILL)
        atomic.open = lambda *a, **k: Dying(real_open(*a, **k))  # the writer's own file only
        d = Dataset(np.zeros((5, 2)), [0] * 5, ["only"])
        write_session({str(p)!r}, Session(d))
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert child.wait() == -signal.SIGKILL
    assert p.read_bytes() == before
    read_session(str(p))  # still a valid session
    (left,) = [f for f in os.listdir(tmp_path) if f != "work.probviz"]  # the killed save's temporary
    assert left.startswith(f".probviz-{child.pid}-")
    write_session(str(p), sample())  # the next save into the folder removes it
    assert os.listdir(tmp_path) == ["work.probviz"]


def test_a_running_save_keeps_its_temporary(tmp_path):
    """Another process's save in progress (its process alive) is left alone."""
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".probviz-{other.pid}-abcd.tmp"
        live.write_text("half")
        write_session(str(tmp_path / "w.probviz"), sample())
        assert live.exists() and other.poll() is None  # its file kept, and the process not signalled
    finally:
        other.kill()
        other.wait()


def test_a_save_through_a_symbolic_link_writes_its_target(tmp_path):
    target = tmp_path / "real" / "work.probviz"
    target.parent.mkdir()
    write_session(str(target), sample())
    link = tmp_path / "link.probviz"
    link.symlink_to(target)
    s = sample()
    s.model = "softmax"
    write_session(str(link), s)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert read_session(str(target)).model == "softmax"


def test_a_save_flushes_the_file_and_its_folder(tmp_path, monkeypatch):
    """The rename is durable only once the folder's entry is on disk too."""
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(os.path.isdir(f"/proc/self/fd/{fd}")) or real(fd))
    write_session(str(tmp_path / "w.probviz"), sample())
    assert synced == [False, True]  # the temporary file, then the folder


def test_a_failed_save_cleans_up_its_temporary_file(tmp_path, monkeypatch):
    p = tmp_path / "work.probviz"
    write_session(str(p), sample())

    def boom(*a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_session(str(p), sample())
    assert sorted(os.listdir(tmp_path)) == ["work.probviz"]


def test_a_save_keeps_the_files_mode(tmp_path):
    p = tmp_path / "shared.probviz"
    write_session(str(p), sample())
    os.chmod(p, 0o640)
    write_session(str(p), sample())
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o640
    q = tmp_path / "new.probviz"
    write_session(str(q), sample())
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(os.stat(q).st_mode) == 0o666 & ~mask  # not mkstemp's 0600


def test_saves_write_a_hidden_temporary_beside_the_file(tmp_path, monkeypatch):
    seen = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: seen.append((a, b)) or real(a, b))
    p = tmp_path / "w.probviz"
    write_session(str(p), sample())
    ((tmp, target),) = seen
    assert os.path.dirname(tmp) == str(tmp_path) and target == str(p)  # same folder: the rename is atomic
    name = os.path.basename(tmp)
    assert name.startswith(".probviz-") and name.endswith(".tmp")


def test_unreadable_sessions_say_why(tmp_path):
    missing = tmp_path / "gone.probviz"
    with pytest.raises(DataError) as e:
        read_session(str(missing))
    assert str(e.value) == "gone.probviz: no such file"
    latin = tmp_path / "latin.probviz"
    latin.write_bytes('{"name": "caf\xe9"}'.encode("latin-1"))
    with pytest.raises(DataError) as e:
        read_session(str(latin))
    assert str(e.value) == "latin.probviz: not a probviz session (not UTF-8 text)"
