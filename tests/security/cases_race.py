"""Cases of the "race" category: links swapped while host code reads or writes a workspace."""

from __future__ import annotations

from security.cases import Case, both

TITLE = "Links swapped under the host's feet"

_RACER = (
    "A thread left running in the `python` tool exchanges (renameat2 RENAME_EXCHANGE, "
    "thousands of times a second) folders and files of the workspace with symbolic links "
    "to host paths — `/`, `/etc` and the private answers' folder and file by their host "
    "paths — "
)
_DEFENCE = (
    "The episode's processes are stopped while the host touches the workspace "
    "(`Sandbox.frozen`), and every host access goes through `mle_gym.sandbox.hostfs`: each "
    "path component is opened relative to its folder's descriptor with O_NOFOLLOW, so a "
    "link swapped in at any moment is copied as a link or skipped, never followed. "
)

CASES: tuple[Case, ...] = (
    Case(
        "race-grade",
        "race",
        _RACER + "while the episode is submitted and graded (the submission itself is one "
        "of the swapped files).",
        _DEFENCE + "The submission is copied out through the sandbox's own view of paths; "
        "whatever moment the copy hits, it reads the agent's file or nothing (missing), never "
        "the answers.",
        both("answers graded: 0", "host files changed: 0", "swaps before grading: "),
    ),
    Case(
        "race-snapshot",
        "race",
        _RACER + "while `mle-gym eval` copies the workspace into the run's `final/` folder "
        "(`snapshot_env`, fifty times in a row).",
        _DEFENCE + "Links are listed as skipped, never copied or followed; copies are new "
        "regular files.",
        both("host content copied: 0", "links copied: 0", "host files changed: 0"),
    ),
    Case(
        "race-kept-workspace",
        "race",
        _RACER + "and leaves setuid/setgid files, a sticky folder and a FIFO, then the "
        "episode ends with `keep_workspace=True`.",
        _DEFENCE + "The kept workspace is a copy of contents, not privileges: regular files "
        "and folders (permission bits & 0o777) and links as links, owned by the sandbox uid; "
        "FIFOs, sockets and devices are left out.",
        both(
            "host content kept: 0",
            "setuid/setgid/sticky kept: 0",
            "special files kept: 0",
            "not owned by the sandbox uid: 0",
        ),
        env={"keep_workspace": True},
    ),
    Case(
        "race-mlbench-grading-tree",
        "race",
        _RACER + "while an ML-Bench episode grades, so that the grading tree built from the "
        "workspace would pull host folders into the graded run.",
        _DEFENCE + "The grading tree copies links as links (they resolve only inside the "
        "grading sandbox, where host paths do not exist); the graded run sees no host file.",
        both("grading run saw host files: 0", "passed: True", "host files changed: 0"),
        task="MLBench/tabkit-v0",
    ),
    Case(
        "race-mlab-rerun",
        "race",
        _RACER + "while an MLAgentBench episode with `rerun` copies the workspace for the "
        "re-run of its code (the re-run checks whether host files were copied in).",
        _DEFENCE + "The rerun copy takes regular files and folders only, through descriptors.",
        both("rerun saw host files: 0", "valid: True", "host files changed: 0"),
        task="MLAgentBench/house-price-v0",
        env={"family_options": {"rerun": True}},
    ),
)
