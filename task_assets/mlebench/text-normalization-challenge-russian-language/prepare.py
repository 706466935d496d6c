"""Data preparation for text-normalization-challenge-russian-language.

Kaggle's ``ru_train.csv.zip`` (10,574,516 tokens) is split by sentence as MLE-bench
splits it: 9,515,325 train and 1,059,191 test tokens. Written: ``public/ru_train.csv.zip``,
``public/ru_test_2.csv.zip``, ``public/ru_sample_submission_2.csv(.zip)``,
``private/answers.csv`` and ``private/sample_submission.csv``. The code (and the
full description of the split and the files) is shared with the other language:
:mod:`mle_gym.authoring.text_normalization`.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.authoring import text_normalization

LANG = "ru"


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    """Prepare Kaggle's files (extracted competition zip in ``raw_dir``)."""
    text_normalization.prepare(LANG, raw_dir, public_dir, private_dir)
