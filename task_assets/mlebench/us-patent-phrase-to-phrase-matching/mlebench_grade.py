"""us-patent-phrase-to-phrase-matching graded as MLE-bench grades it: Pearson's r of ``score``.

MLE-bench's grader first wants as many rows as the answers, then the columns ``id`` and
``score`` (others are ignored); both frames are sorted by ``id``, which must then equal
the answers' position by position. The score is scipy's ``pearsonr`` of the answers'
and the submitted ``score`` arrays: a NaN, an infinite or a constant prediction gives
NaN (no score), text fails.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission

ID = "id"
TARGET = "score"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Pearson correlation of the submitted and the true similarity scores."""
    from scipy.stats import pearsonr

    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test pair "
            f"({len(answers)})"
        )
    if not {ID, TARGET}.issubset(submission.columns):
        raise InvalidSubmission(f"the submission needs the columns {ID!r} and {TARGET!r}")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if np.asarray(sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    return float(pearsonr(ans[TARGET].to_numpy(), sub[TARGET].to_numpy())[0])
