"""Errors raised by the evaluation harness.

Both derive from ``ValueError`` so that ``mle-gym`` prints them as one clear
line (exit status 2) instead of a traceback.
"""

from __future__ import annotations


class EvalConfigError(ValueError):
    """The requested evaluation cannot be planned or does not match the stored run."""


class RunLocked(EvalConfigError):
    """Another process is already coordinating this run directory."""
