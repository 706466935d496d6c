"""Data preparation for invasive-species-monitoring.

Kaggle's zip holds four archives: ``train.7z`` (folder ``train/`` with 2,295
JPEG photos named ``<name>.jpg``), ``test.7z`` (the unlabelled photos, unused
here), ``train_labels.csv.zip`` (``name,invasive``) and
``sample_submission.csv.zip``. MLE-bench keeps only the labelled photos and
splits ``train_labels.csv`` with scikit-learn's
``train_test_split(test_size=0.2, random_state=0)``: 1,836 photos stay for
training, the 459 held out become the test set and ``private/answers.csv``.

Files written:

* ``public/train_labels.csv`` — the training rows (``name,invasive``);
* ``public/train/<name>.jpg`` and ``public/test/<name>.jpg`` — the photos,
  byte for byte as stored in ``train.7z``;
* ``public/sample_submission.csv`` and ``private/sample_submission.csv`` — the
  test names in answers order, every ``invasive`` 0.5;
* ``private/answers.csv`` — the held-out rows.

MLE-bench re-packs the public part as ``train.7z``, ``test.7z``,
``train_labels.csv.zip`` and ``sample_submission.csv.zip``. Here the public
files stay unpacked (the same bytes inside): the agent's sandbox has no 7z
tool, and the environment reads the sample submission as a plain CSV.

The photos are read straight out of ``train.7z`` with
:func:`mle_gym.authoring.extract_members` (py7zr). Archive member names are
only compared with the expected names; every output path is built from the
label file, never from the archive.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import pandas as pd

from mle_gym.authoring import (
    extract_members,
    read_csv_exact,
    read_zip_member,
    train_test_split_like_sklearn,
)

ID = "name"
TARGET = "invasive"
TEST_SIZE = 0.2
MAX_CSV_BYTES = 1 << 30


def _read_zipped_csv(archive: Path, member: str) -> pd.DataFrame:
    """Read one CSV member of a zip (size-capped) exactly as MLE-bench's read_csv does."""
    return read_csv_exact(io.BytesIO(read_zip_member(archive, member, MAX_CSV_BYTES)))


def split(labels: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(new train, answers, sample submission) as MLE-bench derives them."""
    # scikit-learn's count for a fractional test_size (train gets the rest)
    n_test = math.ceil(TEST_SIZE * len(labels))
    new_train, answers = train_test_split_like_sklearn(labels, test_size=n_test, random_state=0)
    sample = answers.copy()
    sample[TARGET] = 0.5
    return new_train, answers, sample


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labels = _read_zipped_csv(raw_dir / "train_labels.csv.zip", "train_labels.csv")
    new_train, answers, sample = split(labels)
    if not (new_train[ID].is_unique and answers[ID].is_unique):
        raise ValueError("train_labels.csv: image names are not unique")

    answers.to_csv(private_dir / "answers.csv", index=False)
    sample.to_csv(private_dir / "sample_submission.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    new_train.to_csv(public_dir / "train_labels.csv", index=False)

    targets: dict[str, Path] = {}
    for folder, frame in (("train", new_train), ("test", answers)):
        (public_dir / folder).mkdir()
        for name in frame[ID].astype(str):
            targets[f"train/{name}.jpg"] = public_dir / folder / f"{name}.jpg"
    found = extract_members(raw_dir / "train.7z", targets)
    missing = sorted(set(targets) - found)
    if missing:
        raise ValueError(
            f"train.7z lacks {len(missing)} labelled photo(s), e.g. {', '.join(missing[:3])}"
        )
