"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase

PAW_ATTRIBUTES = [
    "Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory",
    "Group", "Collage", "Human", "Occlusion", "Info", "Blur",
]  # fmt: skip


CASE = WorseCase(
    answers={
        "Id": ["0007de18844b0dbbb5e1f607da0606e0", "0009c66b9439883ba2750fb825e1d7db"],
        **{name: [0, 1] for name in PAW_ATTRIBUTES},
        "Pawpularity": [63, 42],
    },
    imperfect={
        "Id": ["0007de18844b0dbbb5e1f607da0606e0", "0009c66b9439883ba2750fb825e1d7db"],
        "Pawpularity": [58, 47],
    },
    malformed={
        "Id": ["0007de18844b0dbbb5e1f607da0606e0", "0009c66b9439883ba2750fb825e1d7db"],
        "Pawpularity": [150, 47],
    },
    best=0.0,
)


PARITY_IDS = [
    "0007de18844b0dbbb5e1f607da0606e0",
    "0009c66b9439883ba2750fb825e1d7db",
    "0013fd999caf9a3efe1352ca1b0d937e",
    "0018df346ac9c1d8413cfcc888ca8246",
]
PARITY_ANSWERS = pd.DataFrame(
    {
        "Id": PARITY_IDS,
        **{name: [0, 1, 0, 1] for name in PAW_ATTRIBUTES},
        "Pawpularity": [63, 42, 1, 100],
    }
)
# errors 5, 5, 0, 0: RMSE sqrt(50 / 4); the bounds 1 and 100 are allowed
PARITY_SUBMISSION = pd.DataFrame({"Id": PARITY_IDS, "Pawpularity": [58.0, 47.0, 1.0, 100.0]})

CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round(math.sqrt(12.5), 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",  # the id arrays differ in length: an error
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",  # NaN is not between 1 and 100
            "empty_file": "invalid",
            "header_only": "invalid",
            # the first id twice: errors 5, 5, 5, 0, 0: RMSE sqrt(75 / 5)
            "duplicate_answer_keys": round(math.sqrt(15), 5),
        },
    ),
}
