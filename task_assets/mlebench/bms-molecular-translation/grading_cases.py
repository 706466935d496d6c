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


IDS = ["000a1", "000b2", "000c3"]
TRUTH = ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3", "InChI=1S/H2O/h1H2", "InChI=1S/CH4/h1H4"]
GUESS = ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H2", "InChI=1S/H2O", "x"]
# distances: 1 (one substitution), 5 ("/h1H2" deleted), 17 (all 17 characters replaced or
# deleted, no "x" in the truth): mean 23 / 3 = 7.66667; the first answer twice: 24 / 4 = 6.
# A blank prediction is the text "nan" after astype(str) (pandas 2), 32 edits from the
# first answer: (32 + 5 + 17) / 3 = 18.
PARITY = ParityCase(
    pd.DataFrame({"image_id": IDS, "InChI": TRUTH}),
    pd.DataFrame({"image_id": IDS, "InChI": GUESS}),
    score=7.66667,
    expected={
        "shuffled_rows": "same",
        "reordered_columns": "same",
        "extra_column": "same",
        "index_column": "same",
        "missing_id": "invalid",
        "duplicate_id": "invalid",
        "unknown_id": "invalid",
        "blank_target": 18.0,
        "empty_file": "invalid",
        "header_only": "invalid",
        "duplicate_answer_keys": 6.0,
    },
    strict={"blank_target": 18.0},  # strict grading reads a blank as the text "nan" too
)

CASES: dict[str, Check] = {
    "grading": ExactGrading(case_bms),
    "parity": PARITY,
}
