"""The persistent ``python`` tool: a warm cell next to a cold ``python -c`` doing the same.

Both go through ``env.step`` on the same episode: the warm cell reads a
10,000-row CSV and groups it in the interpreter that already imported pandas;
the cold run is an ``execute`` step of ``python -c`` that imports pandas, reads
the same CSV and groups it. The ratio reported is cold/warm (how many times
faster the warm cell is).
"""

from __future__ import annotations

from typing import Any

from mle_gym.bench.context import BenchContext
from mle_gym.bench.results import Figure
from mle_gym.bench.timing import interleaved, median, median_ratio

WORK = "pd.read_csv('data/groupby.csv').groupby('g')['v'].mean().round(3).to_dict()"
COLD = f'python -c "import pandas as pd; print({WORK})"'


def _checked(env: Any, action: dict[str, Any]) -> None:
    _, _, _, _, info = env.step(action)
    if not info.get("ok"):
        raise RuntimeError(f"{action['tool']} failed in the bench: {info.get('error')}")


def measure(ctx: BenchContext, backend: str) -> list[Figure]:
    """One figure: the warm cell, with the cold run as its baseline."""
    env = ctx.make_env(backend)
    try:
        env.reset(seed=0)
        _checked(env, {"tool": "python", "args": {"code": "import pandas as pd"}})
        s = interleaved(
            {
                "warm": lambda: _checked(env, {"tool": "python", "args": {"code": WORK}}),
                "cold": lambda: _checked(env, {"tool": "execute", "args": {"command": COLD}}),
            },
            ctx.config.slow_repeats,
            warmup=1,
        )
        return [
            Figure(
                key=f"python_tool.warm_groupby.{backend}",
                family="python_tool",
                label="python tool: warm cell (read 10k-row CSV + groupby)",
                unit="ms",
                value=median(s["warm"]),
                samples=len(s["warm"]),
                backend=backend,
                baseline_label="cold `python -c` doing the same (execute step)",
                baseline=median(s["cold"]),
                ratio=median_ratio(s["warm"], s["cold"]),
                extra={"speedup": round(median_ratio(s["cold"], s["warm"]), 1)},
            )
        ]
    finally:
        env.close()
