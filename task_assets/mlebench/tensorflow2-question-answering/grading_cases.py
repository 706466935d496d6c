"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mle_gym.families.mlebench.testing import Check, MLEBenchTask, WorseCase, assert_score, score


def _tf2qa_first_answer(answers: pd.DataFrame) -> pd.DataFrame:
    """The first accepted answer of every row (blank where none is accepted)."""
    first = answers["PredictionString"].map(lambda c: c.split()[0] if c.split() else "")
    return pd.DataFrame({"example_id": answers["example_id"], "PredictionString": first})


CASE = WorseCase(
    answers={
        "example_id": [
            "-1011141123527297803_long",
            "-1011141123527297803_short",
            "-1028916936938579349_long",
            "-1028916936938579349_short",
            "1000463186017541226_long",
            "1000463186017541226_short",
        ],
        "PredictionString": ["212:310", "213:215 260:263", "", "", "6:68", "YES"],
    },
    imperfect={
        "example_id": [
            "-1011141123527297803_long",
            "-1011141123527297803_short",
            "-1028916936938579349_long",
            "-1028916936938579349_short",
            "1000463186017541226_long",
            "1000463186017541226_short",
        ],
        "PredictionString": ["212:310", "260:263", "5:9", "", "6:68", "NO"],
    },
    malformed={
        "example_id": [
            "-1011141123527297803_long",
            "-1011141123527297803_short",
            "-1028916936938579349_long",
            "-1028916936938579349_short",
            "1000463186017541226_long",
            "1000463186017541226_short",
        ],
        "PredictionString": ["212-310", "", "", "", "", ""],
    },
    best=1.0,
    perfect=_tf2qa_first_answer,
)


def blank_is_right_only_without_an_answer(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    submission = {"example_id": case.answers["example_id"], "PredictionString": [""] * 6}
    report = score(task, tmp_path, case.answers, submission)
    assert_score(report, 2 / 6, abs=1e-5)
    case_imperfect = score(task, tmp_path, case.answers, case.imperfect)
    assert_score(case_imperfect, 4 / 6, abs=1e-5)


CASES: dict[str, Check] = {
    "grading": CASE,
    "blank-is-right-only-without-an-answer": blank_is_right_only_without_an_answer,
}
