"""The `python` tool's interpreter cannot hang the host: every way a cell can stop the
interpreter from answering (stopped, ignoring the interrupt, not reading, answering
garbage) ends the call with a clear report, and the next call gets a fresh interpreter.
Files in /workspace do not reach the server's own imports. Each test runs per backend.

A SIGALRM guard turns a hang into a failure; no wall time is asserted.
"""

from __future__ import annotations

import contextlib
import json
import signal
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mle_gym.sandbox import SandboxLimits, make_sandbox
from mle_gym.sandbox import kernel as kernel_mod
from mle_gym.sandbox.base import Sandbox
from mle_gym.sandbox.kernel import ProtocolError, PythonKernel

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

GRACE_S = 1.0  # the kernel's grace period in these tests (5 s in production)

# A cell prelude that finds the server's protocol pipes (read end: requests, write end:
# replies) among the interpreter's descriptors, as hostile code could.
FIND_PIPES = """
import fcntl, os, stat, time
def proto(mode):
    for fd in range(3, 256):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode) and fcntl.fcntl(fd, fcntl.F_GETFL) & 3 == mode:
                return fd
        except OSError:
            pass
    raise RuntimeError("no protocol pipe")
"""


class Hung(Exception):
    """The guard's alarm fired: something blocked past every budget."""


