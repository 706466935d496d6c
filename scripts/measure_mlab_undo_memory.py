"""Host memory held by MLAgentBench's Undo Edit Script backups, per sandbox backend.

    python scripts/measure_mlab_undo_memory.py [local] [docker] [--edits N] [--mb M]

Makes an M MB file in a ``toolset="mlagentbench"`` episode (default 60 MB), appends one
byte to it N times with ``Append File`` (default 12) and prints how much the resident
memory of this (the host) process grew, with the last observation. Each edit backs up
the file's previous content on the host, so without a cap the growth is about N * M MB.
"""

from __future__ import annotations

import argparse
import gc
import json
import os

import gymnasium as gym

import mle_gym  # noqa: F401


def resident_bytes() -> int:
    """This process's resident memory now (after a collection)."""
    gc.collect()
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(backend: str, edits: int, mb: int) -> str:
    """One line for ``backend``: the growth and the last observation."""
    env = gym.make("MLAgentBench/vectorization-v0", sandbox=backend, toolset="mlagentbench")
    try:
        env.reset(seed=0)

        def act(name: str, **args: object) -> str:
            return env.step(f"Action: {name}\nAction Input: {json.dumps(args)}")[0]

        act(
            "Write File",
            file_name="gen.py",
            content=f"open('big.txt','w').write('a' * {mb}_000_000)",
        )
        act("Execute Script", script_name="gen.py")
        before = resident_bytes()
        obs = ""
        for _ in range(edits):
            obs = act("Append File", file_name="big.txt", content="b")
        growth = resident_bytes() - before
    finally:
        env.close()
    last = obs.replace("\n", " / ")
    return (
        f"{backend}: {edits} one-byte appends to a {mb} MB file: host RSS "
        f"+{growth / 2**20:.0f} MiB; last observation: {last}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("backends", nargs="*", default=["local"])
    parser.add_argument("--edits", type=int, default=12)
    parser.add_argument("--mb", type=int, default=60)
    args = parser.parse_args()
    for backend in args.backends:
        print(measure(backend, args.edits, args.mb), flush=True)


if __name__ == "__main__":
    main()
