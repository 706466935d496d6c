"""Argument helpers shared by the command modules of :mod:`mle_gym.cli`."""

from __future__ import annotations

from typing import Any

from mle_gym.data.sources import DATA_CHOICES
from mle_gym.rewards import REWARD_MODES as REWARD_MODE_CHOICES
from mle_gym.sandbox import BACKENDS as SANDBOX_CHOICES

__all__ = ["DATA_CHOICES", "REWARD_MODE_CHOICES", "SANDBOX_CHOICES", "add_flag"]


def add_flag(parser: Any, name: str, help: str) -> None:
    """Add the on/off option ``name`` (``store_true``) to ``parser`` (a parser or group)."""
    parser.add_argument(name, action="store_true", help=help)
