"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ParityCase, WorseCase


def _kuzushiji_points(answers: pd.DataFrame) -> pd.DataFrame:
    """Each true box 'label x y w h' becomes the point 'label x+1 y+1' inside it."""

    def points(cell: str) -> str:
        tokens = cell.split()
        groups = [tokens[i : i + 5] for i in range(0, len(tokens), 5)]
        return " ".join(f"{g[0]} {int(g[1]) + 1} {int(g[2]) + 1}" for g in groups)

    return pd.DataFrame({"image_id": answers["image_id"], "labels": answers["labels"].map(points)})


CASE = WorseCase(
    answers={
        "image_id": ["100241706_00004_2", "100241706_00005_1", "200003076_00034"],
        "labels": ["U+306F 100 200 30 40 U+304C 300 400 20 20", "U+3082 50 60 10 10", ""],
    },
    imperfect={
        "image_id": ["100241706_00004_2", "100241706_00005_1", "200003076_00034"],
        "labels": ["U+306F 101 201 U+304C 301 401", "U+3042 51 61", ""],
    },
    malformed={
        "image_id": ["100241706_00004_2", "100241706_00005_1", "200003076_00034"],
        "labels": ["U+306F 101", "", ""],
    },
    best=1.0,
    perfect=_kuzushiji_points,
)


PARITY_ANSWERS = pd.DataFrame(
    {
        "image_id": ["img_a", "img_b", "img_c", "img_d"],
        "labels": [
            "U+306F 100 200 30 40 U+304C 300 400 20 20",
            "U+3082 50 60 10 10",
            None,  # a page without characters
            "U+3042 10 10 5 5",
        ],
    }
)
# img_c: a point on an empty page (1 fp); img_a: both boxes found (2 tp) plus a second
# point in the U+304C box (1 fp); img_b: the wrong label in the box (1 fn, 1 fp);
# img_d: blank (1 fn). tp=2, fp=3, fn=2: F1 = 2*2 / (2*2 + 3 + 2) = 4/9.
PARITY_SUBMISSION = pd.DataFrame(
    {
        "image_id": ["img_c", "img_a", "img_b", "img_d"],
        "labels": [
            "U+3042 1 1",
            "U+306F 101 201 U+304C 301 401 U+304C 305 405",
            "U+3042 51 61",
            None,
        ],
    }
)

CASES: dict[str, Check] = {
    "grading": CASE,
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round(4 / 9, 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            # img_c blanked: its false positive goes, F1 = 4 / (4 + 2 + 2)
            "blank_target": 0.5,
            "empty_file": "invalid",
            "header_only": "invalid",
            # img_a counted twice: tp=4, fp=4, fn=2, F1 = 8 / (8 + 4 + 2)
            "duplicate_answer_keys": round(4 / 7, 5),
        },
        strict={"blank_target": 0.5},
    ),
}
