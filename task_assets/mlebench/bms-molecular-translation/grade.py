"""Grader of bms-molecular-translation: mean Levenshtein distance of the InChI strings.

MLE-bench reads the submission with pandas and casts the InChI column to ``str``, so a cell
that pandas reads as missing (empty, ``NA``, ``null``, ...) is scored as the text ``"nan"``.
This grader maps those cells the same way, then applies the registered
``levenshtein-distance`` metric (mean character edit distance).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring import PANDAS_NA_STRINGS
from mle_gym.authoring.metrics import get_metric

TARGET = "InChI"


def as_pandas_text(values: pd.Series) -> np.ndarray:
    """Cells as MLE-bench sees them after ``read_csv(...)[col].astype(str)``."""
    return np.array(["nan" if v in PANDAS_NA_STRINGS else str(v) for v in values], dtype=object)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean edit distance between predicted and true InChI strings."""
    metric = get_metric("levenshtein-distance")
    return metric.score(as_pandas_text(answers[TARGET]), as_pandas_text(submission[TARGET]))
