"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase

IDS = ["100001.jpg", "100015.jpg", "100232.jpg", "100498.jpg"]
# MLE-bench's private test.csv: the held-out rows of train.csv, all four columns
ANSWERS = pd.DataFrame(
    {
        "image_id": IDS,
        "label": ["blast", "normal", "hispa", "tungro"],
        "variety": ["ADT45", "ADT45", "KarnatakaPonni", "Zonal"],
        "age": [45, 60, 70, 55],
    }
)
# three of four right: 0.75
SUBMISSION = pd.DataFrame({"image_id": IDS, "label": ["blast", "normal", "hispa", "blast"]})

CASES: dict[str, Check] = {
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.75,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": 0.5,  # a blank label is the empty string: wrong
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 0.8,  # the first image twice: 4 of 5 right
        },
        strict={"blank_target": 0.5},
    ),
}
