"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    ExactCase,
    ExactGrading,
    ParityCase,
    levenshtein,
)


def case_billion_word() -> ExactCase:
    sentences = [
        'The deal , he said , is "done" .',
        "It rained all day in Paris .",
        "No one came .",
    ]
    answers = pd.DataFrame({"id": [0, 1, 2], "sentence": sentences})
    guesses = ['The deal , he said , is "done" .', "It rained day in Paris .", "No one ."]
    imperfect = pd.DataFrame({"id": [0, 1, 2], "sentence": guesses})
    expected = float(np.mean([levenshtein(a, b) for a, b in zip(sentences, guesses, strict=True)]))
    malformed = "id,sentence\n0,\n1,It rained .\n2,No one came .\n"  # empty sentence
    return ExactCase(answers, answers.copy(), imperfect, expected, malformed, 0.0)


ANSWERS = pd.DataFrame(
    {
        "id": [0, 1, 2, 3],
        "sentence": [
            'The deal , he said , is "done" .',
            "It rained all day in Paris .",
            "No one came .",
            "Prices rose 3 % in May .",
        ],
    }
)
SUBMISSION = pd.DataFrame(
    {
        "id": [0, 1, 2, 3],
        "sentence": [
            'The deal , he said , is "done" .',  # 0
            "It rained day in Paris .",  # "all " deleted: 4
            "No one ran .",  # "came" -> "ran": c->r, m->n, e deleted: 3
            "Prices rose 3 % in May",  # " ." deleted: 2
        ],
    }
)
# mean (0 + 4 + 3 + 2) / 4 = 2.25

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_billion_word),
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=2.25,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "float_ids": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 1.8,  # (0 + 0 + 4 + 3 + 2) / 5
        },
    ),
}
