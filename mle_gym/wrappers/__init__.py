"""Gymnasium wrappers shipped with mle_gym."""

from __future__ import annotations

from mle_gym.wrappers.budget import StepBudgetSync
from mle_gym.wrappers.chat import ChatWrapper
from mle_gym.wrappers.macro import MacroActionWrapper

__all__ = ["ChatWrapper", "MacroActionWrapper", "StepBudgetSync"]
