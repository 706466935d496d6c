"""Sandbox conformance: every backend attacked from the inside, with the same tests.

Each test runs once per backend (``local`` bubblewrap, ``docker``); see the
``backend`` fixture in conftest.py. Backend-specific guarantees are at the end.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from mle_gym.sandbox import SandboxLimits, make_sandbox
from mle_gym.sandbox.base import Sandbox
from mle_gym.sandbox.kernel import PythonKernel

pytestmark = pytest.mark.sandbox

SECRET = "TOP-SECRET-ANSWER-7f3c1b"
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "data").mkdir()
    public = tmp_path / "public"
    public.mkdir()
    (public / "train.csv").write_text("id,y\n1,0\n")
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "answers_secret.csv").write_text(f"id,y\n1,{SECRET}\n")
    return {"ws": ws, "public": public, "private": private}


@pytest.fixture
def make(backend: str, layout: dict[str, Path]):
    """``make(**limits)`` -> a sandbox of the current backend over the layout; closed after."""
    made: list[Sandbox] = []

    def factory(data: bool = True, ws: Path | None = None, **limits: object) -> Sandbox:
        limits.setdefault("memory_mb", 768)
        limits.setdefault("pids", 64)
        sb = make_sandbox(
            backend,
            ws or layout["ws"],
            layout["public"] if data else None,
            SandboxLimits(**limits),  # type: ignore[arg-type]
        )
        made.append(sb)
        return sb

    yield factory
    for sb in made:
        sb.close()


@pytest.fixture
def sandbox(make) -> Sandbox:
    return make()


#: time for a command that walks the whole sandbox view
SEARCH_S = 300.0


def run(sb: Sandbox, cmd: str, timeout: float = 30):
    r = sb.exec(cmd, timeout)
    return r, (r.head + r.tail).decode(errors="replace")


def test_basic_command_runs_as_unprivileged_user(sandbox: Sandbox) -> None:
    r, out = run(sandbox, "id -u; pwd; cat data/train.csv; echo made > out.txt")
    assert r.ok, out
    uid, cwd, *rest = out.splitlines()
    assert int(uid) != 0
    assert cwd == "/workspace"
    assert "id,y" in rest
    assert (sandbox.workspace / "out.txt").read_text() == "made\n"
    assert (sandbox.workspace / "out.txt").stat().st_uid == int(uid)


def test_exit_codes_and_output(sandbox: Sandbox) -> None:
    r, out = run(sandbox, "echo out; echo err >&2; exit 3")
    assert r.exit_code == 3 and not r.ok and out == "out\nerr\n"
    r, out = run(sandbox, "printf 'no newline'")
    assert r.ok and out == "no newline" and r.output_bytes == 10
    r, _ = run(sandbox, "kill -9 $$")
    assert r.exit_code == 137 and r.signal == 9 and not r.oom_killed and not r.timed_out


def test_private_answers_unreachable_by_path_and_search(
    sandbox: Sandbox, layout: dict[str, Path]
) -> None:
    secret = layout["private"] / "answers_secret.csv"
    r, out = run(sandbox, f"cat {secret}")
    assert r.exit_code != 0 and SECRET not in out
    r, out = run(sandbox, f"ls {layout['private']} {layout['private'].parent}")
    assert r.exit_code != 0
    # Whole-tree searches cover the runtime too (a venv under /tmp when the checkout is
    # there: ~220k files), so they get a search's time, not a command's.
    r, out = run(sandbox, "find / -name 'answers_secret*' 2>/dev/null; echo END", SEARCH_S)
    assert out.strip() == "END", (r, out)
    r, out = run(sandbox, f"grep -rs {SECRET} /workspace /tmp /etc 2>/dev/null; echo END", SEARCH_S)
    assert out.strip() == "END", (r, out)


def test_host_home_and_cache_absent(sandbox: Sandbox) -> None:
    _, out = run(sandbox, "ls -A /root/.cache /home/* 2>&1; echo END")
    assert "No such file" in out or "Permission denied" in out
    assert "mle_gym" not in out


def test_mle_gym_code_and_task_assets_hidden(sandbox: Sandbox) -> None:
    """The replica generators (task_assets/*/prepare.py) must not be reachable."""
    r, out = run(sandbox, "python -c 'import mle_gym.tasks'")
    assert r.exit_code != 0 and "ModuleNotFoundError" in out
    r, out = run(sandbox, "find / -path '*task_assets*' 2>/dev/null; echo END", SEARCH_S)
    assert out.strip() == "END", (r, out)


def test_python_stack_available(sandbox: Sandbox) -> None:
    r, out = run(sandbox, "python -c 'import numpy, pandas, sklearn; print(\"ok\")'", 120)
    assert r.ok and out.strip().endswith("ok"), out


def test_no_network(sandbox: Sandbox) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    accepted: list[object] = []

    def accept() -> None:
        server.settimeout(5)
        with contextlib.suppress(OSError):
            accepted.append(server.accept())

    t = threading.Thread(target=accept)
    t.start()
    code = textwrap.dedent(
        f"""
        import socket
        results = []
        for host, port in [("127.0.0.1", {port}), ("1.1.1.1", 53), ("10.0.0.1", 80),
                           ("172.17.0.1", 2375)]:
            try:
                socket.create_connection((host, port), timeout=2)
                results.append("CONNECTED")
            except OSError as e:
                results.append("blocked")
        try:
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.sendto(b"x", ("8.8.8.8", 53))
            results.append("UDP-SENT")
        except OSError:
            results.append("blocked")
        try:
            socket.getaddrinfo("example.com", 80)
            results.append("DNS-RESOLVED")
        except OSError:
            results.append("blocked")
        print(",".join(results))
        """
    )
    (sandbox.workspace / "net.py").write_text(code)
    _, out = run(sandbox, "python net.py")
    t.join()
    server.close()
    assert out.strip() == ",".join(["blocked"] * 6), out
    assert not accepted


def test_cannot_write_outside_workspace(sandbox: Sandbox, tmp_path: Path) -> None:
    marker = f"mle_gym_escape_{os.getpid()}"
    cmds = [
        "echo x > data/new.csv",
        "echo x >> data/train.csv",
        "echo x > /usr/x",
        "echo x > /etc/x",
        f"echo x > {tmp_path}/x",
        "echo x > /x",
        "mkdir /opt/x",
        "rm -rf data",
    ]
    for cmd in cmds:
        r, out = run(sandbox, cmd)
        assert r.exit_code != 0, (cmd, out)
    r, out = run(sandbox, f"echo x > /tmp/{marker}")
    assert r.ok
    assert not Path(f"/tmp/{marker}").exists()
    assert (tmp_path / "public" / "train.csv").read_text() == "id,y\n1,0\n"


def test_host_env_not_visible(make, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-host-secret-123")
    sandbox = make()
    _, out = run(sandbox, "env")
    assert "sk-fake-host-secret-123" not in out
    assert "HOME=/workspace" in out


def test_host_processes_invisible(sandbox: Sandbox) -> None:
    _, out = run(sandbox, "ps -eo comm --no-headers")
    assert "pytest" not in out and "python" not in out.replace("ps", "")
    _, out = run(sandbox, f"kill -0 {os.getpid()} 2>&1; echo rc=$?")
    assert "rc=1" in out


def test_memory_hog_is_oom_killed_and_next_step_works(sandbox: Sandbox) -> None:
    r, out = run(sandbox, "python -c 'x = bytearray(3 * 1024**3); print(len(x))'", 60)
    assert not r.ok
    if getattr(sandbox, "limits_mode", "cgroup") == "cgroup":
        assert r.oom_killed, out
        assert r.killed_reason and "memory" in r.killed_reason
    else:
        assert "MemoryError" in out
    r, out = run(sandbox, "echo alive")
    assert r.ok and out.strip() == "alive"


def test_fork_bomb_contained(sandbox: Sandbox) -> None:
    bomb = "python -c 'import os\nwhile True:\n    try: os.fork()\n    except OSError: pass'"
    r, out = run(sandbox, bomb, timeout=5)
    assert r.timed_out
    r, out = run(sandbox, "f() { f | f & }; f; sleep 1; echo done", timeout=5)
    assert not r.ok or "done" in out
    r, out = run(sandbox, "echo alive")
    assert r.ok and out.strip() == "alive"


def _pids_in_use(sb: Sandbox) -> int:
    """The tasks the sandbox's pids cgroup counts now (zombies included), read from the host."""
    container = getattr(sb, "container_id", "")
    groups = getattr(sb, "_cgroups", None)
    if container:
        path = Path(f"/sys/fs/cgroup/pids/docker/{container}/pids.current")
    elif groups is not None:
        path = groups.groups["pids"] / "pids.current"
    else:
        path = Path("/nonexistent")
    if not path.is_file():
        pytest.skip("the sandbox's pids cgroup is not visible from this host")
    return int(path.read_text())


@pytest.mark.slow
def test_what_a_command_left_is_reaped_before_it_returns(make) -> None:
    # A killed process holds its slot in the pids limit until it is reaped: if exec
    # returned before, the next command could not fork ("Cannot fork"). A small CPU
    # share slows the dying and the reaping down, as a loaded machine does.
    sb = make(pids=64, cpus=0.1)
    run(sb, "true")
    idle = _pids_in_use(sb)
    leave = "i=0; while [ $i -lt 50 ]; do sleep 300 & i=$((i+1)); done; echo started"
    bomb = "f() { f | f & }; f & while :; do :; done"  # forks once, then spins: a timeout
    for _ in range(2):
        r, out = run(sb, leave, timeout=60)
        assert r.ok and "started" in out, out
        assert _pids_in_use(sb) == idle
        r, _ = run(sb, bomb, timeout=3)
        assert r.timed_out
        assert _pids_in_use(sb) == idle
    r, out = run(sb, "i=0; while [ $i -lt 50 ]; do sleep 1 & i=$((i+1)); done; wait; echo ok")
    assert r.ok and out.strip() == "ok", out


def test_oom_kill_deep_in_the_command_is_reported(make) -> None:
    # the allocation is a grandchild of the command's shell, which exits with 0 after it
    sb = make(memory_mb=300)
    r, out = run(sb, "(python -c 'b = bytearray(2**30)'); echo after", 60)
    if getattr(sb, "limits_mode", "cgroup") == "cgroup":
        assert r.oom_killed and not r.ok, (r, out)
    else:
        assert "MemoryError" in out
    assert out.strip().endswith("after")


def test_infinite_loop_times_out(sandbox: Sandbox) -> None:
    start = time.monotonic()
    r, _ = run(sandbox, "while true; do :; done", timeout=1.5)
    assert r.timed_out and r.exit_code is None
    assert time.monotonic() - start < 10
    assert r.killed_reason == "wall-clock timeout"
    r, out = run(sandbox, "ps -eo comm --no-headers | grep -c sh; echo alive")
    assert out.strip().endswith("alive")


def test_output_flood_is_bounded(sandbox: Sandbox) -> None:
    r, _ = run(sandbox, "yes flood", timeout=20)
    assert r.output_limited or r.timed_out
    assert len(r.head) + len(r.tail) <= 256 * 1024
    assert r.output_bytes >= len(r.head) + len(r.tail)
    r, out = run(sandbox, "echo alive")
    assert r.ok and out == "alive\n"


def test_cpu_time_limit(make) -> None:
    sb = make(cpu_time_s=1)
    r, out = run(sb, "python -c 'while True: pass'", timeout=30)
    assert r.cpu_limited and not r.timed_out, (r, out)
    assert r.killed_reason == "CPU-time limit reached"


def test_background_processes_do_not_survive_the_step(sandbox: Sandbox) -> None:
    r, out = run(sandbox, "setsid sleep 300 & nohup sleep 301 >/dev/null 2>&1 & echo started")
    assert r.ok and "started" in out
    r, out = run(sandbox, "ps -eo comm,args --no-headers | grep -c 'sleep 30[01]'")
    assert out.strip() == "0", out


def test_exec_after_close_is_an_error(make) -> None:
    sb = make()
    sb.close()
    sb.close()  # idempotent
    with pytest.raises(Exception, match="closed"):
        sb.exec("true", 5)


# -- the persistent Python interpreter ----------------------------------------------------


@pytest.fixture
def kernel(sandbox: Sandbox):
    k = PythonKernel(sandbox, memory_mb=768)
    yield k
    k.close()


def test_python_state_persists(kernel: PythonKernel) -> None:
    assert kernel.run("x = 41", 30).status == "ok"
    cell = kernel.run("print(x + 1)", 30)
    assert cell.status == "ok" and cell.head == "42\n"
    cell = kernel.run("import pandas as pd\ndf = pd.read_csv('data/train.csv')\ndf.shape", 60)
    assert cell.status == "ok" and cell.result == "(1, 2)"
    assert kernel.run("df.columns.tolist()", 30).result == "['id', 'y']"


def test_python_errors_and_interrupts_keep_state(kernel: PythonKernel) -> None:
    kernel.run("x = 5", 30)
    cell = kernel.run("def f():\n    return 1 / 0\nf()", 30)
    assert cell.status == "error" and "ZeroDivisionError" in (cell.traceback or "")
    assert '<cell 2>", line 2, in f' in (cell.traceback or "")
    cell = kernel.run("import time\ntime.sleep(60)", 1.0)
    assert cell.status == "interrupted" and "KeyboardInterrupt" in (cell.traceback or "")
    cell = kernel.run("while True:\n    pass", 1.0)
    assert cell.status == "interrupted"
    assert kernel.run("x", 30).result == "5"
    cell = kernel.run("import sys; sys.exit(2)", 30)
    assert cell.status == "error" and "SystemExit" in (cell.traceback or "")
    assert kernel.run("x * 2", 30).result == "10"
    assert kernel.run("input()", 30).status == "error"  # stdin is /dev/null


def test_python_captures_child_process_output(kernel: PythonKernel) -> None:
    cell = kernel.run("import subprocess\nsubprocess.run(['echo', 'from-child'])\nNone", 30)
    assert cell.status == "ok" and "from-child" in cell.head


def test_python_memory_death_then_restart(kernel: PythonKernel) -> None:
    kernel.run("x = 41", 30)
    cell = kernel.run("b = bytearray(3 * 1024**3)", 60)
    if cell.status == "died":
        assert "memory limit" in (cell.died_reason or "")
        cell = kernel.run("print('fresh')", 30)
        assert cell.restarted and "memory limit" in (cell.previous_death or "")
        assert cell.head == "fresh\n"
        assert kernel.run("x", 30).status == "error"  # state is gone
    else:  # rlimit mode: MemoryError, the interpreter survives
        assert "MemoryError" in (cell.traceback or "")


def test_python_runs_with_sandbox_isolation(kernel: PythonKernel, layout) -> None:
    secret = layout["private"] / "answers_secret.csv"
    cell = kernel.run(f"open({str(secret)!r}).read()", 30)
    assert cell.status == "error" and SECRET not in (cell.traceback or "")
    cell = kernel.run(
        "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 53), timeout=2)\n"
        "    print('CONNECTED')\nexcept OSError:\n    print('blocked')",
        30,
    )
    assert cell.head == "blocked\n"
    cell = kernel.run("import os; os.getuid()", 30)
    assert cell.result is not None and int(cell.result) != 0


def test_execute_sweeps_spare_the_interpreter(sandbox: Sandbox, kernel: PythonKernel) -> None:
    kernel.run("y = 'kept'", 30)
    run(sandbox, "sleep 200 & echo bg")
    r, _ = run(sandbox, "sleep 30", timeout=1)
    assert r.timed_out
    assert kernel.run("y", 30).result == "'kept'"


# -- freezing, sweeps, supervised commands -----------------------------------------------------


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return -1


def _wait_growing(path: Path, timeout: float = 20.0) -> None:
    """Wait until ``path`` exists and has grown once (the writer is running)."""
    deadline = time.monotonic() + timeout
    first = _size(path)
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = _size(path)
        if now > 0 and now != first:
            return
        first = now
    raise AssertionError(f"{path.name} never grew: its writer did not start")


def _still_growing(path: Path, settle: float = 1.0, window: float = 0.8) -> bool:
    """Whether something still writes to ``path`` (a writer appends every 0.1 s)."""
    time.sleep(settle)
    before = _size(path)
    time.sleep(window)
    return _size(path) != before


WRITER = "while :; do echo x >> {name}; sleep 0.1; done"


@pytest.mark.slow
def test_frozen_stops_every_agent_process(sandbox: Sandbox, kernel: PythonKernel, layout) -> None:
    from mle_gym.sandbox.base import SandboxError

    cell = kernel.run(
        "import threading, time\n"
        "def tick():\n"
        "    i = 0\n"
        "    while True:\n"
        "        i += 1\n"
        "        with open('counter', 'w') as f:\n"
        "            f.write(str(i))\n"
        "        time.sleep(0.01)\n"
        "threading.Thread(target=tick, daemon=True).start()",
        30,
    )
    assert cell.status == "ok", cell
    counter = layout["ws"] / "counter"
    _wait_growing(counter)
    with sandbox.frozen():
        assert sandbox.is_frozen
        first = counter.read_text()
        time.sleep(0.4)
        assert counter.read_text() == first, "a thread of the interpreter ran while frozen"
        with sandbox.frozen():  # nests
            time.sleep(0.1)
        assert sandbox.is_frozen and counter.read_text() == first
        with pytest.raises(SandboxError, match="frozen"):
            sandbox.exec("true", 10)
        with pytest.raises(SandboxError, match="frozen"):
            sandbox.spawn(["sleep", "1"])
        with pytest.raises(SandboxError, match="frozen"):
            sandbox.exec("true", 10, supervisor=["python3", "-c", "pass"])
    assert not sandbox.is_frozen
    deadline = time.monotonic() + 10
    while counter.read_text() == first and time.monotonic() < deadline:
        time.sleep(0.05)
    assert counter.read_text() != first, "the interpreter did not resume after the block"
    assert kernel.run("1 + 1", 30).result == "2"
    r, out = run(sandbox, "echo after")
    assert r.ok and out == "after\n"


@pytest.mark.slow
def test_commands_that_escape_their_wrapper_do_not_survive_the_step(
    sandbox: Sandbox, layout
) -> None:
    ws = layout["ws"]
    script = (
        "kill -9 $PPID; kill -STOP $PPID; "
        f"({WRITER.format(name='bg')}) & "
        f"sh -c '({WRITER.format(name='dbl')}) &' & "
        f"setsid nohup sh -c '{WRITER.format(name='sid')}' >/dev/null 2>&1 & "
        "sleep 0.5; echo started"
    )
    r, out = run(sandbox, script)
    assert "started" in out, out
    for name in ("bg", "dbl", "sid"):
        assert _size(ws / name) > 0, f"{name}: the writer never ran"
        assert not _still_growing(ws / name), f"{name}: a process outlived its step"
    r, out = run(sandbox, "echo next")
    assert r.ok and out == "next\n"


@pytest.mark.slow
def test_sweep_leftovers_kills_what_cells_started(
    sandbox: Sandbox, kernel: PythonKernel, layout
) -> None:
    ws = layout["ws"]
    cell = kernel.run(
        "import os, subprocess\n"
        "kept = 'state'\n"
        f"p = subprocess.Popen(['sh', '-c', {WRITER.format(name='popen')!r}], "
        "start_new_session=True)\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execvp('sh', ['sh', '-c', {WRITER.format(name='forked')!r}])\n"
        "    os._exit(0)\n"
        "os.wait()\n"
        "if os.fork() == 0:  # non-dumpable: its /proc entry is root's\n"
        "    import ctypes, time\n"
        "    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)\n"
        "    while True:\n"
        "        open('hidden', 'a').write('x')\n"
        "        time.sleep(0.1)\n"
        "p.pid",
        30,
    )
    assert cell.status == "ok", cell
    for name in ("popen", "forked", "hidden"):
        _wait_growing(ws / name)
    sandbox.sweep_leftovers()
    assert not _still_growing(ws / "popen", settle=0.3)
    assert not _still_growing(ws / "forked", settle=0.0)
    assert not _still_growing(ws / "hidden", settle=0.0)
    assert kernel.run("kept, p.wait()", 30).result == "('state', -9)"
    sandbox.sweep_leftovers()  # nothing left: a no-op that spares the interpreter
    assert kernel.run("kept", 30).result == "'state'"


@pytest.mark.slow
def test_sweep_leftovers_before_the_first_command_spares_the_sandbox(make) -> None:
    sb = make()
    kernel = PythonKernel(sb, memory_mb=768)
    try:
        assert kernel.run("kept = 1", 60).status == "ok"
        sb.sweep_leftovers()  # no command has run yet: the command server must survive it
        r, out = run(sb, "echo ok")
        assert r.ok and out == "ok\n"
        assert kernel.run("kept", 30).result == "1"
    finally:
        kernel.close()


SUPERVISOR = """
import os, subprocess, sys
argv = sys.argv[sys.argv.index("--") + 1 :]
status = open("/proc/self/status").read()
cap_eff = int(next(l for l in status.splitlines() if l.startswith("CapEff:")).split()[1], 16)
print("SUP uid", os.getuid(), os.geteuid(), "ptrace", bool(cap_eff >> 19 & 1), flush=True)
child = subprocess.Popen(argv)
rc = child.wait()
print("SUP end", rc, flush=True)
sys.exit(rc)
"""


@pytest.mark.slow
def test_supervised_exec_runs_the_supervisor_as_root(sandbox: Sandbox, layout) -> None:
    sup = ["python3", "-I", "-c", SUPERVISOR, "--"]
    cmd = (
        "echo CHILD uid $(id -u) cwd $(pwd); grep CapEff /proc/self/status; "
        "kill -9 $PPID 2>/dev/null || echo CHILD cannot kill; "
        "kill -STOP $PPID 2>/dev/null || echo CHILD cannot stop; "
        f"({WRITER.format(name='sup_bg')}) & exit 3"
    )
    r = sandbox.exec(cmd, 60, supervisor=sup)
    out = (r.head + r.tail).decode()
    assert "SUP uid 0 0 ptrace True" in out, out
    child_uid = int(out.split("CHILD uid ")[1].split()[0])
    assert child_uid == sandbox.uid != 0  # type: ignore[attr-defined]
    assert "cwd /workspace" in out and "CapEff:\t0000000000000000" in out
    assert "CHILD cannot kill" in out and "CHILD cannot stop" in out
    assert "SUP end 3" in out and r.exit_code == 3
    assert not _still_growing(layout["ws"] / "sup_bg")
    with pytest.raises(ValueError, match="supervisor"):
        sandbox.exec("true", 10, supervisor="python3")  # type: ignore[arg-type]


@pytest.mark.slow
def test_supervised_exec_times_out(sandbox: Sandbox) -> None:
    sup = ["python3", "-I", "-c", SUPERVISOR, "--"]
    r = sandbox.exec("sleep 60", 1.5, supervisor=sup)
    assert r.timed_out and r.exit_code is None
    r, out = run(sandbox, "echo fine")
    assert r.ok and out == "fine\n"


# -- backend-specific ------------------------------------------------------------------------


def _pids_of_uid(uid: int) -> list[int]:
    pids = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    pids.append(int(entry.name))
            except OSError:
                pass
    return pids


@pytest.mark.only_backend("local")
def test_local_each_sandbox_has_its_own_uid(make, tmp_path: Path) -> None:
    other_ws = tmp_path / "ws2"
    other_ws.mkdir()
    a, b = make(data=False), make(data=False, ws=other_ws)
    if os.geteuid() == 0:
        assert a.uid != b.uid  # type: ignore[attr-defined]
    r, _ = run(b, "ls /workspace")
    assert r.ok


@pytest.mark.only_backend("local")
def test_local_nothing_left_on_the_host_after_close(make) -> None:
    sb = make()
    k = PythonKernel(sb, 768)
    k.run("import subprocess; subprocess.Popen(['sleep', '300'])", 30)
    run(sb, "setsid sleep 300 &")
    uid = sb.uid  # type: ignore[attr-defined]
    k.close()
    sb.close()
    time.sleep(0.2)
    assert _pids_of_uid(uid) == []


def _host_script(backend: str, ws: Path) -> str:
    return textwrap.dedent(
        f"""
        from pathlib import Path
        from mle_gym.sandbox import SandboxLimits, make_sandbox
        sb = make_sandbox({backend!r}, Path({str(ws)!r}), None, SandboxLimits())
        print(getattr(sb, "uid", 0), getattr(sb, "container_id", ""), flush=True)
        sb.exec("sleep 987", 600)
        """
    )


def test_sandbox_dies_with_host_process(backend: str, layout: dict[str, Path], tmp_path) -> None:
    script = tmp_path / "host.py"
    script.write_text(_host_script(backend, layout["ws"]))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    host = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=env)
    assert host.stdout is not None
    uid, _, container = host.stdout.readline().decode().strip().partition(" ")
    time.sleep(1.0)
    if backend == "local":
        assert _pids_of_uid(int(uid)), "the sandboxed sleep never started"
    host.kill()
    host.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if backend == "local":
            gone = _pids_of_uid(int(uid)) == []
        else:
            out = subprocess.run(
                ["docker", "ps", "-aq", "--no-trunc", "--filter", f"id={container}"],
                capture_output=True,
                text=True,
            ).stdout
            gone = container not in out
        if gone:
            break
        time.sleep(0.2)
    assert gone


@pytest.mark.only_backend("docker")
def test_docker_container_hardening_and_labels(sandbox: Sandbox) -> None:
    import docker

    client = docker.from_env()
    attrs = client.api.inspect_container(sandbox.container_id)  # type: ignore[attr-defined]
    hc = attrs["HostConfig"]
    assert hc["NetworkMode"] == "none"
    assert hc["ReadonlyRootfs"] is True
    assert hc["CapDrop"] == ["ALL"]
    assert set(hc["CapAdd"] or ()) <= {"KILL", "SETUID", "SETGID", "SETPCAP", "SYS_PTRACE"}
    assert "no-new-privileges" in hc["SecurityOpt"]
    assert hc["Memory"] == 768 * 2**20 and hc["MemorySwap"] == 768 * 2**20
    assert hc["PidsLimit"] == 64 and hc["NanoCpus"] == 10**9
    labels = attrs["Config"]["Labels"]
    assert labels["mle_gym"] == "1" and labels["mle_gym.owner_pid"] == str(os.getpid())
    assert labels["mle_gym.episode"]
    sandbox.close()
    assert not client.containers.list(all=True, filters={"id": attrs["Id"]})


@pytest.mark.only_backend("docker")
def test_docker_gc_removes_orphans(docker_image: str) -> None:
    import docker

    from mle_gym.sandbox.docker import LABEL, gc_containers
    from mle_gym.sandbox.image import default_image

    client = docker.from_env()
    dead = subprocess.Popen(["true"])
    dead.wait()
    orphan = client.containers.create(
        default_image(),
        ["sleep", "600"],
        labels={
            LABEL: "1",
            f"{LABEL}.owner_pid": str(dead.pid),
            f"{LABEL}.owner_host": socket.gethostname(),
        },
    )
    mine = client.containers.create(
        default_image(),
        ["sleep", "600"],
        labels={
            LABEL: "1",
            f"{LABEL}.owner_pid": str(os.getpid()),
            f"{LABEL}.owner_host": socket.gethostname(),
        },
    )
    try:
        removed = gc_containers(client)
        assert orphan.id in removed and mine.id not in removed
        assert not client.containers.list(all=True, filters={"id": orphan.id})
    finally:
        mine.remove(force=True)


@pytest.mark.only_backend("docker")
def test_docker_missing_image_is_a_clear_error(docker_image: str, layout: dict[str, Path]) -> None:
    from mle_gym.sandbox.base import SandboxUnavailable
    from mle_gym.sandbox.docker import DockerSandbox

    with pytest.raises(SandboxUnavailable, match="mle-gym sandbox build"):
        DockerSandbox(layout["ws"], None, SandboxLimits(), image="mle-gym-no-such-image:0")


@pytest.mark.only_backend("docker")
def test_docker_unreachable_engine_is_a_clear_error(
    docker_image: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mle_gym.sandbox.base import SandboxUnavailable
    from mle_gym.sandbox.docker import client_from_env

    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(SandboxUnavailable, match=r"/nonexistent/docker\.sock"):
        client_from_env()


class _TcpToUnixProxy:
    """A real TCP endpoint in front of the local engine's socket: a stand-in for a
    remote engine reached through ``DOCKER_HOST=tcp://...``."""

    def __init__(self, unix_path: str) -> None:
        self.unix_path = unix_path
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = self.server.getsockname()[1]
        self.connections = 0
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            self.connections += 1
            upstream = socket.socket(socket.AF_UNIX)
            upstream.connect(self.unix_path)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                dst.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self._stop = True
        self.server.close()


@pytest.mark.only_backend("docker")
def test_docker_host_is_honoured(
    docker_image: str, layout: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    proxy = _TcpToUnixProxy("/var/run/docker.sock")
    monkeypatch.setenv("DOCKER_HOST", f"tcp://127.0.0.1:{proxy.port}")
    try:
        sb = make_sandbox("docker", layout["ws"], layout["public"], SandboxLimits())
        try:
            r, out = run(sb, "cat data/train.csv")
            assert r.ok and out == "id,y\n1,0\n"
            k = PythonKernel(sb, 4096)
            assert k.run("x = 2", 30).status == "ok"
            assert k.run("x * 21", 30).result == "42"
            k.close()
        finally:
            sb.close()
        assert proxy.connections > 0
    finally:
        proxy.close()


@pytest.mark.only_backend("docker")
def test_cli_sandbox_commands(docker_image: str, capsys: pytest.CaptureFixture[str]) -> None:
    from mle_gym.cli import main

    assert main(["sandbox", "status"]) == 0
    out = capsys.readouterr().out
    assert "local" in out and "docker" in out and "available" in out
    assert main(["sandbox", "build"]) == 0  # up to date: reuses the image
    assert f"image {docker_image} is ready" in capsys.readouterr().out
    assert main(["sandbox", "gc"]) == 0
    assert "orphaned container(s)" in capsys.readouterr().out
