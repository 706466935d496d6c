"""One train/test experiment, usable from Python or through the example scripts."""

from __future__ import annotations

from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import train_test_split

from tabkit.datasets import load_dataset
from tabkit.models import build_model


def train_and_evaluate(
    dataset: str, model: str = "logreg", test_size: float = 0.25, seed: int = 0, **params
):
    """Train ``model`` on a stratified split of ``dataset``; return the fitted model and scores.

    ``params`` are passed to :func:`tabkit.models.build_model` (``C``, ``n_estimators``...).
    """
    X, y, _ = load_dataset(dataset)
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=test_size, random_state=seed, stratify=y
    )
    estimator = build_model(model, seed=seed, **params)
    estimator.fit(X_tr, y_tr)
    pred = estimator.predict(X_te)
    return {
        "dataset": dataset,
        "model": model,
        "accuracy": float(accuracy_score(y_te, pred)),
        "f1_macro": float(f1_score(y_te, pred, average="macro")),
        "n_train": len(y_tr),
        "n_test": len(y_te),
        "estimator": estimator,
    }
