"""The execution check: run a submitted ``run.sh``/``run.py`` in a sandbox and say how it ended.

:func:`run_submission` runs, in a given :class:`~mle_gym.sandbox.base.Sandbox`, with
the working directory at the example's task folder:

1. the example's ``prefix_code`` (if any), as its own command;
2. ``bash run.sh`` (Bash examples) or ``python run.py`` (Python examples), under a
   wall-clock timeout that kills the whole process tree;
3. a check of the expected artifacts (files that must exist afterwards).

The outcome's ``status`` is one of:

==================  ===============================================================
``exit_0``          ran to completion with exit status 0
``exit_nonzero``    ended with another status (a crash, a usage error...)
``timeout``         was still running when the timeout killed it
``killed``          killed by a limit: memory, CPU time or output size
``prefix_failed``   the example's prefix code failed, so the solution was not run
``no_submission``   the submission file does not exist
``no_trace``        a traced run left no complete trace (see below): never a pass
==================  ===============================================================

``traced=True`` (the default rules; :func:`mle_gym.families.mlbench.grading.grade` sets it unless
``compat="mlbench"``) runs the solution under the exec tracer
(:mod:`mle_gym.sandbox.traced`) and checks the trace
(:mod:`mle_gym.families.mlbench.evidence`): the run passes only if the repository's entry
point really executed and finished (the argument check then reads the instructed
values from the argv of that exec).

:meth:`ExecutionOutcome.passed` applies the rule: by default a run passes only if it
exits 0 — and, when the example lists artifacts or an expected output, produces them;
a run still going at the timeout passes only if it already produced every expected
artifact/output. ``compat="mlbench"`` reproduces ML-Bench's original rule instead: a
timeout counts as a pass, and so does a run whose output mentions ``KeyboardInterrupt``
(and the run is not traced).
"""

from __future__ import annotations

import re
import shlex
import signal
from dataclasses import dataclass, replace
from typing import Any

from mle_gym.families.mlbench.evidence import Evidence, check_trace, entry_point
from mle_gym.families.mlbench.schema import MLBenchExample
from mle_gym.sandbox.base import ExecResult, Sandbox, SandboxError
from mle_gym.sandbox.traced import Trace, run_traced

STATUSES = (
    "exit_0",
    "exit_nonzero",
    "timeout",
    "killed",
    "prefix_failed",
    "no_submission",
    "no_trace",
)
OUTPUT_TAIL_CHARS = 4000
_ARTIFACT_MARK = "@@mle_gym_artifact@@"


@dataclass(frozen=True)
class ExecutionOutcome:
    """How a submission's run ended (see the module docstring)."""

    status: str
    exit_code: int | None
    duration_s: float
    output: str  # head and tail of the combined stdout/stderr
    killed_reason: str | None = None
    artifacts_expected: tuple[str, ...] = ()
    artifacts_found: tuple[str, ...] = ()
    stdout_expected: str | None = None
    stdout_matched: bool | None = None
    command: str = ""
    traced: bool = False
    evidence: Evidence | None = None
    trace_error: str | None = None

    @property
    def evidence_ok(self) -> bool:
        """Untraced, or the trace shows the entry point ran (None entry: not checked)."""
        if not self.traced:
            return True
        if self.trace_error is not None:
            return False
        return self.evidence is None or self.evidence.ok

    @property
    def artifacts_ok(self) -> bool:
        """Every expected artifact exists and the expected output (if any) was printed."""
        files = set(self.artifacts_found) >= set(self.artifacts_expected)
        return files and self.stdout_matched is not False

    @property
    def expects_product(self) -> bool:
        """Whether the example names artifacts or an output to look for."""
        return bool(self.artifacts_expected) or self.stdout_expected is not None

    def passed(self, compat: str | None = None) -> bool:
        """Whether the run counts as successful (module docstring)."""
        if compat == "mlbench":
            if self.status in ("exit_0", "timeout"):
                return True
            return self.status == "exit_nonzero" and "KeyboardInterrupt" in self.output
        if self.status == "exit_0":
            return self.artifacts_ok and self.evidence_ok
        if self.status == "timeout":
            return self.expects_product and self.artifacts_ok and self.evidence_ok
        return False

    def to_dict(self, compat: str | None = None) -> dict[str, Any]:
        return {
            "status": self.status,
            "passed": self.passed(compat),
            "exit_code": self.exit_code,
            "duration_s": round(self.duration_s, 3),
            "still_running_at_timeout": self.status == "timeout",
            "killed_reason": self.killed_reason,
            "artifacts_expected": list(self.artifacts_expected),
            "artifacts_found": list(self.artifacts_found),
            "stdout_expected": self.stdout_expected,
            "stdout_matched": self.stdout_matched,
            "command": self.command,
            "traced": self.traced,
            "trace_error": self.trace_error,
            "evidence": self.evidence.to_dict() if self.evidence else None,
            "output_tail": self.output[-OUTPUT_TAIL_CHARS:],
        }


