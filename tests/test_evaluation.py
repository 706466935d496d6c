"""The evaluation harness: `mle-gym eval` / `mle-gym report`, resumable runs, Ray, reports.

Real episodes (scripted agent, replica data, bubblewrap sandboxes) on the two tasks with
the fastest replicas; the reference run (2 tasks x 2 seeds over 2 workers) is made once
and the kill/resume and Ray runs are compared with it.
"""

from __future__ import annotations

import json
import math
import os
import signal
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from mle_gym.evaluation import layout
from mle_gym.evaluation import run_report as report_mod
from mle_gym.evaluation.agent_spec import parse_agent_args
from mle_gym.evaluation.config import RunConfig, merge_for_resume, save_config
from mle_gym.evaluation.errors import EvalConfigError
from mle_gym.evaluation.run_report import TaskInfo, beats_baseline, build_report, strip_timing
from mle_gym.evaluation.snapshot import snapshot_workspace

pytestmark = [pytest.mark.slow]

TASKS = ["nomad2018-predict-transparent-conductors", "spaceship-titanic"]
PLOTS = ("reward.png", "score.png", "medals.png", "leaderboard.png")


def eval_cmd(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "mle_gym.cli", "eval", "--out", str(out), *extra]


def base_args() -> list[str]:
    return [*TASKS, "--seeds", "2", "--data", "replica", "--sandbox", "local"]


def run_cli(cmd: list[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=os.environ)


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def episode_folders(run_dir: Path) -> list[Path]:
    return sorted(p.parent for p in run_dir.glob("episodes/*/seed-*/episode.json"))


# -- process-tree helpers (Linux /proc) ---------------------------------------------------------


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, ppid, start time) of a process, or None if it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()
    return fields[0], int(fields[1]), int(fields[19])


def descendants(root: int) -> dict[int, int]:
    """pid -> start time of every live descendant of ``root``."""
    children: dict[int, list[int]] = {}
    starts: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None and st[0] != "Z":
                children.setdefault(st[1], []).append(int(entry.name))
                starts[int(entry.name)] = st[2]
    out: dict[int, int] = {}
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            out[child] = starts[child]
            stack.append(child)
    return out


def still_running(procs: dict[int, int]) -> list[int]:
    """The processes of ``procs`` that still run (same pid and start time, not a zombie)."""
    alive = []
    for pid, start in procs.items():
        st = _stat(pid)
        if st is not None and st[2] == start and st[0] != "Z":
            alive.append(pid)
    return alive


