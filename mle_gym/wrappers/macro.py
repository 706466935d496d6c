"""MacroActionWrapper: an MLE-bench tabular task as a small discrete-action MDP.

The wrapped env keeps its tool-call interface; this wrapper turns it into an
environment that standard RL libraries (stable-baselines3, ...) can train on::

    env = MacroActionWrapper(
        gymnasium.make("MLEBench/spaceship-titanic-v0", data="replica", reward_mode="normalized")
    )
    obs, info = env.reset(seed=0)            # obs: float32 vector, see "Observation"
    obs, reward, terminated, truncated, info = env.step(17)   # fit-eng-hgb-large

Move table (``Discrete(19)`` with the default library; ``env.moves`` lists the
moves with readable names, ``describe_moves(env.moves)`` prints this table). A
fit move fits one candidate = feature set x model family x setting on a fixed
held-out validation split of ``train.csv``, scores it, refits it on the whole
of ``train.csv`` and keeps its test predictions in the workspace:

    ====  ======================  ===============================================
    move  name                    what it does
    ====  ======================  ===============================================
     0    fit-num-linear-small    numeric columns; logistic/ridge, strong penalty
     1    fit-num-linear-large    numeric columns; logistic/ridge, weak penalty
     2    fit-num-rf-small        numeric columns; random forest, 60 trees, depth 8
     3    fit-num-rf-large        numeric columns; random forest, 200 full trees
     4    fit-num-hgb-small       numeric columns; hist. gradient boosting, 80 iter
     5    fit-num-hgb-large       numeric columns; hist. gradient boosting, 300 iter
     6-11 fit-cat-...             same six models; + categorical codes
    12-17 fit-eng-...             same six models; + categorical codes + engineered
    18    submit-best             write the best validated candidate's test
                                  predictions to the submission file and submit
                                  (the sample submission if nothing was fitted)
    ====  ======================  ===============================================

Feature sets: ``num`` = the columns pandas reads as numbers (the id column is
never a feature); ``cat`` = ``num`` + integer codes of every text column with at
most 50 distinct values (one-hot encoded for linear models, native categories
for gradient boosting); ``eng`` = ``cat`` + simple generic features: value
frequencies of high-cardinality text columns, their pieces split on ``/ _ : -``
and spaces (numeric pieces as numbers, few-valued pieces as codes, many-valued
ones as frequencies), ``log1p`` of zero-inflated non-negative amounts with their
total and non-zero count, and the number of missing values per row. The
validation metric follows the task's metric: accuracy (label targets), ROC AUC
(probability targets), RMSE, RMSLE or MAE (numeric targets); with several target
columns (one model each) it is their mean.

Observation (``Box(-1, 1, (2 * n_fit + 4,), float32)``; 40 values by default),
in this order:

* ``[0, n_fit)``: the validation skill of each fit move so far, -1 if not
  tried. Skill = the validation score placed between a constant predictor's
  score on the same split (0; majority class, AUC 0.5, train mean) and a
  perfect score (1), clipped to [0, 1]; a failed fit counts as 0.
* ``n_fit``: the best skill so far (-1 if none);
* ``n_fit + 1``: moves left, as a fraction of the move budget;
* ``n_fit + 2``: time left, as a fraction of the time budget, rounded down to
  ``time_resolution``. The clock is virtual: each fit is charged the sandbox
  time it took when it really ran (memoized fits are charged that recorded
  time too), so a cached episode looks exactly like an uncached one;
* ``[n_fit + 3, 2 * n_fit + 4)``: the last move, one-hot (all 0 after reset).

Reward: ``-move_cost`` for every move; the final move also gets the wrapped
env's reward for the graded submission (use ``reward_mode="normalized"`` on
replica data, so a sample submission earns 0 and the task's reference solution
1). The episode ends (``terminated=True``) with ``submit-best``, or after the
move that uses up the move budget or the virtual time budget, on which
``submit-best`` runs automatically (``info["auto_submitted"]``). If the wrapped
env ends by itself (its own step or wall-clock budget) the episode ends with its
reward and ``truncated=True``.

``info`` of a move: ``move``, ``move_index``, ``moves_used``, ``moves_left``,
``best_move``, ``best_val_score``, ``virtual_time_s``; for a fit also ``cache_hit``,
``ok``, ``val_score``, ``val_baseline``, ``val_skill``, ``metric``, ``fit_seconds``
(``error`` if it failed); on the final move ``submitted`` (a move name or
"sample_submission"), ``env_reward``, ``grade`` (the env's grade report) and
``auto_submitted`` when the budget ran out. ``reset``'s info lists the moves.

Every move really runs in the sandbox through the env's tools: once per episode
(on the first fit that needs it) ``write_file`` puts the parametrised solution
script at ``macro/macro_solution.py``; a fit runs it with the ``python`` tool
(default; the data stays loaded between fits) or ``execute`` and parses its
JSON line; the candidate's predictions land in ``macro/preds/<move>.csv``.
With ``memoize=True`` (default) the result of (task, data variant, data
checksum, move, split, script version) is cached on the host under
``$MLE_GYM_HOME/macro_cache/``; a cache hit writes the cached predictions into
the workspace with ``write_file`` instead of running the script. Validation uses
a fixed split seed and every model a fixed random state, so results are
deterministic.

Only tasks whose public data has ``train.csv``, ``test.csv`` and
``sample_submission.csv`` (id column first, the other columns being targets
present in ``train.csv``) are supported (spaceship-titanic and the
tabular-playground / playground-series replicas, among others); ``reset``
raises ``ValueError`` for others. This module imports no torch,
stable-baselines3 or scikit-learn (scikit-learn runs inside the sandbox).
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import math
import os
import shlex
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from mle_gym import paths

FEATURE_SETS: dict[str, str] = {
    "num": "numeric columns",
    "cat": "numeric + categorical codes",
    "eng": "numeric + categorical codes + engineered features",
}
FAMILIES: dict[str, str] = {
    "linear": "logistic/ridge regression",
    "rf": "random forest",
    "hgb": "histogram gradient boosting",
}
SETTINGS: dict[str, str] = {"small": "small", "large": "large"}
SUBMIT_NAME = "submit-best"
SCRIPT_PATH = "macro/macro_solution.py"
PREDS_DIR = "macro/preds"
RESULT_KEY = "macro_result"
CACHE_VERSION = 1
NOT_TRIED = -1.0
REQUIRED_FILES = ("train.csv", "test.csv", "sample_submission.csv")
# Wrapped-env steps an episode needs besides one per move: writing the script, writing
# the submission file, submit.
EXTRA_ENV_STEPS = 3


@dataclass(frozen=True)
class Move:
    """One action of the macro library.

    ``kind`` is "fit" (then ``features``, ``family`` and ``setting`` name the
    candidate) or "submit" (submit the best validated candidate).
    """

    index: int
    name: str
    kind: str
    features: str | None = None
    family: str | None = None
    setting: str | None = None

    @property
    def description(self) -> str:
        """A readable one-line description."""
        if self.kind == "submit":
            return "submit the best validated candidate (sample submission if none)"
        assert self.features and self.family and self.setting
        return f"{FAMILIES[self.family]} ({self.setting}) on {FEATURE_SETS[self.features]}"


def build_moves(
    feature_sets: tuple[str, ...] = tuple(FEATURE_SETS),
    families: tuple[str, ...] = tuple(FAMILIES),
    settings: tuple[str, ...] = tuple(SETTINGS),
) -> tuple[Move, ...]:
    """The move library: every feature set x family x setting fit, then ``submit-best``."""
    for values, known, what in (
        (feature_sets, FEATURE_SETS, "feature set"),
        (families, FAMILIES, "model family"),
        (settings, SETTINGS, "setting"),
    ):
        if not values:
            raise ValueError(f"at least one {what} is needed")
        unknown = [v for v in values if v not in known]
        if unknown or len(set(values)) != len(values):
            raise ValueError(f"{what}s must be distinct values of {sorted(known)}, got {values}")
    moves: list[Move] = []
    for feats in feature_sets:
        for family in families:
            for setting in settings:
                name = f"fit-{feats}-{family}-{setting}"
                moves.append(Move(len(moves), name, "fit", feats, family, setting))
    moves.append(Move(len(moves), SUBMIT_NAME, "submit"))
    return tuple(moves)


def describe_moves(moves: tuple[Move, ...]) -> str:
    """The move table as plain text (index, name, description)."""
    width = max(len(m.name) for m in moves)
    return "\n".join(f"{m.index:>3}  {m.name:<{width}}  {m.description}" for m in moves)


def validation_metric(metric: str, target_kind: str) -> str:
    """The metric the solution script validates with, for a task metric and target kind.

    One of "accuracy", "auc", "rmse", "rmsle", "mae".
    """
    name = metric.lower()
    if "accuracy" in name:
        return "accuracy"
    if "auc" in name or "auroc" in name:
        return "auc"
    if "rmsle" in name or "squared-log" in name:
        return "rmsle"
    if "absolute" in name or name == "mae":
        return "mae"
    if "squared" in name or "rmse" in name:
        return "rmse"
    return {"binary": "accuracy", "integer": "accuracy", "label": "accuracy"}.get(
        target_kind, "auc" if target_kind == "probability" else "rmse"
    )


def skill(score: float, baseline: float, metric: str) -> float:
    """Validation score as a fraction of the way from the constant predictor (0) to perfect (1),
    clipped to [0, 1]."""
    ideal = 0.0 if metric in ("rmse", "rmsle", "mae") else 1.0
    if not math.isfinite(score) or ideal == baseline:
        return 0.0
    return float(min(1.0, max(0.0, (score - baseline) / (ideal - baseline))))


SOLUTION_SCRIPT = r'''"""Candidate fitter that mle_gym's MacroActionWrapper puts in the workspace.

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
"""

import json
import os
import re
import sys
import time
import warnings

import numpy as np
import pandas as pd

MAX_CODES = 50
PIECES = re.compile(r"[/_:\s-]+")
_CACHE = {}


def load():
    """train, test, sample submission (read once per interpreter)."""
    if "raw" not in _CACHE:
        _CACHE["raw"] = (
            pd.read_csv("data/train.csv"),
            pd.read_csv("data/test.csv"),
            pd.read_csv("data/sample_submission.csv"),
        )
    return _CACHE["raw"]


def is_number(col):
    return pd.api.types.is_bool_dtype(col) or pd.api.types.is_numeric_dtype(col)


def codes(col):
    """Integer category codes as floats, NaN where missing."""
    values = col.astype("category").cat.codes.astype(float)
    return values.where(values >= 0)


def frequency(col):
    """How often each row's value occurs (NaN where missing)."""
    counts = col.value_counts()
    return col.map(counts).astype(float)


