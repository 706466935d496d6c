"""pass@k in the evaluation report: rows of ML-Bench episodes grouped by example, the
unbiased estimator over them, and a real ``mle-gym eval`` run where two seeds land on the
same example."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from mle_gym.evaluation.run_report import pass_at_k_stats


def row(env: str, example: int, passed: bool, status: str = "done") -> dict[str, object]:
    return {"env_id": env, "example_id": example, "passed": passed, "status": status}


def test_pass_at_k_over_examples_by_hand() -> None:
    rows = [
        row("MLBench/a-v0", 1, True),
        row("MLBench/a-v0", 1, False),
        row("MLBench/a-v0", 1, False),
        row("MLBench/a-v0", 2, False),
        row("MLBench/a-v0", 2, False),
        row("MLBench/a-v0", 2, False),
        row("MLBench/b-v0", 1, True),  # another env's example 1 is another example
        row("MLBench/b-v0", 1, True),
        row("MLBench/b-v0", 1, True),
        row("MLBench/b-v0", 1, True, status="failed"),  # not attributed
        {"env_id": "MLEBench/x-v0", "status": "done"},  # not ML-Bench
    ]
    stats = pass_at_k_stats(rows)
    assert stats is not None
    assert stats["examples"] == 3 and stats["samples_per_example"] == {"min": 3, "max": 3}
    p1 = (1 / 3 + 0 + 1) / 3
    p2 = ((1 - math.comb(2, 2) / math.comb(3, 2)) + 0 + 1) / 3
    assert stats["k"] == {"1": pytest.approx(p1), "2": pytest.approx(p2)}
    assert set(stats["k"]) == {"1", "2"}  # k=5 needs five samples of every example
    assert pass_at_k_stats([row("MLBench/a-v0", 1, True), row("MLBench/a-v0", 2, False)]) is None


def test_eval_run_reports_pass_at_k(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "mle_gym.cli", "eval", "MLBench/clusterlab-v0"]
    cmd += ["--seed-list", "0", "12", "--agent", "scripted", "--sandbox", "local"]
    cmd += ["--out", str(out), "--no-plots"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((out / "report.json").read_text())
    episodes = report["episodes"]
    assert len(episodes) == 2 and episodes[0]["example_id"] == episodes[1]["example_id"]
    assert all(e["passed"] for e in episodes)
    expected = {"k": {"1": 1.0, "2": 1.0}, "examples": 1}
    assert {k: report["overall"]["pass_at_k"][k] for k in expected} == expected
    assert report["tasks"]["clusterlab"]["pass_at_k"]["k"] == {"1": 1.0, "2": 1.0}
    assert "pass@1 1.0000, pass@2 1.0000" in (out / "report.md").read_text()
