"""The baseline: the starter code's own score, measured by running it.

For ``baseline.mode: measured`` the starter code is run once per seed
(``SEED=<seed> <run command>``) in a fresh sandbox over a copy of ``starter/``
with the episode's data, and its outputs are scored by the task's hidden
evaluator — exactly the path the agent's result takes. The mean is the
baseline. The measurement is stored next to the prepared data
(``<variant>/mlab_baseline.json``) with how it was made (command, seeds, per-seed
scores, backend, the starter's and evaluator's sha256, date, duration) and reused
while the starter code, evaluator, command and seeds are unchanged.

``baseline.mode: in_run`` tasks (timing tasks) measure the starter code against
the agent's code inside one evaluation run instead (see the task's evaluate.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mle_gym.data import store
from mle_gym.data.store import PreparedData
from mle_gym.families.mlagentbench.evaluation import (
    EvalJob,
    EvaluationFailed,
    copy_tree_outputs,
    run_evaluator,
)
from mle_gym.families.mlagentbench.sandbox_runner import SandboxRunner
from mle_gym.families.mlagentbench.task import MLABConfig
from mle_gym.task_spec import Limits, TaskSpec
from mle_gym.tools.format import decode

log = logging.getLogger(__name__)

FILE = "mlab_baseline.json"


class BaselineError(RuntimeError):
    """The starter code could not be run or scored, so no baseline exists."""


@dataclass(frozen=True)
class Baseline:
    """A measured baseline (``runs``: the score of each seed)."""

    score: float
    runs: tuple[float, ...]
    measured_by: str
    record: dict[str, Any]


def _tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file():
            h.update(path.relative_to(root).as_posix().encode() + b"\0")
            h.update(path.read_bytes())
    return h.hexdigest()


def fingerprint(task: TaskSpec, cfg: MLABConfig) -> dict[str, Any]:
    """What a stored baseline depends on."""
    return {
        "starter_sha256": _tree_hash(task.folder / "starter"),
        "evaluator_sha256": hashlib.sha256((task.folder / "evaluate.py").read_bytes()).hexdigest(),
        "command": cfg.run,
        "seeds": list(cfg.baseline_seeds),
    }


def _store_dir(task: TaskSpec, data: PreparedData | None) -> Path:
    return data.root if data is not None else store.variant_dir(task, "none")


def stored(task: TaskSpec, cfg: MLABConfig, data: PreparedData | None) -> Baseline | None:
    """The stored baseline if it matches the current starter, evaluator, command, seeds."""
    path = _store_dir(task, data) / FILE
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if record.get("fingerprint") != fingerprint(task, cfg):
        return None
    return Baseline(
        float(record["score"]), tuple(record["runs"]), str(record["measured_by"]), record
    )


def ensure(
    task: TaskSpec,
    cfg: MLABConfig,
    data: PreparedData | None,
    *,
    sandbox_kind: str,
    limits: Limits,
    image: str | None = None,
) -> Baseline:
    """The stored baseline, measured first if there is none (see module docstring)."""
    found = stored(task, cfg, data)
    if found is not None:
        return found
    where = _store_dir(task, data)
    with store.locked(where.parent / f".{where.name}.baseline.lock"):
        found = stored(task, cfg, data)
        if found is not None:
            return found
        log.info("measuring the starter code's baseline of %s (%s)", task.key, sandbox_kind)
        baseline = measure(task, cfg, data, sandbox_kind=sandbox_kind, limits=limits, image=image)
        where.mkdir(parents=True, exist_ok=True)
        tmp = where / f".{FILE}.tmp-{os.getpid()}"
        tmp.write_text(json.dumps(baseline.record, indent=1, sort_keys=True))
        tmp.replace(where / FILE)
        return baseline


def measure(
    task: TaskSpec,
    cfg: MLABConfig,
    data: PreparedData | None,
    *,
    sandbox_kind: str,
    limits: Limits,
    image: str | None = None,
) -> Baseline:
    """Run the starter code once per seed and score each run (no cache)."""
    runner = SandboxRunner(sandbox_kind, limits, data.public if data else None, image)
    scores: list[float] = []
    started = time.time()
    for seed in cfg.baseline_seeds:
        with tempfile.TemporaryDirectory(prefix="mle_gym-baseline-") as tmp:
            work = Path(tmp) / "workspace"
            shutil.copytree(task.folder / "starter", work)
            command = f"SEED={seed} {cfg.run}"
            result = runner(work, command, limits.exec_timeout_s)
            if not result.ok:
                output = decode(result.head + result.tail)[-3000:]
                status = result.killed_reason or f"exit code {result.exit_code}"
                raise BaselineError(
                    f"the starter code of {task.key} failed ({status}) while measuring the "
                    f"baseline with `{command}`"
                    + (
                        f"; it needs {', '.join(cfg.requires)} in the sandbox"
                        if cfg.requires
                        else ""
                    )
                    + f":\n{output}"
                )
            outputs = Path(tmp) / "outputs"
            outputs.mkdir()
            copy_tree_outputs(work, cfg.outputs, outputs)
            job = EvalJob.for_task(
                task, outputs, data, seed=seed, timeout_s=limits.exec_timeout_s, runner=runner
            )
            try:
                scores.append(run_evaluator(job).score)
            except EvaluationFailed as exc:
                raise BaselineError(
                    f"the starter code's output of {task.key} could not be scored: {exc}"
                ) from exc
    mean = statistics.fmean(scores)
    how = (
        f"mean over seeds {list(cfg.baseline_seeds)} of `SEED=<seed> {cfg.run}` on the starter "
        f"code, run in a {sandbox_kind} sandbox on {data.variant if data else 'no'} data and "
        f"scored by the task's evaluator"
    )
    record = {
        "task": task.key,
        "score": mean,
        "runs": scores,
        "stdev": statistics.pstdev(scores),
        "measured_by": how,
        "data_variant": data.variant if data else None,
        "sandbox": sandbox_kind,
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "seconds": round(time.time() - started, 3),
        "fingerprint": fingerprint(task, cfg),
    }
    return Baseline(mean, tuple(scores), how, record)
