"""The MLE-bench family (the default): Kaggle-style episodes graded on a CSV submission.

Public data is mounted read-only at /workspace/data; ``starter/`` files (if any)
are copied into the workspace; the agent writes the task's submission file;
grading copies it out and scores it in the host process against the private
answers (:func:`mle_gym.families.mlebench.grading.grade_submission`); rewards come
from :mod:`mle_gym.families.mlebench.rewards` (leaderboard percentile, medal,
normalized, raw). Option and reset option: ``replica_seed``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from mle_gym.families.base import (
    Episode,
    GradeLike,
    PrepareRequest,
    ReferencePolicy,
    SpecParser,
    TaskFamily,
)
from mle_gym.families.mlebench import prepare as sources
from mle_gym.families.mlebench import prompts, rewards
from mle_gym.families.mlebench.options import MLEBenchOptions
from mle_gym.families.mlebench.task import MLEBenchTask, MLEBenchTaskFile, parse_task
from mle_gym.families.replicas import ReplicaVariants
from mle_gym.task_spec import Limits, TaskError, TaskSpec
from mle_gym.tools.fs import FsError
from mle_gym.tools.spec import ToolResult, ToolSpec

if TYPE_CHECKING:
    from mle_gym.data.store import PreparedData


class MLEBenchFamily(ReplicaVariants, TaskFamily):
    """See module docstring."""

    name: ClassVar[str] = "mlebench"
    task_file: ClassVar[type[MLEBenchTaskFile]] = MLEBenchTaskFile
    spec_parser: ClassVar[SpecParser] = staticmethod(parse_task)
    options_model: ClassVar[type[MLEBenchOptions]] = MLEBenchOptions
    reward_modes: ClassVar[tuple[str, ...]] = rewards.REWARD_MODES
    data_choices: ClassVar[tuple[str, ...]] = sources.DATA_CHOICES

    task: MLEBenchTask

    def __init__(self, task: TaskSpec, options: Mapping[str, Any] | None = None) -> None:
        if not isinstance(task, MLEBenchTask):
            raise TaskError(f"{task.env_id} is not an MLE-bench task (family {task.family!r})")
        super().__init__(task, options)

    @classmethod
    def reference_policy(cls, task: TaskSpec, observation: str) -> ReferencePolicy:
        from mle_gym.families.mlebench.policy import TabularPolicy

        assert isinstance(task, MLEBenchTask)
        return TabularPolicy(task)

    def check_settings(self, data: str, reward_mode: str) -> None:
        super().check_settings(data, reward_mode)
        if data == "replica" and reward_mode in ("percentile", "medal"):
            rewards.resolve_mode(reward_mode, self.task, "replica")  # raises with the reason

    def check_config(self, data: str, reward_mode: str) -> None:
        task = self.task
        self.check_settings(data, reward_mode)
        if data in ("kaggle", "replica", "bundled") and data not in task.sources:
            raise ValueError(f"task {task.key} has no {data!r} data source")
        problem = task.problem()
        if problem is not None:
            raise TaskError(f"{task.env_id} cannot be used: {problem}")
        why = self.unavailable(data)
        if why is not None:
            raise sources.DataNotPrepared(why)

    def unavailable(self, data: str) -> str | None:
        task = self.task
        if data in ("kaggle", "replica", "bundled") and data not in task.sources:
            return f"task {task.key} has no {data!r} data source"
        if sources.available(task, data):
            return None
        if data in ("kaggle", "bundled"):
            from mle_gym.hints import Hinted, Setting

            text = f"{data} data for {task.key} is not prepared; run `mle-gym prepare {task.id}`"
            if "replica" not in task.sources:
                return text
            return Hinted(text + ", or use its offline replica: ", Setting("data", "replica"))
        return sources.missing_data_message(task)

    def resolve_data(self, data: str, options: Mapping[str, Any]) -> PreparedData:
        return sources.resolve(self.task, data, options["replica_seed"])

    def resolve_reward_mode(self, mode: str, data_source: str) -> str:
        return rewards.resolve_mode(mode, self.task, data_source)

    def observation(
        self,
        episode: Episode,
        listing: str,
        tools: list[ToolSpec],
        max_steps: int,
        limits: Limits,
    ) -> str:
        return prompts.task_observation(self.task, listing, tools, max_steps, limits)

    # -- submission ------------------------------------------------------------------------

    def _copy_out(self, episode: Episode, path: str, dest: Path) -> None:
        """Copy a sandbox file to the host; at most one byte past the size limit is copied,
        so an oversized file is still rejected by the reader's size check."""
        assert episode.fs is not None
        data, _ = episode.fs.read_bytes(path, self.task.submission.max_mb * 2**20 + 1)
        dest.write_bytes(data)

    def validate(self, episode: Episode, path: str) -> ToolResult:
        """Whether the grader would score the file; never a score.

        Under ``grading="strict"``: the format check against the public sample submission
        (its ids and columns). Under ``grading="mlebench"`` (default): MLE-bench's verdict
        — as MLE-bench's own validation does, its grader is run on the hidden answers and
        only "valid" or its rejection is reported (a library failure by type only) —,
        with the strict check's complaint as a warning when MLE-bench accepts the file.
        """
        from mle_gym.families.mlebench.format_check import FormatChecker
        from mle_gym.families.mlebench.parity import grade_like_mlebench, has_parity_grader
        from mle_gym.grading import InvalidSubmission

        assert episode.data is not None
        checker = episode.state.get("checker")
        if checker is None:
            checker = FormatChecker(
                self.task, episode.data.public / self.task.sample_submission_file
            )
            episode.state["checker"] = checker
        with tempfile.TemporaryDirectory(prefix="mle_gym-validate-") as tmp:
            copy = Path(tmp) / "submission.csv"
            try:
                self._copy_out(episode, path, copy)
            except FsError as exc:
                return ToolResult(f"invalid: {exc}", ok=False)
            try:
                confirmation, complaint = checker.check(copy, path), ""
            except InvalidSubmission as exc:
                confirmation, complaint = "", str(exc)
            if self.opts.grading == "strict" or not has_parity_grader(self.task):
                if complaint:
                    return ToolResult(f"invalid: {complaint}", ok=False)
                return ToolResult(confirmation)
            verdict = grade_like_mlebench(
                self.task,
                copy,
                episode.data.private / self.task.answers_file,
                max_bytes=self.task.submission.max_mb * 2**20,
            )
        if verdict.score is None:
            also = f" (The strict format check says: {complaint})" if complaint else ""
            return ToolResult(f"invalid: {verdict.message}{also}", ok=False)
        if complaint:
            return ToolResult(
                f"valid: MLE-bench's grader accepts {path} (validation does not score). "
                f"Warning: strict grading would reject it: {complaint}"
            )
        return ToolResult(confirmation)

    def grade(self, episode: Episode) -> GradeLike:
        from mle_gym.families.mlebench.grading import grade_submission, invalid_report

        assert episode.data is not None
        data = episode.data
        answers = data.private / self.task.answers_file
        with tempfile.TemporaryDirectory(prefix="mle_gym-grade-") as tmp:
            copy = Path(tmp) / "submission.csv"
            try:
                self._copy_out(episode, self.submission_path(episode), copy)
                submitted: Path | None = copy
            except FsError as exc:
                if "no such file" not in str(exc):
                    return invalid_report(
                        self.task,
                        data.source,
                        f"cannot read the submission: {exc}",
                        exists=True,
                        grading=self.opts.grading,
                    )
                submitted = None
            return grade_submission(
                self.task,
                submitted,
                answers=answers,
                data_source=data.source,
                grading=self.opts.grading,
            )

    def reward(self, grade: dict[str, Any], mode: str, data_source: str) -> float:
        return rewards.compute_reward(grade, mode, self.task, data_source)

    def end_summary(self, grade: GradeLike, reward: float, reason: str | None) -> str:
        return prompts.end_summary(grade, reward, reason)  # type: ignore[arg-type]

    # -- catalog ---------------------------------------------------------------------------

    def data_provenance(self, episode: Episode) -> dict[str, Any]:
        """The base fields; ``checks`` on Kaggle data: ``{"mlebench_checksums": "match" |
        "mismatch" | "not published" | "not checked", "mismatched": [files]}`` — the
        prepared files compared with MLE-bench's published md5 sums at prepare time."""
        out = super().data_provenance(episode)
        if episode.data is not None and episode.data_source == "kaggle":
            try:
                manifest = episode.data.manifest()
            except (OSError, ValueError):
                manifest = {}
            out["checks"] = {
                "mlebench_checksums": manifest.get("mlebench_checksums", "not checked"),
                "mismatched": list(manifest.get("mlebench_mismatched") or []),
            }
        return out

    def data_status(self) -> str:
        from mle_gym.data import store

        task = self.task
        parts = []
        if "kaggle" in task.data:
            if store.lookup(task, "kaggle"):
                parts.append("kaggle prepared")
            elif task.kaggle_supported:
                parts.append("kaggle needs preparation")
            else:
                parts.append("kaggle not yet supported")
        if "replica" in task.data:
            parts.append("replica available")
        return ", ".join(parts)

    def grade_file(
        self, submission: Path | None, *, data: str = "auto", seed: int = 0
    ) -> GradeLike:
        """The grader's report on ``submission`` against the answers of ``data`` (replica
        variant ``seed``), graded as the ``grading`` option says; the file is copied
        first, so it may change meanwhile. The messages call the file by its own name
        (``preds.csv``), with no advice meant for an agent."""
        import shutil

        from mle_gym.families.mlebench.grading import grade_submission

        prepared = sources.resolve(self.task, data, seed)
        with tempfile.TemporaryDirectory(prefix="mle_gym-grade-") as tmp:
            copy = None
            if submission is not None and submission.is_file():
                copy = Path(tmp) / "submission.csv"
                shutil.copyfile(submission, copy)
            return grade_submission(
                self.task,
                copy,
                answers=prepared.private / self.task.answers_file,
                data_source=prepared.source,
                grading=self.opts.grading,
                submission_name=submission.name if submission is not None else None,
            )

    def prepare(self, request: PrepareRequest) -> str:
        """``mle-gym prepare``: the replica (``source="replica"``, variant ``seed``), else
        the real Kaggle data (from ``from_path``, a downloaded zip, or the Kaggle API)."""
        task, source = self.task, request.source
        if source not in (None, "replica", "kaggle"):
            raise ValueError(f"{task.env_id}: MLE-bench tasks have no {source!r} data to prepare")
        if source == "replica":
            if request.from_path is not None:
                raise ValueError("--from is for Kaggle data; a replica is generated")
            data = sources.prepare_replica(task, request.seed, force=request.force)
        else:
            data = sources.prepare_kaggle(task, request.from_path, force=request.force)
        manifest = data.manifest()
        lines = [
            f"prepared {task.env_id} ({data.variant}) in {data.root}",
            f"  public files: {sorted(p.name for p in data.public.iterdir())}",
        ]
        if "mlebench_checksums" in manifest:
            lines.append(f"  MLE-bench checksums: {manifest['mlebench_checksums']}")
        return "\n".join(lines)
