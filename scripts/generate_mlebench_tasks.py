"""Write the generated parts of the MLE-bench tasks from each task folder's reference.json.

    python scripts/generate_mlebench_tasks.py [--check] [--tasks DIR]

Every competition folder ``task_assets/mlebench/<id>/`` (``DIR/<id>/`` with ``--tasks DIR``)
holds a ``reference.json``: its figures from MLE-bench's public leaderboard (name, split,
metric, direction, number of teams, medal thresholds, median, sample-submission score and the
101 leaderboard quantiles), the one place they are written. From them this script writes

* the generated sections of ``<id>/task.yaml`` (id, benchmark, title, split, metric,
  direction, leaderboard figures incl. the quantiles); the hand-written text of an existing
  file (from its first hand section — submission, files, data, leakage, grader, limits — to
  the end) is kept verbatim, comments included. A new file gets placeholders (``null``) in
  the hand-written sections, which make the task invalid until someone fills them in and
  writes description.md;
* the reference table over all folders, ``scripts/mlebench_reference/`` (the CSV with one
  row per competition and the quantiles JSON), a generated view for people and tests.
  It covers the built-in folders only, so it is written only without ``--tasks`` (or with
  ``--tasks task_assets/mlebench``); a folder elsewhere (on ``$MLE_GYM_TASKS_PATH``) gets its
  task.yaml only.

``--check`` writes nothing and exits 1 if any file would change.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "task_assets" / "mlebench"
TABLE = REPO / "scripts" / "mlebench_reference"
REFERENCE_FILE = "reference.json"
CSV_NAME = "mlebench_competitions.csv"
QUANTILES_NAME = "mlebench_leaderboard_quantiles.json"
# The table's columns; every one but the first is a key of reference.json.
COLUMNS = (
    "competition_id", "name", "split", "metric", "lower_is_better",
    "teams", "gold", "silver", "bronze", "median", "sample_submission_score",
)  # fmt: skip
QUANTILES_KEY = "score_at_rank_fraction"
HAND_SECTIONS = ("submission", "files", "data", "leakage", "grader", "limits")
HEADER = (
    "# MLE-bench competition as an mle_gym task. The sections id..leaderboard are\n"
    "# generated from this folder's reference.json by scripts/generate_mlebench_tasks.py;\n"
    "# the others (submission, files, data, leakage, grader, limits) are written by hand\n"
    "# and kept when the file is regenerated.\n"
)


# Where the reference figures are wrong or blank, and MLE-bench's own grader says otherwise.
CORRECTIONS: dict[str, dict[str, Any]] = {
    "ventilator-pressure-prediction": {
        "metric": "mean-absolute-error",
        "lower_is_better": True,
        "why": (
            "the reference CSV names the metric dice-hausdorff-combo (as MLE-bench's "
            "config.yaml does) with no direction; MLE-bench's grade.py computes a masked MAE"
        ),
    },
}


class _Flow(list):
    """A list dumped in flow style (the 101 quantiles)."""


def _flow_representer(dumper: yaml.SafeDumper, data: _Flow) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Flow, _flow_representer)


def _number(text: str) -> float | None:
    text = text.strip()
    return None if text in ("", "nan", "None") else float(text)


def generated_sections(row: dict[str, str], quantiles: dict[str, Any] | None) -> dict[str, Any]:
    """The sections of task.yaml that come from the reference figures."""
    out: dict[str, Any] = {
        "id": row["competition_id"],
        "benchmark": "MLEBench",
        "title": row["name"],
        "version": 0,
        "split": row["split"],
        "metric": row["metric"],
        "lower_is_better": row["lower_is_better"].strip().lower() == "true",
    }
    fix = CORRECTIONS.get(row["competition_id"], {})
    out.update({k: v for k, v in fix.items() if k != "why"})
    gold = _number(row.get("gold", ""))
    if gold is None:
        out["leaderboard"] = None
        return out
    lb: dict[str, Any] = {
        "teams": int(float(row["teams"])),
        "gold": gold,
        "silver": _number(row["silver"]),
        "bronze": _number(row["bronze"]),
        "median": _number(row["median"]),
        "sample_submission_score": _number(row.get("sample_submission_score", "")),
    }
    if quantiles is not None:
        lb["score_at_rank_fraction"] = _Flow(float(x) for x in quantiles["score_at_rank_fraction"])
    out["leaderboard"] = lb
    return out


def placeholder_sections(competition: str) -> dict[str, Any]:
    """Hand-written sections of a new task, to be completed by a person."""
    return {
        "submission": {
            "file": "submission.csv",
            "id_column": None,
            "target_columns": None,
            "target_kind": None,
        },
        "files": {"answers": None, "sample_submission": None},
        "data": {"kaggle": {"competition": competition, "supported": False}},
        "leakage": None,
    }


_HAND_START = re.compile(r"^(?:" + "|".join(HAND_SECTIONS) + r"):", re.MULTILINE)


def render(row: dict[str, str], quantiles: dict[str, Any] | None, existing: str | None) -> str:
    """The full text of a task.yaml: generated sections, then the hand-written text.

    The hand-written part of an existing file (from its first hand section to the end)
    is kept verbatim, comments included; a new file gets placeholders.
    """
    doc = generated_sections(row, quantiles)
    body = yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    if existing is not None:
        match = _HAND_START.search(existing)
        start = match.start() if match else len(existing)
        # Comment lines directly above the first hand section belong to it.
        while True:
            prev_end = existing.rfind("\n", 0, max(start - 1, 0))
            line = existing[prev_end + 1 : start - 1] if start > 0 else ""
            if start > 0 and line.startswith("#") and prev_end >= 0:
                start = prev_end + 1
            else:
                break
        hand = existing[start:]
    else:
        hand = yaml.dump(
            placeholder_sections(row["competition_id"]),
            Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
        )  # fmt: skip
    fix = CORRECTIONS.get(row["competition_id"])
    note = f"# Correction to the reference figures: {fix['why']}.\n" if fix else ""
    return HEADER + note + body + hand


def _cell(value: Any) -> str:
    """A reference.json value as the table's CSV cell (blank for null)."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def read_reference(folder: Path) -> tuple[dict[str, str], dict[str, Any] | None]:
    """A folder's reference.json as (table row, quantiles entry or None).

    The row holds the CSV cells as text (``lower_is_better`` is ``True``/``False`` or
    blank); the quantiles entry is what the quantiles JSON holds for the competition.
    Raises ValueError when a key is missing or unknown.
    """
    path = folder / REFERENCE_FILE
    ref = json.loads(path.read_text(encoding="utf-8"))
    expected = {*COLUMNS[1:], QUANTILES_KEY}
    if not isinstance(ref, dict) or set(ref) != expected:
        keys = sorted(ref) if isinstance(ref, dict) else type(ref).__name__
        raise ValueError(f"{path}: keys must be {sorted(expected)}, not {keys}")
    row = {"competition_id": folder.name} | {k: _cell(ref[k]) for k in COLUMNS[1:]}
    if ref[QUANTILES_KEY] is None:
        return row, None
    quantiles = {
        "teams": ref["teams"],
        "lower_is_better": ref["lower_is_better"],
        QUANTILES_KEY: ref[QUANTILES_KEY],
    }
    return row, quantiles


