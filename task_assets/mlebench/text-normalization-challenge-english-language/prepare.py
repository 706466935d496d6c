"""Data preparation for text-normalization-challenge-english-language.

``prepare(raw_dir, public_dir, private_dir)`` reproduces MLE-bench's split.
Kaggle's zip holds one zipped CSV per file; only ``en_train.csv.zip``
(``en_train.csv``: sentence_id, token_id, class, before, after; 9,918,441
tokens) is used. The distinct sentence ids, in order of first appearance, are
split with scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``
semantics, so no sentence is cut in two (8,924,976 train and 993,465 test
tokens). In each part the sentence ids are renumbered 0, 1, 2... in order of
first appearance; rows keep their original order.

Written files (CSV with every non-numeric field quoted, as MLE-bench writes
them):

* ``public/en_train.csv.zip`` — ``en_train.csv``: sentence_id, token_id,
  class, before, after;
* ``public/en_test_2.csv.zip`` — ``en_test_2.csv``: sentence_id, token_id,
  before;
* ``public/en_sample_submission_2.csv.zip`` — ``en_sample_submission_2.csv``:
  id (``<sentence_id>_<token_id>``), after (= before);
* ``private/answers.csv`` — id, after;
* ``private/sample_submission.csv`` — the sample submission again (MLE-bench's
  configured sample submission lives in private/).

One addition to MLE-bench's layout: ``public/en_sample_submission_2.csv``, the
unzipped sample submission (same bytes as the private copy), because mle_gym
reads the sample submission from the public folder to check submission ids.

Values that pandas reads as missing (e.g. the word ``None`` or ``NA``) are
written as empty quoted fields, exactly as MLE-bench's pandas round trip does.
"""

from __future__ import annotations

import csv
import shutil
import zipfile
from pathlib import Path

import pandas as pd

from mle_gym.data import kaggle
from mle_gym.data.csvio import read_csv_exact
from mle_gym.data.splits import train_test_split_like_sklearn

LANG = "en"
SENTENCE = "sentence_id"
TOKEN = "token_id"
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


def split_and_write(old_train: pd.DataFrame, public_dir: Path, private_dir: Path) -> None:
    """MLE-bench's sentence-level split and the files it writes."""
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
        (new_train, f"{LANG}_train.csv"),
        (new_test, f"{LANG}_test_2.csv"),
        (sample, f"{LANG}_sample_submission_2.csv"),
    ):
        _write_csv(frame, public_dir / name)
        _zip_file(public_dir / name)
    (public_dir / f"{LANG}_train.csv").unlink()
    (public_dir / f"{LANG}_test_2.csv").unlink()


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    train_csv = raw_dir / f"{LANG}_train.csv"
    if not train_csv.is_file():
        kaggle.extract_zip(raw_dir / f"{LANG}_train.csv.zip", raw_dir)
    split_and_write(read_csv_exact(train_csv), public_dir, private_dir)
