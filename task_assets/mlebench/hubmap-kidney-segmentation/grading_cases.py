"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, dense_mask


def case_hubmap() -> ExactCase:
    ids = ["aa05346ff", "afa5e8098", "b2dc8411c"]
    truth = ["3 4 20 5", "", "50 10"]
    answers = pd.DataFrame({"id": ids, "predicted": truth})
    guesses = ["3 2 19 3 40 2", "", "NA"]  # image 2 empty in both (Dice 1), NA = empty mask
    imperfect = answers.assign(predicted=guesses)
    dices = []
    for a, b in zip(truth, ["3 2 19 3 40 2", "", ""], strict=True):
        t, p = dense_mask(a, 10, 10), dense_mask(b, 10, 10)
        total = t.sum() + p.sum()
        dices.append(1.0 if total == 0 else 2 * (t & p).sum() / total)
    malformed = "id,predicted\naa05346ff,1 5 3 2\nafa5e8098,\nb2dc8411c,\n"  # overlapping runs
    return ExactCase(answers, answers.copy(), imperfect, float(np.mean(dices)), malformed, 1.0)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_hubmap),
}
