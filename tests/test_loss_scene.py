"""Decisions with a loss matrix (Bishop 1.5.2) as a frame draws them: regions, boundaries, the reject option
and the probe's expected losses, against a brute-force argmin of sum_k L_kj p(C_k|x) written out here."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from probviz import scene
from probviz.data.session import Session, read_session, write_session
from probviz.models import create
from probviz.pipeline import FrameRequest, ModelSpec, compute
from probviz.snapshot import from_session

X2 = np.array([[0.0, 0.0], [1.0, 0.4], [0.3, 1.0], [0.8, 0.9], [2.0, 2.1], [2.6, 1.5], [1.1, 2.4], [0.7, 0.5]])
T2 = np.array([0, 0, 0, 1, 1, 1, 1, 0])
X3 = np.vstack([X2, [[3.0, -0.5], [3.4, 0.2], [2.8, 0.4]]])
T3 = np.r_[T2, 2, 2, 2]
BOUNDS = (-1.0, 4.0, -1.5, 3.5)
COLORS = ["#E69F00", "#0072B2", "#009E73"]


@settings(max_examples=60, deadline=None)
@given(K=st.integers(2, 6), seed=st.integers(0, 10_000), equal_rows=st.booleans())
def test_loss_weights_decide_as_the_brute_force_argmin(K, seed, equal_rows):
    rng = np.random.default_rng(seed)
    if equal_rows:  # each row's off-diagonal losses equal: a weighted argmax
        L = np.repeat(rng.uniform(0.1, 5, (K, 1)), K, axis=1)
        L[np.diag_indices(K)] = rng.uniform(0, 0.09, K)
    else:
        L = rng.uniform(0, 5, (K, K))
    P = rng.dirichlet(np.ones(K), size=500)
    brute = np.array([min(range(K), key=lambda j: sum(L[k, j] * p[k] for k in range(K))) for p in P])
    c = scene.loss_weights(L)
    if equal_rows or K == 2 and L[0, 1] > L[0, 0] and L[1, 0] > L[1, 1]:
        assert c is not None
        np.testing.assert_array_equal(np.argmax(c * P, axis=1), brute)
    elif K > 2:
        assert c is None


def _risk(model, xy, L):
    return model.predict_proba(xy) @ L


@pytest.mark.parametrize("name", ["lda", "qda", "nb", "logistic", "softmax"])
def test_two_class_loss_boundaries_are_exact(name):
    """5:1 on missing class 2: the boundary is where p(C_2|x) = 1/6, to rounding, for every model whose
    posterior is a softmax of its scores (drawn as its own lines and conics)."""
    model = create(name).fit(X2, T2)
    L = np.array([[0.0, 1.0], [5.0, 0.0]])
    lines = scene.loss_boundaries(model, L, BOUNDS)
    assert lines
    xy = np.vstack([b.xy for b in lines])
    xy = xy[np.all(np.isfinite(xy), axis=1)]  # NaN rows part a curve's pieces
    assert len(xy) >= 2
    np.testing.assert_allclose(model.predict_proba(xy)[:, 1], 1 / 6, atol=1e-9)


def test_a_general_loss_outlines_each_choice_where_the_argmin_changes():
    """Three classes, a loss that no weighting of the posteriors reproduces: the regions are the brute-force
    argmin at every pixel, and the outlines lie where the two least expected losses tie (to the grid)."""
    model = create("qda").fit(X3, T3)
    L = np.array([[0.0, 1.0, 4.0], [2.0, 0.0, 1.0], [1.0, 3.0, 0.0]])
    assert scene.loss_weights(L) is None
    sc = scene.build_scene(model, BOUNDS, COLORS, (96, 80), frozenset({"decision", "boundaries"}), loss=L)
    xs, ys = scene.grid_axes(BOUNDS, 96, 80)
    G = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
    brute = np.argmin(_risk(model, G, L), axis=1).reshape(80, 96)
    flat = (255 + 0.45 * (np.array([[230, 159, 0], [0, 114, 178], [0, 158, 115]]) - 255) + 0.5).astype(int)
    np.testing.assert_array_equal(sc.decision[..., :3], np.clip(flat, 0, 255)[brute])
    xy = np.vstack([b.xy for b in sc.boundaries])
    R = np.sort(_risk(model, xy[np.all(np.isfinite(xy), axis=1)], L), axis=1)
    cell = np.hypot((BOUNDS[1] - BOUNDS[0]) / 96, (BOUNDS[3] - BOUNDS[2]) / 80)
    assert np.median(R[:, 1] - R[:, 0]) < 0.02 and len(xy) > 50 and cell < 0.1


def test_the_zero_one_loss_with_a_rejection_cost_is_theta_s_reject_option():
    model = create("lda").fit(X3, T3)
    P = scene.posterior_grid(model, *scene.grid_axes(BOUNDS, 64, 64))
    image, rings = scene.loss_regions(P, 1.0 - np.eye(3), 0.7, BOUNDS, COLORS)
    # the regions as the largest posterior's, not greyed where rejected: the rings are drawn over them, smooth
    # (greyed pixels stood out of the rings as a staircase on the canvas)
    np.testing.assert_array_equal(image, scene.decision_image(P, COLORS, 0.0))
    assert len(rings) == len(scene.reject_region(P, BOUNDS, 0.7))
    for a, b in zip(rings, scene.reject_region(P, BOUNDS, 0.7)):
        np.testing.assert_allclose(a, b, atol=1e-6)  # (the risk 1 - max p in float64, p from float32)
    plain = scene.build_scene(model, BOUNDS, COLORS, (64, 64), frozenset({"decision", "boundaries"}),
                              loss=1.0 - np.eye(3))
    same = scene.build_scene(model, BOUNDS, COLORS, (64, 64), frozenset({"decision", "boundaries"}))
    np.testing.assert_array_equal(plain.decision, same.decision)
    assert len(plain.boundaries) == len(same.boundaries)


def test_the_frame_decides_with_the_request_s_loss_over_the_fitted_classes():
    """A loss over the document's three classes, one of them empty: the model's two classes take their
    rows and columns; the probe's line gives each choice's expected loss; the crosses follow the decision."""
    L = ((0.0, 1.0, 9.0), (9.0, 0.0, 9.0), (5.0, 9.0, 0.0))  # class 1 (no points) between the others
    labels = np.where(T2 == 1, 2, 0)
    request = FrameRequest(X2, labels, ("a", "b", "c"), tuple(COLORS), (ModelSpec.make("lda"),), bounds=BOUNDS,
                           shape=(32, 32), probe=(1.2, 1.0), loss=L)
    frame = compute(request)
    model = frame.fit.model
    sub = np.array([[0.0, 9.0], [5.0, 0.0]])
    p = model.predict_proba([(1.2, 1.0)])[0]
    r = p @ sub
    assert frame.probe.lines[-1] == (f"Expected loss (Bishop eq. 1.81): R(a) = {r[0]:.4g}, R(c) = {r[1]:.4g}: "
                                     f"choose {'a' if r[0] <= r[1] else 'c'}")
    decided = np.where(np.argmin(model.predict_proba(X2) @ sub, axis=1) == 0, 0, 2)
    np.testing.assert_array_equal(frame.wrong, decided != labels)
    argmax = np.where(np.argmax(model.predict_proba(X2), axis=1) == 0, 0, 2)
    np.testing.assert_array_equal(frame.fit.wrong, argmax != labels)  # the fit keeps its own: a redraw reuses it
    xy = np.vstack([b.xy for b in frame.scene.boundaries])
    np.testing.assert_allclose(model.predict_proba(xy)[:, 1], 9 / 14, atol=1e-9)  # 9 p_a = 5 p_c


@pytest.mark.parametrize("with_loss", [False, True])
def test_the_frame_counts_the_decision_with_the_reject_option(with_loss):
    """theta = 0.9 while the decision regions show it: the frame's decision rejects where the least expected loss
    exceeds lambda = 1 - theta (Bishop exercise 1.24), with or without a loss over the document's three classes
    (the empty class 1 never chosen). Its accuracy, rejected count and loss per point (a rejected point costing
    lambda) and which points are crossed (not the rejected ones) are written out here from the posteriors."""
    L = ((0.0, 1.0, 3.0), (9.0, 0.0, 9.0), (1.5, 9.0, 0.0)) if with_loss else None
    rng = np.random.default_rng(5)  # two overlapping classes, a and c: sure points, unsure ones, mistakes
    X = np.vstack([rng.normal((0.0, 0.0), 0.8, (30, 2)), rng.normal((2.0, 0.5), 0.8, (30, 2))])
    labels = np.repeat([0, 2], 30)
    request = FrameRequest(X, labels, ("a", "b", "c"), tuple(COLORS), (ModelSpec.make("lda"),), bounds=BOUNDS,
                           shape=(16, 16), layers=frozenset({"decision", "points"}), theta=0.9, loss=L)
    frame = compute(request)
    P = frame.fit.model.predict_proba(X)  # columns a, c
    sub = np.array([[0.0, 3.0], [1.5, 0.0]]) if with_loss else np.array([[0.0, 1.0], [1.0, 0.0]])
    R = P @ sub
    d = np.where(R.min(axis=1) > 0.1, -1, np.where(np.argmin(R, axis=1) == 0, 0, 2))
    full = np.array(L) if with_loss else 1.0 - np.eye(3)
    cost = np.where(d < 0, 0.1, full[labels, np.maximum(d, 0)])
    assert 0 < np.sum(d < 0) < len(d) and np.any((d >= 0) & (d != labels))  # the test can tell
    assert frame.decided["rejected"] == np.sum(d < 0) and frame.decided["reject_cost"] == pytest.approx(0.1)
    assert frame.decided["accuracy"] == np.mean(d == labels) and frame.decided["loss"] is with_loss
    assert frame.decided["expected_loss"] == pytest.approx(cost.mean(), rel=1e-12)
    np.testing.assert_array_equal(frame.wrong, (d >= 0) & (d != labels))
    def decided(model="lda", layers=("decision", "points"), theta=0.9):
        return compute(FrameRequest(X, labels, ("a", "b", "c"), tuple(COLORS), (ModelSpec.make(model),),
                                    bounds=BOUNDS, shape=(16, 16), layers=frozenset(layers), theta=theta,
                                    loss=L)).decided
    assert decided(layers=("points",)).get("reject_cost") is None  # no regions shown: no reject option
    assert decided(theta=0.0).get("reject_cost") is None  # theta 0: none either
    assert decided("perceptron") == {}  # a discriminant function has no p(C_k|x): no reject option, no loss


def test_a_session_keeps_its_loss_and_refuses_a_wrong_one(tmp_path):
    from probviz.data.dataset import Dataset
    from probviz.data.files import DataError

    data = Dataset(X2, T2, ["a", "b"], COLORS[:2])
    path = tmp_path / "s.probviz"
    write_session(str(path), Session(data, loss=((0.0, 1.0), (5.0, 0.0))))
    assert from_session(read_session(str(path))).loss == ((0.0, 1.0), (5.0, 0.0))
    text = path.read_text().replace("5.0", "-5.0")
    path.write_text(text)
    with pytest.raises(DataError, match="loss must be 2 rows of 2 numbers"):
        read_session(str(path))


def test_the_cross_section_crosses_the_loss_boundary():
    """Along a line through the fruit-like points, the decision changes where 5 p(C_2|x) = p(C_1|x)."""
    model = create("lda").fit(X2, T2)
    L = np.array([[0.0, 1.0], [5.0, 0.0]])
    sec = scene.cross_section(model, (-1.0, -1.0), (3.0, 3.0), n=4001, loss=L)
    assert len(sec.changes) == 1
    t = sec.changes[0] / sec.t[-1]
    x = np.array([-1.0, -1.0]) + t * np.array([4.0, 4.0])
    assert model.predict_proba([x])[0, 1] == pytest.approx(1 / 6, abs=2e-3)
    rejected = scene.cross_section(model, (-1.0, -1.0), (3.0, 3.0), n=4001, loss=L, theta=0.9)
    risk = model.predict_proba(rejected.a + np.outer(rejected.t / rejected.t[-1], rejected.b - rejected.a)) @ L
    np.testing.assert_array_equal(rejected.decision == -1, risk.min(axis=1) > 0.1)
