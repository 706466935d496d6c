"""Data preparation for dogs-vs-cats-redux-kernels-edition.

Kaggle's zip holds ``sample_submission.csv`` and two inner archives: ``train.zip``
(``train/cat.<n>.jpg`` and ``train/dog.<n>.jpg``, 25,000 photographs, the label
is in the file name) and ``test.zip`` (``test/<n>.jpg``, unlabelled, unused here).

MLE-bench sorts the training image paths, splits that list with scikit-learn's
``train_test_split(test_size=0.1, random_state=0)`` (22,500 / 2,500 images) and
renames everything:

* ``public/train/``: the training images in split order, cats renamed
  ``cat.0.jpg``, ``cat.1.jpg``, ... and dogs ``dog.0.jpg``, ... (one counter each);
* ``public/test/``: the held-out images renamed ``1.jpg``, ``2.jpg``, ... in split order;
* ``public/train.zip`` / ``public/test.zip``: the same two folders zipped (files at
  the archive root); MLE-bench leaves both the folders and the archives in place;
* ``public/sample_submission.csv``: ``id`` 1..n with ``label`` 0.5;
* ``private/answers.csv``: ``id`` 1..n with ``label`` 1 for a dog, 0 for a cat.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pandas as pd

from mle_gym.authoring import extract_zip, place_file, train_test_split_like_sklearn

_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # reproducible archive bytes


def zip_folder(folder: Path, archive: Path) -> None:
    """Zip every file of ``folder`` (names relative to it), sorted, with a fixed timestamp."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(path, "rb") as src, zf.open(info, "w") as dst:
                while block := src.read(1 << 20):
                    dst.write(block)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    extract_zip(raw_dir / "train.zip", raw_dir)
    images = sorted((raw_dir / "train").glob("*.jpg"))
    table = pd.DataFrame({"path": images})
    train_part, test_part = train_test_split_like_sklearn(table, test_size=0.1, random_state=0)

    (public_dir / "train").mkdir()
    counters = {"cat": 0, "dog": 0}
    for path in train_part["path"]:
        kind = "cat" if "cat" in path.name else "dog"
        place_file(path, public_dir / "train" / f"{kind}.{counters[kind]}.jpg")
        counters[kind] += 1

    (public_dir / "test").mkdir()
    test_paths = list(test_part["path"])
    for number, path in enumerate(test_paths, start=1):
        place_file(path, public_dir / "test" / f"{number}.jpg")

    zip_folder(public_dir / "train", public_dir / "train.zip")
    zip_folder(public_dir / "test", public_dir / "test.zip")

    ids = list(range(1, len(test_paths) + 1))
    answers = pd.DataFrame({"id": ids, "label": [int("dog" in p.name) for p in test_paths]})
    answers.to_csv(private_dir / "answers.csv", index=False)
    sample = pd.DataFrame({"id": ids, "label": [0.5] * len(ids)})
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
