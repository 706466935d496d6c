"""Host memory per episode, MLAgentBench: the cases (data only)."""

from __future__ import annotations

from security.cases import Case, both

CASES: tuple[Case, ...] = (
    Case(
        "hostmem-mlab-undo-backups",
        "hostmem",
        "MLAgentBench toolset: make a 60 MB file, then `Append File` one byte to it twelve "
        "times, so that every edit's backup for `Undo Edit Script` (60 MB each) is held by "
        "the host process (687 MB before the cap).",
        "Undo backups are capped per episode (64 MiB in all, 20 versions per file, the "
        "oldest dropped first); the observation says when a backup was dropped or not kept "
        "and names the cap. Checked on the host: the test process's resident memory grows "
        "by less than the cap plus 32 MiB.",
        both(
            "Undo keeps at most 64 MiB of backups per episode",
            "Undo Edit Script is not available",
            "host memory growth within the cap: True",
        ),
        env={"toolset": "mlagentbench"},
        task="MLAgentBench/vectorization-v0",
    ),
)
