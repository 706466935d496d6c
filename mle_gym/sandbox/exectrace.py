"""exectrace: run one command under ptrace and report every program it executed.

A stand-alone, stdlib-only program: it runs inside a sandbox (where only the Python
standard library can be assumed) as the sandbox's *supervisor* — uid 0 with
CAP_SYS_PTRACE/CAP_SETUID/CAP_SETGID — and starts the command through a given argv that
drops it to the sandbox's uid (e.g. ``setpriv --reuid=1000 ... -- /bin/sh -c CMD``).
Nothing the command starts can then signal, stop, read or write the tracer.

Usage::

    python3 -I exectrace.py [--deadline S] [--max-output N] [--keep-output N] \
        [--nonce STR] -- CHILD_ARGV...

The child's stdin is ``/dev/null``; its stdout and stderr go to a pipe only the tracer
reads (a head and a tail of ``--keep-output`` bytes each are kept). Every process of the
command is traced (``PTRACE_O_TRACEFORK|TRACEVFORK|TRACECLONE``; ``PTRACE_O_EXITKILL``
kills them all if the tracer dies). At each ``execve`` — before the new program runs a
single instruction — the tracer records: pid, parent pid, argv
(``/proc/<pid>/cmdline``), working directory, the executable (``/proc/<pid>/exe``: the
kernel's resolved path, so neither a link nor a shebang disguises it), and the
variables of the new environment that change how an interpreter starts (``PYTHON*``,
``LD_*``, ``BASH_FUNC_*``, ``BASH_ENV``, ``ENV``...) plus every other variable whose
value differs from the tracer's own environment. When the first process ends, every
process left is killed; at the deadline or the output limit, all of them are.

stdout gets exactly one line, written once no traced process is left::

    @@mle_gym_exectrace@@ <payload JSON>

payload: ``{"version", "nonce", "records": [...], "exits": {...}, "end": {...},
"output_head", "output_tail"}`` (outputs in base64); each record has a ``seq`` (its
index) and ``exits`` maps a record's seq to how that program ended: ``exit_code`` or
``signal``, or ``replaced`` when its process executed another program (keyed by record,
not pid, so a reused pid cannot lend its ending to another program).
``end``: ``exit_code`` and ``signal`` of the first process, ``timed_out``,
``output_limited``, ``output_bytes``, ``leftovers_killed``, ``records_dropped``
(records beyond the size budget), ``duration_s``. The command's own
output never reaches the tracer's stdout, so the command cannot print a trace line; a
missing or unparsable last line means the trace is missing (tracer killed, out of
memory...). The line stays under ``LINE_BUDGET`` bytes so a caller keeping the first
and last 64 KiB of the output always has it whole.

Exit status: the first process's (128 + the signal that ended it), or 3 on bad usage
(a message on stderr).
"""

from __future__ import annotations

import base64
import ctypes
import json
import os
import signal
import sys
import threading
import time
from typing import Any

