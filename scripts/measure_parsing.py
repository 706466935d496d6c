"""Time the parsers of agent input on hostile inputs (issue 13, point 4).

Each case builds one input and times one call of a parser in a fresh child process
(so a case that never finishes is cut at ``--limit`` seconds and shown as such):
``parse_action`` (the default action forms), MLAgentBench's text format, and
ML-Bench's argument/output-type checks. Run it against another checkout to compare,
e.g. the last commit::

    git archive HEAD mle_gym | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python scripts/measure_parsing.py     # before
    python scripts/measure_parsing.py                          # after
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

SETUP = """
import time
from mle_gym.families.mlagentbench.toolset import mlagentbench_toolset
from mle_gym.families.mlbench import argcheck
from mle_gym.tools.parsing import parse_action
mlab = mlagentbench_toolset().parse
"""

# name -> (parser call with the input as `x`, input expression)
CASES: dict[str, tuple[str, str]] = {
    "<tool_call> + 1,000 spaces": ("parse_action(x)", '"<tool_call>" + " " * 1_000'),
    "<tool_call> + 4,000 spaces": ("parse_action(x)", '"<tool_call>" + " " * 4_000'),
    "<tool_call> + 10,000 spaces": ("parse_action(x)", '"<tool_call>" + " " * 10_000'),
    "<tool_call> + 999,980 spaces": ("parse_action(x)", '"<tool_call>" + " " * 999_980'),
    "90,909 x <tool_call>": ("parse_action(x)", '"<tool_call>" * 90_909'),
    "``` + 10,000 spaces": ("parse_action(x)", '"```" + " " * 10_000 + "x"'),
    "MLAB <tool_call> + 10,000 spaces": ("mlab(x)", '"<tool_call>" + " " * 10_000'),
    "MLAB 'Action' + 999,000 tabs": ("mlab(x)", '"Action" + "\\t" * 999_000'),
    "MLAB list literal, 1M chars": (
        "mlab(x)",
        '"Action: List Files\\nAction Input: {\'dir_path\': [" + "1," * 499_000 + "1]}x"',
    ),
    "ML-Bench value_found, 2^20 digits": (
        'argcheck.value_found("0.5", x)',
        '"--lr " + "1" * 2**20 + "a"',
    ),
    "ML-Bench type_check, 2^20 dots": ('argcheck.type_check(x, "Bash Script")', '"." * 2**20'),
    "ML-Bench type_check, 1+1+...": ('argcheck.type_check(x, "Python Code")', '"1+" * 2**19'),
}


def run_case(call: str, build: str, limit: float) -> str:
    """Seconds one call took (or why there is no figure)."""
    code = (
        SETUP
        + f"x = {build}\nt = time.perf_counter()\ntry:\n    {call}\nexcept Exception:\n"
        + "    pass\nprint(time.perf_counter() - t)\n"
    )
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=limit,
            env=os.environ.copy(),
        )
    except subprocess.TimeoutExpired:
        return f"> {limit:g} s (cut)"
    if proc.returncode != 0:
        return "failed: " + proc.stderr.strip().splitlines()[-1][:80]
    return f"{float(proc.stdout.strip().splitlines()[-1]) * 1000:,.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per case")
    args = parser.parse_args()
    print("| input | one call |\n|---|---|")
    for name, (call, build) in CASES.items():
        print(f"| {name} | {run_case(call, build, args.limit)} |", flush=True)


if __name__ == "__main__":
    main()
