"""Every edit is undoable: random edit sequences, then undo all, restore the document exactly."""

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from hypo import examples

from probviz.app.document import Document
from probviz.data.examples import load
from probviz.models import MODEL_NAMES


def snapshot(doc: Document):
    """Everything undoable: points, labels, classes, model, parameters, priors, theta, probe."""
    return (doc.X.copy(), doc.labels.copy(), list(doc.classes), doc.model_name,
            {k: dict(v) for k, v in doc.params.items()},
            None if doc.priors is None else list(doc.priors), doc.theta, doc.probe)


def same(a, b):
    return np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2:] == b[2:]


coord = st.floats(-10, 10, allow_nan=False)


@pytest.fixture(autouse=True)
def _app(qapp):
    """QUndoStack lives in QtGui: make sure a QApplication exists."""


class EditHistory(RuleBasedStateMachine):
    @initialize(example=st.sampled_from(["fruit", "three-in-a-line", None]))
    def start(self, example):
        self.doc = Document()
        if example:
            self.doc.load(load(example))
        else:
            self.doc.new()
        self.original = snapshot(self.doc)
        self.edits = 0

    def _index(self, data):
        return data.draw(st.integers(0, len(self.doc.X) - 1))

    @rule(x=coord, y=coord, label=st.integers(0, 4))
    def add(self, x, y, label):
        self.doc.add_points([[x, y]], label)
        self.edits += 1

    @rule(data=st.data(), n=st.integers(1, 5), label=st.integers(0, 2))
    def brush_stroke(self, data, n, label):
        stroke = self.doc.new_stroke()
        for _ in range(n):
            self.doc.add_points(data.draw(st.lists(st.tuples(coord, coord), min_size=1, max_size=3)),
                                label, stroke)
        self.edits += 1

    @precondition(lambda self: len(self.doc.X) > 0)
    @rule(data=st.data(), steps=st.integers(1, 4))
    def drag(self, data, steps):
        i = self._index(data)
        stroke = self.doc.new_stroke()
        for _ in range(steps):
            self.doc.move_points([i], [[data.draw(coord), data.draw(coord)]], stroke)
        self.edits += 1

    @precondition(lambda self: len(self.doc.X) > 0)
    @rule(data=st.data())
    def delete(self, data):
        idx = data.draw(st.lists(st.integers(0, len(self.doc.X) - 1), min_size=1, max_size=4))
        self.doc.delete_points(idx)
        self.edits += 1

    @precondition(lambda self: len(self.doc.X) > 0)
    @rule(data=st.data(), label=st.integers(0, 3))
    def relabel(self, data, label):
        self.doc.relabel_points([self._index(data)], label)
        self.edits += 1

    @rule(data=st.data(), name=st.text(min_size=1, max_size=8))
    def rename(self, data, name):
        index = data.draw(st.integers(0, len(self.doc.classes) - 1))
        if any(ord(c) < 32 and c != "\t" for c in name.strip()):  # refused whole, nothing changes
            before = list(self.doc.classes), self.doc.undo_stack.count()
            with pytest.raises(ValueError, match="control character"):
                self.doc.rename_class(index, name)
            assert (list(self.doc.classes), self.doc.undo_stack.count()) == before
            return
        self.doc.rename_class(index, name)

    @rule(data=st.data(), color=st.sampled_from(["#112233", "#ABCDEF", "#000000"]))
    def recolor(self, data, color):
        self.doc.recolor_class(data.draw(st.integers(0, len(self.doc.classes) - 1)), color)

    @precondition(lambda self: len(self.doc.classes) > 1)
    @rule(data=st.data())
    def remove_class(self, data):
        self.doc.remove_class(data.draw(st.integers(0, len(self.doc.classes) - 1)))

    @rule(name=st.sampled_from(MODEL_NAMES))
    def model(self, name):
        self.doc.set_model(name)

    @rule(value=st.floats(0, 1))
    def param(self, value):
        if self.doc.model_name in ("lda", "qda", "nb"):
            self.doc.set_param("reg_covar", value)
        elif self.doc.model_name in ("logistic", "softmax"):
            self.doc.set_param("l2", value)
        elif self.doc.model_name == "leastsquares":
            self.doc.set_param("scheme", ("k-class", "one-vs-rest", "one-vs-one")[int(value * 2.999)])

    @rule(basis=st.sampled_from(["linear", "quadratic", "cubic"]), standardize=st.booleans())
    def discriminative_params(self, basis, standardize):
        if self.doc.model_name in ("logistic", "softmax"):
            self.doc.set_param("basis", basis)
            self.doc.set_param("standardize", standardize)

    @rule(data=st.data())
    def priors(self, data):
        n = len(self.doc.classes)
        self.doc.set_priors(data.draw(st.one_of(st.none(), st.lists(st.floats(0.05, 1), min_size=n, max_size=n))))

    @rule(theta=st.floats(0, 1))
    def theta(self, theta):
        self.doc.set_theta(theta)

    @rule(xy=st.one_of(st.none(), st.tuples(coord, coord)), steps=st.integers(1, 3))
    def probe(self, xy, steps):
        stroke = self.doc.new_stroke()
        for i in range(steps):  # a probe drag: one undo step
            self.doc.set_probe(None if xy is None else (xy[0] + i, xy[1]), stroke)

    @precondition(lambda self: self.doc.undo_stack.canUndo())
    @rule()
    def undo(self):
        self.doc.undo_stack.undo()

    @precondition(lambda self: self.doc.undo_stack.canRedo())
    @rule()
    def redo(self):
        self.doc.undo_stack.redo()

    @invariant()
    def consistent(self):
        doc = self.doc
        assert len(doc.X) == len(doc.labels)
        assert len(doc.labels) == 0 or doc.labels.max() < len(doc.classes)

    @invariant()
    def snapshots_have_the_points_as_they_are_and_keep_them(self):
        """A frame's snapshot shares one read-only copy of the points until they change: it always holds the
        points as they are, and one taken before an edit keeps the points it was taken with."""
        data = self.doc.dataset()
        assert np.array_equal(data.X, self.doc.X) and np.array_equal(data.labels, self.doc.labels)
        assert not data.X.flags.writeable and not data.labels.flags.writeable
        kept = getattr(self, "kept", None)
        if kept is not None:
            X, labels, X0, labels0 = kept
            assert np.array_equal(X, X0) and np.array_equal(labels, labels0)
        self.kept = (data.X, data.labels, data.X.copy(), data.labels.copy())

    def teardown(self):
        stack = self.doc.undo_stack
        while stack.canRedo():  # the undo rule may have left some edits undone: the last state is at the top
            stack.redo()
        final = snapshot(self.doc)
        while stack.canUndo():
            stack.undo()
        assert same(snapshot(self.doc), self.original)
        while stack.canRedo():
            stack.redo()
        assert same(snapshot(self.doc), final)


