"""`mle-gym bench` at tiny sizes on each backend: the CI smoke run of the benchmark suite.

The bench is run for real (real sandboxes, generated data) through the command
line; the tests check the JSON document's structure and that every figure is a
positive number. No speed threshold is asserted: the targets are reported, not
tested.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

from mle_gym.bench import SCHEMA, BenchConfig, BenchReport, Figure, format_table
from mle_gym.bench.timing import interleaved, median_ratio
from mle_gym.cli import main

FILE_TOOLS = ("read_file", "write_file", "list_files", "edit_file")


@pytest.fixture(scope="module")
def bench_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One tiny bench per backend, run lazily and shared by this module's tests."""
    return {}


def _own_variables() -> dict[str, str]:
    """The environment variables the bench sets for its runs (``MLE_GYM_*``); libraries it
    imports may set their own at import (scikit-learn's ``KMP_*``, pygame's prompt switch)."""
    return {k: v for k, v in os.environ.items() if k.startswith("MLE_GYM")}


def _run(backend: str, runs: dict[str, Any], root: Path, capsys: pytest.CaptureFixture[str]):
    if backend not in runs:
        out = root / f"bench-{backend}.json"
        before = _own_variables()
        code = main(["bench", "--tiny", "--backends", backend, "--out", str(out)])
        table = capsys.readouterr().out
        runs[backend] = (code, json.loads(out.read_text()), table, before == _own_variables())
    return runs[backend]


@pytest.fixture
def run(backend: str, bench_runs, tmp_path_factory, capsys):
    return _run(backend, bench_runs, tmp_path_factory.getbasetemp(), capsys)


def _positive(value: Any) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value > 0


def test_tiny_bench_completes_and_writes_the_document(backend: str, run) -> None:
    code, doc, table, env_restored = run
    assert code == 0, doc["errors"]
    assert doc["errors"] == []
    assert doc["schema"] == SCHEMA
    assert env_restored, "the bench must restore MLE_GYM_HOME / MLE_GYM_TASKS_PATH"
    machine = doc["machine"]
    for key in ("cpu_count", "ram_gib", "kernel", "python", "pandas", "load_average_start"):
        assert machine.get(key), key
    assert _positive(machine["cpu_count"]) and _positive(machine["ram_gib"])
    if backend == "docker":
        assert machine["docker"]
    assert doc["config"]["backends"] == [backend]
    assert doc["config"]["argv"]
    assert _positive(doc["duration_s"])
    assert "| measurement |" in table and "JSON:" in table
    assert "| ratio = median / baseline |" in table and "lower is better" in table


def test_every_figure_is_a_positive_number(backend: str, run) -> None:
    _, doc, table, _ = run
    figures = doc["figures"]
    keys = [f["key"] for f in figures]
    assert len(keys) == len(set(keys))
    for f in figures:
        assert _positive(f["value"]), f
        assert isinstance(f["samples"], int) and f["samples"] >= 1, f
        assert f["unit"] in ("ms", "episodes/min", "MB"), f
        if f["baseline"] is not None:
            assert _positive(f["baseline"]) and _positive(f["ratio"]), f
            assert f["baseline_label"], f
        assert f["backend"] in (backend, None), f
        assert f["label"] in table


def test_every_family_is_measured(backend: str, run) -> None:
    _, doc, _, _ = run
    keys = {f["key"] for f in doc["figures"]}
    expected = {f"file_tools.{t}.{backend}" for t in FILE_TOOLS}
    expected |= {f"execute.true.{backend}", f"execute.python_pass.{backend}"}
    expected |= {f"python_tool.warm_groupby.{backend}", f"memory.host_rss_per_env.{backend}"}
    expected.add(f"memory.python_heap_per_env.{backend}")
    expected |= {f"episodes.parallel{n}.{backend}" for n in (1, 2)}
    expected |= {f"grading.{m}.{k}" for m in ("accuracy", "rmse") for k in ("cold", "warm")}
    expected |= {
        f"grading.{m}.mlebench.{k}" for m in ("accuracy", "rmse") for k in ("cold", "warm")
    }
    if backend == "docker":
        expected.add("execute.true_vs_docker_sdk.docker")
    assert expected <= keys, sorted(expected - keys)
    resets = [f for f in doc["figures"] if f["family"] == "reset" and f["backend"] == backend]
    assert len(resets) == 3
    assert len({f["extra"]["data_bytes"] for f in resets}) == 3  # three real data sizes
    for f in doc["figures"]:
        if f["family"] in ("file_tools", "execute", "python_tool"):
            assert f["baseline"] is not None, f["key"]  # measured side by side
        if f["family"] == "episodes":
            assert f["extra"]["episodes"] >= 1 and not f["notes"], f  # valid submissions


