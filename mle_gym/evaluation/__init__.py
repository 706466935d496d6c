"""Evaluation harness: many tasks x seeds, resumable, on local processes or Ray.

``mle-gym eval`` (or :func:`run_eval`) runs an agent on a set of tasks and
seeds; every episode writes its own folder under ``RUN_DIR/episodes/`` and
``mle-gym report RUN_DIR`` (also run at the end of every eval) aggregates the
folders MLE-bench style into report.json, report.md and PNG plots::

    mle-gym eval --split lite --seeds 3 --agent scripted --data replica --out runs/lite
    mle-gym eval --out runs/lite --resume              # after a crash or Ctrl-C
    mle-gym eval spaceship-titanic --seeds 8 --backend ray --out /shared/runs/st
    mle-gym report runs/lite

Modules, one concern each:

* ``config`` — the run's settings and plan (config.json), and the resume rule;
* ``plan`` — selecting tasks and seeds, validating, listing unfinished episodes;
* ``agent_spec`` — building an agent from a name or an import path, and its args;
* ``episode`` — :func:`execute_episode`, the one function every backend runs;
* ``snapshot`` — copying the final workspace out with size caps;
* ``layout`` — the run directory's layout, atomic writes, the run lock;
* ``local_backend`` / ``ray_backend`` — where episodes run;
* ``progress`` — the live progress line; ``events`` — backend callbacks;
* ``failfast`` — stopping a run whose first episodes all fail the same way;
* ``report`` / ``stats`` / ``plots`` — aggregation, statistics, PNGs;
* ``evaluate`` — :func:`run_eval`, tying it together; ``cli`` — the commands.

Ray: the run directory (and the task data) must be on a filesystem that every
Ray node mounts at the same path; see ``ray_backend``.

Importing this package is light (no matplotlib, ray or docker).
"""

from __future__ import annotations

from mle_gym.evaluation.config import RunConfig
from mle_gym.evaluation.episode import EpisodeJob, execute_episode
from mle_gym.evaluation.errors import EvalConfigError, RunLocked
from mle_gym.evaluation.evaluate import EvalResult, run_eval
from mle_gym.evaluation.plan import EvalRequest
from mle_gym.evaluation.run_report import build_report, strip_timing, write_report

__all__ = [
    "EpisodeJob",
    "EvalConfigError",
    "EvalRequest",
    "EvalResult",
    "RunConfig",
    "RunLocked",
    "build_report",
    "execute_episode",
    "run_eval",
    "strip_timing",
    "write_report",
]
