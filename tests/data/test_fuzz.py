"""A corpus of hostile and careless files: each one loads exactly as written, or is refused with one
line that names the file (and the line), in bounded time and memory.

The small files live in ``fuzz/``; big and special ones (a FIFO, /dev/zero, a sparse 600 MB file,
2,000 labels, a 200 KB field) are made at run time. The window's open path is checked on the same
corpus in tests/app/test_hostile_files.py.
"""

import os
import signal
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from probviz.data.files import DataError
from probviz.data.inputs import load_session

FUZZ = Path(__file__).parent / "fuzz"
PTS = [[0.5, 1.0], [1.5, 2.0], [2.5, 0.5]]

#: file -> (class names, points) when it must load exactly so
LOADS = {
    "hash_in_label.csv": (["class#1", "class#2"], PTS),
    "trailing_comma.csv": (["a", "b"], PTS),
    "excel_sep.csv": (["a", "b"], PTS),
    "comments.csv": (["a", "b"], PTS),
    "hash_header.csv": (["a", "b"], PTS),
    "decimal_comma.csv": (["a", "b"], PTS),
    "decimal_comma_header.csv": (["a", "b"], PTS),
    "utf16_bom.csv": (["a", "b"], PTS),
    "utf16_no_bom.csv": (["a", "b"], PTS),
    "numeric_labels_as_text.csv": (["1", "2", "10"], PTS + [[3.5, 1.5]]),
    "markup_labels.csv": (["<b>bold</b>", "<img src=/etc/probviz.png>"], PTS),
    "short_colour.probviz": (["u", "v"], [[0, 1], [1, 0], [2, 2], [3, 2.5]]),
    "markup_names.probviz": (["<img src=/etc/probviz.png>", "<b>v</b>"], [[0, 1], [1, 0], [2, 2], [3, 2.5]]),
}

#: file -> the whole one-line message
REFUSED = {
    "empty_label.csv": "empty_label.csv, line 3: the label (label) is empty",
    "na_headerless.csv": "na_headerless.csv, line 3: column 2 is 'NA' (a missing value); every point needs x and y",
    "na_cell.csv": "na_cell.csv, line 3: y is 'NA' (a missing value); every point needs x and y",
    "near_overflow.csv": "near_overflow.csv, line 2: x is 1e308; probviz handles values up to ±1e+100",
    "ragged_long.csv": "ragged_long.csv, line 3: has 5 fields, expected 3",
    "control_char.csv": "control_char.csv, line 2: a label contains a control character",
    "negative_l2.probviz": "negative_l2.probviz: not a valid probviz session (logistic: l2 must be a number "
                           "from 0 to 100, got -1)",
    "unknown_basis.probviz": "unknown_basis.probviz: not a valid probviz session (softmax: basis must be one of "
                             "linear, quadratic, cubic, rbf, got 'fourier')",
    "huge_shrinkage.probviz": "huge_shrinkage.probviz: not a valid probviz session (lda: reg_covar must be a number "
                              "from 0 to 1, got 1e+308)",
    "null_l2.probviz": "null_l2.probviz: not a valid probviz session (logistic: l2 must be a number from 0 to 100, "
                       "got null)",
    "string_l2.probviz": "string_l2.probviz: not a valid probviz session (logistic: l2 must be a number from 0 to "
                         "100, got '0.5')",
    "string_standardize.probviz": "string_standardize.probviz: not a valid probviz session (logistic: standardize "
                                  "must be true or false, got 'yes')",
    "unknown_model.probviz": "unknown_model.probviz: not a valid probviz session (unknown model 'svm'; probviz has "
                             "lda, qda, tied, nb, logistic, softmax, probit, leastsquares, fisher, perceptron)",
    "bad_colour.probviz": "bad_colour.probviz: not a valid probviz session (the colour of class 'u' is "
                          "'notacolor', not #RRGGBB)",
    "zero_prior.probviz": "zero_prior.probviz: not a valid probviz session (priors must be 2 positive numbers, "
                          "one per class)",
    "infinite_prior.probviz": "infinite_prior.probviz: not a valid probviz session (priors must be 2 positive "
                              "numbers, one per class)",
    "priors_wrong_count.probviz": "priors_wrong_count.probviz: not a valid probviz session (priors must be 2 "
                                  "positive numbers, one per class)",
    "theta_above_one.probviz": "theta_above_one.probviz: not a valid probviz session (theta must be a number "
                               "from 0 to 1)",
    "huge_coordinate.probviz": "huge_coordinate.probviz: not a valid probviz session (a coordinate beyond ±1e+100)",
    "too_many_classes.probviz": "too_many_classes.probviz: not a valid probviz session (300 classes; probviz "
                                "shows at most 10)",
    "inverted_view.probviz": "inverted_view.probviz: not a valid probviz session (view)",
    "deep.probviz": "deep.probviz: not a valid probviz session (nested too deeply)",
    "not_utf8.probviz": "not_utf8.probviz: not a probviz session (not UTF-8 text)",
    "truncated.probviz": "truncated.probviz, line 1: not valid JSON (",
}


