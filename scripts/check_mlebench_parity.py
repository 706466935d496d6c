"""Compare the project's default grading with MLE-bench's own code, where it is installed.

MLE-bench is not a dependency (and not needed by the test suite); this script is for a
machine with a copy of its source at the pinned commit (``../shared/notes/benchmarks.md``)
and its graders' libraries importable::

    git -C <mle-bench clone> archive 783b15af77404fbaffe7255b0c4a934b46153389 mlebench \\
        | tar -x -C /tmp/mleb
    python scripts/check_mlebench_parity.py --mlebench-src /tmp/mleb [task ids...]
    python scripts/check_mlebench_parity.py --mlebench-src /tmp/mleb \\
        --task spaceship-titanic --answers answers.csv --submission submission.csv

The first form grades every variant of every ``ParityCase`` of the named task folders
(all MLE-bench tasks by default) with ``grading="mlebench"`` and with MLE-bench's
``Grader`` (its ``read_csv`` of both files, its grade function from the competition's
``config.yaml``, its rounding; an exception while reading counts as no score) and lists
every disagreement; the second compares one pair of files. A NaN score from MLE-bench
counts as invalid (the project reports it so). Exit status 1 if anything disagrees.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

TOLERANCE = 1e-9


def mlebench_score(src: Path, competition: str, answers: Path, submission: Path) -> float | None:
    """MLE-bench's score of ``submission`` (None: no score)."""
    import yaml
    from mlebench.grade_helpers import Grader  # type: ignore[import-not-found]
    from mlebench.utils import load_answers, read_csv  # type: ignore[import-not-found]

    config = src / "mlebench" / "competitions" / competition / "config.yaml"
    grader = Grader("parity-check", yaml.safe_load(config.read_text())["grader"]["grade_fn"])
    try:
        sub = read_csv(submission)
        truth = load_answers(answers)
    except Exception:
        return None
    value: Any = grader(sub, truth)
    if value is None or not math.isfinite(float(value)):
        return None
    return float(value)


def agree(ours: float | None, theirs: float | None) -> bool:
    if ours is None or theirs is None:
        return ours is theirs
    return abs(ours - theirs) <= TOLERANCE * max(1.0, abs(theirs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mlebench-src", type=Path, required=True)
    parser.add_argument("--extra-path", type=Path, action="append", default=[])
    parser.add_argument("--task")
    parser.add_argument("--answers", type=Path)
    parser.add_argument("--submission", type=Path)
    parser.add_argument("tasks", nargs="*")
    args = parser.parse_args(argv)
    sys.path[:0] = [str(args.mlebench_src), *map(str, args.extra_path)]

    from mle_gym.families.mlebench import testing
    from mle_gym.families.mlebench.grading import grade_submission
    from mle_gym.families.mlebench.task import MLEBenchTask
    from mle_gym.families.mlebench.testing_parity import ParityCase, write_variants
    from mle_gym.tasks import all_tasks, get_task

    def competition_of(task: MLEBenchTask) -> str:
        kaggle = task.data.get("kaggle")
        return str((kaggle or {}).get("competition") or task.id)

    if args.task:
        task = get_task(f"mlebench/{args.task}")
        assert isinstance(task, MLEBenchTask)
        ours = grade_submission(
            task, args.submission, answers=args.answers, data_source="kaggle"
        ).score
        theirs = mlebench_score(args.mlebench_src, competition_of(task), args.answers, args.submission)
        print(f"mle_gym: {ours}  MLE-bench: {theirs}  {'agree' if agree(ours, theirs) else 'DIFFER'}")
        return 0 if agree(ours, theirs) else 1

    names = set(args.tasks)
    tasks = [
        t
        for t in testing.tasks_with_cases(all_tasks().values())
        if not names or t.id in names
    ]
    disagreements = 0
    for task in tasks:
        for case_name, case in testing.load_cases(task.folder).items():
            if not isinstance(case, ParityCase):
                continue
            with tempfile.TemporaryDirectory() as tmp:
                for variant, files in write_variants(task, case, Path(tmp)).items():
                    ours = grade_submission(
                        task, files.submission, answers=files.answers, data_source="kaggle"
                    ).score
                    try:
                        theirs = mlebench_score(
                            args.mlebench_src, competition_of(task), files.answers, files.submission
                        )
                    except Exception as exc:  # the comparison itself broke
                        print(f"{task.id} {case_name} {variant}: MLE-bench raised {exc!r}")
                        disagreements += 1
                        continue
                    if not agree(ours, theirs):
                        disagreements += 1
                        print(f"{task.id} {case_name} {variant}: mle_gym {ours} MLE-bench {theirs}")
    print(f"{disagreements} disagreement(s) in {len(tasks)} task(s)")
    return 1 if disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main())
