"""tweet-sentiment-extraction graded as MLE-bench grades it: mean word Jaccard of ``selected_text``.

MLE-bench's grader wants the columns ``textID`` and ``selected_text`` (others are
ignored) and as many rows as the answers; both frames are sorted by ``textID``, which
must then equal the answers' position by position. Blank cells become empty text, every
cell is turned to text (pandas ``astype(str)``); each pair is compared as the sets of
its lower-cased whitespace-separated words, ``|A & B| / (|A| + |B| - |A & B|)``, and the
score is the mean over tweets. A tweet whose prediction and answer are both without
words divides by zero, and the file gets no score.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "textID"
TARGET = "selected_text"


def _jaccard(first: str, second: str) -> float:
    """Word-set Jaccard similarity (ZeroDivisionError when neither has a word)."""
    a = set(first.lower().split())
    b = set(second.lower().split())
    common = len(a & b)
    return float(common) / (len(a) + len(b) - common)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean word-level Jaccard similarity of the submitted and the true extracts."""
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test tweet "
            f"({len(answers)})"
        )
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if np.asarray(sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    predicted = sub[TARGET].fillna("").astype(str).tolist()
    expected = ans[TARGET].fillna("").astype(str).tolist()
    return float(np.mean([_jaccard(p, t) for p, t in zip(predicted, expected, strict=False)]))
