"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.testing import (
    Check,
    ExactCase,
    ExactGrading,
    MLEBenchTask,
    ParityCase,
    ap_at_k,
    assert_score,
    grade_file,
    write_csv,
)


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


ANSWERS = pd.DataFrame(
    {
        "image": ["a.jpg", "b.jpg", "c.jpg", "d.jpg"],
        "chain": [5, 0, 5, 3],
        "hotel_id": [36363, 117, 5, 800],
        "timestamp": ["2018-04-12 01:40:40"] * 4,
    }
)
# AP@5: a 1 (rank 1), b 1/3 (rank 3), c 1/5 (rank 5), d 0 -> (1 + 1/3 + 1/5) / 4 = 0.38333
SUBMISSION = ANSWERS[["image"]].assign(hotel_id=["36363 1 2", "9 9 117", "1 2 3 4 5", "1"])


def reads_hotel_ids_as_pandas_typed_them(task: MLEBenchTask, tmp_path: Path) -> None:
    """Guesses are pandas' parse turned back into text: an all-integer column loses
    leading zeros (036363 is 36363), a float column gains ".0" (nothing matches), and a
    blank among integer ids makes the column floats (nothing matches either)."""
    answers = write_csv(tmp_path / task.answers_file, ANSWERS)
    integers = "image,hotel_id\na.jpg,036363\nb.jpg,117\nc.jpg,5\nd.jpg,800\n"
    report = grade_file(task, tmp_path, answers, "int.csv", integers, grading="mlebench")
    assert_score(report, 1.0)
    floats = integers.replace("036363", "36363.0")
    report = grade_file(task, tmp_path, answers, "float.csv", floats, grading="mlebench")
    assert_score(report, 0.0)
    blank = integers.replace("036363", "")
    report = grade_file(task, tmp_path, answers, "blank.csv", blank, grading="mlebench")
    assert_score(report, 0.0)
    report = grade_file(task, tmp_path, answers, "blank.csv", blank, grading="strict")
    assert_score(report, 0.75)


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_hotel),
    "parity": ParityCase(
        ANSWERS,
        SUBMISSION,
        score=0.38333,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": 0.13333,  # the guess "nan" (pandas 2's astype(str)): AP 0
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 0.50667,  # a.jpg (AP 1) twice: (2 + 1/3 + 1/5) / 5
        },
        strict={"blank_target": 0.13333},  # a blank is no guess: (1/3 + 1/5) / 4
    ),
    "reads-hotel-ids-as-pandas-typed-them": reads_hotel_ids_as_pandas_typed_them,
}
