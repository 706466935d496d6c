"""Deprecated: moved to :mod:`mle_gym.episode_runner` (alias removed next release)."""

from typing import TYPE_CHECKING

from mle_gym._deprecation import alias_module

if TYPE_CHECKING:
    from mle_gym.episode_runner import *  # noqa: F403
else:
    alias_module(__name__, "mle_gym.episode_runner")
