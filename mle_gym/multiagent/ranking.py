"""Ranking the agents of a compete game and their rewards (the definitions are in the
:mod:`mle_gym.multiagent` docstring)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Standing:
    """One agent's result in a compete game (see the module docstring for the definitions)."""

    agent: str
    score: float | None
    valid: bool
    rank: float
    place: int
    grade_reward: float
    rank_bonus: float

    @property
    def reward(self) -> float:
        """The agent's final reward: grade reward plus rank bonus."""
        return self.grade_reward + self.rank_bonus

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict, with ``reward``."""
        return {**asdict(self), "reward": self.reward}


def _valid_score(grade: Mapping[str, Any] | None) -> float | None:
    """The grade's score if the submission is valid and the score finite, else None."""
    if not grade or not grade.get("valid"):
        return None
    score = grade.get("score")
    if score is None:
        return None
    value = float(score)
    return value if math.isfinite(value) else None


def rank_agents(
    grades: Mapping[str, Mapping[str, Any] | None],
    grade_rewards: Mapping[str, float],
    *,
    lower_is_better: bool,
    bonus: float,
) -> dict[str, Standing]:
    """Rank agents by their grades and compute their compete rewards.

    ``grades`` maps each agent to its grade report (a dict with ``valid`` and ``score``) or None
    if it was not graded; ``grade_rewards`` maps each agent to the reward its own MLEEnv paid.
    Returns one :class:`Standing` per agent, with ``rank`` (tie-averaged, 0 = best), ``place``
    (1-based, ties share the better place) and ``rank_bonus`` as defined in the module docstring.
    """
    n = len(grades)
    keys: dict[str, tuple[int, float]] = {}
    scores: dict[str, float | None] = {}
    for agent, grade in grades.items():
        score = _valid_score(grade)
        scores[agent] = score
        if score is None:
            keys[agent] = (0, 0.0)
        else:
            keys[agent] = (1, -score if lower_is_better else score)
    out: dict[str, Standing] = {}
    for agent, key in keys.items():
        above = sum(1 for other, k in keys.items() if other != agent and k > key)
        level = sum(1 for other, k in keys.items() if other != agent and k == key)
        rank = above + level / 2
        valid = scores[agent] is not None
        rank_bonus = bonus * (n - 1 - rank) / (n - 1) if valid and n > 1 else 0.0
        out[agent] = Standing(
            agent=agent,
            score=scores[agent],
            valid=valid,
            rank=rank,
            place=above + 1,
            grade_reward=float(grade_rewards.get(agent, 0.0)) if valid else 0.0,
            rank_bonus=rank_bonus,
        )
    return out


def standings_text(standings: Mapping[str, Standing], bonus: float) -> str:
    """The final standings as a short table for observations and the demo."""
    lines = [f"[game over] Final standings (rank bonus up to {bonus:g}):"]
    for s in sorted(standings.values(), key=lambda s: (s.rank, s.agent)):
        score = f"score {s.score:g}" if s.valid else "invalid or no submission"
        lines.append(
            f"  place {s.place}  {s.agent}  {score}  rank {s.rank:g}  reward {s.reward:.4g} "
            f"(grade {s.grade_reward:.4g} + bonus {s.rank_bonus:.4g})"
        )
    return "\n".join(lines)
