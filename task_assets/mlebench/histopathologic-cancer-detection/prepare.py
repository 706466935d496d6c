"""Data preparation for histopathologic-cancer-detection.

Kaggle's zip holds ``train_labels.csv`` (220,025 patches: ``id``, ``label`` 0/1),
``sample_submission.csv`` and the folders ``train/`` and ``test/`` with one
``<id>.tif`` per 96x96 patch (``test/`` is unlabelled; only its size is used).

MLE-bench keeps Kaggle's test share: the test fraction is
``#test images / (#train rows + #test images)`` (57,458 / 277,483 on Kaggle's
data), and ``train_test_split(ids, test_size=that fraction, random_state=0)``
picks the held-out ids (45,561 of them, leaving 174,464). Both parts keep the row
order of ``train_labels.csv``. Public: ``train_labels.csv`` (new train),
``train/`` and ``test/`` (TIFF files copied as they are) and
``sample_submission.csv`` (held-out ids, ``label`` 0). Private: ``answers.csv``.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.authoring import copy_images, read_csv_exact, train_test_split_like_sklearn

ID = "id"
TARGET = "label"


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    labels = read_csv_exact(raw_dir / "train_labels.csv")
    n_kaggle_test = sum(1 for _ in (raw_dir / "test").glob("*.tif"))
    test_share = n_kaggle_test / (len(labels) + n_kaggle_test)
    train_rows, test_rows = train_test_split_like_sklearn(
        labels[[ID]], test_size=test_share, random_state=0
    )
    new_train = labels[labels[ID].isin(train_rows[ID])]
    new_test = labels[labels[ID].isin(test_rows[ID])]

    copy_images(train_rows[ID], raw_dir / "train", public_dir / "train", ".tif")
    copy_images(test_rows[ID], raw_dir / "train", public_dir / "test", ".tif")

    sample = new_test.copy()
    sample[TARGET] = 0
    new_train.to_csv(public_dir / "train_labels.csv", index=False)
    new_test.to_csv(private_dir / "answers.csv", index=False)
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
