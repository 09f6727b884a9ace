"""Learning curves (the generative-against-discriminative result): the true error of models fitted to
samples of growing size from a known truth, over several seeds.

For each size n and seed s one training set is drawn from the truth -- n points per class on average:
n K points split among the classes by the truth's priors (at least two a class), seeded by (s, n) --
and every model is fitted to that same set (a paired comparison); its error under the truth is exact
(:func:`probviz.models.truth.error_rate`), so no held-out sample adds noise.
"""

from __future__ import annotations

import numpy as np

from probviz.models.registry import info
from probviz.models.truth import Truth, error_rate

MAX_SIZE = 100_000
MAX_SEEDS = 200


def class_counts(truth: Truth, size: int) -> np.ndarray:
    """Points per class for ``size`` points per class on average: size K points shared by the priors,
    at least two a class."""
    return np.maximum(2, np.round(size * truth.K * truth.priors)).astype(int)


def training_set(truth: Truth, size: int, seed: int):
    """The training set of (size, seed): the same for every model and every run, its points in a random order,
    as an i.i.d. sample's are (in class order the perceptron, which cycles through the points in file order,
    ended every pass on the last class's points: its error grew with the size of the set)."""
    state = int(np.random.SeedSequence([seed, size]).generate_state(1)[0])
    X, labels = truth.sample_counts(class_counts(truth, size), seed=state)
    order = np.random.default_rng([state, 1]).permutation(len(labels))
    return X[order], labels[order]


def learning_curve(truth: Truth, models, sizes, seeds: int = 20, progress=None, names=None) -> dict:
    """``models``: (name, params) pairs. Returns {"sizes", "seeds", "bayes_error", "models": {label:
    {"name", "mean", "sd", "errors" (sizes x seeds, NaN where the fit failed)}}}. ``progress(done, total)``
    is called after each training set; when it returns False the computation stops (None is returned).
    ``names``: the classes' names (parameters may name classes: the tied model's groups)."""
    sizes = [int(n) for n in sizes]
    if not sizes or any(not 1 <= n <= MAX_SIZE for n in sizes):
        raise ValueError(f"sizes must be whole numbers from 1 to {MAX_SIZE:,}")
    if not 1 <= int(seeds) <= MAX_SEEDS:
        raise ValueError(f"seeds must be from 1 to {MAX_SEEDS}")
    models = [(name, dict(params or {})) for name, params in models]
    if not models:
        raise ValueError("no models to compare")
    for i, (name, params) in enumerate(models):
        info(name)
        if (name, params) in models[:i]:
            raise ValueError(f"{name} with the same parameters is listed twice")
    labels = _labels(models)
    errors = {label: np.full((len(sizes), int(seeds)), np.nan) for label in labels}
    total, done = len(sizes) * int(seeds), 0
    for i, n in enumerate(sizes):
        for s in range(int(seeds)):
            X, y = training_set(truth, n, s)
            for label, (name, params) in zip(labels, models):
                try:
                    m = info(name).cls(**{**info(name).defaults(), **params}).fit(X, y, names=names)
                except ValueError:
                    continue
                errors[label][i, s] = error_rate(truth, m, m.classes_)
            done += 1
            if progress is not None and progress(done, total) is False:
                return None
    out = {"sizes": sizes, "seeds": int(seeds), "bayes_error": truth.bayes_error(), "models": {}}
    for label, (name, params) in zip(labels, models):
        E = errors[label]
        with np.errstate(invalid="ignore"):
            out["models"][label] = {"name": name, "params": params,
                                    "mean": np.nanmean(E, axis=1).tolist() if np.any(np.isfinite(E)) else [],
                                    "sd": np.nanstd(E, axis=1).tolist(), "errors": E.tolist()}
    return out


def _labels(models) -> list[str]:
    """One label per model: its name, with its parameters when the same model comes twice."""
    names = [n for n, _ in models]
    return [n if names.count(n) == 1 else n + "(" + ",".join(f"{k}={v}" for k, v in sorted(p.items())) + ")"
            for n, p in models]


def shown_labels(result: dict) -> dict:
    """The models of a :func:`learning_curve` result under the names the window gives them ("LDA
    (shared covariance)", not "lda"), their parameters added when the same model comes twice."""
    return {info(m["name"]).label + ("" if key == m["name"] else " " + key[len(m["name"]):]): m
            for key, m in result["models"].items()}
