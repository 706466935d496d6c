"""Write or refresh the task.yaml of every MLE-bench competition from the reference figures.

    python scripts/generate_mlebench_tasks.py [--reference scripts/mlebench_reference] [--check]

For each of the 82 competitions in ``mlebench_competitions.csv`` this writes
``task_assets/mlebench/<id>/task.yaml``: the generated sections (id, benchmark,
title, split, metric, direction, leaderboard figures incl. the 101 quantiles)
come from the reference CSV/JSON; the hand-written text of an existing file
(from its first hand section — submission, files, data, leakage, grader, limits — to
the end) is kept verbatim, comments included. A new
file gets placeholders (``null``) in the hand-written sections, which make the
task invalid until someone fills them in and writes description.md.

``--check`` writes nothing and exits 1 if any file would change.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "task_assets" / "mlebench"
HAND_SECTIONS = ("submission", "files", "data", "leakage", "grader", "limits")
HEADER = (
    "# MLE-bench competition as an mle_gym task. The sections id..leaderboard are\n"
    "# generated from scripts/mlebench_reference by scripts/generate_mlebench_tasks.py; the\n"
    "# others (submission, files, data, leakage, grader, limits) are written by hand and\n"
    "# kept when the file is regenerated.\n"
)


# Where the reference CSV is wrong or blank, and MLE-bench's own grader says otherwise.
CORRECTIONS: dict[str, dict[str, Any]] = {
    "ventilator-pressure-prediction": {
        "lower_is_better": True,
        "why": "the reference CSV leaves the direction blank; MLE-bench grades a masked MAE",
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=Path, default=REPO / "scripts" / "mlebench_reference")
    parser.add_argument("--check", action="store_true", help="only report files that would change")
    args = parser.parse_args()
    rows = list(csv.DictReader((args.reference / "mlebench_competitions.csv").open()))
    quantiles = json.loads((args.reference / "mlebench_leaderboard_quantiles.json").read_text())
    changed = []
    for row in rows:
        folder = TASKS / row["competition_id"]
        path = folder / "task.yaml"
        existing = path.read_text() if path.is_file() else None
        text = render(row, quantiles.get(row["competition_id"]), existing)
        if not path.is_file() or path.read_text() != text:
            changed.append(row["competition_id"])
            if not args.check:
                folder.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
    verb = "would change" if args.check else "written"
    print(f"{len(rows)} competitions; {len(changed)} task.yaml {verb}")
    for name in changed:
        print(f"  {name}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
