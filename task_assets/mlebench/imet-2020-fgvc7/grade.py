"""Grader of imet-2020-fgvc7: micro-averaged F1 over attribute ids.

Reproduces MLE-bench's grade.py: every cell is split on whitespace into a set of labels (a cell
that pandas reads as missing, e.g. empty or ``NA``, is an empty set), and the score is the
micro F1 of the metric library's
:func:`~mle_gym.grading.metrics.classification.multilabel_micro_f1`, whose vocabulary is the
labels occurring in the answers: predicted labels outside it are ignored, as MLE-bench's
MultiLabelBinarizer with fixed classes ignores them.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.grading.metrics.classification import multilabel_micro_f1

TARGET = "attribute_ids"
# pandas' default missing-value markers (read_csv turns these cells into NaN)
_PANDAS_NA = frozenset(
    [
        "#N/A",
        "#N/A N/A",
        "#NA",
        "-1.#IND",
        "-1.#QNAN",
        "-NaN",
        "-nan",
        "1.#IND",
        "1.#QNAN",
        "<NA>",
        "N/A",
        "NA",
        "NULL",
        "NaN",
        "None",
        "n/a",
        "nan",
        "null",
    ]
)


def label_sets(values: pd.Series) -> list[set[str]]:
    """Whitespace-separated labels of each cell, as sets (missing cells are empty)."""
    return [set() if v in _PANDAS_NA else set(str(v).split()) for v in values]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Micro F1 of the submitted label sets against the answers."""
    return float(multilabel_micro_f1(label_sets(answers[TARGET]), label_sets(submission[TARGET])))
