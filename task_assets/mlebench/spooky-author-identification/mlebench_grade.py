"""spooky-author-identification graded as MLE-bench grades it: multi-class log loss.

MLE-bench's grader requires the submission's shape to be exactly (test rows, 4), so
an extra column (a written DataFrame index too) or a repeated/missing row is
rejected. It then reads the probabilities by position, as every column after the
first: each row of them must sum to 1 (``numpy.isclose``, atol 1e-6; a blank adds
nothing) and every value must lie in [0, 1] (a blank fails this) — so the id must be
the first column, otherwise the id text lands in the sums and the grader fails.
Then the columns are taken by name (``id``, ``EAP``, ``HPL``, ``MWS`` must all be
there), both files are sorted by ``id``, the ids must be equal (a failed assertion in
MLE-bench otherwise) and scikit-learn's ``log_loss`` scores the probabilities as given
(no softmax).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, one_hot_log_loss_inputs

CLASSES = ["EAP", "HPL", "MWS"]
_ATOL = 1e-6


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Log loss of the submitted author probabilities."""
    from sklearn.metrics import log_loss

    if submission.shape != (len(answers), len(CLASSES) + 1):
        raise InvalidSubmission(
            f"the submission has shape {submission.shape}; it must have one row per test "
            f"id ({len(answers)}) and the {len(CLASSES) + 1} columns id,{','.join(CLASSES)}"
        )
    probabilities = submission.iloc[:, 1:]
    if not np.all(np.isclose(probabilities.sum(axis=1), 1, atol=_ATOL)):
        raise InvalidSubmission("each row's probabilities must sum to 1")
    if not ((probabilities >= 0) & (probabilities <= 1)).all().all():
        raise InvalidSubmission("every probability must be in [0, 1]")
    y_true, y_pred = one_hot_log_loss_inputs(
        submission, answers, id_column="id", apply_softmax=False
    )
    return float(log_loss(y_true, y_pred))
