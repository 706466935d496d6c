"""Grader for the text normalization challenges, as MLE-bench grades them.

MLE-bench reads the submission and the answers with pandas, so every ``after``
value that pandas takes for a missing value becomes NaN, and compares the
columns as text after ``astype(str)``: each such value turns into ``"nan"``.
The answers contain them (tokens like ``None`` or ``NA``, written as empty
quoted fields), so the generic exact-text accuracy would disagree with
MLE-bench. Here both sides are mapped the same way before the accuracy: any
value in pandas' default missing-value list (the empty string, ``NA``,
``None``, ``null``, ``nan``...; matched exactly, case and spaces included) is
replaced by ``"nan"``; all other text is compared exactly.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.grading.metrics import get_metric

TARGET = "after"
# pandas.read_csv's default missing-value strings (pandas 2.x and 3.x).
PANDAS_NA_STRINGS = frozenset(
    {
        "",
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
    }
)


def as_mlebench_reads(values: pd.Series) -> np.ndarray:
    """The text MLE-bench compares: missing-value markers become ``"nan"``."""
    return np.array(
        ["nan" if v in PANDAS_NA_STRINGS else v for v in values.astype(str)], dtype=object
    )


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Share of tokens whose normalized text matches (frames aligned on id)."""
    return get_metric("accuracy").score(
        as_mlebench_reads(answers[TARGET]), as_mlebench_reads(submission[TARGET])
    )
