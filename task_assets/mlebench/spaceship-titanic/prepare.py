"""Data preparation for spaceship-titanic.

``prepare(raw_dir, public_dir, private_dir)`` turns Kaggle's competition files
into MLE-bench's split: Kaggle's labelled ``train.csv`` (8,693 rows) is split
90/10 with scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``
semantics; the 870 held-out rows become the private answers. The agent sees the
new train, the new test without ``Transported``, and an all-False sample
submission.

``replica(public_dir, private_dir, seed)`` builds an offline stand-in with the
same schema and the same split, from a seeded generator.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.data.splits import train_test_split_like_sklearn

ID = "PassengerId"
TARGET = "Transported"


def split_and_write(train: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """Split a labelled table as MLE-bench does and write public/private files."""
    new_train, new_test = train_test_split_like_sklearn(train, test_size=0.1, random_state=0)
    sample = new_test[[ID, TARGET]].copy()
    sample[TARGET] = False
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)
    new_train.to_csv(public_dir / "train.csv", index=False)
    new_test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    train = pd.read_csv(raw_dir / "train.csv", float_precision="round_trip")
    split_and_write(train, public_dir, private_dir)
