"""The MLAgentBench family: improve working starter code; success = >10% better than it.

Episode shape:

* reset: the task's ``starter/`` code is copied into /workspace, the data (real,
  replica, or none for self-contained tasks) is mounted read-only at
  /workspace/data, the baseline (the starter code's own score, see
  :mod:`.baseline`) is looked up or measured, and the read-only files are
  fingerprinted. The observation is the research problem, the success rule, the
  budget and the workspace listing.
* tools: mle_gym's default toolset, or MLAgentBench's action set
  (``toolset="mlagentbench"``, :mod:`.toolset`). Writes to read-only globs are refused.
* end (``submit`` / ``Final Answer``, or a budget running out): the files named by
  ``mlagentbench.outputs`` are copied out of the workspace as they are at that
  moment — exactly what the agent's final code produced — and scored on the host
  by the hidden ``evaluate.py`` (which may run code in a fresh sandbox). With
  ``rerun=True`` (a ``gym.make`` keyword) the final code is first run again
  (``mlagentbench.run``) in a fresh sandbox over a copy of the workspace, and its
  outputs are scored instead. A changed read-only file makes the result invalid.
* reward: improvement over the baseline, success, or the raw score
  (:mod:`.grade`); ``info["grade"]`` has score, baseline (with how it was
  measured), improvement, success and ``submission_exists`` (the graded files, or the
  final code with ``rerun``, were there: :mod:`.submission`).

Budgets default to MLAgentBench's: 50 steps and 5 hours (task.yaml ``limits``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from mle_gym.data.store import PreparedData
from mle_gym.families.base import (
    Episode,
    GradeLike,
    PrepareRequest,
    ReferencePolicy,
    SpecParser,
    TaskFamily,
)
from mle_gym.families.mlagentbench import grading as mlab_grade
from mle_gym.families.mlagentbench import prepare as mlab_data
from mle_gym.families.mlagentbench import prompts as mlab_prompts
from mle_gym.families.mlagentbench.options import MLAgentBenchOptions
from mle_gym.families.mlagentbench.task import (
    MLABConfig,
    MLAgentBenchTaskFile,
    parse_config,
    parse_task,
)
from mle_gym.families.replicas import ReplicaVariants
from mle_gym.families.toolsets import Toolset
from mle_gym.sandbox import hostfs
from mle_gym.task_spec import Limits, TaskSpec
from mle_gym.tools.spec import ToolResult, ToolSpec

#: Bounds of the rerun copy of a workspace (a clear EvaluationFailed beyond them).
MAX_RERUN_ENTRIES = 200_000
MAX_RERUN_BYTES = 16 * 2**30


def copy_workspace(src: Path, dest: Path) -> None:
    """Copy the regular files and folders of a workspace (host side) for a rerun.

    Through :mod:`mle_gym.sandbox.hostfs`: every component is opened relative to its
    folder's fd with no-follow, so no link is followed even if one is swapped in while
    the copy runs; links are left out (the rerun sees regular files only, as before),
    FIFOs, sockets and devices too; permission bits ``& 0o777``; the data mount point
    is skipped. More than :data:`MAX_RERUN_ENTRIES` entries or :data:`MAX_RERUN_BYTES`
    bytes is an EvaluationFailed saying so.
    """
    from mle_gym.families.mlagentbench.evaluation import EvaluationFailed

    try:
        hostfs.copy_tree(
            src,
            dest,
            links="skip",
            exclude_top=("data",),
            max_entries=MAX_RERUN_ENTRIES,
            max_bytes=MAX_RERUN_BYTES,
        )
    except hostfs.HostFSLimitError as exc:
        raise EvaluationFailed(f"the workspace cannot be copied for the rerun: {exc}") from None


class MLAgentBenchFamily(ReplicaVariants, TaskFamily):
    """See module docstring."""

    name: ClassVar[str] = "mlagentbench"
    task_file: ClassVar[type[MLAgentBenchTaskFile]] = MLAgentBenchTaskFile
    spec_parser: ClassVar[SpecParser] = staticmethod(parse_task)
    options_model: ClassVar[type[MLAgentBenchOptions]] = MLAgentBenchOptions
    toolsets: ClassVar[tuple[str, ...]] = ("default", "mlagentbench")
    reward_modes: ClassVar[tuple[str, ...]] = mlab_grade.REWARD_MODES
    data_choices: ClassVar[tuple[str, ...]] = mlab_data.DATA_CHOICES

    def __init__(self, task: TaskSpec, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(task, options)
        self.rerun = bool(self.opts.rerun)
        self.cfg: MLABConfig = parse_config(task)

    @classmethod
    def reference_policy(cls, task: TaskSpec, observation: str) -> ReferencePolicy:
        from mle_gym.families.mlagentbench.policy import SolutionPolicy

        return SolutionPolicy(task.folder, parse_config(task), observation)

    # -- construction ----------------------------------------------------------------------

    def check_config(self, data: str, reward_mode: str) -> None:
        self.check_settings(data, reward_mode)
        mlab_data.check_choice(self.task, self.cfg, data)

    def unavailable(self, data: str) -> str | None:
        from mle_gym.data.store import DataNotPrepared

        try:
            mlab_data.check_choice(self.task, self.cfg, data)
        except (ValueError, DataNotPrepared) as exc:
            return str(exc)
        return None

    def toolset(self, name: str) -> Toolset:
        if name == "mlagentbench":
            from mle_gym.families.mlagentbench.toolset import mlagentbench_toolset

            return mlagentbench_toolset()
        return super().toolset(name)

    # -- reset -----------------------------------------------------------------------------

    def resolve_data(self, data: str, options: Mapping[str, Any]) -> PreparedData | None:
        return mlab_data.resolve(self.task, self.cfg, data, options["replica_seed"])

    def resolve_reward_mode(self, mode: str, data_source: str) -> str:
        return mlab_grade.resolve_mode(mode)

    def populate_workspace(self, episode: Episode) -> None:
        from mle_gym.families.mlagentbench import baseline, readonly

        super().populate_workspace(episode)
        if self.cfg.baseline_mode == "measured":
            episode.state["baseline"] = baseline.ensure(
                self.task,
                self.cfg,
                episode.data,
                sandbox_kind=episode.sandbox_kind,
                limits=episode.limits,
                image=episode.docker_image,
            )
        episode.state["read_only"] = readonly.fingerprint(episode.workspace, self.cfg.read_only)

    def file_view(self, episode: Episode, fs: Any) -> Any:
        if not self.cfg.read_only:
            return fs
        from mle_gym.families.mlagentbench.readonly import ReadOnlyGuard

        return ReadOnlyGuard(fs, self.cfg.read_only)

    def observation(
        self,
        episode: Episode,
        listing: str,
        tools: list[ToolSpec],
        max_steps: int,
        limits: Limits,
    ) -> str:
        return mlab_prompts.task_observation(
            self.task, self.cfg, episode.data is not None, listing, tools, max_steps, limits
        )

    # -- during the episode ----------------------------------------------------------------

    def submission_path(self, episode: Episode) -> str:
        return f"/workspace/{self.cfg.outputs[0]}"

    def validate(self, episode: Episode, path: str) -> ToolResult:
        from mle_gym.families.mlagentbench.evaluation import (
            EvaluationFailed,
            copy_outputs,
            evaluator,
        )

        check = getattr(evaluator(self.task), "check", None)
        if check is None:
            return ToolResult(
                f"{self.task.env_id} has no format check; the evaluator reads "
                f"{', '.join(self.cfg.outputs)} when the episode ends",
                ok=False,
            )
        assert episode.fs is not None
        with tempfile.TemporaryDirectory(
            prefix="mle_gym-validate-", dir=episode.episode_dir
        ) as tmp:
            try:
                copy_outputs(episode.fs, "/workspace", self.cfg.outputs, Path(tmp))
                message = check(Path(tmp), episode.data.public if episode.data else None)
            except EvaluationFailed as exc:
                return ToolResult(f"invalid: {exc}", ok=False)
        return ToolResult(message)

    # -- end of episode --------------------------------------------------------------------

    def grade(self, episode: Episode) -> GradeLike:
        from mle_gym.families.mlagentbench import readonly
        from mle_gym.families.mlagentbench.evaluation import (
            EvalJob,
            EvaluationFailed,
            copy_outputs,
            copy_tree_outputs,
            run_evaluator,
        )
        from mle_gym.families.mlagentbench.sandbox_runner import SandboxRunner
        from mle_gym.families.mlagentbench.submission import submission_exists

        task, cfg = self.task, self.cfg
        base = episode.state.get("baseline")
        grade = mlab_grade.MLABGrade(
            task_id=task.id,
            data_source=episode.data_source,
            metric=task.metric,
            lower_is_better=task.lower_is_better,
            valid=False,
            message="",
            score=None,
            baseline=base.score if base is not None else None,
            baseline_runs=list(base.runs) if base is not None else [],
            baseline_measured_by=base.measured_by if base is not None else "",
            success_threshold=cfg.success_threshold,
        )
        assert episode.fs is not None
        grade.submission_exists = submission_exists(
            episode.fs, "/workspace", cfg.outputs, cfg.run, self.rerun
        )
        data = episode.data
        runner = SandboxRunner(
            episode.sandbox_kind,
            episode.limits,
            data.public if data else None,
            episode.docker_image,
        )
        try:
            bad = readonly.changed(episode.fs, episode.state.get("read_only", {}))
            if bad:
                raise EvaluationFailed(f"read-only file(s) were changed: {', '.join(bad)}")
            # removed with hostfs: a rerun may leave any tree (links, thousands of levels)
            with hostfs.temporary_dir("mle_gym-mlab-", episode.episode_dir) as tmp:
                outputs = Path(tmp) / "outputs"
                outputs.mkdir()
                if self.rerun:
                    work = Path(tmp) / "rerun"
                    copy_workspace(episode.workspace, work)
                    result = runner(work, f"SEED=0 {cfg.run}", episode.limits.exec_timeout_s)
                    grade.details["rerun_exit_code"] = result.exit_code
                    if not result.ok:
                        status = result.killed_reason or f"exit code {result.exit_code}"
                        raise EvaluationFailed(f"re-running `{cfg.run}` failed ({status})")
                    found = copy_tree_outputs(work, cfg.outputs, outputs)
                else:
                    found = copy_outputs(episode.fs, "/workspace", cfg.outputs, outputs)
                grade.details["evaluated_files"] = found
                job = EvalJob.for_task(
                    task,
                    outputs,
                    data,
                    seed=episode.seed or 0,
                    timeout_s=episode.limits.exec_timeout_s,
                    runner=runner,
                )
                evaluation = run_evaluator(job)
        except EvaluationFailed as exc:
            grade.message = str(exc)
            return mlab_grade.finish(grade)
        grade.valid = True
        grade.score = float(evaluation.score)
        grade.details.update(evaluation.details)
        if cfg.baseline_mode == "in_run":
            if evaluation.baseline is None:
                raise RuntimeError(f"{task.key}: an in_run evaluator must report the baseline")
            grade.baseline = float(evaluation.baseline)
            grade.baseline_runs = list(
                evaluation.details.get("baseline_runs", [evaluation.baseline])
            )
            grade.baseline_measured_by = str(
                evaluation.details.get(
                    "baseline_measured_by", "the starter code, in the same evaluation run"
                )
            )
        mlab_grade.finish(grade)
        if evaluation.improvement is not None:  # the evaluator's paired estimate
            grade.improvement = float(evaluation.improvement)
            grade.success = grade.improvement > grade.success_threshold
        return grade

    def reward(self, grade: dict[str, Any], mode: str, data_source: str) -> float:
        return mlab_grade.reward(grade, mode, self.task.lower_is_better)

    def end_summary(self, grade: GradeLike, reward: float, reason: str | None) -> str:
        assert isinstance(grade, mlab_grade.MLABGrade)
        return mlab_grade.summary(grade, reward, reason)

    # -- catalog ---------------------------------------------------------------------------

    def data_status(self) -> str:
        return mlab_data.status(self.task, self.cfg)

    def prepare(self, request: PrepareRequest) -> str:
        """``mle-gym prepare``: the real data (download, or ``from_path``), or the replica;
        then the starter code's baseline on it (measured mode). Returns a summary."""
        from mle_gym.families.mlagentbench import baseline
        from mle_gym.sandbox import default_kind

        cfg, source, force = self.cfg, request.source, request.force
        if cfg.self_contained:
            prepared = None
            lines = [f"{self.task.env_id} is self-contained: no data to prepare"]
        elif source == "replica" or (source is None and not cfg.real_source):
            prepared = mlab_data.prepare_replica(self.task, request.seed, force=force)
            lines = [f"prepared {self.task.env_id} ({prepared.variant}) in {prepared.root}"]
        else:
            prepared = mlab_data.prepare_real(self.task, cfg, request.from_path, force=force)
            lines = [f"prepared {self.task.env_id} ({prepared.variant}) in {prepared.root}"]
        if prepared is not None:
            lines.append(f"  public files: {sorted(p.name for p in prepared.public.iterdir())}")
        if cfg.baseline_mode == "measured":
            try:
                found = baseline.ensure(
                    self.task,
                    cfg,
                    prepared,
                    sandbox_kind=request.sandbox_kind or default_kind(),
                    limits=self.task.limits,
                )
                lines.append(
                    f"  baseline: {found.score:.6g} (runs {list(found.runs)}; {found.measured_by})"
                )
            except baseline.BaselineError as exc:
                lines.append(f"  baseline not measured yet (it is measured at reset): {exc}")
        else:
            lines.append("  baseline: measured in every evaluation run (timing task)")
        return "\n".join(lines)
