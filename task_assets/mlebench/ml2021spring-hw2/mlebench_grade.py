"""ml2021spring-hw2 graded as MLE-bench grades it: accuracy of ``ClassId``.

MLE-bench uses its shared accuracy preparation: the submission must have as many rows
as the answers and both ``Id`` and ``ClassId`` columns (others are ignored); both files
are sorted by ``Id`` and the ids compared position by position (``1.0`` equals ``1``);
the labels are then compared as pandas parsed them (``3`` and ``3.0`` are equal, a
label written as text never equals an integer class, a blank label makes scikit-learn
fail).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import accuracy_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Accuracy of the submitted ``ClassId`` labels."""
    from sklearn.metrics import accuracy_score

    y_true, y_pred = accuracy_inputs(submission, answers, target_column="ClassId", id_column="Id")
    return float(accuracy_score(y_true=y_true, y_pred=y_pred))
