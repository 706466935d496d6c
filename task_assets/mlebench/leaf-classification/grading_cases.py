"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    GradeReport,
    MLEBenchTask,
    ParityCase,
    assert_invalid,
    assert_score,
    expect,
    grade_frame,
    load_folder_module,
)

HERE = Path(__file__).parent
SPECIES: list[str] = list(
    load_folder_module(HERE, "MLEBench", "leaf-classification", "prepare").SPECIES  # type: ignore[union-attr]
)
IDS = [5, 17, 42]
TRUE = [SPECIES[0], SPECIES[10], SPECIES[98]]


def frame(rows: list[dict[str, float]]) -> pd.DataFrame:
    """One row per id: the given probabilities, 0 for every other species."""
    table = pd.DataFrame(0.0, index=range(len(rows)), columns=SPECIES)
    for i, row in enumerate(rows):
        for name, value in row.items():
            table.loc[i, name] = value
    return pd.concat([pd.DataFrame({"id": IDS}), table], axis=1)


ANSWERS = frame([{name: 1} for name in TRUE]).astype({name: int for name in SPECIES})
SUBMISSION = frame(
    [
        {SPECIES[0]: 0.5, SPECIES[1]: 0.5},
        {SPECIES[10]: 0.25, SPECIES[50]: 0.75},
        {SPECIES[98]: 1.0},
    ]
)
# log loss = -(ln 0.5 + ln 0.25 + ln 1) / 3 = 3 ln 2 / 3 = ln 2 = 0.69315; the first answer
# twice: -(2 ln 0.5 + ln 0.25 + ln 1) / 4 = ln 2 too. A blank in the first row's true
# species leaves a row sum of 0.5: rejected.
PARITY = ParityCase(
    ANSWERS,
    SUBMISSION,
    score=0.69315,
    expected={
        "shuffled_rows": "same",
        "reordered_columns": "same",
        "extra_column": "invalid",
        "index_column": "invalid",
        "float_ids": "same",
        "missing_id": "invalid",
        "duplicate_id": "invalid",
        "unknown_id": "invalid",
        "blank_target": "invalid",
        "empty_file": "invalid",
        "header_only": "invalid",
        "duplicate_answer_keys": "same",
    },
)


def sums_and_ranges(task: MLEBenchTask, tmp_path: Path) -> None:
    """Rows must sum to 1 within 1e-6 + 1e-5 (numpy.isclose; not renormalised); values
    must lie in [0, 1]."""
    answers = tmp_path / task.answers_file
    ANSWERS.to_csv(answers, index=False)

    def grade(name: str, submission: pd.DataFrame) -> GradeReport:
        return grade_frame(task, tmp_path, name, submission, answers, grading="mlebench")

    assert_score(grade("as_is", SUBMISSION), 0.69315)
    slack = SUBMISSION.copy()
    slack.loc[2, SPECIES[98]] = 1 - 1e-5  # the row sums to 1 - 1e-5: accepted
    expect(grade("slack", slack).valid, "a row summing to 1 - 1e-5 must be accepted")
    off = SUBMISSION.copy()
    off.loc[2, SPECIES[98]] = 0.9  # the row sums to 0.9
    assert_invalid(grade("off", off))
    negative = SUBMISSION.copy()
    negative.loc[1, [SPECIES[10], SPECIES[50], SPECIES[60]]] = [0.5, 0.75, -0.25]
    assert_invalid(grade("negative", negative))


CASES: dict[str, Check] = {
    "parity": PARITY,
    "sums-and-ranges": sums_and_ranges,
}
