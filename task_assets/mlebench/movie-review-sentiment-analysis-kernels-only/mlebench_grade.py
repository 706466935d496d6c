"""movie-review-sentiment-analysis-kernels-only graded as MLE-bench grades it: accuracy.

MLE-bench's grader requires one row per test phrase and ``PhraseId`` and ``Sentiment``
columns (others are ignored); both files are sorted by ``PhraseId`` and the ids compared
position by position (so ``7.0`` matches ``7``); scikit-learn's ``accuracy_score``
compares the labels as pandas reads them (``2.0`` equals ``2``; a blank label, a
fractional one or text make it fail).
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import accuracy_inputs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Share of phrases whose sentiment label is right."""
    from sklearn.metrics import accuracy_score

    y_true, y_pred = accuracy_inputs(
        submission, answers, target_column="Sentiment", id_column="PhraseId"
    )
    return float(accuracy_score(y_true, y_pred))
