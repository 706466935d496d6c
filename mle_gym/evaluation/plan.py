"""From what the user asked for to a run config and the list of episodes to run.

:class:`EvalRequest` mirrors the ``mle-gym eval`` options. A ``None`` setting
means "not given": a new run uses the default, a resumed run the stored value.

Task selection: the explicit task ids, plus (union) every task of
``evaluation_set(split, benchmark)`` when ``split`` or ``benchmark`` is given;
tasks with known test-label leakage are left out of a split/benchmark selection
unless ``include_leaky`` (explicitly named tasks are always taken). Seeds:
``seed_list``, or ``0..seeds-1`` (default one seed, 0).

Checks before anything runs (so a misconfigured run fails at once, not once per
episode): every task has the requested data (``--skip-unavailable`` drops those
that do not, instead), the sandbox backend works on this machine, an import-path
agent imports, the reward mode fits the data, a replica seed has a task that
takes it. Checks that depend on the machines running the episodes are skipped
for a remote Ray cluster.

Execution options (backend, workers, start method, Ray address, episode timeout,
early stop, progress, plots: :class:`~mle_gym.evaluation.config.ExecutionOptions`)
follow the same rule as the settings — ``None`` means "not given": the stored
value when resuming, else the default — but a given one always wins, also on
resume (and is stored for the next session).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mle_gym.evaluation import agent_spec, layout
from mle_gym.evaluation.config import (
    EXECUTION_KEY,
    EXECUTION_NAMES,
    ExecutionOptions,
    RunConfig,
    config_json,
    load_config_json,
    merge_for_resume,
    parse_replica_seed,
)
from mle_gym.evaluation.episode import EpisodeJob
from mle_gym.evaluation.errors import EvalConfigError

BACKENDS = ("local", "ray")


@dataclass
class EvalRequest:
    """The options of one ``mle-gym eval`` invocation (see the module docstring)."""

    out: Path
    tasks: list[str] = field(default_factory=list)
    split: str | None = None
    benchmark: str | None = None
    include_leaky: bool = False
    skip_unavailable: bool = False
    seeds: int | None = None
    seed_list: list[int] | None = None
    agent: str | None = None
    agent_args: dict[str, Any] | None = None
    sandbox: str | None = None
    data: str | None = None
    reward_mode: str | None = None
    grading: str | None = None
    replica_seed: int | str | None = None
    max_steps: int | None = None
    time_budget_s: float | None = None
    resume: bool = False
    retry_failed: bool = False
    workers: int | None = None
    backend: str | None = None
    ray_address: str | None = None
    start_method: str | None = None
    episode_timeout_s: float | None = None
    max_consecutive_failures: int | None = None
    progress: bool | None = None
    report: bool = True
    plots: bool | None = None

    @property
    def selects_tasks(self) -> bool:
        """Whether any task selection was given."""
        return bool(self.tasks or self.split or self.benchmark)

    @property
    def selects_seeds(self) -> bool:
        """Whether any seed option was given."""
        return self.seeds is not None or self.seed_list is not None


def select_tasks(request: EvalRequest) -> list[str]:
    """The env ids the request selects (sorted; raises if it selects none)."""
    from mle_gym.tasks import evaluation_set, get_task

    chosen: dict[str, Any] = {}
    for name in request.tasks:
        spec = get_task(name)
        chosen[spec.env_id] = spec
    if request.split or request.benchmark:
        for spec in evaluation_set(
            request.split, request.benchmark, include_leaky=request.include_leaky
        ):
            chosen[spec.env_id] = spec
    if not chosen:
        raise EvalConfigError("no task selected: name task ids, or use --split / --benchmark")
    by_id: dict[str, list[str]] = {}
    for env_id in sorted(chosen):
        by_id.setdefault(layout.task_id_of(env_id), []).append(env_id)
    shared = [(task_id, envs) for task_id, envs in by_id.items() if len(envs) > 1]
    if shared:
        raise EvalConfigError(
            "; ".join(
                f"{' and '.join(envs)} share the task id {task_id!r}" for task_id, envs in shared
            )
            + " (their folders in the run would collide): evaluate them in separate runs"
        )
    return sorted(chosen)


def select_seeds(request: EvalRequest) -> list[int]:
    """The seeds the request selects."""
    if request.seeds is not None and request.seed_list is not None:
        raise EvalConfigError("give --seeds or --seed-list, not both")
    if request.seed_list is not None:
        if not request.seed_list or any(s < 0 for s in request.seed_list):
            raise EvalConfigError("--seed-list needs non-negative seeds")
        return sorted(set(request.seed_list))
    count = 1 if request.seeds is None else request.seeds
    if count < 1:
        raise EvalConfigError(f"--seeds must be >= 1, got {count}")
    return list(range(count))


def _setting(request_value: Any, stored: RunConfig | None, name: str, default: Any) -> Any:
    if request_value is not None:
        return request_value
    if stored is not None:
        return getattr(stored, name)
    return default


def build_config(request: EvalRequest, stored: RunConfig | None) -> RunConfig:
    """The run config of ``request``, filling options it leaves out from ``stored``."""
    from mle_gym.sandbox import default_kind

    tasks = select_tasks(request) if request.selects_tasks or stored is None else stored.tasks
    seeds = select_seeds(request) if request.selects_seeds or stored is None else stored.seeds
    agent = _setting(request.agent, stored, "agent", "scripted")
    agent = agent_spec.normalize_spec(agent)
    config = RunConfig(
        tasks=tuple(tasks),
        seeds=tuple(seeds),
        agent=agent,
        agent_args=_setting(request.agent_args, stored, "agent_args", {}),
        sandbox=_setting(request.sandbox, stored, "sandbox", default_kind()),
        data=_setting(request.data, stored, "data", "auto"),
        reward_mode=_setting(request.reward_mode, stored, "reward_mode", "auto"),
        grading=_setting(request.grading, stored, "grading", None),
        replica_seed=parse_replica_seed(
            _setting(request.replica_seed, stored, "replica_seed", None)
        ),
        max_steps=_setting(request.max_steps, stored, "max_steps", None),
        time_budget_s=_setting(request.time_budget_s, stored, "time_budget_s", None),
    )
    if config.max_steps is not None and config.max_steps < 1:
        raise EvalConfigError(f"--max-steps must be >= 1, got {config.max_steps}")
    if config.time_budget_s is not None and not config.time_budget_s > 0:
        raise EvalConfigError(f"--time-budget must be positive, got {config.time_budget_s}")
    return config


def _families(config: RunConfig) -> list[tuple[str, Any]]:
    """(env id, the family instance serving it) of every task of ``config``."""
    from mle_gym.families import make_family
    from mle_gym.tasks import get_task

    return [(env_id, make_family(get_task(env_id))) for env_id in config.tasks]


def _wrong_settings(families: list[tuple[str, Any]], config: RunConfig) -> None:
    """EvalConfigError naming the settings some task's family never takes (its
    ``check_settings``: data source, reward mode, their combination)."""
    wrong = []
    for env_id, family in families:
        try:
            family.check_settings(config.data, config.reward_mode)
        except ValueError as exc:
            wrong.append(f"{layout.task_id_of(env_id)}: {exc}")
    if config.grading is not None:
        takers = [f for _, f in families if _takes(f, "grading")]
        if not takers:
            wrong.append("--grading applies to MLE-bench tasks only, and none is selected")
        for family in takers[:1]:
            try:
                family.options_model(grading=config.grading)
            except ValueError:
                wrong.append(f"--grading must be mlebench or strict, got {config.grading!r}")
    if config.replica_seed is not None:
        if not any(_takes(f, "replica_seed") for _, f in families):
            wrong.append(
                "--replica-seed applies to tasks with offline replicas (a family with the "
                "replica_seed option: MLE-bench, MLAgentBench), and none is selected"
            )
        elif config.data not in ("auto", "replica"):
            wrong.append(
                f"--replica-seed chooses a replica variant, but --data {config.data} never "
                "uses a replica (use --data replica or auto)"
            )
    if wrong:
        raise EvalConfigError("; ".join(wrong))


def _takes(family: Any, option: str) -> bool:
    """Whether ``family`` has the option ``option`` (a field of its options model)."""
    return option in getattr(family.options_model, "model_fields", {})


def check_config(
    config: RunConfig,
    request: EvalRequest,
    execution: ExecutionOptions | None = None,
    skipped: list[dict[str, str]] | None = None,
) -> RunConfig:
    """Validate ``config`` on this machine (see the module docstring); return it, minus
    tasks without data when ``request.skip_unavailable`` (each appended to ``skipped``, when
    given, as ``{"task": env id, "reason": why}``). Each task's family judges the
    settings (``check_settings``) and, unless the episodes run on a remote cluster, whether
    the task can run here now (``problem``, ``unavailable``: cheap checks, no data loaded)."""
    from mle_gym.sandbox import check_kind

    families = _families(config)
    _wrong_settings(families, config)
    agent_spec.check_spec(config.agent, config.agent_args)
    if execution is None:
        execution = ExecutionOptions(
            backend=request.backend or "local", ray_address=request.ray_address
        )
    remote = execution.backend == "ray" and bool(execution.ray_address)
    if remote:
        return config
    check_kind(config.sandbox)
    missing = []
    for env_id, family in families:
        why = family.problem() or family.unavailable(config.data)
        if why:
            missing.append((env_id, why))
    if not missing:
        return config
    if request.skip_unavailable:
        dropped = {e for e, _ in missing}
        print(
            f"mle-gym eval: skipping {len(dropped)} task(s) without usable data: "
            + ", ".join(sorted(layout.task_id_of(e) for e in dropped)),
            file=sys.stderr,
        )
        if skipped is not None:
            skipped += [{"task": e, "reason": str(why)} for e, why in sorted(missing)]
        kept = tuple(t for t in config.tasks if t not in dropped)
        if not kept:
            raise EvalConfigError("no selected task has usable data")
        return RunConfig(**{**_fields(config), "tasks": kept})
    from mle_gym.hints import Hinted

    lines = [part for e, why in missing for part in ("\n  ", f"{layout.task_id_of(e)}: ", why)]
    raise EvalConfigError(  # a Hinted keeps each reason's settings (`--data replica` in the CLI)
        Hinted(
            f"{len(missing)} selected task(s) cannot run with --data {config.data}:",
            *lines,
            "\nprepare them (`mle-gym prepare TASK`), choose other --data, or pass "
            "--skip-unavailable",
        )
    )


def _fields(config: RunConfig) -> dict[str, Any]:
    return {name: getattr(config, name) for name in RunConfig.__dataclass_fields__}


def build_execution(request: EvalRequest, stored: ExecutionOptions | None) -> ExecutionOptions:
    """The execution options of ``request``: each one it gives, else the stored one (when
    resuming), else the default; EvalConfigError for a bad value."""
    from mle_gym.evaluation.local_backend import START_METHODS

    given = {n: getattr(request, n) for n in EXECUTION_NAMES if getattr(request, n) is not None}
    base = stored if stored is not None else ExecutionOptions()
    if given.get("episode_timeout_s") == 0:
        given["episode_timeout_s"] = None  # 0: no hard limit (clears a stored one)
    opts = ExecutionOptions(**{**base.to_json(), **given})
    if opts.backend not in BACKENDS:
        raise EvalConfigError(f"--backend must be one of {BACKENDS}, got {opts.backend!r}")
    if opts.workers is not None and opts.workers < 1:
        raise EvalConfigError(f"--workers must be >= 1, got {opts.workers}")
    if opts.start_method not in START_METHODS:
        raise EvalConfigError(
            f"--start-method must be one of {START_METHODS}, got {opts.start_method!r}"
        )
    if opts.episode_timeout_s is not None and not opts.episode_timeout_s > 0:
        raise EvalConfigError(
            f"--episode-timeout must be positive (0: none), got {opts.episode_timeout_s}"
        )
    if opts.max_consecutive_failures < 0:
        raise EvalConfigError(
            "--max-consecutive-failures must be >= 0 (0: never stop early), "
            f"got {opts.max_consecutive_failures}"
        )
    if request.ray_address and opts.backend != "ray":
        raise EvalConfigError("--ray-address needs --backend ray")
    if opts.backend == "ray":
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise EvalConfigError("--backend ray needs Ray: pip install 'mle-gym[ray]'")
    return opts


@dataclass(frozen=True)
class ResolvedRun:
    """What :func:`resolve_run` decided: the run's config and execution options, the
    config.json content they make, and the content it had (None: no run yet)."""

    config: RunConfig
    execution: ExecutionOptions
    content: dict[str, Any]
    stored: dict[str, Any] | None

    @property
    def changed(self) -> bool:
        """Whether config.json must be (re)written."""
        return self.content != self.stored


def resolve_run(request: EvalRequest) -> ResolvedRun:
    """The config and execution options to run ``request`` with (nothing is written).

    A run directory that already holds a run needs ``resume``; a resumed config
    must match the stored one (:func:`merge_for_resume`); execution options left
    out are the stored ones.
    """
    run_dir = Path(request.out)
    raw = load_config_json(run_dir)
    stored = None if raw is None else RunConfig.from_json(raw)
    if stored is not None and not request.resume:
        raise EvalConfigError(
            f"{run_dir} already holds an evaluation run; pass --resume to continue it, "
            "or choose another --out"
        )
    stored_execution = None
    if raw is not None and EXECUTION_KEY in raw:
        stored_execution = ExecutionOptions.from_json(raw[EXECUTION_KEY])
    execution = build_execution(request, stored_execution)
    skipped: list[dict[str, str]] = []
    config = check_config(build_config(request, stored), request, execution, skipped)
    if stored is not None:
        config = merge_for_resume(stored, config)
    content = config_json(config, execution, raw)
    if request.selects_tasks or raw is None:
        content[SELECTION_KEY] = [*(raw or {}).get(SELECTION_KEY, []), selection(request, skipped)]
    return ResolvedRun(config, execution, content, raw)


#: config.json's record of what each session asked for (provenance; never compared)
SELECTION_KEY = "selection"


def selection(request: EvalRequest, skipped: list[dict[str, str]]) -> dict[str, Any]:
    """What one ``eval`` invocation asked for: the task ids named, ``split``, ``benchmark``,
    ``include_leaky``, ``skip_unavailable``, and the tasks ``--skip-unavailable`` dropped,
    each with the reason (``skipped``). A resumed session that selects tasks adds one."""
    return {
        "tasks": list(request.tasks),
        "split": request.split,
        "benchmark": request.benchmark,
        "include_leaky": request.include_leaky,
        "skip_unavailable": request.skip_unavailable,
        "skipped": skipped,
    }


def pending_jobs(
    config: RunConfig, run_dir: Path, *, backend: str, retry_failed: bool = False
) -> tuple[list[EpisodeJob], dict[str, int]]:
    """Jobs for the planned episodes that are not finished (failed ones too with
    ``retry_failed``), and counts of the finished ones: ``{"done": n, "failed": m}``."""
    jobs: list[EpisodeJob] = []
    counts = {"done": 0, "failed": 0}
    settings = config.settings()
    for env_id, seed in config.episodes():
        job = EpisodeJob(
            run_dir=str(run_dir), env_id=env_id, seed=seed, settings=settings, backend=backend
        )
        record = layout.read_episode_record(job.folder)
        if record is not None and not (retry_failed and record["status"] == "failed"):
            counts["done" if record["status"] == "done" else "failed"] += 1
            continue
        jobs.append(job)
    return jobs, counts
