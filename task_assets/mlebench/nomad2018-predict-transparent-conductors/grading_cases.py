"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import math

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

FORMATION = [0.1, 0.2, 0.3, 0.05]
BANDGAP = [1.0, 3.0, 0.0, 7.0]
ANSWERS = pd.DataFrame(
    {
        "id": [1, 2, 3, 4],
        "spacegroup": [33, 194, 227, 167],
        "formation_energy_ev_natom": FORMATION,
        "bandgap_energy_ev": BANDGAP,
    }
)
SUBMISSION = pd.DataFrame(
    {
        "id": [1, 2, 3, 4],
        "formation_energy_ev_natom": FORMATION,
        "bandgap_energy_ev": [3.0, 1.0, 0.0, 7.0],
    }
)


def _rmsle(truth: list[float], predicted: list[float]) -> float:
    terms = [(math.log1p(p) - math.log1p(t)) ** 2 for t, p in zip(truth, predicted, strict=True)]
    return math.sqrt(sum(terms) / len(terms))


# Formation energies exact (0); bandgap log1p differs by +-log 2 on two of four rows:
# RMSLE sqrt(2 log(2)^2 / 4) = log(2) / sqrt(2); the score is the mean of the two.
SCORE = round(math.log(2) / math.sqrt(2) / 2, 5)
# MLE-bench pairs rows by position: reversed rows are scored against the unreversed
# answers.
SHUFFLED = round(
    (
        _rmsle(FORMATION, FORMATION[::-1])
        + _rmsle(BANDGAP, SUBMISSION["bandgap_energy_ev"].tolist()[::-1])
    )
    / 2,
    5,
)
# The first row once more in both files (its bandgap missed by log 2 too): three misses
# over 5 rows.
DUPLICATE_KEYS = round(math.sqrt(3 * math.log(2) ** 2 / 5) / 2, 5)

CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=SCORE,
        expected={
            "shuffled_rows": SHUFFLED,
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "float_ids": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            # the id column is never read
            "unknown_id": "same",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": DUPLICATE_KEYS,
        },
    ),
}
