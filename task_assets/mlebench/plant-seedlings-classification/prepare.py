"""Data preparation for plant-seedlings-classification.

Kaggle's zip holds ``train/<species>/<file>.png`` (4,750 photos in twelve
species folders), ``test/`` (unlabelled, unused here) and
``sample_submission.csv``. There is no label table: MLE-bench builds one by
walking ``train/`` — species folders in sorted order, within each the ``.png``
files in sorted order — into rows ``file,species``, then splits it with
scikit-learn's ``train_test_split(test_size=0.14, random_state=0)``: 666
photos (0.14 x 4,750 rounded up) become the test set, the other 4,084 stay for
training. Written files:

* ``public/train/<species>/<file>`` — the kept photos, filed by species;
* ``public/test/<file>`` — the held-out photos, without species folders;
* ``public/sample_submission.csv`` — ``file,species`` with every species
  ``Sugar beet``;
* ``private/answers.csv`` — the held-out ``file,species`` rows.

Photos are copied byte for byte (never decoded). As in MLE-bench, no label
CSV is published: the folder names are the training labels.
"""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import pandas as pd

from mle_gym.authoring import train_test_split_like_sklearn

ID = "file"
TARGET = "species"
TEST_SIZE = 0.14
SAMPLE_SPECIES = "Sugar beet"


def list_photos(train_dir: Path) -> pd.DataFrame:
    """``file,species`` rows for every ``.png`` below ``train_dir``, in sorted order."""
    rows = []
    for species in sorted(os.listdir(train_dir)):
        folder = train_dir / species
        if not folder.is_dir():
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".png"):
                rows.append({ID: name, TARGET: species})
    return pd.DataFrame(rows, columns=[ID, TARGET])


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    train_dir = raw_dir / "train"
    photos = list_photos(train_dir)
    # scikit-learn's count for a fractional test_size (train gets the rest)
    n_test = math.ceil(TEST_SIZE * len(photos))
    new_train, answers = train_test_split_like_sklearn(photos, test_size=n_test, random_state=0)
    if not set(new_train[ID]).isdisjoint(answers[ID]):
        raise ValueError("the same file name appears under two species; the split would leak")

    sample = answers.copy()
    sample[TARGET] = SAMPLE_SPECIES
    answers.to_csv(private_dir / "answers.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)

    for species in new_train[TARGET].unique():
        (public_dir / "train" / species).mkdir(parents=True, exist_ok=True)
    (public_dir / "test").mkdir(exist_ok=True)
    for name, species in zip(new_train[ID], new_train[TARGET], strict=True):
        shutil.copyfile(train_dir / species / name, public_dir / "train" / species / name)
    for name, species in zip(answers[ID], answers[TARGET], strict=True):
        shutil.copyfile(train_dir / species / name, public_dir / "test" / name)
