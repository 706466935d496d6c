"""ranzcr-clip-catheter-line-classification graded as MLE-bench grades it: the mean ROC
AUC of nine of the eleven label columns.

MLE-bench's class list stops at ``CVC - Borderline``: ``CVC - Normal`` and ``Swan Ganz
Catheter Present`` are neither required nor scored. For each of the nine classes the
submission must have the column (checked for all nine first); the row counts must be
equal (a failed assertion in MLE-bench, not a rejection); then, class by class, the
``StudyInstanceUID`` column must be there, the column must convert to numbers in
[0, 1] (a blank passes, then makes scikit-learn fail), both files are sorted by id
and the ids must be equal position by position. The score is the plain mean of the
nine scikit-learn ``roc_auc_score`` values. Other columns are ignored.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, auroc_inputs, require

#: the classes MLE-bench scores (its class list; the competition has two more)
CLASSES = [
    "ETT - Abnormal",
    "ETT - Borderline",
    "ETT - Normal",
    "NGT - Abnormal",
    "NGT - Borderline",
    "NGT - Incompletely Imaged",
    "NGT - Normal",
    "CVC - Abnormal",
    "CVC - Borderline",
]
ID = "StudyInstanceUID"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Unweighted mean of the nine per-class ROC AUCs."""
    from sklearn.metrics import roc_auc_score

    for name in CLASSES:
        require(name in answers.columns, f"answers lack {name!r}")
        if name not in submission.columns:
            raise InvalidSubmission(f"the submission has no {name!r} column")
    require(
        len(submission) == len(answers),
        f"the submission has {len(submission)} rows; it must have one per test id ({len(answers)})",
    )
    scores = []
    for name in CLASSES:
        y_true, y_score = auroc_inputs(submission, answers, id_column=ID, target_column=name)
        scores.append(roc_auc_score(y_true, y_score))
    return float(np.average(scores))
