"""MLEEnv end to end: the Gymnasium API, tools, rewards, budgets, info and trajectories."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import mle_gym
from mle_gym.agents import make_agent
from mle_gym.episode_runner import run_episode
from mle_gym.trajectory import read_trajectory

ENV_ID = "MLEBench/spaceship-titanic-v0"


def call(tool: str, **args: object) -> dict:
    return {"tool": tool, "args": args}


def test_registration_from_task_folders() -> None:
    ids = mle_gym.register_all()
    assert ENV_ID in ids
    spec = gym.spec(ENV_ID)
    assert spec.max_episode_steps == 50
    assert spec.nondeterministic is True
    assert spec.entry_point == "mle_gym.env:MLEEnv"


def test_import_is_light() -> None:
    code = (
        "import sys, mle_gym; "
        "heavy = [m for m in ('docker', 'torch', 'ray', 'sklearn', 'scipy') if m in sys.modules]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_make_with_module_prefix_in_fresh_interpreter() -> None:
    code = (
        "import gymnasium as gym; "
        f"env = gym.make('mle_gym:{ENV_ID}', data='replica'); "
        "print(type(env.unwrapped).__name__, env.spec.max_episode_steps)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["MLEEnv", "50"]


def test_check_env_passes(make_env) -> None:
    env = make_env()
    check_env(env.unwrapped, skip_render_check=True)


def test_reset_observation_and_info(make_env) -> None:
    env = make_env()
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space
    assert "Spaceship Titanic" in obs and "/workspace/submission.csv" in obs
    assert "data/  (read-only)" in obs and "train.csv" in obs
    assert info["data_source"] == "replica"
    assert info["steps_left"] == 50
    roles = [m["role"] for m in info["messages"]]
    assert roles == ["system", "user"]
    tools = env.unwrapped.tools
    assert [t["function"]["name"] for t in tools][-1] == "submit"
    assert "<tool_call>" in env.unwrapped.system_prompt


def test_scripted_episode_gets_valid_grade_and_positive_reward(make_env) -> None:
    env = make_env(reward_mode="normalized")
    result = run_episode(env, make_agent("scripted"), seed=0)
    assert result.terminated and not result.truncated
    grade = result.grade
    assert grade is not None and grade["valid"], grade
    assert 0.75 <= grade["score"] <= 0.85
    assert result.reward > 0
    assert grade["gold_medal"] is None and grade["percentile"] is None  # replica: not claimed
    assert grade["reference_score"] is not None


def test_sample_submission_scores_about_half(make_env) -> None:
    env = make_env(reward_mode="raw")
    env.reset(seed=0)
    env.step(call("execute", command="cp data/sample_submission.csv submission.csv"))
    _obs, reward, term, _trunc, info = env.step(call("submit"))
    assert term and info["grade"]["valid"]
    assert 0.45 <= info["grade"]["score"] <= 0.55
    assert reward == pytest.approx(info["grade"]["score"])


def test_file_tools_roundtrip(make_env) -> None:
    env = make_env()
    env.reset(seed=0)
    obs, *_, info = env.step(call("write_file", path="src/model.py", content="a = 1\nb = 2\n"))
    assert info["ok"] and "wrote 12 bytes to /workspace/src/model.py" in obs
    obs, *_, info = env.step(call("edit_file", path="src/model.py", old="b = 2", new="b = 3"))
    assert info["ok"], obs
    obs, *_, info = env.step(call("read_file", path="src/model.py", start_line=2, end_line=2))
    assert obs.endswith("b = 3")
    obs, *_, info = env.step(call("execute", command="cat src/model.py && python -c 'print(6*7)'"))
    assert info["ok"] and "42" in obs and obs.startswith("[exit code 0")
    obs, *_, info = env.step(call("edit_file", path="src/model.py", old="zzz", new="y"))
    assert not info["ok"] and "not found" in obs
    env.unwrapped.step(call("write_file", path="dup.txt", content="x x"))
    obs, *_, info = env.step(call("edit_file", path="dup.txt", old="x", new="y"))
    assert not info["ok"] and "occurs 2 times" in obs
    obs, *_, info = env.step(call("edit_file", path="dup.txt", old="x", new="y", replace_all=True))
    assert info["ok"]
    obs, *_, info = env.step(call("list_files", path="src"))
    assert "model.py" in obs


MALFORMED = [
    None,
    12,
    [],
    "",
    "hello, I will now think",
    "{broken json",
    "<tool_call>{oops}</tool_call>",
    {"nothing": "here"},
    {"tool": "launch_missiles", "args": {}},
    {"tool": "read_file", "args": {}},
    {"tool": "read_file", "args": {"path": 7}},
    {"tool": "read_file", "args": {"path": "a", "bogus": 1}},
    {"tool": "execute", "args": "not json"},
    {"tool": "execute", "args": {"command": ""}},
    {"tool": "read_file", "args": {"path": "/etc/shadow"}},
    {"tool": "read_file", "args": {"path": "../../../../root/.bashrc"}},
    {"tool": "write_file", "args": {"path": "data/x.csv", "content": "x"}},
    {"tool": "write_file", "args": {"path": "a.txt", "content": "bad \udcff surrogate"}},
    {"tool": "read_file", "args": {"path": "does/not/exist.txt"}},
    {"tool": "read_file", "args": {"path": "x", "start_line": -3}},
    {"role": "assistant", "tool_calls": [{"function": {"name": "a", "arguments": "{}"}}] * 2},
]


@pytest.mark.parametrize("action", MALFORMED, ids=[f"m{i}" for i in range(len(MALFORMED))])
def test_malformed_action_gives_error_observation_and_env_keeps_working(make_env, action) -> None:
    env = make_env()
    env.reset(seed=0)
    obs, reward, term, trunc, info = env.step(action)
    assert (isinstance(obs, str) and obs.startswith("error:")) or not info["ok"]
    assert info["ok"] is False and info["error"]
    assert reward == 0.0 and not term and not trunc
    assert info["steps_left"] == 49
    obs, *_, info = env.step(call("list_files"))
    assert info["ok"] and "data/" in obs


def test_execute_reports_exit_code_timeout_and_memory(make_env) -> None:
    # A generous limit for the allocation (a loaded machine may take seconds to start
    # python), a short per-call timeout for the sleep.
    env = make_env(exec_timeout_s=60, memory_mb=600)
    env.reset(seed=0)
    obs, *_, info = env.step(call("execute", command="echo out; echo err >&2; exit 3"))
    assert obs.startswith("[exit code 3 ·") and "out" in obs and "err" in obs
    assert not info["ok"] and info["tool_meta"]["exit_code"] == 3
    obs, *_, info = env.step(call("execute", command="sleep 30", timeout=2))
    assert "killed: wall-clock timeout after 2 s" in obs and info["tool_meta"]["timed_out"]
    obs, *_, info = env.step(call("execute", command="python -c 'b = bytearray(3 * 1024**3)'"))
    assert "killed: out of memory" in obs or "MemoryError" in obs
    obs, *_, info = env.step(call("execute", command="echo fine"))
    assert info["ok"] and "fine" in obs


def test_long_output_is_truncated_with_marker(make_env) -> None:
    env = make_env(max_observation_chars=2000)
    env.reset(seed=0)
    obs, *_, _info = env.step(call("execute", command="seq 1 200000"))
    assert len(obs) < 2600
    assert re.search(r"\[\.\.\. [\d,]+ (characters|bytes) omitted", obs)
    assert "1288895 bytes of output" in obs.replace(",", "")
    assert obs.rstrip().endswith("200000")
    obs, *_ = env.step(call("read_file", path="data/train.csv"))
    assert "output truncated" in obs and "characters omitted" in obs


def test_answers_unreachable_through_tools(make_env, mle_gym_home: Path) -> None:
    env = make_env(reward_mode="raw")
    env.reset(seed=0)
    private = next(mle_gym_home.glob("data/mlebench/spaceship-titanic/replica-seed0-key*/private"))
    answers = private / "test.csv"
    assert answers.is_file()
    obs, *_, info = env.step(call("read_file", path=str(answers)))
    assert not info["ok"]
    obs, *_, info = env.step(call("execute", command=f"cat {answers}; ls {private}"))
    assert "No such file" in obs and "Transported" not in obs
    obs, *_, info = env.step(call("execute", command=f"ln -s {answers} submission.csv; ls -l"))
    obs, *_, info = env.step(call("read_file", path="submission.csv"))
    assert not info["ok"] and "Transported" not in obs
    obs, reward, term, _trunc, info = env.step(call("submit"))
    assert term and not info["grade"]["valid"] and reward == 0.0


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "no submission"),
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00binary", "binary"),
        (b"\xff\xfe\xfa not utf8 at all", "UTF-8"),
        (b"PassengerId,Transported\n", "no data rows"),
        ("only_id\n{ids}", "missing"),
        ("PassengerId,Transported,Extra\n{rows_extra}", "unexpected column"),
        ("PassengerId,Transported\n{half}", "row"),
        ("PassengerId,Transported\n{dup}", "duplicate"),
        ("PassengerId,Transported\n{unknown}", "unknown"),
        ("PassengerId,Transported\n{nan}", "empty"),
        ("PassengerId,Transported\n{maybe}", "True/False"),
        ("PassengerId,Transported\n{ragged}", "line"),
    ],
)
@pytest.mark.parametrize("grading", ["strict", "mlebench"])
def test_malformed_submissions_are_invalid_with_specific_message(
    make_env, content: object, fragment: str, grading: str
) -> None:
    """Strict grading rejects each with a message naming the problem; MLE-bench's grading
    (the default) rejects all but the extra column and carries strict's message in
    ``strict_findings``."""
    env = make_env(grading=grading)
    env.reset(seed=0)
    ws = env.unwrapped.workspace
    sample = (env.unwrapped.data_dir / "sample_submission.csv").read_text().splitlines()[1:]
    ids = [line.split(",")[0] for line in sample]
    if content is not None:
        if isinstance(content, str):
            rows = [f"{i},False" for i in ids]
            content = content.format(
                ids="\n".join(ids),
                rows_extra="\n".join(f"{r},1" for r in rows),
                half="\n".join(rows[: len(rows) // 2]),
                dup="\n".join([*rows[:-1], rows[0]]),
                unknown="\n".join([*rows[:-1], "9999_99,False"]),
                nan="\n".join([*rows[:-1], f"{ids[-1]},"]),
                maybe="\n".join([*rows[:-1], f"{ids[-1]},maybe"]),
                ragged="\n".join([*rows[:-1], f"{ids[-1]},False,extra,fields"]),
            ).encode()
        (ws / "submission.csv").write_bytes(content)
    accepted = grading == "mlebench" and fragment == "unexpected column"
    obs, *_, info = env.step(call("validate_submission"))
    assert info["ok"] is accepted and obs.startswith("valid:" if accepted else "invalid:"), obs
    assert "score" not in obs.lower().replace("does not score", "")
    obs, reward, term, _trunc, info = env.step(call("submit"))
    grade = info["grade"]
    assert term and grade["grading"] == grading
    if accepted:
        assert grade["valid"] is True and grade["score"] is not None
    else:
        assert reward == 0.0 and grade["valid"] is False and grade["score"] is None
    strict_message = grade["message"] if grading == "strict" else " ".join(grade["strict_findings"])
    if content is None:
        strict_message = grade["message"]  # no file: nothing to compare, both say so
    assert fragment.lower() in strict_message.lower(), (grade["message"], strict_message)


def test_validate_never_reveals_score(make_env) -> None:
    env = make_env()
    env.reset(seed=0)
    env.step(call("execute", command="cp data/sample_submission.csv submission.csv"))
    obs, *_, info = env.step(call("validate_submission"))
    assert info["ok"] and obs.startswith("valid:")
    assert not re.search(r"\d\.\d{3}", obs)
    assert "grade" not in info


def test_step_budget_truncates_and_grades_current_submission(make_env) -> None:
    env = make_env(max_episode_steps=3, reward_mode="raw")
    env.reset(seed=0)
    env.step(call("execute", command="cp data/sample_submission.csv submission.csv"))
    _, _, term, trunc, info = env.step(call("list_files"))
    assert not (term or trunc)
    _obs, reward, term, trunc, info = env.step(call("list_files"))
    assert trunc and not term
    assert info["truncation_reason"].startswith("step budget")
    assert info["grade"]["valid"] and reward == pytest.approx(info["grade"]["score"])
    with pytest.raises(gym.error.ResetNeeded):
        env.unwrapped.step(call("list_files"))


def test_truncation_without_grading(make_env) -> None:
    env = make_env(max_episode_steps=1, grade_on_truncation=False)
    env.reset(seed=0)
    obs, reward, _term, trunc, info = env.step(call("list_files"))
    assert trunc and reward == 0.0 and "grade" not in info and "not graded" in obs


def test_time_budget_truncates(make_env) -> None:
    env = make_env(time_budget_s=1.5, reward_mode="raw")
    env.reset(seed=0)
    obs, _reward, _term, trunc, info = env.step(call("execute", command="sleep 5"))
    assert trunc and info["truncation_reason"].startswith("time budget")
    assert "killed: wall-clock timeout" in obs
    assert info["grade"]["valid"] is False and "no submission" in info["grade"]["message"]


def test_info_every_step(make_env) -> None:
    env = make_env()
    env.reset(seed=0)
    obs, _, _, _, info = env.step(
        {
            "id": "abc",
            "type": "function",
            "function": {"name": "list_files", "arguments": '{"path": "data"}'},
        }
    )
    for key in (
        "tool",
        "ok",
        "elapsed_s",
        "step_elapsed_s",
        "steps_left",
        "time_left_s",
        "messages",
        "data_source",
        "episode_id",
    ):
        assert key in info, key
    assert info["tool"] == "list_files" and info["data_source"] == "replica"
    assistant, tool_msg = info["messages"]
    assert assistant["tool_calls"][0]["id"] == "abc"
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"path": "data"}
    assert tool_msg == {"role": "tool", "tool_call_id": "abc", "name": "list_files", "content": obs}


def test_render_ansi_transcript(make_env) -> None:
    env = make_env(render_mode="ansi")
    env.reset(seed=0)
    env.step(call("execute", command="echo rendered-output"))
    text = env.render()
    assert "step 1: execute" in text and "rendered-output" in text


def test_trajectory_written_and_flushed_each_step(make_env, tmp_path: Path) -> None:
    path = tmp_path / "traj.jsonl"
    env = make_env(trajectory_path=path, reward_mode="raw")
    env.reset(seed=3)
    env.step(call("list_files"))
    records = read_trajectory(path)  # read while the episode is still running
    assert [r["type"] for r in records] == ["reset", "step"]
    assert records[0]["seed"] == 3 and records[0]["data_source"] == "replica"
    env.step(call("execute", command="cp data/sample_submission.csv submission.csv"))
    env.step(call("submit"))
    records = read_trajectory(path)
    assert [r["type"] for r in records] == ["reset", "step", "step", "step"]
    last = records[-1]
    assert last["terminated"] and last["grade"]["valid"] and last["tool"] == "submit"
    assert all("observation" in r for r in records)


def test_reward_modes(make_env) -> None:
    with pytest.raises(ValueError, match="Kaggle"):
        make_env(reward_mode="percentile")
    with pytest.raises(ValueError, match="reward_mode"):
        make_env(reward_mode="bogus")
    env = make_env(reward_mode="normalized")
    env.reset(seed=0)
    env.step(call("execute", command="cp data/sample_submission.csv submission.csv"))
    _, reward, *_, info = env.step(call("submit"))
    assert info["reward_mode"] == "normalized"
    assert reward == pytest.approx(0.0, abs=0.05)  # the sample submission is the 0 anchor


def test_same_seed_same_observations_and_grade(make_env) -> None:
    def episode() -> tuple[list[str], dict]:
        env = make_env(reward_mode="raw")
        obs, _ = env.reset(seed=7)
        seen = [obs]
        for action in [
            call("list_files", path="data"),
            call("read_file", path="data/train.csv", end_line=3),
            call("execute", command="head -c 300 data/test.csv"),
            call("execute", command="cp data/sample_submission.csv submission.csv"),
            call("submit"),
        ]:
            obs, *_, info = env.step(action)
            seen.append(re.sub(r"\d+\.\d+ s ·", "<t> s ·", obs))
        env.close()
        return seen, info["grade"]

    a, grade_a = episode()
    b, grade_b = episode()
    assert a == b
    assert grade_a == grade_b


def _sandbox_owner(env) -> tuple[set[int], set[str]]:
    """The host uids (local) or container ids (docker) whose processes are the episode's."""
    sandbox = env.unwrapped.sandbox
    container = getattr(sandbox, "container_id", "")
    if container:  # docker: uid 1000 is every container's, the cgroup names this one
        return set(), {container}
    uid = getattr(sandbox, "uid", None)
    return ({uid} if uid is not None and uid != os.getuid() else set()), set()


