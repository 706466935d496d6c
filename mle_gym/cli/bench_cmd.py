"""``mle-gym bench``: measure the environment's overhead against its baselines.

The measurements themselves live in :mod:`mle_gym.bench`; this module holds the
options and the handler (table on stdout, JSON file, progress on stderr).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import Any

from mle_gym.cli.arguments import add_flag

HELP = "measure the environment's overhead against its baselines (medians); table + JSON"
DESCRIPTION = (
    "Measure file-tool steps, execute, the python tool, reset(), episode throughput, grading "
    "and host memory against their baselines, side by side in one run. Prints a table and "
    "writes a JSON file with the machine description."
)


def _floats(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError:
        msg = f"expected numbers separated by commas, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if not values or any(v <= 0 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive numbers, got {text!r}")
    return values


def _ints(text: str) -> tuple[int, ...]:
    values = _floats(text)
    if any(v != int(v) for v in values):
        raise argparse.ArgumentTypeError(f"expected whole numbers, got {text!r}")
    return tuple(int(v) for v in values)


def _names(text: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in text.split(",") if v.strip())


def register(sub: Any) -> None:
    """Add ``bench`` to an argparse subparsers object."""
    p = sub.add_parser("bench", help=HELP, description=DESCRIPTION)
    add_arguments(p)
    p.set_defaults(func=cmd_bench)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``bench`` subcommand's options."""
    from mle_gym.bench.context import GROUPS

    add_flag(p, "--tiny", "small sizes and few repeats (the CI smoke run)")
    p.add_argument(
        "--backends", type=_names, help="sandbox backends, comma separated (default local,docker)"
    )
    p.add_argument(
        "--only", type=_names, help=f"measurement groups to run (of {', '.join(GROUPS)})"
    )
    p.add_argument("--repeats", type=int, help="rounds of the cheap measurements (default 30)")
    p.add_argument("--slow-repeats", type=int, help="rounds of the slow measurements (default 7)")
    p.add_argument(
        "--sizes-mb", type=_floats, help="task data sizes for reset(), MB (default 1,100,1024)"
    )
    p.add_argument("--grading-rows", type=int, help="rows of the graded submission (1000000)")
    p.add_argument("--parallel", type=_ints, help="parallel env counts (default 1,2,4,8)")
    p.add_argument("--episodes-per-env", type=int, help="episodes per env per round (2)")
    p.add_argument("--episode-rounds", type=int, help="rounds of the episode throughput (3)")
    p.add_argument("--episode-task", help="env id for the episodes (default: the bench task)")
    p.add_argument("--rss-envs", type=int, help="idle envs for the memory figure (16)")
    p.add_argument("--rss-repeats", type=int, help="fresh processes for the memory figure (3)")
    p.add_argument("--workdir", help="where to generate data (default: a temporary folder)")
    p.add_argument(
        "--out", help="JSON output file (default mle-gym-bench-<UTC time>.json in the cwd)"
    )


def config_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~mle_gym.bench.context.BenchConfig` the command line asks for."""
    from mle_gym.bench.context import GROUPS, BenchConfig

    fields = {
        "backends": args.backends,
        "families": args.only,
        "repeats": args.repeats,
        "slow_repeats": args.slow_repeats,
        "data_sizes_mb": args.sizes_mb,
        "grading_rows": args.grading_rows,
        "parallel": args.parallel,
        "episodes_per_env": args.episodes_per_env,
        "episode_rounds": args.episode_rounds,
        "episode_task": args.episode_task,
        "rss_envs": args.rss_envs,
        "rss_repeats": args.rss_repeats,
        "workdir": args.workdir,
    }
    given = {k: v for k, v in fields.items() if v is not None}
    counts = ("repeats", "slow_repeats", "grading_rows", "episodes_per_env", "episode_rounds")
    for name in (*counts, "rss_envs", "rss_repeats"):
        if name in given and given[name] < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1")
    unknown = sorted(set(given.get("families", ())) - set(GROUPS))
    if unknown:
        raise ValueError(f"unknown bench groups {unknown}; choose from {', '.join(GROUPS)}")
    return BenchConfig.tiny(**given) if args.tiny else BenchConfig(**given)


def cmd_bench(args: argparse.Namespace) -> int:
    """Run the bench, print the table, write the JSON; 1 if a measurement failed."""
    from mle_gym.bench import format_table, run_bench
    from mle_gym.sandbox import check_kind

    config = config_from_args(args)
    for backend in config.backends:
        check_kind(backend)  # fail fast, with the fix, before generating any data
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    out = Path(args.out) if args.out else Path(f"mle-gym-bench-{stamp}.json")
    report = run_bench(config, log=lambda m: print(m, file=sys.stderr, flush=True))
    report.config["argv"] = list(sys.argv)
    report.write_json(out)
    print(format_table(report))
    print(f"\nJSON: {out}")
    return 1 if report.errors else 0
