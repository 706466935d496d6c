"""The host side of a local sandbox's command server (:mod:`mle_gym.sandbox.exec_server`).

:class:`ExecServer` starts one long-lived sandbox (the argv prefix built by the
local backend, ending with the server's interpreter) and runs commands through
it. For each command it creates a pipe, hands the write end to the server and
reads the output itself, keeping the first and last bytes; the server answers
with the exit status once every process of the command is gone.

* A wall timeout or the output cap asks the server (``SIGUSR1``, through a pidfd
  so a recycled pid is never signalled) to kill everything the command started;
  the sandbox survives (its ``/tmp`` too). If the server does not answer within
  a grace period, the whole sandbox is killed and ``alive`` becomes False: the
  owner starts a new one for the next command.
* The server's replies are untrusted (the agent shares its uid): they are size
  bounded and malformed ones count as the server's death.
* ``kill()`` kills the sandbox's whole process tree and waits until its PID 1 is
  gone, so the namespace is empty when it returns.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import selectors
import signal
import socket
import struct
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mle_gym.sandbox import spawner
from mle_gym.sandbox.process import OutputCapture, ProcessOutcome, kill_group, read_chunk

START_TIMEOUT_S = 60.0
GRACE_S = 5.0
MAX_REPLY = 4096


class ServerDied(Exception):
    """The command server is gone (or misbehaved); the sandbox must be restarted."""


@dataclass(frozen=True)
class CommandOutcome(ProcessOutcome):
    """How one command ended; ``returncode`` is None if we killed it (timeout, output cap)
    or the server died while it ran (``server_died``)."""

    server_died: bool = False


class ExecServer:
    """One running local sandbox with its command server (see module docstring).

    ``argv_for(info_fd)`` returns the host command line starting the sandbox; it must
    make bwrap write its info JSON (``--info-fd``: the host pid of the sandbox's PID 1)
    to ``info_fd``. ``log_path`` receives the sandbox's stderr; ``env`` is the
    environment of the host-side launcher.
    """

    def __init__(
        self, argv_for: Callable[[int], list[str]], *, log_path: Path, env: dict[str, str]
    ) -> None:
        self.log_path = log_path
        self.alive = True
        self._pid1: int | None = None
        self._pidfd: int | None = None
        self._ready = False
        host_end, server_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        info_r, info_w = os.pipe()
        self._sock = host_end
        self._info_r = info_r
        try:
            with open(log_path, "ab") as log:
                self.proc = spawner.popen(
                    argv_for(info_w),
                    stdin=server_end.fileno(),
                    stdout=subprocess.DEVNULL,
                    stderr=log,
                    pass_fds=(info_w,),
                    start_new_session=True,
                    close_fds=True,
                    env=env,
                )
        except BaseException:
            host_end.close()
            os.close(info_r)
            raise
        finally:
            server_end.close()
            os.close(info_w)

    # -- start-up ----------------------------------------------------------------------------

    def _read_info(self, deadline: float) -> None:
        """Learn the host pid of the sandbox's PID 1 from bwrap's info JSON."""
        data = b""
        fd = self._info_r
        while len(data) <= 65536:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ServerDied("the sandbox did not report its process id in time")
            ready, _, _ = select.select([fd], [], [], min(remaining, 1.0))
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
        os.close(fd)
        self._info_r = -1
        try:
            pid = int(json.loads(data.decode())["child-pid"])
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            raise ServerDied("the sandbox did not start") from None
        self._pid1 = pid
        with contextlib.suppress(OSError, AttributeError):
            self._pidfd = os.pidfd_open(pid)

    def wait_ready(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Block until the server has said hello; raise ServerDied if it cannot start."""
        if self._ready:
            return
        deadline = time.monotonic() + timeout_s
        try:
            if self._info_r >= 0:
                self._read_info(deadline)
            hello = self._read_frame(deadline)
            if hello.get("ready") is not True:
                raise ServerDied(f"unexpected greeting from the command server: {hello!r}")
        except (ServerDied, TimeoutError) as exc:
            self.kill()
            reason = str(exc) or "the command server did not start in time"
            raise ServerDied(f"{reason}; {self._log_tail()}") from None
        self._ready = True

    def _log_tail(self) -> str:
        try:
            text = self.log_path.read_bytes()[-2000:].decode(errors="replace").strip()
        except OSError:
            text = ""
        return f"sandbox log: {text}" if text else "the sandbox printed nothing"

    # -- frames ------------------------------------------------------------------------------

    def _recv_exact(self, n: int, deadline: float) -> bytes:
        """``n`` bytes from the server; TimeoutError past ``deadline``."""
        data = b""
        while len(data) < n:
            if not self.alive:
                raise ServerDied("the sandbox was killed")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            try:
                self._sock.settimeout(min(remaining, 1.0))
                chunk = self._sock.recv(n - len(data))
            except TimeoutError:
                continue
            except OSError as exc:
                raise ServerDied(f"lost the command server ({exc})") from None
            if not chunk:
                raise ServerDied("the command server exited")
            data += chunk
        return data

    def _read_frame(self, deadline: float) -> dict[str, Any]:
        """One reply frame (bounded, validated); TimeoutError past ``deadline``."""
        (length,) = struct.unpack(">I", self._recv_exact(4, deadline))
        if length > MAX_REPLY:
            raise ServerDied(f"protocol error: a reply of {length} bytes")
        try:
            reply = json.loads(self._recv_exact(length, deadline).decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ServerDied(f"protocol error: {exc}") from None
        if not isinstance(reply, dict):
            raise ServerDied("protocol error: a reply that is not an object")
        return reply

    # -- running -----------------------------------------------------------------------------

    def _interrupt(self) -> None:
        """Ask the server to kill everything the running command started."""
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGUSR1)
        elif self._pid1 is not None and self.proc.poll() is None:
            with contextlib.suppress(OSError):
                os.kill(self._pid1, signal.SIGUSR1)

    def run(
        self, command: bytes, *, cpu_time_s: int, timeout_s: float, max_output_bytes: int
    ) -> CommandOutcome:
        """Run one command. Raises ServerDied only if the command could not be handed over
        (nothing ran); a death while it runs is reported in the outcome."""
        self.wait_ready()
        start = time.monotonic()
        meta = json.dumps({"cpu_time_s": int(cpu_time_s)}).encode()
        message = struct.pack(">II", len(meta), len(command)) + meta + command
        read_end, write_end = os.pipe()
        try:
            try:
                self._sock.settimeout(30)
                sent = socket.send_fds(self._sock, [message], [write_end])
                if sent < len(message):
                    self._sock.sendall(message[sent:])
            except OSError as exc:
                self.kill()
                raise ServerDied(f"cannot reach the command server ({exc})") from None
            finally:
                os.close(write_end)
            state = _Run(self, start + max(timeout_s, 0.0), max_output_bytes)
            state.collect(read_end)
        finally:
            os.close(read_end)
        returncode = state.wait_reply()
        head, tail = state.capture.result()
        killed = state.timed_out or state.output_limited
        return CommandOutcome(
            returncode=None if killed else returncode,
            head=head,
            tail=tail,
            total=state.capture.total,
            duration_s=time.monotonic() - start,
            timed_out=state.timed_out,
            output_limited=state.output_limited,
            server_died=returncode is None and not killed,
        )

    # -- shutdown ----------------------------------------------------------------------------

    def kill(self) -> None:
        """Kill the sandbox and wait until its PID 1 (hence every process in it) is gone."""
        self.alive = False
        if self._pidfd is not None:
            # Kill PID 1 itself: its namespace dies with it, and bwrap (its parent, still
            # alive) reaps it and exits, so no zombie is left to the host's init.
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            # Readable once PID 1 has exited, which it does only after every other
            # process of its namespace is gone.
            select.select([self._pidfd], [], [], 10.0)
            os.close(self._pidfd)
            self._pidfd = None
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=10.0)
        if self.proc.poll() is None:
            kill_group(self.proc.pid)
        self.proc.wait()
        with contextlib.suppress(OSError):
            self._sock.close()
        if self._info_r >= 0:
            os.close(self._info_r)
            self._info_r = -1


