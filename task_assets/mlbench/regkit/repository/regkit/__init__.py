"""regkit: regression baselines on scikit-learn's diabetes data and synthetic benchmarks."""

from regkit.data import DATASETS, load_regression
from regkit.fit import fit_regressor

__all__ = ["DATASETS", "fit_regressor", "load_regression"]
