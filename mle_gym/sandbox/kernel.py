"""The persistent Python interpreter of an episode, seen from the host.

:class:`PythonKernel` starts :mod:`mle_gym.sandbox.repl_server` inside the
episode's sandbox (``sandbox.spawn``: same mounts, uid, network isolation and
memory/process limits as ``execute``) on first use, and runs cells in it.
Variables, imports and loaded data persist between cells.

* A cell past its timeout is interrupted (KeyboardInterrupt; state kept). If
  the interpreter does not come back within a grace period it is killed.
* If the interpreter dies (memory limit, killed, crashed), the cell is
  reported with the reason, and the next cell starts a fresh interpreter and
  says so.
"""

from __future__ import annotations

import json
import struct
import time
from dataclasses import dataclass
from pathlib import Path

from mle_gym.sandbox.base import Sandbox, SpawnedProcess

SERVER_SOURCE = (Path(__file__).with_name("repl_server.py")).read_text(encoding="utf-8")
START_TIMEOUT_S = 60.0
GRACE_S = 5.0
MAX_FRAME = 16 * 2**20


class KernelDied(Exception):
    """The interpreter process ended while starting or running a cell."""


@dataclass(frozen=True)
class CellResult:
    """Outcome of one cell.

    ``status``: "ok", "error" (exception in the cell), "interrupted" (timeout, or
    ``output_limited``: its output passed the limit; state kept), or "died" (the
    interpreter is gone; ``died_reason`` says why).
    ``restarted``: a fresh interpreter was started for this cell after a death.
    """

    status: str
    head: str = ""
    tail: str = ""
    output_bytes: int = 0
    result: str | None = None
    traceback: str | None = None
    duration_s: float = 0.0
    restarted: bool = False
    previous_death: str | None = None
    died_reason: str | None = None
    output_limited: bool = False


class PythonKernel:
    """One persistent interpreter per episode (see module docstring)."""

    def __init__(self, sandbox: Sandbox, memory_mb: int) -> None:
        self.sandbox = sandbox
        self.memory_mb = memory_mb
        self._proc: SpawnedProcess | None = None
        self._death: str | None = None
        self._buffer = b""
        self.pid: int | None = None
        self.starts = 0
        self._oom_baseline: int | None = None

    @property
    def alive(self) -> bool:
        return self._proc is not None

    def _read_exact(self, n: int, deadline: float) -> bytes:
        assert self._proc is not None
        while len(self._buffer) < n:
            chunk = self._proc.read(max(n - len(self._buffer), 65536), deadline)
            if not chunk:
                raise KernelDied("the interpreter closed its output")
            self._buffer += chunk
        data, self._buffer = self._buffer[:n], self._buffer[n:]
        return data

    def _read_frame(self, deadline: float) -> dict:
        (length,) = struct.unpack(">I", self._read_exact(4, deadline))
        if length > MAX_FRAME:
            raise KernelDied(f"protocol error: frame of {length} bytes")
        return json.loads(self._read_exact(length, deadline).decode("utf-8"))

    def _send(self, obj: dict) -> None:
        assert self._proc is not None
        payload = json.dumps(obj).encode("utf-8")
        self._proc.write(struct.pack(">I", len(payload)) + payload)

    def _start(self) -> None:
        self._buffer = b""
        self._proc = self.sandbox.spawn(["python", "-c", SERVER_SOURCE])
        self.starts += 1
        try:
            hello = self._read_frame(time.monotonic() + START_TIMEOUT_S)
        except (KernelDied, TimeoutError, OSError) as exc:
            self._kill()
            raise KernelDied(f"the Python interpreter failed to start ({exc})") from None
        self.pid = int(hello.get("pid", 0)) or None

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
        self._proc = None
        self.pid = None

    def _death_reason(self, ooms_before: int | None) -> str:
        after = self.sandbox.oom_kills()
        if ooms_before is not None and after is not None and after > ooms_before:
            return f"killed by the memory limit ({self.memory_mb:,} MB)"
        status = self._proc.exit_status() if self._proc is not None else None
        if status is None:
            return "the interpreter stopped responding"
        if status > 128:
            return f"killed by signal {status - 128}"
        return f"exited with status {status}"

    def run(self, code: str, timeout_s: float) -> CellResult:
        """Run one cell; never raises on user code or interpreter death."""
        restarted = False
        previous = None
        if self._proc is None:
            previous = self._death
            restarted = self.starts > 0
            try:
                self._start()
            except KernelDied as exc:
                self._death = str(exc)
                return CellResult(
                    status="died",
                    died_reason=str(exc),
                    restarted=restarted,
                    previous_death=previous,
                )
        if self.sandbox.oom_counter_cheap or self._oom_baseline is None:
            self._oom_baseline = self.sandbox.oom_kills()
        ooms_before = self._oom_baseline
        deadline = time.monotonic() + timeout_s + GRACE_S
        try:
            self._send({"code": code, "timeout": timeout_s})
            reply = self._read_frame(deadline)
        except TimeoutError:
            reason = f"did not stop within {GRACE_S:g} s of the {timeout_s:g} s timeout; killed"
            self._kill()
            self._death = reason
            return CellResult(
                status="died",
                died_reason=reason,
                restarted=restarted,
                previous_death=previous,
                duration_s=timeout_s + GRACE_S,
            )
        except (KernelDied, OSError, ValueError):
            time.sleep(0.05)  # let the exit status and OOM counter settle
            reason = self._death_reason(ooms_before)
            self._kill()
            self._death = reason
            self._oom_baseline = None
            return CellResult(
                status="died", died_reason=reason, restarted=restarted, previous_death=previous
            )
        return CellResult(
            status=str(reply.get("status", "error")),
            head=str(reply.get("head", "")),
            tail=str(reply.get("tail", "")),
            output_bytes=int(reply.get("output_bytes", 0)),
            output_limited=bool(reply.get("output_limited", False)),
            result=reply.get("result"),
            traceback=reply.get("traceback"),
            duration_s=float(reply.get("duration_s", 0.0)),
            restarted=restarted,
            previous_death=previous,
        )

    def close(self) -> None:
        """Stop the interpreter (idempotent)."""
        self._kill()
