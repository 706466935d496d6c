"""Data of MLAgentBench/feedback (Kaggle's "feedback-prize-english-language-learning").

The competition's ``train.csv`` has ``text_id, full_text`` and six analytic scores
(``cohesion, syntax, vocabulary, phraseology, grammar, conventions``, 1.0-5.0 in steps of
0.5). ``prepare`` shuffles it (seed 42) and holds out 2% of the essays as the test set,
as MLAgentBench does; their scores stay private.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlagentbench.download import fetch_kaggle, find_one

COMPETITION = "feedback-prize-english-language-learning"
TASK = "MLAgentBench/feedback"
MEASURES = ["cohesion", "syntax", "vocabulary", "phraseology", "grammar", "conventions"]
TEST_FRACTION = 0.02
SEED = 42


def download(raw_dir: Path) -> None:
    fetch_kaggle(COMPETITION, raw_dir, task=TASK)


def _train(raw_dir: Path) -> pd.DataFrame:
    found = find_one(raw_dir, ("train.csv", "*.zip"), task=TASK, what="train.csv")
    if found.suffix == ".zip":
        with zipfile.ZipFile(found) as archive:
            names = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == "train.csv"]
            if not names:
                raise FileNotFoundError(f"{TASK}: {found.name} holds no train.csv")
            with archive.open(names[0]) as handle:
                return pd.read_csv(handle, dtype=str, keep_default_na=False)
    return pd.read_csv(found, dtype=str, keep_default_na=False)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    table = _train(raw_dir)
    missing = {"text_id", "full_text", *MEASURES} - set(table.columns)
    if missing:
        raise ValueError(f"{TASK}: train.csv lacks {sorted(missing)}")
    table = table.iloc[np.random.default_rng(SEED).permutation(len(table))]
    cut = int(len(table) * (1 - TEST_FRACTION))
    train, test = table.iloc[:cut], table.iloc[cut:]
    train.to_csv(public_dir / "train.csv", index=False)
    test[["text_id", "full_text"]].to_csv(public_dir / "test.csv", index=False)
    test[["text_id", *MEASURES]].to_csv(private_dir / "answers.csv", index=False)
    sample = test[["text_id"]].assign(**{m: "3.0" for m in MEASURES})
    sample.to_csv(public_dir / "sample_submission.csv", index=False)
