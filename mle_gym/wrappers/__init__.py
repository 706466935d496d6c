"""Gymnasium wrappers shipped with mle_gym."""

from __future__ import annotations

from mle_gym.wrappers.budget import StepBudgetSync

__all__ = ["StepBudgetSync"]
