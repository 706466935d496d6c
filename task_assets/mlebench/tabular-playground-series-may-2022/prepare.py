"""Data preparation for tabular-playground-series-may-2022.

``prepare(raw_dir, public_dir, private_dir)`` reproduces MLE-bench's split of
Kaggle's files: the labelled ``train.csv`` (900,000 rows) is split with
scikit-learn's ``train_test_split(test_size=100_000, random_state=0)``
semantics. The ids are then renumbered in split order: the new train gets
``id`` 0..799,999 and the held-out rows ``id`` 800,000..899,999. The held-out
rows become the private answers (``test.csv``, plus ``gold_submission.csv``
with just ``id,target``, as MLE-bench writes it); the agent sees the new train,
the new test without ``target`` and a sample submission of 0.5 everywhere.
Kaggle's own ``test.csv`` and ``sample_submission.csv`` are not used.

``replica(public_dir, private_dir, seed)`` writes an offline stand-in with the
same columns and the same split logic, from a seeded generator.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring import read_csv_exact, train_test_split_like_sklearn

ID = "id"
TARGET = "target"
FEATURES = [f"f_{i:02d}" for i in range(31)]
COLUMNS = [ID, *FEATURES, TARGET]
TEST_ROWS = 100_000  # MLE-bench's held-out size for the real data


def split_and_write(
    train: pd.DataFrame, public_dir: Path, private_dir: Path, test_rows: int = TEST_ROWS
) -> None:
    """Split a labelled table as MLE-bench does, renumber the ids, write the files."""
    new_train, new_test = train_test_split_like_sklearn(train, test_size=test_rows, random_state=0)
    new_train = new_train.copy()
    new_test = new_test.copy()
    new_train[ID] = np.arange(len(new_train))
    new_test[ID] = np.arange(len(new_train), len(new_train) + len(new_test))

    gold = new_test[[ID, TARGET]].copy()
    sample = gold.copy()
    sample[TARGET] = 0.5
    new_train.to_csv(public_dir / "train.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)
    new_test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)
    gold.to_csv(private_dir / "gold_submission.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (the extracted competition zip in ``raw_dir``)."""
    split_and_write(read_csv_exact(raw_dir / "train.csv"), public_dir, private_dir)


# ---------------------------------------------------------------------------
# Offline replica
# ---------------------------------------------------------------------------
#
# Kaggle's May 2022 data is fully synthetic: seven standard-normal columns
# (f_00..f_06), twelve small counts (f_07..f_18), eight wider normals
# (f_19..f_26), a ten-letter code (f_27), one very wide normal (f_28), a binary
# and a ternary flag (f_29, f_30). Its signal is famously made of feature
# interactions: the label jumps when certain sums of columns cross thresholds,
# the number of distinct letters in the code matters, and the two flags act
# together. The replica follows that recipe with its own coefficients: a
# logistic model of linear terms, three thresholded sums, letter statistics
# and a flag interaction, so boosted trees learn much of it but not all.

N_ROWS = 72_000
REPLICA_TEST_ROWS = 8_000  # same 1:9 held-out share as MLE-bench's 100,000 of 900,000
POSITIVE_RATE = 0.486
_COUNT_MEANS = np.array([2.0, 1.9, 2.7, 2.4, 1.5, 2.9, 2.5, 2.2, 2.5, 2.3, 2.4, 1.9])
_WIDE_SD = np.array([2.3, 2.5, 2.4, 2.5, 2.5, 2.2, 2.3, 2.6])
# Letter probabilities at the free positions of f_27: early letters dominate.
_LETTER_P = 0.62 ** np.arange(20)
_AB_POSITIONS = (0, 2, 5)  # positions that only ever hold A or B
_SIGNAL_SCALE = 4.0


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _ternary(values: np.ndarray, high: float, low: float) -> np.ndarray:
    """+1 above ``high``, -1 below ``low``, 0 between."""
    return (values > high).astype(float) - (values < low).astype(float)


