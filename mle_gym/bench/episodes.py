"""Full scripted episodes per minute with 1, 2, 4, 8... envs stepping in parallel.

Each round builds an :class:`~mle_gym.pool.EpisodePool` of N slots and runs
``episodes_per_env`` complete episodes per slot with the scripted reference agent
(reset, list, read, write the solution, run it, validate, submit, grade, release),
stepping every live slot in one batch call; the figure is finished episodes per
wall minute, the median over the rounds. Rounds of the different N alternate, and
the baseline of each N is the single-env throughput of the same rounds.

The default task is the bench's own small tabular task (its solution runs in
well under a second), so the figure shows the environment's throughput rather
than a model's training time; ``episode_task`` selects another one.
"""

from __future__ import annotations

import time
from typing import Any

from mle_gym.bench.context import BenchContext
from mle_gym.bench.results import Figure
from mle_gym.bench.timing import median


def episodes_per_minute(ctx: BenchContext, backend: str, env_id: str, n: int) -> dict[str, Any]:
    """One round: {"per_minute": float, "episodes": int, "invalid": int}."""
    from mle_gym.agents import make_agent
    from mle_gym.pool import EpisodePool
    from mle_gym.tasks import get_task

    per_env = ctx.config.episodes_per_env
    task = get_task(env_id)
    agents = [make_agent("scripted") for _ in range(n)]
    left = [per_env] * n
    finished = invalid = 0
    with EpisodePool([env_id] * n, data="replica", sandbox=backend, max_episode_steps=40) as pool:
        live: dict[int, tuple[str, dict[str, Any]]] = {}

        def begin(indices: list[int]) -> None:
            for i, (obs, info) in pool.reset(indices).items():
                tools = pool.env(i).unwrapped.tools  # type: ignore[attr-defined]
                agents[i].reset({**info, "task": task, "observation": obs, "tools": tools})
                live[i] = (obs, info)

        start = time.perf_counter()
        begin(list(range(n)))
        while live:
            actions = {i: agents[i].act(obs, info) for i, (obs, info) in live.items()}
            restart = []
            for i, result in pool.step(actions).items():
                if not result.done:
                    live[i] = (result.observation, result.info)
                    continue
                del live[i]
                finished += 1
                left[i] -= 1
                if not (result.info.get("grade") or {}).get("valid"):
                    invalid += 1
                if left[i] > 0:
                    restart.append(i)
            if restart:
                begin(restart)
        elapsed = time.perf_counter() - start
    return {"per_minute": finished / elapsed * 60, "episodes": finished, "invalid": invalid}


def measure(ctx: BenchContext, backend: str) -> list[Figure]:
    """One figure per parallel env count."""
    env_id = ctx.config.episode_task or ctx.small_env
    counts = sorted(set(ctx.config.parallel) | {1})
    rounds: dict[int, list[dict[str, Any]]] = {n: [] for n in counts}
    for r in range(ctx.config.episode_rounds):
        k = r % len(counts)
        for n in counts[k:] + counts[:k]:
            rounds[n].append(episodes_per_minute(ctx, backend, env_id, n))
    base = median([x["per_minute"] for x in rounds[1]])
    figures = []
    for n in counts:
        if n not in ctx.config.parallel:
            continue
        values = [x["per_minute"] for x in rounds[n]]
        invalid = sum(x["invalid"] for x in rounds[n])
        pairs = zip(rounds[n], rounds[1], strict=True)
        ratios = [x["per_minute"] / b["per_minute"] for x, b in pairs]
        figures.append(
            Figure(
                key=f"episodes.parallel{n}.{backend}",
                family="episodes",
                label=f"scripted episodes per minute, {n} env(s) in parallel",
                unit="episodes/min",
                value=median(values),
                samples=len(values),
                backend=backend,
                baseline_label="1 env" if n > 1 else None,
                baseline=base if n > 1 else None,
                ratio=median(ratios) if n > 1 else None,
                notes=f"{invalid} episode(s) ended without a valid submission" if invalid else "",
                extra={
                    "task": env_id,
                    "episodes": sum(x["episodes"] for x in rounds[n]),
                },
            )
        )
    return figures
