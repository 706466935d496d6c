"""Timed runs an agent cannot shorten or forge (MLAgentBench timing tasks).

:func:`timed_run` starts the guard (:mod:`.guard_program`, stdlib only, passed as
``python -I -S -c <source>`` because the mle_gym package is hidden in the sandbox)
as a spawned process of an evaluation sandbox, writes a fresh random HMAC key and the
run's spec to its stdin — a channel only the host and the guard share — and reads its
one signed result line.

What the host then trusts, and why the agent cannot forge it:

* the elapsed time: measured by the guard from the start (or the ``go`` line of a
  handshake) until the command's WHOLE process tree has exited; the guard is a child
  subreaper, so detached (double-forked, ``setsid``) descendants are still its children
  and keep the clock running; a guard that was stopped and resumed (it catches
  SIGCONT) says so, and such a run does not count;
* the output files: hashed by the guard at the moment the clock stopped, when no
  process of the run is left; the host reads them afterwards with
  :func:`read_checked`, which refuses a file whose hash differs (a process that
  survived the run rewrote it) — the run does not count;
* the line itself: signed with HMAC-SHA256 under the per-run key, which only ever
  lived in the host and in the (non-dumpable) guard; the command's stdout and stderr
  go to a pipe the guard reads and reports inside the signed JSON. A missing line (the
  guard was killed, or stopped past the deadline) or a bad signature: the run does not
  count (:class:`TimingFailed`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mle_gym.families.mlagentbench.evaluation import EvaluationFailed
from mle_gym.sandbox.base import WORKSPACE, Sandbox

PREFIX = "MLE-GYM-GUARD"
GUARD_SOURCE = (Path(__file__).with_name("guard_program.py")).read_text()
#: The host waits this long beyond the run's own timeouts before it gives up on the guard.
GRACE_S = 30.0
MAX_GUARD_OUTPUT = 4 * 2**20
NOT_FINISHED = "the timing harness did not finish"


class TimingFailed(EvaluationFailed):
    """The timed run does not count; str() says why (shown to the agent)."""


@dataclass(frozen=True)
class TimedRun:
    """The guard's verified report of one run.

    ``seconds``: start (or ``go``) until the last process of the tree exited;
    ``exit_code``: the command's (negative: killed by that signal; None: unknown);
    ``hashes``: sandbox path -> {"sha256", "size"} at clock stop, or None if absent;
    ``protocol``: lines the command wrote on its protocol pipe (handshake runs);
    ``output``: head and tail of its stdout+stderr.
    """

    seconds: float
    exit_code: int | None
    timed_out: bool
    ready: bool
    hashes: dict[str, dict[str, Any] | None]
    protocol: list[str] = field(default_factory=list)
    output: str = ""
    output_bytes: int = 0

    @property
    def ok(self) -> bool:
        """The command ran to its end with exit status 0 within the timeout."""
        return self.ready and not self.timed_out and self.exit_code == 0


def sign(key: bytes, payload: str) -> str:
    """The signature the guard puts on ``payload``."""
    return hmac.new(key, payload.encode(), hashlib.sha256).hexdigest()


def parse_report(output: str, key: bytes) -> dict[str, Any]:
    """The JSON report of the guard's signed line in ``output``.

    Raises :class:`TimingFailed` if no line carries a valid signature under ``key``
    (lines with a wrong signature are forgeries and never believed).
    """
    forged = 0
    for line in output.splitlines():
        if not line.startswith(PREFIX + " "):
            continue
        parts = line.split(" ", 2)
        if len(parts) != 3:
            forged += 1
            continue
        _, signature, payload = parts
        if not hmac.compare_digest(signature, sign(key, payload)):
            forged += 1
            continue
        try:
            report = json.loads(payload)
        except ValueError:
            break
        if isinstance(report, dict):
            return report
        break
    if forged:
        raise TimingFailed(
            f"{NOT_FINISHED}: {forged} result line(s) without a valid signature were "
            "rejected; the run does not count"
        )
    raise TimingFailed(
        f"{NOT_FINISHED} (it was killed, or stopped past the deadline); the run does not count"
    )


def timed_run(
    sandbox: Sandbox,
    argv: list[str],
    *,
    timeout_s: float,
    outputs: Sequence[str] = (),
    cwd: str = WORKSPACE,
    go: str | None = None,
    ready_timeout_s: float = 120.0,
    cpu_time_s: int | None = None,
) -> TimedRun:
    """Run ``argv`` in ``sandbox`` under the guard and return its verified report.

    ``outputs``: absolute sandbox paths hashed when the clock stops. With ``go``, the
    command gets a protocol pipe (``{protocol_fd}`` in ``argv`` is replaced by its fd
    number): the guard waits for a ``ready`` line on it (at most ``ready_timeout_s``),
    then starts the clock and writes ``go`` to the command's stdin. Raises
    :class:`TimingFailed` when the guard's report is missing or not authentic, or the
    guard itself failed.
    """
    key = secrets.token_bytes(32)
    spec = {
        "argv": list(argv),
        "cwd": cwd,
        "timeout_s": float(timeout_s),
        "outputs": list(outputs),
        "go": go,
        "ready_timeout_s": float(ready_timeout_s),
        "cpu_time_s": cpu_time_s if cpu_time_s is not None else sandbox.limits.cpu_time_s,
    }
    proc = sandbox.spawn(["python", "-I", "-S", "-c", GUARD_SOURCE])
    chunks: list[bytes] = []
    try:
        proc.write(key.hex().encode() + b"\n" + json.dumps(spec).encode() + b"\n")
        deadline = time.monotonic() + (ready_timeout_s if go else 0.0) + timeout_s + GRACE_S
        size = 0
        while size < MAX_GUARD_OUTPUT:
            try:
                chunk = proc.read(65536, deadline)
            except TimeoutError:
                break
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except (BrokenPipeError, OSError):
        pass
    finally:
        proc.kill()
    report = parse_report(b"".join(chunks).decode("utf-8", "replace"), key)
    if report.get("error"):
        raise TimingFailed(f"{NOT_FINISHED}: {report['error']}")
    if report.get("stopped"):
        raise TimingFailed(
            "the timing harness was stopped (SIGSTOP/SIGCONT) by a process of the run; "
            "the run does not count"
        )
    return TimedRun(
        seconds=float(report["seconds"]),
        exit_code=report.get("exit_code"),
        timed_out=bool(report.get("timed_out")),
        ready=bool(report.get("ready")),
        hashes=dict(report.get("hashes") or {}),
        protocol=list(report.get("protocol") or []),
        output=str(report.get("output", "")),
        output_bytes=int(report.get("output_bytes", 0)),
    )


def read_checked(run: TimedRun, folder: Path, sandbox_path: str, max_bytes: int) -> bytes | None:
    """The bytes of the output ``sandbox_path`` (under ``folder``, the host side of
    /workspace), exactly as the guard hashed them when the clock stopped.

    Every component is opened relative to its parent's fd without following links.
    None if the file was absent then and is absent now. Raises :class:`TimingFailed`
    if it was changed, created or removed after the clock stopped, and
    :class:`EvaluationFailed` if it is larger than ``max_bytes``.
    """
    if sandbox_path not in run.hashes:
        raise ValueError(f"{sandbox_path} was not hashed by the guard")
    expected = run.hashes[sandbox_path]
    rel = os.path.relpath(sandbox_path, WORKSPACE)
    if rel.startswith(".."):
        raise ValueError(f"{sandbox_path} is not under {WORKSPACE}")
    data = _read_nofollow(folder, rel, max_bytes)
    if data is None and expected is None:
        return None
    if data is not None and len(data) > max_bytes:
        raise EvaluationFailed(f"{rel} is larger than {max_bytes:,} bytes")
    found = None if data is None else hashlib.sha256(data).hexdigest()
    if expected is None or found != expected.get("sha256"):
        raise TimingFailed(
            f"{rel} changed after the clock stopped (a process that outlived the timed run "
            "rewrote it); the run does not count"
        )
    return data


def _read_nofollow(folder: Path, rel: str, max_bytes: int) -> bytes | None:
    """Up to ``max_bytes + 1`` bytes of the regular file ``folder/rel``; None if a
    component is missing, a link or not of the right type."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    try:
        fd = os.open(folder, flags | os.O_DIRECTORY)
    except OSError:
        return None
    try:
        for name in parts[:-1]:
            try:
                nxt = os.open(name, flags | os.O_DIRECTORY, dir_fd=fd)
            except OSError:
                return None
            os.close(fd)
            fd = nxt
        try:
            leaf = os.open(parts[-1], flags | os.O_NONBLOCK, dir_fd=fd)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(leaf).st_mode):
                return None
            out = bytearray()
            while len(out) <= max_bytes:
                chunk = os.read(leaf, min(1 << 20, max_bytes + 1 - len(out)))
                if not chunk:
                    break
                out += chunk
            return bytes(out)
        finally:
            os.close(leaf)
    finally:
        os.close(fd)
