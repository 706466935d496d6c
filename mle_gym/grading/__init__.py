"""Grading: safe submission reading, format validation, metrics, medals and reports.

Everything here runs in the host process on copies of files taken out of the
sandbox. Nothing in this package imports scikit-learn or scipy.
"""

from __future__ import annotations

from mle_gym.grading.csvread import read_submission
from mle_gym.grading.errors import InvalidSubmission
from mle_gym.grading.grade_report import GradeReport
from mle_gym.grading.grader import grade_submission, invalid_report
from mle_gym.grading.leaderboard import medals_for, percentile_beaten
from mle_gym.grading.validation import validate_submission_frame

__all__ = [
    "GradeReport",
    "InvalidSubmission",
    "grade_submission",
    "invalid_report",
    "medals_for",
    "percentile_beaten",
    "read_submission",
    "validate_submission_frame",
]
