"""Regression datasets: scikit-learn's bundled diabetes data and two seeded generators."""

from __future__ import annotations

from sklearn.datasets import load_diabetes, make_friedman1, make_regression

DATASETS = ("diabetes", "friedman1", "linear")


def load_regression(name: str, *, n_samples: int = 500, noise: float = 1.0, seed: int = 0):
    """Return ``(X, y)``. ``n_samples``, ``noise`` and ``seed`` apply to the generated sets."""
    if name == "diabetes":
        bunch = load_diabetes()
        return bunch.data, bunch.target
    if name == "friedman1":
        return make_friedman1(n_samples=n_samples, noise=noise, random_state=seed)
    if name == "linear":
        return make_regression(
            n_samples=n_samples, n_features=20, n_informative=8, noise=noise, random_state=seed
        )
    raise ValueError(f"unknown dataset {name!r}; choose one of {', '.join(DATASETS)}")