def reference_folders(tasks: Path = TASKS) -> list[Path]:
    """The competition folders that carry a reference.json, by id."""
    return sorted((p.parent for p in tasks.glob(f"*/{REFERENCE_FILE}")), key=lambda p: p.name)


def table_texts(tasks: Path = TASKS) -> dict[str, str]:
    """The reference table generated from the folders: file name -> text."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS)
    writer.writeheader()
    quantiles: dict[str, Any] = {}
    for folder in reference_folders(tasks):
        row, entry = read_reference(folder)
        writer.writerow(row)
        if entry is not None:
            quantiles[folder.name] = entry
    return {CSV_NAME: out.getvalue(), QUANTILES_NAME: json.dumps(quantiles, indent=0)}


def _sync(path: Path, text: str, check: bool) -> bool:
    """Whether ``path`` differs from ``text``; writes it unless ``check``."""
    if path.is_file() and path.read_bytes() == text.encode("utf-8"):
        return False
    if not check:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return True


def _shown(path: Path) -> str:
    """``path`` relative to the repository when inside it, else as given."""
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report files that would change")
    parser.add_argument(
        "--tasks",
        type=Path,
        default=TASKS,
        metavar="DIR",
        help="the folder holding the competition folders (default: task_assets/mlebench); "
        "the reference table is regenerated only for the default",
    )
    args = parser.parse_args(argv)
    tasks = args.tasks.expanduser().resolve()
    if not tasks.is_dir():
        parser.error(f"--tasks {args.tasks}: not a directory")
    folders = reference_folders(tasks)
    changed = []
    for folder in folders:
        row, quantiles = read_reference(folder)
        path = folder / "task.yaml"
        existing = path.read_text() if path.is_file() else None
        if _sync(path, render(row, quantiles, existing), args.check):
            changed.append(_shown(path))
    if tasks == TASKS.resolve():
        for name, text in table_texts(tasks).items():
            if _sync(TABLE / name, text, args.check):
                changed.append(_shown(TABLE / name))
    verb = "would change" if args.check else "written"
    print(f"{len(folders)} competitions; {len(changed)} file(s) {verb}")
    for name in changed:
        print(f"  {name}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
