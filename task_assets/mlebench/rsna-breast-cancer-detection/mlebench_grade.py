"""rsna-breast-cancer-detection graded as MLE-bench grades it: probabilistic F1 of ``cancer``.

MLE-bench's checks, in order: the submission has ``prediction_id`` and ``cancer`` and as
many rows as the answers (other columns are ignored); both frames are sorted by
``prediction_id`` and the ids must agree position by position (``!=``). The score is
Kaggle's probabilistic F-beta with beta 1, accumulated row by row in the sorted order:
each prediction is clipped to [0, 1] with Python's ``min(max(p, 0), 1)`` (a NaN survives
the clipping and turns the sums into NaN, which makes the score 0), adding to the
"true positive" sum when the answer is cancer and to the "false positive" sum otherwise;
precision = tp / (tp + fp), recall = tp / (number of cancers), and the score is
2 p r / (p + r) when both are positive, else 0. Predictions that are not numbers make
the clipping fail; when every prediction clips to the integer 0 (all negative) the
sums stay Python integers and 0 / 0 raises, so the grader fails, whereas predictions
equal to 0.0 give numpy's NaN precision and the score 0.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "prediction_id"
TARGET = "cancer"
BETA = 1


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Probabilistic F1 of the submitted cancer probabilities."""
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    for column in (ID, TARGET):
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    sub = submission.sort_values(by=ID)
    ans = answers.sort_values(by=ID)
    if (sub[ID].values != ans[ID].values).any():
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    return _probabilistic_f_beta(ans[TARGET].to_numpy(), sub[TARGET].to_numpy(), BETA)


def _probabilistic_f_beta(labels: Any, predictions: Any, beta: Any) -> Any:
    """Kaggle's probabilistic F-beta with Python scalar arithmetic on the array items (so
    integer and numpy types behave as they do in MLE-bench's loop)."""
    cancers: Any = 0
    tp: Any = 0
    fp: Any = 0
    for i in range(len(labels)):
        clipped = min(max(predictions[i], 0), 1)
        if labels[i]:
            cancers += 1
            tp += clipped
        else:
            fp += clipped
    squared = beta * beta
    precision = tp / (tp + fp)
    recall = tp / cancers
    if not (precision > 0 and recall > 0):
        return 0
    return (1 + squared) * (precision * recall) / (squared * precision + recall)