def _project_leftovers(uids: set[int], containers: set[str] = frozenset()) -> list[str]:
    """Processes of the given host uids or containers, cgroups and containers of this
    process still there."""
    found = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            with contextlib.suppress(OSError):
                if os.stat(f"/proc/{p}").st_uid in uids:
                    found.append(f"pid {p}")
                elif containers:
                    cgroup = Path(f"/proc/{p}/cgroup").read_text()
                    if any(c in cgroup for c in containers):
                        found.append(f"pid {p} (container)")
    for group in Path("/sys/fs/cgroup").glob(f"*/mle_gym/{os.getpid()}-*"):
        found.append(f"cgroup {group}")
    with contextlib.suppress(Exception):
        import docker

        client = docker.from_env()
        mine = client.containers.list(
            all=True, filters={"label": f"mle_gym.owner_pid={os.getpid()}"}
        )
        found += [f"container {c.short_id}" for c in mine]
    return found


def test_close_removes_workspace_and_processes(make_env) -> None:
    env = make_env()
    env.reset(seed=0)
    ws = env.unwrapped.workspace
    uids, containers = _sandbox_owner(env)
    env.step(call("execute", command="(setsid sleep 600 &) ; echo ok"))
    env.step(call("python", code="import subprocess; subprocess.Popen(['sleep', '600']); 1"))
    assert ws.is_dir()
    env.close()
    assert not ws.exists()
    assert _project_leftovers(uids, containers) == []
    env.close()  # idempotent


