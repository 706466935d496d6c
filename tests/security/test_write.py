"""Writing outside the workspace: system folders, the read-only task data, host paths."""

from __future__ import annotations

from pathlib import Path

from security.harness import Ctx, body, tree_digest
from security.suite import attack, category_test


@attack("write-system-dirs")
def _system(ctx: Ctx) -> str:
    marker = f"mle-gym-escape-{ctx.host.sleeper_tag}"
    targets = ["/usr", "/etc", "", "/opt", "/root", "/bin", "/var"]
    obs = ctx.agent.execute(
        "; ".join(f"echo x > {t}/{marker}" for t in targets) + f"; mkdir /{marker}.d"
    )
    for t in targets:
        assert not Path(f"{t}/{marker}").exists(), t
    assert not Path(f"/{marker}.d").exists()
    assert "x" not in body(obs).split()
    return obs


@attack("write-task-data-execute")
def _data_execute(ctx: Ctx) -> str:
    public = Path(ctx.env.data_dir)
    before = tree_digest(public)
    obs = ctx.agent.execute(
        "echo x >> data/train.csv; rm -f data/train.csv; mv data/test.csv data/t.csv; "
        "touch data/new.csv; mv data data_moved; rm -rf data; ls data"
    )
    assert tree_digest(public) == before
    listing = ctx.agent.list_files("data", 1)
    assert "train.csv" in listing and "test.csv" in listing and "new.csv" not in listing
    return obs


@attack("write-task-data-file-tools")
def _data_tools(ctx: Ctx) -> str:
    a = ctx.agent
    public = Path(ctx.env.data_dir)
    before = tree_digest(public)
    outs = [
        a.write_file("data/new.csv", "x"),
        a.write_file("data/train.csv", "x"),
        a.edit_file("data/train.csv", "PassengerId", "Hijacked"),
        a.write_file("/workspace/data/sample_submission.csv", "x"),
    ]
    for obs in outs:
        assert obs.startswith("error:"), obs
    assert tree_digest(public) == before
    return "\n".join(outs)


@attack("write-host-paths")
def _host_paths(ctx: Ctx) -> str:
    a = ctx.agent
    marker = f"mle-gym-escape-{ctx.host.sleeper_tag}"
    public = Path(ctx.env.data_dir)
    parent = a.workspace.parent
    obs = a.execute(
        f"echo x > {parent}/{marker}; echo x > {public}/{marker}; "
        f"touch {a.workspace}/../{marker}; echo x > /tmp/{marker}; ls /tmp"
    )
    assert not (parent / marker).exists() and not (public / marker).exists()
    assert not Path("/tmp", marker).exists()
    assert marker in body(obs)  # it did write: into the sandbox's private /tmp
    return obs


test_attack = category_test("write")
