"""clusterlab: clustering and dimensionality reduction on scikit-learn's bundled datasets."""

from clusterlab.api import DATASETS, embed, fit_clusters

__all__ = ["DATASETS", "embed", "fit_clusters"]
