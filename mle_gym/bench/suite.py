"""Running the bench: each selected measurement group on each selected backend, then targets.

:func:`run_bench` builds the bench world (task folders, generated data, a
private cache), runs each measurement group (per backend where it depends on
the sandbox), collects the figures, checks them against issue 8's targets and
returns a :class:`~mle_gym.bench.results.BenchReport`. A group that fails is
recorded in ``report.errors`` and the others still run.
"""

from __future__ import annotations

import datetime as dt
import functools
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from mle_gym.bench import (
    episodes,
    execute,
    file_tools,
    grading,
    memory,
    python_tool,
    reset,
)
from mle_gym.bench.context import BenchConfig, BenchContext
from mle_gym.bench.fixtures import BenchWorld, size_label, size_slug
from mle_gym.bench.machine import describe, load_average
from mle_gym.bench.results import BenchReport, Figure, Target

PerBackend = Callable[[BenchContext, str], list[Figure]]
Once = Callable[[BenchContext], list[Figure]]

STEPS: tuple[tuple[str, PerBackend | None, Once | None], ...] = (
    ("file_tools", file_tools.measure, None),
    ("execute", execute.measure, None),
    ("python_tool", python_tool.measure, None),
    ("reset", reset.measure, reset.measure_volume),
    ("episodes", episodes.measure, None),
    ("grading", None, grading.measure),
    ("memory", memory.measure, None),
)


def run_bench(config: BenchConfig, *, log: Callable[[str], None] | None = None) -> BenchReport:
    """Measure everything ``config`` selects (see module docstring)."""
    say = log or (lambda message: None)
    unknown = set(config.families) - {name for name, _, _ in STEPS}
    if unknown:
        raise ValueError(f"unknown bench families {sorted(unknown)}")
    start = time.monotonic()
    report = BenchReport(
        machine=describe(with_docker="docker" in config.backends),
        config=config.to_dict(),
        started=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    )
    world = BenchWorld(Path(config.workdir) if config.workdir else None)
    try:
        sizes = sorted({max(1, int(mb * 2**20)) for mb in config.data_sizes_mb})
        sized = {b: world.add_task(f"bench-{size_slug(b)}", b) for b in sizes}
        world.activate()
        ctx = BenchContext(config, world, small_env=sized[sizes[0]], sized_envs=sized)
        if log is not None:
            ctx.log = log
        needed = sized.values() if "reset" in config.families else [ctx.small_env]
        for env_id in needed:
            say(f"bench: generating the data of {env_id}")
            ctx.data_bytes[env_id] = world.prepare(env_id)
        for name, per_backend, once in STEPS:
            if name not in config.families:
                continue
            if per_backend is not None:
                for backend in config.backends:
                    what = f"{name} [{backend}]"
                    _run(report, say, what, functools.partial(per_backend, ctx, backend))
            if once is not None:
                _run(report, say, name, functools.partial(once, ctx))
    finally:
        world.close()
        report.machine["load_average_end"] = load_average()
        report.duration_s = time.monotonic() - start
    report.targets = evaluate_targets(report, config)
    return report


def _run(
    report: BenchReport, say: Callable[[str], None], what: str, fn: Callable[[], list[Figure]]
) -> None:
    say(f"bench: {what} ...")
    t = time.monotonic()
    try:
        figures = fn()
    except Exception as exc:  # one group failing must not lose the others' figures
        report.errors.append(f"{what}: {type(exc).__name__}: {exc}")
        say(traceback.format_exc())
        return
    report.figures.extend(figures)
    say(f"bench: {what} done in {time.monotonic() - t:.1f} s ({len(figures)} figures)")


#: (figure, target key, description, upper limit) of the targets that bound a figure's ratio
RATIO_TARGETS = (
    (
        "execute.python_pass.local",
        "local_python_pass_ratio",
        "local execute `python -c pass` / plain subprocess.run",
        1.5,
    ),
    (
        "execute.true_vs_docker_sdk.docker",
        "docker_exec_ratio",
        "docker execute `true` / raw docker exec (SDK exec_run)",
        1.2,
    ),
)


def evaluate_targets(report: BenchReport, config: BenchConfig) -> list[Target]:
    """Issue 8's targets, for every figure they apply to that was measured."""
    targets: list[Target] = []
    for backend in config.backends:
        tools = [f for f in report.figures if f.family == "file_tools" and f.backend == backend]
        if tools:
            worst = max(tools, key=lambda f: f.extra["overhead_ms"])
            targets.append(
                Target(
                    key=f"file_tool_overhead.{backend}",
                    description=f"file-tool step overhead, worst of {len(tools)} tools ({backend})",
                    value=worst.extra["overhead_ms"],
                    limit=1.0,
                    comparison="<=",
                    unit="ms",
                    figures=tuple(f.key for f in tools),
                )
            )
        warm = report.figure(f"python_tool.warm_groupby.{backend}")
        if warm is not None:
            targets.append(
                Target(
                    key=f"python_warm_speedup.{backend}",
                    description=f"warm python cell faster than a cold run ({backend})",
                    value=warm.extra["speedup"],
                    limit=20.0,
                    comparison=">=",
                    unit="x",
                    figures=(warm.key,),
                )
            )
        resets = [f for f in report.figures if f.family == "reset" and f.backend == backend]
        if len(resets) > 1:
            big = max(resets, key=lambda f: f.extra["data_bytes"])
            small = min(resets, key=lambda f: f.extra["data_bytes"])
            targets.append(
                Target(
                    key=f"reset_data_size.{backend}",
                    description=f"reset() with {size_label(big.extra['data_bytes'])} of data / "
                    f"with {size_label(small.extra['data_bytes'])} ({backend})",
                    value=big.ratio or 0.0,
                    limit=1.2,
                    comparison="<=",
                    unit="x",
                    figures=(big.key, small.key),
                )
            )
        rss = report.figure(f"memory.host_rss_per_env.{backend}")
        if rss is not None:
            targets.append(
                Target(
                    key=f"host_rss_per_env.{backend}",
                    description=f"host RSS per idle env ({backend})",
                    value=rss.value,
                    limit=30.0,
                    comparison="<=",
                    unit="MB",
                    figures=(rss.key,),
                )
            )
    for figure_key, key, description, limit in RATIO_TARGETS:
        fig = report.figure(figure_key)
        if fig is not None and fig.ratio is not None:
            targets.append(
                Target(
                    key=key,
                    description=description,
                    value=fig.ratio,
                    limit=limit,
                    comparison="<=",
                    unit="x",
                    figures=(fig.key,),
                )
            )
    for name in grading.METRICS:
        cold = report.figure(f"grading.{name}.cold")
        if cold is not None:
            targets.append(
                Target(
                    key=f"grading_{name}",
                    description=f"grading {cold.extra['rows']:,} rows, {name}, cold",
                    value=cold.value / 1000,
                    limit=2.0,
                    comparison="<=",
                    unit="s",
                    figures=(cold.key,),
                )
            )
    return targets