@contextmanager
def bounded(seconds=10, megabytes=64):
    """Fail if the block takes longer than ``seconds`` or allocates more than ``megabytes`` at once."""
    def timeout(*_):
        raise TimeoutError(f"took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(seconds)
    tracemalloc.start()
    try:
        yield
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert peak < megabytes * 2**20, f"peak allocation {peak / 2**20:.0f} MB"


def refused(path, message, exact=True):
    with bounded():
        with pytest.raises(DataError) as e:
            load_session(str(path))
    text = str(e.value)
    assert "\n" not in text and text.startswith(os.path.basename(path))
    if exact:
        assert (text.startswith(message) if message.endswith("(") else text == message), text
    else:
        assert message in text, text
    return text


def test_every_corpus_file_has_an_expectation():
    assert set(os.listdir(FUZZ)) == set(LOADS) | set(REFUSED)


@pytest.mark.parametrize("name", sorted(LOADS))
def test_loads_as_written(name):
    classes, points = LOADS[name]
    with bounded():
        s = load_session(str(FUZZ / name))
    d = s.dataset
    assert d.class_names == classes
    np.testing.assert_allclose(d.X, points)


def test_labels_keep_their_rows():
    d = load_session(str(FUZZ / "numeric_labels_as_text.csv")).dataset
    assert [d.class_names[i] for i in d.labels] == ["1", "1", "10", "2"]  # "1" and "1.0" are one number
    d = load_session(str(FUZZ / "markup_labels.csv")).dataset
    assert [d.class_names[i] for i in d.labels] == ["<img src=/etc/probviz.png>", "<b>bold</b>",
                                                    "<img src=/etc/probviz.png>"]
    assert load_session(str(FUZZ / "short_colour.probviz")).dataset.colors == ["#FFFFFF", "#445566"]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_with_file_and_line(name):
    refused(FUZZ / name, REFUSED[name])


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    refused(fifo, "pipe.csv: not a regular file (a device, pipe or socket)")
    os.mkfifo(tmp_path / "pipe.probviz")
    refused(tmp_path / "pipe.probviz", "pipe.probviz: not a regular file (a device, pipe or socket)")


def test_devices_and_folders_are_refused():
    refused("/dev/zero", "zero: not a regular file (a device, pipe or socket)")
    refused(FUZZ / ".." / "fuzz", "fuzz: is a folder, not a file")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "huge.csv"
    with open(big, "wb") as f:
        f.truncate(600 * 2**20)  # sparse: no disk, no memory
    refused(big, "huge.csv: file is 600 MB; the limit is 512 MB")
    session = tmp_path / "huge.probviz"
    with open(session, "wb") as f:
        f.truncate(300 * 2**20)
    refused(session, "huge.probviz: file is 300 MB; the limit is 256 MB")


def test_one_class_per_row_is_refused(tmp_path):
    p = tmp_path / "ids.csv"
    p.write_text("x,y,label\n" + "".join(f"{i},{i % 7},id{i}\n" for i in range(2000)))
    refused(p, "ids.csv: 2,000 different labels in the label column (label); probviz shows at most 10 classes "
               "(is that the label column?)")


def test_a_giant_field_is_refused_by_line(tmp_path):
    p = tmp_path / "long.csv"
    p.write_text("x,y,label\n0,1,a\n1,0," + "b" * 200_000 + "\n")
    refused(p, "long.csv, line 3: a label is 200,000 characters long; the limit is 200")
    q = tmp_path / "quoted.csv"
    q.write_text('x,y,label\n0,1,"a"\n1,0,"' + "b" * 200_000 + '"\n')  # the csv module's path
    refused(q, "quoted.csv, line 3: a label is 200,000 characters long; the limit is 200")
