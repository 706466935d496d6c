"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

PAW_ATTRIBUTES = [
    "Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory",
    "Group", "Collage", "Human", "Occlusion", "Info", "Blur",
]  # fmt: skip


CASE = WorseCase(
    answers={
        "Id": ["0007de18844b0dbbb5e1f607da0606e0", "0009c66b9439883ba2750fb825e1d7db"],
        **{name: [0, 1] for name in PAW_ATTRIBUTES},
        "Pawpularity": [63, 42],
    },
    imperfect={
        "Id": ["0007de18844b0dbbb5e1f607da0606e0", "0009c66b9439883ba2750fb825e1d7db"],
        "Pawpularity": [58, 47],
    },
    malformed={
        "Id": ["0007de18844b0dbbb5e1f607da0606e0", "0009c66b9439883ba2750fb825e1d7db"],
        "Pawpularity": [150, 47],
    },
    best=0.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
