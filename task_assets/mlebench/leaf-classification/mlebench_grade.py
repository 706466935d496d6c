"""leaf-classification graded as MLE-bench grades it: multi-class log loss over 99 species.

MLE-bench's checks, in order: the submission's set of column names is exactly ``id`` plus
the 99 species (any order; any other column, a written DataFrame index too, is
rejected); as many rows as the answers; every row's species probabilities sum to 1
(``numpy.isclose`` with ``atol=1e-6`` and its default ``rtol=1e-5``, so within 1.1e-5;
pandas' row sum skips blanks); every probability is in [0, 1] (a blank fails that).
Then the one-hot log-loss preparation of MLE-bench's helpers
(:func:`~mle_gym.families.mlebench.parity_kit.one_hot_log_loss_inputs`, without
softmax): both frames sorted by ``id``, the ids equal as lists (else the grader fails),
the columns taken in the answers' order. scikit-learn's ``log_loss`` gives the score.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import (
    InvalidSubmission,
    load_folder_module,
    one_hot_log_loss_inputs,
    require,
)

ID = "id"
TOLERANCE = 1e-6


def species() -> list[str]:
    """The 99 species, in the order of the sample submission (from this folder's
    prepare.py)."""
    prepare = load_folder_module(
        Path(__file__).parent, "MLEBench", "leaf-classification", "prepare"
    )
    require(prepare is not None, "the folder's prepare.py is missing")
    return list(prepare.SPECIES)  # type: ignore[union-attr]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Log loss of the submitted species probabilities (lower is better)."""
    from sklearn.metrics import log_loss

    classes = species()
    wanted = {ID, *classes}
    if set(submission.columns) != wanted:
        raise InvalidSubmission(f"the columns must be {ID!r} and one per species, nothing else")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test id "
            f"({len(answers)})"
        )
    probabilities = submission[classes]
    if not np.all(np.isclose(probabilities.sum(axis=1), 1, atol=TOLERANCE)):
        raise InvalidSubmission("each row's probabilities must sum to 1")
    if not ((probabilities >= 0) & (probabilities <= 1)).all().all():
        raise InvalidSubmission("every probability must be in [0, 1]")
    require(set(answers.columns) == wanted, "the answers' columns are not id and the species")
    y_true, y_pred = one_hot_log_loss_inputs(submission, answers, id_column=ID, apply_softmax=False)
    return float(log_loss(y_true=y_true, y_pred=y_pred))
