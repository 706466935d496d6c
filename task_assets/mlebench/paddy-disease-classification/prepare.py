"""Data preparation for paddy-disease-classification (Paddy Doctor).

Kaggle's zip holds ``train.csv`` (10,407 rows: ``image_id``, ``label`` — one of
ten classes, nine diseases plus ``normal`` —, ``variety``, ``age``),
``sample_submission.csv``, ``train_images/<label>/<image_id>`` (JPEG photos
filed by class) and ``test_images/`` (unlabelled, unused here).

MLE-bench splits ``train.csv`` with scikit-learn's
``train_test_split(train_size=0.75, random_state=0)``: 7,805 rows stay for
training and 2,602 become the test set. Written files:

* ``public/train.csv`` — the kept rows, all four columns;
* ``public/train_images/<label>/<image_id>`` — their photos, filed by class;
* ``public/test_images/<image_id>`` — the held-out photos, without class folders;
* ``public/sample_submission.csv`` — ``image_id,label`` with every label empty;
* ``private/test.csv`` — the held-out rows, all four columns.

Photos are copied byte for byte (never decoded).
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

from mle_gym.authoring import read_csv_exact, train_test_split_like_sklearn

ID = "image_id"
TARGET = "label"
TRAIN_SIZE = 0.75


def _copy(src: Path, dst: Path) -> None:
    if not src.is_file():
        raise FileNotFoundError(f"photo listed in train.csv is missing from the zip: {src}")
    if dst.exists():
        raise FileExistsError(f"two rows of train.csv name the same photo: {dst.name}")
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labelled = read_csv_exact(raw_dir / "train.csv")
    # scikit-learn with only train_size: floor(0.75 n) rows train, the rest test.
    n_test = len(labelled) - math.floor(TRAIN_SIZE * len(labelled))
    new_train, new_test = train_test_split_like_sklearn(labelled, test_size=n_test, random_state=0)

    sample = new_test[[ID, TARGET]].copy()
    sample[TARGET] = ""
    new_train.to_csv(public_dir / "train.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)

    images = raw_dir / "train_images"
    for label, image in zip(new_train[TARGET], new_train[ID], strict=True):
        _copy(images / label / image, public_dir / "train_images" / label / image)
    for label, image in zip(new_test[TARGET], new_test[ID], strict=True):
        _copy(images / label / image, public_dir / "test_images" / image)
