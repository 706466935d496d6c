"""Copying trees and taking privileges out of them, for :mod:`mle_gym.sandbox.hostfs`
(its security contract is stated there): :func:`copy_tree` copies contents, not
privileges; :func:`chown_tree` and :func:`make_inert` change a tree in place."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Literal

from mle_gym.sandbox.hostfs_core import (
    _DIR,
    _READ,
    MAX_DEPTH,
    MAX_ENTRIES,
    PERMISSIONS,
    Entry,
    HostFSError,
    HostFSLimitError,
    Root,
    _opened,
    open_dir,
    walk,
)
from mle_gym.sandbox.hostfs_files import copy_file_at
from mle_gym.sandbox.hostfs_remove import _remove_at

# -- copying trees ------------------------------------------------------------------------


@dataclass
class CopyReport:
    """What :func:`copy_tree` copied (relative paths) and skipped (path, reason)."""

    files: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    dirs: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    bytes: int = 0


def copy_tree(
    src: Root,
    dst: Root,
    *,
    links: Literal["copy", "skip"] = "skip",
    exclude_top: Collection[str] = (),
    skip_dirs: Collection[str] = (),
    accept: Callable[[Entry], bool] | None = None,
    merge: bool = False,
    owner: tuple[int, int] | None = None,
    max_entries: int | None = MAX_ENTRIES,
    max_depth: int = MAX_DEPTH,
    max_bytes: int | None = None,
    max_file_bytes: int | None = None,
    on_limit: Literal["raise", "skip"] = "raise",
) -> CopyReport:
    """Copy the folders, regular files and (``links="copy"``) links of ``src`` into ``dst``.

    ``dst`` (an fd, or a path made if missing whose *parent* must be a trusted host
    folder; a link there is refused) is written only through fds, so a link in it is
    never followed either. Folders named in ``skip_dirs`` (any level)
    and top-level names in ``exclude_top`` are left out; ``accept(entry)`` returning
    False leaves an entry out (for a folder: its whole content). With ``merge``, a
    folder that exists in ``dst`` is filled and an existing file or link is kept
    (skipped); otherwise it is a skip too. FIFOs, sockets and devices are skipped.
    Permission bits are ``& 0o777``; ``owner`` owns what is created.

    Limits (``max_entries``, ``max_depth``, ``max_bytes`` in total, ``max_file_bytes``
    per file): with ``on_limit="raise"`` a HostFSLimitError, with ``"skip"`` the
    entry (or, for ``max_entries``, the rest) is listed in ``skipped``.
    """
    report = CopyReport()

    def skip(path: str, reason: str) -> None:
        report.skipped.append((path, reason))

    if isinstance(dst, int):
        first = os.dup(dst)
    else:  # the parent is trusted; the folder itself is made or opened no-follow
        path = os.fspath(dst)
        first = open_dir(os.path.dirname(path) or ".", os.path.basename(path), create=True)
        if owner is not None:
            os.fchown(first, *owner)
    targets: list[int] = [first]
    try:
        with _opened(src) as sfd:
            entries = walk(
                sfd,
                exclude_top=exclude_top,
                max_entries=max_entries,
                max_depth=max_depth,
                on_skip=skip,
            )
            try:
                for entry in entries:
                    while len(targets) > entry.depth + 1:
                        os.close(targets.pop())
                    if len(targets) < entry.depth + 1:  # its folder was not copied
                        entry.descend = False
                        continue
                    parent = targets[-1]
                    if entry.is_dir and entry.name in skip_dirs:
                        entry.descend = False
                        continue
                    if accept is not None and not accept(entry):
                        entry.descend = False
                        continue
                    limits = (max_bytes, max_file_bytes, on_limit)
                    _copy_entry(entry, parent, targets, report, links, merge, owner, limits, skip)
            except HostFSLimitError as exc:
                if on_limit == "raise":
                    raise
                skip(exc.path, f"{exc.message}: the rest is not copied")
    finally:
        for fd in targets:
            os.close(fd)
    return report


def _copy_entry(
    entry: Entry,
    parent: int,
    targets: list[int],
    report: CopyReport,
    links: Literal["copy", "skip"],
    merge: bool,
    owner: tuple[int, int] | None,
    limits: tuple[int | None, int | None, str],
    skip: Callable[[str, str], None],
) -> None:
    """Copy one walked entry into the folder fd ``parent`` (a copied folder's fd is pushed
    on ``targets``, or its content skipped with ``entry.descend = False``)."""
    if entry.is_dir:
        fd = _copy_dir(entry, parent, merge, owner, skip)
        if fd is None:
            entry.descend = False
        else:
            targets.append(fd)
            report.dirs.append(entry.rel)
    elif entry.is_file:
        _copy_file_entry(entry, parent, report, merge, owner, limits, skip)
    elif entry.is_link:
        if links == "skip":
            skip(entry.rel, "symbolic link (not followed)")
        elif _copy_link(entry, parent, owner, skip):
            report.links.append(entry.rel)
    else:
        skip(entry.rel, "not a regular file (FIFO, socket or device)")


def _copy_dir(
    entry: Entry,
    parent: int,
    merge: bool,
    owner: tuple[int, int] | None,
    skip: Callable[[str, str], None],
) -> int | None:
    mode = (entry.st.st_mode & PERMISSIONS) | 0o700
    try:
        os.mkdir(entry.name, 0o700, dir_fd=parent)
    except FileExistsError:
        if not merge:
            skip(entry.rel, "exists in the destination")
            return None
        try:
            return os.open(entry.name, _DIR, dir_fd=parent)
        except OSError:
            skip(entry.rel, "a link or a file is in the way in the destination")
            return None
    fd = os.open(entry.name, _DIR, dir_fd=parent)
    if owner is not None:
        os.fchown(fd, *owner)
    os.fchmod(fd, mode)
    return fd


def _copy_file_entry(
    entry: Entry,
    parent: int,
    report: CopyReport,
    merge: bool,
    owner: tuple[int, int] | None,
    limits: tuple[int | None, int | None, str],
    skip: Callable[[str, str], None],
) -> None:
    max_bytes, max_file_bytes, on_limit = limits
    room = None if max_bytes is None else max_bytes - report.bytes
    caps = [c for c in (room, max_file_bytes) if c is not None]
    cap = min(caps) if caps else None
    total_bound = room is not None and (max_file_bytes is None or room < max_file_bytes)
    try:
        size = copy_file_at(
            entry.dir_fd, entry.name, parent, max_bytes=cap, owner=owner, path=entry.rel
        )
    except FileExistsError:
        skip(entry.rel, "exists in the destination")
        return
    except HostFSLimitError as exc:
        reason = f"the {max_bytes}-byte total is reached" if total_bound else exc.message
        if on_limit == "raise":
            raise HostFSLimitError(entry.rel, reason) from None
        skip(entry.rel, reason)
        return
    except HostFSError as exc:  # changed into something else since it was listed
        skip(entry.rel, exc.message)
        return
    report.files.append(entry.rel)
    report.bytes += size


def _copy_link(
    entry: Entry, parent: int, owner: tuple[int, int] | None, skip: Callable[[str, str], None]
) -> bool:
    try:
        target = os.readlink(entry.name, dir_fd=entry.dir_fd)
    except OSError:
        skip(entry.rel, "changed while being read")
        return False
    try:
        os.symlink(target, entry.name, dir_fd=parent)
    except FileExistsError:
        skip(entry.rel, "exists in the destination")
        return False
    if owner is not None:
        os.chown(entry.name, *owner, dir_fd=parent, follow_symlinks=False)
    return True


# -- ownership and privileges -------------------------------------------------------------


def chown_tree(
    root: Root,
    uid: int,
    gid: int,
    *,
    exclude_top: Collection[str] = (),
    include_root: bool = True,
) -> None:
    """``lchown`` everything under ``root`` (and the root itself) to ``uid:gid``; links
    are changed themselves, never their targets. Folders nested deeper than MAX_DEPTH
    keep their owner."""
    with _opened(root) as rfd:
        if include_root:
            os.fchown(rfd, uid, gid)
        for entry in walk(rfd, exclude_top=exclude_top, max_entries=None):
            with contextlib.suppress(FileNotFoundError):
                os.chown(entry.name, uid, gid, dir_fd=entry.dir_fd, follow_symlinks=False)


@dataclass
class InertReport:
    """What :func:`make_inert` changed (relative paths)."""

    removed: list[str] = field(default_factory=list)
    stripped: list[str] = field(default_factory=list)
    unlinked_copies: list[str] = field(default_factory=list)


_SPECIAL_BITS = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX


def make_inert(root: Root, *, owner: tuple[int, int] | None = None) -> InertReport:
    """Make the tree ``root`` hold contents only, no privileges (in place).

    Setuid, setgid and sticky bits are cleared (files and folders); FIFOs, sockets and
    device nodes are removed; with ``owner``, everything (links too) is owned by it —
    so no file stays owned by root or any uid the agent chose; a file with more than
    one hard link is replaced by a private copy first (its other names may be outside
    the tree). Folders nested deeper than MAX_DEPTH are removed. Run it when no agent
    process is left (a process could otherwise add privileges back after the walk).
    """
    report = InertReport()
    with _opened(root) as rfd:
        _inert_fd(rfd, ".", owner, report)
        for entry in walk(rfd, max_entries=None):
            if entry.is_dir and entry.depth + 2 >= MAX_DEPTH:
                entry.descend = False
                _remove_at(entry.dir_fd, entry.name)
                report.removed.append(entry.rel)
                continue
            if entry.is_link:
                if owner is not None:
                    with contextlib.suppress(FileNotFoundError):
                        os.chown(entry.name, *owner, dir_fd=entry.dir_fd, follow_symlinks=False)
                continue
            if not (entry.is_dir or entry.is_file):
                with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                    os.unlink(entry.name, dir_fd=entry.dir_fd)
                    report.removed.append(entry.rel)
                continue
            try:
                fd = os.open(entry.name, _DIR if entry.is_dir else _READ, dir_fd=entry.dir_fd)
            except OSError:
                continue  # changed since it was listed: not what was listed any more
            try:
                st = os.fstat(fd)
                if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                    os.close(fd)
                    fd = -1
                    copy_file_at(entry.dir_fd, entry.name, entry.dir_fd, replace=True)
                    report.unlinked_copies.append(entry.rel)
                    fd = os.open(entry.name, _READ, dir_fd=entry.dir_fd)
                    st = os.fstat(fd)
                if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                    continue
                _inert_fd(fd, entry.rel, owner, report)
            finally:
                if fd != -1:
                    os.close(fd)
    return report


def _inert_fd(fd: int, rel: str, owner: tuple[int, int] | None, report: InertReport) -> None:
    st = os.fstat(fd)
    if owner is not None and (st.st_uid, st.st_gid) != owner:
        os.fchown(fd, *owner)  # (clears setuid/setgid on files too)
    if st.st_mode & _SPECIAL_BITS:
        os.fchmod(fd, st.st_mode & PERMISSIONS)
        report.stripped.append(rel)
