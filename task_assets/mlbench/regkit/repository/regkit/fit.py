"""Fit a regressor on a train split and score it on the held-out part."""

from __future__ import annotations

import numpy as np
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.linear_model import ElasticNet, Lasso, LinearRegression, Ridge
from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from regkit.data import load_regression

LINEAR_PENALTIES = ("none", "ridge", "lasso", "elasticnet")


def linear_model(penalty: str, alpha: float = 1.0, l1_ratio: float = 0.5, standardize=True):
    """A (scaled) linear model with the given penalty."""
    if penalty == "none":
        core = LinearRegression()
    elif penalty == "ridge":
        core = Ridge(alpha=alpha)
    elif penalty == "lasso":
        core = Lasso(alpha=alpha, max_iter=10000)
    elif penalty == "elasticnet":
        core = ElasticNet(alpha=alpha, l1_ratio=l1_ratio, max_iter=10000)
    else:
        raise ValueError(f"unknown penalty {penalty!r}; choose one of {LINEAR_PENALTIES}")
    return make_pipeline(StandardScaler(), core) if standardize else core


def scores(y_true, y_pred) -> dict:
    return {
        "r2": float(r2_score(y_true, y_pred)),
        "rmse": float(np.sqrt(mean_squared_error(y_true, y_pred))),
        "mae": float(mean_absolute_error(y_true, y_pred)),
    }


def fit_regressor(
    dataset: str,
    model: str = "ridge",
    *,
    alpha: float = 1.0,
    l1_ratio: float = 0.5,
    n_estimators: int = 100,
    learning_rate: float = 0.1,
    max_depth: int = 3,
    test_size: float = 0.2,
    seed: int = 0,
):
    """Fit ``model`` (a linear penalty name or ``"gbr"``) on ``dataset``; return test scores."""
    X, y = load_regression(dataset, seed=seed)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=test_size, random_state=seed)
    if model == "gbr":
        est = GradientBoostingRegressor(
            n_estimators=n_estimators,
            learning_rate=learning_rate,
            max_depth=max_depth,
            random_state=seed,
        )
    else:
        est = linear_model(model, alpha=alpha, l1_ratio=l1_ratio)
    est.fit(X_tr, y_tr)
    return {"dataset": dataset, "model": model, **scores(y_te, est.predict(X_te))}
