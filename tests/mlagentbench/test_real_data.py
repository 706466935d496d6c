"""Prepared ("real") data end to end on both backends, with small files in the real
formats: ``mle-gym prepare MLAgentBench/<task> --from PATH``, the baseline measured by
running the starter code on it, episodes graded on it, ``mle-gym list`` status, and the
model-scoring harness run in a real evaluation sandbox."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest
from mlab_rawdata import arxiv_zip, feedback_train, parkinsons_zip, write_zip

import mle_gym  # noqa: F401  (registers the env ids)
from mle_gym.cli import main as cli
from mle_gym.families.mlagentbench.evaluation import EvalJob, EvaluationFailed, run_evaluator
from mle_gym.families.mlagentbench.sandbox_runner import SandboxRunner
from mle_gym.tasks import get_task


def call(tool: str, **args: object) -> dict:
    return {"tool": tool, "args": args}


@pytest.fixture(scope="module")
def raw_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("raw")
    return {
        "feedback": write_zip(
            root / "feedback-prize-english-language-learning.zip",
            {"train.csv": feedback_train(400, seed=1)},
        ),
        "ogbn-arxiv": arxiv_zip(root / "arxiv.zip", n=400, seed=2),
        "parkinsons": parkinsons_zip(root / "amp.zip", patients=8, seed=3),
    }


def test_list_shows_the_data_status(capsys) -> None:
    assert cli(["list", "--benchmark", "MLAgentBench"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("MLAgentBench/")}
    assert len(lines) == 13
    assert "self-contained (no data)" in lines["MLAgentBench/vectorization-v0"]
    assert "replica available" in lines["MLAgentBench/house-price-v0"]
    assert "real needs preparation (kaggle)" in lines["MLAgentBench/house-price-v0"]
    assert "real needs preparation" in lines["MLAgentBench/cifar10-v0"]


def test_prepare_without_network_or_files_fails_clearly(capsys, monkeypatch, tmp_path) -> None:
    for name in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path))
    assert cli(["prepare", "MLAgentBench/parkinsons"]) == 2
    err = capsys.readouterr().err
    assert "no Kaggle credentials" in err and "--from PATH" in err
    assert cli(["prepare", "MLAgentBench/parkinsons", "--from", str(tmp_path / "nope.zip")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["feedback", "ogbn-arxiv", "parkinsons"])
def test_prepare_measures_the_baseline_and_episodes_use_real_data(
    name: str, raw_files: dict[str, Path], backend: str, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("MLE_GYM_SANDBOX", backend)
    assert cli(["prepare", f"MLAgentBench/{name}", "--from", str(raw_files[name])]) == 0
    out = capsys.readouterr().out
    assert "(real)" in out and "baseline:" in out and "not measured" not in out

    env = gym.make(f"MLAgentBench/{name}-v0", sandbox=backend)
    try:
        obs, info = env.reset(seed=0)
        assert info["data_source"] == "real" and "data/" in obs
        _, _, _, _, info = env.step(call("execute", command="python train.py"))
        assert info["ok"], info
        _, _, _, _, info = env.step(call("validate_submission"))
        assert info["ok"], info
        _, _, terminated, _, info = env.step(call("submit"))
        grade = info["grade"]
        assert terminated and grade["valid"] and grade["data_source"] == "real"
        assert len(grade["baseline_runs"]) == 3
        # train.py run with the default seed reproduces the baseline's seed-0 run exactly
        assert grade["score"] == pytest.approx(grade["baseline_runs"][0], rel=1e-9)
        assert grade["success"] is (grade["improvement"] > 0.1)
    finally:
        env.close()


@pytest.mark.parametrize(
    ("name", "files", "fragment"),
    [
        ("CLRS", {"checkpoints/best.pkl": b"x", "train.py": b"x = 1\n"}, "No module named 'clrs'"),
        ("babylm", {"output/model.safetensors": b"x", "train.py": b"x = 1\n"}, "No module named"),
    ],
)
def test_model_harness_runs_in_a_fresh_sandbox(
    name: str, files: dict[str, bytes], fragment: str, backend: str, tmp_path: Path
) -> None:
    """Without the task's libraries in the sandbox the harness reports the import error
    (through the nonce-tagged result line), and the result is invalid."""
    spec = get_task(f"MLAgentBench/{name}")
    outputs, private = tmp_path / "outputs", tmp_path / "private"
    for rel, content in files.items():
        (outputs / rel).parent.mkdir(parents=True, exist_ok=True)
        (outputs / rel).write_bytes(content)
    (private / "babylm_test").mkdir(parents=True)
    (private / "babylm_test" / "a.test").write_text("held out\n")
    runner = SandboxRunner(backend, spec.limits, None)
    job = EvalJob(spec, outputs, None, private, spec.folder / "starter", 0, 120.0, runner)
    with pytest.raises(EvaluationFailed) as err:
        run_evaluator(job)
    assert fragment in str(err.value)


def test_real_answers_never_reach_the_agent(raw_files: dict[str, Path], backend: str) -> None:
    assert cli(["prepare", "MLAgentBench/feedback", "--from", str(raw_files["feedback"])]) == 0
    env = gym.make("MLAgentBench/feedback-v0", sandbox=backend)
    try:
        env.reset(seed=0)
        answers = Path(env.unwrapped.data_dir).parent / "private" / "answers.csv"
        assert answers.is_file()
        obs, _, _, _, info = env.step(call("execute", command=f"cat {answers}"))
        assert info["ok"] is False and "text_id" not in obs
        obs, _, _, _, info = env.step(call("read_file", path=str(answers)))
        assert info["ok"] is False and "no such file" in obs
    finally:
        env.close()
