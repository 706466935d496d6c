"""The processes serving a sandbox have short command lines in ``ps``: no program source,
no bubblewrap options and no environment values in argv (both backends)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from mle_gym.sandbox import Sandbox, SandboxLimits, make_sandbox
from mle_gym.sandbox.kernel import PythonKernel

#: the longest command line allowed; the local backend's bwrap monitors come closest (as
#: root: bwrap, ``--args 8 --``, the setpriv options dropping to the sandbox uid, then
#: the server's interpreter and arguments, about 230 characters)
LIMIT = 256
#: a value of the sandbox's environment that must not show in any command line
MARKER = "title-probe-environment-value"


@pytest.fixture
def served(backend: str, tmp_path: Path) -> Iterator[Sandbox]:
    """A sandbox whose command server ran a command and whose interpreter ran a cell."""
    ws, data = tmp_path / "ws", tmp_path / "data"
    ws.mkdir()
    data.mkdir()
    sb = make_sandbox(backend, ws, data, SandboxLimits())
    kernel = PythonKernel(sb, memory_mb=SandboxLimits().memory_mb)
    try:
        assert sb.exec("echo served", 60).head == b"served\n"
        cell = kernel.run("print(6 * 7)", 60)
        assert cell.status == "ok" and cell.head == "42\n", cell
        yield sb
    finally:
        kernel.close()
        sb.close()


def _cmdline(pid: int) -> str | None:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    return raw.rstrip(b"\0").replace(b"\0", b" ").decode(errors="replace")


def _descendants(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            out += [child, *_descendants(child)]
    return out


def _server_processes(sb: Sandbox) -> dict[int, str]:
    """Host pid -> command line of every process serving ``sb``."""
    if sb.kind == "local":
        pids = _descendants(os.getpid())
    else:
        from mle_gym.sandbox.docker import DockerSandbox

        assert isinstance(sb, DockerSandbox)
        top = subprocess.run(
            ["docker", "top", sb.container_id, "-o", "pid"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        pids = [int(p) for p in top.stdout.split()[1:]]
    found = {pid: _cmdline(pid) for pid in pids}
    return {pid: line for pid, line in found.items() if line is not None}


def test_server_command_lines_are_short(served: Sandbox) -> None:
    procs = _server_processes(served)
    lines = list(procs.values())
    long = {pid: f"{len(line)} chars: {line[:300]}" for pid, line in procs.items()}
    assert all(len(line) <= LIMIT for line in lines), long
    assert not any("--setenv" in line or "PATH=" in line for line in lines), lines
    assert any(line.endswith("#mle-gym repl_server") for line in lines), lines
    if served.kind == "local":
        assert any(line.endswith(" -I -S /run/mle-gym/exec_server.py") for line in lines), lines
        assert any(line.startswith("/") and " --args 8 -- " in line for line in lines), lines


@pytest.mark.only_backend("local")
def test_local_bwrap_options_file_is_private(backend: str, tmp_path: Path) -> None:
    """The options bwrap reads (``--args``) include the sandbox's environment: only the
    host user may read them, and the sandbox sees neither the file nor its descriptor."""
    from mle_gym.sandbox.local import ARGS_FD, LocalSandbox

    ws = tmp_path / "ws"
    ws.mkdir()
    sb = LocalSandbox(ws, None, SandboxLimits(), env={"PROBE": MARKER})
    try:
        args_file = sb._etc_dir / "bwrap.args"
        assert args_file.stat().st_mode & 0o077 == 0
        assert f"\0PROBE\0{MARKER}\0".encode() in args_file.read_bytes()
        r = sb.exec(f'echo "$PROBE"; ls /proc/self/fd; test -e /proc/self/fd/{ARGS_FD}', 60)
        out = (r.head + r.tail).decode()
        assert out.splitlines()[0] == MARKER, out  # the environment still reaches commands
        assert r.exit_code == 1, out  # no descriptor ARGS_FD inside
        lines = [line for line in map(_cmdline, _descendants(os.getpid())) if line]
        assert lines and not any(MARKER in line for line in lines), lines
    finally:
        sb.close()
