"""Regenerate ``tests/slow_tests.txt`` from a JUnit XML report of a full test run.

    .venv/bin/python -m pytest --junitxml=/tmp/junit.xml        # the whole suite
    .venv/bin/python scripts/update_slow_tests.py /tmp/junit.xml [--threshold 0.3]

Every test whose call took longer than the threshold (seconds, default 0.3) is listed;
``tests/conftest.py`` marks the listed tests ``slow``, so ``pytest -m "not slow"`` (the
fast loop) leaves them out. Tests already marked ``slow`` in code need not be listed;
listed ids that no longer exist are harmless. Lines after the ``KEPT`` marker are kept
as they are: tests that are slow only when they come first (they pay for a module-scoped
fixture or a data cache that the full run had already built).
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUTPUT = REPO / "tests" / "slow_tests.txt"
HEADER = (
    "# Tests marked `slow` by tests/conftest.py: their call took more than the threshold in a\n"
    "# full run (regenerate: scripts/update_slow_tests.py <junit.xml>). One node id per line.\n"
)


KEPT = "# -- kept by hand (slow when the fast loop runs them first):"


def kept_lines() -> list[str]:
    """The hand-kept section of the current list (the marker line and what follows)."""
    if not OUTPUT.is_file():
        return []
    lines = OUTPUT.read_text().splitlines()
    return lines[lines.index(KEPT) :] if KEPT in lines else []


def node_id(case: ET.Element) -> str:
    """The pytest node id of a JUnit ``testcase`` (classname is the dotted module path)."""
    classname = case.get("classname", "")
    name = case.get("name", "")
    parts = classname.split(".")
    # a test class shows as the last dotted part when it starts with "Test"
    cls = parts.pop() if parts and parts[-1].startswith("Test") else None
    path = "/".join(parts) + ".py"
    return f"{path}::{cls}::{name}" if cls else f"{path}::{name}"


def slow_ids(junit: Path, threshold: float) -> list[str]:
    """Node ids of the test cases of ``junit`` that took longer than ``threshold`` s."""
    root = ET.parse(junit).getroot()
    out = []
    for case in root.iter("testcase"):
        if float(case.get("time", "0")) > threshold:
            out.append(node_id(case))
    return sorted(set(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("junit", type=Path)
    parser.add_argument("--threshold", type=float, default=0.3)
    args = parser.parse_args(argv)
    ids = slow_ids(args.junit, args.threshold)
    kept = kept_lines()
    OUTPUT.write_text(HEADER + "".join(f"{i}\n" for i in ids) + "".join(f"{k}\n" for k in kept))
    print(f"wrote {len(ids)} ids to {OUTPUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
