"""Built-in example data sets, each chosen to show one lesson of Bishop (2006), chapter 4."""

from __future__ import annotations

from typing import Callable

import numpy as np

from probviz.data.dataset import Dataset
from probviz.models.truth import Truth

EXAMPLES: dict[str, tuple[str, Callable[[], Dataset]]] = {}
#: Parameters an example sets for a model (the model it opens with is still the default): choosing that
#: model finds them, e.g. the tied example's groups
EXAMPLE_PARAMS: dict[str, dict[str, dict]] = {}


def example(name: str, lesson: str, params: dict[str, dict] | None = None):
    def register(fn):
        EXAMPLES[name] = (lesson, fn)
        if params:
            EXAMPLE_PARAMS[name] = params
        return fn
    return register


def load(name: str) -> Dataset:
    try:
        return EXAMPLES[name][1]()
    except KeyError:
        raise ValueError(f"no example named {name!r}; try one of {', '.join(EXAMPLES)}") from None


def session(name: str):
    """The example as its author meant it to open: its data, probe and view, with the model, parameters
    and layers of a fresh start (LDA, the registry's defaults, the default layers) but for the parameters
    the example sets for a model it is about (``EXAMPLE_PARAMS``)."""
    from probviz.data.session import Session

    data = load(name)
    params = {model: dict(values) for model, values in EXAMPLE_PARAMS.get(name, {}).items()}
    return Session(data, params=params, view=data.view)


@example("fruit", "Apple or peach? Two fruit drawn from Gaussians with one shared covariance, 70% apples: "
                  "LDA fits them, and the probe x = (2.3, 1.5) gets p(apple|x) = 0.823.")
def fruit() -> Dataset:
    """The apple/peach generator: N = 250, p(apple) = 0.7, shared Sigma = [0.2 0.1; 0.1 0.3],
    mu_apple = (1, 1), mu_peach = (1.7, 2.5)."""
    rng = np.random.default_rng(190)  # a draw whose LDA fit gives p(apple|x) = 0.823, the worked example's value
    N, p_apple = 250, 0.7
    sigma = np.array([[0.2, 0.1], [0.1, 0.3]])
    apple = rng.random(N) < p_apple
    X = np.where(apple[:, None],
                 rng.multivariate_normal([1.0, 1.0], sigma, N),
                 rng.multivariate_normal([1.7, 2.5], sigma, N))
    return Dataset(X, np.where(apple, 0, 1), ["apple", "peach"], colors=["#D55E00", "#0072B2"],
                   axis_names=("roughness", "colour"), name="fruit",
                   description=EXAMPLES["fruit"][0], probe=(2.3, 1.5), view=(-1.0, 3.5, -1.0, 4.5),
                   truth=Truth.make([p_apple, 1 - p_apple], [[1.0, 1.0], [1.7, 2.5]], [sigma, sigma]))


@example("shared-vs-own-covariance",
         "Two classes share a covariance, the third has its own (Bishop figure 4.11): LDA's lines "
         "against QDA's curves; try QDA.")
def shared_vs_own() -> Dataset:
    rng = np.random.default_rng(4)
    shared = np.array([[0.6, 0.35], [0.35, 0.5]])
    own = np.array([[0.15, 0.0], [0.0, 1.2]])
    classes = (([-1.5, 0.0], shared), ([1.5, 1.0], shared), ([0.5, -2.2], own))
    parts = [rng.multivariate_normal(m, c, 80) for m, c in classes]
    return Dataset(np.vstack(parts), np.repeat([0, 1, 2], 80), ["red", "green", "blue"],
                   colors=["#D55E00", "#009E73", "#0072B2"], name="shared-vs-own-covariance",
                   description=EXAMPLES["shared-vs-own-covariance"][0],
                   truth=Truth.make([1, 1, 1], [m for m, _ in classes], [c for _, c in classes]))


@example("tied", "Red and green share a covariance, blue has its own (Bishop figure 4.11): choose Tied covariances "
                 "(red and green are grouped) for a line between red and green and curves between the other pairs; "
                 "LDA and QDA are its two ends.", params={"tied": {"groups": "red,green"}})
