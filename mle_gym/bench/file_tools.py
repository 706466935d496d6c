"""File-tool steps (read_file, write_file, list_files, edit_file) next to the raw Python
file operation doing the same work on the same host files.

The step goes through ``env.step``: action parsing, argument checks, the
sandbox file view (no-symlink walks, size caps, ownership), the observation
text and the info dict. The raw operation is the bare ``open``/``scandir``
call. ``overhead_ms`` is the median of the per-round differences.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mle_gym.bench.context import BenchContext
from mle_gym.bench.results import Figure
from mle_gym.bench.timing import interleaved, median, median_ratio

CONTENT = "x = 1\n" * 100  # 600 bytes


def _raw_list(workspace: Path, data: Path) -> list[str]:
    names = []
    for root, depth in ((workspace, 0), (data, 1)):
        for entry in sorted(os.scandir(root), key=lambda e: e.name):
            names.append(entry.name)
            if depth == 0 and entry.is_dir(follow_symlinks=False) and entry.name != "data":
                names.extend(sorted(e.name for e in os.scandir(entry.path)))
    return names


def _toggle_edit(path: Path) -> Callable[[], None]:
    """A raw edit: read, replace the marker line by its other state, write."""
    state = {"on": False}

    def run() -> None:
        old, new = ("FLAG = 1", "FLAG = 0") if state["on"] else ("FLAG = 0", "FLAG = 1")
        text = path.read_text()
        path.write_text(text.replace(old, new, 1))
        state["on"] = not state["on"]

    return run


def _toggle_edit_step(env: Any) -> Callable[[], None]:
    state = {"on": False}

    def run() -> None:
        old, new = ("FLAG = 1", "FLAG = 0") if state["on"] else ("FLAG = 0", "FLAG = 1")
        env.step({"tool": "edit_file", "args": {"path": "edit.py", "old": old, "new": new}})
        state["on"] = not state["on"]

    return run


def measure(ctx: BenchContext, backend: str) -> list[Figure]:
    """Four figures: each file tool's step next to its raw operation."""
    env = ctx.make_env(backend)
    try:
        env.reset(seed=0)
        u = env.unwrapped
        ws, data = Path(u.workspace), Path(u.data_dir)
        (ws / "edit.py").write_text("FLAG = 0\n" + CONTENT)
        raw_edit_file = ctx.scratch / "raw-edit.py"
        raw_edit_file.write_text("FLAG = 0\n" + CONTENT)
        raw_write_file = ctx.scratch / "raw-write.py"

        def step(tool: str, **args: Any) -> Callable[[], object]:
            return lambda: env.step({"tool": tool, "args": args})

        pairs: dict[str, tuple[str, Callable[[], object], str, Callable[[], object]]] = {
            "read_file": (
                "read_file step (data/train.csv, 201 lines)",
                step("read_file", path="data/train.csv"),
                "open().read() + splitlines",
                lambda: (data / "train.csv").read_text().splitlines(),
            ),
            "write_file": (
                "write_file step (600 B)",
                step("write_file", path="w.py", content=CONTENT),
                "Path.write_text",
                lambda: raw_write_file.write_text(CONTENT),
            ),
            "list_files": (
                "list_files step (workspace, depth 2)",
                step("list_files", path=".", depth=2),
                "os.scandir walk",
                lambda: _raw_list(ws, data),
            ),
            "edit_file": (
                "edit_file step (replace one line, 609 B file)",
                _toggle_edit_step(env),
                "read + str.replace + write",
                _toggle_edit(raw_edit_file),
            ),
        }
        figures = []
        for tool, (label, step_fn, raw_label, raw_fn) in pairs.items():
            s = interleaved({"step": step_fn, "raw": raw_fn}, ctx.config.repeats, warmup=2)
            overhead = median([a - b for a, b in zip(s["step"], s["raw"], strict=True)])
            figures.append(
                Figure(
                    key=f"file_tools.{tool}.{backend}",
                    family="file_tools",
                    label=label,
                    unit="ms",
                    value=median(s["step"]),
                    samples=len(s["step"]),
                    backend=backend,
                    baseline_label=f"raw {raw_label}",
                    baseline=median(s["raw"]),
                    ratio=median_ratio(s["step"], s["raw"]),
                    extra={"overhead_ms": round(overhead, 4)},
                )
            )
        return figures
    finally:
        env.close()
