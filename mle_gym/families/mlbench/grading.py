"""The verdict on one ML-Bench submission: argument check + execution check.

A submission passes when every required argument value is in it, its type is right
(:mod:`mle_gym.families.mlbench.argcheck`) and its run succeeds
(:mod:`mle_gym.families.mlbench.execution`). The reward is that pass as 1/0; the report keeps
the parts, and a partial credit (half for the share of argument values found, half
for a successful run) for those who want a denser signal.

By default the run is traced and must show the repository's entry point executing
with the instructed values (:mod:`mle_gym.families.mlbench.evidence`): an ``exit 0`` next to
touched artifact files, or a command line that is commented out or never reached,
does not pass. ``compat="mlbench"`` switches both checks to ML-Bench's original rules
(substring argument test, timeout counts as success, no trace) so results can be
compared with published numbers; the report says which rules were used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mle_gym.families.mlbench.argcheck import ArgumentCheck, check_arguments, on_argv
from mle_gym.families.mlbench.execution import ExecutionOutcome, run_submission
from mle_gym.families.mlbench.schema import MLBenchExample
from mle_gym.sandbox.base import Sandbox

COMPAT_MODES = (None, "mlbench")


def check_compat(compat: str | None) -> str | None:
    """Validate the ``compat`` flag."""
    if compat not in COMPAT_MODES:
        raise ValueError(f"compat must be None or 'mlbench', got {compat!r}")
    return compat


@dataclass(frozen=True)
class MLBenchGrade:
    """Both checks of one submission and the verdict."""

    example_id: int
    repo: str
    kind: str
    arguments: ArgumentCheck
    execution: ExecutionOutcome | None
    compat: str | None = None
    submission: str | None = None
    modified_code: tuple[str, ...] = ()
    data_source: str | None = None

    @property
    def valid(self) -> bool:
        """A submission file was handed in (the env's notion of a valid submission)."""
        return not self.arguments.missing_text

    @property
    def score(self) -> float:
        """1.0 if the submission passed, else 0.0."""
        return 1.0 if self.passed else 0.0

    @property
    def execution_passed(self) -> bool:
        if self.modified_code:
            return False
        return self.execution is not None and self.execution.passed(self.compat)

    @property
    def passed(self) -> bool:
        """Arguments found, type right, and the run succeeded."""
        return self.arguments.passed and self.arguments.type_ok and self.execution_passed

    @property
    def partial_credit(self) -> float:
        """0.5 x share of argument values found + 0.5 x (run succeeded)."""
        return 0.5 * self.arguments.fraction_found + 0.5 * float(self.execution_passed)

    @property
    def failure(self) -> str | None:
        """The first reason the submission failed, or None if it passed."""
        if self.arguments.missing_text:
            return "no submission file"
        if not self.arguments.passed:
            ex = self.execution
            why = ""
            if ex is not None and ex.traced and not ex.evidence_ok:
                why = ex.trace_error or (ex.evidence.reason if ex.evidence else "")
            return (
                "argument check failed: missing "
                + ", ".join(f"{a.name}={a.value}" for a in self.arguments.arguments if not a.found)
                + (f" ({why})" if why else "")
            )
        if not self.arguments.type_ok:
            return f"type check failed: {self.arguments.type_message}"
        if self.modified_code:
            return (
                "execution failed: the run modified the repository's code ("
                + ", ".join(self.modified_code[:5])
                + ")"
            )
        if not self.execution_passed:
            ex = self.execution
            if ex is None:
                return "not executed"
            if ex.status == "no_trace":
                return f"execution failed: no trace of the run ({ex.trace_error})"
            if ex.status in ("exit_0", "timeout") and not ex.evidence_ok:
                why = ex.trace_error or (ex.evidence.reason if ex.evidence else "no evidence")
                return f"execution failed: {why}"
            if ex.status == "timeout":
                return "execution failed: still running at the timeout"
            if ex.status in ("exit_0", "timeout") and not ex.artifacts_ok:
                return "execution failed: expected artifacts/output not produced"
            return f"execution failed: {ex.status}" + (
                f" (exit code {ex.exit_code})" if ex.exit_code is not None else ""
            )
        return None

    def to_dict(self) -> dict[str, Any]:
        """The report stored in ``info["grade"]``."""
        return {
            "benchmark": "ML-Bench",
            "example_id": self.example_id,
            "repo": self.repo,
            "type": self.kind,
            "passed": self.passed,
            "score": 1.0 if self.passed else 0.0,
            "partial_credit": round(self.partial_credit, 6),
            "compat": self.compat,
            "argument_check": self.arguments.to_dict(),
            "execution": self.execution.to_dict(self.compat) if self.execution else None,
            "still_running_at_timeout": bool(
                self.execution is not None and self.execution.status == "timeout"
            ),
            "modified_code": list(self.modified_code),
            "valid": self.valid,
            "submission_exists": self.valid,
            "data_source": self.data_source,
            "message": self.failure or "passed",
            "submission": self.submission,
        }


def grade(
    example: MLBenchExample,
    submission: str | None,
    sandbox: Sandbox | None,
    timeout_s: float,
    *,
    compat: str | None = None,
    root: str = ".",
    traced: bool | None = None,
) -> MLBenchGrade:
    """Grade ``submission`` (the text of run.sh/run.py, None if absent) for ``example``.

    The run happens in ``sandbox``, whose ``root`` holds the repository with the
    submission file in the task folder; ``sandbox=None`` skips it (text checks only,
    the ML-LLM-Bench setting without execution). ``traced`` (default: True unless
    ``compat="mlbench"``) runs it under the exec tracer and requires the trace to show
    the repository's entry point running with the instructed values
    (:mod:`mle_gym.families.mlbench.evidence`).
    """
    check_compat(compat)
    args = check_arguments(submission, example.arguments, example.type, compat=compat)
    execution = None
    if sandbox is not None and submission is not None:
        if traced is None:
            traced = compat is None
        execution = run_submission(sandbox, example, timeout_s, root=root, traced=traced)
        if execution.evidence is not None:
            args = on_argv(args, execution.evidence.found)
        elif execution.traced and execution.status == "no_trace":
            args = on_argv(args, None)
    return MLBenchGrade(
        example_id=example.id,
        repo=example.repo_name,
        kind=example.type,
        arguments=args,
        execution=execution,
        compat=compat,
        submission=submission,
    )