def tied() -> Dataset:
    rng = np.random.default_rng(12)
    shared = np.array([[0.45, 0.3], [0.3, 0.55]])
    own = np.array([[1.6, 0.0], [0.0, 0.2]])
    classes = (([-1.6, 1.0], shared), ([1.4, 1.6], shared), ([0.0, -1.5], own))
    parts = [rng.multivariate_normal(m, c, 100) for m, c in classes]
    return Dataset(np.vstack(parts), np.repeat([0, 1, 2], 100), ["red", "green", "blue"],
                   colors=["#D55E00", "#009E73", "#0072B2"], name="tied", description=EXAMPLES["tied"][0],
                   truth=Truth.make([1, 1, 1], [m for m, _ in classes], [c for _, c in classes]))


@example("xor", "No line separates XOR: linear models fail, a quadratic basis succeeds.")
def xor() -> Dataset:
    rng = np.random.default_rng(5)
    centers = np.array([[-1, -1], [1, 1], [-1, 1], [1, -1]], float)
    X = np.vstack([rng.normal(c, 0.35, (40, 2)) for c in centers])
    spread = 0.35 ** 2 * np.eye(2)
    truth = Truth.mixture([0.5, 0.5], [[(1, centers[0], spread), (1, centers[1], spread)],
                                       [(1, centers[2], spread), (1, centers[3], spread)]])
    return Dataset(X, np.repeat([0, 0, 1, 1], 40), ["A", "B"], name="xor", description=EXAMPLES["xor"][0],
                   truth=truth)


@example("circles", "One class inside a ring of the other: QDA and a quadratic basis see it, LDA cannot.")
def circles() -> Dataset:
    rng = np.random.default_rng(6)
    inner = rng.normal(0, 0.5, (100, 2))
    t = rng.uniform(0, 2 * np.pi, 150)
    outer = np.c_[np.cos(t), np.sin(t)] * rng.normal(2.2, 0.25, (150, 1))
    return Dataset(np.vstack([inner, outer]), np.repeat([0, 1], [100, 150]), ["inner", "ring"],
                   name="circles", description=EXAMPLES["circles"][0])


@example("outliers", "A few far points drag a Gaussian's mean and covariance; logistic regression barely moves.")
def outliers() -> Dataset:
    rng = np.random.default_rng(7)
    a = rng.normal([-1.0, 0.0], 0.5, (60, 2))
    b = rng.normal([1.0, 0.0], 0.5, (60, 2))
    far = rng.normal([8.0, 6.0], 0.4, (6, 2))
    return Dataset(np.vstack([a, b, far]), np.repeat([0, 1, 1], [60, 60, 6]), ["A", "B"],
                   name="outliers", description=EXAMPLES["outliers"][0])


@example("three-in-a-line", "Three classes along a line: least squares masks the middle one (Bishop figure 4.5); "
                            "LDA and softmax do not.")
def three_in_a_line() -> Dataset:
    rng = np.random.default_rng(8)
    X = np.vstack([rng.normal([m, m], 0.45, (50, 2)) for m in (-2.5, 0.0, 2.5)])
    return Dataset(X, np.repeat([0, 1, 2], 50), ["C1", "C2", "C3"], name="three-in-a-line",
                   description=EXAMPLES["three-in-a-line"][0])


@example("fisher-projection",
         "Two long, parallel classes (Bishop figure 4.6): projected onto the line joining their means they "
         "overlap; Fisher's direction separates them. Try Fisher's discriminant.")
def fisher_projection() -> Dataset:
    rng = np.random.default_rng(11)
    sigma = np.array([[1.0, 0.85], [0.85, 1.0]]) * 0.6
    X = np.vstack([rng.multivariate_normal([0.0, 0.0], sigma, 100), rng.multivariate_normal([1.6, 0.5], sigma, 100)])
    return Dataset(X, np.repeat([0, 1], 100), ["red", "blue"], colors=["#D55E00", "#0072B2"],
                   name="fisher-projection", description=EXAMPLES["fisher-projection"][0])


@example("iris", "Fisher's iris, petal length and width (real data): three species, two of them overlapping.")
def iris() -> Dataset:
    from probviz.resources import asset_path
    from probviz.data.csvio import read_csv

    d = read_csv(str(asset_path("examples", "iris.csv")))
    d.name, d.description = "iris", EXAMPLES["iris"][0]
    d.axis_names = ("petal length (cm)", "petal width (cm)")
    return d
