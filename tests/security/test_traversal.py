"""Path traversal through every file tool (read, list, write, edit, validate)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from security.harness import Ctx
from security.suite import attack, category_test


def _escapes(ctx: Ctx) -> list[str]:
    up = "../" * 12
    return [
        f"{up}{ctx.answers.lstrip('/')}",
        f"/workspace/../..{ctx.answers}",
        f"data/../../..{ctx.answers}",
        f"/proc/self/root{ctx.answers}",
        f"/proc/1/root{ctx.answers}",
        ctx.answers,
    ]


@attack("traversal-read-file")
def _read(ctx: Ctx) -> str:
    outs = [ctx.agent.read_file(p) for p in _escapes(ctx)]
    for obs in outs:
        assert obs.startswith("error:"), obs
    return "\n".join(outs)


@attack("traversal-list-files")
def _list(ctx: Ctx) -> str:
    a = ctx.agent
    targets = ["..", "/", "/workspace/../..", "data/../..", str(a.workspace.parent)]
    outs = [a.list_files(p) for p in targets]
    for obs in outs:
        assert obs.startswith("error:"), obs
    return "\n".join(outs)


@attack("traversal-write-file")
def _write(ctx: Ctx) -> str:
    a = ctx.agent
    host_parent = a.workspace.parent
    marker = f"escape-{ctx.host.sleeper_tag}"
    targets = [
        f"../{marker}",
        f"/tmp/{marker}",
        f"data/../../{marker}",
        f"{'../' * 12}tmp/{marker}",
        str(host_parent / marker),
    ]
    outs = [a.write_file(p, "escaped") for p in targets]
    for obs in outs:
        assert obs.startswith("error:"), obs
    assert not (host_parent / marker).exists()
    assert not Path("/tmp", marker).exists()
    assert not (a.workspace / marker).exists()
    return "\n".join(outs)


@attack("traversal-edit-file")
def _edit(ctx: Ctx) -> str:
    a = ctx.agent
    before = hashlib.sha256(Path("/etc/passwd").read_bytes()).hexdigest()
    a.execute("ln -s /etc/passwd pw")
    outs = [
        a.edit_file("/etc/passwd", "root", "owned"),
        a.edit_file("../../etc/hosts", "localhost", "owned"),
        a.edit_file("pw", "root", "owned"),
        a.edit_file(f"/proc/self/root{ctx.answers}", "True", "False"),
    ]
    for obs in outs:
        assert obs.startswith("error:"), obs
    assert hashlib.sha256(Path("/etc/passwd").read_bytes()).hexdigest() == before
    return "\n".join(outs)


@attack("traversal-validate")
def _validate(ctx: Ctx) -> str:
    outs = [ctx.agent.validate(p) for p in _escapes(ctx)]
    for obs in outs:
        assert obs.startswith("invalid:"), obs
    return "\n".join(outs)


test_attack = category_test("traversal")
