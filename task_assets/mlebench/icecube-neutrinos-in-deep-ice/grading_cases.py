"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, ParityCase


def case_icecube() -> ExactCase:
    answers = pd.DataFrame(
        {"event_id": [2092, 7344, 9482], "azimuth": [0.5, 3.0, 5.9], "zenith": [1.2, 0.3, 2.9]}
    )
    guess = answers.assign(azimuth=[0.6, 1.0, 5.9], zenith=[1.2, 0.5, 2.0])

    def vector(az: np.ndarray, zen: np.ndarray) -> np.ndarray:
        return np.stack([np.sin(zen) * np.cos(az), np.sin(zen) * np.sin(az), np.cos(zen)], axis=1)

    cos = np.sum(
        vector(answers["azimuth"], answers["zenith"]) * vector(guess["azimuth"], guess["zenith"]),
        axis=1,
    )
    expected = float(np.mean(np.arccos(np.clip(cos, -1, 1))))
    malformed = "event_id,azimuth,zenith\n2092,inf,1\n7344,1,1\n9482,1,1\n"
    return ExactCase(answers, answers.copy(), guess, expected, malformed, 0.0)


HALF_PI = 1.5707963267948966
PARITY_ANSWERS = pd.DataFrame(
    {
        "event_id": [2092, 7344, 9482, 10011],
        "azimuth": [0.5, 3.0, 5.9, 1.0],
        "zenith": [1.2, 0.3, 2.9, HALF_PI],
    }
)
# same azimuth: the angle is the zenith difference (0.2, 0, 0.4); on the horizon
# (zenith pi/2) it is the azimuth difference (0.5): mean (0.2 + 0 + 0.4 + 0.5) / 4
PARITY_SUBMISSION = PARITY_ANSWERS.assign(
    azimuth=[0.5, 3.0, 5.9, 1.5], zenith=[1.0, 0.3, 2.5, HALF_PI]
)

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_icecube),
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=0.275,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            # exactly the three columns
            "extra_column": "invalid",
            "index_column": "invalid",
            "float_ids": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            # event 2092 twice: (0.2 + 0.2 + 0 + 0.4 + 0.5) / 5
            "duplicate_answer_keys": 0.26,
        },
    ),
}
