"""Run a command in a sandbox under the exec tracer and read back its trace.

:func:`run_traced` runs ``command`` through the sandbox's *supervisor exec* (root with
only the ptrace/setuid capabilities, the command itself dropped to the sandbox uid)
with :mod:`mle_gym.sandbox.exectrace` as the supervisor. The tracer's source is passed
with ``python3 -I -c`` (nothing from the workspace is imported, and no file of this
package needs to exist inside the sandbox); it holds the only handle on the command's
output, so a line of the exec's output that starts with the tracer's mark is the
tracer's and the command cannot forge it. :func:`parse_trace` reads that line back.

A trace is *complete* when the line is there, parses, belongs to this run (nonce) and
no record was dropped; anything else gives a :class:`TracedRun` whose ``error`` says
what is missing, and a grader must not count the run.
"""

from __future__ import annotations

import base64
import json
import secrets
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from mle_gym.sandbox.base import ExecResult, Sandbox

MARK = "@@mle_gym_exectrace@@"
GRACE_S = 20.0  # time the tracer gets after its own deadline to kill the tree and report


@dataclass(frozen=True)
class ExecRecord:
    """One ``execve`` seen by the tracer (see :mod:`mle_gym.sandbox.exectrace`)."""

    seq: int
    pid: int
    ppid: int
    argv: tuple[str, ...]
    cwd: str | None
    exe: str | None
    env: dict[str, str] = field(default_factory=dict, compare=False)
    argv_truncated: bool = False

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> ExecRecord:
        return cls(
            seq=int(raw["seq"]),
            pid=int(raw["pid"]),
            ppid=int(raw.get("ppid") or 0),
            argv=tuple(str(a) for a in raw["argv"]),
            cwd=raw.get("cwd"),
            exe=raw.get("exe"),
            env={str(k): str(v) for k, v in (raw.get("env") or {}).items()},
            argv_truncated=bool(raw.get("argv_truncated")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "pid": self.pid,
            "ppid": self.ppid,
            "argv": list(self.argv),
            "cwd": self.cwd,
            "exe": self.exe,
            "env": dict(self.env),
        }


@dataclass(frozen=True)
class Trace:
    """The tracer's report: every exec, how the first process ended, the output."""

    records: tuple[ExecRecord, ...]
    #: record seq -> (exit code, signal, replaced by another exec); absent: still running
    exits: dict[int, tuple[int | None, int | None, bool]]
    exit_code: int | None
    signal: int | None
    timed_out: bool
    output_limited: bool
    output_bytes: int
    records_dropped: int
    leftovers_killed: int
    output: str


@dataclass(frozen=True)
class TracedRun:
    """The exec's result, and the trace (None with ``error`` set when it is missing)."""

    result: ExecResult
    trace: Trace | None
    error: str | None


@cache
def tracer_source() -> str:
    """The text of the tracer program."""
    return (Path(__file__).with_name("exectrace.py")).read_text(encoding="utf-8")


def tracer_argv(deadline_s: float, nonce: str, max_output_bytes: int) -> list[str]:
    """The supervisor argv (ends with the ``--`` after which the sandbox appends the
    dropped command)."""
    return [
        "python3", "-I", "-c", tracer_source(),
        "--deadline", f"{deadline_s:.3f}",
        "--max-output", str(max_output_bytes),
        "--nonce", nonce,
        "--",
    ]  # fmt: skip


def _full_output(result: ExecResult) -> bytes | None:
    if result.output_bytes > len(result.head) + len(result.tail):
        return None
    return result.head + result.tail


def parse_trace(result: ExecResult, nonce: str) -> tuple[Trace | None, str | None]:
    """(trace, None) or (None, why it is missing) from the output of a traced exec."""
    data = _full_output(result)
    if data is None:
        return None, "the tracer's report was cut (its output exceeded the capture)"
    # The command's own output never reaches this stream (the tracer holds its pipe), so
    # a line starting with the mark is the tracer's; the sandbox may add lines after it.
    at = data.rfind(b"\n" + MARK.encode() + b" ")
    start = at + 1 if at >= 0 else (0 if data.startswith(MARK.encode() + b" ") else -1)
    last = data[start:].split(b"\n", 1)[0].decode("utf-8", "replace") if start >= 0 else ""
    if not last.startswith(MARK + " "):
        said = data[-300:].decode("utf-8", "replace").strip()
        return None, (
            "no trace: the tracer did not report (killed, or failed to start)"
            + f" (exit status {result.exit_code}, {result.killed_reason or 'not killed'})"
            + (f"; its output ends with: {said}" if said else "")
        )
    try:
        payload = json.loads(last[len(MARK) + 1 :])
        end = payload["end"]
        records = tuple(ExecRecord.from_dict(r) for r in payload["records"])
        exits = {
            int(seq): (e.get("exit_code"), e.get("signal"), bool(e.get("replaced")))
            for seq, e in (payload.get("exits") or {}).items()
        }
        output = base64.b64decode(payload["output_head"]) + (
            b"\n[... output omitted ...]\n" + base64.b64decode(payload["output_tail"])
            if payload["output_tail"]
            else b""
        )
    except (ValueError, KeyError, TypeError) as exc:
        return None, f"the trace does not parse: {exc}"
    if payload.get("nonce") != nonce:
        return None, "the trace belongs to another run"
    trace = Trace(
        records=records,
        exits=exits,
        exit_code=end.get("exit_code"),
        signal=end.get("signal"),
        timed_out=bool(end.get("timed_out")),
        output_limited=bool(end.get("output_limited")),
        output_bytes=int(end.get("output_bytes") or 0),
        records_dropped=int(end.get("records_dropped") or 0),
        leftovers_killed=int(end.get("leftovers_killed") or 0),
        output=output.decode("utf-8", "replace"),
    )
    if trace.records_dropped:
        return trace, f"the trace is incomplete: {trace.records_dropped} exec records dropped"
    return trace, None


def run_traced(sandbox: Sandbox, command: str, timeout_s: float) -> TracedRun:
    """Run ``command`` (a shell command, from ``/workspace``) under the tracer."""
    nonce = secrets.token_hex(8)
    argv = tracer_argv(timeout_s, nonce, sandbox.limits.max_output_bytes)
    result = sandbox.exec(command, timeout_s + GRACE_S, supervisor=argv)
    trace, error = parse_trace(result, nonce)
    return TracedRun(result, trace, error)
