"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

import math

import pandas as pd

from mle_gym.families.mlebench.testing import Check, ExactCase, ExactGrading


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


CASES: dict[str, Check] = {
    "grading": ExactGrading(case_3d),
}
