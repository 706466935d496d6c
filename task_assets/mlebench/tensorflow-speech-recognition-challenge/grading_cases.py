"""Grading test cases of this competition (run by tests/mlebench/test_grading_cases.py).

Synthetic files in the competition's real format, graded end to end; the kinds of case
and the shared oracles are in mle_gym.families.mlebench.testing.
"""

from __future__ import annotations

from mle_gym.families.mlebench.testing import Check, WorseCase

CASE = WorseCase(
    answers={
        "fname": [f"clip_0000000{i}.wav" for i in range(4)],
        "label": ["yes", "bed", "_background_noise_", "stop"],
    },
    imperfect={
        "fname": [f"clip_0000000{i}.wav" for i in range(4)],
        "label": ["yes", "unknown", "silence", "stop"],
    },
    malformed={
        "fname": [f"clip_0000000{i}.wav" for i in range(4)],
        "label": ["yes", "", "silence", "stop"],
    },
    best=1.0,
)


CASES: dict[str, Check] = {
    "grading": CASE,
}
