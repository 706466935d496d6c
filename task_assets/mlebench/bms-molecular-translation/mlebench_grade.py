"""bms-molecular-translation graded as MLE-bench grades it: mean Levenshtein distance.

MLE-bench's checks, in order: as many rows as the answers; ``image_id`` and ``InChI``
present (other columns are ignored); both frames sorted by ``image_id`` with the ids
equal position by position (``!=``). Both ``InChI`` columns are cast with
``astype(str)`` as pandas 2 casts them, so a blank (or ``NA``, ``nan``, ``null``...)
prediction is the text ``"nan"`` and a number pandas parsed is its float text. The score
is the mean over rows of the character edit distance (insertions, deletions and
substitutions of code points, each costing 1), computed by the project's
:func:`~mle_gym.grading.metrics.text.levenshtein` where MLE-bench calls the
``Levenshtein`` package (which rejects any value that is not a sequence).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import GraderFailure, InvalidSubmission, require

ID = "image_id"
TARGET = "InChI"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean edit distance between the true and the predicted InChI strings."""
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    if (sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    truth = ans[TARGET].astype(str)
    predicted = sub[TARGET].astype(str)
    return float(np.mean([_distance(a, b) for a, b in zip(truth, predicted, strict=False)]))


def _distance(a: Any, b: Any) -> int:
    """The edit distance of two strings (anything else fails, as ``Levenshtein`` does)."""
    from mle_gym.families.mlebench.parity_kit import levenshtein

    if not isinstance(a, str) or not isinstance(b, str):
        raise GraderFailure(f"an {TARGET!r} value is not text")
    return levenshtein(a, b)
