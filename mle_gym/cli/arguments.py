"""Argument helpers shared by the command modules of :mod:`mle_gym.cli` (flags, help texts)."""

from __future__ import annotations

from typing import Any

from mle_gym._deprecation import moved_names
from mle_gym.sandbox import BACKENDS as SANDBOX_CHOICES

__all__ = [
    "DATA_HELP",
    "FAMILY_DATA_CHOICES",
    "FAMILY_NAMES",
    "FAMILY_REWARD_MODES",
    "GRADING_HELP",
    "REWARD_MODE_HELP",
    "SANDBOX_CHOICES",
    "SANDBOX_HELP",
    "add_flag",
]

# MLE-bench's choices, which --data and --reward-mode no longer restrict themselves to
__getattr__ = moved_names(
    __name__,
    {
        "DATA_CHOICES": "mle_gym.families.mlebench.prepare:DATA_CHOICES",
        "REWARD_MODE_CHOICES": "mle_gym.families.mlebench.rewards:REWARD_MODES",
    },
)

#: each built-in family's ``data_choices`` and ``reward_modes`` by its name in the help
#: texts: copies, so that ``--help`` imports no family (tests/test_cli_run.py checks they
#: agree). ``--data`` and ``--reward-mode`` take what the task's family accepts; a value
#: it does not is an error naming them.
FAMILY_DATA_CHOICES = {
    "MLE-bench": ("auto", "kaggle", "replica", "bundled"),
    "MLAgentBench": ("auto", "real", "replica"),
    "ML-Bench": ("auto",),
}
FAMILY_REWARD_MODES = {
    "MLE-bench": ("auto", "percentile", "medal", "normalized", "raw"),
    "MLAgentBench": ("auto", "improvement", "success", "raw"),
    "ML-Bench": ("auto", "pass", "partial"),
}
#: the family (``family:`` in task.yaml) of each name above
FAMILY_NAMES = {"MLE-bench": "mlebench", "MLAgentBench": "mlagentbench", "ML-Bench": "mlbench"}


def _by_family(choices: dict[str, tuple[str, ...]]) -> str:
    return "; ".join(f"{family}: {', '.join(values)}" for family, values in choices.items())


DATA_HELP = (
    f"data source, one the task's family takes ({_by_family(FAMILY_DATA_CHOICES)}; "
    "default auto: the best one available)"
)
REWARD_MODE_HELP = (
    f"reward mode, one the task's family takes ({_by_family(FAMILY_REWARD_MODES)}; "
    "default auto: the family's own choice; see docs/families.md)"
)
SANDBOX_HELP = (
    "where agent code runs: local (bubblewrap; default, or $MLE_GYM_SANDBOX), docker (needs "
    "the image: `mle-gym sandbox build`) or unsafe-local (no isolation; debugging only)"
)
#: ``--grading``: an MLE-bench option (tasks of other families take none)
GRADING_HELP = (
    "MLE-bench grading: mlebench (default; MLE-bench's own verdict) or strict "
    "(stricter validation, corrected graders)"
)


def add_flag(parser: Any, name: str, help: str) -> None:
    """Add the on/off option ``name`` (``store_true``) to ``parser`` (a parser or group)."""
    parser.add_argument(name, action="store_true", help=help)
