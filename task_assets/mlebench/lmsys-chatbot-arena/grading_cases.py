"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from pathlib import Path

from mle_gym.families.mlebench.testing import Check, MLEBenchTask, WorseCase, expect, score

CASE = WorseCase(
    answers={
        "id": [30192, 53567, 65089],
        "model_a": ["gpt-4-1106-preview", "koala-13b", "gpt-3.5-turbo-0613"],
        "model_b": ["gpt-4-0613", "gpt-4-0613", "mistral-medium"],
        "prompt": ['["Is it morally right?"]', '["What is the difference?"]', '["hi, go"]'],
        "response_a": ['["The question, \\"moral\\"..."]', '["A"]', '["B"]'],
        "response_b": ['["As an AI..."]', '["C"]', '["D"]'],
        "winner_model_a": [1, 0, 0],
        "winner_model_b": [0, 1, 0],
        "winner_tie": [0, 0, 1],
    },
    imperfect={
        "id": [30192, 53567, 65089],
        "winner_model_a": [0.5, 0.2, 0.3],
        "winner_model_b": [0.3, 0.6, 0.3],
        "winner_tie": [0.2, 0.2, 0.4],
    },
    malformed={  # the first row sums to 0.9
        "id": [30192, 53567, 65089],
        "winner_model_a": [0.5, 0.2, 0.3],
        "winner_model_b": [0.2, 0.6, 0.3],
        "winner_tie": [0.2, 0.2, 0.4],
    },
    best=0.0,
)


def requires_rows_summing_to_one(task: MLEBenchTask, tmp_path: Path) -> None:
    case = CASE
    report = score(task, tmp_path, case.answers, case.malformed)
    expect("must add up to 1" in report.message and "30192" in report.message, report.message)


CASES: dict[str, Check] = {
    "grading": CASE,
    "requires-rows-summing-to-one": requires_rows_summing_to_one,
}
