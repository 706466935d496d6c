"""h-and-m-personalized-fashion-recommendations graded as MLE-bench grades it: MAP@12.

MLE-bench's grader wants exactly the columns ``customer_id`` and ``prediction`` (any
order; nothing else, not even a written index), and the submitted customer ids must
include every customer of the answers (the buyers of the test week); other customers
are dropped. The remaining rows and the answers are sorted by ``customer_id`` and
paired position by position, so a scored customer listed twice shifts every later
pairing. Both prediction columns are turned into text (``astype(str)``, as pandas reads
them: a column of single article ids is read as integers, which drops leading zeros;
a blank cell becomes the text ``nan``, as in pandas 2) and split on single spaces; the
answers become sets of article ids. Each customer
scores the average precision of the first 12 predictions (a repeated article counts
once; divided by min(number bought, 12)); the score is the mean over the pairs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

COLUMNS = {"customer_id", "prediction"}
K = 12


def _precision_at_k(bought: Any, ranked: Any, k: int) -> float:
    """Average precision of the first ``k`` of ``ranked`` against the set ``bought``."""
    if len(ranked) > k:
        ranked = ranked[:k]
    total = 0.0
    hits = 0
    seen: set[Any] = set()
    for rank, article in enumerate(ranked, start=1):
        first = article not in seen
        seen.add(article)
        if first and article in bought:
            hits += 1
            total += hits / rank
    if not bought:
        return 0.0
    return total / min(len(bought), k)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean average precision at 12 over the answers' customers."""
    require(set(answers.columns) == COLUMNS, "answers' columns differ")
    if set(submission.columns) != COLUMNS:
        raise InvalidSubmission(
            "the submission's columns must be exactly customer_id and prediction"
        )
    if not set(submission["customer_id"]) >= set(answers["customer_id"]):
        raise InvalidSubmission("the submission lacks some of the scored customers")
    guess = submission[submission["customer_id"].isin(answers["customer_id"])]
    guess = guess.sort_values("customer_id").reset_index(drop=True)
    truth = answers.sort_values("customer_id").reset_index(drop=True)
    bought = truth["prediction"].astype(str).str.split(" ").apply(set).tolist()
    ranked = guess["prediction"].astype(str).str.split(" ").tolist()
    return float(np.mean([_precision_at_k(b, r, K) for b, r in zip(bought, ranked, strict=False)]))
