"""Grading for petfinder-pawpularity-score (MLE-bench semantics).

Root mean squared error of the predicted ``Pawpularity``. MLE-bench refuses a
submission with any prediction outside the score's range of 1 to 100
(inclusive), which the generic grader would accept; hence this module.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import InvalidSubmission
from mle_gym.authoring.metrics import get_metric


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """RMSE, after checking that every prediction lies in [1, 100]."""
    predicted = submission["Pawpularity"].to_numpy(dtype=float)
    outside = (predicted < 1) | (predicted > 100)
    if outside.any():
        ids = ", ".join(repr(str(i)) for i in submission["Id"].to_numpy()[outside][:5])
        raise InvalidSubmission(
            f"Pawpularity must lie between 1 and 100 (inclusive); {int(outside.sum())} "
            f"prediction(s) do not, e.g. for Id {ids}"
        )
    truth = answers["Pawpularity"].to_numpy(dtype=float)
    return get_metric("root-mean-squared-error").score(truth, np.asarray(predicted))
