"""Data preparation for aerial-cactus-identification.

Kaggle's zip holds ``train.csv`` (17,500 labelled 32x32 thumbnails: ``id``,
``has_cactus``), ``sample_submission.csv`` and two inner archives, ``train.zip``
(``train/<id>``) and ``test.zip`` (``test/<id>``, unlabelled, unused here).

MLE-bench splits ``train.csv`` with scikit-learn's ``train_test_split(test_size=0.19,
random_state=0)`` (14,175 / 3,325 rows) and hands the agent:

* ``train.csv`` - the new training rows;
* ``sample_submission.csv`` - the held-out ids with ``has_cactus`` set to 0.5;
* ``train.zip`` / ``test.zip`` - the images of each part, stored at the archive root
  (no folder inside the archive).

The held-out rows with their labels are the private ``test.csv``.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable
from pathlib import Path

from mle_gym.authoring import extract_zip, read_csv_exact, train_test_split_like_sklearn

ID = "id"
TARGET = "has_cactus"
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # reproducible archive bytes


def write_image_zip(archive: Path, folder: Path, names: Iterable[str]) -> None:
    """Store ``folder/<name>`` for each name at the root of a new deflated zip.

    Members are written in sorted order with a fixed timestamp, so the same
    images always give the same archive bytes.
    """
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(names):
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(folder / name, "rb") as src, zf.open(info, "w") as dst:
                while block := src.read(1 << 20):
                    dst.write(block)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labels = read_csv_exact(raw_dir / "train.csv")
    new_train, new_test = train_test_split_like_sklearn(labels, test_size=0.19, random_state=0)

    new_train.to_csv(public_dir / "train.csv", index=False)
    new_test.to_csv(private_dir / "test.csv", index=False)
    sample = new_test.copy()
    sample[TARGET] = 0.5
    sample.to_csv(public_dir / "sample_submission.csv", index=False)

    # Only the labelled images are needed; Kaggle's own test.zip stays packed.
    extract_zip(raw_dir / "train.zip", raw_dir)
    images = raw_dir / "train"
    missing = [i for i in labels[ID] if not (images / i).is_file()]
    if missing:
        raise FileNotFoundError(
            f"{len(missing)} image(s) listed in train.csv are not in train.zip, e.g. {missing[0]}"
        )
    write_image_zip(public_dir / "train.zip", images, new_train[ID])
    write_image_zip(public_dir / "test.zip", images, new_test[ID])
