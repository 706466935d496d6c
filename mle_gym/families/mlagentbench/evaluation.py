"""Running a task's hidden evaluator on what the agent's final code produced.

Every MLAgentBench task folder has an ``evaluate.py`` that stays on the host (no
sandbox ever mounts the task folder). It defines::

    def evaluate(job: EvalJob) -> Evaluation

``job.outputs`` is a host folder holding *copies* of the workspace files named
by ``mlagentbench.outputs`` (relative paths kept), taken when the episode ends
(or produced by re-running the final code in a fresh sandbox); ``job.private``
holds the answers. An evaluator that must run code (e.g. time the agent's
implementation) calls ``job.run(folder, command)``: a fresh sandbox of the
episode's backend and limits over ``folder``, with the public data at
/workspace/data. It returns an :class:`Evaluation` or raises
:class:`EvaluationFailed` with a message for the agent (an invalid result). A run whose
duration is scored goes through :func:`~mle_gym.families.mlagentbench.guard.timed_run`
in a ``job.session`` sandbox (the clock covers the run's whole process tree, the report
is signed and the outputs are read back as hashed at clock stop), never through a
plain ``exec`` timed from the host.

Optionally ``check(outputs: Path, public: Path | None) -> str`` backs the
``validate_submission`` tool: a format check that never reveals a score.
"""

from __future__ import annotations

import contextlib
import fnmatch
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mle_gym.sandbox.base import ExecResult, Sandbox
from mle_gym.task_spec import TaskSpec
from mle_gym.tools.fs import FsError, SandboxFS

if TYPE_CHECKING:
    from mle_gym.data.store import PreparedData

log = logging.getLogger(__name__)

MAX_OUTPUT_BYTES = 512 * 2**20  # per file copied out for evaluation
MAX_OUTPUT_FILES = 2000


class EvaluationFailed(Exception):
    """The agent's result cannot be scored; str() says why (shown to the agent)."""


@dataclass(frozen=True)
class Evaluation:
    """A score, what else the evaluator wants to report, and (``in_run`` baselines)
    the starter code's score measured in the same run.

    ``improvement`` lets an ``in_run`` evaluator give a better estimate of the relative
    improvement than the one computed from ``score`` and ``baseline`` (e.g. the median of
    per-round paired ratios, which cancels machine load shared by the two runs of a
    round); it must be direction-aware (positive = better than the starter).
    """

    score: float
    details: dict[str, Any] = field(default_factory=dict)
    baseline: float | None = None
    improvement: float | None = None


@dataclass
class EvalJob:
    """What an evaluator gets (see module docstring)."""

    task: TaskSpec
    outputs: Path
    public: Path | None
    private: Path | None
    starter: Path
    seed: int
    timeout_s: float
    runner: Any = None  # a SandboxRunner (callable, with .session)

    @classmethod
    def for_task(
        cls,
        task: TaskSpec,
        outputs: Path,
        data: PreparedData | None,
        *,
        seed: int,
        timeout_s: float,
        runner: Any = None,
    ) -> EvalJob:
        """The job scoring ``outputs`` with ``task``'s starter code and prepared ``data``
        (None: a task without data)."""
        return cls(
            task=task,
            outputs=outputs,
            public=data.public if data else None,
            private=data.private if data else None,
            starter=task.folder / "starter",
            seed=seed,
            timeout_s=timeout_s,
            runner=runner,
        )

    def run(self, folder: Path, command: str, timeout_s: float | None = None) -> ExecResult:
        """Run ``command`` in a fresh sandbox over ``folder`` (mounted at /workspace)."""
        if self.runner is None:
            raise RuntimeError("this evaluation has no sandbox runner")
        return self.runner(folder, command, timeout_s or self.timeout_s)

    def session(self, folder: Path) -> contextlib.AbstractContextManager[Sandbox]:
        """A fresh sandbox over ``folder`` for several commands (``with job.session(f) as
        sb: sb.exec(cmd, timeout)``); files the host adds later need ``sb.file_owner``."""
        if self.runner is None or not hasattr(self.runner, "session"):
            raise RuntimeError("this evaluation has no sandbox runner")
        return self.runner.session(folder)


