"""cassava-leaf-disease-classification graded as MLE-bench grades it: accuracy of ``label``.

MLE-bench's grader first compares the row counts, then looks for the ``label`` and
``image_id`` columns (other columns are ignored), sorts both files by ``image_id``
and requires the ids to be equal position by position; the score is scikit-learn's
``accuracy_score`` of the labels as pandas read them (``3.0`` equals ``3``; a blank
or non-finite label makes scikit-learn fail).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import accuracy_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Accuracy of the submitted labels."""
    from sklearn.metrics import accuracy_score

    y_true, y_pred = accuracy_inputs(
        submission, answers, target_column="label", id_column="image_id"
    )
    return float(accuracy_score(y_true, y_pred))
