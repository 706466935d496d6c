"""The timing guard: runs INSIDE an evaluation sandbox (stdlib only; see guard.py).

The host starts it as ``python -I -S -c <this source>`` and writes two lines to its
stdin: a per-run HMAC key (hex) and a JSON spec. The guard reads both, then detaches
its stdin (the key is never inherited and never on a command line), becomes
non-dumpable (no /proc/<pid>/mem, fd or ptrace access for processes of the same uid)
and a child subreaper (every orphaned descendant is reparented to it), and starts
``spec["argv"]``.

The clock starts when the command starts (or, with a handshake, when the guard sends
the ``go`` line after the command printed ``ready`` on its protocol pipe) and stops
only when the command's WHOLE process tree has exited: ``waitpid(-1, __WALL)`` until
no child is left, which — with the subreaper — includes double-forked, ``setsid`` and
``CLONE_PARENT`` descendants; if the guard was stopped and resumed meanwhile (it
catches SIGCONT) the report says so. At that moment the output files named by
``spec["outputs"]`` are hashed (no process of the tree is left to change them). Past
the timeout, every descendant is killed (repeatedly, from /proc's parent links).

The guard prints one line: ``MLE-GYM-GUARD <hmac-sha256 hex> <json>``; the JSON holds
the elapsed seconds, the exit status, the hashes, the protocol lines and the head/tail
of the command's output. Only a holder of the key can produce a line the host accepts.
"""

import contextlib
import ctypes
import hashlib
import hmac
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import threading
import time

PREFIX = "MLE-GYM-GUARD"
WALL = 0x40000000  # __WALL: also wait for children with a non-SIGCHLD exit signal
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
MAX_SPEC_BYTES = 1 << 20
KEEP_BYTES = 16 * 1024
MAX_PROTOCOL_LINES = 64
#: Signals the command's processes (same uid) may send the guard: caught and ignored.
IGNORED_SIGNALS = (
    signal.SIGTERM,
    signal.SIGINT,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
)


def read_private_input():
    """(key, spec) from the first two lines of stdin; stdin is then /dev/null."""
    buf = b""
    while buf.count(b"\n") < 2 and len(buf) < MAX_SPEC_BYTES:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        buf += chunk
    lines = buf.split(b"\n")
    if len(lines) < 3:
        raise SystemExit("guard: no key and spec on stdin")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    return bytes.fromhex(lines[0].decode()), json.loads(lines[1])


class Capture:
    """Reads a pipe to its end, keeping the first and last KEEP_BYTES bytes."""

    def __init__(self, fd):
        self.fd = fd
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.total += len(chunk)
            room = KEEP_BYTES - len(self.head)
            if room > 0:
                self.head += chunk[:room]
                chunk = chunk[room:]
            self.tail += chunk
            if len(self.tail) > 2 * KEEP_BYTES:
                del self.tail[: len(self.tail) - KEEP_BYTES]

    def text(self):
        tail = bytes(self.tail[-KEEP_BYTES:])
        skipped = self.total - len(self.head) - len(tail)
        middle = f"\n[... {skipped} bytes omitted ...]\n".encode() if skipped > 0 else b""
        return (bytes(self.head) + middle + tail).decode("utf-8", "replace")


class Protocol:
    """Reads the command's protocol pipe: lines such as ``ready`` and ``done``."""

    def __init__(self, fd):
        self.fd = fd
        self.lines = []
        self.ready = threading.Event()
        self.ended = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        buf = b""
        try:
            while True:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    text = line.decode("utf-8", "replace").strip()[:200]
                    if len(self.lines) < MAX_PROTOCOL_LINES:
                        self.lines.append(text)
                    if text == "ready":
                        self.ready.set()
                buf = buf[-4096:]
        finally:
            self.ended.set()


def descendants(root):
    """Pids whose chain of parents leads to ``root`` (from /proc)."""
    parent = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            parent[int(name)] = int(fields[1])
    found = []
    for pid in parent:
        seen = 0
        ancestor = parent.get(pid)
        while ancestor is not None and seen < 4096:
            if ancestor == root:
                found.append(pid)
                break
            ancestor = parent.get(ancestor)
            seen += 1
    return found


