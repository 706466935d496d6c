"""Data of MLAgentBench/spaceship-titanic (Kaggle's "spaceship-titanic").

``download(raw_dir)`` fetches the competition zip through the Kaggle API;
``prepare(raw_dir, public_dir, private_dir)`` splits Kaggle's labelled ``train.csv``
as MLAgentBench does: the first 80% of the rows (file order) are training data, the
last 20% the test set, whose ``Transported`` labels are kept private.

``replica(public_dir, private_dir, seed)`` reuses the MLE-bench task's offline
generator (``task_assets/mlebench/spaceship-titanic/prepare.py``): it builds the
full labelled table there, and this module splits it the MLAgentBench way.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd

from mle_gym.families.mlagentbench.authoring import fetch_kaggle, read_raw_csv, task_module

COMPETITION = "spaceship-titanic"
ID, TARGET = "PassengerId", "Transported"
TRAIN_FRACTION = 0.8


def download(raw_dir: Path) -> None:
    """Fetch the competition zip (Kaggle credentials and accepted rules needed)."""
    fetch_kaggle(COMPETITION, raw_dir, task="MLAgentBench/spaceship-titanic")


def split_and_write(table: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """MLAgentBench's split: the first 80% of the rows train, the rest test."""
    if ID not in table or TARGET not in table:
        raise ValueError(f"the table needs {ID} and {TARGET} columns")
    cut = int(len(table) * TRAIN_FRACTION)
    train, test = table.iloc[:cut], table.iloc[cut:]
    train.to_csv(public_dir / "train.csv", index=False)
    test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)
    pd.DataFrame({ID: test[ID], TARGET: "False"}).to_csv(
        public_dir / "sample_submission.csv", index=False
    )
    test[[ID, TARGET]].to_csv(private_dir / "answers.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Split Kaggle's labelled train.csv (in ``raw_dir``, or inside the zip there)."""
    split_and_write(
        read_raw_csv(raw_dir, "train.csv", task="MLAgentBench/spaceship-titanic"),
        public_dir,
        private_dir,
    )


def replica(public_dir: Path, private_dir: Path, seed: int) -> None:
    """The MLE-bench replica's full table (8,693 rows, Kaggle's columns, sorted by
    ``PassengerId``), split the MLAgentBench way. Deterministic per seed."""
    generator = task_module("mlebench/spaceship-titanic", "prepare")
    with tempfile.TemporaryDirectory(prefix="mle_gym-st-") as tmp:
        pub, priv = Path(tmp) / "public", Path(tmp) / "private"
        pub.mkdir()
        priv.mkdir()
        generator.replica(pub, priv, seed)
        parts = [
            pd.read_csv(pub / "train.csv", keep_default_na=False, dtype=str),
            pd.read_csv(priv / "test.csv", keep_default_na=False, dtype=str),
        ]
    table = pd.concat(parts).sort_values(ID, kind="stable").reset_index(drop=True)
    split_and_write(table, public_dir, private_dir)
