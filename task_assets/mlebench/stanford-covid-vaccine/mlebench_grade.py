"""stanford-covid-vaccine graded as MLE-bench grades it: MCRMSE on the kept rows.

MLE-bench's grader wants as many rows as the answers and the columns ``id_seqpos``,
``reactivity``, ``deg_Mg_pH10``, ``deg_Mg_50C``, ``deg_pH10`` and ``deg_50C`` (others
are dropped; the last two are never read). Both frames are sorted by ``id_seqpos`` and
the ids must then be equal position by position. The rows scored are chosen with the
answers' ``keep`` column used as a pandas boolean mask on both sorted frames, which
pandas aligns by row label: on the submission, the row written at line ``i`` is kept
when the answers row at line ``i`` is marked keep, whatever its id. So a submission in
the answers' row order is scored on the right rows, and a reordered one (same ids) on
other rows, possibly against other answers. The score is the mean over
``reactivity``, ``deg_Mg_pH10`` and ``deg_Mg_50C`` of scikit-learn's RMSE between the
kept rows, paired in sorted order (a blank, infinite or non-numeric value among them
makes scikit-learn fail; elsewhere it is ignored).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "id_seqpos"
SCORED = ["reactivity", "deg_Mg_pH10", "deg_Mg_50C"]
REQUIRED = [ID, *SCORED, "deg_pH10", "deg_50C"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean of the three columns' RMSE over the rows chosen by the ``keep`` mask."""
    from sklearn.metrics import root_mean_squared_error

    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; the answers have {len(answers)}"
        )
    require(set(answers.columns) >= {ID, *SCORED, "keep"}, "answers lack columns")
    if not set(submission.columns) >= set(REQUIRED):
        raise InvalidSubmission(f"the submission needs the columns {REQUIRED}")
    sub = submission[REQUIRED].sort_values(by=ID).sort_index(axis=1)
    ans = answers.sort_values(by=ID).sort_index(axis=1)
    for row, (got, want) in enumerate(zip(sub[ID], ans[ID], strict=False)):
        if not got == want:
            raise InvalidSubmission(
                f"row {row} of the submission sorted by {ID} holds {got!r} where the test "
                "ids hold another id"
            )
    mask = ans["keep"]  # aligned by row label on both frames, as MLE-bench does
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Boolean Series key will be reindexed"
        kept_sub = sub[mask]
        kept_ans = ans[mask]
    return float(
        np.mean([root_mean_squared_error(y_true=kept_ans[c], y_pred=kept_sub[c]) for c in SCORED])
    )
