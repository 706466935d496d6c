"""Candidate fitter that mle_gym's MacroActionWrapper puts in the workspace.

Usage: python macro/macro_solution.py '<json>'  (or import it and call main('<json>')),
from the workspace folder. The JSON gives: features (num|cat|eng), family
(linear|rf|hgb), setting (small|large), metric (accuracy|auc|rmse|rmsle|mae),
val_fraction, split_seed, out (where to write the test predictions), move (a name).

Reads data/train.csv, data/test.csv and data/sample_submission.csv (id column
first; the other columns are the targets, all in train.csv). Holds out a fixed
validation split of train.csv, fits one model per target on the rest, scores it
on the held-out rows, then refits on all of train.csv and writes the test
predictions in the sample submission's format. Prints one JSON line
{"macro_result": {...}} with the validation score and a constant predictor's
score on the same split. Deterministic: fixed split seed and random states.

This file is shipped as package data of ``mle_gym.wrappers.macro`` and copied
verbatim into the sandbox; it runs under the sandbox's Python and needs only
numpy, pandas and scikit-learn there (threadpoolctl if present). The host never
imports it (tests do, to exercise it directly).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
import warnings
from typing import Any

import numpy as np
import pandas as pd

MAX_CODES = 50
PIECES = re.compile(r"[/_:\s-]+")
_CACHE: dict[Any, Any] = {}


def load() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """train, test, sample submission (read once per interpreter)."""
    if "raw" not in _CACHE:
        _CACHE["raw"] = (
            pd.read_csv("data/train.csv"),
            pd.read_csv("data/test.csv"),
            pd.read_csv("data/sample_submission.csv"),
        )
    return _CACHE["raw"]


def is_number(col: pd.Series) -> bool:
    """Whether pandas reads the column as numbers (booleans included)."""
    return pd.api.types.is_bool_dtype(col) or pd.api.types.is_numeric_dtype(col)


def codes(col: pd.Series) -> pd.Series:
    """Integer category codes as floats, NaN where missing."""
    values = col.astype("category").cat.codes.astype(float)
    return values.where(values >= 0)


def frequency(col: pd.Series) -> pd.Series:
    """How often each row's value occurs (NaN where missing)."""
    counts = col.value_counts()
    return col.map(counts).astype(float)


def build_features(kind: str, pooled: pd.DataFrame, id_col: str) -> tuple[pd.DataFrame, list[str]]:
    """(feature frame, names of categorical-code columns) for a feature set."""
    cols = [c for c in pooled.columns if c != id_col]
    out: dict[str, pd.Series] = {}
    cats: list[str] = []
    numeric = [c for c in cols if is_number(pooled[c])]
    for c in numeric:
        out[c] = pooled[c].astype(float)
    text = [c for c in pooled.columns if not is_number(pooled[c])]
    if kind in ("cat", "eng"):
        for c in text:
            if c != id_col and pooled[c].nunique() <= MAX_CODES:
                out[c] = codes(pooled[c].astype(str).where(pooled[c].notna()))
                cats.append(c)
    if kind == "eng":
        for c in text:
            if c not in out:
                add_text_features(c, pooled[c], out, cats)
        add_amount_features(pooled, numeric, out)
        out["row__missing"] = pooled[cols].isna().sum(axis=1).astype(float)
    if not out:
        out["row__constant"] = pd.Series(0.0, index=pooled.index)
    return pd.DataFrame(out, index=pooled.index), cats


def add_text_features(
    name: str, raw: pd.Series, out: dict[str, pd.Series], cats: list[str]
) -> None:
    """Engineered features of one many-valued text column, added to ``out`` (and ``cats``):
    its value frequencies and its pieces split on ``/ _ : -`` and spaces (numeric pieces
    as numbers, few-valued ones as codes, many-valued ones as frequencies)."""
    col = raw.astype(str).where(raw.notna())
    out[name + "__freq"] = frequency(col)
    parts = col.str.split(PIECES, n=3, expand=True, regex=True)
    for j in range(parts.shape[1]):
        part = parts[j]
        if part.isna().mean() > 0.5:
            continue
        piece = name + "__" + str(j)
        as_num = pd.to_numeric(part, errors="coerce")
        many = part.nunique() > MAX_CODES
        if as_num.notna().sum() >= 0.9 * part.notna().sum():
            out[piece] = as_num.astype(float)
        elif not many:
            out[piece] = codes(part)
            cats.append(piece)
        if many:
            out[piece + "__freq"] = frequency(part)


