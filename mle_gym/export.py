"""Trajectory datasets: recorded episodes as one JSON line each, for SFT and RL trainers.

``export_chat_jsonl(run_dir, out)`` reads every trajectory file (``*.jsonl``
written by the env's ``trajectory_path``) under ``run_dir`` and writes one line
per episode with:

* ``messages`` — the whole conversation in OpenAI chat format (system prompt,
  task, then each assistant turn and its tool result, exactly as recorded);
* ``tools`` — the tool schemas offered to the policy;
* ``reward``, ``grade`` (the full report), ``terminated``, ``truncated``;
* ``task_id``, ``env_id``, ``episode_id``, ``seed``, ``replica_seed``,
  ``data_source``, ``reward_mode``;
* ``num_steps``, ``timings`` (``episode_s``, ``step_s`` per step).

This is the layout the Hugging Face ``json`` loader reads into a dataset
(``load_dataset("json", data_files=...)``). Episodes that did not end are left
out unless ``include_incomplete``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mle_gym.trajectory import read_trajectory


def _episodes(path: Path) -> list[list[dict[str, Any]]]:
    """Split one trajectory file into episodes (a reset record and its steps)."""
    episodes: list[list[dict[str, Any]]] = []
    for record in read_trajectory(path):
        if record.get("type") == "reset":
            episodes.append([record])
        elif (
            record.get("type") == "step"
            and episodes
            and record.get("episode_id") == episodes[-1][0].get("episode_id")
        ):
            episodes[-1].append(record)
    return episodes


def episode_row(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One dataset row from an episode's reset record and step records."""
    reset, steps = records[0], records[1:]
    messages = [
        {"role": "system", "content": reset.get("system_prompt", "")},
        {"role": "user", "content": reset.get("observation", "")},
    ]
    for step in steps:
        messages.extend(step.get("messages") or [])
    last = steps[-1] if steps else {}
    start = float(reset.get("time", 0.0))
    end = float(last.get("time", start))
    task_id = str(reset.get("env_id", "")).split("/")[-1].rsplit("-v", 1)[0]
    return {
        "messages": messages,
        "tools": reset.get("tools") or [],
        "reward": float(last.get("reward", 0.0)),
        "grade": last.get("grade"),
        "terminated": bool(last.get("terminated", False)),
        "truncated": bool(last.get("truncated", False)),
        "task_id": task_id,
        "env_id": reset.get("env_id"),
        "episode_id": reset.get("episode_id"),
        "seed": reset.get("seed"),
        "replica_seed": reset.get("replica_seed"),
        "data_source": reset.get("data_source"),
        "reward_mode": reset.get("reward_mode"),
        "num_steps": len(steps),
        "timings": {
            "episode_s": round(max(0.0, end - start), 3),
            "step_s": [float(s.get("step_elapsed_s", 0.0)) for s in steps],
        },
    }


def export_chat_jsonl(run_dir: Path, out: Path, *, include_incomplete: bool = False) -> int:
    """Write the episodes found under ``run_dir`` to ``out``; return how many were written."""
    run_dir, out = Path(run_dir), Path(out)
    if not run_dir.exists():
        raise FileNotFoundError(f"{run_dir}: no such run directory")
    files = [run_dir] if run_dir.is_file() else sorted(run_dir.rglob("*.jsonl"))
    out.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    tmp = out.with_name(out.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for path in files:
            if path.resolve() == out.resolve():
                continue
            for records in _episodes(path):
                row = episode_row(records)
                if not include_incomplete and not (row["terminated"] or row["truncated"]):
                    continue
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
                written += 1
    tmp.replace(out)
    return written