class Killer:
    """Kills every descendant once ``kill_now()`` is called or the deadline passes, again
    and again until ``stop()`` (the main thread saw the last one exit)."""

    def __init__(self):
        self.deadline = None
        self.fired = threading.Event()
        self.stopped = threading.Event()
        self.timed_out = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def arm(self, deadline):
        self.deadline = deadline

    def kill_now(self):
        self.fired.set()

    def stop(self):
        self.stopped.set()
        self.fired.set()

    def run(self):
        while not self.fired.wait(0.05):
            deadline = self.deadline
            if deadline is not None and time.monotonic() >= deadline:
                self.timed_out = True
                break
        if self.stopped.is_set():
            return
        me = os.getpid()
        while not self.stopped.is_set():
            for pid in descendants(me):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            self.stopped.wait(0.02)


def reap_all(main_pid):
    """Wait until no child is left; the main command's wait status (or None)."""
    status = None
    while True:
        try:
            pid, code = os.waitpid(-1, WALL)
        except ChildProcessError:
            return status
        if pid == main_pid:
            status = code


def file_hash(path):
    """{"sha256", "size"} of a regular file (not followed if a link), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        digest = hashlib.sha256()
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            digest.update(chunk)
            size += len(chunk)
        return {"sha256": digest.hexdigest(), "size": size}
    finally:
        os.close(fd)


def run(spec):
    """Run the command of ``spec`` under the guard; the report (a dict)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        return {"error": "the guard cannot make itself non-dumpable"}
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        return {"error": "the guard cannot become a child subreaper"}
    for sig in IGNORED_SIGNALS:
        signal.signal(sig, lambda *_: None)  # caught, so reset to default in the command
    stopped_by = []  # SIGCONT arrives when someone resumed the guard after stopping it
    signal.signal(signal.SIGCONT, lambda *_: stopped_by.append(1))
    cpu = spec.get("cpu_time_s")
    if cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu), int(cpu) + 2))
    handshake = spec.get("go")
    cap_r, cap_w = os.pipe()
    proto_r = proto_w = None
    argv = list(spec["argv"])
    if handshake is not None:
        proto_r, proto_w = os.pipe()
        argv = [a.replace("{protocol_fd}", str(proto_w)) for a in argv]
    killer = Killer()
    report = {"ready": handshake is None, "timed_out": False}
    started = time.perf_counter()
    try:
        proc = subprocess.Popen(
            argv,
            cwd=spec.get("cwd") or None,
            stdin=subprocess.PIPE if handshake is not None else subprocess.DEVNULL,
            stdout=cap_w,
            stderr=cap_w,
            close_fds=True,
            pass_fds=(proto_w,) if proto_w is not None else (),
        )
    except OSError as exc:
        killer.stop()
        return {"error": f"cannot start the command: {exc}"}
    finally:
        os.close(cap_w)
        if proto_w is not None:
            os.close(proto_w)
    capture = Capture(cap_r)
    protocol = Protocol(proto_r) if proto_r is not None else None
    if protocol is not None:
        deadline = time.monotonic() + float(spec.get("ready_timeout_s", 120))
        while not protocol.ready.is_set() and time.monotonic() < deadline:
            if protocol.ended.wait(0.05) and not protocol.ready.is_set():
                break
        if protocol.ready.is_set():
            report["ready"] = True
            started = time.perf_counter()
            with contextlib.suppress(OSError):
                os.write(proc.stdin.fileno(), handshake.encode())
        else:
            killer.kill_now()
        with contextlib.suppress(OSError):
            proc.stdin.close()
    killer.arm(time.monotonic() + float(spec["timeout_s"]))
    status = reap_all(proc.pid)
    stopped = time.perf_counter()
    killer.stop()
    report["seconds"] = stopped - started
    report["timed_out"] = killer.timed_out
    report["stopped"] = bool(stopped_by)
    report["hashes"] = {path: file_hash(path) for path in spec.get("outputs", [])}
    report["exit_code"] = None if status is None else os.waitstatus_to_exitcode(status)
    capture.thread.join(2.0)
    report["output"] = capture.text()
    report["output_bytes"] = capture.total
    if protocol is not None:
        protocol.thread.join(2.0)
        report["protocol"] = list(protocol.lines)
    return report


def main():
    key, spec = read_private_input()
    try:
        report = run(spec)
    except Exception as exc:  # reported, signed, rather than a silent traceback
        report = {"error": f"guard failure: {type(exc).__name__}: {exc}"}
    payload = json.dumps(report, ensure_ascii=True, sort_keys=True)
    signature = hmac.new(key, payload.encode(), hashlib.sha256).hexdigest()
    sys.stdout.write(f"{PREFIX} {signature} {payload}\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
