"""Data preparation for plant-pathology-2020-fgvc7.

Kaggle's zip holds ``train.csv`` (1,821 labelled apple-leaf photos: ``image_id``
and the one-hot columns ``healthy``, ``multiple_diseases``, ``rust``, ``scab``),
``test.csv`` and ``sample_submission.csv`` for Kaggle's unlabelled test set, and
``images/`` with ``Train_<n>.jpg`` and ``Test_<n>.jpg`` for both.

MLE-bench splits ``train.csv`` with scikit-learn's ``train_test_split(test_size=0.1,
random_state=0)`` (1,638 / 183 rows) and renames the images so that their names
do not reveal where they came from: the new training rows become ``Train_0``,
``Train_1``, ... and the held-out rows ``Test_0``, ``Test_1``, ..., numbered in
split order. ``public/images/`` holds only those renamed photos (copied, not
decoded); Kaggle's own test photos are dropped. The agent gets ``train.csv``,
``test.csv`` (ids only) and a sample submission with 0.25 in every class
column; the held-out rows with their labels are the private ``test.csv``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mle_gym.authoring import read_csv_exact, train_test_split_like_sklearn

ID = "image_id"
CLASSES = ["healthy", "multiple_diseases", "rust", "scab"]


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labelled = read_csv_exact(raw_dir / "train.csv")
    if set(labelled.columns) != {ID, *CLASSES}:
        raise ValueError(
            f"train.csv has columns {list(labelled.columns)}, expected {[ID, *CLASSES]}"
        )
    new_train, answers = train_test_split_like_sklearn(labelled, test_size=0.1, random_state=0)
    new_train, answers = new_train.copy(), answers.copy()

    renamed = {old: f"Train_{i}" for i, old in enumerate(new_train[ID].unique())}
    renamed.update({old: f"Test_{i}" for i, old in enumerate(answers[ID].unique())})
    new_train[ID] = new_train[ID].map(renamed)
    answers[ID] = answers[ID].map(renamed)

    test = answers[[ID]].copy()
    sample = answers[[ID]].copy()
    sample[CLASSES] = 0.25

    images = public_dir / "images"
    images.mkdir()
    for old in labelled[ID]:
        if not str(old).startswith("Train_"):
            raise ValueError(f"train.csv lists {old!r}, not a Train_ image")
        shutil.copyfile(raw_dir / "images" / f"{old}.jpg", images / f"{renamed[old]}.jpg")

    answers.to_csv(private_dir / "test.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    test.to_csv(public_dir / "test.csv", index=False)
    new_train.to_csv(public_dir / "train.csv", index=False)
