"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, dense_mask


def case_contrails() -> ExactCase:
    h, w = 4, 5
    truth = ["2 3 7 2", "-", "1 4"]
    ids = ["1002653297254493116", "1005310838114010045", "1006338000000000001"]
    answers = pd.DataFrame({"record_id": ids, "encoded_pixels": truth, "height": h, "width": w})
    guesses = ["2 2 8 5", "18 5", "-"]  # the run past the image end is cut off
    imperfect = answers.assign(encoded_pixels=guesses)
    t = [dense_mask("" if v == "-" else v, h, w) for v in truth]
    p = [dense_mask("" if v == "-" else v, h, w) for v in guesses]
    inter = sum(int((a & b).sum()) for a, b in zip(t, p, strict=True))
    expected = 2 * inter / (sum(int(a.sum()) for a in t) + sum(int(b.sum()) for b in p))
    malformed = answers.assign(encoded_pixels=["7 2 2 3", "-", "-"]).to_csv(index=False)  # unsorted
    return ExactCase(answers, answers.copy(), imperfect, expected, malformed, 1.0)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_contrails),
}
