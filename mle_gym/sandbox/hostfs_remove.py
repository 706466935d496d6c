"""Removing, for :mod:`mle_gym.sandbox.hostfs` (its security contract is stated
there): entries are unlinked or emptied through directory fds, a link on the way is
removed itself, never followed; folders are made real folders the same way."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Collection, Iterator
from pathlib import Path

from mle_gym.sandbox.hostfs_core import (
    _DIR,
    _NOT_A_DIR,
    MAX_DEPTH,
    HostFSError,
    Root,
    _opened,
    open_dir,
    split,
)
from mle_gym.sandbox.hostfs_files import _temp_name


def ensure_dir(root: Root, name: str, *, mode: int = 0o755) -> None:
    """Make the entry ``name`` of the folder ``root`` a real folder: a link, file or
    anything else there is removed first (never followed); an existing folder is kept."""
    if "/" in name or name in ("", ".", ".."):
        raise HostFSError(name, "not a single name")
    with _opened(root) as fd:
        for _ in range(5):
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, mode, dir_fd=fd)
                continue
            if stat.S_ISDIR(st.st_mode):
                return
            _remove_at(fd, name)
    raise HostFSError(name, "kept changing while being made a folder")


# -- removing -----------------------------------------------------------------------------


def remove_tree(root: Root, rel: str) -> None:
    """Delete ``root/rel`` whatever it is, never following a link: a link (also one on
    the way to ``rel``) is removed itself, a folder with all it holds; absent is fine."""
    parts = split(rel)
    if not parts:
        raise HostFSError(rel, "refusing to remove the root itself (use clear_dir)")
    with _opened(root) as rfd:
        fd = os.dup(rfd)
        try:
            for part in parts[:-1]:
                try:
                    nfd = os.open(part, _DIR, dir_fd=fd)
                except FileNotFoundError:
                    return
                except OSError as exc:
                    if exc.errno not in _NOT_A_DIR:
                        raise
                    with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                        st = os.stat(part, dir_fd=fd, follow_symlinks=False)
                        if stat.S_ISLNK(st.st_mode):
                            os.unlink(part, dir_fd=fd)
                    return
                os.close(fd)
                fd = nfd
            _remove_at(fd, parts[-1])
        finally:
            os.close(fd)


def clear_dir(root: Root, rel: str = "", *, keep: Collection[str] = ()) -> None:
    """Remove everything in the folder ``root/rel`` but the names in ``keep``."""
    fd = open_dir(root, rel)
    try:
        for name in os.listdir(fd):
            if name not in keep:
                _remove_at(fd, name)
    finally:
        os.close(fd)


def _remove_at(dfd: int, name: str) -> None:
    """Remove the entry ``name`` of ``dfd``; a folder is emptied through fds first."""
    for _ in range(5):
        try:
            os.unlink(name, dir_fd=dfd)
            return
        except FileNotFoundError:
            return
        except IsADirectoryError:
            pass
        try:
            cfd = os.open(name, _DIR, dir_fd=dfd)
        except FileNotFoundError:
            return
        except OSError as exc:
            if exc.errno in _NOT_A_DIR:
                continue  # swapped for a link or a file: unlink it on the next round
            raise
        try:
            _empty(cfd)
        finally:
            os.close(cfd)
        try:
            os.rmdir(name, dir_fd=dfd)
            return
        except FileNotFoundError:
            return
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR):
                raise
    raise HostFSError(name, "kept changing while being removed")


def _empty(top: int) -> None:
    """Remove the content of the folder ``top`` iteratively (one fd per level, at most
    MAX_DEPTH levels: deeper folders are first moved up into ``top``)."""
    pending = list(os.listdir(top))
    while pending:
        stack: list[tuple[int, str, Iterator[str]]] = [(top, "", iter(pending))]
        pending = []
        try:
            while stack:
                fd, _, it = stack[-1]
                name = next(it, None)
                if name is None:
                    done_fd, done_name, _ = stack.pop()
                    if stack:
                        os.close(done_fd)
                        try:
                            os.rmdir(done_name, dir_fd=stack[-1][0])
                        except OSError as exc:  # gone, or refilled meanwhile: retried
                            if exc.errno not in (errno.ENOENT, errno.ENOTEMPTY, errno.EEXIST):
                                raise
                    continue
                try:
                    os.unlink(name, dir_fd=fd)
                    continue
                except FileNotFoundError:
                    continue
                except IsADirectoryError:
                    pass
                if len(stack) >= MAX_DEPTH:
                    moved = _temp_name("deep")
                    os.rename(name, moved, src_dir_fd=fd, dst_dir_fd=top)
                    pending.append(moved)
                    continue
                try:
                    cfd = os.open(name, _DIR, dir_fd=fd)
                except OSError as exc:
                    if exc.errno in (*_NOT_A_DIR, errno.ENOENT):
                        with contextlib.suppress(OSError):
                            os.unlink(name, dir_fd=fd)
                        continue
                    raise
                stack.append((cfd, name, iter(os.listdir(cfd))))
        finally:
            for fd, _, _ in stack[1:]:
                os.close(fd)


@contextlib.contextmanager
def temporary_dir(
    prefix: str = "mle_gym-", dir: str | os.PathLike[str] | None = None
) -> Iterator[Path]:
    """Like ``tempfile.TemporaryDirectory`` for folders a sandbox writes: removed with
    :func:`remove_tree` (no link followed, any depth — ``shutil.rmtree`` raises
    RecursionError on a tree nested a few thousand levels deep)."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=None if dir is None else os.fspath(dir)))
    try:
        yield path
    finally:
        remove_tree(path.parent, path.name)
