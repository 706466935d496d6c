"""Keep the env's own step budget equal to the TimeLimit that ``gymnasium.make`` applies.

``gymnasium.make`` enforces ``max_episode_steps`` with a ``TimeLimit`` wrapper
outside the env, so the env itself would not know which step is the last one
and could not grade the submission when the budget runs out. Every registered
mle_gym id adds this wrapper (outermost, via the spec's ``additional_wrappers``):
at each reset it finds the ``TimeLimit`` below it and tells the env its budget,
so the env truncates, grades and reports ``steps_left`` on exactly the step
where ``TimeLimit`` truncates, whatever ``max_episode_steps`` the user chose.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium.utils import RecordConstructorArgs
from gymnasium.wrappers import TimeLimit


class StepBudgetSync(gym.Wrapper, RecordConstructorArgs):
    """See module docstring."""

    def __init__(self, env: gym.Env) -> None:
        RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        budget = self._limit_of(env)
        if isinstance(budget, bool):  # TimeLimit takes True for 1 step
            raise ValueError(
                f"max_episode_steps must be a whole number >= 1 (int), or -1 for no "
                f"TimeLimit, got {budget!r} (bool)"
            )

    @staticmethod
    def _limit_of(env: gym.Env) -> Any:
        """The ``max_episode_steps`` of the TimeLimit below ``env``'s top, as given (None
        without one)."""
        inner: Any = env
        while isinstance(inner, gym.Wrapper):
            if isinstance(inner, TimeLimit):
                return inner._max_episode_steps
            inner = inner.env
        return None

    def _time_limit(self) -> int | None:
        budget = self._limit_of(self.env)
        return None if budget is None else int(budget)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        budget = self._time_limit()
        setter = getattr(self.env.unwrapped, "set_step_budget", None)
        if budget is not None and setter is not None:
            setter(budget)
        return self.env.reset(seed=seed, options=options)
