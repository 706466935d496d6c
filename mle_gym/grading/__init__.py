"""Grading kit shared by every family: safe submission reading, format validation, metrics.

Everything here runs in the host process on copies of files taken out of the
sandbox. Nothing in this package imports scikit-learn or scipy, and nothing here
knows a benchmark family: MLE-bench's grader, medals and reports are in
:mod:`mle_gym.families.mlebench` (their old names here still work, with a warning).
"""

from __future__ import annotations

from mle_gym._deprecation import moved_names
from mle_gym.grading.csvread import read_submission
from mle_gym.grading.errors import InvalidSubmission
from mle_gym.grading.submission import SubmissionSpec
from mle_gym.grading.validation import validate_submission_frame

__all__ = ["InvalidSubmission", "SubmissionSpec", "read_submission", "validate_submission_frame"]

# MLE-bench's grading names, which moved to mle_gym.families.mlebench
__getattr__ = moved_names(
    __name__,
    {
        "GradeReport": "mle_gym.families.mlebench.grade_report:GradeReport",
        "grade_submission": "mle_gym.families.mlebench.grading:grade_submission",
        "invalid_report": "mle_gym.families.mlebench.grading:invalid_report",
        "medals_for": "mle_gym.families.mlebench.leaderboard:medals_for",
        "percentile_beaten": "mle_gym.families.mlebench.leaderboard:percentile_beaten",
    },
)
