"""Host-side file access sees exactly what the sandbox sees: symlink and traversal attacks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mle_gym.sandbox.base import DATA_DIR, WORKSPACE, Mount
from mle_gym.tools.fs import FsError, SandboxFS

SECRET = "secret-answer-42"


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    ws = tmp_path / "ws"
    (ws / "data").mkdir(parents=True)
    (ws / "src").mkdir()
    (ws / "src" / "a.py").write_text("print('a')\n")
    pub = tmp_path / "pub"
    pub.mkdir()
    (pub / "train.csv").write_text("id,y\n1,0\n")
    priv = tmp_path / "private"
    priv.mkdir()
    (priv / "answers.csv").write_text(SECRET)
    return {"ws": ws, "pub": pub, "priv": priv, "root": tmp_path}


@pytest.fixture
def fs(tree: dict[str, Path]) -> SandboxFS:
    return SandboxFS([Mount(tree["pub"], DATA_DIR, False), Mount(tree["ws"], WORKSPACE, True)])


def test_relative_and_absolute_paths(fs: SandboxFS) -> None:
    assert fs.read_bytes("src/a.py", 100)[0] == b"print('a')\n"
    assert fs.read_bytes("/workspace/src/a.py", 100)[0] == b"print('a')\n"
    assert fs.read_bytes("data/train.csv", 100)[0] == b"id,y\n1,0\n"
    assert fs.read_bytes("./src/../data/train.csv", 100)[0] == b"id,y\n1,0\n"


@pytest.mark.parametrize(
    "path",
    [
        "../private/answers.csv",
        "../../private/answers.csv",
        "/etc/passwd",
        "/proc/self/environ",
        "/root/.bashrc",
    ],
)
def test_paths_outside_the_sandbox_are_unreachable(fs: SandboxFS, path: str) -> None:
    with pytest.raises(FsError):
        fs.read_bytes(path, 1000)


def test_absolute_symlink_to_host_secret_is_not_followed_on_host(
    fs: SandboxFS, tree: dict[str, Path]
) -> None:
    os.symlink(tree["priv"] / "answers.csv", tree["ws"] / "leak.csv")
    with pytest.raises(FsError):
        fs.read_bytes("leak.csv", 1000)
    os.symlink(tree["priv"], tree["ws"] / "leakdir")
    with pytest.raises(FsError):
        fs.read_bytes("leakdir/answers.csv", 1000)
    with pytest.raises(FsError):
        fs.list_dir("leakdir", 1, 100)


def test_relative_symlink_escaping_the_workspace_is_refused(
    fs: SandboxFS, tree: dict[str, Path]
) -> None:
    os.symlink("../private/answers.csv", tree["ws"] / "rel.csv")
    with pytest.raises(FsError):
        fs.read_bytes("rel.csv", 1000)
    os.symlink("../../../../../../..", tree["ws"] / "up")
    with pytest.raises(FsError):
        fs.read_bytes(f"up{tree['priv']}/answers.csv", 1000)


def test_symlinks_inside_the_view_are_followed(fs: SandboxFS, tree: dict[str, Path]) -> None:
    os.symlink("/workspace/data/train.csv", tree["ws"] / "t.csv")
    os.symlink("src/a.py", tree["ws"] / "b.py")
    assert fs.read_bytes("t.csv", 100)[0] == b"id,y\n1,0\n"
    assert fs.read_bytes("b.py", 100)[0] == b"print('a')\n"


def test_symlink_loop(fs: SandboxFS, tree: dict[str, Path]) -> None:
    os.symlink("loop2", tree["ws"] / "loop1")
    os.symlink("loop1", tree["ws"] / "loop2")
    with pytest.raises(FsError, match="too many levels"):
        fs.read_bytes("loop1", 10)


def test_writes_refused_outside_writable_mount(fs: SandboxFS, tree: dict[str, Path]) -> None:
    with pytest.raises(FsError, match="read-only"):
        fs.write_bytes("data/new.csv", b"x")
    with pytest.raises(FsError, match="read-only"):
        fs.write_bytes("data/train.csv", b"x")
    os.symlink("/workspace/data/train.csv", tree["ws"] / "via_link.csv")
    with pytest.raises(FsError, match="read-only"):
        fs.write_bytes("via_link.csv", b"x")
    os.symlink(str(tree["priv"] / "answers.csv"), tree["ws"] / "host_link.csv")
    with pytest.raises(FsError):
        fs.write_bytes("host_link.csv", b"overwritten")
    with pytest.raises(FsError):
        fs.write_bytes("/etc/evil", b"x")
    with pytest.raises(FsError):
        fs.write_bytes("../outside.txt", b"x")
    assert (tree["pub"] / "train.csv").read_text() == "id,y\n1,0\n"
    assert (tree["priv"] / "answers.csv").read_text() == SECRET
    assert not (tree["root"] / "outside.txt").exists()


def test_write_creates_parents_and_replaces_atomically(
    fs: SandboxFS, tree: dict[str, Path]
) -> None:
    fs.write_bytes("a/b/c.txt", b"one")
    fs.write_bytes("a/b/c.txt", b"two")
    assert (tree["ws"] / "a" / "b" / "c.txt").read_bytes() == b"two"
    assert not [p for p in (tree["ws"] / "a" / "b").iterdir() if "tmp" in p.name]
    with pytest.raises(FsError, match="is a directory"):
        fs.write_bytes("a/b", b"x")


def test_owner_applied_to_new_files(tree: dict[str, Path]) -> None:
    if os.geteuid() != 0:
        pytest.fail("this test suite runs as root (CI does); chown needs it")
    fs = SandboxFS([Mount(tree["ws"], WORKSPACE, True)], owner=(200777, 200777))
    fs.write_bytes("d/x.txt", b"x")
    assert (tree["ws"] / "d" / "x.txt").stat().st_uid == 200777
    assert (tree["ws"] / "d").stat().st_uid == 200777


def test_special_files_are_not_read(fs: SandboxFS, tree: dict[str, Path]) -> None:
    os.mkfifo(tree["ws"] / "pipe")
    with pytest.raises(FsError, match="not a regular file"):
        fs.read_bytes("pipe", 10)
    with pytest.raises(FsError, match="is a directory"):
        fs.read_bytes("src", 10)


def test_read_is_capped(fs: SandboxFS, tree: dict[str, Path]) -> None:
    (tree["ws"] / "big.bin").write_bytes(b"x" * 5_000_000)
    data, size = fs.read_bytes("big.bin", 1000)
    assert len(data) == 1000 and size == 5_000_000


def test_listing_shows_data_mount_read_only(fs: SandboxFS, tree: dict[str, Path]) -> None:
    os.symlink("src/a.py", tree["ws"] / "link.py")
    lines, truncated = fs.list_dir(".", 2, 100)
    assert not truncated
    assert "data/  (read-only)" in lines
    assert any(line.startswith("data/train.csv") for line in lines)
    assert "src/" in lines
    assert any(line.startswith("src/a.py") for line in lines)
    assert "link.py -> src/a.py" in lines
    lines, truncated = fs.list_dir(".", 2, 2)
    assert truncated and len(lines) == 2


@pytest.mark.parametrize("bad", ["", "   ", "a\x00b", "x" * 5000])
def test_bad_paths(fs: SandboxFS, bad: str) -> None:
    with pytest.raises(FsError):
        fs.read_bytes(bad, 10)


def test_host_walk_never_follows_a_symlink_swapped_in_after_resolution(
    fs: SandboxFS, tree: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process still running in the sandbox may replace a checked directory by a link
    between resolution and use; the descriptor walk must refuse to follow it."""
    (tree["ws"] / "sub").mkdir()
    stale = fs.resolve("sub/x.txt", must_exist=False)
    (tree["ws"] / "sub").rmdir()
    os.symlink(tree["priv"], tree["ws"] / "sub")  # the swap
    monkeypatch.setattr(fs, "resolve", lambda *a, **k: stale)
    with pytest.raises(FsError, match="not a directory"):
        fs.write_bytes("sub/x.txt", b"overwritten")
    with pytest.raises(FsError):
        fs.read_bytes("sub/answers.csv", 100)
    with pytest.raises(FsError):
        fs.list_dir("sub", 1, 10)
    assert sorted(p.name for p in tree["priv"].iterdir()) == ["answers.csv"]
    assert (tree["priv"] / "answers.csv").read_text() == SECRET
