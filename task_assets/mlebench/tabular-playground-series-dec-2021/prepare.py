"""Data preparation for tabular-playground-series-dec-2021.

``prepare(raw_dir, public_dir, private_dir)`` reproduces MLE-bench's split of
Kaggle's files: the labelled ``train.csv`` (4,000,000 rows, ``Id`` 0..3,999,999)
is split with scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``
semantics into a new train (3,600,000 rows) and a held-out test (400,000 rows)
that becomes the private answers. The agent sees the new train, the new test
without ``Cover_Type`` and a sample submission predicting class 2 everywhere.
Kaggle's own ``test.csv`` and ``sample_submission.csv`` are not used.

``replica(public_dir, private_dir, seed)`` writes an offline stand-in with the
same columns and the same split logic, from a seeded generator.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import read_csv_exact, train_test_split_like_sklearn

ID = "Id"
TARGET = "Cover_Type"
NUMERIC = [
    "Elevation",
    "Aspect",
    "Slope",
    "Horizontal_Distance_To_Hydrology",
    "Vertical_Distance_To_Hydrology",
    "Horizontal_Distance_To_Roadways",
    "Hillshade_9am",
    "Hillshade_Noon",
    "Hillshade_3pm",
    "Horizontal_Distance_To_Fire_Points",
]
WILDERNESS = [f"Wilderness_Area{i}" for i in range(1, 5)]
SOILS = [f"Soil_Type{i}" for i in range(1, 41)]
COLUMNS = [ID, *NUMERIC, *WILDERNESS, *SOILS, TARGET]
SAMPLE_CLASS = 2  # the class MLE-bench's sample submission predicts for every row


def split_and_write(train: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """Split a labelled table as MLE-bench does and write the public/private files."""
    new_train, new_test = train_test_split_like_sklearn(train, test_size=0.1, random_state=0)
    new_train.to_csv(public_dir / "train.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)
    new_test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)
    sample = pd.DataFrame({ID: new_test[ID].to_numpy(), TARGET: SAMPLE_CLASS})
    sample.to_csv(public_dir / "sample_submission.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (the extracted competition zip in ``raw_dir``)."""
    split_and_write(read_csv_exact(raw_dir / "train.csv"), public_dir, private_dir)


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# Kaggle's data for this month was produced by a generative model trained on
# the classic forest cover-type survey, so it keeps the survey's structure
# (elevation bands per cover type, wilderness areas and soil families that
# favour certain types) but with blurred one-hot flags and values spilling
# past their physical ranges. The replica draws a latent cover type first and
# then every feature conditionally on it; a small share of labels is then
# redrawn from the class prior, which caps the reachable accuracy the way the
# real data's noise does (the best Kaggle scores stop near 0.957).

N_ROWS = 60_000
# Class shares of Kaggle's train.csv (classes 1..7); class 5 has a single row there.
_CLASS_P = np.array([0.3670, 0.5657, 0.0489, 0.00009, 0.0000003, 0.00283, 0.01563])
_ELEVATION_MEAN = np.array([3135.0, 2870.0, 2430.0, 2250.0, 2650.0, 2520.0, 3370.0])
_ELEVATION_SD = np.array([85.0, 95.0, 120.0, 110.0, 110.0, 120.0, 80.0])
_ROADWAYS_MEAN = np.array([2150.0, 1650.0, 900.0, 700.0, 1300.0, 1000.0, 2250.0])
_FIRE_MEAN = np.array([1900.0, 1450.0, 1000.0, 900.0, 1300.0, 1100.0, 1850.0])
_HYDRO_MEAN = np.array([290.0, 265.0, 190.0, 160.0, 240.0, 200.0, 360.0])
_SLOPE_SHAPE = np.array([2.3, 2.6, 3.4, 3.4, 2.8, 3.3, 2.5])
# Primary wilderness area (columns: areas 1..4) per class.
_WILDERNESS_P = np.array(
    [
        [0.45, 0.06, 0.49, 0.00],
        [0.21, 0.02, 0.73, 0.04],
        [0.00, 0.00, 0.42, 0.58],
        [0.00, 0.00, 0.05, 0.95],
        [0.10, 0.00, 0.90, 0.00],
        [0.00, 0.00, 0.45, 0.55],
        [0.38, 0.08, 0.54, 0.00],
    ]
)
# Soil types (1-based) each class favours; the rest get a small base weight.
_FAVOURED_SOILS = {
    1: [12, 18, 19, 20, 21, 22, 23, 24, 26, 27, 29, 30, 31, 32, 33, 38, 39, 40],
    2: [4, 10, 12, 13, 20, 22, 23, 24, 29, 30, 31, 32, 33],
    3: [1, 2, 3, 4, 6, 10, 11, 16, 17],
    4: [1, 3, 6, 10, 17],
    5: [4, 18, 29],
    6: [1, 2, 4, 6, 10, 11, 14, 17],
    7: [23, 29, 35, 36, 37, 38, 39, 40],
}
_NEVER_SOILS = (7, 15)  # constant zero columns in Kaggle's data
_LABEL_NOISE = 0.03