MARK = "@@mle_gym_exectrace@@"
VERSION = 1
MAX_ARGV_BYTES = 8192
MAX_RECORDS = 4096
MAX_ENV_VALUE = 1024
RECORD_BUDGET = 56 << 10  # bytes of records JSON; the line stays under LINE_BUDGET
LINE_BUDGET = 100 << 10
STARTUP_ENV_PREFIXES = ("PYTHON", "LD_", "BASH_FUNC_")
STARTUP_ENV_NAMES = frozenset({"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "GCONV_PATH"})
SHELL_NOISE = frozenset({"PWD", "OLDPWD", "SHLVL", "_"})  # set by every shell

PTRACE_TRACEME = 0
PTRACE_CONT = 7
PTRACE_SETOPTIONS = 0x4200
PTRACE_GETEVENTMSG = 0x4201
PTRACE_O_TRACEFORK = 0x2
PTRACE_O_TRACEVFORK = 0x4
PTRACE_O_TRACECLONE = 0x8
PTRACE_O_TRACEEXEC = 0x10
PTRACE_O_EXITKILL = 0x100000
EVENT_FORK, EVENT_VFORK, EVENT_CLONE, EVENT_EXEC = 1, 2, 3, 4
WALL = 0x40000000
ENDING_GRACE_S = 0.25
STOP_SIGNALS = frozenset({signal.SIGSTOP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU})

_libc = ctypes.CDLL(None, use_errno=True)
_libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
_libc.ptrace.restype = ctypes.c_long


class TraceError(Exception):
    """Bad configuration or a failed start."""


def _ptrace(request: int, pid: int, addr: int = 0, data: int = 0) -> int:
    ctypes.set_errno(0)
    out = _libc.ptrace(request, pid, ctypes.c_void_p(addr), ctypes.c_void_p(data))
    err = ctypes.get_errno()
    if out == -1 and err:
        raise OSError(err, f"ptrace({request}, {pid}): {os.strerror(err)}")
    return int(out)


def _event_msg(pid: int) -> int:
    value = ctypes.c_ulong(0)
    ctypes.set_errno(0)
    out = _libc.ptrace(PTRACE_GETEVENTMSG, pid, None, ctypes.byref(value))
    if out == -1:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return int(value.value)


def _read_proc(pid: int, name: str, limit: int) -> bytes:
    try:
        fd = os.open(f"/proc/{pid}/{name}", os.O_RDONLY)
    except OSError:
        return b""
    try:
        return os.read(fd, limit)
    except OSError:
        return b""
    finally:
        os.close(fd)


class _IOVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


_libc.process_vm_readv.argtypes = [
    ctypes.c_int,
    ctypes.POINTER(_IOVec),
    ctypes.c_ulong,
    ctypes.POINTER(_IOVec),
    ctypes.c_ulong,
    ctypes.c_ulong,
]
_libc.process_vm_readv.restype = ctypes.c_ssize_t


def _read_environ(pid: int, limit: int = 1 << 20) -> bytes:
    """The initial environment block of ``pid``, read from its memory.

    ``/proc/<pid>/environ`` is mode 0400 of the traced uid, which a root without
    CAP_DAC_OVERRIDE cannot open; its bounds (``/proc/<pid>/stat`` fields 50-51) and
    ``process_vm_readv`` need only the ptrace right the tracer has."""
    stat = _read_proc(pid, "stat", 4096)
    fields = stat[stat.rfind(b")") + 2 :].split()
    try:
        start, end = int(fields[47]), int(fields[48])
    except (IndexError, ValueError):
        return b""
    size = max(0, min(end - start, limit))
    if not size:
        return b""
    buf = ctypes.create_string_buffer(size)
    local = _IOVec(ctypes.cast(buf, ctypes.c_void_p), size)
    remote = _IOVec(ctypes.c_void_p(start), size)
    got = _libc.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
    return buf.raw[: max(0, got)]


def _readlink(pid: int, name: str) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/{name}")
    except OSError:
        return None


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape").encode("utf-8", "backslashreplace").decode()


def parse_args(argv: list[str]) -> dict[str, Any]:
    """The options and the child argv (module docstring); TraceError if malformed."""
    if "--" not in argv:
        raise TraceError("usage: exectrace.py [options] -- CHILD_ARGV...")
    cut = argv.index("--")
    opts, child = argv[:cut], argv[cut + 1 :]
    if not child:
        raise TraceError("no child argv after --")
    cfg: dict[str, Any] = {
        "argv": child,
        "deadline_s": 3600.0,
        "max_output_bytes": 64 << 20,
        "keep_output_bytes": 12 << 10,
        "nonce": "",
    }
    names = {
        "--deadline": ("deadline_s", float),
        "--max-output": ("max_output_bytes", int),
        "--keep-output": ("keep_output_bytes", int),
        "--nonce": ("nonce", str),
    }
    if len(opts) % 2:
        raise TraceError(f"options come in pairs, got {opts}")
    for name, value in zip(opts[::2], opts[1::2], strict=True):
        if name not in names:
            raise TraceError(f"unknown option {name}; known: {sorted(names)}")
        key, kind = names[name]
        try:
            cfg[key] = kind(value)
        except ValueError:
            raise TraceError(f"{name}: bad value {value!r}") from None
    if not (cfg["deadline_s"] > 0 and cfg["max_output_bytes"] > 0):
        raise TraceError("--deadline and --max-output must be positive")
    cfg["keep_output_bytes"] = max(0, min(cfg["keep_output_bytes"], 12 << 10))
    return cfg


def _ending(status: int) -> dict[str, int | None]:
    """``{"exit_code", "signal"}`` of a wait status."""
    if os.WIFEXITED(status):
        return {"exit_code": os.WEXITSTATUS(status), "signal": None}
    return {"exit_code": None, "signal": os.WTERMSIG(status)}


class _Output:
    """Drain the command's output pipe, keeping a head and a tail."""

    def __init__(self, fd: int, keep: int, limit: int, on_limit: Any) -> None:
        self.fd, self.keep, self.limit, self.on_limit = fd, keep, limit, on_limit
        self.head = bytearray()
        self.tail = bytearray()
        self.lock = threading.Lock()
        self.total = 0
        self.limited = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            with self.lock:
                self.total += len(chunk)
                room = self.keep - len(self.head)
                if room > 0:
                    self.head += chunk[:room]
                    chunk = chunk[room:]
                if chunk:
                    self.tail += chunk
                    del self.tail[: max(0, len(self.tail) - self.keep)]
            if self.total > self.limit and not self.limited:
                self.limited = True
                self.on_limit()
        os.close(self.fd)


class Tracer:
    """Trace one command (module docstring)."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.base_env = dict(os.environ)
        self.record_bytes = 0
        self.records: list[dict[str, Any]] = []
        self.dropped = 0
        self.parent: dict[int, int] = {}
        self.current: dict[int, int] = {}  # pid -> seq of its exec record, while it lives
        self.exits: dict[str, dict[str, Any]] = {}  # seq -> how that program ended
        self.alive: set[int] = set()
        self.lock = threading.RLock()
        self.finishing = False
        self.timed_out = False
        self.main_pid = 0

    # -- the child -----------------------------------------------------------------------
    def _child(self, out_w: int) -> None:  # never returns
        try:
            null = os.open("/dev/null", os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(out_w, 1)
            os.dup2(out_w, 2)
            os.closerange(3, 65536)
            _ptrace(PTRACE_TRACEME, 0)
            os.kill(os.getpid(), signal.SIGSTOP)
            os.execvpe(self.cfg["argv"][0], self.cfg["argv"], self.base_env)
        except BaseException as exc:
            try:
                os.write(2, f"exectrace: cannot start the command: {exc}\n".encode())
            finally:
                os._exit(127)

    # -- records ---------------------------------------------------------------------------
    def _env_subset(self, pid: int) -> dict[str, str]:
        raw = _read_environ(pid)
        out: dict[str, str] = {}
        for item in raw.split(b"\0"):
            if b"=" not in item:
                continue
            k_raw, _, v_raw = item.partition(b"=")
            k, v = _decode(k_raw), _decode(v_raw)
            if (
                k.startswith(STARTUP_ENV_PREFIXES)
                or k in STARTUP_ENV_NAMES
                or (self.base_env.get(k) != v and k not in SHELL_NOISE)
            ):
                out[k] = v[:MAX_ENV_VALUE]
        return out

    def _ended(self, pid: int, ending: dict[str, Any]) -> None:
        """The program ``pid`` runs ended (exit, signal, or replaced by another exec)."""
        seq = self.current.pop(pid, None)
        if seq is not None:
            self.exits[str(seq)] = ending

    def _record_exec(self, pid: int) -> None:
        self._ended(pid, {"exit_code": None, "signal": None, "replaced": True})
        raw = _read_proc(pid, "cmdline", MAX_ARGV_BYTES + 1)
        truncated = len(raw) > MAX_ARGV_BYTES
        argv = [_decode(a) for a in raw[:MAX_ARGV_BYTES].split(b"\0")]
        if argv and argv[-1] == "":
            argv.pop()
        record = {
            "kind": "exec",
            "seq": len(self.records),
            "pid": pid,
            "ppid": self.parent.get(pid, 0),
            "argv": argv,
            "argv_truncated": truncated,
            "cwd": _readlink(pid, "cwd"),
            "exe": _readlink(pid, "exe"),
            "env": self._env_subset(pid),
            "t": round(time.monotonic() - self.start, 4),
        }
        size = len(json.dumps(record))
        if len(self.records) < MAX_RECORDS and self.record_bytes + size <= RECORD_BUDGET:
            self.current[pid] = len(self.records)
            self.records.append(record)
            self.record_bytes += size
        else:
            self.dropped += 1

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> None:
        """Trace the command; never returns (the process exits after reporting)."""
        out_r, out_w = os.pipe()
        self.start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.close(out_r)
            self._child(out_w)
        os.close(out_w)
        self.main_pid = pid
        self.output = _Output(
            out_r,
            self.cfg["keep_output_bytes"],
            self.cfg["max_output_bytes"],
            lambda: self.finish(None),
        )
        _, status = os.waitpid(pid, WALL)
        if not os.WIFSTOPPED(status):  # failed before stopping itself
            self.finish(status)
        self.alive.add(pid)
        _ptrace(
            PTRACE_SETOPTIONS,
            pid,
            0,
            PTRACE_O_TRACEFORK
            | PTRACE_O_TRACEVFORK
            | PTRACE_O_TRACECLONE
            | PTRACE_O_TRACEEXEC
            | PTRACE_O_EXITKILL,
        )
        timer = threading.Timer(self.cfg["deadline_s"], self._on_deadline)
        timer.daemon = True
        timer.start()
        _ptrace(PTRACE_CONT, pid)
        while True:
            try:
                wpid, status = os.waitpid(-1, WALL)
            except ChildProcessError:
                break
            with self.lock:
                if os.WIFEXITED(status) or os.WIFSIGNALED(status):
                    self.alive.discard(wpid)
                    self._ended(wpid, _ending(status))
                    if wpid == pid:
                        break
                    continue
                if os.WIFSTOPPED(status):
                    self.alive.add(wpid)  # an auto-attached child may report before its parent
                    self._on_stop(wpid, status)
        self._collect_endings(time.monotonic() + ENDING_GRACE_S)
        self.finish(status)

    def _collect_endings(self, until: float) -> None:
        """After the first process ended: record the ends of processes that are already
        dying (a ``kill -9`` just sent is delivered asynchronously) for a short while."""
        while time.monotonic() < until:
            try:
                wpid, status = os.waitpid(-1, WALL | os.WNOHANG)
            except ChildProcessError:
                return
            if wpid == 0:
                time.sleep(0.005)
                continue
            with self.lock:
                if os.WIFEXITED(status) or os.WIFSIGNALED(status):
                    self.alive.discard(wpid)
                    self._ended(wpid, _ending(status))
                elif os.WIFSTOPPED(status):
                    self.alive.add(wpid)
                    self._on_stop(wpid, status)

    def _on_deadline(self) -> None:
        self.timed_out = True
        self.finish(None)

    def _on_stop(self, pid: int, status: int) -> None:
        sig = os.WSTOPSIG(status)
        event = status >> 16
        inject = 0
        try:
            if event in (EVENT_FORK, EVENT_VFORK, EVENT_CLONE):
                child = _event_msg(pid)
                self.parent[child] = pid
                # The child may have reported (even exec'd) before this event of its
                # parent: its record stays current. A pid is reused only after its last
                # process was reaped here, which ended that record, so nothing is stale.
                seq = self.current.get(child)
                if seq is not None and not self.records[seq]["ppid"]:
                    self.records[seq]["ppid"] = pid
                self.alive.add(child)
            elif event == EVENT_EXEC:
                self._record_exec(pid)
            elif event == 0 and sig not in STOP_SIGNALS and sig != signal.SIGTRAP:
                inject = sig  # an ordinary signal: deliver it
            _ptrace(PTRACE_CONT, pid, 0, inject)
        except OSError:
            pass  # gone meanwhile

    def finish(self, status: int | None) -> None:
        """Write the trace line and exit (from any thread). ``status``: the first
        process's wait status, None if it is still running (deadline, output limit).
        Every traced process still running is then killed by the kernel
        (``PTRACE_O_EXITKILL``): the tracer needs no right to signal them."""
        with self.lock:
            if self.finishing:
                return
            self.finishing = True
            leftovers = len(self.alive - {self.main_pid}) if status is not None else len(self.alive)
            if threading.current_thread() is not self.output.thread:
                # the pipe closes once no process holds it: take the last output
                self.output.thread.join(5.0 if status is not None and not leftovers else 0.2)
            exit_code = signum = None
            if status is not None:
                ending = _ending(status)
                exit_code, signum = ending["exit_code"], ending["signal"]
            with self.output.lock:
                head, tail = bytes(self.output.head), bytes(self.output.tail)
            payload = {
                "version": VERSION,
                "nonce": self.cfg["nonce"],
                "records": self.records,
                "exits": self.exits,
                "end": {
                    "exit_code": exit_code,
                    "signal": signum,
                    "timed_out": self.timed_out,
                    "output_limited": self.output.limited,
                    "output_bytes": self.output.total,
                    "leftovers_killed": leftovers,
                    "records_dropped": self.dropped,
                    "duration_s": round(time.monotonic() - self.start, 4),
                },
                "output_head": base64.b64encode(head).decode(),
                "output_tail": base64.b64encode(tail).decode(),
            }
            text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
            line = memoryview(f"{MARK} {text}\n".encode())
            while line:
                line = line[os.write(1, line) :]
            if exit_code is None:
                exit_code = 128 + signum if signum is not None else 1
            os._exit(exit_code)


def main() -> int:
    """Parse the arguments, trace the command, print the trace line."""
    try:
        cfg = parse_args(sys.argv[1:])
        Tracer(cfg).run()
    except TraceError as exc:
        print(f"exectrace: {exc}", file=sys.stderr)
        return 3
    return 1  # not reached: run() exits after reporting


if __name__ == "__main__":
    sys.exit(main())
