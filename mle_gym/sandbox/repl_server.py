"""A persistent Python interpreter that runs inside a sandbox (standard library only).

The host starts it through the sandbox's ``spawn`` as ``python -I -c <loader>``, the
loader reading this file's source from stdin (``SERVER_ARGV`` in
:mod:`mle_gym.sandbox.kernel`), and then talks to it over stdin/stdout with
length-prefixed JSON frames (4-byte big-endian length + UTF-8 JSON). Isolated mode
(``-I``) keeps the working directory, the user site and ``PYTHON*`` variables away
from the server's own imports (a ``json.py`` or ``sitecustomize.py`` in /workspace is
not loaded by it); once they
are done, the working directory, ``$PYTHONPATH`` and the user site directory (its
``.pth`` files are not run) are put on ``sys.path`` so that user code imports its own
modules as in a normal REPL. The protocol uses duplicates of the
original fds 0 and 1; user code sees stdin at /dev/null and its stdout and
stderr (including those of child processes) captured per cell in a file under
``$TMPDIR``.

Frames from the host: ``{"code": str, "timeout": float, "seq": int}`` (optionally
``"max_output_bytes": int``). Frames to the host: first ``{"ready": true, "pid": int}``,
then one per cell: ``{"seq": <the request's>, "status": "ok" | "error" | "interrupted",
"result": str | None, "traceback": str | None, "head": str, "tail": str,
"output_bytes": int, "output_limited": bool, "duration_s": float}``. Every text in a
reply is capped (head/tail 32 KiB, result 20,000 characters, traceback
:data:`TRACEBACK_LIMIT` characters), so an honest reply stays far below the host's
frame limit.

Like an interactive session, the value of a final expression is shown (and
bound to ``_``). A cell running past its timeout, or whose output passes the
output limit (64 MB; the excess is dropped, not stored), gets a KeyboardInterrupt in
the main thread (the state is kept); if it does not stop, the host kills the
interpreter. ``SystemExit`` and ``exit()`` are reported, not obeyed.
"""

import ast
import builtins
import contextlib
import io
import json
import linecache
import os
import signal
import struct
import sys
import tempfile
import threading
import time
import traceback

HEAD = 32 * 1024
TAIL = 32 * 1024
RESULT_LIMIT = 20_000
TRACEBACK_LIMIT = 50_000
OUTPUT_LIMIT = 64 * 2**20  # a cell's output past this is dropped and the cell interrupted
WATCH_INTERVAL = 0.05


def _setup():
    """Move the protocol to private fds; point fds 0/1/2 at /dev/null and the capture file."""
    proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
    proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    fd, path = tempfile.mkstemp(prefix=".mle_gym_cell-")
    os.close(fd)
    capture = os.open(path, os.O_RDWR | os.O_APPEND | os.O_TRUNC)
    os.unlink(path)
    os.dup2(capture, 1)
    os.dup2(capture, 2)
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the interpreter
    sys.stdout = io.TextIOWrapper(
        os.fdopen(1, "wb", closefd=False),
        encoding="utf-8",
        errors="backslashreplace",
        line_buffering=True,
    )
    sys.stderr = io.TextIOWrapper(
        os.fdopen(2, "wb", closefd=False),
        encoding="utf-8",
        errors="backslashreplace",
        line_buffering=True,
    )
    return proto_in, proto_out, capture


# The server's own references, taken before any user code runs: a cell that rebinds
# json.dumps or struct.pack does not change what the server sends.
_dumps = json.dumps
_loads = json.loads
_pack = struct.pack
_unpack = struct.unpack


def _prepare_user_imports():
    """Let user code import from the working directory, $PYTHONPATH and the user site
    (without running its .pth files), as a normal REPL would; called once the server's
    own imports are done. Honours PYTHONDONTWRITEBYTECODE, which -I ignores."""
    import site  # already loaded at start-up: no file is looked up

    user_site = site.getusersitepackages()
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        sys.dont_write_bytecode = True
    if user_site and os.path.isdir(user_site) and user_site not in sys.path:
        at = next((i for i, p in enumerate(sys.path) if "site-packages" in p), len(sys.path))
        sys.path.insert(at, user_site)
    extra = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[0:0] = ["", *extra]


