"""Deprecated: moved to :mod:`mle_gym.evaluation.run_report` (alias removed next release)."""

from typing import TYPE_CHECKING

from mle_gym._deprecation import alias_module

if TYPE_CHECKING:
    from mle_gym.evaluation.run_report import *  # noqa: F403
else:
    alias_module(__name__, "mle_gym.evaluation.run_report")