EditHistory.TestCase.settings = settings(max_examples=examples(60), stateful_step_count=25, deadline=None)
TestEditHistory = EditHistory.TestCase


def test_snapshots_share_the_points_until_they_change(qapp):
    """Every frame's snapshot copied the points (24 MB at 1,000,000 points, 4-5 ms of a pan on the GUI thread):
    snapshots between two changes of the points now share one copy; a change of the model makes no new one."""
    doc = Document()
    doc.load(load("fruit"))
    a = doc.dataset()
    doc.set_model("qda")  # not the points
    b = doc.dataset()
    assert np.shares_memory(b.X, a.X) and np.shares_memory(b.labels, a.labels)
    doc.move_points([0], [[9.0, 9.0]])
    c = doc.dataset()
    assert not np.shares_memory(c.X, a.X) and c.X[0].tolist() == [9.0, 9.0] and a.X[0].tolist() != [9.0, 9.0]


def test_a_drag_is_one_undo_step(qapp):
    doc = Document()
    doc.new()
    doc.add_points([[0, 0]], 0)
    stroke = doc.new_stroke()
    for t in np.linspace(0, 1, 20):
        doc.move_points([0], [[t, 2 * t]], stroke)
    assert doc.undo_stack.count() == 2 and doc.undo_stack.undoText() == "Move point"
    doc.undo_stack.undo()
    np.testing.assert_array_equal(doc.X, [[0, 0]])


def test_the_edit_log_says_each_moved_points_first_row_since_any_revision():
    """moves_since(r): every point moved after revision r with the row it had at r (its first move's old row),
    for every r since the last other change of the points (or the oldest move remembered); None before it.
    Checked against the rows replayed from the start, for random moves of random points."""
    from probviz.app.document import MOVE_LOG, EditLog

    rng = np.random.default_rng(7)
    log = EditLog()
    X = rng.normal(size=(6, 2))
    history, moved = {0: X.copy()}, {}  # the points at each revision, and those moved to make it
    for _ in range(40):
        idx = rng.choice(6, size=rng.integers(1, 4), replace=False)
        log.moved(idx, X[idx])
        X[idx] = rng.normal(size=(len(idx), 2))
        history[log.revision], moved[log.revision] = X.copy(), set(idx.tolist())
    for r in range(0, log.revision + 1):
        idx, rows = log.moves_since(r)
        assert sorted(idx.tolist()) == sorted(set().union(*(moved[q] for q in moved if q > r)))
        np.testing.assert_array_equal(rows, history[r][idx])
    assert len(log.moves_since(log.revision)[0]) == 0
    log.replaced()
    assert log.moves_since(log.revision - 1) is None and len(log.moves_since(log.revision)[0]) == 0
    for _ in range(MOVE_LOG + 3):  # only the last MOVE_LOG moves are remembered
        log.moved(np.array([0]), X[:1])
    assert log.moves_since(log.revision - MOVE_LOG) is not None and log.moves_since(log.revision - MOVE_LOG - 1) is None
