"""Grading for rsna-2022-cervical-spine-fracture-detection (MLE-bench semantics).

Each ``row_id`` is ``<StudyInstanceUID>_<target>`` for the eight targets
``patient_overall`` and ``C1``..``C7``. As MLE-bench does, both frames are
pivoted back to one row per study (splitting ``row_id`` at its first underscore)
and scored with the registered ``weighted-multi-label-log-loss``: per study, the
binary log losses of the eight targets averaged with label-dependent weights
(``patient_overall`` 7 if negative / 14 if positive, vertebrae 1 / 2), then the
mean over studies (lower is better).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.authoring.metrics import get_metric

TARGETS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]


def _by_study(row_ids: pd.Series, values: np.ndarray) -> pd.DataFrame:
    """Study x target table of ``values``."""
    parts = row_ids.str.split("_", n=1, expand=True)
    frame = pd.DataFrame({"study": parts[0], "target": parts[1], "value": values})
    table = frame.pivot(index="study", columns="target", values="value")
    if any(t not in table.columns for t in TARGETS) or table[TARGETS].isna().to_numpy().any():
        raise RuntimeError(f"every study of the answers needs the eight targets {TARGETS}")
    return table[TARGETS].sort_index()


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Label-weighted log loss per study, averaged over studies."""
    truth = _by_study(answers["row_id"], answers["fractured"].to_numpy(dtype=float))
    predicted = _by_study(submission["row_id"], submission["fractured"].to_numpy(dtype=float))
    return get_metric("weighted-multi-label-log-loss").score(
        truth.to_numpy(), predicted.loc[truth.index].to_numpy()
    )
