"""Writing never destroys: pipes and devices get a stream (never a rename over them), an output that
is an input or another output is refused. FIFOs are made here with os.mkfifo; a device only when
running as root, in the test's own folder, never the machine's /dev/null."""

import os
import stat
import threading

import pytest

from probviz.data.atomic import atomic_write_text
from probviz.data.outputs import check_outputs, check_target


def _reader(path, got):
    def read():
        with open(path, "rb") as f:
            got.append(f.read())
    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t


def _wait_for_reader(path):
    """Block until the reader has opened the pipe (a writer's non-blocking open would race it)."""
    fd = os.open(path, os.O_WRONLY)  # blocks until the reader is there
    return fd


def test_a_named_pipe_gets_the_bytes_and_stays_a_pipe(tmp_path):
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    got = []
    t = _reader(fifo, got)
    keep = _wait_for_reader(fifo)  # the reader's end stays open until we close ours
    try:
        atomic_write_text(str(fifo), "x,y,label\n1,2,a\n")
    finally:
        os.close(keep)
    t.join(10)
    assert got == [b"x,y,label\n1,2,a\n"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.listdir(tmp_path) == ["out.csv"]


def test_a_pipe_with_no_reader_is_refused_at_once(tmp_path):
    fifo = tmp_path / "out.png"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as e:
        atomic_write_text(str(fifo), "data")
    assert str(e.value) == f"{fifo}: a named pipe with no reader; start the reader first"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.listdir(tmp_path) == ["out.png"]


def test_a_symbolic_link_to_a_pipe_streams_into_the_pipe(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    link = tmp_path / "link.csv"
    link.symlink_to(fifo)
    got = []
    t = _reader(fifo, got)
    keep = _wait_for_reader(fifo)
    try:
        atomic_write_text(str(link), "abc")
    finally:
        os.close(keep)
    t.join(10)
    assert got == [b"abc"] and link.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device file needs root")
def test_a_character_device_is_written_in_place_not_replaced(tmp_path):
    dev = tmp_path / "null"
    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a stand-in for /dev/null, in the test's folder
    atomic_write_text(str(dev), "gone into the device")
    assert stat.S_ISCHR(os.lstat(dev).st_mode) and os.listdir(tmp_path) == ["null"]
    check_target(str(dev))  # and it may be named as an output


def test_a_folder_is_refused_naming_it(tmp_path):
    with pytest.raises(OSError, match="is a folder"):
        atomic_write_text(str(tmp_path), "x")
    with pytest.raises(OSError, match="is a folder"):
        check_target(str(tmp_path))


def test_a_missing_folder_is_named_not_the_temporary(tmp_path):
    target = tmp_path / "missing" / "out.csv"
    for attempt in (lambda: atomic_write_text(str(target), "x"), lambda: check_target(str(target))):
        with pytest.raises(OSError) as e:
            attempt()
        assert str(e.value) == f"{target}: directory does not exist"
        assert ".probviz-" not in str(e.value)


def test_an_output_that_is_an_input_is_refused_under_any_name(tmp_path):
    data = tmp_path / "data.csv"
    data.write_text("x,y,label\n1,2,a\n")
    link = tmp_path / "alias.csv"
    link.symlink_to(data)
    hard = tmp_path / "hard.csv"
    os.link(data, hard)
    sub = tmp_path / "sub"
    sub.mkdir()
    for alias in (str(data), str(link), str(hard), str(sub / ".." / "data.csv")):
        with pytest.raises(ValueError) as e:
            check_outputs({"the input": str(data)}, {"-o": alias})
        assert str(e.value).startswith(f"-o {alias} is the input {data}:")
    check_outputs({"the input": str(data)}, {"-o": str(tmp_path / "other.csv")})  # another file is fine


def test_two_outputs_on_one_file_are_refused(tmp_path):
    a = str(tmp_path / "f.png")
    with pytest.raises(ValueError, match=r"--curve .*f.png and -o .*f.png are the same file"):
        check_outputs({"the input": "example:fruit"}, {"-o": a, "--curve": a})
    check_outputs({"the input": "example:fruit"}, {"-o": a, "--curve": str(tmp_path / "g.png"),
                                                   "--section-out": None})
    check_outputs({"the input": "-"}, {"-o": "-"})  # standard input and output are no files