@contextlib.contextmanager
def guard(seconds: int = 120) -> Iterator[None]:
    def fire(signum: int, frame: object) -> None:
        raise Hung(f"no return within {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def kernel(backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PythonKernel]:
    monkeypatch.setattr(kernel_mod, "GRACE_S", GRACE_S)
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    sb: Sandbox = make_sandbox(backend, ws, None, SandboxLimits(memory_mb=768, pids=64))
    k = PythonKernel(sb, 768)
    with guard():
        yield k
    k.close()
    sb.close()


def assert_fresh_interpreter_works(k: PythonKernel, why: str) -> None:
    """The next call starts a fresh interpreter, says why, and runs normally."""
    cell = k.run("x = 40\nx + 2", 30)
    assert cell.status == "ok", cell
    assert cell.result == "42"
    assert cell.restarted and why in (cell.previous_death or ""), cell


@pytest.mark.parametrize(
    "code",
    [
        "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)",
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass",
        "import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})\n"
        "while True:\n    pass",
        "import time\nwhile True:\n    try:\n        time.sleep(1)\n"
        "    except KeyboardInterrupt:\n        pass",
    ],
    ids=["sigstop", "sigint-ignored", "sigint-blocked", "interrupt-swallowed"],
)
def test_a_stuck_interpreter_is_killed_and_replaced(kernel: PythonKernel, code: str) -> None:
    assert kernel.run("kept = 1", 30).status == "ok"
    cell = kernel.run(code, 1.0)
    assert cell.status == "died"
    assert f"did not stop within {GRACE_S:g} s of the 1 s timeout" in (cell.died_reason or "")
    assert "killed" in (cell.died_reason or "")
    assert_fresh_interpreter_works(kernel, "did not stop within")
    assert kernel.run("kept", 30).status == "error"  # a fresh interpreter: state is gone


def test_an_interpreter_that_stops_reading_does_not_block_the_write(
    kernel: PythonKernel,
) -> None:
    """A cell swaps the server's request pipe for one nobody writes: the server never reads
    again, so a large next cell cannot be written; the write has the call's deadline."""
    cell = kernel.run(FIND_PIPES + "r, w = os.pipe()\nos.dup2(r, proto(os.O_RDONLY))\nNone", 30)
    assert cell.status == "ok", cell
    big = "x = 1\n" * (4 * 2**20)  # 24 MB: more than any pipe or socket buffer on the way
    cell = kernel.run(big, 1.0)
    assert cell.status == "died"
    assert "it stopped reading its input" in (cell.died_reason or ""), cell
    assert "killed" in (cell.died_reason or "")
    cell = kernel.run("1 + 1", 30)
    assert cell.restarted and cell.result == "2", cell


GARBAGE = {
    "oversized-length": ("b'\\xff\\xff\\xff\\xff' + b'x' * 100", "a reply frame of 4,294,967,295"),
    "just-over-the-limit": (
        f"struct.pack('>I', {kernel_mod.MAX_FRAME + 1})",
        f"a reply frame of {kernel_mod.MAX_FRAME + 1:,} bytes",
    ),
    "not-json": ("struct.pack('>I', 5) + b'\\xff{{{{'", "not valid JSON"),
    "too-deep": (
        "struct.pack('>I', 200000) + b'[' * 200000",
        "not valid JSON",
    ),
    "not-an-object": ("struct.pack('>I', 6) + b'[1, 2]'", "not a JSON object"),
    "forged-reply": (
        '(lambda p: struct.pack(\'>I\', len(p)) + p)(b\'{"seq": -5, "status": "ok"}\')',
        "a reply to another request",
    ),
}


@pytest.mark.parametrize("name", sorted(GARBAGE))
def test_garbage_on_the_reply_pipe_kills_the_interpreter(kernel: PythonKernel, name: str) -> None:
    payload, fragment = GARBAGE[name]
    code = FIND_PIPES + f"import struct\nos.write(proto(os.O_WRONLY), {payload})\nNone"
    cell = kernel.run(code, 10)
    assert cell.status == "died", cell
    assert "protocol error" in (cell.died_reason or "") and fragment in (cell.died_reason or "")
    assert_fresh_interpreter_works(kernel, "protocol error")


def test_start_up_wait_is_bounded_by_the_call(
    kernel: PythonKernel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interpreter that never says it is ready costs the call's timeout, not a minute."""
    monkeypatch.setattr(kernel_mod, "SERVER_ARGV", ["sleep", "1000"])
    cell = kernel.run("1", 1.0)
    assert cell.status == "died" and "did not start in time" in (cell.died_reason or "")
    monkeypatch.undo()
    monkeypatch.setattr(kernel_mod, "GRACE_S", GRACE_S)
    assert_fresh_interpreter_works(kernel, "did not start in time")


SHADOWS = (
    "json",
    "struct",
    "ast",
    "traceback",
    "linecache",
    "tokenize",
    "signal",
    "threading",
    "tempfile",
    "codecs",
    "sitecustomize",
    "usercustomize",
)


def test_workspace_modules_do_not_reach_the_server(kernel: PythonKernel) -> None:
    """Shadowing stdlib modules, sitecustomize/usercustomize and a user-site .pth file in
    /workspace: none is imported by the interpreter's own machinery, while user code still
    imports its own module from the working directory."""
    ws = kernel.sandbox.workspace
    site = ws / ".local" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    site = site / "site-packages"
    site.mkdir(parents=True)
    for name in SHADOWS:
        mark = f"open('/workspace/hijacked-{name}', 'w').close()\nraise SystemExit(3)\n"
        (ws / f"{name}.py").write_text(mark)
        (site / f"{name}.py").write_text(mark)
    (site / "evil.pth").write_text("import os; open('/workspace/hijacked-pth', 'w').close()\n")
    (ws / "mymodule.py").write_text("VALUE = 'mine'\n")
    (site / "usersitemodule.py").write_text("VALUE = 'from the user site'\n")
    if kernel.sandbox.file_owner is not None:
        import os

        uid, gid = kernel.sandbox.file_owner
        for path in [ws, *ws.rglob("*")]:
            os.chown(path, uid, gid)
    assert kernel.run("import mymodule\nmymodule.VALUE", 30).result == "'mine'"
    assert kernel.run("import usersitemodule\nusersitemodule.VALUE", 30).result == (
        "'from the user site'"
    )
    assert kernel.run("1 / 0", 30).status == "error"
    assert kernel.run("import time\ntime.sleep(30)", 1.0).status == "interrupted"
    cell = kernel.run("import json\njson.dumps({'a': 1})", 30)
    assert cell.result == "'{\"a\": 1}'", cell
    assert sorted(p.name for p in ws.glob("hijacked-*")) == []


def test_a_huge_exception_message_is_capped_not_fatal(kernel: PythonKernel) -> None:
    cell = kernel.run("raise ValueError('x' * 20_000_000)", 30)
    assert cell.status == "error", cell
    assert "characters omitted" in (cell.traceback or "")
    assert len(cell.traceback or "") < 100_000
    cell = kernel.run("'y' * 20_000_000", 30)
    assert cell.status == "ok" and len(cell.result or "") < 30_000


@pytest.mark.parametrize(
    ("reply", "fragment"),
    [
        ({"status": "weird"}, "unknown status"),
        ({"status": "ok", "output_bytes": "12"}, "'output_bytes' is not a int"),
        ({"status": "ok", "output_bytes": True}, "'output_bytes' is not a number"),
        ({"status": "ok", "output_bytes": -1}, "negative size"),
        ({"status": "ok", "head": ["x"]}, "'head' is not a str"),
        ({"status": "ok", "result": 5}, "'result' is not a str"),
        ({"status": "ok", "duration_s": "fast"}, "'duration_s' is not a float"),
        ({"status": "ok", "output_limited": 1}, "'output_limited' is not a bool"),
    ],
)
def test_reply_fields_are_type_checked(reply: dict, fragment: str) -> None:
    k = PythonKernel.__new__(PythonKernel)
    with pytest.raises(ProtocolError, match=fragment):
        k._cell_result(reply, False, None)


def test_frame_limit_leaves_room_for_every_honest_reply() -> None:
    """The largest honest reply (capped texts, each character escaped to 12 bytes of
    JSON at worst) stays below the frame limit."""
    from mle_gym.sandbox import repl_server

    worst_chars = 2 * 32 * 1024 + repl_server.RESULT_LIMIT + repl_server.TRACEBACK_LIMIT + 200
    assert worst_chars * 12 < kernel_mod.MAX_FRAME
    assert len(json.dumps({"head": "\U0001f600"})) - len(json.dumps({"head": ""})) == 12
    assert struct.calcsize(">I") == 4
