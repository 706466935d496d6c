"""Two (or more) scripted agents compete on one task; prints each agent's score, rank and reward.

    python scripts/multiagent_demo.py [--task spaceship-titanic] [--agents 2] [--bonus 0.25]
                                      [--data replica] [--seed 0] [--sandbox local]

Each agent works in its own sandboxed workspace (``mle_gym.multiagent.parallel_env`` in
``compete`` mode); the agents step concurrently, and when the last one has submitted every
agent receives its grade reward plus the rank bonus. ``main`` returns the final standings
(one dict per agent) so that tests can call it directly.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from mle_gym.agents import make_agent
from mle_gym.multiagent import DEFAULT_BONUS, parallel_env, run_game


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Run the game described by ``argv``, print the standings and return them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--task", default="spaceship-titanic")
    parser.add_argument("--agents", type=int, default=2, help="number of scripted agents")
    parser.add_argument("--bonus", type=float, default=DEFAULT_BONUS)
    parser.add_argument("--data", default="replica", choices=["auto", "kaggle", "replica"])
    parser.add_argument("--reward-mode", default="normalized")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sandbox", default=None, help="local, docker or unsafe-local")
    parser.add_argument("--json", action="store_true", help="also print the standings as JSON")
    args = parser.parse_args(argv)

    env = parallel_env(
        args.task,
        n_agents=args.agents,
        mode="compete",
        bonus=args.bonus,
        data=args.data,
        reward_mode=args.reward_mode,
        sandbox=args.sandbox,
    )
    try:
        agents = {name: make_agent("scripted") for name in env.possible_agents}
        results = run_game(env, agents, seed=args.seed)
    finally:
        env.close()

    rows: list[dict[str, Any]] = []
    print(f"{args.task} · compete · {args.agents} scripted agents · bonus {args.bonus:g}")
    for name in env.possible_agents:
        result = results[name]
        info = result["info"]
        grade = info.get("grade") or {}
        row = {
            "agent": name,
            "score": grade.get("score"),
            "valid": bool(grade.get("valid")),
            "rank": info["rank"],
            "place": info["place"],
            "grade_reward": info["grade_reward"],
            "rank_bonus": info["rank_bonus"],
            "reward": result["reward"],
            "steps": result["steps"],
        }
        rows.append(row)
        print(
            f"{name}: score {row['score']}  place {row['place']}  rank {row['rank']:g}  "
            f"reward {row['reward']:.4f} (grade {row['grade_reward']:.4f} + "
            f"bonus {row['rank_bonus']:.4f})  steps {row['steps']}"
        )
    if args.json:
        print(json.dumps(rows))
    return rows


if __name__ == "__main__":
    main()
