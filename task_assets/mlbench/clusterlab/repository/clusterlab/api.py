"""The Python API: cluster a dataset, or embed it in fewer dimensions."""

from __future__ import annotations

import numpy as np
from sklearn import datasets as _sk
from sklearn.cluster import AgglomerativeClustering, Birch, KMeans
from sklearn.decomposition import PCA, TruncatedSVD
from sklearn.metrics import adjusted_rand_score, silhouette_score
from sklearn.mixture import GaussianMixture
from sklearn.preprocessing import StandardScaler
from sklearn.random_projection import GaussianRandomProjection

_LOADERS = {
    "iris": _sk.load_iris,
    "wine": _sk.load_wine,
    "digits": _sk.load_digits,
    "breast_cancer": _sk.load_breast_cancer,
}
DATASETS = tuple(_LOADERS)
ALGORITHMS = ("kmeans", "agglomerative", "gmm", "birch")
LINKAGES = ("ward", "complete", "average", "single")
METHODS = ("pca", "svd", "random_projection")


def load(dataset: str, scale: bool = True):
    """``(X, y)`` of a bundled dataset, standardised unless ``scale=False``."""
    if dataset not in _LOADERS:
        raise ValueError(f"unknown dataset {dataset!r}; choose one of {', '.join(DATASETS)}")
    bunch = _LOADERS[dataset]()
    X = StandardScaler().fit_transform(bunch.data) if scale else bunch.data
    return X, bunch.target


def cluster_labels(X, algorithm: str, n_clusters: int, seed: int = 0, linkage: str = "ward"):
    """Cluster assignments of the rows of ``X``."""
    if n_clusters < 2:
        raise ValueError("n_clusters must be at least 2")
    if algorithm == "kmeans":
        return KMeans(n_clusters=n_clusters, n_init=10, random_state=seed).fit_predict(X)
    if algorithm == "agglomerative":
        return AgglomerativeClustering(n_clusters=n_clusters, linkage=linkage).fit_predict(X)
    if algorithm == "gmm":
        return GaussianMixture(n_components=n_clusters, random_state=seed).fit_predict(X)
    if algorithm == "birch":
        return Birch(n_clusters=n_clusters).fit_predict(X)
    raise ValueError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")


def fit_clusters(
    dataset: str,
    algorithm: str = "kmeans",
    n_clusters: int = 3,
    seed: int = 0,
    linkage: str = "ward",
    scale: bool = True,
) -> dict:
    """Cluster ``dataset``; return the labels and how well they match the true classes."""
    X, y = load(dataset, scale)
    labels = cluster_labels(X, algorithm, n_clusters, seed, linkage)
    return {
        "dataset": dataset,
        "algorithm": algorithm,
        "n_clusters": n_clusters,
        "adjusted_rand": float(adjusted_rand_score(y, labels)),
        "silhouette": float(silhouette_score(X, labels)),
        "labels": labels.tolist(),
    }


def embed(
    dataset: str, method: str = "pca", n_components: int = 2, seed: int = 0, scale: bool = True
) -> np.ndarray:
    """Rows of ``dataset`` mapped to ``n_components`` dimensions."""
    X, _ = load(dataset, scale)
    if not 1 <= n_components <= X.shape[1]:
        raise ValueError(f"n_components must be in [1, {X.shape[1]}] for {dataset}")
    if method == "pca":
        reducer = PCA(n_components=n_components, random_state=seed)
    elif method == "svd":
        reducer = TruncatedSVD(n_components=n_components, random_state=seed)
    elif method == "random_projection":
        reducer = GaussianRandomProjection(n_components=n_components, random_state=seed)
    else:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    return reducer.fit_transform(X)
