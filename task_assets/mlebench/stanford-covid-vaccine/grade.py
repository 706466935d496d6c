"""Grading for stanford-covid-vaccine (MLE-bench semantics).

MCRMSE: the root mean squared error of each of the three scored targets
``reactivity``, ``deg_Mg_pH10`` and ``deg_Mg_50C``, averaged over the three. Only
the answers rows marked ``keep`` (the first ``seq_scored`` positions of each
sequence) count; ``deg_pH10`` and ``deg_50C`` must be present in the submission
but are not scored.

Note: the reference figures (and MLE-bench's config.yaml) name the metric
``multi-class-log-loss``; MLE-bench's grade.py computes this MCRMSE, which is
what is implemented here. Lower is better either way.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.authoring.metrics import root_mean_squared_error

SCORED = ["reactivity", "deg_Mg_pH10", "deg_Mg_50C"]


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over the three scored columns of the RMSE on the kept rows."""
    keep = answers["keep"].str.strip().str.lower().isin(["true", "1", "1.0"]).to_numpy()
    if not keep.any():
        raise RuntimeError("no answers row is marked keep")
    return root_mean_squared_error(
        answers[SCORED].to_numpy(dtype=float)[keep],
        submission[SCORED].to_numpy(dtype=float)[keep],
    )
