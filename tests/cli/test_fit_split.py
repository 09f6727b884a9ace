"""`probviz fit` fits what the window and `export` fit: the points a session's split leaves for
training; the held-out points are scored apart. A session without points is refused in one line."""

import json

import numpy as np
import pytest

from probviz import cli
from probviz.data import examples
from probviz.data.session import write_session


def fit_json(path, capsys, *extra):
    assert cli.main(["fit", str(path), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_fit_uses_the_training_points_and_scores_the_held_out_ones(tmp_path, capsys):
    sklearn = pytest.importorskip("sklearn.discriminant_analysis")
    s = examples.session("fruit")
    s.split = (0.3, 5)
    path = tmp_path / "split.probviz"
    write_session(str(path), s)
    out = fit_json(path, capsys, "--model", "lda")
    X, y = s.dataset.X, s.dataset.labels
    u = np.random.default_rng(5).random(len(X))  # the documented rule: the round(f n) smallest u_i held out
    held = u <= np.sort(u)[round(0.3 * len(X)) - 1]
    train = ~held
    assert out["split"] == {"fraction": 0.3, "seed": 5} and out["held_out"]["n"] == int(held.sum())
    assert np.allclose(out["means"], [X[train & (y == k)].mean(axis=0) for k in (0, 1)])
    lda = sklearn.LinearDiscriminantAnalysis(solver="lsqr").fit(X[train], y[train])
    assert out["accuracy"] == pytest.approx(np.mean(lda.predict(X[train]) == y[train]))
    assert out["held_out"]["accuracy"] == pytest.approx(np.mean(lda.predict(X[held]) == y[held]))
    assert out["n_points"] == len(X)


def test_fit_without_a_split_is_unchanged(tmp_path, capsys):
    s = examples.session("fruit")
    path = tmp_path / "plain.probviz"
    write_session(str(path), s)
    out = fit_json(path, capsys, "--model", "lda")
    X, y = s.dataset.X, s.dataset.labels
    assert "held_out" not in out and "split" not in out
    assert np.allclose(out["means"], [X[y == k].mean(axis=0) for k in (0, 1)])


def test_fit_on_a_session_without_points_says_so(tmp_path, capsys):
    path = tmp_path / "empty.probviz"
    path.write_text(json.dumps({"format": "probviz-session", "version": 1,
                                "classes": [{"name": "u", "color": "#112233"}],
                                "points": {"x": [], "y": [], "label": []}}))
    for args in (["fit", str(path)], ["fit", str(path), "--json"],
                 ["sample", str(path), "--fitted", "-n", "2", "-o", "-"]):
        assert cli.main(args) == 2
        captured = capsys.readouterr()
        assert captured.err == f"probviz: error: {path}: no points to fit\n" and captured.out == ""


def test_fit_points_out_one_point_per_class(tmp_path, capsys):
    path = tmp_path / "people.csv"
    path.write_text("a,b,name\n0,0,p\n1,0,q\n5,5,r\n")
    note = "every class has a single point: is name the label column? (name another one with --label)"
    assert cli.main(["fit", str(path)]) == 0
    assert f"  note: {note}\n" in capsys.readouterr().out
    assert note in fit_json(path, capsys)["notices"]


def test_training_steps_use_the_training_points_too(tmp_path, capsys):
    """`fit --optimizer` trains where `fit` fits: on the points the split leaves (red when it trained on all)."""
    from probviz.models.training import Trainer
    from probviz.pipeline import held_out_mask

    s = examples.session("fruit")
    s.split = (0.3, 5)
    path = tmp_path / "split.probviz"
    write_session(str(path), s)
    out = fit_json(path, capsys, "--model", "logistic", "--optimizer", "newton", "--steps", "3")
    X, y = s.dataset.X, s.dataset.labels
    held = held_out_mask(len(X), 0.3, 5)
    by_hand = Trainer("logistic", X[~held], y[~held], optimizer="newton")
    by_hand.step(3)
    np.testing.assert_allclose(out["weights"], by_hand.current.W, rtol=1e-10)
    m = by_hand.model()
    assert out["held_out"] == {"n": int(held.sum()), "accuracy": pytest.approx(np.mean(m.predict(X[held]) == y[held])),
                               "log_likelihood": pytest.approx(float(np.sum(np.log(
                                   m.predict_proba(X[held])[np.arange(held.sum()), y[held]])))),
                               "log_likelihood_kind": out["held_out"]["log_likelihood_kind"]}
