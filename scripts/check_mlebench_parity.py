"""Compare the project's default grading with MLE-bench's own code, where it is installed.

MLE-bench is not a dependency (and not needed by the test suite); this script is for a
machine with a copy of its source at the pinned commit (``../shared/notes/benchmarks.md``)
and its graders' libraries importable::

    git -C <mle-bench clone> archive 783b15af77404fbaffe7255b0c4a934b46153389 mlebench \\
        | tar -x -C /tmp/mleb
    pip install --target /tmp/pd2 "pandas==2.3.3"      # MLE-bench's results used pandas 2
    pip install --no-deps --target /tmp/np23 "numpy==2.3.*"   # and numpy before 2.4
    pip install --target /tmp/mleb-extra pyquaternion Levenshtein pycocotools shapely
    python scripts/check_mlebench_parity.py --mlebench-src /tmp/mleb \\
        --extra-path /tmp/np23 --extra-path /tmp/pd2 --extra-path /tmp/mleb-extra [ids...]
    python scripts/check_mlebench_parity.py --mlebench-src /tmp/mleb ... \\
        --task spaceship-titanic --answers answers.csv --submission submission.csv

The first form grades every variant of every ``ParityCase`` of the named task folders
(all MLE-bench tasks by default) with ``grading="mlebench"`` and with MLE-bench's
``Grader`` (its ``read_csv`` of both files, its grade function from the competition's
``config.yaml``, its rounding; an exception while reading counts as no score), run in a
child interpreter whose path starts with the ``--extra-path`` directories, and lists
every disagreement (a case whose answers differ from MLE-bench's format converts them with
its ``mlebench_answers``); the second compares one pair of files. A NaN score from MLE-bench
counts as invalid (the project reports it so); infinite scores are compared as scores.
Exit status 1 if anything disagrees.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

TOLERANCE = 1e-9


#: run in a separate interpreter (MLE-bench's side, with its own sys.path: e.g. pandas 2)
_WORKER = """
import contextlib, json, math, sys
import yaml
from mlebench.grade_helpers import Grader
from mlebench.utils import load_answers, read_csv
src, jobs = sys.argv[1], json.load(sys.stdin)
out = []
for competition, answers, submission in jobs:
    config = f"{src}/mlebench/competitions/{competition}/config.yaml"
    try:
        with open(config) as handle:
            grader = Grader("parity-check", yaml.safe_load(handle)["grader"]["grade_fn"])
    except Exception as exc:
        out.append({"error": repr(exc)})
        continue
    try:
        with contextlib.redirect_stdout(sys.stderr):  # some graders print
            value = grader(read_csv(submission), load_answers(__import__("pathlib").Path(answers)))
    except Exception:
        value = None
    ok = value is not None and not math.isnan(float(value))
    out.append(float(value) if ok else None)
json.dump(out, sys.stdout)
"""


def mlebench_scores(src: Path, path: list[Path], jobs: list[tuple[str, Path, Path]]) -> list[Any]:
    """MLE-bench's score of each (competition, answers, submission) job (None: no score),
        computed by its own code in a child interpreter whose path starts with ``path``; a
    job whose grader cannot even be loaded gives ``{"error": ...}``."""
    import json
    import os
    import subprocess

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(p) for p in path))
    payload = json.dumps([(c, str(a), str(s)) for c, a, s in jobs])
    done = subprocess.run(
        [sys.executable, "-c", _WORKER, str(src)],
        input=payload,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"MLE-bench's side failed: {done.stderr[-2000:]}")
    return list(json.loads(done.stdout))


def agree(ours: float | None, theirs: float | None) -> bool:
    if ours is None or theirs is None:
        return ours is theirs
    if ours == theirs:  # infinities too
        return True
    return abs(ours - theirs) <= TOLERANCE * max(1.0, abs(theirs))


def _ours(task: Any, answers: Path, submission: Path) -> float | None:
    """The project's default grade (None: invalid); an exception counts as a disagreement."""
    from mle_gym.families.mlebench.grading import grade_submission

    return grade_submission(task, submission, answers=answers, data_source="kaggle").score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mlebench-src", type=Path, required=True)
    parser.add_argument(
        "--extra-path",
        type=Path,
        action="append",
        default=[],
        help="more directories for MLE-bench's side (its graders' libraries; pandas 2 first)",
    )
    parser.add_argument("--task")
    parser.add_argument("--answers", type=Path)
    parser.add_argument("--submission", type=Path)
    parser.add_argument("tasks", nargs="*")
    args = parser.parse_args(argv)
    path = [*args.extra_path, args.mlebench_src]

    from mle_gym.families.mlebench import testing
    from mle_gym.families.mlebench.task import MLEBenchTask
    from mle_gym.families.mlebench.testing_parity import ParityCase, write_variants
    from mle_gym.tasks import all_tasks, get_task

    def competition_of(task: MLEBenchTask) -> str:
        kaggle = task.data.get("kaggle")
        return str((kaggle or {}).get("competition") or task.id)

    if args.task:
        task = get_task(f"mlebench/{args.task}")
        assert isinstance(task, MLEBenchTask)
        ours = _ours(task, args.answers, args.submission)
        [theirs] = mlebench_scores(
            args.mlebench_src, path, [(competition_of(task), args.answers, args.submission)]
        )
        verdict = "agree" if agree(ours, theirs) else "DIFFER"
        print(f"mle_gym: {ours}  MLE-bench: {theirs}  {verdict}")
        return 0 if agree(ours, theirs) else 1

    names = set(args.tasks)
    tasks = [
        t for t in testing.tasks_with_cases(all_tasks().values()) if not names or t.id in names
    ]
    disagreements = compared = 0
    with tempfile.TemporaryDirectory() as tmp:
        rows: list[tuple[str, float | None, tuple[str, Path, Path]]] = []
        for task in tasks:
            for case_name, case in testing.load_cases(task.folder).items():
                if not isinstance(case, ParityCase):
                    continue
                where = Path(tmp) / task.id / case_name
                for variant, files in write_variants(task, case, where).items():
                    label = f"{task.id} {case_name} {variant}"
                    try:
                        ours = _ours(task, files.answers, files.submission)
                    except Exception as exc:
                        print(f"{label}: mle_gym raised {exc!r}")
                        disagreements += 1
                        continue
                    theirs_answers = files.answers
                    if case.mlebench_answers is not None:
                        out = files.answers.parent / "mlebench"
                        out.mkdir(exist_ok=True)
                        theirs_answers = case.mlebench_answers(files.answers, out)
                    job = (competition_of(task), theirs_answers, files.submission)
                    rows.append((label, ours, job))
        theirs_all = mlebench_scores(args.mlebench_src, path, [job for *_, job in rows])
        for (label, ours, _), theirs in zip(rows, theirs_all, strict=True):
            compared += 1
            if isinstance(theirs, dict):
                disagreements += 1
                print(f"{label}: MLE-bench's grader cannot run here: {theirs['error']}")
            elif not agree(ours, theirs):
                disagreements += 1
                print(f"{label}: mle_gym {ours} MLE-bench {theirs}")
    print(f"{disagreements} disagreement(s) in {compared} variant(s) of {len(tasks)} task(s)")
    return 1 if disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main())
