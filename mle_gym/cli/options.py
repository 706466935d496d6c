"""Argument helpers shared by the command modules of :mod:`mle_gym.cli`."""

from __future__ import annotations

from typing import Any

#: ``--data`` choices of the commands that build envs or grade
DATA_CHOICES = ["auto", "kaggle", "replica", "bundled"]
#: ``--sandbox`` choices
SANDBOX_CHOICES = ["local", "docker", "unsafe-local"]
#: ``--reward-mode`` choices
REWARD_MODE_CHOICES = ["auto", "percentile", "medal", "normalized", "raw"]


def add_flag(parser: Any, name: str, help: str) -> None:
    """Add the on/off option ``name`` (``store_true``) to ``parser`` (a parser or group)."""
    parser.add_argument(name, action="store_true", help=help)
