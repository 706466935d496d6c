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

The interpreter runs agent code, so the host trusts nothing it does, and one call
never takes longer than its timeout plus :data:`GRACE_S` (start-up included):

* it starts in isolated mode (``python -I``): neither ``/workspace`` (a ``json.py``,
  a ``sitecustomize.py``) nor ``$HOME``'s user site (``.pth`` files) nor ``PYTHON*``
  variables reach the server's own imports; the server adds the working directory to
  ``sys.path`` for user code afterwards;
* every write to it and every read from it has the call's deadline, so an interpreter
  that stops reading its input, is stopped (SIGSTOP), ignores the interrupt or never
  answers is killed at the deadline and reported;
* its replies are untrusted: a frame over :data:`MAX_FRAME` bytes, one that is not the
  expected JSON object, or one answering another request kills it with a
  "protocol error" report instead of failing the host.

After any such kill the next call starts a fresh interpreter and says so.
"""

from __future__ import annotations

import json
import math
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mle_gym.sandbox.base import Sandbox, SandboxError, SpawnedProcess

SERVER_SOURCE = (Path(__file__).with_name("repl_server.py")).read_text(encoding="utf-8")
#: what the host writes to the interpreter's stdin first: the server's source
SERVER_PAYLOAD = SERVER_SOURCE.encode("utf-8")
#: the interpreter's command line: isolated mode (see the module docstring) and a short
#: loader running :data:`SERVER_PAYLOAD` (the source stays out of argv: ``ps`` shows this)
SERVER_ARGV = [
    "python",
    "-I",
    "-c",
    f"import sys;exec(sys.stdin.buffer.read({len(SERVER_PAYLOAD)}))#mle-gym repl_server",
]
START_TIMEOUT_S = 60.0
GRACE_S = 5.0
#: the largest reply frame accepted; an honest reply stays far below (its texts are capped)
MAX_FRAME = 4 * 2**20
_STATUSES = ("ok", "error", "interrupted")


class KernelDied(Exception):
    """The interpreter process ended while starting or running a cell."""


class ProtocolError(KernelDied):
    """The interpreter sent something that is not a well-formed reply."""


class StuckError(KernelDied):
    """The interpreter did not take its input or answer before the deadline."""


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


def _field(reply: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    """``reply[name]`` if it has type ``kind`` (None allowed for optional texts)."""
    value = reply.get(name, default)
    if value is None and default is None:
        return None
    if kind is int and isinstance(value, bool):
        raise ProtocolError(f"protocol error: '{name}' is not a number")
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind):
        raise ProtocolError(f"protocol error: '{name}' is not a {kind.__name__}")
    return value


class PythonKernel:
    """One persistent interpreter per episode (see module docstring)."""

    def __init__(self, sandbox: Sandbox, memory_mb: int) -> None:
        self.sandbox = sandbox
        self.memory_mb = memory_mb
        self._proc: SpawnedProcess | None = None
        self._death: str | None = None
        self._buffer = bytearray()
        self._seq = 0
        self.pid: int | None = None
        self.starts = 0
        self._oom_baseline: int | None = None

    @property
    def alive(self) -> bool:
        return self._proc is not None

    def _read_exact(self, n: int, deadline: float) -> bytes:
        assert self._proc is not None
        while len(self._buffer) < n:
            try:
                chunk = self._proc.read(max(n - len(self._buffer), 65536), deadline)
            except TimeoutError:
                raise StuckError("no answer before the deadline") from None
            if not chunk:
                raise KernelDied("the interpreter closed its output")
            self._buffer += chunk
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data

    def _read_frame(self, deadline: float) -> dict[str, Any]:
        """One reply: a JSON object of at most MAX_FRAME bytes, else ProtocolError."""
        (length,) = struct.unpack(">I", self._read_exact(4, deadline))
        if length > MAX_FRAME:
            raise ProtocolError(
                f"protocol error: a reply frame of {length:,} bytes (the limit is {MAX_FRAME:,})"
            )
        payload = self._read_exact(length, deadline)
        try:
            value = json.loads(payload.decode("utf-8"))
        except (ValueError, RecursionError):
            raise ProtocolError("protocol error: a reply that is not valid JSON") from None
        if not isinstance(value, dict):
            raise ProtocolError("protocol error: a reply that is not a JSON object")
        return value

    def _send(self, obj: dict[str, Any], deadline: float) -> None:
        assert self._proc is not None
        payload = json.dumps(obj).encode("utf-8")
        try:
            self._proc.write(struct.pack(">I", len(payload)) + payload, deadline)
        except TimeoutError:
            raise StuckError("it stopped reading its input") from None

    def _start(self, deadline: float) -> None:
        self._buffer = bytearray()
        self._proc = self.sandbox.spawn(list(SERVER_ARGV))
        self.starts += 1
        try:
            # The loader reads exactly the source; nothing else is sent before the greeting.
            self._proc.write(SERVER_PAYLOAD, min(deadline, time.monotonic() + START_TIMEOUT_S))
            hello = self._read_frame(min(deadline, time.monotonic() + START_TIMEOUT_S))
            pid = _field(hello, "pid", int, 0)
            if hello.get("ready") is not True:
                raise ProtocolError("protocol error: no 'ready' greeting")
        except StuckError:
            self._kill()
            raise KernelDied("the Python interpreter did not start in time; killed") from None
        except (KernelDied, OSError) as exc:
            self._kill()
            raise KernelDied(f"the Python interpreter failed to start ({exc})") from None
        self.pid = pid or None

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
            return "the interpreter stopped responding; killed"
        if status > 128:
            return f"killed by signal {status - 128}"
        return f"exited with status {status}"

    def _died(self, reason: str, restarted: bool, previous: str | None, **kw: Any) -> CellResult:
        self._kill()
        self._death = reason
        self._oom_baseline = None
        return CellResult(
            status="died", died_reason=reason, restarted=restarted, previous_death=previous, **kw
        )

    def run(self, code: str, timeout_s: float) -> CellResult:
        """Run one cell; never raises on user code or interpreter behaviour, and returns
        within ``timeout_s`` + :data:`GRACE_S` (start-up of a fresh interpreter included)."""
        started = time.monotonic()
        deadline = started + timeout_s + GRACE_S
        restarted = False
        previous = None
        if self._proc is None:
            previous = self._death
            restarted = self.starts > 0
            try:
                self._start(deadline)
            except (KernelDied, SandboxError) as exc:
                self._death = str(exc)
                return CellResult(
                    status="died",
                    died_reason=str(exc),
                    restarted=restarted,
                    previous_death=previous,
                    duration_s=time.monotonic() - started,
                )
        if self.sandbox.oom_counter_cheap or self._oom_baseline is None:
            self._oom_baseline = self.sandbox.oom_kills()
        ooms_before = self._oom_baseline
        cell_timeout = max(0.1, deadline - GRACE_S - time.monotonic())
        self._seq += 1
        try:
            self._send({"code": code, "timeout": cell_timeout, "seq": self._seq}, deadline)
            reply = self._read_frame(deadline)
            if reply.get("seq") != self._seq:
                raise ProtocolError("protocol error: a reply to another request")
            result = self._cell_result(reply, restarted, previous)
        except StuckError as exc:
            if "input" in str(exc):
                reason = "it stopped reading its input (stopped or hung); killed"
            else:
                reason = (
                    f"did not stop within {GRACE_S:g} s of the {timeout_s:g} s timeout "
                    "(it ignored the interrupt, was stopped or hung); killed"
                )
            return self._died(reason, restarted, previous, duration_s=time.monotonic() - started)
        except ProtocolError as exc:
            return self._died(
                f"{exc}; killed", restarted, previous, duration_s=time.monotonic() - started
            )
        except SandboxError as exc:  # e.g. the sandbox is frozen or closed
            return self._died(f"the sandbox refused the call ({exc})", restarted, previous)
        except (KernelDied, OSError, ValueError):
            time.sleep(0.05)  # let the exit status and OOM counter settle
            reason = self._death_reason(ooms_before)
            return self._died(reason, restarted, previous)
        return result

    def _cell_result(self, reply: dict[str, Any], restarted: bool, prev: str | None) -> CellResult:
        """The CellResult of a reply whose fields all have their documented types."""
        status = _field(reply, "status", str, "error")
        if status not in _STATUSES:
            raise ProtocolError(f"protocol error: unknown status {status[:40]!r}")
        output_bytes = _field(reply, "output_bytes", int, 0)
        duration = _field(reply, "duration_s", float, 0.0)
        if output_bytes < 0 or not math.isfinite(duration):
            raise ProtocolError("protocol error: a negative size or a non-finite duration")
        return CellResult(
            status=status,
            head=_field(reply, "head", str, ""),
            tail=_field(reply, "tail", str, ""),
            output_bytes=output_bytes,
            output_limited=_field(reply, "output_limited", bool, False),
            result=_field(reply, "result", str, None),
            traceback=_field(reply, "traceback", str, None),
            duration_s=duration,
            restarted=restarted,
            previous_death=prev,
        )

    def close(self) -> None:
        """Stop the interpreter (idempotent)."""
        self._kill()
