"""How ``mle-gym eval`` runs: replica seeds, Ctrl-C and ``--resume``, stored execution
options, no run folder left by a configuration error, early stop on a systematic failure,
and the kind of each failure.

Real runs (random/scripted and small file agents on replica data, bubblewrap sandboxes,
worker processes, a closed TCP port for an unreachable model endpoint); the fast tests
call the CLI's ``main`` in-process for errors caught before anything runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from mle_gym.cli import main
from mle_gym.evaluation.config import ExecutionOptions, RunConfig, save_config
from mle_gym.evaluation.plan import EvalRequest, resolve_run

TASK = "spaceship-titanic"
QUICK = ["--agent", "random", "--max-steps", "2", "--data", "replica", "--sandbox", "local"]

AGENTS = '''
import os
import time

from mle_gym.agents.random_agent import RandomAgent


class Gated(RandomAgent):
    """Seed 0 acts at once; the others wait until the file ``gate`` exists."""

    def __init__(self, seed=None, gate=""):
        super().__init__(seed=seed)
        self.episode_seed = seed
        self.gate = gate

    def act(self, observation, info):
        while self.episode_seed != 0 and not os.path.exists(self.gate):
            time.sleep(0.05)
        return super().act(observation, info)


class Kinds(RandomAgent):
    """Seed 0 raises, seed 1 never answers, seed 2 kills its worker process."""

    def __init__(self, seed=None):
        super().__init__(seed=seed)
        self.episode_seed = seed

    def act(self, observation, info):
        if self.episode_seed == 0:
            raise RuntimeError("the agent broke on purpose")
        if self.episode_seed == 1:
            time.sleep(3600)
        if self.episode_seed == 2:
            os._exit(3)
        return super().act(observation, info)
'''


def eval_cmd(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "mle_gym.cli", "eval", "--out", str(out), *extra]


def run_cli(
    cmd: list[str], timeout: float = 300, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, env=env or dict(os.environ)
    )


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def record(run_dir: Path, seed: int, task: str = TASK) -> dict[str, Any]:
    return load(run_dir / "episodes" / task / f"seed-{seed}" / "episode.json")


def finished(run_dir: Path) -> list[Path]:
    return sorted(run_dir.glob("episodes/*/seed-*/episode.json"))


def agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "test_agents.py"
    path.write_text(textwrap.dedent(AGENTS))
    return path


def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tree_state(root: Path) -> dict[str, tuple[int, str]]:
    """Every path under ``root`` with its mtime and content hash (folders: "dir")."""
    state = {}
    for path in sorted(root.rglob("*")):
        digest = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
        state[str(path.relative_to(root))] = (path.stat().st_mtime_ns, digest)
    return state


# -- 1. replica seeds ----------------------------------------------------------------------------


def _reset_record(run_dir: Path, seed: int, task: str = TASK) -> dict[str, Any]:
    path = run_dir / "episodes" / task / f"seed-{seed}" / "trajectory.jsonl"
    first = json.loads(path.read_text().splitlines()[0])
    assert first["type"] == "reset"
    return first


def _variants(home: Path, task: str = TASK) -> list[str]:
    return sorted(p.name for p in (home / "data" / "mlebench" / task).iterdir())


@pytest.mark.slow
def test_per_seed_replicas_put_each_seed_on_its_own_variant(
    tmp_path: Path, mle_gym_home: Path
) -> None:
    out = tmp_path / "per-seed"
    quick = ["--workers", "2", "--agent", "random", "--max-steps", "1", "--no-progress"]
    done = run_cli(
        eval_cmd(out, TASK, "clusterlab", "--seeds", "2", "--replica-seed", "per-seed", *quick)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert load(out / "config.json")["replica_seed"] == "per-seed"
    for seed in (0, 1):
        rec = record(out, seed)
        assert rec["status"] == "done" and rec["data_source"] == "replica"
        assert rec["replica_seed"] == seed
        assert _reset_record(out, seed)["replica_seed"] == seed  # the env's own account
        # ML-Bench has no replicas: the setting is not passed to it (it would be refused)
        other = record(out, seed, "clusterlab")
        assert other["status"] == "done", other["errors"]
        assert other["replica_seed"] is None and other["data_source"] == "bundled"
    variants = _variants(mle_gym_home)
    seeds_prepared = {v.split("-key")[0] for v in variants if not v.startswith(".")}
    assert {"replica-seed0", "replica-seed1"} <= seeds_prepared
    manifests = {
        v: load(mle_gym_home / "data" / "mlebench" / TASK / v / "MANIFEST.json")
        for v in variants
        if v.startswith("replica-seed0-") or v.startswith("replica-seed1-")
    }
    assert sorted(m["replica_seed"] for m in manifests.values()) == [0, 1]
    hashes = [{k: f["sha256"] for k, f in m["files"].items()} for m in manifests.values()]
    assert hashes[0] != hashes[1], "two replica variants should hold different data"


@pytest.mark.slow
def test_one_replica_seed_for_every_episode_is_prepared_once_by_parallel_workers(
    tmp_path: Path, mle_gym_home: Path
) -> None:
    out = tmp_path / "seed-7"
    done = run_cli(
        eval_cmd(out, TASK, "--seeds", "3", "--replica-seed", "7", "--workers", "3", *QUICK)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert [record(out, s)["replica_seed"] for s in range(3)] == [7, 7, 7]
    assert [_reset_record(out, s)["replica_seed"] for s in range(3)] == [7, 7, 7]
    variants = _variants(mle_gym_home)
    assert len([v for v in variants if v.startswith("replica-seed7-")]) == 1
    assert not [v for v in variants if ".tmp-" in v], "a preparation was left half-done"


def test_a_replica_seed_no_selected_task_takes_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(["eval", "clusterlab", "--replica-seed", "1", "--out", str(out)]) == 2
    assert "--replica-seed applies to tasks with offline replicas" in capsys.readouterr().err
    assert main(["eval", TASK, "--replica-seed", "1", "--data", "kaggle", "--out", str(out)]) == 2
    assert "--data kaggle never uses a replica" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", TASK, "--replica-seed", "every", "--out", str(out)])
    assert exit_info.value.code == 2
    assert "expected a non-negative integer or per-seed, got 'every'" in capsys.readouterr().err
    assert not out.exists()


def test_the_replica_seed_is_a_setting_a_resume_must_match(tmp_path: Path) -> None:
    stored = RunConfig(tasks=(f"MLEBench/{TASK}-v0",), seeds=(0,), data="replica", sandbox="local")
    save_config(tmp_path, stored)
    request = EvalRequest(out=tmp_path, resume=True, replica_seed="per-seed")
    with pytest.raises(ValueError, match="replica_seed: stored None, now 'per-seed'"):
        resolve_run(request)
    assert resolve_run(EvalRequest(out=tmp_path, resume=True)).config.replica_seed is None


# -- 2 and 3. Ctrl-C, the printed --resume command, stored execution options --------------------


@pytest.mark.slow
def test_ctrl_c_prints_the_counts_and_a_resume_command_that_finishes_with_the_same_workers(
    tmp_path: Path,
) -> None:
    agents = agent_file(tmp_path)
    gate = tmp_path / "gate"
    out = tmp_path / "my run"  # a space: the printed command must quote it
    gated = ["--agent", f"{agents}:Gated", "--agent-arg", f"gate={gate}"]
    proc = subprocess.Popen(
        eval_cmd(out, TASK, "--seeds", "4", *QUICK, "--workers", "2", "--no-progress", *gated),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        deadline = time.monotonic() + 120
        while not finished(out):  # seed 0 ends; seeds 1 and 2 wait at the gate
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no episode finished in time"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, stderr
    assert "[eval] interrupted: 1 done, 0 failed, 3 pending (of 4 planned)" in stderr
    line = next(x for x in stderr.splitlines() if x.startswith("[eval] to continue: "))
    command = line.removeprefix("[eval] to continue: ")
    assert command == f"mle-gym eval --out {shlex.quote(str(out))} --resume"
    assert "Traceback" not in stderr and stdout == ""
    assert [p.parent.name for p in finished(out)] == ["seed-0"]
    first = (out / "episodes" / TASK / "seed-0" / "episode.json").stat().st_mtime_ns
    assert load(out / "config.json")["execution"]["workers"] == 2

    gate.touch()
    words = shlex.split(command)
    assert words[:2] == ["mle-gym", "eval"]
    resumed = run_cli([sys.executable, "-m", "mle_gym.cli", *words[1:]])
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert resumed.stderr == ""  # the stored --no-progress holds too
    assert [record(out, s)["status"] for s in range(4)] == ["done"] * 4
    assert (out / "episodes" / TASK / "seed-0" / "episode.json").stat().st_mtime_ns == first
    # the stored --workers 2 was used: the three resumed episodes ran in two processes
    assert len({record(out, s)["host"]["pid"] for s in (1, 2, 3)}) == 2
    assert not load(out / "config.json")["execution"]["progress"]  # --no-progress kept

    grown = run_cli(eval_cmd(out, "--resume", "--seed-list", "0", "1", "2", "3", "4"))
    assert grown.returncode == 0, grown.stderr
    assert load(out / "config.json")["execution"]["workers"] == 2
    again = run_cli(eval_cmd(out, "--resume", "--workers", "1", "--progress"))
    assert again.returncode == 0, again.stderr
    execution = load(out / "config.json")["execution"]
    assert execution["workers"] == 1 and execution["progress"] is True  # given: stored


def test_execution_options_are_reused_on_resume_unless_given(tmp_path: Path) -> None:
    config = RunConfig(tasks=(f"MLEBench/{TASK}-v0",), seeds=(0,), data="replica", sandbox="local")
    stored = ExecutionOptions(workers=2, episode_timeout_s=30.0, max_consecutive_failures=0)
    save_config(tmp_path, config, stored)
    saved = resolve_run(EvalRequest(out=tmp_path, resume=True))
    assert saved.execution == stored and not saved.changed
    changed = resolve_run(EvalRequest(out=tmp_path, resume=True, workers=4, episode_timeout_s=0))
    assert changed.changed and changed.content["execution"]["workers"] == 4
    assert changed.execution.episode_timeout_s is None  # 0 clears the stored limit
    assert changed.execution.max_consecutive_failures == 0
    assert changed.config == saved.config  # execution options are not settings
    with pytest.raises(ValueError, match="--ray-address needs --backend ray"):
        resolve_run(EvalRequest(out=tmp_path, resume=True, ray_address="auto"))


# -- 4. configuration errors leave nothing behind ----------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        ([TASK.replace("titanic", "titanik")], "spaceship-titanik"),
        ([TASK, "--reward-mode", "bogus"], "reward_mode must be one of"),
        ([TASK, "--agent", "/no/such/agent.py:Agent"], "agent file /no/such/agent.py"),
        ([TASK, "--agent", "no_such_module_xyz:Agent"], "no_such_module_xyz"),
        ([TASK, "--agent", "llm"], "model"),
        ([TASK, "--workers", "0"], "--workers must be >= 1"),
        ([TASK, "--max-consecutive-failures", "-1"], "--max-consecutive-failures"),
        (["--resume"], "no task selected"),
    ],
)
def test_a_configuration_error_creates_no_run_folder(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.delenv("MLE_GYM_LLM_MODEL", raising=False)
    out = tmp_path / "new" / "deeper" / "run"
    assert main(["eval", "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mle-gym: error: ") and message in err, err
    assert not (tmp_path / "new").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["eval", "--out", str(empty), *args]) == 2
    assert list(empty.iterdir()) == []


@pytest.mark.slow
def test_a_refused_resume_leaves_the_run_exactly_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    done = run_cli(eval_cmd(out, TASK, *QUICK, "--no-plots"))
    assert done.returncode == 0, done.stderr
    before = tree_state(out)
    assert ".lock" in before and "config.json" in before
    refused = [
        ([TASK], "pass --resume to continue it"),
        (["--resume", "--agent", "scripted"], "agent: stored 'random', now 'scripted'"),
        (["--resume", "--replica-seed", "2"], "replica_seed: stored None, now 2"),
        (["--resume", "--seed-list", "5"], "a resumed plan may only add tasks or seeds"),
        (["--resume", "--workers", "0"], "--workers must be >= 1"),
        (["--resume", "--reward-mode", "bogus"], "reward_mode must be one of"),
    ]
    for args, message in refused:
        assert main(["eval", "--out", str(out), *args]) == 2, args
        assert message in capsys.readouterr().err, args
        assert tree_state(out) == before, args


# -- 5. early stop on a systematic failure ------------------------------------------------------


class _Endpoint(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint whose model hands in at once (calls ``submit``)."""

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        function = {"name": "submit", "arguments": "{}"}
        call = {"id": "call_0", "type": "function", "function": function}
        message = {"role": "assistant", "content": None, "tool_calls": [call]}
        choice = {"index": 0, "message": message, "finish_reason": "tool_calls"}
        answer = {"id": "c", "object": "chat.completion", "model": body["model"]}
        answer.update(created=0, choices=[choice])
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def endpoint_port() -> Iterator[tuple[int, Any]]:
    """A closed port, and ``start()`` which serves :class:`_Endpoint` on it (the fix)."""
    port = closed_port()
    servers: list[ThreadingHTTPServer] = []

    def start() -> None:
        server = ThreadingHTTPServer(("127.0.0.1", port), _Endpoint)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)

    yield port, start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_an_unreachable_endpoint_stops_the_run_early_and_it_resumes_once_fixed(
    tmp_path: Path, endpoint_port: tuple[int, Any]
) -> None:
    port, start_endpoint = endpoint_port
    out = tmp_path / "llm"
    llm = ["--agent", "llm", "--agent-arg", "model=m", "--agent-arg", "api_key=k"]
    llm += ["--agent-arg", f"base_url=http://127.0.0.1:{port}/v1", "--agent-arg", "max_retries=0"]
    done = run_cli(eval_cmd(out, TASK, "--seeds", "6", "--data", "replica", *llm))
    assert done.returncode == 2, done.stdout + done.stderr
    errors = [x for x in done.stderr.splitlines() if x.startswith("mle-gym: error: ")]
    assert len(errors) == 1, done.stderr
    assert "stopped early: 3 episodes in a row failed the same way" in errors[0]
    assert "AgentError" in errors[0] and "Connection refused" in errors[0]
    assert f"continue with: mle-gym eval --out {out} --resume --retry-failed" in done.stderr
    assert done.stdout == "" and not (out / "report.json").exists()  # no 0 % "result"
    records = [load(p) for p in finished(out)]
    assert [r["seed"] for r in records] == [0, 1, 2]
    for rec in records:
        assert rec["status"] == "failed" and rec["failure_kind"] == "agent"
        assert rec["errors"][0]["phase"] == "agent"

    start_endpoint()
    resumed = run_cli(eval_cmd(out, "--resume", "--retry-failed"))
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert [record(out, s)["status"] for s in range(6)] == ["done"] * 6
    assert load(out / "report.json")["counts"]["done"] == 6