def task_dir(example: MLBenchExample, root: str = ".") -> str:
    """The example's task folder inside the sandbox (the repository is at ``root``,
    by default the sandbox's working directory)."""
    if example.path == ".":
        return root
    return example.path if root == "." else f"{root}/{example.path}"


def solution_command(example: MLBenchExample) -> str:
    """The command that runs the submission from the task folder."""
    return "python run.py" if example.is_python else "bash run.sh"


def _text(result: ExecResult) -> str:
    head = result.head.decode("utf-8", errors="replace")
    if not result.tail:
        return head
    tail = result.tail.decode("utf-8", errors="replace")
    return f"{head}\n[... output omitted ...]\n{tail}"


def _status(result: ExecResult) -> str:
    if result.timed_out:
        return "timeout"
    if result.oom_killed or result.cpu_limited or result.output_limited:
        return "killed"
    return "exit_0" if result.exit_code == 0 else "exit_nonzero"


def run_submission(
    sandbox: Sandbox,
    example: MLBenchExample,
    timeout_s: float,
    *,
    root: str = ".",
    prefix_timeout_s: float | None = None,
    traced: bool = False,
) -> ExecutionOutcome:
    """Run ``example``'s submission in ``sandbox`` and report.

    The repository is at ``root`` (default: the sandbox's working directory,
    ``/workspace``); commands run from the example's task folder under it.

    Never raises on what the submission does; a missing submission file gives the
    status ``no_submission``. ``traced``: run the solution under the exec tracer and
    check the trace (module docstring); a sandbox that cannot run a supervised command
    gives the status ``no_trace``.
    """
    cwd = task_dir(example, root)
    cd = f"cd {shlex.quote(cwd)}"
    sub = example.submission_file
    check = sandbox.exec(f"{cd} && test -f {shlex.quote(sub)}", 30)
    command = solution_command(example)
    if check.exit_code != 0:
        return ExecutionOutcome("no_submission", None, 0.0, "", command=command)
    if example.prefix_code.strip():
        pre = sandbox.exec(f"{cd} && {example.prefix_code}", prefix_timeout_s or timeout_s)
        if not pre.ok:
            return ExecutionOutcome(
                "prefix_failed",
                pre.exit_code,
                pre.duration_s,
                _text(pre),
                killed_reason=pre.killed_reason,
                command=example.prefix_code,
            )
    evidence: Evidence | None = None
    trace_error: str | None = None
    if traced:
        try:
            run = run_traced(sandbox, f"{cd} && {command}", timeout_s)
        except (SandboxError, ValueError, TypeError) as exc:
            message = f"the run could not be traced: {exc}"
            return ExecutionOutcome(
                "no_trace", None, 0.0, "", command=command, traced=True, trace_error=message
            )
        result, trace_error = run.result, run.error
        if run.trace is None:
            return ExecutionOutcome(
                "no_trace",
                result.exit_code,
                result.duration_s,
                _text(result)[-OUTPUT_TAIL_CHARS:],
                killed_reason=result.killed_reason,
                command=command,
                traced=True,
                trace_error=trace_error,
            )
        result = _traced_result(result, run.trace)
        output = run.trace.output
        entry = entry_point(example)
        if entry is not None:
            evidence = check_trace(run.trace, example, entry, _absolute(root))
    else:
        result = sandbox.exec(f"{cd} && {command}", timeout_s)
        output = _text(result)
    found: tuple[str, ...] = ()
    if example.artifacts:
        tests = "; ".join(
            f"test -e {shlex.quote(a)} && echo {_ARTIFACT_MARK}{shlex.quote(a)}"
            for a in example.artifacts
        )
        probe = sandbox.exec(f"{cd} && {{ {tests}; true; }}", 30)
        lines = _text(probe).splitlines()
        found = tuple(a for a in example.artifacts if f"{_ARTIFACT_MARK}{a}" in lines)
    matched = None
    if example.expected_stdout is not None:
        matched = re.search(example.expected_stdout, output, re.MULTILINE) is not None
    return ExecutionOutcome(
        _status(result),
        result.exit_code,
        result.duration_s,
        output,
        killed_reason=result.killed_reason,
        artifacts_expected=example.artifacts,
        artifacts_found=found,
        stdout_expected=example.expected_stdout,
        stdout_matched=matched,
        command=command,
        traced=traced,
        evidence=evidence,
        trace_error=trace_error,
    )


def _absolute(root: str) -> str:
    """``root`` (relative to the sandbox's ``/workspace``) as an absolute path."""
    if root.startswith("/"):
        return root.rstrip("/") or "/"
    return "/workspace" if root in (".", "") else f"/workspace/{root.strip('/')}"


def _traced_result(result: ExecResult, trace: Trace) -> ExecResult:
    """The exec's result with how the traced command itself ended (the tracer's view:
    its deadline, its output limit, the first process's status)."""
    sig = trace.signal
    return replace(
        result,
        exit_code=trace.exit_code if not trace.timed_out else None,
        timed_out=result.timed_out or trace.timed_out,
        output_limited=result.output_limited or trace.output_limited,
        cpu_limited=result.cpu_limited or sig == signal.SIGXCPU,
        signal=sig,
        output_bytes=trace.output_bytes,
    )
