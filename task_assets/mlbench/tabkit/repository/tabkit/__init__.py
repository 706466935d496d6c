"""tabkit: small, reproducible classification experiments on scikit-learn's bundled datasets."""

from tabkit.datasets import DATASETS, load_dataset
from tabkit.experiment import train_and_evaluate
from tabkit.models import MODELS, build_model

__all__ = ["DATASETS", "MODELS", "build_model", "load_dataset", "train_and_evaluate"]
