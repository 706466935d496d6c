"""Errors shared by every layer."""

from __future__ import annotations


class SetupError(RuntimeError):
    """Something the user must set up or fix before an env can run (data not prepared,
    no credentials, a repository that cannot be had...); ``mle-gym`` prints it as one
    line. Each layer and family subclasses it for its own kind."""
