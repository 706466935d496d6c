"""The wheel: a non-editable install into a fresh venv works from outside the repository."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent(
    """
    import json, sys
    import gymnasium as gym
    import mle_gym
    from mle_gym import paths

    out = {"file": mle_gym.__file__, "assets": str(paths.builtin_task_assets())}
    env = gym.make("MLEBench/spaceship-titanic-v0", data="replica", reward_mode="raw")
    obs, info = env.reset(seed=0)
    out["listing_ok"] = "train.csv" in obs
    step = lambda cmd: env.step({"tool": "execute", "args": {"command": cmd}})[0]
    out["import_tasks"] = step("python -c 'import mle_gym.tasks' 2>&1 | tail -n 1")
    out["find_assets"] = step("find / -path '*task_assets*' 2>/dev/null | head -n 3; echo END")
    step("cp data/sample_submission.csv submission.csv")
    _, reward, term, trunc, info = env.step({"tool": "submit", "args": {}})
    out["grade"] = info["grade"]
    env.close()
    print(json.dumps(out))
    """
)


@pytest.mark.slow
def test_wheel_in_fresh_venv(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist)],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    wheels = list(dist.glob("mle_gym-*.whl"))
    assert len(wheels) == 1
    import zipfile

    names = zipfile.ZipFile(wheels[0]).namelist()
    assert "mle_gym/task_assets/mlebench/spaceship-titanic/task.yaml" in names
    assert "mle_gym/task_assets/mlebench/spaceship-titanic/prepare.py" in names
    assert "mle_gym/task_assets/mlebench/spaceship-titanic/reference.json" in names

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheels[0])],
        check=True,
        capture_output=True,
    )
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["MLE_GYM_HOME"] = str(tmp_path / "home")
    done = subprocess.run(
        [str(py), "-c", SCRIPT], cwd=outside, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    import json

    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["file"].startswith(str(venv)), out["file"]
    assert out["assets"].startswith(str(venv)) and out["assets"].endswith("mle_gym/task_assets")
    assert out["listing_ok"]
    assert "ModuleNotFoundError" in out["import_tasks"]
    assert out["find_assets"].strip().endswith("END")
    assert out["find_assets"].split("\n", 1)[1].strip() == "END", out["find_assets"]
    assert out["grade"]["valid"] and out["grade"]["data_source"] == "replica"

    # gym.make("mle_gym:...") imports the package itself in a fresh interpreter.
    code = (
        "import gymnasium as gym; "
        "e = gym.make('mle_gym:MLEBench/spaceship-titanic-v0', data='replica'); "
        "print(e.spec.id, e.spec.max_episode_steps, e.spec.nondeterministic)"
    )
    done = subprocess.run(
        [str(py), "-c", code], cwd=outside, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["MLEBench/spaceship-titanic-v0", "50", "True"]
    done = subprocess.run(
        [str(venv / "bin" / "mle-gym"), "list"],
        cwd=outside,
        env=env,
        capture_output=True,
        text=True,
    )
    assert "MLEBench/spaceship-titanic-v0" in done.stdout