class _Run:
    """The host's view of one running command: output capture and deadlines."""

    def __init__(self, server: ExecServer, deadline: float, max_output_bytes: int) -> None:
        self.server = server
        self.deadline = deadline
        self.max_output_bytes = max_output_bytes
        self.capture = OutputCapture()
        self.timed_out = False
        self.output_limited = False

    @property
    def interrupted(self) -> bool:
        return self.timed_out or self.output_limited

    def _expire(self) -> bool:
        """The current deadline has passed: interrupt the command (False) or, if that
        was already done, kill the sandbox (True: give up)."""
        if self.interrupted:
            self.server.kill()
            return True
        self.timed_out = True
        self.server._interrupt()
        self.deadline = time.monotonic() + GRACE_S
        return False

    def collect(self, fd: int) -> None:
        """Read the output to end-of-file (output past the cap, or after an
        interruption, is drained and dropped)."""
        os.set_blocking(fd, False)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                chunk = read_chunk(sel, fd, self.deadline)
                if chunk is None:
                    if self._expire():
                        return
                    continue
                if not chunk:
                    return
                if self.interrupted:
                    continue
                self.capture.feed(chunk)
                if self.capture.total > self.max_output_bytes:
                    self.output_limited = True
                    self.server._interrupt()
                    self.deadline = time.monotonic() + GRACE_S

    def wait_reply(self) -> int | None:
        """The command's exit status from the server, or None if the server died (the
        sandbox is then killed). The command may still run after closing its output."""
        while self.server.alive:
            try:
                reply = self.server._read_frame(self.deadline)
            except TimeoutError:
                if self._expire():
                    return None
                continue
            except ServerDied:
                self.server.kill()
                return None
            code = reply.get("returncode")
            if isinstance(code, int) and not isinstance(code, bool):
                return code
            self.server.kill()
            return None
        return None
