"""Data preparation for tiny-house-prices (the worked example of docs/adding-a-task.md).

``prepare(raw_dir, public_dir, private_dir)`` turns the competition's files (the extracted
zip in ``raw_dir``: a labelled ``train.csv``) into the split the benchmark grades: 20% of
the rows, drawn as scikit-learn's ``train_test_split(test_size=0.2, random_state=0)``
draws them, become the private answers; the agent sees the other rows, the held-out rows
without ``SalePrice`` and a sample submission predicting 0 everywhere.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.authoring import read_csv_exact, train_test_split_like_sklearn

ID = "Id"
TARGET = "SalePrice"


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Split ``raw_dir/train.csv`` into public train/test/sample and the private answers."""
    labelled = read_csv_exact(raw_dir / "train.csv")
    train, test = train_test_split_like_sklearn(labelled, test_size=0.2, random_state=0)
    train.to_csv(public_dir / "train.csv", index=False)
    test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)
    test[[ID]].assign(**{TARGET: 0.0}).to_csv(public_dir / "sample_submission.csv", index=False)
    test.to_csv(private_dir / "test.csv", index=False)
