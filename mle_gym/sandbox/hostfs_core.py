"""Roots, relative paths and walking for :mod:`mle_gym.sandbox.hostfs` (its security
contract is stated there): errors, limits, directory fds opened no-follow component by
component, and the bounded walk every tree operation is built on."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

Root = str | os.PathLike[str] | int

MAX_DEPTH = 128
MAX_ENTRIES = 200_000
PERMISSIONS = 0o777
_CHUNK = 1 << 20
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_NOT_A_DIR = (errno.ELOOP, errno.ENOTDIR)


class HostFSError(OSError):
    """A host file operation refused or failed; ``path`` is relative to the root."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class HostFSLimitError(HostFSError):
    """A size, count or depth limit was reached."""


# -- roots and relative paths -------------------------------------------------------------


@contextlib.contextmanager
def _opened(root: Root) -> Iterator[int]:
    """A directory fd for ``root``: a given fd is borrowed; a path is the caller's trusted
    host folder (a link in it is the host's own, e.g. a workspaces root that is a link)."""
    if isinstance(root, int):
        yield root
        return
    try:
        fd = os.open(root, _DIR & ~os.O_NOFOLLOW)
    except OSError as exc:
        if exc.errno in _NOT_A_DIR:
            raise HostFSError(str(root), "is a symbolic link or not a directory") from None
        raise HostFSError(str(root), exc.strerror or str(exc)) from None
    try:
        yield fd
    finally:
        os.close(fd)


def split(rel: str | os.PathLike[str]) -> list[str]:
    """The components of a path relative to a root; ``""``/``"."`` is the root itself.

    Absolute paths, ``..`` and NUL bytes are refused (HostFSError).
    """
    text = os.fspath(rel)
    if "\x00" in text or text.startswith("/"):
        raise HostFSError(text, "not a relative path inside the root")
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise HostFSError(text, "'..' is not allowed")
    return parts


def _join(rel: str, name: str) -> str:
    return f"{rel}/{name}" if rel else name


def open_dir(
    root: Root,
    rel: str | os.PathLike[str] = "",
    *,
    create: bool = False,
    mode: int = 0o755,
    owner: tuple[int, int] | None = None,
) -> int:
    """A new fd of the folder ``root/rel`` (the caller closes it), every component opened
    no-follow; with ``create``, missing folders are made (``mode``, ``owner``).

    A link or a file where a folder is expected is a HostFSError.
    """
    parts = split(rel)
    with _opened(root) as rfd:
        fd = os.dup(rfd)
    done = ""
    try:
        for part in parts:
            done = _join(done, part)
            nfd = _open_child_dir(fd, part, done, create=create, mode=mode, owner=owner)
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_child_dir(
    fd: int, name: str, path: str, *, create: bool, mode: int, owner: tuple[int, int] | None
) -> int:
    for _ in range(3):
        try:
            return os.open(name, _DIR, dir_fd=fd)
        except FileNotFoundError:
            if not create:
                raise HostFSError(path, "no such directory") from None
        except OSError as exc:
            if exc.errno in _NOT_A_DIR:
                raise HostFSError(path, "is a symbolic link or not a directory") from None
            raise HostFSError(path, exc.strerror or str(exc)) from None
        try:
            os.mkdir(name, mode, dir_fd=fd)
        except FileExistsError:
            continue  # made by someone else meanwhile: open it (no-follow) again
        nfd = os.open(name, _DIR, dir_fd=fd)
        if owner is not None:
            os.fchown(nfd, *owner)
        return nfd
    raise HostFSError(path, "changed while being created")


def make_dirs(
    root: Root, rel: str, *, mode: int = 0o755, owner: tuple[int, int] | None = None
) -> None:
    """Create the folder ``root/rel`` and its missing parents (no link followed)."""
    os.close(open_dir(root, rel, create=True, mode=mode, owner=owner))


# -- walking ------------------------------------------------------------------------------


@dataclass
class Entry:
    """One entry of :func:`walk`.

    ``st`` is its ``lstat`` when listed (it may have changed since: re-check on the fd
    you open). ``dir_fd`` is the fd of its folder, valid until the walk advances; open
    the entry as ``name`` relative to it. Set ``descend = False`` on a folder entry to
    skip its contents.
    """

    rel: str
    name: str
    st: os.stat_result
    dir_fd: int
    depth: int
    descend: bool = True

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.st.st_mode)

    @property
    def is_file(self) -> bool:
        return stat.S_ISREG(self.st.st_mode)

    @property
    def is_link(self) -> bool:
        return stat.S_ISLNK(self.st.st_mode)


def walk(
    root: Root,
    *,
    exclude_top: Collection[str] = (),
    max_entries: int | None = MAX_ENTRIES,
    max_depth: int = MAX_DEPTH,
    on_skip: Callable[[str, str], None] | None = None,
) -> Iterator[Entry]:
    """Every entry under ``root`` (pre-order, names sorted), links never followed.

    A folder is entered by opening it no-follow relative to its parent, so a folder
    swapped for a link is not entered (reported to ``on_skip(rel, reason)``, as are
    folders deeper than ``max_depth`` and unreadable ones). More than ``max_entries``
    entries raise HostFSLimitError. Top-level names in ``exclude_top`` are left out.
    """
    count = 0
    with _opened(root) as rfd:
        first = os.dup(rfd)
        stack: list[tuple[int, str, Iterator[str]]] = []
        try:
            names = _list(first, "", max_entries)
            stack.append((first, "", iter(names)))
            count += len(names)
            while stack:
                dfd, rel, it = stack[-1]
                name = next(it, None)
                if name is None:
                    stack.pop()
                    os.close(dfd)
                    continue
                depth = len(stack) - 1
                if depth == 0 and name in exclude_top:
                    continue
                path = _join(rel, name)
                try:
                    st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                except FileNotFoundError:
                    continue
                entry = Entry(path, name, st, dfd, depth)
                yield entry
                if not (entry.is_dir and entry.descend):
                    continue
                if depth + 1 >= max_depth:
                    _skip(on_skip, path, f"nested deeper than {max_depth} folders")
                    continue
                try:
                    cfd = os.open(name, _DIR, dir_fd=dfd)
                except OSError as exc:
                    reason = "changed into a link or file" if exc.errno in _NOT_A_DIR else ""
                    _skip(on_skip, path, reason or f"unreadable folder ({exc.strerror})")
                    continue
                try:
                    left = None if max_entries is None else max_entries - count
                    children = _list(cfd, path, left)
                except BaseException:
                    os.close(cfd)
                    raise
                count += len(children)
                stack.append((cfd, path, iter(children)))
        finally:
            for dfd, _, _ in stack:
                os.close(dfd)


def _list(fd: int, rel: str, limit: int | None) -> list[str]:
    names = sorted(os.listdir(fd))
    if limit is not None and len(names) > limit:
        raise HostFSLimitError(rel or ".", "more entries than the walk's limit allows")
    return names


def _skip(on_skip: Callable[[str, str], None] | None, path: str, reason: str) -> None:
    if on_skip is not None:
        on_skip(path, reason)