def build_features(kind, pooled, id_col):
    """(feature frame, names of categorical-code columns) for a feature set."""
    cols = [c for c in pooled.columns if c != id_col]
    out, cats = {}, []
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
            if c in out:
                continue
            col = pooled[c].astype(str).where(pooled[c].notna())
            out[c + "__freq"] = frequency(col)
            parts = col.str.split(PIECES, n=3, expand=True, regex=True)
            for j in range(parts.shape[1]):
                part = parts[j]
                if part.isna().mean() > 0.5:
                    continue
                name = c + "__" + str(j)
                as_num = pd.to_numeric(part, errors="coerce")
                many = part.nunique() > MAX_CODES
                if as_num.notna().sum() >= 0.9 * part.notna().sum():
                    out[name] = as_num.astype(float)
                elif not many:
                    out[name] = codes(part)
                    cats.append(name)
                if many:
                    out[name + "__freq"] = frequency(part)
        amounts = [
            c
            for c in numeric
            if pooled[c].min() >= 0 and (pooled[c] == 0).mean() >= 0.25 and pooled[c].nunique() > 10
        ]
        if amounts:
            block = pooled[amounts].astype(float)
            for c in amounts:
                out[c] = np.log1p(block[c])
            out["amounts__total"] = np.log1p(block.sum(axis=1, min_count=1))
            out["amounts__nonzero"] = (block > 0).sum(axis=1).astype(float)
        out["row__missing"] = pooled[cols].isna().sum(axis=1).astype(float)
    if not out:
        out["row__constant"] = pd.Series(0.0, index=pooled.index)
    return pd.DataFrame(out, index=pooled.index), cats


