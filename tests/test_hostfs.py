"""mle_gym.sandbox.hostfs: host file operations that never follow a link the agent planted,
checked on static trees (links at every component, special files, privileges) and under a
racing process that exchanges a folder and a link to a host folder as fast as it can."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mle_gym.sandbox import hostfs
from mle_gym.sandbox.hostfs import HostFSError, HostFSLimitError

ROOT = os.geteuid() == 0
SENTINEL = b"HOST-SENTINEL-never-copied\n"


@pytest.fixture
def host(tmp_path: Path) -> Path:
    """A host folder outside the tree with a sentinel file (setuid, root's)."""
    outside = tmp_path / "host"
    outside.mkdir()
    (outside / "secret").write_bytes(SENTINEL)
    os.chmod(outside / "secret", 0o4755)
    (outside / "hostonly").write_bytes(SENTINEL)
    return outside


def _host_state(outside: Path) -> dict[str, tuple[bytes, int, int, int]]:
    out = {}
    for p in sorted(outside.rglob("*")):
        st = p.lstat()
        data = p.read_bytes() if p.is_file() else b""
        out[str(p.relative_to(outside))] = (data, st.st_mode, st.st_uid, st.st_gid)
    return out


def _files_under(root: Path) -> dict[str, bytes]:
    """Regular files under ``root`` (not following links) and their content."""
    found = {}
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            p = Path(dirpath) / name
            if not p.is_symlink() and p.is_file():
                found[str(p.relative_to(root))] = p.read_bytes()
    return found


# -- links at every component -------------------------------------------------------------


def test_a_link_at_any_component_is_refused_or_removed(tmp_path: Path, host: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "a" / "b").mkdir(parents=True)
    (tree / "a" / "link").symlink_to(host)
    (tree / "rootlink").symlink_to(host)
    before = _host_state(host)

    with pytest.raises(HostFSError, match="symbolic link or not a directory"):
        hostfs.open_dir(tree, "a/link")
    with pytest.raises(HostFSError, match="symbolic link or not a directory"):
        hostfs.copy_tree(tree / "a", tree / "rootlink")  # a destination that is a link
    with pytest.raises(HostFSError, match="symbolic link"):
        hostfs.read_file(tree, "a/link/secret", 100)
    with pytest.raises(HostFSError):
        hostfs.write_file(tree, "a/link/secret", b"x")
    with pytest.raises(HostFSError):
        hostfs.write_file(tree, "a/link/new/file", b"x", make_parents=True)
    with pytest.raises(HostFSError):
        hostfs.make_dirs(tree, "a/link/sub")
    (tree / "a" / "flink").symlink_to(host / "secret")
    with pytest.raises(HostFSError, match="symbolic link"):
        hostfs.read_file(tree, "a/flink", 100)
    hostfs.write_file(tree, "a/flink", b"mine")  # the link is replaced, not followed
    assert (tree / "a" / "flink").read_bytes() == b"mine"
    assert not (tree / "a" / "flink").is_symlink()

    hostfs.remove_tree(tree, "a/link/secret")  # a link on the way: the link goes
    assert not os.path.lexists(tree / "a" / "link")
    hostfs.remove_tree(tree, "rootlink")
    assert not os.path.lexists(tree / "rootlink")
    assert _host_state(host) == before


@pytest.mark.parametrize("rel", ["../x", "/etc/passwd", "a/../../x", "a\x00b"])
def test_paths_must_stay_relative(tmp_path: Path, rel: str) -> None:
    with pytest.raises(HostFSError, match=r"relative path|'\.\.'"):
        hostfs.write_file(tmp_path, rel, b"x")


def test_walk_never_enters_links_and_reports_depth(tmp_path: Path, host: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "d").mkdir(parents=True)
    (tree / "d" / "f").write_text("1")
    (tree / "d" / "up").symlink_to(host)
    deep = tree / "deep"
    deep.mkdir()
    cur = deep
    for _ in range(5):
        cur = cur / "x"
        cur.mkdir()
    skipped: list[tuple[str, str]] = []
    rels = [
        e.rel for e in hostfs.walk(tree, max_depth=4, on_skip=lambda p, r: skipped.append((p, r)))
    ]
    assert "d/up" in rels and not any(r.startswith("d/up/") for r in rels)
    assert ("deep/x/x/x", "nested deeper than 4 folders") in skipped
    with pytest.raises(HostFSLimitError, match="limit"):
        list(hostfs.walk(tree, max_entries=3))


# -- copies: contents, not privileges -------------------------------------------------------


def test_copy_tree_copies_contents_not_privileges(tmp_path: Path, host: Path) -> None:
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "run.sh").write_text("echo hi\n")
    os.chmod(src / "pkg" / "run.sh", 0o6755)
    os.chmod(src / "pkg", 0o3777)
    (src / "link").symlink_to(host)
    (src / "flink").symlink_to(host / "secret")
    os.mkfifo(src / "fifo")
    if ROOT:
        os.mknod(src / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    (src / "data").mkdir()
    (src / "data" / "big").write_bytes(b"x" * 100)

    dst = tmp_path / "dst"
    report = hostfs.copy_tree(src, dst, exclude_top=("data",))
    assert report.files == ["pkg/run.sh"] and report.links == []
    reasons = dict(report.skipped)
    assert reasons["link"] == reasons["flink"] == "symbolic link (not followed)"
    assert "FIFO" in reasons["fifo"] and (not ROOT or "device" in reasons["null"])
    assert stat.S_IMODE((dst / "pkg" / "run.sh").stat().st_mode) == 0o755
    assert not (dst / "pkg").stat().st_mode & (stat.S_ISGID | stat.S_ISVTX)
    assert not (dst / "data").exists()

    dst2 = tmp_path / "dst2"
    owner = (12345, 12346) if ROOT else None
    report = hostfs.copy_tree(src, dst2, links="copy", owner=owner)
    assert sorted(report.links) == ["flink", "link"]
    assert os.readlink(dst2 / "link") == str(host)
    if ROOT:
        assert (dst2 / "pkg" / "run.sh").stat().st_uid == 12345
        assert os.lstat(dst2 / "link").st_uid == 12345
    assert SENTINEL not in b"".join(_files_under(dst2).values())


def test_copy_tree_limits(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for i in range(5):
        (src / f"f{i}").write_bytes(b"x" * 40)
    with pytest.raises(HostFSLimitError, match="100-byte total"):
        hostfs.copy_tree(src, tmp_path / "a", max_bytes=100)
    report = hostfs.copy_tree(src, tmp_path / "b", max_bytes=100, on_limit="skip")
    assert report.files == ["f0", "f1"] and report.bytes == 80
    assert [p for p, _ in report.skipped] == ["f2", "f3", "f4"]
    report = hostfs.copy_tree(src, tmp_path / "c", max_file_bytes=39, on_limit="skip")
    assert report.files == [] and "39-byte cap" in report.skipped[0][1]
    report = hostfs.copy_tree(src, tmp_path / "d", max_entries=3, on_limit="skip")
    assert report.files == [] and "the rest is not copied" in report.skipped[-1][1]


def test_make_inert(tmp_path: Path, host: Path) -> None:
    tree = tmp_path / "kept"
    (tree / "d").mkdir(parents=True)
    os.chmod(tree / "d", 0o3777)
    (tree / "suid").write_text("#!/bin/sh\n")
    os.chmod(tree / "suid", 0o4755)
    (tree / "sgid").write_text("x")
    os.chmod(tree / "sgid", 0o2711)
    os.mkfifo(tree / "d" / "fifo")
    if ROOT:
        os.mknod(tree / "disk", stat.S_IFBLK | 0o600, os.makedev(7, 0))
    (tree / "link").symlink_to(host / "secret")
    os.link(host / "secret", tree / "hard")  # another name of a host file
    before = _host_state(host)

    owner = (12345, 12345) if ROOT else None
    report = hostfs.make_inert(tree, owner=owner)
    assert "d/fifo" in report.removed and (not ROOT or "disk" in report.removed)
    assert report.unlinked_copies == ["hard"]
    for p in (tree / "suid", tree / "sgid", tree / "d", tree / "hard"):
        assert not p.stat().st_mode & (stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX), p
        if ROOT:
            assert p.stat().st_uid == 12345, p
    assert stat.S_IMODE((tree / "suid").stat().st_mode) == 0o755
    assert (tree / "hard").read_bytes() == SENTINEL and (tree / "hard").stat().st_nlink == 1
    assert os.readlink(tree / "link") == str(host / "secret")
    assert _host_state(host) == before  # the host file kept its mode, owner and content


def test_remove_and_clear_deep_trees(tmp_path: Path, host: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    fd = os.open(tree, os.O_RDONLY)
    for _ in range(hostfs.MAX_DEPTH * 3):  # deeper than one fd per level allows
        os.mkdir("d", dir_fd=fd)
        nfd = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    os.symlink(str(host), "up", dir_fd=fd)
    os.close(fd)
    (tree / "keep").write_text("k")
    hostfs.clear_dir(tree, keep={"keep"})
    assert os.listdir(tree) == ["keep"]
    assert (host / "secret").read_bytes() == SENTINEL


def test_chown_tree_changes_links_not_targets(tmp_path: Path, host: Path) -> None:
    if not ROOT:
        pytest.skip("chown needs root")
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "f").write_text("x")
    (tree / "data").mkdir()
    (tree / "up").symlink_to(host)
    hostfs.chown_tree(tree, 4242, 4242, exclude_top=("data",))
    assert tree.stat().st_uid == (tree / "sub" / "f").stat().st_uid == 4242
    assert os.lstat(tree / "up").st_uid == 4242 and (tree / "data").stat().st_uid == 0
    assert (host / "secret").stat().st_uid == 0 and host.stat().st_uid == 0


# -- a racing adversary -----------------------------------------------------------------------

RACER = textwrap.dedent(
    """
    import ctypes, os, sys
    libc = ctypes.CDLL(None, use_errno=True)
    RENAME_EXCHANGE = 2
    AT_FDCWD = -100
    os.chdir(sys.argv[1])
    stop = sys.argv[2]
    pairs = [(b"dir", b"dir.alt"), (b"file", b"file.alt")]
    n = loops = 0
    while True:
        for a, b in pairs:
            if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0:
                n += 1
        loops += 1
        if loops % 256 == 0 and os.path.exists(stop):
            break
    print(n)
    """
)


@pytest.fixture
def raced(tmp_path: Path, host: Path) -> Iterator[tuple[Path, Path]]:
    """A tree whose ``dir`` and ``file`` are exchanged continuously (renameat2
    RENAME_EXCHANGE, in another process) with links to the host folder and file."""
    tree = tmp_path / "tree"
    (tree / "dir").mkdir(parents=True)
    (tree / "dir" / "secret").write_text("decoy\n")
    (tree / "dir" / "inner").mkdir()
    (tree / "dir.alt").symlink_to(host)
    (tree / "file").write_text("decoy\n")
    (tree / "file.alt").symlink_to(host / "secret")
    stop = tmp_path / "stop"
    proc = subprocess.Popen(
        [sys.executable, "-c", RACER, str(tree), str(stop)], stdout=subprocess.PIPE, text=True
    )
    time.sleep(0.2)
    yield tree, host
    stop.touch()
    out, _ = proc.communicate(timeout=60)
    assert int(out.strip() or 0) >= 2000, f"the racer exchanged only {out!r} times"


def _until(seconds: float) -> Iterator[int]:
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        yield i
        i += 1


@pytest.mark.slow
def test_nothing_outside_the_tree_is_read_or_written_under_a_race(
    raced: tuple[Path, Path], tmp_path: Path
) -> None:
    tree, host = raced
    before = _host_state(host)
    outcomes = {"ok": 0, "refused": 0}

    def attempt(fn, *args, **kwargs):
        try:
            result = fn(*args, **kwargs)
        except (HostFSError, FileNotFoundError):
            outcomes["refused"] += 1
            return None
        outcomes["ok"] += 1
        return result

    for i in _until(3.0):
        data = attempt(hostfs.read_file, tree, "dir/secret", 1000)
        assert data in (None, b"decoy\n")
        data = attempt(hostfs.read_file, tree, "file", 1000)
        assert data in (None, b"decoy\n")
        attempt(hostfs.write_file, tree, f"dir/w{i % 3}", b"written")
        attempt(hostfs.write_file, tree, "dir/secret", b"decoy\n")
        attempt(hostfs.make_dirs, tree, "dir/made/deeper")
        attempt(hostfs.remove_tree, tree, "dir/made")
        rels = [e.rel for e in hostfs.walk(tree)]
        assert not any(r.endswith("hostonly") for r in rels)  # the host folder is never entered
        dst = tmp_path / f"copy{i % 2}"
        if dst.exists():
            hostfs.remove_tree(tmp_path, dst.name)
        hostfs.copy_tree(tree, dst, links="copy")
        assert SENTINEL not in b"".join(_files_under(dst).values())
        if ROOT:
            hostfs.chown_tree(tree, 4242, 4242)
        hostfs.make_inert(tree, owner=(4242, 4242) if ROOT else None)
        assert _host_state(host) == before
    hostfs.clear_dir(tree, keep={"dir", "dir.alt", "file", "file.alt"})
    assert _host_state(host) == before
    assert outcomes["ok"] > 0


def test_ensure_dir_replaces_a_link_without_following_it(tmp_path: Path, host: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "data").symlink_to(host)
    hostfs.ensure_dir(ws, "data")
    assert (ws / "data").is_dir() and not (ws / "data").is_symlink()
    assert sorted(os.listdir(host)) == ["hostonly", "secret"]
    (ws / "data" / "kept").write_text("x")
    hostfs.ensure_dir(ws, "data")  # an existing folder is kept as it is
    assert (ws / "data" / "kept").exists()


@pytest.mark.slow
def test_grading_tree_and_rerun_copy_under_a_race(raced: tuple[Path, Path], tmp_path: Path) -> None:
    import shutil

    from mle_gym.families.mlagentbench.family import copy_workspace
    from mle_gym.families.mlbench.workspace import build_grading_tree

    tree, host = raced
    before = _host_state(host)
    repo = tmp_path / "repo"
    (repo / "task").mkdir(parents=True)
    (repo / "task" / "train.py").write_text("print('real')\n")
    for i in _until(2.0):
        graded, work = tmp_path / f"graded{i}", tmp_path / f"work{i}"
        build_grading_tree(repo, tree, graded)
        copy_workspace(tree, work)
        for out in (graded, work):
            assert SENTINEL not in b"".join(_files_under(out).values())
            assert not any(r.endswith("hostonly") for r in _files_under(out))
        assert not any(p.is_symlink() for p in work.rglob("*"))  # the rerun takes no links
        shutil.rmtree(graded)
        shutil.rmtree(work)
    assert _host_state(host) == before