def test_python_tool_keeps_state_and_recovers_from_oom(make_env) -> None:
    env = make_env(memory_mb=700)
    env.reset(seed=0)
    obs, *_, info = env.step(call("python", code="x = 41"))
    assert info["ok"] and obs.startswith("[ok")
    obs, *_, info = env.step(call("python", code="print(x + 1)"))
    assert obs.splitlines()[1] == "42"
    obs, *_, info = env.step(
        call("python", code="import pandas as pd\ndf = pd.read_csv('data/train.csv')\nlen(df)")
    )
    assert info["ok"] and obs.endswith("Out: 7823")
    obs, *_, info = env.step(call("python", code="import time; time.sleep(30)", timeout=1))
    assert not info["ok"] and "interrupted: timeout after 1 s" in obs
    obs, *_, info = env.step(call("python", code="b = bytearray(3 * 1024**3)"))
    assert not info["ok"] and "interpreter died: killed by the memory limit" in obs
    obs, *_, info = env.step(call("python", code="print('after restart')"))
    assert info["ok"], obs
    assert "a fresh Python interpreter was started" in obs and "memory limit" in obs
    assert "after restart" in obs
    obs, *_, info = env.step(call("python", code="x"))
    assert not info["ok"] and "NameError" in obs
    obs, *_, info = env.step(call("execute", command="echo shell-ok"))
    assert info["ok"] and "shell-ok" in obs