def evaluator(task: TaskSpec) -> Any:
    """The task's ``evaluate.py`` module."""
    module = task.module("evaluate")
    if module is None or not callable(getattr(module, "evaluate", None)):
        raise RuntimeError(f"{task.folder / 'evaluate.py'} defines no evaluate(job)")
    return module


def matching_files(fs: SandboxFS, root: str, globs: tuple[str, ...]) -> list[str]:
    """Workspace-relative paths of regular files under ``root`` matching ``globs``."""
    lines, _ = fs.list_dir(root, 5, MAX_OUTPUT_FILES)
    found = []
    for line in lines:
        name = line.split("  ", 1)[0]
        if name.endswith("/") or " -> " in name:
            continue
        if any(fnmatch.fnmatchcase(name, g) for g in globs):
            found.append(name)
    return found


def copy_outputs(fs: SandboxFS, root: str, globs: tuple[str, ...], dest: Path) -> list[str]:
    """Copy the files matching ``globs`` out of the sandbox into ``dest`` (host).

    Literal names (no wildcard) are copied when present; a missing one is simply
    absent from ``dest`` (the evaluator says what is missing). Files larger than
    :data:`MAX_OUTPUT_BYTES` are refused.
    """
    names = set(matching_files(fs, root, tuple(g for g in globs if _is_glob(g))))
    names.update(g for g in globs if not _is_glob(g))
    copied = []
    for name in sorted(names):
        try:
            data, size = fs.read_bytes(f"{root.rstrip('/')}/{name}", MAX_OUTPUT_BYTES + 1)
        except FsError as exc:
            if "no such file" in str(exc):
                continue
            raise EvaluationFailed(f"cannot read {name}: {exc}") from None
        if size > MAX_OUTPUT_BYTES:
            raise EvaluationFailed(
                f"{name} is {size:,} bytes; the evaluator reads at most {MAX_OUTPUT_BYTES:,}"
            )
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        copied.append(name)
    return copied


def copy_tree_outputs(src: Path, globs: tuple[str, ...], dest: Path) -> list[str]:
    """Host-side variant of :func:`copy_outputs` for a folder a sandbox wrote: regular
    files only, every component opened no-follow relative to its folder's fd
    (:mod:`mle_gym.sandbox.hostfs`), same size limit."""
    from mle_gym.sandbox import hostfs

    copied = []
    for entry in hostfs.walk(src, max_entries=None):
        if not entry.is_file or not any(fnmatch.fnmatchcase(entry.rel, g) for g in globs):
            continue
        if entry.st.st_size > MAX_OUTPUT_BYTES:
            raise EvaluationFailed(f"{entry.rel} is larger than {MAX_OUTPUT_BYTES:,} bytes")
        parent = hostfs.open_dir(dest, str(Path(entry.rel).parent), create=True)
        try:
            hostfs.copy_file_at(
                entry.dir_fd, entry.name, parent, max_bytes=MAX_OUTPUT_BYTES, path=entry.rel
            )
        except hostfs.HostFSLimitError:
            raise EvaluationFailed(
                f"{entry.rel} is larger than {MAX_OUTPUT_BYTES:,} bytes"
            ) from None
        except (hostfs.HostFSError, FileExistsError):
            continue  # no longer a regular file
        finally:
            os.close(parent)
        copied.append(entry.rel)
    return copied


def _is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


def run_evaluator(job: EvalJob) -> Evaluation:
    """``evaluate(job)`` of the task; EvaluationFailed for invalid results, and any other
    exception of the evaluator reported as a failed evaluation (logged)."""
    module = evaluator(job.task)
    try:
        result = module.evaluate(job)
    except EvaluationFailed:
        raise
    except Exception as exc:
        log.exception("evaluator of %s failed", job.task.key)
        raise EvaluationFailed(f"evaluator error: {type(exc).__name__}: {exc}") from exc
    if not isinstance(result, Evaluation):
        raise RuntimeError(f"{job.task.key}: evaluate() must return an Evaluation")
    return result
