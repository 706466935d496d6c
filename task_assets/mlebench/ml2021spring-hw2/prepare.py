"""Data preparation for ml2021spring-hw2 (TIMIT phoneme classification).

Kaggle's zip holds ``sampleSubmission.csv`` and three numpy arrays under
``timit_11/timit_11/``: ``train_11.npy`` (1,229,932 frames x 429 features:
11 consecutive frames of 39 MFCC values), ``train_label_11.npy`` (one of 39
phoneme classes per frame, stored as text such as ``'36'``) and ``test_11.npy``
(451,552 unlabelled frames).

MLE-bench keeps only the labelled frames. It splits the row indices with
scikit-learn's ``train_test_split(range(n), test_size=p, random_state=0)``
where ``p = n_test / (n_train + n_test)`` keeps Kaggle's test share (~0.269),
i.e. 330,291 held-out frames and 899,641 kept ones, then writes, under the
same folder names:

* ``public/timit_11/timit_11/train_11.npy`` and ``train_label_11.npy`` — the
  kept frames and labels;
* ``public/timit_11/timit_11/test_11.npy`` — the held-out frames, in split
  order; row ``i`` has ``Id`` ``i``;
* ``public/sampleSubmission.csv`` — ``Id,ClassId`` with every class 0;
* ``private/answers.csv`` — ``Id,ClassId`` with the true classes.

The arrays are copied row block by row block from memory-mapped inputs, so
the 2 GB training matrix is never held in memory twice; the ``.npy`` files
are byte-identical to ``numpy.save`` of the indexed arrays.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from numpy.lib import format as npy_format

FOLDER = Path("timit_11") / "timit_11"
ROWS_PER_BLOCK = 1 << 16


def split_indices(n_train: int, n_test: int) -> tuple[np.ndarray, np.ndarray]:
    """(kept rows, held-out rows) of the labelled frames, as MLE-bench's split orders them."""
    test_share = n_test / (n_train + n_test)
    held = math.ceil(test_share * n_train)  # scikit-learn's count; the rest is kept
    permutation = np.random.RandomState(0).permutation(n_train)
    return permutation[held:], permutation[:held]


def take_rows(source: np.ndarray, rows: np.ndarray, path: Path) -> None:
    """Write ``source[rows]`` to ``path`` as ``numpy.save`` would, one block at a time."""
    shape = (len(rows), *source.shape[1:])
    out = npy_format.open_memmap(path, mode="w+", dtype=source.dtype, shape=shape)
    try:
        for start in range(0, len(rows), ROWS_PER_BLOCK):
            block = rows[start : start + ROWS_PER_BLOCK]
            out[start : start + len(block)] = source[block]
        out.flush()
    finally:
        del out


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    src = raw_dir / FOLDER
    features = np.load(src / "train_11.npy", mmap_mode="r")
    labels = np.load(src / "train_label_11.npy", mmap_mode="r")
    unlabelled = np.load(src / "test_11.npy", mmap_mode="r")
    if len(labels) != len(features):
        raise ValueError(f"{len(features)} training frames but {len(labels)} labels")
    keep, held = split_indices(len(features), len(unlabelled))

    dst = public_dir / FOLDER
    dst.mkdir(parents=True)
    take_rows(features, keep, dst / "train_11.npy")
    take_rows(labels, keep, dst / "train_label_11.npy")
    take_rows(features, held, dst / "test_11.npy")

    answers = pd.DataFrame({"Id": range(len(held)), "ClassId": np.asarray(labels[held])})
    sample = answers.copy()
    sample["ClassId"] = 0
    sample.to_csv(public_dir / "sampleSubmission.csv", index=False)
    answers.to_csv(private_dir / "answers.csv", index=False)