@pytest.mark.slow
def test_twenty_abusive_episodes_leave_nothing_behind(make_env) -> None:
    # Timeouts are per call (1 s); the limit is generous so that an allocation on a
    # loaded machine reaches the memory limit before any timeout.
    env = make_env(memory_mb=300, exec_timeout_s=60)
    uids: set[int] = set()
    containers: set[str] = set()
    for seed in range(20):
        env.reset(seed=seed)
        episode_uids, episode_containers = _sandbox_owner(env)
        uids |= episode_uids
        containers |= episode_containers
        _, *_, info = env.step(call("execute", command="setsid sleep 600 & sleep 30", timeout=1))
        assert info["tool_meta"]["timed_out"]
        obs, *_, info = env.step(call("execute", command="python -c 'b = bytearray(2**30)'"))
        assert info["tool_meta"]["oom_killed"] or "MemoryError" in obs, obs
        _, *_, info = env.step(call("python", code="import time; time.sleep(30)", timeout=1))
        assert info["tool_meta"]["status"] == "interrupted"
        _, *_, info = env.step(call("python", code="b = bytearray(2**30)"))
        assert info["tool_meta"]["status"] == "died"
    env.close()
    assert _project_leftovers(uids, containers) == []


def test_missing_bubblewrap_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(Exception, match="apt-get install bubblewrap") as err:
        gym.make(ENV_ID, data="replica")
    assert "unsafe-local" in str(err.value)