def _soil_weights() -> np.ndarray:
    """(7 classes x 40 soils) probabilities of a row's primary soil type."""
    weights = np.full((7, 40), 0.04)
    for cls, soils in _FAVOURED_SOILS.items():
        for rank, soil in enumerate(soils):
            weights[cls - 1, soil - 1] = 1.0 + 0.5 * ((rank * 7) % 5)  # uneven but fixed
    for soil in _NEVER_SOILS:
        weights[:, soil - 1] = 0.0
    return weights / weights.sum(axis=1, keepdims=True)


def _pick(rng: np.random.Generator, probs: np.ndarray) -> np.ndarray:
    """One column index per row of ``probs`` (rows are distributions)."""
    cum = np.cumsum(probs, axis=1)
    u = rng.random(len(probs))[:, None] * cum[:, -1:]
    return np.minimum((u > cum).sum(axis=1), probs.shape[1] - 1)


def _flags(rng: np.random.Generator, primary: np.ndarray, width: int, extra: float, drop: float):
    """Blurred one-hot flags: the primary bit (sometimes dropped) plus random extra bits."""
    n = len(primary)
    flags = rng.random((n, width)) < extra
    keep = (primary >= 0) & (rng.random(n) >= drop)
    flags[np.flatnonzero(keep), primary[keep]] = True
    return flags.astype(np.int64)


def _replica_table(seed: int) -> pd.DataFrame:
    """The full labelled replica (``N_ROWS`` rows, Kaggle's train.csv columns, ``Id`` 0..n-1)."""
    rng = np.random.default_rng(seed)
    n = N_ROWS
    cls = rng.choice(7, size=n, p=_CLASS_P / _CLASS_P.sum())

    elevation = rng.normal(_ELEVATION_MEAN[cls], _ELEVATION_SD[cls])
    aspect = rng.uniform(0.0, 360.0, size=n) + rng.normal(0.0, 14.0, size=n)
    slope = rng.gamma(_SLOPE_SHAPE[cls], 15.0 / _SLOPE_SHAPE[cls]) + rng.normal(0.0, 1.5, size=n)
    hydro_h = rng.gamma(1.6, _HYDRO_MEAN[cls] / 1.6) + rng.normal(0.0, 25.0, size=n)
    hydro_v = 0.18 * hydro_h + rng.normal(0.0, 55.0, size=n)
    roads = rng.gamma(2.2, _ROADWAYS_MEAN[cls] / 2.2) + rng.normal(0.0, 120.0, size=n)
    fire = rng.gamma(2.0, _FIRE_MEAN[cls] / 2.0) + rng.normal(0.0, 120.0, size=n)
    facing = np.sin(np.deg2rad(aspect)) * np.clip(slope, 0.0, None) / 15.0
    hs_9am = 212.0 + 28.0 * facing + rng.normal(0.0, 24.0, size=n)
    hs_noon = 222.0 - 0.9 * (slope - 15.0) + rng.normal(0.0, 18.0, size=n)
    hs_3pm = 141.0 - 38.0 * facing + rng.normal(0.0, 38.0, size=n)

    numeric = {
        "Elevation": np.clip(elevation, 1773, 4383),
        "Aspect": np.clip(aspect, -33, 407),
        "Slope": np.clip(slope, -3, 64),
        "Horizontal_Distance_To_Hydrology": np.clip(hydro_h, -92, 1602),
        "Vertical_Distance_To_Hydrology": np.clip(hydro_v, -317, 647),
        "Horizontal_Distance_To_Roadways": np.clip(roads, -287, 7666),
        "Hillshade_9am": np.clip(hs_9am, -4, 301),
        "Hillshade_Noon": np.clip(hs_noon, 49, 279),
        "Hillshade_3pm": np.clip(hs_3pm, -53, 272),
        "Horizontal_Distance_To_Fire_Points": np.clip(fire, -277, 8075),
    }
    wild_primary = _pick(rng, _WILDERNESS_P[cls])
    wild = _flags(rng, wild_primary, 4, extra=0.025, drop=0.04)
    soil_primary = _pick(rng, _soil_weights()[cls])
    soil_primary = np.where(rng.random(n) < 0.12, -1, soil_primary)  # no soil flag at all
    soil = _flags(rng, soil_primary, 40, extra=0.006, drop=0.0)
    soil[:, [s - 1 for s in _NEVER_SOILS]] = 0

    noisy = rng.random(n) < _LABEL_NOISE
    label = np.where(noisy, rng.choice(7, size=n, p=_CLASS_P / _CLASS_P.sum()), cls) + 1

    table = pd.DataFrame({ID: np.arange(n, dtype=np.int64)})
    for name, values in numeric.items():
        table[name] = np.round(values).astype(np.int64)
    for j, name in enumerate(WILDERNESS):
        table[name] = wild[:, j]
    for j, name in enumerate(SOILS):
        table[name] = soil[:, j]
    table[TARGET] = label.astype(np.int64)
    return table[COLUMNS]


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate a synthetic forest-cover table and write it like :func:`prepare` does.

    The labelled table has 60,000 rows (Kaggle's train.csv has 4,000,000; the
    replica is smaller so that it is generated in about a second and a
    boosted-tree solution fits in well under half a minute on one core), with
    Kaggle's 56 integer columns in Kaggle's order and ``Id`` 0..59,999. It then
    goes through :func:`split_and_write`, so the files, their columns and the
    90/10 split are MLE-bench's: 54,000 train rows and 6,000 answers.
    Deterministic: the same ``seed`` gives byte-identical files.
    """
    split_and_write(_replica_table(seed), public_dir, private_dir)