def add_amount_features(
    pooled: pd.DataFrame, numeric: list[str], out: dict[str, pd.Series]
) -> None:
    """``log1p`` of zero-inflated non-negative amounts (replacing the raw values in ``out``),
    with their total and non-zero count."""
    amounts = [
        c
        for c in numeric
        if pooled[c].min() >= 0 and (pooled[c] == 0).mean() >= 0.25 and pooled[c].nunique() > 10
    ]
    if not amounts:
        return
    block = pooled[amounts].astype(float)
    for c in amounts:
        out[c] = np.log1p(block[c])
    out["amounts__total"] = np.log1p(block.sum(axis=1, min_count=1))
    out["amounts__nonzero"] = (block > 0).sum(axis=1).astype(float)


def make_model(family: str, setting: str, classify: bool, cat_mask: list[bool]) -> Any:
    """A fresh estimator for one target."""
    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import (
        HistGradientBoostingClassifier,
        HistGradientBoostingRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    small = setting == "small"
    if family == "linear":
        num_idx = [i for i, cat in enumerate(cat_mask) if not cat]
        cat_idx = [i for i, cat in enumerate(cat_mask) if cat]
        parts = []
        if num_idx:
            scale = Pipeline(
                [
                    ("impute", SimpleImputer(strategy="median", add_indicator=True)),
                    ("scale", StandardScaler()),
                ]
            )
            parts.append(("num", scale, num_idx))
        if cat_idx:
            onehot = Pipeline(
                [
                    ("impute", SimpleImputer(strategy="most_frequent")),
                    ("onehot", OneHotEncoder(handle_unknown="ignore")),
                ]
            )
            parts.append(("cat", onehot, cat_idx))
        if classify:
            est = LogisticRegression(C=0.05 if small else 5.0, max_iter=2000)
        else:
            est = Ridge(alpha=30.0 if small else 0.3)
        return Pipeline([("prep", ColumnTransformer(parts)), ("model", est)])
    if family == "rf":
        cls = RandomForestClassifier if classify else RandomForestRegressor
        forest = cls(
            n_estimators=60 if small else 200,
            max_depth=8 if small else None,
            min_samples_leaf=4 if small else 1,
            max_features="sqrt" if classify else 0.5,
            random_state=0,
            n_jobs=1,
        )
        return Pipeline([("impute", SimpleImputer(strategy="median")), ("model", forest)])
    cls = HistGradientBoostingClassifier if classify else HistGradientBoostingRegressor
    return cls(
        max_iter=80 if small else 300,
        learning_rate=0.1 if small else 0.05,
        max_leaf_nodes=15 if small else 31,
        l2_regularization=0.0 if small else 1.0,
        categorical_features=np.array(cat_mask, dtype=bool) if any(cat_mask) else None,
        early_stopping=False,
        random_state=0,
    )


def score_of(metric: str, y_true: Any, pred: Any, positive: Any) -> float:
    """The validation score (and the metric's direction is implied by its name)."""
    if metric == "accuracy":
        return float(np.mean(np.asarray(pred) == np.asarray(y_true)))
    if metric == "auc":
        from sklearn.metrics import roc_auc_score

        truth = np.asarray(y_true) == positive
        if truth.all() or not truth.any():
            return 0.5
        return float(roc_auc_score(truth, pred))
    y_true = np.asarray(y_true, dtype=float)
    pred = np.asarray(pred, dtype=float)
    if metric == "rmsle":
        diff = np.log1p(np.clip(pred, 0, None)) - np.log1p(np.clip(y_true, 0, None))
        return float(np.sqrt(np.mean(diff**2)))
    if metric == "mae":
        return float(np.mean(np.abs(pred - y_true)))
    return float(np.sqrt(np.mean((pred - y_true) ** 2)))


def constant_prediction(metric: str, y_fit: Any, n: int) -> np.ndarray:
    """What a constant predictor fitted on y_fit says for n rows."""
    if metric == "accuracy":
        return np.repeat(pd.Series(y_fit).mode().iloc[0], n)
    if metric == "auc":
        return np.full(n, 0.5)
    y_fit = np.asarray(y_fit, dtype=float)
    if metric == "rmsle":
        return np.full(n, np.expm1(np.mean(np.log1p(np.clip(y_fit, 0, None)))))
    if metric == "mae":
        return np.full(n, np.median(y_fit))
    return np.full(n, np.mean(y_fit))


def fit_predict(
    params: dict[str, Any],
    x_fit: pd.DataFrame,
    y_fit: pd.Series,
    x_eval: pd.DataFrame,
    cat_mask: list[bool],
) -> np.ndarray:
    """Fit one model on (x_fit, y_fit); its predictions for x_eval in the metric's form."""
    metric = params["metric"]
    classify = metric in ("accuracy", "auc")
    model = make_model(params["family"], params["setting"], classify, cat_mask)
    y = np.asarray(y_fit)
    if metric == "rmsle":
        y = np.log1p(np.clip(y.astype(float), 0, None))
    if metric == "auc" and len(pd.unique(y)) > 2:
        raise ValueError("AUC validation needs a binary target")
    model.fit(x_fit, y)
    if metric == "auc":
        proba = model.predict_proba(x_eval)
        return proba[:, -1] if proba.shape[1] > 1 else np.zeros(len(x_eval))
    pred = model.predict(x_eval)
    if metric == "rmsle":
        pred = np.clip(np.expm1(pred), 0, None)
    return pred


def run(params: dict[str, Any]) -> dict[str, Any]:
    """Fit, validate, refit and write predictions for one candidate; the result dict."""
    from sklearn.model_selection import train_test_split

    started = time.time()
    train, test, sample = load()
    id_col, targets = sample.columns[0], list(sample.columns[1:])
    missing = [t for t in targets if t not in train.columns]
    if missing:
        raise ValueError(f"targets {missing} are not columns of data/train.csv")
    train = train.dropna(subset=targets).reset_index(drop=True)
    key = ("features", params["features"])
    if key not in _CACHE:
        inputs = [c for c in test.columns if c in train.columns and c not in targets]
        pooled = pd.concat([train[inputs], test[inputs]], ignore_index=True)
        frame, cats = build_features(params["features"], pooled, id_col)
        _CACHE[key] = (frame.iloc[: len(train)], frame.iloc[len(train) :], cats)
    x_all, x_test, cats = _CACHE[key]
    cat_mask = [c in cats for c in x_all.columns]
    metric = params["metric"]
    classify = metric in ("accuracy", "auc")
    rows = np.arange(len(train))
    stratify = None
    if classify and len(targets) == 1:
        counts = train[targets[0]].value_counts()
        if len(counts) > 1 and counts.min() >= 2:
            stratify = train[targets[0]]
    fit_rows, val_rows = train_test_split(
        rows,
        test_size=params["val_fraction"],
        random_state=params["split_seed"],
        stratify=stratify,
    )
    scores, baselines = [], []
    out = pd.DataFrame({id_col: test[id_col] if id_col in test.columns else sample[id_col]})
    for target in targets:
        y = train[target]
        positive = sorted(pd.unique(y))[-1] if metric == "auc" else None
        y_fit, y_val = y.iloc[fit_rows], y.iloc[val_rows]
        pred = fit_predict(params, x_all.iloc[fit_rows], y_fit, x_all.iloc[val_rows], cat_mask)
        scores.append(score_of(metric, y_val, pred, positive))
        const = constant_prediction(metric, y_fit, len(val_rows))
        baselines.append(score_of(metric, y_val, const, positive))
        out[target] = fit_predict(params, x_all, y, x_test, cat_mask)
    os.makedirs(os.path.dirname(params["out"]) or ".", exist_ok=True)
    out.to_csv(params["out"], index=False)
    return {
        "move": params.get("move"),
        "metric": metric,
        "score": round(float(np.mean(scores)), 6),
        "baseline": round(float(np.mean(baselines)), 6),
        "n_features": int(x_all.shape[1]),
        "n_fit": len(fit_rows),
        "n_val": len(val_rows),
        "out": params["out"],
        "seconds": round(time.time() - started, 3),
    }


def main(spec: str) -> dict[str, Any]:
    """Run one candidate from its JSON spec and print the result line."""
    params = json.loads(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:
            result = run(params)
        else:
            with threadpool_limits(limits=1):
                result = run(params)
    print(json.dumps({"macro_result": result}), flush=True)
    return result


if __name__ == "__main__":
    main(sys.argv[1])
