"""The command server of a local sandbox: PID 1 of the episode's bubblewrap sandbox.

Standard library only. The host starts it once per episode as
``python -I -S /run/mle-gym/exec_server.py`` (this file, bound read-only into the
sandbox; after dropping to the sandbox uid), and
it runs every ``execute`` command of the episode, so a command costs a fork and
an exec instead of a new sandbox (namespaces, mounts, cgroup joins).

Protocol on fd 0, a unix stream socket shared with the host:

* server -> host, once: a frame ``{"ready": true}``;
* host -> server, per command: ``struct ">II"`` (JSON length, command length),
  the JSON ``{"cpu_time_s": int}``, then the command as bytes; the first byte
  carries (``SCM_RIGHTS``) the write end of a pipe that becomes the command's
  stdout and stderr;
* server -> host, per command: a frame ``{"returncode": int}`` (``128 + N`` when
  killed by signal N), sent only after every process the command started is
  gone — so the pipe is at end-of-file by then.

A frame is a 4-byte big-endian length and UTF-8 JSON. A command runs as
``/bin/sh -c <command>`` in a new session, stdin ``/dev/null``, with its own
``RLIMIT_CPU``. When it ends, the server kills every other process of the
sandbox (``kill(-1, SIGKILL)`` from PID 1 reaches every process of the pid
namespace but itself, atomically with respect to fork) and reaps them all, so
nothing the command started outlives it. ``SIGUSR1`` from the host (a timeout
or an output flood) does the same kill while the command still runs.

As PID 1 of its namespace the server cannot be killed or stopped from inside
the sandbox (the kernel drops every signal PID 1 has no handler for); it also
makes itself non-dumpable, so the agent (same uid) cannot ptrace it or read its
memory. Its one handler, ``SIGUSR1``, can be triggered by the agent too: that
only kills the agent's own processes, which ``kill -9 -1`` does anyway.

Nothing outlives the host process: when the host's end of the socket closes
(the host died), the server kills everything and exits, whether idle or waiting
for a command, and the kernel tears the namespace down; it also dies with bwrap
(parent-death signal).
"""

import contextlib
import json
import os
import resource
import select
import signal
import socket
import struct

NAME = b"mle-gym-exec"


def _harden():
    """Rename the process (what ``ps`` shows), forbid ptrace by the agent's uid, and die
    with bwrap (dropping privileges cleared the parent-death signal bwrap had set)."""
    with contextlib.suppress(OSError), open("/proc/self/comm", "wb") as f:
        f.write(NAME)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE = 4
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE) failed")
        if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:  # PR_SET_PDEATHSIG = 1
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    except Exception as exc:  # no ctypes in this runtime: still isolated, only less hardened
        os.write(2, f"mle-gym-exec: could not harden the server: {exc}\n".encode())


def _send(sock, obj):
    payload = json.dumps(obj).encode("utf-8")
    sock.sendall(struct.pack(">I", len(payload)) + payload)


def _recv_exact(sock, n):
    chunks = []
    while n > 0:
        chunk = sock.recv(min(n, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _recv_request(sock):
    """(request dict, command bytes, output fd) or None when the host has gone."""
    head, fds, _, _ = socket.recv_fds(sock, 8, 4)
    if not head:
        return None
    for extra in fds[1:]:
        os.close(extra)
    out_fd = fds[0] if fds else None
    if out_fd is not None:
        os.set_inheritable(out_fd, False)
    if len(head) < 8:
        rest = _recv_exact(sock, 8 - len(head))
        if rest is None:
            return None
        head += rest
    json_len, cmd_len = struct.unpack(">II", head)
    payload = _recv_exact(sock, json_len + cmd_len)
    if payload is None:
        return None
    request = json.loads(payload[:json_len].decode("utf-8"))
    return request, payload[json_len:], out_fd


def _kill_others(*_):
    """SIGKILL every process of the namespace but this one (handler of SIGUSR1 too)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(-1, signal.SIGKILL)


def _sweep():
    """Kill every other process of the namespace and reap them all (orphans are ours)."""
    _kill_others()
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _child(command, cpu_time_s, out_fd, devnull):
    """In the forked child: become the command; never returns."""
    try:
        os.setsid()
        os.dup2(devnull, 0)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGUSR1, signal.SIGINT, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        if cpu_time_s > 0:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_time_s, cpu_time_s + 2))
        os.execve("/bin/sh", [b"/bin/sh", b"-c", command], os.environ)
    except BaseException as exc:
        with contextlib.suppress(BaseException):
            os.write(2, f"mle-gym: cannot run the command: {exc}\n".encode())
    os._exit(127)


def _wait(pid, sock, wake):
    """The wait status of ``pid`` (None if it cannot be had), reaping orphans meanwhile.
    If the host goes away (its end of the socket closes), kill everything and exit:
    nothing may outlive the host process."""
    watched = [sock, wake]
    status = None
    while True:
        while True:
            try:
                reaped, st = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return status
            if reaped == 0:
                break
            if reaped == pid:
                status = st
        if status is not None:
            return status
        ready, _, _ = select.select(watched, [], [], 1.0)
        if wake in ready:
            with contextlib.suppress(BlockingIOError):
                while os.read(wake, 512):
                    pass
        if sock in ready:
            try:
                pending = sock.recv(1, socket.MSG_PEEK)
            except OSError:
                pending = b""
            if not pending:
                _kill_others()
                os._exit(0)
            watched.remove(sock)  # the host never writes while a command runs


def _run(request, command, out_fd, devnull, sock, wake):
    """Run one command to its end, sweep, and return its exit status."""
    if out_fd is None:
        out_fd = os.open("/dev/null", os.O_WRONLY | os.O_CLOEXEC)
    try:
        pid = os.fork()
    except OSError as exc:  # e.g. the process limit, reached by leftovers being reaped
        with contextlib.suppress(OSError):
            os.write(out_fd, f"mle-gym: cannot start the command: {exc}\n".encode())
        os.close(out_fd)
        _sweep()
        return 126
    if pid == 0:
        _child(command, int(request.get("cpu_time_s") or 0), out_fd, devnull)
    os.close(out_fd)
    status = _wait(pid, sock, wake)
    _sweep()
    if status is None:
        return 128 + signal.SIGKILL
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def main():
    sock = socket.socket(fileno=os.dup(0))
    devnull = os.open("/dev/null", os.O_RDWR | os.O_CLOEXEC)
    os.dup2(devnull, 0)
    _harden()
    signal.signal(signal.SIGUSR1, _kill_others)
    for sig in (signal.SIGPIPE, signal.SIGINT):  # Python's own handlers: none for PID 1
        signal.signal(sig, signal.SIG_IGN)
    wake, wake_w = os.pipe()
    os.set_blocking(wake, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)  # a child's end (SIGCHLD) wakes the wait loop
    signal.signal(signal.SIGCHLD, lambda *_: None)
    _send(sock, {"ready": True})
    while True:
        received = _recv_request(sock)
        if received is None:
            return
        request, command, out_fd = received
        _send(sock, {"returncode": _run(request, command, out_fd, devnull, sock, wake)})


if __name__ == "__main__":
    main()
