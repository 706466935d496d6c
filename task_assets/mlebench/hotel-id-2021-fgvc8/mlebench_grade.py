"""hotel-id-2021-fgvc8 graded as MLE-bench grades it: MAP@5 of ``hotel_id``.

MLE-bench needs the ``image`` and ``hotel_id`` columns (others are ignored), the same
*set* of images as the answers, then the same row count (so a repeated image with
another missing is caught by the set, a repeated image alone by the count). Both files
are sorted by ``image``; each ``hotel_id`` cell is converted with pandas' ``astype(str)``
as pandas 2 converts it (an all-integer column stays ``"123"``, a column pandas read as
floats gives ``"123.0"``, a blank or ``NA``... cell is the guess ``"nan"``, and a blank
among integer ids makes the column floats) and split on single spaces (so two spaces
give an empty guess). Every answer is a set of one hotel id; average precision at 5
counts a guess once (repeats are skipped) and is divided by 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "image"
TARGET = "hotel_id"
K = 5


def _ap_at_k(actual: Any, predicted: Any, k: int) -> float:
    """Average precision at ``k`` of one ranked guess list against a set of right ids
    (the ranking cut at ``k``; a guess repeated earlier in the list is no new hit)."""
    if len(predicted) > k:
        predicted = predicted[:k]
    total = 0.0
    hits = 0.0
    for rank, guess in enumerate(predicted):
        if guess in actual and guess not in predicted[:rank]:
            hits += 1.0
            total += hits / (rank + 1.0)
    if not actual:
        return 0.0
    return total / min(len(actual), k)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean average precision at 5 over the test images."""
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    if set(submission[ID]) != set(answers[ID]):
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test images")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test image "
            f"({len(answers)})"
        )
    sub = submission.sort_values(ID).reset_index(drop=True)
    ans = answers.sort_values(ID).reset_index(drop=True)
    guesses = sub[TARGET].astype(str).str.split(" ").tolist()
    truths = ans[TARGET].astype(str).str.split(" ").apply(set).tolist()
    return float(np.mean([_ap_at_k(a, p, K) for a, p in zip(truths, guesses, strict=False)]))
