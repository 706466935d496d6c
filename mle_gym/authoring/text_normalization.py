"""The two text-normalization competitions (English, Russian), shared by both task folders.

``text-normalization-challenge-english-language`` and ``...-russian-language``
differ only in their file prefix (``en_`` / ``ru_``); each folder's
``prepare.py`` and ``grade.py`` call into this module with its language.

Preparation (MLE-bench's): Kaggle's ``<lang>_train.csv`` is split by sentence
with scikit-learn semantics (``train_test_split(test_size=0.1,
random_state=0)`` over the unique ``sentence_id`` values), so no sentence is
cut in two; both parts get their sentence ids renumbered 0, 1, 2... in order of
first appearance. Written: ``public/<lang>_train.csv.zip``,
``public/<lang>_test_2.csv.zip``, ``public/<lang>_sample_submission_2.csv.zip``
(stored zips), plus the unzipped ``public/<lang>_sample_submission_2.csv``
(mle_gym reads the sample submission from the public folder),
``private/answers.csv`` and ``private/sample_submission.csv``. Every CSV quotes
its non-numeric fields, so values that pandas reads as missing (the word
``None``, ``NA``) come out as empty quoted fields, exactly as MLE-bench's pandas
round trip writes them.

Grading (MLE-bench's): both columns are compared as text after pandas' reading,
so every value in :data:`~mle_gym.authoring.PANDAS_NA_STRINGS` becomes
``"nan"`` on both sides before the exact-text accuracy.
"""

from __future__ import annotations

import csv
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.authoring.checks import PANDAS_NA_STRINGS
from mle_gym.data.csvio import read_csv_exact
from mle_gym.data.kaggle import extract_zip
from mle_gym.data.splits import train_test_split_like_sklearn
from mle_gym.grading.metrics import get_metric

__all__ = ["TARGET", "as_mlebench_reads", "grade", "prepare", "split_and_write"]

SENTENCE = "sentence_id"
TOKEN = "token_id"
TARGET = "after"
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _write_csv(frame: pd.DataFrame, path: Path) -> None:
    frame.to_csv(path, index=False, quotechar='"', quoting=csv.QUOTE_NONNUMERIC)


def _zip_file(path: Path) -> None:
    """``<path>.zip`` holding ``path`` under its own name (stored, like MLE-bench's)."""
    info = zipfile.ZipInfo(path.name, date_time=_ZIP_TIME)
    info.compress_type = zipfile.ZIP_STORED
    info.external_attr = 0o644 << 16
    info.file_size = path.stat().st_size  # lets zipfile pick ZIP64 for big files
    target = path.with_name(path.name + ".zip")
    with zipfile.ZipFile(target, "w") as zf, zf.open(info, "w") as out, open(path, "rb") as src:
        shutil.copyfileobj(src, out, 1 << 20)


def _renumber(frame: pd.DataFrame) -> pd.DataFrame:
    """Sentence ids replaced by 0, 1, 2... in order of first appearance."""
    out = frame.copy()
    codes, _ = pd.factorize(out[SENTENCE], sort=False)
    out[SENTENCE] = codes.astype("int64")
    return out


def _ids(frame: pd.DataFrame) -> pd.Series:
    return frame[SENTENCE].astype(str) + "_" + frame[TOKEN].astype(str)


def split_and_write(
    old_train: pd.DataFrame, public_dir: Path, private_dir: Path, lang: str
) -> None:
    """MLE-bench's sentence-level split of ``old_train`` and the files it writes."""
    sentences = pd.DataFrame({SENTENCE: old_train[SENTENCE].unique()})
    _, test_sentences = train_test_split_like_sklearn(sentences, test_size=0.1, random_state=0)
    in_test = old_train[SENTENCE].isin(test_sentences[SENTENCE]).to_numpy()
    new_train = _renumber(old_train[~in_test])
    held_out = _renumber(old_train[in_test])

    new_test = held_out.drop(columns=["after", "class"])
    answers = pd.DataFrame({"id": _ids(held_out), "after": held_out["after"]})
    sample = pd.DataFrame({"id": _ids(new_test), "after": new_test["before"]})

    _write_csv(answers, private_dir / "answers.csv")
    _write_csv(sample, private_dir / "sample_submission.csv")
    for frame, name in (
        (new_train, f"{lang}_train.csv"),
        (new_test, f"{lang}_test_2.csv"),
        (sample, f"{lang}_sample_submission_2.csv"),
    ):
        _write_csv(frame, public_dir / name)
        _zip_file(public_dir / name)
    (public_dir / f"{lang}_train.csv").unlink()
    (public_dir / f"{lang}_test_2.csv").unlink()


def prepare(lang: str, raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``) for ``lang``."""
    train_csv = raw_dir / f"{lang}_train.csv"
    if not train_csv.is_file():
        extract_zip(raw_dir / f"{lang}_train.csv.zip", raw_dir)
    split_and_write(read_csv_exact(train_csv), public_dir, private_dir, lang)


def as_mlebench_reads(values: pd.Series) -> np.ndarray:
    """The text MLE-bench compares: missing-value markers become ``"nan"``."""
    return np.array(
        ["nan" if v in PANDAS_NA_STRINGS else v for v in values.astype(str)], dtype=object
    )


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Share of tokens whose normalized text matches (frames aligned on id)."""
    return get_metric("accuracy").score(
        as_mlebench_reads(answers[TARGET]), as_mlebench_reads(submission[TARGET])
    )