def test_unknown_sandbox_and_bad_kwargs() -> None:
    with pytest.raises(ValueError, match="unknown sandbox"):
        gym.make(ENV_ID, sandbox="vm")
    with pytest.raises(ValueError, match="data must be one of"):
        gym.make(ENV_ID, data="cloud")
    with pytest.raises(ValueError, match="positive"):
        gym.make(ENV_ID, exec_timeout_s=-1)


def test_random_agent_never_breaks_the_env(make_env) -> None:
    env = make_env(max_episode_steps=15)
    result = run_episode(env, make_agent("random", seed=1), seed=1)
    assert result.terminated or result.truncated
    assert result.grade is not None


def test_unsafe_local_backend_runs_an_episode(make_env) -> None:
    env = make_env(sandbox="unsafe-local", reward_mode="raw")
    env.reset(seed=0)
    obs, *_, info = env.step(call("execute", command="head -n 1 data/train.csv"))
    assert info["ok"] and "PassengerId" in obs
    env.step(call("execute", command="cp data/sample_submission.csv submission.csv"))
    *_, info = env.step(call("submit"))
    assert info["grade"]["valid"]


def test_cli_run_prints_transcript_and_result(capsys: pytest.CaptureFixture[str]) -> None:
    from mle_gym.cli import main

    code = main(
        ["run", "--env", ENV_ID, "--agent", "scripted", "--data", "replica", "--no-trajectory"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "# Task: Spaceship Titanic" in out and "--- step 5: execute" in out
    result = json.loads(out.split("=== result ===", 1)[1])
    assert result["valid"] and result["reward"] > 0 and result["steps"] == 7


def test_workspaces_of_dead_hosts_are_removed(make_env, tmp_path: Path) -> None:
    root = tmp_path / "workspaces"
    root.mkdir()
    dead = subprocess.Popen(["true"])
    dead.wait()
    orphan = root / f"spaceship-titanic.pid{dead.pid}.abc"
    (orphan / "workspace").mkdir(parents=True)
    kept = root / f"spaceship-titanic.pid{dead.pid}.keep"
    kept.mkdir()
    (kept / ".keep").touch()
    env = make_env(workspace_root=root, keep_workspace=True)
    env.reset(seed=0)
    assert not orphan.exists() and kept.exists()
    mine = env.unwrapped.workspace.parent
    env.close()
    assert (mine / ".keep").exists() and (mine / "workspace").is_dir()
