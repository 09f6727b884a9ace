"""The refitter's two-step answer for large data (the fit first, its summary after) keeps every part of
the frame: the truth's scene, the training step, the probe."""

import numpy as np

from probviz.app.refit import Job, complete, run
from probviz.data import examples
from probviz.snapshot import from_session, frame_request
from probviz.stepping import TrainingSpec
from dataclasses import replace


def test_the_summary_pass_keeps_the_truth_and_the_probe():
    snap = from_session(examples.session("fruit"))
    snap = replace(snap, layers=frozenset({"heatmap", "truth", "points"}))
    job = Job(frame_request(snap, (-1, 3, -1, 4), (32, 32)))
    partial = run(job, evaluate=False)
    assert partial.truth is not None and partial.probe is not None and not partial.fit.summary
    done = complete(job, partial)
    assert done.fit.summary["accuracy"] > 0.8
    assert done.truth is partial.truth and done.probe is partial.probe


def test_the_summary_pass_keeps_the_training_step():
    snap = replace(from_session(examples.session("fruit")), model="logistic")
    request = replace(frame_request(snap, (-1, 3, -1, 4), (32, 32)),
                      training=TrainingSpec("gd", 0.01, "zero", steps=3, shown=True))
    job = Job(request)
    partial = run(job, evaluate=False)
    assert partial.training is not None and partial.training.index == 3
    done = complete(job, partial)
    assert done.training is partial.training and done.fit.summary
