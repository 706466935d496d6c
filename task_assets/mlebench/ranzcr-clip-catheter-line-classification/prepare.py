"""Data preparation for ranzcr-clip-catheter-line-classification.

Kaggle's zip holds ``train.csv`` (30,083 chest X-rays: ``StudyInstanceUID``, eleven
0/1 columns for catheter and tube positions, ``PatientID``),
``train_annotations.csv`` (line coordinates for part of them), ``train/`` and
``test/`` with ``<StudyInstanceUID>.jpg`` images, TFRecord copies of both in
``train_tfrecords/`` and ``test_tfrecords/``, and a sample submission.

MLE-bench splits ``train.csv`` with scikit-learn's ``train_test_split(test_size=0.1,
random_state=0)`` (27,074 / 3,009 rows). The agent gets the new ``train.csv``, the
annotations of the new training studies only, the training images in ``train/``
and the held-out images in ``test/`` (copied, not decoded) and a sample
submission with 0 in all eleven columns. There is no public ``test.csv``: the
test images are the list of ids. Kaggle's own test images and both TFRecord
folders are not used. The held-out rows (all columns) are the private
``test.csv``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from mle_gym.authoring import read_csv_exact, train_test_split_like_sklearn

ID = "StudyInstanceUID"
CLASSES = [
    "ETT - Abnormal",
    "ETT - Borderline",
    "ETT - Normal",
    "NGT - Abnormal",
    "NGT - Borderline",
    "NGT - Incompletely Imaged",
    "NGT - Normal",
    "CVC - Abnormal",
    "CVC - Borderline",
    "CVC - Normal",
    "Swan Ganz Catheter Present",
]


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labelled = read_csv_exact(raw_dir / "train.csv")
    new_train, new_test = train_test_split_like_sklearn(labelled, test_size=0.1, random_state=0)

    annotations = read_csv_exact(raw_dir / "train_annotations.csv")
    new_annotations = annotations[annotations[ID].isin(new_train[ID])]

    for part, rows in (("train", new_train), ("test", new_test)):
        folder = public_dir / part
        folder.mkdir()
        for uid in rows[ID]:
            shutil.copyfile(raw_dir / "train" / f"{uid}.jpg", folder / f"{uid}.jpg")
        copied = sum(1 for _ in folder.glob("*.jpg"))
        if copied != len(rows):
            raise ValueError(f"public/{part}/ has {copied} images for {len(rows)} rows")

    sample = new_test[[ID]].copy()
    for name in CLASSES:
        sample[name] = 0

    new_train.to_csv(public_dir / "train.csv", index=False)
    new_annotations.to_csv(public_dir / "train_annotations.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