@pytest.mark.slow
def test_without_early_stop_every_episode_runs(tmp_path: Path) -> None:
    out = tmp_path / "no-stop"
    llm = ["--agent", "llm", "--agent-arg", "model=m", "--agent-arg", "api_key=k"]
    llm += ["--agent-arg", f"base_url=http://127.0.0.1:{closed_port()}/v1"]
    llm += ["--agent-arg", "max_retries=0", "--max-consecutive-failures", "0"]
    done = run_cli(eval_cmd(out, TASK, "--seeds", "4", "--data", "replica", *llm))
    assert done.returncode == 1, done.stdout + done.stderr  # completed, all failed
    assert load(out / "report.json")["counts"]["failed"] == 4
    assert load(out / "config.json")["execution"]["max_consecutive_failures"] == 0


# -- 6. failure kinds ---------------------------------------------------------------------------


@pytest.mark.slow
def test_failed_episodes_say_whether_the_agent_the_environment_or_a_timeout_failed(
    tmp_path: Path, mle_gym_home: Path
) -> None:
    agents = agent_file(tmp_path)
    out = tmp_path / "kinds"
    kinds = ["--agent", f"{agents}:Kinds", "--no-progress", "--no-plots"]
    done = run_cli(eval_cmd(out, TASK, "--seeds", "4", *QUICK, "--episode-timeout", "8", *kinds))
    assert done.returncode == 1, done.stdout + done.stderr
    raised, hung, died, fine = (record(out, s) for s in range(4))
    assert (raised["failure_kind"], raised["errors"][0]["phase"]) == ("agent", "agent")
    assert (hung["failure_kind"], hung["errors"][0]["type"]) == ("timeout", "EpisodeTimeout")
    assert (died["failure_kind"], died["errors"][0]["type"]) == ("environment", "WorkerLost")
    assert fine["status"] == "done" and fine["failure_kind"] is None

    # the environment fails at reset: its workspace folder cannot be made
    home = tmp_path / "home"
    home.mkdir()
    (home / "data").symlink_to(mle_gym_home / "data", target_is_directory=True)
    (home / "workspaces").write_text("a file where the workspaces folder should be")
    broken = tmp_path / "broken"
    env = {**os.environ, "MLE_GYM_HOME": str(home)}
    done = run_cli(eval_cmd(broken, TASK, *QUICK, "--no-plots"), env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    rec = record(broken, 0)
    assert (rec["failure_kind"], rec["errors"][0]["phase"]) == ("environment", "reset")