def _codes(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Ten-letter codes (as str) and their letter indices (n x 10)."""
    p = _LETTER_P / _LETTER_P.sum()
    idx = rng.choice(20, size=(n, 10), p=p)
    idx[:, list(_AB_POSITIONS)] = rng.integers(0, 2, size=(n, len(_AB_POSITIONS)))
    text = (idx + ord("A")).astype(np.uint8).view("S10").ravel().astype(str).astype(object)
    return text, idx


def _replica_table(seed: int) -> pd.DataFrame:
    """The full labelled replica (``N_ROWS`` rows, Kaggle's train.csv columns, ``id`` 0..n-1)."""
    rng = np.random.default_rng(seed)
    n = N_ROWS
    normal = rng.normal(0.0, 1.0, size=(n, 7))
    counts = rng.poisson(_COUNT_MEANS, size=(n, 12))
    wide = rng.normal(0.0, 1.0, size=(n, 8)) * _WIDE_SD
    code, letters = _codes(rng, n)
    f_28 = rng.normal(0.0, 238.0, size=n)
    f_29 = (rng.random(n) < 0.35).astype(np.int64)
    f_30 = rng.choice(3, size=n, p=[0.34, 0.33, 0.33])

    ordered = np.sort(letters, axis=1)
    distinct = 1.0 + (np.diff(ordered, axis=1) != 0).sum(axis=1)
    z = (
        0.35 * normal[:, 0]
        + 0.30 * normal[:, 1]
        - 0.25 * normal[:, 3]
        + 0.30 * normal[:, 4]
        - 0.10 * normal[:, 6]
        + 0.18 * (counts[:, 0] - 2.0)
        - 0.15 * (counts[:, 2] - 2.7)
        + 0.22 * (counts[:, 5] - 2.9)
        - 0.20 * (counts[:, 8] - 2.5)
        + 0.18 * wide[:, 0]
        - 0.15 * wide[:, 1]
        + 0.20 * wide[:, 2]
        + 0.15 * wide[:, 3]
        - 0.12 * wide[:, 5]
        + 0.08 * (wide[:, 4] ** 2 - _WIDE_SD[4] ** 2)
        + 0.0012 * f_28
        + 1.6 * _ternary(wide[:, 2] + normal[:, 2], 3.0, -3.1)
        + 1.6 * _ternary(wide[:, 3] + normal[:, 5], 3.1, -3.0)
        + 1.6 * _ternary(normal[:, 0] + normal[:, 1] + wide[:, 7], 3.2, -3.2)
        + 0.55 * (distinct - distinct.mean())
        + 0.25 * (letters[:, 7] - 1.6)
        - 0.9 * ((f_29 == 1) & (f_30 == 2))
        + 0.7 * ((f_29 == 0) & (f_30 == 0))
    )
    z = _SIGNAL_SCALE * z
    lo, hi = -20.0, 20.0
    for _ in range(60):  # bisection on the intercept for the wanted positive share
        mid = (lo + hi) / 2
        if _sigmoid(z + mid).mean() < POSITIVE_RATE:
            lo = mid
        else:
            hi = mid
    target = (rng.random(n) < _sigmoid(z + (lo + hi) / 2)).astype(np.int64)

    table = pd.DataFrame({ID: np.arange(n, dtype=np.int64)})
    for j in range(7):
        table[f"f_{j:02d}"] = normal[:, j]
    for j in range(12):
        table[f"f_{7 + j:02d}"] = counts[:, j].astype(np.int64)
    for j in range(8):
        table[f"f_{19 + j:02d}"] = wide[:, j]
    table["f_27"] = pd.Series(code, dtype=object)
    table["f_28"] = f_28
    table["f_29"] = f_29
    table["f_30"] = f_30.astype(np.int64)
    table[TARGET] = target
    return table[COLUMNS]


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """Generate a synthetic May 2022 table and write it like :func:`prepare` does.

    The labelled table has 72,000 rows (Kaggle's train.csv has 900,000; the
    replica is smaller so that it is generated in a couple of seconds and a
    boosted-tree solution fits in well under half a minute on one core), with
    Kaggle's columns, dtypes and text formats. It goes through
    :func:`split_and_write` with 8,000 held-out rows (MLE-bench holds out
    100,000 of 900,000, the same one in nine), so the files, columns and id
    renumbering are MLE-bench's: ids 0..63,999 in train, 64,000..71,999 in the
    answers. Deterministic: the same ``seed`` gives byte-identical files.
    """
    split_and_write(_replica_table(seed), public_dir, private_dir, REPLICA_TEST_ROWS)
