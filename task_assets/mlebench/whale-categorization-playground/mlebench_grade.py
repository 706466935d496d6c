"""whale-categorization-playground graded as MLE-bench grades it: MAP@5 of ``Id``.

MLE-bench's grader wants exactly the columns ``Image`` and ``Id`` (in any order; one
more column, a written DataFrame index too, is refused), as many rows as the answers and
the same set of ``Image`` values. Both frames are sorted by ``Image`` and paired row by
row. Each submitted ``Id`` cell is turned to text (pandas ``astype(str)`` as pandas 2
does it: a blank, ``NA``, ``None``... cell is the one guess ``"nan"``) and split on
single spaces (so a double space gives an empty guess), the answers' ``Id`` likewise
into a set; the average precision at 5 of a row counts a guess as a hit when it is in
the set and not an earlier guess, divided by ``min(len(set), 5)``; the score is the
mean over rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

COLUMNS = {"Image", "Id"}
K = 5


def _precision_at_k(truth: Any, guesses: Any) -> float:
    """Average precision at :data:`K` of the ranked ``guesses`` against the set ``truth``."""
    if len(guesses) > K:
        guesses = guesses[:K]
    total = 0.0
    hits = 0.0
    for rank, guess in enumerate(guesses):
        if guess in truth and guess not in guesses[:rank]:
            hits += 1.0
            total += hits / (rank + 1.0)
    if not truth:
        return 0.0
    return total / min(len(truth), K)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean average precision at 5 of the submitted whale ids."""
    require(set(answers.columns) == COLUMNS, "answers must have the columns Image and Id")
    if set(submission.columns) != COLUMNS:
        raise InvalidSubmission("the submission must have exactly the columns Image and Id")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test image "
            f"({len(answers)})"
        )
    if set(submission["Image"]) != set(answers["Image"]):
        raise InvalidSubmission("the submission's Image values are not the test images")
    sub = submission.sort_values("Image").reset_index(drop=True)
    ans = answers.sort_values("Image").reset_index(drop=True)
    truths = ans["Id"].astype(str).str.split(" ").apply(set).tolist()
    guesses = sub["Id"].astype(str).str.split(" ").tolist()
    return float(np.mean([_precision_at_k(t, g) for t, g in zip(truths, guesses, strict=False)]))
