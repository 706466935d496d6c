"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, ap_at_k


def case_hotel() -> ExactCase:
    answers = pd.DataFrame(
        {
            "image": ["a.jpg", "b.jpg", "c.jpg", "d.jpg"],
            "chain": [5, 0, 5, 3],
            "hotel_id": [36363, 117, 5, 800],
            "timestamp": ["2018-04-12 01:40:40"] * 4,
        }
    )
    guesses = ["36363 1 2", "9 9 117", "1 2 3 4 5", ""]
    imperfect = answers[["image"]].assign(hotel_id=guesses)
    expected = float(
        np.mean(
            [
                ap_at_k({str(t)}, g.split(" "), 5)
                for t, g in zip(answers["hotel_id"], guesses, strict=True)
            ]
        )
    )
    malformed = "image,hotel_id\na.jpg,1\nb.jpg,2\nc.jpg,3\n"  # d.jpg missing
    return ExactCase(answers, answers[["image", "hotel_id"]], imperfect, expected, malformed, 1.0)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_hotel),
}
