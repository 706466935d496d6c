"""inaturalist-2019-fgvc6 graded as MLE-bench grades it: top-1 error of ``predicted``.

MLE-bench checks the row count first, then that ``id`` and ``predicted`` are columns
(others are ignored); both files are sorted by ``id`` and the ids compared position by
position (``5.0`` equals ``5``). Each answer is turned into a Python ``int``. A
submitted value that pandas parsed as an integer (or a boolean: ``True`` is 1) is used
as is; anything else must be text whose first space-separated token ``int()`` accepts
(``" 7 12"`` gives 7; ``"7.0"``, a blank cell or a column pandas read as floats make the
grader fail). The score is ``1 - accuracy``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require


def _first_class(value: Any) -> int:
    """The class MLE-bench takes from one submitted cell (may raise, as its code does)."""
    if isinstance(value, int):
        return int(value)
    return int(value.split()[0])


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """``1 - accuracy`` of the first category id of each prediction."""
    from sklearn.metrics import accuracy_score

    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    if "id" not in submission.columns or "predicted" not in submission.columns:
        raise InvalidSubmission("the submission must have the columns 'id' and 'predicted'")
    require("id" in answers.columns, "answers lack 'id'")
    require("predicted" in answers.columns, "answers lack 'predicted'")
    sub = submission.sort_values("id")
    ans = answers.sort_values("id")
    if (sub["id"].values != ans["id"].values).any():
        raise InvalidSubmission("the submission's 'id' values are not the test ids")
    y_true = [int(value) for value in ans["predicted"]]
    y_pred = [_first_class(value) for value in sub["predicted"]]
    return 1.0 - float(accuracy_score(y_true=y_true, y_pred=y_pred))
