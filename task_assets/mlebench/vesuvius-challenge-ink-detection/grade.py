"""Grading for vesuvius-challenge-ink-detection (MLE-bench semantics).

``Predicted`` is the run-length encoded ink mask of a test fragment, over the
``height`` x ``width`` image whose size the answers give. The score is the
pixel-level F0.5 of the two masks, averaged over rows (the prepared test set has
one fragment). The registered ``f0.5-score`` takes decoded pixel arrays, so the
RLE text is handled here; both masks are read in the same pixel order, which is
all F-beta needs. Malformed RLE (see ``segmentation.rle_runs``) is invalid, as a
blank cell is (MLE-bench requires text there).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import InvalidSubmission
from mle_gym.authoring.metrics import rle_f_beta, rle_runs


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over fragments of the pixel F0.5 of the RLE masks."""
    scores = []
    rows = zip(
        submission["Id"].tolist(),
        submission["Predicted"].tolist(),
        answers["Predicted"].tolist(),
        answers["width"].tolist(),
        answers["height"].tolist(),
        strict=True,
    )
    for fragment, predicted, truth, width, height in rows:
        size = int(float(width)) * int(float(height))
        try:
            rle_runs(predicted, size)
        except ValueError as exc:
            raise InvalidSubmission(
                f"Predicted for Id {fragment!r} is not a valid run-length encoding: {exc}"
            ) from None
        scores.append(rle_f_beta(truth, predicted, size, beta=0.5))
    return float(np.mean(scores))
