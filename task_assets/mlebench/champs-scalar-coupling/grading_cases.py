"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    ExactCase,
    ExactGrading,
    MLEBenchTask,
    ParityCase,
    expect,
    grade_file,
)


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


PARITY_ANSWERS = case_champs().answers
# absolute errors 0.8 1.0 0.2 0.0 0.5: type 1JHC (ids 10, 11, 13) MAE 0.6, 2JHH 0.2, 3JHN 0.5
PARITY_SUBMISSION = pd.DataFrame(
    {"id": [10, 11, 12, 13, 14], "scalar_coupling_constant": [84.0, 86.1, -11.0, 83.9, 2.0]}
)


def exact_type_scores_minus_infinity(task: MLEBenchTask, tmp_path: Path) -> None:
    """MLE-bench takes log(0) = -inf for a type predicted exactly, so the mean is -inf, the
    best score there is (gold); strict grading floors each MAE at 1e-9."""
    answers = tmp_path / task.answers_file
    PARITY_ANSWERS.to_csv(answers, index=False)
    exact = PARITY_SUBMISSION.assign(scalar_coupling_constant=[84.0, 86.1, -11.2, 83.9, 2.0])
    report = grade_file(task, tmp_path, answers, "exact.csv", exact, grading="mlebench")
    expect(report.valid and report.score == -math.inf, f"expected -inf, got {report}")
    expect(report.gold_medal is True and report.percentile == 1.0, f"no gold: {report}")
    strict = grade_file(task, tmp_path, answers, "exact-strict.csv", exact, grading="strict")
    floored = (math.log(0.6) + math.log(1e-9) + math.log(0.5)) / 3
    expect(strict.valid and abs(strict.score - round(floored, 5)) < 1e-9, f"got {strict}")


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_champs),
    # mean of log(0.6), log(0.2), log(0.5). The row count is not checked: a repeated id 10
    # (error 0.8) is joined twice, 1JHC's MAE becomes 2.6 / 4 = 0.65; with id 10 twice in
    # the answers as well, 4 joined rows of id 10: (4 * 0.8 + 1.0 + 0.0) / 6 = 0.7.
    "parity": ParityCase(
        PARITY_ANSWERS,
        PARITY_SUBMISSION,
        score=round((math.log(0.6) + math.log(0.2) + math.log(0.5)) / 3, 5),
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "float_ids": "same",
            "missing_id": "invalid",
            "duplicate_id": round((math.log(0.65) + math.log(0.2) + math.log(0.5)) / 3, 5),
            "unknown_id": "invalid",
            "blank_target": "invalid",
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": round((math.log(0.7) + math.log(0.2) + math.log(0.5)) / 3, 5),
        },
    ),
    "exact-type-scores-minus-infinity": exact_type_scores_minus_infinity,
}