def test_targets_are_reported_not_asserted(backend: str, run) -> None:
    _, doc, _, _ = run
    targets = {t["key"]: t for t in doc["targets"]}
    expected = {
        f"file_tool_overhead.{backend}",
        f"python_warm_speedup.{backend}",
        f"reset_data_size.{backend}",
        f"host_rss_per_env.{backend}",
        "grading_accuracy",
        "grading_rmse",
    }
    expected.add("local_python_pass_ratio" if backend == "local" else "docker_exec_ratio")
    assert expected <= set(targets), sorted(expected - set(targets))
    figure_keys = {f["key"] for f in doc["figures"]}
    for t in targets.values():
        assert isinstance(t["holds"], bool)
        assert t["comparison"] in ("<=", ">=") and _positive(t["limit"])
        assert isinstance(t["value"], int | float) and math.isfinite(t["value"])
        assert set(t["figures"]) <= figure_keys


def test_interleaving_rotates_the_order() -> None:
    calls: list[str] = []
    samples = interleaved(
        {"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, 3, warmup=1
    )
    assert calls == ["a", "b", "b", "a", "a", "b", "b", "a"]
    assert [len(v) for v in samples.values()] == [3, 3]
    assert median_ratio([2.0, 4.0, 9.0], [1.0, 2.0, 3.0]) == 2.0


def test_figures_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        Figure(key="k", family="f", label="l", unit="ms", value=0.0, samples=1)
    with pytest.raises(ValueError, match="positive"):
        Figure(key="k", family="f", label="l", unit="ms", value=1.0, samples=1, ratio=math.nan)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--only", "nonsense"], "unknown bench groups ['nonsense']"),
        (["--repeats", "0"], "--repeats must be at least 1"),
        (["--backends", "nowhere"], "unknown sandbox 'nowhere'"),
    ],
)
def test_bad_options_are_clear_errors(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "never.json"
    assert main(["bench", "--tiny", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mle-gym: error:") and says in err
    assert not out.exists()


@pytest.mark.parametrize("argv", [["--sizes-mb", "1,abc"], ["--parallel", "1.5"]])
def test_malformed_lists_are_usage_errors(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bench", *argv])
    assert exc.value.code == 2
    assert "expected" in capsys.readouterr().err


def test_tiny_config_differs_only_in_size() -> None:
    tiny, full = BenchConfig.tiny(), BenchConfig()
    assert tiny.families == full.families and tiny.backends == full.backends
    assert tiny.grading_rows < full.grading_rows and max(tiny.parallel) < max(full.parallel)
    assert BenchConfig.tiny(repeats=9).repeats == 9


def _figure(label: str, unit: str, value: float, baseline: float | None) -> Figure:
    ratio = value / baseline if baseline else None
    return Figure(
        key=label, family="f", label=label, unit=unit, value=value, samples=3,
        baseline_label="base" if baseline else None, baseline=baseline, ratio=ratio,
    )  # fmt: skip


def test_the_table_says_what_the_ratio_divides_and_which_way_is_better() -> None:
    report = BenchReport(machine={}, config={})
    report.figures = [
        _figure("slow step", "ms", 30.0, 10.0),
        _figure("fast cell", "ms", 5.0, 50.0),
        _figure("even step", "ms", 10.0, 10.0),
        _figure("parallel episodes", "episodes/min", 90.0, 50.0),
        _figure("fewer episodes", "episodes/min", 25.0, 50.0),
        _figure("memory", "MB", 3.0, None),
    ]
    table = format_table(report)
    lines = table.splitlines()
    assert lines[0].split("|")[-2].strip() == "ratio = median / baseline"
    cell = {line.split("|")[1].strip(): line.split("|")[-2].strip() for line in lines[2:8]}
    assert cell == {
        "slow step": "3x (worse)",
        "fast cell": "0.1x (better)",
        "even step": "1x (level)",
        "parallel episodes": "1.8x (better)",
        "fewer episodes": "0.5x (worse)",
        "memory": "",
    }
    note = lines[9]
    assert note.startswith("ratio = median / baseline") and "measurement / baseline" in note
    assert "For times lower is better" in note and "higher is better" in note
    report.figures = [_figure("memory", "MB", 3.0, None)]
    assert "ratio = median / baseline," not in format_table(report)  # no ratio, no note
