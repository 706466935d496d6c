"""Grader of imet-2020-fgvc7: micro-averaged F1 over attribute ids (MLE-bench).

Each cell is a whitespace-separated set of labels (:func:`mle_gym.authoring.label_sets`: a cell
pandas reads as missing is an empty set); :func:`~mle_gym.authoring.metrics.multilabel_micro_f1`
scores them over the labels of the answers only, as MLE-bench's MultiLabelBinarizer with fixed
classes ignores predicted labels outside them.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.authoring import label_sets
from mle_gym.authoring.metrics import multilabel_micro_f1

TARGET = "attribute_ids"


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Micro F1 of the submitted label sets against the answers."""
    return float(multilabel_micro_f1(label_sets(answers[TARGET]), label_sets(submission[TARGET])))
