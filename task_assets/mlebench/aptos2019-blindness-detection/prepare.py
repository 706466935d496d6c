"""Data preparation for aptos2019-blindness-detection.

Kaggle's zip holds ``train.csv`` (3,662 graded retina photographs: ``id_code``,
``diagnosis`` 0-4), ``test.csv``, ``sample_submission.csv`` and the folders
``train_images/`` and ``test_images/`` with one ``<id_code>.png`` per row.

MLE-bench splits ``train.csv`` with scikit-learn's ``train_test_split(test_size=0.1,
random_state=0)`` (3,295 / 367 rows). Public: ``train.csv`` (new train),
``test.csv`` (held-out ``id_code`` only), ``sample_submission.csv`` (``diagnosis``
0 everywhere), ``train_images/`` and ``test_images/`` (PNG files copied as they
are). Private: ``test.csv`` with the held-out grades.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.authoring import copy_images, read_csv_exact, train_test_split_like_sklearn

ID = "id_code"
TARGET = "diagnosis"


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labels = read_csv_exact(raw_dir / "train.csv")
    new_train, new_test = train_test_split_like_sklearn(labels, test_size=0.1, random_state=0)

    copy_images(new_train[ID], raw_dir / "train_images", public_dir / "train_images", ".png")
    copy_images(new_test[ID], raw_dir / "train_images", public_dir / "test_images", ".png")

    sample = new_test.copy()
    sample[TARGET] = 0
    new_train.to_csv(public_dir / "train.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)
    new_test.drop(columns=[TARGET]).to_csv(public_dir / "test.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
