"""Data of MLAgentBench/feedback (Kaggle's "feedback-prize-english-language-learning").

The competition's ``train.csv`` has ``text_id, full_text`` and six analytic scores
(``cohesion, syntax, vocabulary, phraseology, grammar, conventions``, 1.0-5.0 in steps of
0.5). ``prepare`` shuffles it (seed 42) and holds out 2% of the essays as the test set,
as MLAgentBench does; their scores stay private.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mle_gym.families.mlagentbench.authoring import fetch_kaggle, read_raw_csv

COMPETITION = "feedback-prize-english-language-learning"
TASK = "MLAgentBench/feedback"
MEASURES = ["cohesion", "syntax", "vocabulary", "phraseology", "grammar", "conventions"]
TEST_FRACTION = 0.02
SEED = 42


def download(raw_dir: Path) -> None:
    fetch_kaggle(COMPETITION, raw_dir, task=TASK)


def prepare(raw_dir: Path, public_dir: Path, private_dir: Path) -> None:
    table = read_raw_csv(raw_dir, "train.csv", task=TASK)
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
