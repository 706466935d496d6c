"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, levenshtein


def case_bms() -> ExactCase:
    truth = ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3", "InChI=1S/H2O/h1H2", "InChI=1S/CH4/h1H4"]
    ids = ["000a1", "000b2", "000c3"]
    answers = pd.DataFrame({"image_id": ids, "InChI": truth})
    guesses = ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H2", "", "NA"]  # blank and NA read as "nan"
    imperfect = pd.DataFrame({"image_id": ids, "InChI": guesses})
    expected = float(
        np.mean(
            [
                levenshtein(truth[0], guesses[0]),
                levenshtein(truth[1], "nan"),
                levenshtein(truth[2], "nan"),
            ]
        )
    )
    malformed = "image_id,InChi\n" + "".join(f"{i},InChI=1S/H2O/h1H2\n" for i in ids)
    return ExactCase(answers, answers.copy(), imperfect, expected, malformed, 0.0)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_bms),
}
