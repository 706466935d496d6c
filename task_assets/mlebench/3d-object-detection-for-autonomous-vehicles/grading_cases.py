"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading, ParityCase


def yaw_box(conf: float, *box: float | str) -> str:
    """A Lyft box ``conf x y z width length height yaw class`` as prediction-string text."""
    return " ".join(str(v) for v in (conf, *box))


def case_3d() -> ExactCase:
    car1 = (10.0, 20.0, 0.0, 2.0, 4.0, 1.5, 0.3, "car")
    walker = (30.0, 5.0, 0.0, 0.7, 0.8, 1.8, 0.0, "pedestrian")
    car2 = (50.0, 50.0, 1.0, 2.0, 4.0, 2.0, 1.0, "car")
    rows = [("s1", [car1, walker]), ("s2", [car2])]
    answers = pd.DataFrame(
        {
            "Id": [r[0] for r in rows],
            "PredictionString": [" ".join(yaw_box(1.0, *b) for b in r[1]) for r in rows],
        }
    )
    perfect = pd.DataFrame(
        {
            "Id": ["s1", "s2"],
            "PredictionString": [
                f"{yaw_box(0.9, *car1)} {yaw_box(0.8, *walker)}",
                yaw_box(0.7, *car2),
            ],
        }
    )
    # car 1 moved 0.4 m along its length: IoU = 3.6 / 4.4 = 0.818, a hit for thresholds
    # 0.50..0.80 only; the pedestrian is missed; the bus (even with a negative size) is ignored
    shift = (10.0 + 0.4 * math.cos(0.3), 20.0 + 0.4 * math.sin(0.3))
    moved = yaw_box(0.9, *shift, 0.0, 2.0, 4.0, 1.5, 0.3, "car")
    imperfect = pd.DataFrame(
        {
            "Id": ["s1", "s2"],
            "PredictionString": [f"{moved} 0.5 1 1 1 -2 2 2 0 bus", yaw_box(0.7, *car2)],
        }
    )
    expected = ((0.5 * 7 + 0.0 * 3) / 10 + 1.0) / 2
    return ExactCase(
        answers,
        perfect,
        imperfect,
        expected,
        "Id,PredictionString\ns1,1.0 10 20 0 2 4 1.5 0.3\ns2,\n",
        1.0,
    )


def parity_case() -> ParityCase:
    """The imperfect submission of :func:`case_3d`: sample s1 scores 0.5 at the seven
    thresholds 0.50..0.80 (car hit, pedestrian missed) and 0 above, 0.35 on average; s2
    scores 1; (0.35 + 1) / 2 = 0.675. The bus, a class absent from the answers, is never
    built, so its negative width does not matter."""
    case = case_3d()
    return ParityCase(
        case.answers,
        case.imperfect,
        score=0.675,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": 0.5,  # s1 without boxes: (0 + 1) / 2
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": 0.56667,  # (0.35 + 0.35 + 1) / 3
        },
        strict={"blank_target": 0.5},
    )


def parity_quirks() -> ParityCase:
    """The perfect submission with a NaN confidence (ranked by Python's sort, accepted) and
    a box with a NaN yaw of a class absent from the answers (never built): MLE-bench
    scores it 1; strict grading rejects non-finite confidences."""
    case = case_3d()
    sub = case.perfect.copy()
    sub.loc[0, "PredictionString"] = sub.loc[0, "PredictionString"].replace("0.9 ", "nan ", 1)
    sub.loc[1, "PredictionString"] += " 0.3 1 1 1 2 2 2 nan bus"
    return ParityCase(
        case.answers,
        sub,
        score=1.0,
        expected={
            "shuffled_rows": "same",
            "reordered_columns": "same",
            "extra_column": "same",
            "index_column": "same",
            "missing_id": "invalid",
            "duplicate_id": "invalid",
            "unknown_id": "invalid",
            "blank_target": 0.5,  # s1 without boxes
            "empty_file": "invalid",
            "header_only": "invalid",
            "duplicate_answer_keys": "same",
        },
        strict={
            "as_is": "invalid",
            "shuffled_rows": "invalid",
            "reordered_columns": "invalid",
            "blank_target": 0.5,
            "duplicate_answer_keys": "invalid",
        },
    )


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_3d),
    "parity": parity_case(),
    "parity-quirks": parity_quirks(),
}
