"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading


def case_champs() -> ExactCase:
    answers = pd.DataFrame(
        {
            "id": [10, 11, 12, 13, 14],
            "molecule_name": ["dsgdb9nsd_000001"] * 3 + ["dsgdb9nsd_000002"] * 2,
            "atom_index_0": [1, 2, 3, 1, 2],
            "atom_index_1": [0, 0, 0, 0, 0],
            "type": ["1JHC", "1JHC", "2JHH", "1JHC", "3JHN"],
            "scalar_coupling_constant": [84.8, 85.1, -11.2, 83.9, 1.5],
        }
    )
    guess = [84.0, 86.1, -11.2, 83.9, 2.0]
    imperfect = answers[["id"]].assign(scalar_coupling_constant=guess)
    errors = np.abs(np.array(guess) - answers["scalar_coupling_constant"].to_numpy())
    types = answers["type"].to_numpy()
    expected = float(
        np.mean([math.log(max(errors[types == t].mean(), 1e-9)) for t in sorted(set(types))])
    )
    malformed = "id,scalar_coupling_constant\n10,1\n11,abc\n12,1\n13,1\n14,1\n"
    return ExactCase(
        answers,
        answers[["id", "scalar_coupling_constant"]],
        imperfect,
        expected,
        malformed,
        math.log(1e-9),
    )


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_champs),
}
