"""Cases of the "kept" category: what ``keep_workspace=True`` leaves on the host."""

from __future__ import annotations

from security.cases import Case, both

TITLE = "Kept workspaces"

CASES: tuple[Case, ...] = (
    Case(
        "kept-privileges",
        "kept",
        "Leave setuid and setgid executables (a copy of `/bin/sh` among them), a sticky "
        "world-writable folder, a FIFO, a Unix socket, a hard link and a mode-000 file in the "
        "workspace, then end the episode with `keep_workspace=True`.",
        "The kept workspace is a copy of contents, not privileges (`hostfs.copy_tree`, or "
        "`hostfs.make_inert` in place without a quota volume): new regular files and "
        "folders with permission bits & 0o777, links as links, all owned by the sandbox uid; "
        "FIFOs, sockets and devices are left out; a hard link becomes a file of its own.",
        both(
            "setuid/setgid/sticky kept: 0",
            "special files kept: 0",
            "not owned by the sandbox uid: 0",
            "hard links kept: 0",
        ),
        env={"keep_workspace": True},
    ),
    Case(
        "kept-deep-tree",
        "kept",
        "Nest folders 3,000 levels deep in the workspace (deeper than Python's recursion "
        "limit: `shutil.rmtree` and `copytree` raise RecursionError on such a tree), then "
        "end the episode with and without `keep_workspace`.",
        "Host walks hold one descriptor per level up to 128 levels: a copy lists deeper "
        "folders as skipped, and removal is iterative (deeper folders are first moved up), "
        "so ending the episode never fails and leaves nothing behind.",
        both("episode ended: True", "kept depth <= 128: True", "workspace removed: True"),
        env={"keep_workspace": True},
    ),
)