def make_model(family, setting, classify, cat_mask):
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


def score_of(metric, y_true, pred, positive):
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


def constant_prediction(metric, y_fit, n):
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


def fit_predict(params, x_fit, y_fit, x_eval, cat_mask):
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


def run(params):
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
        "n_fit": int(len(fit_rows)),
        "n_val": int(len(val_rows)),
        "out": params["out"],
        "seconds": round(time.time() - started, 3),
    }


def main(spec):
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
'''
SCRIPT_VERSION = hashlib.sha256(SOLUTION_SCRIPT.encode()).hexdigest()[:16]

_DIGESTS: dict[str, str] = {}


def _data_digest(public: Path) -> str:
    """A checksum of the task's public data (from the prepared manifest when present)."""
    cached = _DIGESTS.get(str(public))
    if cached is not None:
        return cached
    h = hashlib.sha256()
    manifest = public.parent / "MANIFEST.json"
    files: dict[str, Any] = {}
    if manifest.is_file():
        with contextlib.suppress(ValueError, OSError):
            files = json.loads(manifest.read_text()).get("files", {})
    entries = {k: v for k, v in files.items() if k.startswith("public/")}
    if entries:
        h.update(json.dumps(entries, sort_keys=True).encode())
    else:
        for name in REQUIRED_FILES:
            h.update(name.encode())
            with open(public / name, "rb") as fh:
                for block in iter(lambda: fh.read(2**20), b""):
                    h.update(block)
    digest = h.hexdigest()[:24]
    _DIGESTS[str(public)] = digest
    return digest


def _csv_header(path: Path) -> list[str]:
    with open(path, newline="", encoding="utf-8") as fh:
        return next(csv.reader(fh), [])


def _result_line(text: str) -> dict[str, Any] | None:
    """The solution script's result in a tool observation (the last JSON result line)."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{") and RESULT_KEY in line:
            with contextlib.suppress(ValueError):
                value = json.loads(line).get(RESULT_KEY)
                if isinstance(value, dict):
                    return value
    return None


class MacroActionWrapper(gym.Wrapper):
    """Discrete macro actions over a tabular MLE-bench env (see the module docstring).

    Args:
        env: an mle_gym env (``gymnasium.make("MLEBench/<task>-v0", data="replica",
            reward_mode="normalized")`` or an ``MLEEnv``). Its step budget must allow
            ``move_budget + 3`` tool calls.
        move_budget: moves per episode; the move that uses the last one also submits.
        move_cost: subtracted from the reward of every move (default 0).
        memoize: reuse cached fit results (validation score and test predictions) from
            ``cache_dir`` instead of re-running identical fits.
        cache_dir: cache folder (default ``$MLE_GYM_HOME/macro_cache``).
        feature_sets, families, settings: the fit moves (all combinations, in this order).
        val_fraction: share of train.csv held out for validation.
        split_seed: random state of the validation split.
        runner: "python" (the env's persistent ``python`` tool; data stays loaded) or
            "execute" (a fresh ``python macro/macro_solution.py`` per fit).
        fit_timeout_s: per-fit timeout (default: the env's command timeout).
        time_budget_s: virtual time budget (default: the env's wall-clock budget).
        time_resolution: the time-left observation is rounded down to this step.
    """

    def __init__(
        self,
        env: gym.Env,
        *,
        move_budget: int = 6,
        move_cost: float = 0.0,
        memoize: bool = True,
        cache_dir: str | os.PathLike[str] | None = None,
        feature_sets: tuple[str, ...] = tuple(FEATURE_SETS),
        families: tuple[str, ...] = tuple(FAMILIES),
        settings: tuple[str, ...] = tuple(SETTINGS),
        val_fraction: float = 0.2,
        split_seed: int = 0,
        runner: str = "python",
        fit_timeout_s: float | None = None,
        time_budget_s: float | None = None,
        time_resolution: float = 0.01,
    ) -> None:
        super().__init__(env)
        if int(move_budget) < 1:
            raise ValueError(f"move_budget must be >= 1, got {move_budget}")
        if not 0.0 <= float(move_cost) <= 1.0:
            raise ValueError(f"move_cost must be in [0, 1], got {move_cost}")
        if not 0.0 < float(val_fraction) < 1.0:
            raise ValueError(f"val_fraction must be in (0, 1), got {val_fraction}")
        if runner not in ("python", "execute"):
            raise ValueError(f"runner must be 'python' or 'execute', got {runner!r}")
        if not 0.0 < float(time_resolution) <= 1.0:
            raise ValueError(f"time_resolution must be in (0, 1], got {time_resolution}")
        base = env.unwrapped
        for attr in ("task", "data_dir", "workspace", "limits"):
            if not hasattr(base, attr):
                raise TypeError(f"MacroActionWrapper needs an mle_gym env (no {attr!r})")
        self.task = base.task  # type: ignore[attr-defined]
        self.moves: tuple[Move, ...] = build_moves(
            tuple(feature_sets), tuple(families), tuple(settings)
        )
        self.fit_moves: tuple[Move, ...] = self.moves[:-1]
        self.move_budget = int(move_budget)
        self.move_cost = float(move_cost)
        self.memoize = bool(memoize)
        self.cache_dir = Path(cache_dir) if cache_dir else paths.home() / "macro_cache"
        self.val_fraction = float(val_fraction)
        self.split_seed = int(split_seed)
        self.runner = runner
        self.fit_timeout_s = fit_timeout_s
        limits = base.limits  # type: ignore[attr-defined]
        self.time_budget_s = float(time_budget_s or limits.time_budget_s)
        if self.time_budget_s <= 0:
            raise ValueError(f"time_budget_s must be positive, got {time_budget_s}")
        self.time_resolution = float(time_resolution)
        self.metric = validation_metric(self.task.metric, self.task.submission.target_kind)

        n_fit = len(self.fit_moves)
        self._n_fit = n_fit
        self.action_space = spaces.Discrete(len(self.moves))
        self.observation_space = spaces.Box(-1.0, 1.0, shape=(2 * n_fit + 4,), dtype=np.float32)

        self.tool_calls: Counter[str] = Counter()
        """Wrapped-env tool calls made by this wrapper, by tool name (all episodes)."""
        self.cache_hits = 0
        self.cache_misses = 0
        self._memory: dict[str, dict[str, Any]] = {}
        self._active = False
        self._reset_episode_state()

    # -- public helpers ------------------------------------------------------------------------

    @property
    def move_names(self) -> list[str]:
        """Readable names of the moves, by action index."""
        return [m.name for m in self.moves]

    def describe(self) -> str:
        """The move table as plain text."""
        return describe_moves(self.moves)

    # -- gymnasium API -------------------------------------------------------------------------

    def reset(  # type: ignore[override]
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a fresh env episode; check the task's data; the initial observation."""
        if seed is not None:
            self.action_space.seed(seed)
        _, env_info = self.env.reset(seed=seed, options=options)
        steps_left = env_info.get("steps_left")
        if steps_left is not None and steps_left < self.move_budget + EXTRA_ENV_STEPS:
            raise ValueError(
                f"the wrapped env allows {steps_left} steps per episode but move_budget="
                f"{self.move_budget} needs up to {self.move_budget + EXTRA_ENV_STEPS}; raise "
                "its max_episode_steps or lower move_budget"
            )
        base = self.env.unwrapped
        public = Path(base.data_dir)  # type: ignore[attr-defined]
        self._check_data(public)
        self._public = public
        self._variant = public.parent.name or str(env_info.get("data_source"))
        self._digest = _data_digest(public)
        self._reset_episode_state()
        self._active = True
        info = {
            "task_id": self.task.id,
            "episode_id": env_info.get("episode_id"),
            "data_source": env_info.get("data_source"),
            "data_variant": self._variant,
            "metric": self.metric,
            "move_budget": self.move_budget,
            "moves": self.move_names,
        }
        return self._observation(), info

    def step(  # type: ignore[override]
        self, action: Any
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Run one move (see the module docstring for rewards and episode ends)."""
        if not self._active:
            raise ResetNeeded("call reset() before step(); the episode is over or not started")
        index = int(np.asarray(action).reshape(-1)[0])
        if not 0 <= index < len(self.moves):
            raise ValueError(f"action {action!r} is outside {self.action_space}")
        move = self.moves[index]
        self._moves_used += 1
        self._last = index
        reward = -self.move_cost if self.move_cost else 0.0
        info: dict[str, Any] = {"move": move.name, "move_index": index}
        terminated = truncated = False
        if move.kind == "submit":
            reward += self._submit_best(info)
            terminated = True
        else:
            ended = self._fit(move, info)
            if ended is not None:
                env_reward, env_truncated = ended
                reward += env_reward
                terminated, truncated = not env_truncated, env_truncated
            elif self._moves_used >= self.move_budget or self._time_left() <= 0:
                info["auto_submitted"] = True
                reward += self._submit_best(info)
                terminated = True
        if terminated or truncated:
            self._active = False
        info.update(
            moves_used=self._moves_used,
            moves_left=self.move_budget - self._moves_used,
            best_move=self._best_name(),
            best_val_score=self._best_score(),
            virtual_time_s=round(self._time_used, 3),
        )
        return self._observation(), float(reward), terminated, truncated, info

    # -- episode state -------------------------------------------------------------------------

    def _reset_episode_state(self) -> None:
        self._skills = np.full(self._n_fit, NOT_TRIED, dtype=np.float64)
        self._results: dict[int, dict[str, Any]] = {}
        self._preds: dict[int, str] = {}
        self._order: list[int] = []
        self._last: int | None = None
        self._moves_used = 0
        self._time_used = 0.0
        self._script_written = False

    def _time_left(self) -> float:
        return max(0.0, 1.0 - self._time_used / self.time_budget_s)

    def _observation(self) -> np.ndarray:
        n = self._n_fit
        obs = np.zeros(2 * n + 4, dtype=np.float32)
        obs[:n] = self._skills
        tried = self._skills[self._skills > NOT_TRIED]
        obs[n] = float(tried.max()) if tried.size else NOT_TRIED
        obs[n + 1] = (self.move_budget - self._moves_used) / self.move_budget
        res = self.time_resolution
        obs[n + 2] = math.floor(self._time_left() / res + 1e-9) * res
        if self._last is not None:
            obs[n + 3 + self._last] = 1.0
        return np.clip(obs, -1.0, 1.0)

    def _best(self) -> int | None:
        """Index of the best validated candidate with predictions (the earliest tried on ties)."""
        best, best_value = None, -math.inf
        lower = self.metric in ("rmse", "rmsle", "mae")
        for index in self._order:
            if index not in self._preds:
                continue
            value = -self._results[index]["score"] if lower else self._results[index]["score"]
            if value > best_value:
                best, best_value = index, value
        return best

    def _best_name(self) -> str | None:
        best = self._best()
        return self.moves[best].name if best is not None else None

    def _best_score(self) -> float | None:
        best = self._best()
        return self._results[best]["score"] if best is not None else None

    # -- wrapped env ----------------------------------------------------------------------------

    def _env_step(self, tool: str, args: dict[str, Any]) -> tuple[str, float, bool, bool, dict]:
        self.tool_calls[tool] += 1
        obs, reward, terminated, truncated, info = self.env.step({"tool": tool, "args": args})
        return str(obs), float(reward), bool(terminated), bool(truncated), info

    def _check_data(self, public: Path) -> None:
        missing = [name for name in REQUIRED_FILES if not (public / name).is_file()]
        if missing:
            raise ValueError(
                f"MacroActionWrapper needs {', '.join(REQUIRED_FILES)} in the task's data; "
                f"{self.task.id} has no {', '.join(missing)}"
            )
        sample = _csv_header(public / "sample_submission.csv")
        train = set(_csv_header(public / "train.csv"))
        absent = [c for c in sample[1:] if c not in train]
        if len(sample) < 2 or absent:
            raise ValueError(
                f"MacroActionWrapper needs the sample submission's target columns in train.csv; "
                f"{self.task.id}: {absent or 'no target column'}"
            )

    # -- fits -----------------------------------------------------------------------------------

    def _cache_key(self, move: Move) -> tuple[str, dict[str, Any]]:
        fields = {
            "version": CACHE_VERSION,
            "task": self.task.key,
            "variant": self._variant,
            "data": self._digest,
            "move": move.name,
            "metric": self.metric,
            "val_fraction": self.val_fraction,
            "split_seed": self.split_seed,
            "script": SCRIPT_VERSION,
        }
        digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:20]
        return digest, fields

    def _cache_file(self, move: Move, digest: str) -> Path:
        task_dir = self.task.key.replace("/", "__")
        return self.cache_dir / task_dir / self._variant / f"{move.name}.{digest}.json"

    def _cache_get(self, move: Move) -> dict[str, Any] | None:
        digest, _ = self._cache_key(move)
        if digest in self._memory:
            return self._memory[digest]
        path = self._cache_file(move, digest)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("key_digest") != digest:
            return None
        self._memory[digest] = entry
        return entry

    def _cache_put(self, move: Move, result: dict[str, Any], preds: str, seconds: float) -> None:
        digest, fields = self._cache_key(move)
        entry = {
            "key_digest": digest,
            "key": fields,
            "result": result,
            "seconds": seconds,
            "predictions_csv": preds,
        }
        self._memory[digest] = entry
        path = self._cache_file(move, digest)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entry, fh)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def _fit(self, move: Move, info: dict[str, Any]) -> tuple[float, bool] | None:
        """Run (or replay) a fit move; None, or (env reward, truncated) if the env ended."""
        out = f"{PREDS_DIR}/{move.name}.csv"
        entry = self._cache_get(move) if self.memoize else None
        info["cache_hit"] = entry is not None
        if entry is not None:
            self.cache_hits += 1
            _, env_r, term, trunc, env_info = self._env_step(
                "write_file", {"path": out, "content": entry["predictions_csv"]}
            )
            ok = bool(env_info.get("ok", True))
            result, seconds = dict(entry["result"]), float(entry["seconds"])
            preds: str | None = entry["predictions_csv"] if ok else None
            error = None if ok else str(env_info.get("error"))
        else:
            self.cache_misses += 1
            ended = self._ensure_script()
            if ended is not None:
                return self._env_ended(ended, info)
            spec = {
                "move": move.name,
                "features": move.features,
                "family": move.family,
                "setting": move.setting,
                "metric": self.metric,
                "val_fraction": self.val_fraction,
                "split_seed": self.split_seed,
                "out": out,
            }
            text = json.dumps(spec, sort_keys=True)
            timeout = {"timeout": self.fit_timeout_s} if self.fit_timeout_s else {}
            if self.runner == "python":
                code = (
                    "import os as _os, sys as _sys\n"
                    "_dir = _os.path.abspath('macro')\n"
                    "if _dir not in _sys.path:\n"
                    "    _sys.path.insert(0, _dir)\n"
                    "import macro_solution\n"
                    f"macro_solution.main({text!r})\n"
                )
                obs, env_r, term, trunc, env_info = self._env_step(
                    "python", {"code": code, **timeout}
                )
            else:
                command = f"python {SCRIPT_PATH} {shlex.quote(text)}"
                obs, env_r, term, trunc, env_info = self._env_step(
                    "execute", {"command": command, **timeout}
                )
            meta = env_info.get("tool_meta") or {}
            seconds = float(meta.get("duration_s") or env_info.get("step_elapsed_s") or 0.0)
            parsed = _result_line(obs) if env_info.get("ok", False) else None
            preds, error = None, None
            if parsed is None:
                result = {}
                error = "the solution script gave no result: " + obs[-1500:]
            else:
                result = parsed
                preds = self._read_workspace(out)
                if preds is None:
                    error = f"the solution script wrote no readable {out}"
                elif self.memoize:
                    self._cache_put(move, result, preds, seconds)
        self._time_used += seconds
        index = move.index
        if index not in self._order:
            self._order.append(index)
        if error is None and preds is not None:
            self._results[index] = result
            self._preds[index] = preds
            self._skills[index] = skill(result["score"], result["baseline"], result["metric"])
            info.update(
                ok=True,
                val_score=result["score"],
                val_baseline=result["baseline"],
                val_skill=float(self._skills[index]),
                metric=result["metric"],
                fit_seconds=seconds,
            )
        else:
            self._results.pop(index, None)
            self._preds.pop(index, None)
            if self._skills[index] == NOT_TRIED:
                self._skills[index] = 0.0
            info.update(ok=False, error=error, fit_seconds=seconds)
        if term or trunc:
            return self._env_ended((env_r, term, trunc, env_info), info)
        return None

    def _ensure_script(self) -> tuple[float, bool, bool, dict] | None:
        if self._script_written:
            return None
        _, env_r, term, trunc, env_info = self._env_step(
            "write_file", {"path": SCRIPT_PATH, "content": SOLUTION_SCRIPT}
        )
        self._script_written = bool(env_info.get("ok", False))
        if term or trunc:
            return env_r, term, trunc, env_info
        return None

    def _env_ended(
        self, ended: tuple[float, bool, bool, dict], info: dict[str, Any]
    ) -> tuple[float, bool]:
        env_r, term, trunc, env_info = ended
        info["env_ended"] = True
        info["env_reward"] = env_r
        if "grade" in env_info:
            info["grade"] = env_info["grade"]
        if "truncation_reason" in env_info:
            info["truncation_reason"] = env_info["truncation_reason"]
        return env_r, bool(trunc and not term)

    def _read_workspace(self, rel: str) -> str | None:
        """A text file the solution script wrote into the workspace (regular files only)."""
        workspace = self.env.unwrapped.workspace  # type: ignore[attr-defined]
        if workspace is None:
            return None
        path = Path(workspace) / rel
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        with os.fdopen(fd, "rb") as fh:
            data = fh.read()
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None

    # -- submission -----------------------------------------------------------------------------

    def _submit_best(self, info: dict[str, Any]) -> float:
        """Write the best candidate's predictions (or the sample submission) and submit."""
        best = self._best()
        if best is not None:
            content = self._preds[best]
            info["submitted"] = self.moves[best].name
        else:
            content = (self._public / "sample_submission.csv").read_text(encoding="utf-8")
            info["submitted"] = "sample_submission"
        target = self.task.submission.file
        _, env_r, term, trunc, env_info = self._env_step(
            "write_file", {"path": target, "content": content}
        )
        if not (term or trunc):
            _, env_r, term, trunc, env_info = self._env_step("submit", {})
        info["env_reward"] = env_r
        if "grade" in env_info:
            info["grade"] = env_info["grade"]
        return env_r