def _read_exact(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _send(stream, obj):
    payload = _dumps(obj).encode("utf-8")
    stream.write(_pack(">I", len(payload)) + payload)


def _compile_cell(source, name):
    tree = ast.parse(source, filename=name, mode="exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    body = compile(tree, name, "exec")
    tail = compile(last, name, "eval") if last is not None else None
    return body, tail


def _format_exception(exc, name):
    frames = traceback.extract_tb(exc.__traceback__)
    keep = [i for i, f in enumerate(frames) if f.filename.startswith("<cell ")]
    start = keep[0] if keep else len(frames)
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.format_list(frames[start:])
    lines += traceback.format_exception_only(type(exc), exc)
    return _cap("".join(lines), TRACEBACK_LIMIT)


def _cap(text, limit):
    """``text`` if it fits ``limit`` characters, else its head and tail with a marker."""
    if len(text) <= limit:
        return text
    head, tail = limit * 2 // 5, limit * 3 // 5
    marker = f"\n[... {len(text) - head - tail:,} characters omitted ...]\n"
    return text[:head] + marker + text[-tail:]


class _Watch:
    """Watches a running cell: interrupts the main thread after ``timeout`` seconds, and
    once the cell's output passes ``limit`` bytes; past the limit the capture file is cut
    back to its head (writers append with O_APPEND, so they carry on after it) and the
    bytes dropped are counted, so a flood never fills /tmp or memory. Stops when disarmed."""

    def __init__(self, main_ident, timeout, capture, limit):
        self.main_ident = main_ident
        self.capture = capture
        self.limit = limit
        self.deadline = time.monotonic() + timeout if timeout > 0 else None
        self.lock = threading.Lock()
        self.armed = True
        self.timed_out = False
        self.output_limited = False
        self.dropped = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _interrupt(self):
        with self.lock:
            if self.armed:
                signal.pthread_kill(self.main_ident, signal.SIGINT)

    def _loop(self):
        while not self.done.wait(WATCH_INTERVAL):
            size = os.fstat(self.capture).st_size
            if size > self.limit:
                os.ftruncate(self.capture, HEAD)
                self.dropped += size - HEAD
                if not self.output_limited:
                    self.output_limited = True
                    self._interrupt()
            due = self.deadline is not None and time.monotonic() >= self.deadline
            if due and not self.timed_out:
                self.timed_out = True
                self._interrupt()

    def disarm(self):
        with self.lock:
            self.armed = False
        self.done.set()
        self.thread.join()


def _run_cell(request, namespace, counter, capture, main_ident):
    code = request.get("code", "")
    timeout = float(request.get("timeout") or 0)
    name = f"<cell {counter}>"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    os.ftruncate(capture, 0)
    status, result, tb = "ok", None, None
    started = time.monotonic()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    limit = int(request.get("max_output_bytes") or OUTPUT_LIMIT)
    alarm = _Watch(main_ident, timeout, capture, max(limit, HEAD + TAIL))
    try:
        body, tail = _compile_cell(code, name)
        exec(body, namespace)
        if tail is not None:
            value = eval(tail, namespace)
            if value is not None:
                namespace["_"] = value
                text = repr(value)
                if len(text) > RESULT_LIMIT:
                    text = text[:RESULT_LIMIT] + f"... [{len(text):,} characters in total]"
                result = text
    except KeyboardInterrupt as exc:
        status = "interrupted"
        tb = _format_exception(exc, name)
    except SystemExit as exc:
        status = "error"
        tb = f"SystemExit({exc.code!r}): the interpreter keeps running; state is kept.\n"
    except BaseException as exc:  # every user error is reported
        status = "error"
        tb = _format_exception(exc, name)
    finally:
        alarm.disarm()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    duration = time.monotonic() - started
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a broken stream must not kill the kernel
            stream.flush()
    size = os.fstat(capture).st_size
    head = os.pread(capture, HEAD, 0)
    tail_bytes = os.pread(capture, TAIL, max(HEAD, size - TAIL)) if size > HEAD else b""
    return {
        "seq": request.get("seq"),
        "status": status,
        "result": result,
        "traceback": tb,
        "head": head.decode("utf-8", "replace"),
        "tail": tail_bytes.decode("utf-8", "replace"),
        "output_bytes": size + alarm.dropped,
        "output_limited": alarm.output_limited,
        "duration_s": round(duration, 4),
    }


def main():
    proto_in, proto_out, capture = _setup()
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    main_ident = threading.main_thread().ident
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _prepare_user_imports()
    _send(proto_out, {"ready": True, "pid": os.getpid()})
    counter = 0
    while True:
        try:
            header = _read_exact(proto_in, 4)
            if header is None:
                return
            (length,) = _unpack(">I", header)
            payload = _read_exact(proto_in, length)
            if payload is None:
                return
            request = _loads(payload.decode("utf-8"))
        except KeyboardInterrupt:
            continue
        counter += 1
        try:
            reply = _run_cell(request, namespace, counter, capture, main_ident)
        except KeyboardInterrupt:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            reply = {
                "seq": request.get("seq"),
                "status": "interrupted",
                "result": None,
                "head": "",
                "tail": "",
                "traceback": "KeyboardInterrupt\n",
                "output_bytes": 0,
                "duration_s": 0.0,
            }
        _send(proto_out, reply)


if __name__ == "__main__":
    main()
