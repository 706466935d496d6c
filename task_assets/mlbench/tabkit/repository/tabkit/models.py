"""Model factory: a name and hyper-parameters in, an unfitted scikit-learn pipeline out."""

from __future__ import annotations

from sklearn.ensemble import (
    ExtraTreesClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

MODELS = ("logreg", "svm", "knn", "random_forest", "extra_trees", "gbdt")


def build_model(
    name: str,
    *,
    seed: int = 0,
    C: float = 1.0,
    kernel: str = "rbf",
    n_neighbors: int = 5,
    n_estimators: int = 100,
    max_depth: int | None = None,
    learning_rate: float = 0.1,
    max_iter: int = 100,
):
    """Build model ``name`` (one of :data:`MODELS`); unused hyper-parameters are ignored."""
    if name == "logreg":
        return make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=1000))
    if name == "svm":
        return make_pipeline(StandardScaler(), SVC(C=C, kernel=kernel, random_state=seed))
    if name == "knn":
        return make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=n_neighbors))
    if name == "random_forest":
        return RandomForestClassifier(
            n_estimators=n_estimators, max_depth=max_depth, random_state=seed, n_jobs=1
        )
    if name == "extra_trees":
        return ExtraTreesClassifier(
            n_estimators=n_estimators, max_depth=max_depth, random_state=seed, n_jobs=1
        )
    if name == "gbdt":
        return HistGradientBoostingClassifier(
            learning_rate=learning_rate, max_iter=max_iter, max_depth=max_depth, random_state=seed
        )
    raise ValueError(f"unknown model {name!r}; choose one of {', '.join(MODELS)}")
