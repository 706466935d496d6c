"""Measure the reference and sample-submission scores on the spaceship-titanic replica.

For each seed: generate the replica with ``prepare.replica()`` into a temporary
directory, copy the public files into ``<workspace>/data/``, run the task's
``solution.py`` there as a subprocess (as the scripted agent does), and grade
``submission.csv`` and the all-False sample submission against the private
answers by accuracy. Prints the ``data.replica`` snippet for ``task.yaml``
(computed on the first seed) and, with several seeds, one line per seed.

Usage::

    python scripts/measure_replica_reference.py --seed 0
    python scripts/measure_replica_reference.py --seeds 0 1 2

Exit status is non-zero if ``solution.py`` fails or a submission is malformed.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
TASK_ID = "spaceship-titanic"
TASK_DIR = REPO / "task_assets" / "mlebench" / TASK_ID
ID = "PassengerId"
TARGET = "Transported"
PUBLIC_FILES = ("train.csv", "test.csv", "sample_submission.csv")


@dataclass(frozen=True)
class Measurement:
    """Scores of one replica seed."""

    seed: int
    reference_score: float
    sample_submission_score: float
    solution_seconds: float


def load_prepare() -> ModuleType:
    """Import the task's ``prepare.py`` by file path (task folders are not packages)."""
    if str(REPO) not in sys.path:  # prepare.py imports mle_gym
        sys.path.insert(0, str(REPO))
    spec = importlib.util.spec_from_file_location(
        "spaceship_titanic_prepare", TASK_DIR / "prepare.py"
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {TASK_DIR / 'prepare.py'}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _as_bool(column: pd.Series) -> pd.Series:
    """True/False/1/0 (bools, numbers or strings) to bools; raise on anything else."""
    mapping = {"true": True, "false": False, "1": True, "0": False, "1.0": True, "0.0": False}
    out = column.astype(str).str.strip().str.lower().map(mapping)
    if out.isna().any():
        bad = column[out.isna()].head(3).tolist()
        raise ValueError(f"non-boolean {TARGET} values, e.g. {bad}")
    return out.astype(bool)


def accuracy(submission_csv: Path, answers_csv: Path) -> float:
    """Accuracy of a ``PassengerId,Transported`` submission against the private answers.

    The submission must hold every answer id exactly once and nothing else.
    """
    sub = pd.read_csv(submission_csv, dtype={ID: str})
    answers = pd.read_csv(answers_csv, dtype={ID: str}, usecols=[ID, TARGET])
    if list(sub.columns) != [ID, TARGET]:
        raise ValueError(f"{submission_csv}: columns {list(sub.columns)} != {[ID, TARGET]}")
    if sub[ID].duplicated().any() or set(sub[ID]) != set(answers[ID]):
        raise ValueError(f"{submission_csv}: ids do not match the answers one to one")
    merged = answers.merge(sub, on=ID, how="left", suffixes=("_true", "_pred"))
    hits = _as_bool(merged[f"{TARGET}_true"]) == _as_bool(merged[f"{TARGET}_pred"])
    return float(hits.mean())


def measure(seed: int, root: Path, prepare: ModuleType) -> Measurement:
    """Generate the replica for ``seed`` under ``root``, run solution.py and grade it."""
    public, private, workspace = root / "public", root / "private", root / "workspace"
    for d in (public, private, workspace / "data"):
        d.mkdir(parents=True)
    prepare.replica(public, private, seed)
    for name in PUBLIC_FILES:
        shutil.copy(public / name, workspace / "data" / name)
    shutil.copy(TASK_DIR / "solution.py", workspace / "solution.py")

    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "solution.py"], cwd=workspace, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    if run.returncode != 0:
        raise RuntimeError(f"solution.py failed (seed {seed}):\n{run.stdout}\n{run.stderr}")
    for line in run.stdout.strip().splitlines():
        print(f"# seed {seed} | solution.py: {line}", file=sys.stderr)

    answers = private / "test.csv"
    return Measurement(
        seed=seed,
        reference_score=accuracy(workspace / "submission.csv", answers),
        sample_submission_score=accuracy(public / "sample_submission.csv", answers),
        solution_seconds=elapsed,
    )


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints the YAML snippet and returns an exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "task", nargs="?", default=TASK_ID, choices=[TASK_ID], help="task id (only this one)"
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--seed", type=int, help="replica seed (default 0)")
    group.add_argument("--seeds", type=int, nargs="+", help="several replica seeds")
    parser.add_argument(
        "--tmp-dir", type=Path, default=None, help="parent of the temporary directory"
    )
    args = parser.parse_args(argv)
    seeds: list[int] = args.seeds or [0 if args.seed is None else args.seed]

    prepare = load_prepare()
    results = []
    for seed in seeds:
        with tempfile.TemporaryDirectory(prefix=f"replica-{seed}-", dir=args.tmp_dir) as tmp:
            results.append(measure(seed, Path(tmp), prepare))

    first = results[0]
    print(f"reference_score: {first.reference_score:.5f}")
    print(f"sample_submission_score: {first.sample_submission_score:.5f}")
    print(
        f'measured_by: "python scripts/measure_replica_reference.py --seed {first.seed} '
        '(solution.py, HistGradientBoostingClassifier)"'
    )
    if len(results) > 1:
        print("# per seed:")
        for r in results:
            print(
                f"#   seed {r.seed}: reference_score {r.reference_score:.5f}, "
                f"sample_submission_score {r.sample_submission_score:.5f}, "
                f"solution.py {r.solution_seconds:.1f}s"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