def wait_gone(procs: dict[int, int], timeout: float = 30.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = still_running(procs)
        if not alive:
            return []
        time.sleep(0.2)
    return still_running(procs)


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "?"


# -- the reference run ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """2 tasks x 2 seeds, scripted agent, 2 local worker processes; (run dir, stderr)."""
    out = tmp_path_factory.mktemp("eval") / "reference"
    done = run_cli(eval_cmd(out, *base_args(), "--workers", "2"))
    assert done.returncode == 0, done.stdout + done.stderr
    return out, done.stderr


def test_eval_with_two_workers_reports_what_the_episode_folders_hold(
    reference_run: tuple[Path, str],
) -> None:
    run_dir, stderr = reference_run
    folders = episode_folders(run_dir)
    assert [f.relative_to(run_dir).as_posix() for f in folders] == [
        f"episodes/{t}/seed-{s}" for t in TASKS for s in (0, 1)
    ]
    pids = set()
    for folder in folders:
        record = load(folder / "episode.json")
        grade = load(folder / "grade.json")
        assert record["status"] == "done" and record["errors"] == []
        assert record["score"] == grade["score"] and grade["valid"] is True
        assert record["steps"] > 0 and record["timing"]["seconds"] > 0
        assert (folder / "trajectory.jsonl").stat().st_size > 0
        final = folder / "final"
        assert (final / "submission.csv").is_file() and (final / "solution.py").is_file()
        assert not (final / "data").exists()
        copied = {f["path"] for f in record["final_files"]["copied"]}
        assert {"submission.csv", "solution.py"} <= copied
        pids.add(record["host"]["pid"])
    assert len(pids) == 2, "both worker processes should have run episodes"

    report = load(run_dir / "report.json")
    # Independently: per task from its grade.json/episode.json files, then overall per seed.
    per_seed: dict[int, dict[str, list[float]]] = {}
    for task in TASKS:
        grades = [load(run_dir / f"episodes/{task}/seed-{s}/grade.json") for s in (0, 1)]
        records = [load(run_dir / f"episodes/{task}/seed-{s}/episode.json") for s in (0, 1)]
        stats = report["tasks"][task]
        made = [100.0 * g["submission_exists"] for g in grades]
        valid = [100.0 * g["valid"] for g in grades]
        scores = [g["score"] for g in grades if g["valid"]]
        rewards = [r["reward"] for r in records]
        assert stats["episodes"] == {
            "planned": 2,
            "finished": 2,
            "done": 2,
            "failed": 0,
            "pending": 0,
        }
        assert stats["made_submission_pct"]["mean"] == pytest.approx(statistics.mean(made))
        assert stats["valid_submission_pct"]["mean"] == pytest.approx(statistics.mean(valid))
        assert stats["score"]["mean"] == pytest.approx(statistics.mean(scores))
        assert stats["score"]["sem"] == pytest.approx(statistics.stdev(scores) / math.sqrt(2))
        assert stats["reward"]["mean"] == pytest.approx(statistics.mean(rewards))
        assert stats["data_sources"] == ["replica"]
        assert stats["any_medal_pct"]["n"] == 0  # medals are never claimed on replica data
        for seed, g, r in zip((0, 1), grades, records, strict=True):
            bucket = per_seed.setdefault(seed, {"made": [], "valid": [], "reward": []})
            bucket["made"].append(100.0 * g["submission_exists"])
            bucket["valid"].append(100.0 * g["valid"])
            bucket["reward"].append(r["reward"])
    overall = report["overall"]
    for key, name in (
        ("made", "made_submission_pct"),
        ("valid", "valid_submission_pct"),
        ("reward", "reward"),
    ):
        seed_values = [statistics.mean(per_seed[s][key]) for s in (0, 1)]
        assert overall[name]["mean"] == pytest.approx(statistics.mean(seed_values))
        assert overall[name]["n"] == 2
    assert report["counts"]["done"] == 4 and report["failures"] == []
    assert report["config"]["agent"] == "scripted" and report["config"]["seeds"] == [0, 1]

    md = (run_dir / "report.md").read_text()
    assert "# Evaluation report" in md and "spaceship-titanic" in md
    for name in PLOTS:
        png = run_dir / "plots" / name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert f"plots/{name}" in report["plots"]
    # not a terminal: plain progress lines
    assert "[eval] 4/4 finished (4 done, 0 failed)" in stderr
    assert "\r" not in stderr


def test_report_command_rebuilds_the_same_report(reference_run: tuple[Path, str]) -> None:
    run_dir, _ = reference_run
    before = load(run_dir / "report.json")
    done = run_cli([sys.executable, "-m", "mle_gym.cli", "report", str(run_dir)])
    assert done.returncode == 0, done.stderr
    assert strip_timing(load(run_dir / "report.json")) == strip_timing(before)


def test_kill_9_mid_run_then_resume_loses_nothing(
    reference_run: tuple[Path, str], tmp_path: Path
) -> None:
    ref_dir, _ = reference_run
    out = tmp_path / "killed"
    proc = subprocess.Popen(
        eval_cmd(out, *base_args(), "--workers", "1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ,
    )
    try:
        deadline = time.monotonic() + 120
        while not episode_folders(out):
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "no episode finished in time"
            time.sleep(0.05)
        tree = descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        if proc.stderr:
            proc.stderr.close()
    assert tree, "the eval process should have had worker processes"
    left = wait_gone(tree)
    assert not left, [cmdline(p) for p in left]

    finished = {f: (f / "episode.json").stat().st_mtime_ns for f in episode_folders(out)}
    assert 1 <= len(finished) < 4, "the kill should land mid-run"

    done = run_cli(eval_cmd(out, "--resume"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(finished)} of 4 episode(s) already finished" in done.stderr
    assert len(episode_folders(out)) == 4
    for folder, mtime in finished.items():
        assert (folder / "episode.json").stat().st_mtime_ns == mtime, f"{folder} was rerun"
    ours, reference = load(out / "report.json"), load(ref_dir / "report.json")
    assert strip_timing(ours) == strip_timing(reference)
    workspaces = Path(os.environ["MLE_GYM_HOME"]) / "workspaces"
    killed_pids = {str(p) for p in tree}
    leftovers = [
        w.name
        for w in workspaces.glob("*")
        if w.name.split(".pid")[-1].split(".")[0] in killed_pids
    ]
    assert not leftovers, leftovers


def test_resume_with_other_settings_is_refused(reference_run: tuple[Path, str]) -> None:
    run_dir, _ = reference_run
    done = run_cli(eval_cmd(run_dir, "--resume", "--agent", "random", "--max-steps", "5"))
    assert done.returncode == 2
    assert "agent: stored 'scripted', now 'random'" in done.stderr
    assert "max_steps: stored None, now 5" in done.stderr
    done = run_cli(eval_cmd(run_dir, "spaceship-titanic"))
    assert done.returncode == 2 and "--resume" in done.stderr


def test_ray_backend_matches_local_backend(reference_run: tuple[Path, str], tmp_path: Path) -> None:
    import ray

    from mle_gym.evaluation import EvalRequest, run_eval

    ref_dir, _ = reference_run
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        result = run_eval(
            EvalRequest(
                out=tmp_path / "ray",
                tasks=list(TASKS),
                seeds=2,
                data="replica",
                sandbox="local",
                backend="ray",
                progress=False,
            )
        )
    finally:
        ray.shutdown()
    assert (result.done, result.failed, result.ran) == (4, 0, 4)
    run_dir = result.run_dir
    for folder in episode_folders(run_dir):
        record = load(folder / "episode.json")
        assert record["backend"] == "ray" and record["host"]["pid"] != os.getpid()
        twin = ref_dir / folder.relative_to(run_dir)
        assert load(folder / "grade.json") == load(twin / "grade.json")
        assert (folder / "final" / "submission.csv").read_bytes() == (
            twin / "final" / "submission.csv"
        ).read_bytes()
    assert strip_timing(load(run_dir / "report.json")) == strip_timing(
        load(ref_dir / "report.json")
    )


AGENTS = '''
import os

from mle_gym.agents.scripted import ScriptedAgent


class Flaky(ScriptedAgent):
    """Seed 0: raises on its third action; seed 1: its worker process dies; else scripted."""

    def __init__(self, seed=None, mode="per-seed"):
        super().__init__()
        self.seed = seed
        self.calls = 0

    def act(self, observation, info):
        self.calls += 1
        if self.seed == 0 and self.calls == 3:
            raise RuntimeError("the agent broke on purpose")
        if self.seed == 1 and self.calls == 2:
            os._exit(3)
        return super().act(observation, info)
'''


def test_failing_agent_makes_failed_episodes_and_the_run_completes(tmp_path: Path) -> None:
    agent_file = tmp_path / "flaky_agent.py"
    agent_file.write_text(textwrap.dedent(AGENTS))
    out = tmp_path / "failing"
    done = run_cli(
        eval_cmd(
            out,
            "spaceship-titanic",
            "--seeds",
            "3",
            "--data",
            "replica",
            "--agent",
            f"{agent_file}:Flaky",
            "--agent-arg",
            "mode=per-seed",
        )
    )
    assert done.returncode == 1, done.stdout + done.stderr  # completed, with failures
    folder = out / "episodes" / "spaceship-titanic"
    raised = load(folder / "seed-0" / "episode.json")
    assert raised["status"] == "failed" and raised["steps"] == 2
    (error,) = raised["errors"]
    assert error["phase"] == "agent" and error["type"] == "RuntimeError"
    assert raised["failure_kind"] == "agent"
    assert "the agent broke on purpose" in error["traceback"]
    assert "Traceback (most recent call last)" in error["traceback"]
    assert not (folder / "seed-0" / "grade.json").exists()
    assert (folder / "seed-0" / "trajectory.jsonl").is_file()

    died = load(folder / "seed-1" / "episode.json")
    assert died["status"] == "failed"
    assert "exit code 3" in died["errors"][0]["message"]

    fine = load(folder / "seed-2" / "episode.json")
    assert fine["status"] == "done" and fine["valid"] is True
    assert fine["agent"]["args"] == {"mode": "per-seed"}

    report = load(out / "report.json")
    assert report["counts"] == {"planned": 3, "finished": 3, "done": 1, "failed": 2, "pending": 0}
    assert [f["seed"] for f in report["failures"]] == [0, 1]
    task = report["tasks"]["spaceship-titanic"]
    assert task["made_submission_pct"]["mean"] == pytest.approx(100 / 3)
    assert task["reward"]["mean"] == pytest.approx(fine["reward"] / 3)
    assert "FAILED spaceship-titanic seed 0: RuntimeError" in done.stderr
    assert "Failed episodes" in (out / "report.md").read_text()


# -- report functions on synthetic Kaggle-data episodes (hand-computed figures) ---------------


def _grade(task: str, source: str, **fields: Any) -> dict[str, Any]:
    grade = {
        "task_id": task,
        "competition_id": task,
        "data_source": source,
        "score": None,
        "valid": False,
        "message": "",
        "submission_exists": True,
        "is_lower_better": False,
        "gold_medal": False,
        "silver_medal": False,
        "bronze_medal": False,
        "any_medal": False,
        "above_median": False,
        "percentile": None,
    }
    grade.update(fields)
    if any(grade[f"{m}_medal"] for m in ("gold", "silver", "bronze")):
        grade["any_medal"] = True
    return grade


def _write_episode(
    run_dir: Path,
    task: str,
    seed: int,
    status: str,
    reward: float,
    grade: dict[str, Any] | None,
    usage: dict[str, Any] | None = None,
) -> None:
    folder = layout.episode_dir(run_dir, task, seed)
    folder.mkdir(parents=True)
    if grade is not None:
        (folder / "grade.json").write_text(json.dumps(grade))
    record = {
        "status": status,
        "seed": seed,
        "reward": reward,
        "steps": 5 + seed,
        "data_source": "kaggle",
        "usage": usage or {},
        "errors": [{"type": "RuntimeError", "message": "boom"}] if status == "failed" else [],
        "timing": {"seconds": 10.0 + seed},
    }
    (folder / "episode.json").write_text(json.dumps(record))


def test_mlebench_aggregates_on_kaggle_data_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = "spaceship-titanic", "nomad2018-predict-transparent-conductors"
    config = RunConfig(
        tasks=(f"MLEBench/{a}-v0", f"MLEBench/{b}-v0"), seeds=(0, 1, 2), data="kaggle"
    )
    save_config(tmp_path, config)
    k = "kaggle"
    tokens = {"prompt_tokens": 100, "completion_tokens": 10, "model_seconds": 1.5}
    # task A (higher is better)
    _write_episode(
        tmp_path,
        a,
        0,
        "done",
        1.0,
        _grade(a, k, valid=True, score=0.83, gold_medal=True, above_median=True, percentile=1.0),
        tokens,
    )
    _write_episode(tmp_path, a, 1, "done", 0.3, _grade(a, k, valid=True, score=0.70))
    # a failed episode counts as no submission, whatever its files say
    _write_episode(tmp_path, a, 2, "failed", 0.5, _grade(a, k, valid=True, score=0.9))
    # task B (lower is better)
    _write_episode(
        tmp_path,
        b,
        0,
        "done",
        0.5,
        _grade(b, k, valid=True, score=0.065, bronze_medal=True, above_median=True),
        tokens,
    )
    _write_episode(tmp_path, b, 1, "done", 0.0, _grade(b, k, valid=False))
    _write_episode(
        tmp_path,
        b,
        2,
        "done",
        0.75,
        _grade(b, k, valid=True, score=0.060, silver_medal=True, above_median=True),
    )
    real_info = report_mod.task_info
    baselines = {a: 0.7, b: 0.07}

    def with_baseline(env_id: str) -> TaskInfo:
        info = real_info(env_id)
        task = layout.task_id_of(env_id)
        data = {**(info.data or {}), "kaggle": {"baseline_score": baselines[task]}}
        return TaskInfo(info.metric, info.lower_is_better, data, info.leaderboard)

    monkeypatch.setattr(report_mod, "task_info", with_baseline)
    report = build_report(tmp_path)
    overall, ta, tb = report["overall"], report["tasks"][a], report["tasks"][b]
    third, sem_a, sem_b = 100 / 3, 100 / 3, 16.666667  # hand-computed below

    def check(stat: dict[str, Any], mean: float, sem: float | None, n: int) -> None:
        assert stat["n"] == n
        assert stat["mean"] == pytest.approx(mean, abs=1e-5)
        if sem is None:
            assert stat["sem"] is None
        else:
            assert stat["sem"] == pytest.approx(sem, abs=1e-5)

    # per seed over tasks: made 100,100,50 · valid 100,50,50 · any medal 100,0,50 ·
    # gold 50,0,0 · above median 100,0,50 · success 50,0,50 · reward .75,.15,.375
    check(overall["made_submission_pct"], 83.333333, sem_b, 3)
    assert overall["made_submission_pct"]["per_seed"] == {"0": 100.0, "1": 100.0, "2": 50.0}
    check(overall["valid_submission_pct"], 66.666667, sem_b, 3)
    check(overall["any_medal_pct"], 50.0, 28.867513, 3)
    check(overall["gold_pct"], 16.666667, sem_b, 3)
    check(overall["silver_pct"], 16.666667, sem_b, 3)
    check(overall["bronze_pct"], 16.666667, sem_b, 3)
    check(overall["above_median_pct"], 50.0, 28.867513, 3)
    check(overall["success_pct"], 33.333333, sem_b, 3)
    check(overall["reward"], 0.425, 0.175, 3)
    check(overall["steps"], 6.0, 0.365148, 6)  # steps 5,6,7,5,6,7
    # per task over its seeds
    check(ta["made_submission_pct"], 66.666667, sem_a, 3)
    check(ta["valid_submission_pct"], 66.666667, sem_a, 3)
    check(ta["gold_pct"], third, sem_a, 3)
    check(ta["any_medal_pct"], third, sem_a, 3)
    check(ta["score"], 0.765, 0.065, 2)  # 0.83, 0.70
    check(ta["reward"], 0.433333, 0.296273, 3)  # 1.0, 0.3, 0 (failed)
    check(ta["success_pct"], third, sem_a, 3)  # 0.83 beats 0.7 by 18.6%
    check(tb["made_submission_pct"], 100.0, 0.0, 3)
    check(tb["valid_submission_pct"], 66.666667, sem_a, 3)
    check(tb["any_medal_pct"], 66.666667, sem_a, 3)
    check(tb["score"], 0.0625, 0.0025, 2)
    check(tb["success_pct"], third, sem_a, 3)  # 0.065 is 7.1% better: no; 0.060 14.3%: yes
    check(tb["leaderboard_percentile"], 0.0, 0.0, 3)
    check(ta["leaderboard_percentile"], third / 100, sem_a / 100, 3)
    assert overall["usage"]["total"] == {"completion_tokens": 20.0, "prompt_tokens": 200.0}
    assert overall["timing"]["usage"] == {"model_seconds": 3.0}
    assert report["failures"] == [
        {"task_id": a, "seed": 2, "kind": "unknown", "error": "RuntimeError: boom"}
    ]
    rows = {(r["task_id"], r["seed"]): r for r in report["episodes"]}
    assert rows[(a, 2)]["medal"] == "none"
    assert rows[(a, 2)]["submission_exists"] is False and rows[(a, 2)]["reward"] == 0.0
    # without the timing keys, nothing in the report measures time
    stripped = json.dumps(strip_timing(report))
    assert "seconds" not in stripped and "generated_at" not in stripped


def test_pending_episodes_are_listed_but_not_counted(tmp_path: Path) -> None:
    config = RunConfig(tasks=("MLEBench/spaceship-titanic-v0",), seeds=(0, 1), data="replica")
    save_config(tmp_path, config)
    grade = _grade("spaceship-titanic", "replica", valid=True, score=0.8)
    _write_episode(tmp_path, "spaceship-titanic", 0, "done", 0.9, grade)
    partial = layout.episode_dir(tmp_path, "spaceship-titanic", 1)
    partial.mkdir(parents=True)
    (partial / "trajectory.jsonl").write_text("{}\n")  # an interrupted episode
    report = build_report(tmp_path)
    assert report["counts"] == {"planned": 2, "finished": 1, "done": 1, "failed": 0, "pending": 1}
    assert report["overall"]["made_submission_pct"]["per_seed"] == {"0": 100.0}
    assert report["tasks"]["spaceship-titanic"]["gold_pct"]["n"] == 0  # replica: no medals


def test_success_rule_is_direction_aware() -> None:
    assert beats_baseline(0.80, 0.70, lower_is_better=False)  # +14%
    assert not beats_baseline(0.76, 0.70, lower_is_better=False)  # +8.6%
    assert beats_baseline(0.5, 0.6, lower_is_better=True)  # 16.7% lower
    assert not beats_baseline(0.7, 0.6, lower_is_better=True)
    assert beats_baseline(0.01, 0.0, lower_is_better=False)  # any gain over a zero baseline
    assert not beats_baseline(None, 0.5, lower_is_better=False)


# -- planning, config and snapshot units --------------------------------------------------------


def test_resume_rule_allows_a_superset_plan_only() -> None:
    stored = RunConfig(tasks=("MLEBench/a-v0",), seeds=(0, 1), agent="scripted")
    bigger = RunConfig(tasks=("MLEBench/a-v0", "MLEBench/b-v0"), seeds=(0, 1, 2))
    assert merge_for_resume(stored, bigger) == bigger
    with pytest.raises(EvalConfigError, match=r"leaves out 1 planned episode\(s\) \(seeds 1\)"):
        merge_for_resume(stored, RunConfig(tasks=("MLEBench/a-v0",), seeds=(0,)))
    other = RunConfig(tasks=("MLEBench/a-v0",), seeds=(0, 1), data="replica", agent_args={"x": 1})
    with pytest.raises(EvalConfigError) as err:
        merge_for_resume(stored, other)
    assert "agent_args: stored {}, now {'x': 1}" in str(err.value)
    assert "data: stored 'auto', now 'replica'" in str(err.value)
    # the order of tasks and seeds does not matter
    assert (
        RunConfig(tasks=("b", "a"), seeds=(1, 0)).to_json()
        == RunConfig(tasks=("a", "b"), seeds=(0, 1, 1)).to_json()
    )


def test_agent_args_parse_json_values() -> None:
    args = parse_agent_args(["t=0.5", "n=3", "flag=true", "name=gpt-x", "empty=", "l=[1, 2]"])
    assert args == {"t": 0.5, "n": 3, "flag": True, "name": "gpt-x", "empty": "", "l": [1, 2]}
    with pytest.raises(EvalConfigError):
        parse_agent_args(["novalue"])


def test_snapshot_skips_data_links_and_oversized_files(tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    (ws / "data").mkdir(parents=True)
    (ws / "data" / "train.csv").write_text("x\n" * 100)
    (ws / "src").mkdir()
    (ws / "src" / "model.py").write_text("print(1)\n")
    (ws / "submission.csv").write_text("id,y\n1,2\n")
    (ws / "big.bin").write_bytes(b"\0" * 5000)
    (ws / "medium.bin").write_bytes(b"\0" * 900)
    (ws / "escape").symlink_to("/etc/passwd")
    os.mkfifo(ws / "pipe")
    dest = tmp_path / "final"
    snap = snapshot_workspace(
        ws, dest, first=("submission.csv",), max_file_bytes=4000, max_total_bytes=900
    )
    copied = {f["path"] for f in snap.copied}
    assert copied == {"submission.csv", "src/model.py"}
    reasons = {s["path"]: s["reason"] for s in snap.skipped}
    assert "symbolic link" in reasons["escape"] and "regular" in reasons["pipe"]
    assert "cap" in reasons["big.bin"] and "total" in reasons["medium.bin"]
    assert not (dest / "data").exists() and not (dest / "escape").exists()
    assert (dest / "submission.csv").read_text() == "id,y\n1,2\n"
    assert snap.total_bytes == sum(f["bytes"] for f in snap.copied) <= 900
