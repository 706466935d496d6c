"""tabular-playground-series-dec-2021 graded as MLE-bench grades it: accuracy of ``Cover_Type``.

Both files are sorted on ``Id`` and matched row by row (the ids must then be equal
position by position, so ``7.0`` matches ``7``); other columns are ignored. The labels
are compared as pandas reads them, so ``2.0`` is class 2; a blank label, or text among
numeric labels, makes scikit-learn's accuracy fail.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import accuracy_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Accuracy of the submitted ``Cover_Type`` classes."""
    from sklearn.metrics import accuracy_score

    y_true, y_pred = accuracy_inputs(
        submission, answers, target_column="Cover_Type", id_column="Id"
    )
    return float(accuracy_score(y_true, y_pred))
