"""Host memory per episode, MLAgentBench: the attacks (see hostmem_mlab_cases.py)."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from mle_gym.families.mlagentbench.undo import MAX_TOTAL_BYTES
from security.harness import Agent, Ctx
from security.suite import attack

pytestmark = pytest.mark.slow

SOLUTION = (
    Path(__file__).resolve().parents[2]
    / "task_assets"
    / "mlagentbench"
    / "vectorization"
    / "solution"
    / "train.py"
).read_text()
SLACK = 32 * 2**20


def resident_bytes() -> int:
    """The resident memory of this (the host) process now."""
    gc.collect()
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _act(agent: Agent, tool: str, **args: object) -> str:
    return agent.call(tool.replace(" ", "_"), **args).obs


@attack("hostmem-mlab-undo-backups")
def _undo_backups(ctx: Ctx) -> str:
    a = ctx.agent
    _act(
        a, "Write File", file_name="gen.py", content="open('big.txt', 'w').write('a' * 60_000_000)"
    )
    _act(a, "Execute Script", script_name="gen.py")
    before = resident_bytes()
    observations = [_act(a, "Append File", file_name="big.txt", content="b") for _ in range(12)]
    growth = resident_bytes() - before
    within = growth < MAX_TOTAL_BYTES + SLACK
    assert within, f"the host process grew by {growth:,} bytes"
    assert all("appended successfully" in obs for obs in observations), observations
    # Undo still works for the edit whose backup was kept: the 11th append is undone.
    undone = _act(a, "Undo Edit Script", script_name="big.txt")
    assert "after undo the most recent edit" in undone, undone[:300]
    nothing = _act(a, "Undo Edit Script", script_name="big.txt")
    assert "There is no change to undo." in nothing, nothing
    # The env still grades valid work: the vectorised solution succeeds.
    a.reset()
    _act(a, "Write File", file_name="train.py", content=SOLUTION)
    step = a.call("Final_Answer", final_answer="vectorised")
    assert step.terminated and step.info["grade"]["valid"] is True, step.info["grade"]
    assert step.info["grade"]["success"] is True, step.info["grade"]
    return (
        "\n".join(observations[-2:])
        + f"\n{nothing}\nhost memory growth within the cap: {within} ({growth / 2**20:.0f} MiB)"
    )
