"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    ExactCase,
    ExactGrading,
    ParityCase,
    case_tag_lists,
)


def case() -> ExactCase:
    return case_tag_lists(
        "Id", "Tags", {"Title": ["t"] * 4, "Body": ["<p>b, with a comma</p>"] * 4}
    )


PARITY_ANSWERS = pd.DataFrame(
    {
        "Id": [6034196, 6034197, 6034198, 6034199],
        "Title": ["t"] * 4,
        "Body": ["<p>b, with a comma</p>"] * 4,
        "Tags": ["c# java", "python", "javascript jquery html", "php"],
    }
)
PARITY_SUBMISSION = pd.DataFrame(
    {
        "Id": [6034196, 6034197, 6034198, 6034199],
        "Tags": ["c#", "python pandas", "javascript html", "java"],
    }
)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case),
    # MLE-bench's grading: micro F1 over the answers' 7 tags. "pandas" is no answer tag and
    # is dropped; true positives c#, python, javascript, html (4), false positive java (1),
    # missed java, jquery, php (3): 2 * 4 / (2 * 4 + 1 + 3).
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round(8 / 12, 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "float_ids": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            # a blank cell is no tag: c# lost, 3 right, 1 wrong, 4 missed
            "blank_target": round(6 / 11, 5),
            "empty_file": "invalid",
            "header_only": "invalid",
            # the first row once more on both sides: 5 right, 1 wrong, 4 missed (10 / 15)
            "duplicate_answer_keys": "same",
        },
        strict={"blank_target": "scored"},  # a blank cell is an empty tag set there too
    ),
}
