"""tensorflow-speech-recognition-challenge graded as MLE-bench grades it: accuracy of ``label``.

MLE-bench's grader wants as many rows as the answers and the columns ``label`` and
``fname`` (others are ignored); both frames are sorted by ``fname``, which must then
equal the answers' position by position. The submitted labels are compared with the
answers' labels as they are, so any text is accepted (a label outside the twelve
classes simply counts as wrong; the answers hold the raw folder names of the clips). A
blank label makes scikit-learn's ``accuracy_score`` fail (text mixed with NaN).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import accuracy_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Share of clips whose submitted ``label`` equals the answer."""
    from sklearn.metrics import accuracy_score

    y_true, y_pred = accuracy_inputs(submission, answers, target_column="label", id_column="fname")
    return float(accuracy_score(y_true, y_pred))
