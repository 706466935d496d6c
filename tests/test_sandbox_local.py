"""The bubblewrap backend, attacked from the inside.

Every test starts a real sandbox and runs real commands in it.
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

from mle_gym.sandbox import SandboxLimits
from mle_gym.sandbox.local import LocalSandbox

pytestmark = pytest.mark.sandbox

SECRET = "TOP-SECRET-ANSWER-7f3c1b"


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
def sandbox(layout: dict[str, Path]):
    sb = LocalSandbox(layout["ws"], layout["public"], SandboxLimits(memory_mb=768, pids=64))
    yield sb
    sb.close()


def run(sb: LocalSandbox, cmd: str, timeout: float = 30):
    r = sb.exec(cmd, timeout)
    return r, (r.head + r.tail).decode(errors="replace")


def test_basic_command_runs_as_unprivileged_user(sandbox: LocalSandbox) -> None:
    r, out = run(sandbox, "id -u; pwd; cat data/train.csv; echo made > out.txt")
    assert r.ok, out
    uid, cwd, *rest = out.splitlines()
    assert int(uid) != 0
    assert cwd == "/workspace"
    assert "id,y" in rest
    assert (sandbox.workspace / "out.txt").read_text() == "made\n"
    assert (sandbox.workspace / "out.txt").stat().st_uid == int(uid)


def test_private_answers_unreachable_by_path_and_search(
    sandbox: LocalSandbox, layout: dict[str, Path]
) -> None:
    secret = layout["private"] / "answers_secret.csv"
    r, out = run(sandbox, f"cat {secret}")
    assert r.exit_code != 0 and SECRET not in out
    r, out = run(sandbox, f"ls {layout['private']} {layout['private'].parent}")
    assert r.exit_code != 0
    r, out = run(sandbox, "find / -name 'answers_secret*' 2>/dev/null; echo END")
    assert out.strip() == "END"
    r, out = run(sandbox, f"grep -rs {SECRET} /workspace /tmp /etc /proc/1 2>/dev/null; echo END")
    assert SECRET not in out.replace(f"grep -rs {SECRET}", "")


def test_host_home_and_cache_absent(sandbox: LocalSandbox) -> None:
    _r, out = run(sandbox, "ls -A /root /home 2>&1; ls /root/.cache 2>&1; echo END")
    assert ".cache" not in out.split("END")[0].split("\n")[0]
    assert "No such file" in out


def test_mle_gym_code_and_task_assets_hidden(sandbox: LocalSandbox) -> None:
    """The replica generators (task_assets/*/prepare.py) must not be reachable."""
    r, out = run(sandbox, "python -c 'import mle_gym.tasks'")
    assert r.exit_code != 0 and "ModuleNotFoundError" in out
    r, out = run(sandbox, "find / -path '*task_assets*' 2>/dev/null; echo END")
    assert out.strip() == "END", out


def test_python_stack_available(sandbox: LocalSandbox) -> None:
    r, out = run(sandbox, "python -c 'import numpy, pandas, sklearn; print(\"ok\")'", 120)
    assert r.ok and out.strip().endswith("ok"), out


def test_no_network(sandbox: LocalSandbox) -> None:
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
        for host, port in [("127.0.0.1", {port}), ("1.1.1.1", 53), ("10.0.0.1", 80)]:
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
    _r, out = run(sandbox, "python net.py")
    t.join()
    server.close()
    assert out.strip() == "blocked,blocked,blocked,blocked,blocked", out
    assert not accepted


def test_cannot_write_outside_workspace(sandbox: LocalSandbox, tmp_path: Path) -> None:
    marker = f"mle_gym_escape_{os.getpid()}"
    cmds = [
        "echo x > data/new.csv",
        "echo x >> data/train.csv",
        "echo x > /usr/x",
        "echo x > /etc/x",
        f"echo x > {tmp_path}/x",
        "echo x > /x",
        "mkdir /opt",
        "rm -rf data",
    ]
    for cmd in cmds:
        r, out = run(sandbox, cmd)
        assert r.exit_code != 0, (cmd, out)
    r, out = run(sandbox, f"echo x > /tmp/{marker}")
    assert r.ok
    assert not Path(f"/tmp/{marker}").exists()
    assert (tmp_path / "public" / "train.csv").read_text() == "id,y\n1,0\n"


def test_host_env_not_visible(sandbox: LocalSandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake-host-secret-123")
    _r, out = run(sandbox, "env")
    assert "sk-fake-host-secret-123" not in out
    assert "HOME=/workspace" in out


def test_host_processes_invisible(sandbox: LocalSandbox) -> None:
    _, out = run(sandbox, "ps -eo pid,user,comm --no-headers | wc -l; ls /proc | grep -c '^[0-9]'")
    lines = out.split()
    assert int(lines[0]) <= 4, out  # sh, ps, wc (and bwrap's init)
    _r, out = run(sandbox, f"kill -0 {os.getpid()} 2>&1; echo rc=$?")
    assert "rc=1" in out


def test_memory_hog_is_oom_killed_and_next_step_works(sandbox: LocalSandbox) -> None:
    r, out = run(sandbox, "python -c 'x = bytearray(3 * 1024**3); print(len(x))'", 60)
    assert not r.ok
    if sandbox.limits_mode == "cgroup":
        assert r.oom_killed, out
        assert r.killed_reason and "memory" in r.killed_reason
    else:
        assert "MemoryError" in out
    r, out = run(sandbox, "echo alive")
    assert r.ok and out.strip() == "alive"


def test_fork_bomb_contained(sandbox: LocalSandbox) -> None:
    bomb = "python -c 'import os\nwhile True:\n    try: os.fork()\n    except OSError: pass'"
    r, out = run(sandbox, bomb, timeout=5)
    assert r.timed_out
    r, out = run(sandbox, "f() { f | f & }; f; sleep 1; echo done", timeout=5)
    assert not r.ok or "done" in out
    r, out = run(sandbox, "echo alive")
    assert r.ok and out.strip() == "alive"


def test_infinite_loop_times_out(sandbox: LocalSandbox) -> None:
    start = time.monotonic()
    r, _ = run(sandbox, "while true; do :; done", timeout=1.5)
    assert r.timed_out and r.exit_code is None
    assert time.monotonic() - start < 10
    assert r.killed_reason == "wall-clock timeout"


def test_output_flood_is_bounded(sandbox: LocalSandbox) -> None:
    r, _ = run(sandbox, "yes flood", timeout=20)
    assert r.output_limited or r.timed_out
    assert len(r.head) + len(r.tail) <= 256 * 1024
    assert r.output_bytes >= len(r.head) + len(r.tail)
    r, _out = run(sandbox, "echo alive")
    assert r.ok


def test_cpu_time_limit(layout: dict[str, Path]) -> None:
    sb = LocalSandbox(layout["ws"], layout["public"], SandboxLimits(cpu_time_s=1))
    try:
        r, out = run(sb, "python -c 'while True: pass'", timeout=30)
        assert r.cpu_limited and not r.timed_out, (r, out)
    finally:
        sb.close()


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


def test_background_processes_do_not_survive_the_step(sandbox: LocalSandbox) -> None:
    r, out = run(sandbox, "setsid sleep 300 & nohup sleep 301 >/dev/null 2>&1 & echo started")
    assert r.ok and "started" in out
    time.sleep(0.2)
    assert _pids_of_uid(sandbox.uid) == []
    sandbox.close()
    assert _pids_of_uid(sandbox.uid) == []


def test_sandbox_dies_with_host_process(layout: dict[str, Path], tmp_path: Path) -> None:
    script = tmp_path / "host.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys
            from pathlib import Path
            from mle_gym.sandbox import SandboxLimits
            from mle_gym.sandbox.local import LocalSandbox
            sb = LocalSandbox(Path({str(layout["ws"])!r}), None, SandboxLimits())
            print(sb.uid, flush=True)
            sb.exec("sleep 987", 600)
            """
        )
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    host = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=env)
    assert host.stdout is not None
    uid = int(host.stdout.readline())
    deadline = time.monotonic() + 10
    while not _pids_of_uid(uid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _pids_of_uid(uid), "the sandboxed sleep never started"
    host.kill()
    host.wait()
    deadline = time.monotonic() + 10
    while _pids_of_uid(uid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _pids_of_uid(uid) == []


def test_each_sandbox_has_its_own_uid(layout: dict[str, Path], tmp_path: Path) -> None:
    other_ws = tmp_path / "ws2"
    other_ws.mkdir()
    a = LocalSandbox(layout["ws"], None, SandboxLimits())
    b = LocalSandbox(other_ws, None, SandboxLimits())
    try:
        if os.geteuid() == 0:
            assert a.uid != b.uid
        r, _out = run(b, "ls /workspace")
        assert r.ok
    finally:
        a.close()
        b.close()


def test_exec_after_close_is_an_error(layout: dict[str, Path]) -> None:
    sb = LocalSandbox(layout["ws"], None, SandboxLimits())
    sb.close()
    sb.close()  # idempotent
    with pytest.raises(Exception, match="closed"):
        sb.exec("true", 5)
