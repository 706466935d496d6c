"""Argument helpers shared by the command modules of :mod:`mle_gym.cli` (flags, help texts)."""

from __future__ import annotations

from typing import Any

from mle_gym._deprecation import moved_names
from mle_gym.sandbox import BACKENDS as SANDBOX_CHOICES

__all__ = ["DATA_HELP", "GRADING_HELP", "REWARD_MODE_HELP", "SANDBOX_CHOICES", "add_flag"]

# MLE-bench's choices, which --data and --reward-mode no longer restrict themselves to
__getattr__ = moved_names(
    __name__,
    {
        "DATA_CHOICES": "mle_gym.families.mlebench.prepare:DATA_CHOICES",
        "REWARD_MODE_CHOICES": "mle_gym.families.mlebench.rewards:REWARD_MODES",
    },
)

#: ``--data`` and ``--reward-mode`` take what the task's family accepts (its
#: ``data_choices`` / ``reward_modes``); a value it does not is an error naming them
DATA_HELP = "data source, one of the task family's (MLE-bench: auto, kaggle, replica, bundled)"
REWARD_MODE_HELP = "reward mode, one of the task family's (default: auto)"
#: ``--grading``: an MLE-bench option (tasks of other families take none)
GRADING_HELP = (
    "MLE-bench grading: mlebench (default; MLE-bench's own verdict) or strict "
    "(stricter validation, corrected graders)"
)


def add_flag(parser: Any, name: str, help: str) -> None:
    """Add the on/off option ``name`` (``store_true``) to ``parser`` (a parser or group)."""
    parser.add_argument(name, action="store_true", help=help)
