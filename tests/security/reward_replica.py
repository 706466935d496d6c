"""Attacks on offline replicas (cases in ``security/reward_replica_cases.py``)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import mle_gym.data
from mle_gym.data import replica_key
from mle_gym.tasks import get_task
from security.harness import Ctx, body, exit_code
from security.suite import attack

#: The attacker's script: run the public generator with the public seed (0, the env's
#: default replica seed) and submit the labels it gives the episode's test ids.
REGENERATE = """\
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, "pubcode")
import generator  # the task's public prepare.py

out = Path("/tmp/regen")
(out / "public").mkdir(parents=True, exist_ok=True)
(out / "private").mkdir(exist_ok=True)
generator.replica(out / "public", out / "private", 0)
same = (out / "public" / "train.csv").read_bytes() == Path("data/train.csv").read_bytes()
print("regenerated train.csv identical to the episode's:", same)
answers = pd.read_csv(out / "private" / "test.csv", dtype=str, keep_default_na=False)
label = dict(zip(answers["PassengerId"], answers["Transported"]))
test = pd.read_csv("data/test.csv", dtype=str, keep_default_na=False)
ids = test["PassengerId"].tolist()
print(f"test ids found in the regenerated answers: {sum(i in label for i in ids)} of {len(ids)}")
pd.DataFrame({"PassengerId": ids, "Transported": [label.get(i, "False") for i in ids]}).to_csv(
    "submission.csv", index=False
)
"""


def _public_code() -> dict[str, str]:
    """What an attacker can download: the task's generator and the modules it imports."""
    package = Path(mle_gym.data.__file__).parent
    return {
        "pubcode/generator.py": (get_task("spaceship-titanic").folder / "prepare.py").read_text(),
        "pubcode/mle_gym/__init__.py": "",
        "pubcode/mle_gym/data/__init__.py": "",
        "pubcode/mle_gym/data/csvio.py": (package / "csvio.py").read_text(),
        "pubcode/mle_gym/data/splits.py": (package / "splits.py").read_text(),
        # The generator imports its helpers through the public authoring API; the two
        # it uses are these modules' functions, so a one-file stand-in serves.
        "pubcode/mle_gym/authoring/__init__.py": (
            "from mle_gym.data.csvio import read_csv_exact\n"
            "from mle_gym.data.splits import train_test_split_like_sklearn\n"
        ),
    }


def _submit_score(ctx: Ctx) -> tuple[float, str]:
    step = ctx.agent.submit()
    grade = step.info["grade"]
    assert step.terminated and grade["valid"], step.obs
    return float(grade["score"]), step.obs


@attack("reward-replica-regenerate")
def _regenerate(ctx: Ctx) -> str:
    assert ctx.secrets is not None
    a = ctx.agent
    for path, text in _public_code().items():
        a.write_file(path, text)
    a.write_file("regenerate.py", REGENERATE)
    run = a.execute("python regenerate.py", timeout=120)
    assert exit_code(run) == 0, run
    found = re.search(r"found in the regenerated answers: (\d+) of (\d+)", run)
    assert found and int(found.group(2)) == len(ctx.secrets.labels), run
    attack_score, attack_obs = _submit_score(ctx)

    # The same episode's data with real work: the task's reference solution.
    a.reset()
    solution = get_task("spaceship-titanic").folder / "solution.py"
    a.write_file("solution.py", solution.read_text())
    solved = a.execute("python solution.py", timeout=280)
    assert exit_code(solved) == 0, solved
    solution_score, solution_obs = _submit_score(ctx)

    # Chance level: within 0.08 of the all-False sample submission (about 0.5 on 870
    # rows, where one standard deviation of a coin-flip accuracy is 0.017); the
    # reference solution scores about 0.8.
    chance = abs(attack_score - ctx.secrets.sample_score) < 0.08
    beats = solution_score > attack_score + 0.2
    assert chance and beats, (attack_score, solution_score, ctx.secrets.sample_score)
    return "\n".join(
        [
            body(run),
            attack_obs,
            solution_obs,
            f"attack score {attack_score}, sample submission {ctx.secrets.sample_score}, "
            f"reference solution {solution_score}",
            f"regenerated answers score at chance level: {chance}",
            f"reference solution beats them: {beats}",
        ]
    )


@attack("reward-replica-key-hidden")
def _key_hidden(ctx: Ctx) -> str:
    key = replica_key.load_key().hex()
    assert os.environ.get(replica_key.ENV_VAR), "the test session sets the key variable"
    path = replica_key.key_path()
    if not path.exists():  # a key file too, so that looking for it means something
        replica_key._create_file(path)
    a = ctx.agent
    name = replica_key.ENV_VAR
    shell = a.execute(
        f"n=$( (env; cat /proc/[0-9]*/environ /proc/{ctx.host.test_pid}/environ 2>/dev/null "
        f"| tr '\\0' '\\n') | grep -ci -e {name} -e {key}); "
        'echo "replica key visible: $n"; '
        "f=$(find / \\( -path /proc -o -path /sys \\) -prune -o -name 'replica.key*' -print "
        "2>/dev/null | wc -l); "
        'echo "key files found: $f"; '
        f"cat {path}"
    )
    py = a.python(
        "import os\n"
        f"print('replica key visible:', sum({key!r} in v.lower() or {name!r} in k "
        "for k, v in os.environ.items()))"
    )
    for obs in (shell, py):
        assert key not in obs.lower(), obs
        assert re.findall(r"replica key visible: (\d+)", obs) == ["0"], obs
    assert re.findall(r"key files found: (\d+)", shell) == ["0"], shell
    return shell + "\n" + py
