"""Errors of the run viewer; ValueErrors, so ``mle-gym`` prints them as one line (exit 2)."""

from __future__ import annotations

from mle_gym.evaluation.errors import EvalConfigError


class ViewError(EvalConfigError):
    """The page cannot be made or served as asked."""


class NotARunError(ViewError):
    """The folder is not an evaluation run directory (no readable config.json)."""


class ServeError(ViewError):
    """The page could not be served (the port is taken, say)."""
