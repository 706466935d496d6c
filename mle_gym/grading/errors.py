"""The one exception a bad submission produces."""

from __future__ import annotations


class InvalidSubmission(ValueError):
    """A submission file cannot be graded.

    The message is meant for the agent: it says what is wrong with the file and
    how to fix it, and never contains private answers. The grader turns it into
    an invalid :class:`~mle_gym.families.mlebench.grade_report.GradeReport`; the agent-facing
    validation tool shows it as is.
    """
