"""aptos2019-blindness-detection graded as MLE-bench grades it: quadratic weighted kappa.

MLE-bench's grader needs a ``diagnosis`` column and a non-empty submission, then
compares the *sets* of ``id_code`` values (a missing ``id_code`` column makes it
fail); it never compares the row counts, so a repeated id passes that check and then
makes scikit-learn fail on the unequal lengths. Both files are sorted by ``id_code``
and the diagnoses, as pandas read them, go to scikit-learn's
``cohen_kappa_score(..., weights="quadratic")`` (prediction first): fractional or
blank values make it fail, other integers are extra classes. Other columns are
ignored.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

TARGET = "diagnosis"
ID = "id_code"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Quadratic weighted kappa of the submitted diagnoses."""
    from sklearn.metrics import cohen_kappa_score

    if TARGET not in submission.columns:
        raise InvalidSubmission(f"the submission has no {TARGET!r} column")
    require(TARGET in answers.columns, f"answers lack {TARGET!r}")
    if submission.empty:
        raise InvalidSubmission("the submission has no rows")
    require(not answers.empty, "the answers are empty")
    if set(submission[ID]) != set(answers[ID]):
        raise InvalidSubmission(f"the submission's {ID!r} values are not the test ids")
    predicted = submission.sort_values(by=ID)[TARGET].values
    truth = answers.sort_values(by=ID)[TARGET].values
    return float(cohen_kappa_score(predicted, truth, weights="quadratic"))
