"""spaceship-titanic graded as MLE-bench grades it: accuracy of ``Transported``.

Rows are matched by sorting both files on ``PassengerId`` (extra columns are ignored);
the labels are compared as pandas reads them (``True``/``False``, and ``1``/``0``, which
compare equal to them); a blank label makes the metric fail.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import accuracy_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Accuracy of the submitted ``Transported`` labels."""
    from sklearn.metrics import accuracy_score

    y_true, y_pred = accuracy_inputs(
        submission, answers, target_column="Transported", id_column="PassengerId"
    )
    return float(accuracy_score(y_true, y_pred))
