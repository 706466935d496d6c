"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, levenshtein


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


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_billion_word),
}
