"""Grading for plant-pathology-2021-fgvc8 (MLE-bench semantics).

``labels`` holds space-separated disease labels. As in MLE-bench, both sides are
binarised over the labels seen in the answers (predicted labels outside that
vocabulary are ignored, a repeated label counts once) and scored with the
micro-averaged F1 over all (image, label) cells. The registered
``micro-f1-score`` compares whole cells, so the lists are split here and passed
to ``classification.multilabel_micro_f1``. A blank prediction means no label.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.authoring.metrics import multilabel_micro_f1


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Micro F1 of the label sets."""
    return multilabel_micro_f1(
        [cell.split() for cell in answers["labels"].tolist()],
        [cell.split() for cell in submission["labels"].tolist()],
    )
