"""Kept workspaces: contents, not privileges; any tree (see security/cases_kept.py)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from security.harness import Ctx
from security.suite import attack, category_test

pytestmark = pytest.mark.slow

DEPTH = 3000
NEST = f"""\
import os
here = os.getcwd()
os.mkdir("deep")
os.chdir("deep")
for _ in range({DEPTH}):
    os.mkdir("d")
    os.chdir("d")
os.chdir(here)
print("nested")
"""


def _entries(root: Path) -> list[tuple[Path, os.stat_result]]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            out.append((p, os.lstat(p)))
    return out


def _end_episode(ctx: Ctx) -> Path:
    """End the current episode (a reset); return its kept episode folder."""
    kept = ctx.agent.workspace
    ctx.agent.reset()
    assert kept.is_dir() and (kept.parent / ".keep").exists(), kept
    return kept


@attack("kept-privileges")
def _privileges(ctx: Ctx) -> str:
    a = ctx.agent
    owner = ctx.env.sandbox.file_owner
    listing = a.execute(
        "cp /bin/sh mysh && chmod 4755 mysh; echo y > sgid && chmod 2755 sgid; "
        "mkdir -p sticky && chmod 1777 sticky; mkfifo pipe; "
        "python -c \"import socket; s=socket.socket(socket.AF_UNIX); s.bind('sock')\"; "
        "echo h > orig && ln orig hard; echo z > zero && chmod 000 zero; ls -la"
    )
    kept = _end_episode(ctx)
    try:
        entries = _entries(kept)
        names = {p.name for p, _ in entries}
        assert {"mysh", "sgid", "sticky", "orig", "hard", "zero"} <= names, sorted(names)
        bits = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX
        privileged = [str(p) for p, st in entries if st.st_mode & bits]
        special = [
            str(p)
            for p, st in entries
            if not (
                stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode) or stat.S_ISLNK(st.st_mode)
            )
        ]
        foreign = [
            str(p) for p, st in entries if owner is not None and (st.st_uid, st.st_gid) != owner
        ]
        hard = [str(p) for p, st in entries if stat.S_ISREG(st.st_mode) and st.st_nlink > 1]
        sh = (kept / "mysh").read_bytes() == Path("/bin/sh").resolve().read_bytes()
    finally:
        shutil.rmtree(kept.parent, ignore_errors=True)
    assert not (privileged or special or foreign or hard), (privileged, special, foreign, hard)
    return (
        f"{listing}\nkept /bin/sh copy intact: {sh}\n"
        f"setuid/setgid/sticky kept: {len(privileged)}\nspecial files kept: {len(special)}\n"
        f"not owned by the sandbox uid: {len(foreign)}\nhard links kept: {len(hard)}"
    )


@attack("kept-deep-tree")
def _deep(ctx: Ctx) -> str:
    a = ctx.agent
    assert "nested" in a.python(NEST, timeout=120)
    kept = _end_episode(ctx)  # raised RecursionError before the copy was iterative
    try:
        depth = max(len(p.relative_to(kept).parts) for p, _ in _entries(kept))
    finally:
        shutil.rmtree(kept.parent, ignore_errors=True)
    ctx.env.keep_workspace = False  # and a deep tree in a workspace that is not kept
    assert "nested" in a.python(NEST, timeout=120)
    episode_dir = a.workspace.parent
    a.reset()
    removed = not episode_dir.exists()
    ctx.env.keep_workspace = True
    assert depth <= 130 and removed, (depth, removed)
    return f"episode ended: True\nkept depth <= 128: {depth <= 128}\nworkspace removed: {removed}"


test_attack = category_test("kept")
