"""The docker backend's exec transport (:mod:`mle_gym.sandbox.docker`): starting an exec
over a connection of our own, reading docker's multiplexed stream, and the long-lived
interpreter process with stdin attached."""

from __future__ import annotations

import contextlib
import logging
import socket
import struct
import time
from typing import TYPE_CHECKING, Any

from mle_gym.sandbox.base import SandboxError, SpawnedProcess

if TYPE_CHECKING:
    from mle_gym.sandbox.docker import DockerSandbox

log = logging.getLogger("mle_gym.sandbox.docker")


def _hijacked_exec_start(client: Any, exec_id: str) -> tuple[socket.socket, bytes] | None:
    """Start an exec over a connection we own: (socket, bytes already received), or None
    for transports other than a unix socket or plain TCP.

    docker-py's ``exec_start(socket=True)`` hands back the socket *behind* the HTTP
    layer's read buffer, so stream bytes that arrived with the response headers are
    lost (seen over TCP). Here the upgrade request is written and its response read by
    hand, and whatever follows the headers is kept.
    """
    api = client.api
    adapter = getattr(api, "_custom_adapter", None)
    path = getattr(adapter, "socket_path", None)
    if path:
        sock = socket.socket(socket.AF_UNIX)
        sock.settimeout(30)
        sock.connect(path)
        host = "docker"
    elif api.base_url.startswith("http://"):
        hostport = api.base_url[len("http://") :].rstrip("/")
        name, _, port = hostport.rpartition(":")
        sock = socket.create_connection((name or hostport, int(port or 2375)), timeout=30)
        host = hostport
    else:
        return None
    body = b'{"Detach": false, "Tty": false}'
    request = (
        f"POST /v{api._version}/exec/{exec_id}/start HTTP/1.1\r\nHost: {host}\r\n"
        "Content-Type: application/json\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            sock.close()
            raise SandboxError("the Docker engine closed the connection while starting a command")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0].decode(errors="replace")
    if " 101 " not in status and " 200 " not in status:
        sock.close()
        raise SandboxError(f"the Docker engine refused to start a command: {status}")
    return sock, rest


class _ExecStream:
    """Reads docker's multiplexed exec/attach stream (8-byte frame headers) from a socket."""

    def __init__(self, sock: Any, pending: bytes = b"") -> None:
        self.raw: socket.socket = getattr(sock, "_sock", sock)
        self._buf = bytearray(pending)
        self._pos = 0

    def _fill(self, n: int, deadline: float) -> bool:
        """Make ``n`` unread bytes available; False at end of stream."""
        while len(self._buf) - self._pos < n:
            if self._pos > (1 << 20):
                del self._buf[: self._pos]
                self._pos = 0
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            self.raw.settimeout(min(remaining, 1.0))
            try:
                chunk = self.raw.recv(1 << 18)
            except TimeoutError:
                continue
            except OSError:
                return False
            if not chunk:
                return False
            self._buf += chunk
        return True

    def frame(self, deadline: float) -> tuple[int, bytes] | None:
        """Next (stream id, payload), or None at end of stream."""
        if not self._fill(8, deadline):
            return None
        p = self._pos
        stream = self._buf[p]
        (size,) = struct.unpack_from(">I", self._buf, p + 4)
        if not self._fill(8 + size, deadline):
            return None
        p = self._pos
        payload = bytes(self._buf[p + 8 : p + 8 + size])
        self._pos = p + 8 + size
        return stream, payload

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.raw.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.raw.close()


class DockerProcess(SpawnedProcess):
    """A long-lived exec (the Python interpreter) with stdin attached."""

    def __init__(self, sandbox: DockerSandbox, exec_id: str, stream: _ExecStream) -> None:
        self.sandbox = sandbox
        self.exec_id = exec_id
        self.stream = stream
        self._pending = b""
        self._eof = False
        self.sid: int | None = None

    def write(self, data: bytes, deadline: float | None = None) -> None:
        self.sandbox._check_not_frozen()
        if self._eof:
            raise BrokenPipeError("the process has ended")
        remaining = 30.0 if deadline is None else deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the process did not read its input before the deadline")
        self.stream.raw.settimeout(remaining)  # sendall: the total time for all the data
        self.stream.raw.sendall(data)

    def read(self, n: int, deadline: float) -> bytes:
        while not self._pending:
            if self._eof:
                return b""
            frame = self.stream.frame(deadline)
            if frame is None:
                self._eof = True
                return b""
            kind, payload = frame
            if kind == 1:
                self._pending += payload
            else:
                log.debug("interpreter stderr: %r", payload[:500])
        data, self._pending = self._pending[:n], self._pending[n:]
        return data

    def kill(self) -> None:
        if self.sid and not self.sandbox.closed:
            self.sandbox._kill_session(self.sid)
            if self.sandbox._kernel_sid == self.sid:
                self.sandbox._kernel_sid = 0
        self.sid = None
        self._eof = True
        self.stream.close()

    def exit_status(self) -> int | None:
        try:
            info = self.sandbox.client.api.exec_inspect(self.exec_id)
        except Exception:
            return None
        if info.get("Running"):
            return None
        return info.get("ExitCode")
