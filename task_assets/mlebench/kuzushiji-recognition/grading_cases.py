"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, WorseCase


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


CASES: dict[str, Check] = {
    "grading": CASE,
}
