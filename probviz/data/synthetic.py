"""Synthetic data sets for benchmarks and tests."""

from __future__ import annotations

import numpy as np


def blobs(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """k Gaussian classes with random means and covariances, n points in all."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    means = rng.normal(0, 2.5, (k, 2))
    A = rng.normal(0, 0.7, (k, 2, 2))
    X = means[y] + np.einsum("nij,nj->ni", A[y], rng.normal(size=(n, 2)))
    return X, y
