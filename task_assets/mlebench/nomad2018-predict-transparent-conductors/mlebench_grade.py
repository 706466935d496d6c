"""nomad2018-predict-transparent-conductors graded as MLE-bench grades it: the mean of
the two targets' RMSLE, rows matched by position.

MLE-bench's grader needs the ``formation_energy_ev_natom`` and ``bandgap_energy_ev``
columns and as many rows as the answers, and nothing else: the ``id`` column is never
read, so rows are paired by their position in the files (a shuffled submission scores
differently, wrong or repeated ids go unnoticed) and extra columns are ignored. Each
target is scored by scikit-learn's ``root_mean_squared_log_error`` (which fails on
blanks, text or values of -1 or less), and the two are averaged.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

TARGETS = ("formation_energy_ev_natom", "bandgap_energy_ev")


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean over the two targets of the RMSLE, row ``i`` against row ``i``."""
    from sklearn.metrics import root_mean_squared_log_error

    for column in TARGETS:
        require(column in answers.columns, f"answers lack {column!r}")
    for column in TARGETS:
        if column not in submission.columns:
            raise InvalidSubmission(f"the submission has no {column!r} column")
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; it must have one per test row "
            f"({len(answers)})"
        )
    formation, bandgap = TARGETS
    return float(
        (
            root_mean_squared_log_error(answers[formation], submission[formation])
            + root_mean_squared_log_error(answers[bandgap], submission[bandgap])
        )
        / 2
    )
