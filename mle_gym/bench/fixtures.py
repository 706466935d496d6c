"""What the bench measures on: its own task folders and data, in a private cache.

:class:`BenchWorld` creates, under one work folder, task folders of a
``Bench`` benchmark (a small tabular problem whose public data is padded to a
chosen size with a filler file, a reference solution for the scripted agent),
points ``$MLE_GYM_HOME`` and ``$MLE_GYM_TASKS_PATH`` at them for the duration of
the bench (restored on ``close``), registers them with gymnasium, and removes
everything on ``close``. Nothing is downloaded: all data is generated here.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

BENCHMARK = "Bench"

TASK_YAML = """\
id: {id}
benchmark: Bench
title: mle-gym bench task ({size})
version: 0
metric: accuracy
lower_is_better: false
submission:
  file: submission.csv
  id_column: id
  target_columns: [label]
  target_kind: integer
files:
  answers: test.csv
  sample_submission: sample_submission.csv
data:
  replica:
    reference_score: 1.0
    sample_submission_score: 0.5
limits:
  max_steps: 20
  exec_timeout_s: 120
"""

DESCRIPTION = """\
# mle-gym bench task

Predict `label` (0 or 1) for every row of `data/test.csv` from `x1` and `x2`;
`data/train.csv` has labelled rows. Write `submission.csv` with columns `id,label`.
`data/filler.bin` only pads the data folder to its size; ignore it.
"""

PREPARE = '''\
"""Bench task data: a small labelled table plus a filler file, {size_bytes} bytes in all."""

import os
import random

SIZE_BYTES = {size_bytes}
ROWS = 400
GROUPBY_ROWS = 10_000


def replica(public_dir, private_dir, seed):
    rng = random.Random(seed)
    rows = []
    for i in range(ROWS):
        x1, x2 = rng.uniform(-1, 1), rng.uniform(-1, 1)
        rows.append((f"r{{i:05d}}", round(x1, 4), round(x2, 4), int(x1 + 0.3 * x2 > 0)))
    train, test = rows[: ROWS // 2], rows[ROWS // 2 :]
    with open(os.path.join(public_dir, "train.csv"), "w") as f:
        f.write("id,x1,x2,label\\n")
        f.writelines(f"{{a}},{{b}},{{c}},{{d}}\\n" for a, b, c, d in train)
    with open(os.path.join(public_dir, "test.csv"), "w") as f:
        f.write("id,x1,x2\\n")
        f.writelines(f"{{a}},{{b}},{{c}}\\n" for a, b, c, _ in test)
    with open(os.path.join(public_dir, "sample_submission.csv"), "w") as f:
        f.write("id,label\\n")
        f.writelines(f"{{a}},0\\n" for a, *_ in test)
    with open(os.path.join(private_dir, "test.csv"), "w") as f:
        f.write("id,label\\n")
        f.writelines(f"{{a}},{{d}}\\n" for a, _, _, d in test)
    with open(os.path.join(public_dir, "groupby.csv"), "w") as f:
        f.write("g,v\\n")
        f.writelines(f"{{rng.randrange(20)}},{{rng.random():.6f}}\\n" for _ in range(GROUPBY_ROWS))
    used = sum(e.stat().st_size for e in os.scandir(public_dir))
    left = max(0, SIZE_BYTES - used)
    block = os.urandom(1 << 20)
    with open(os.path.join(public_dir, "filler.bin"), "wb") as f:
        while left > 0:
            n = min(left, len(block))
            f.write(block[:n])
            left -= n
'''

SOLUTION = """\
import pandas as pd

test = pd.read_csv("data/test.csv")
test["label"] = ((test["x1"] + 0.3 * test["x2"]) > 0).astype(int)
test[["id", "label"]].to_csv("submission.csv", index=False)
print(f"wrote {len(test)} predictions")
"""


def size_label(size_bytes: float) -> str:
    """``1 MB``, ``100 MB``, ``1 GB``, ``10 KB`` (binary multiples: 1 MB = 2**20 bytes)."""
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if size_bytes >= scale:
            return f"{size_bytes / scale:.3g} {unit}"
    return f"{int(size_bytes)} B"


def size_slug(size_bytes: float) -> str:
    """``1mb``, ``100mb``, ``1gb``, ``256kb``: a size for keys and task ids."""
    return size_label(size_bytes).replace(" ", "").replace(".", "p").lower()


class BenchWorld:
    """Task folders, a private cache and environment variables for one bench run."""

    def __init__(self, workdir: Path | None = None) -> None:
        self._owned = workdir is None
        self.root = Path(workdir or tempfile.mkdtemp(prefix="mle_gym-bench-")).resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.tasks_dir = self.root / "tasks"
        self.home = self.root / "home"
        self.scratch = self.root / "scratch"
        for d in (self.tasks_dir / BENCHMARK.lower(), self.home, self.scratch):
            d.mkdir(parents=True, exist_ok=True)
        self._saved: dict[str, str | None] = {}
        self._active = False

    def add_task(self, task_id: str, data_bytes: int) -> str:
        """Create a task folder whose public data totals ``data_bytes``; return its env id.
        Must be called before :meth:`activate`."""
        if self._active:
            raise RuntimeError("add bench tasks before activate()")
        folder = self.tasks_dir / BENCHMARK.lower() / task_id
        folder.mkdir(parents=True, exist_ok=True)
        label = size_label(data_bytes)
        (folder / "task.yaml").write_text(TASK_YAML.format(id=task_id, size=label))
        (folder / "description.md").write_text(DESCRIPTION)
        (folder / "prepare.py").write_text(PREPARE.format(size_bytes=int(data_bytes)))
        (folder / "solution.py").write_text(SOLUTION)
        return f"{BENCHMARK}/{task_id}-v0"

    def activate(self) -> None:
        """Point mle_gym at this world (cache and task folders) and register the tasks."""
        for name, value in (
            ("MLE_GYM_HOME", str(self.home)),
            ("MLE_GYM_TASKS_PATH", str(self.tasks_dir)),
        ):
            self._saved[name] = os.environ.get(name)
            os.environ[name] = value
        self._active = True
        import mle_gym.registration

        mle_gym.registration.register_all()

    def prepare(self, env_id: str) -> int:
        """Generate the task's data now (not inside a timed reset); return its public bytes."""
        from mle_gym.families import make_family
        from mle_gym.tasks import get_task

        family = make_family(get_task(env_id))
        data = family.resolve_data("replica", family.parse_reset_options({}))
        assert data is not None
        return sum(p.stat().st_size for p in data.public.rglob("*") if p.is_file())

    def env_vars(self) -> dict[str, str]:
        """The variables a child process needs to see this world."""
        return {"MLE_GYM_HOME": str(self.home), "MLE_GYM_TASKS_PATH": str(self.tasks_dir)}

    def close(self) -> None:
        """Restore the environment variables and delete the world (idempotent)."""
        for name, value in self._saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        self._saved.clear()
        self._active = False
        if self._owned:
            shutil.rmtree(self.root, ignore_errors=True)
        else:
            for d in (self.tasks_dir, self.home, self.scratch):
                shutil.rmtree(d, ignore_errors=True)
