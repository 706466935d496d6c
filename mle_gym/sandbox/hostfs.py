"""Host-side file operations on trees an agent controls, never following its links.

Host code runs as root and must never be steered outside a workspace (or any folder an
agent process wrote) by a symbolic link, even one swapped in concurrently by a thread
the agent left running — checking a path and then opening it is a race the agent can
win thousands of times a second. Every function here therefore:

* opens the *root* given by the caller (a trusted host path — one the agent cannot
  change, e.g. the workspace folder itself — or a directory fd), then every component
  below it relative to its parent's directory fd with ``O_NOFOLLOW`` (``O_DIRECTORY``
  for folders): no path string under the root is ever resolved by the kernel from
  ``/``;
* checks the type of what it opened with ``fstat`` on the descriptor (not an earlier
  ``lstat``), so a file swapped for a FIFO or a device is refused, never blocked on;
* creates files with ``O_CREAT | O_EXCL | O_NOFOLLOW`` (or in a temporary name then
  ``rename`` between descriptors), folders with ``mkdirat``, and removes with
  ``unlinkat``/``rmdirat``: a link on the way is removed, never its target;
* copies contents, not privileges: regular files, folders and (optionally) links only,
  permission bits ``& 0o777`` (no setuid, setgid or sticky bit), owned by the caller's
  choice; FIFOs, sockets and devices are never opened nor copied;
* is bounded: a walk refuses more than ``max_entries`` entries and does not descend
  more than ``max_depth`` folders (each level holds one descriptor), a copy stops at
  ``max_bytes`` — with a :class:`HostFSLimitError` naming the limit.

Stopping the agent's processes while the host works (``Sandbox.frozen()``) is the other
half of the defence; these functions hold even when nothing is stopped.

A link is a *content* of the tree: ``copy_tree(links="copy")`` recreates it (its target
text unchanged, so it only ever resolves where it is later used), ``links="skip"`` lists
it as skipped. Which one a caller uses is documented at its call site.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import tempfile
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

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


# -- files --------------------------------------------------------------------------------


def open_file_at(dir_fd: int, name: str, path: str | None = None) -> int:
    """A read-only fd of the regular file ``name`` in ``dir_fd`` (no-follow, non-blocking,
    type checked on the fd); HostFSError for anything else."""
    shown = path or name
    try:
        fd = os.open(name, _READ, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise HostFSError(shown, "is a symbolic link (not followed)") from None
        raise HostFSError(shown, exc.strerror or str(exc)) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise HostFSError(shown, "not a regular file")
    return fd


def open_file(root: Root, rel: str) -> int:
    """A read-only fd of the regular file ``root/rel`` (see :func:`open_file_at`)."""
    parts = split(rel)
    if not parts:
        raise HostFSError(rel, "is the root folder, not a file")
    dfd = open_dir(root, "/".join(parts[:-1]))
    try:
        return open_file_at(dfd, parts[-1], rel)
    finally:
        os.close(dfd)


def read_file(root: Root, rel: str, max_bytes: int) -> bytes:
    """The content of the regular file ``root/rel``; HostFSLimitError past ``max_bytes``."""
    fd = open_file(root, rel)
    try:
        data = _read_fd(fd, max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise HostFSLimitError(rel, f"larger than {max_bytes} bytes")
    return data


def _read_fd(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _temp_name(name: str) -> str:
    return f".{name[:64]}.hostfs-{secrets.token_hex(6)}"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_file(
    root: Root,
    rel: str,
    data: bytes,
    *,
    mode: int = 0o644,
    owner: tuple[int, int] | None = None,
    make_parents: bool = False,
) -> None:
    """Create or replace ``root/rel`` with ``data`` (a new regular file, ``mode & 0o777``).

    Written to a temporary name in the same folder fd, then renamed over the name
    (fd to fd): a link there is replaced, never followed; the parent folders must be
    real folders under ``root`` (made if ``make_parents``). A folder in the way is a
    HostFSError.
    """
    parts = split(rel)
    if not parts:
        raise HostFSError(rel, "is the root folder, not a file")
    dfd = open_dir(root, "/".join(parts[:-1]), create=make_parents, owner=owner)
    try:
        _replace_at(dfd, parts[-1], rel, lambda fd: _write_all(fd, data), mode, owner)
    finally:
        os.close(dfd)


def _replace_at(
    dfd: int,
    name: str,
    path: str,
    fill: Callable[[int], None],
    mode: int,
    owner: tuple[int, int] | None,
) -> None:
    tmp = _temp_name(name)
    fd = os.open(tmp, _CREATE, 0o600, dir_fd=dfd)
    try:
        try:
            fill(fd)
            if owner is not None:
                os.fchown(fd, *owner)
            os.fchmod(fd, mode & PERMISSIONS)
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dfd)
        if isinstance(exc, IsADirectoryError | OSError) and not isinstance(exc, HostFSError):
            raise HostFSError(path, exc.strerror or str(exc)) from None
        raise


def copy_file_at(
    src_dir_fd: int,
    name: str,
    dst_dir_fd: int,
    dst_name: str | None = None,
    *,
    max_bytes: int | None = None,
    owner: tuple[int, int] | None = None,
    replace: bool = False,
    path: str | None = None,
) -> int:
    """Copy the regular file ``name`` of ``src_dir_fd`` into ``dst_dir_fd``; return its size.

    The copy is a new file with the source's permission bits ``& 0o777`` (no setuid,
    setgid or sticky bit) and ``owner`` (else the caller's). Without ``replace`` an
    existing destination is a FileExistsError; with it, the copy is renamed over it.
    More than ``max_bytes`` is a HostFSLimitError (nothing is left behind).
    """
    shown = path or name
    target = dst_name or name
    sfd = open_file_at(src_dir_fd, name, shown)
    try:
        st = os.fstat(sfd)
        if max_bytes is not None and st.st_size > max_bytes:
            raise HostFSLimitError(shown, f"{st.st_size} bytes is over the {max_bytes}-byte cap")
        copied = 0

        def fill(dfd: int) -> None:
            nonlocal copied
            while True:
                chunk = os.read(sfd, _CHUNK)
                if not chunk:
                    return
                copied += len(chunk)
                if max_bytes is not None and copied > max_bytes:
                    raise HostFSLimitError(shown, f"grew past the {max_bytes}-byte cap")
                _write_all(dfd, chunk)

        mode = st.st_mode & PERMISSIONS
        if replace:
            _replace_at(dst_dir_fd, target, shown, fill, mode, owner)
            return copied
        dfd = os.open(target, _CREATE, 0o600, dir_fd=dst_dir_fd)
        try:
            fill(dfd)
            if owner is not None:
                os.fchown(dfd, *owner)
            os.fchmod(dfd, mode)
        except BaseException:
            os.close(dfd)
            with contextlib.suppress(OSError):
                os.unlink(target, dir_fd=dst_dir_fd)
            raise
        os.close(dfd)
        return copied
    finally:
        os.close(sfd)


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
                    if entry.is_dir:
                        fd = _copy_dir(entry, parent, merge, owner, skip)
                        if fd is None:
                            entry.descend = False
                        else:
                            targets.append(fd)
                            report.dirs.append(entry.rel)
                    elif entry.is_file:
                        limits = (max_bytes, max_file_bytes, on_limit)
                        _copy_file_entry(entry, parent, report, merge, owner, limits, skip)
                    elif entry.is_link:
                        if links == "skip":
                            skip(entry.rel, "symbolic link (not followed)")
                        elif _copy_link(entry, parent, owner, skip):
                            report.links.append(entry.rel)
                    else:
                        skip(entry.rel, "not a regular file (FIFO, socket or device)")
            except HostFSLimitError as exc:
                if on_limit == "raise":
                    raise
                skip(exc.path, f"{exc.message}: the rest is not copied")
    finally:
        for fd in targets:
            os.close(fd)
    return report


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
def temporary_dir(prefix: str = "mle_gym-", dir: Root | None = None) -> Iterator[Path]:
    """Like ``tempfile.TemporaryDirectory`` for folders a sandbox writes: removed with
    :func:`remove_tree` (no link followed, any depth — ``shutil.rmtree`` raises
    RecursionError on a tree nested a few thousand levels deep)."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=None if dir is None else os.fspath(dir)))
    try:
        yield path
    finally:
        remove_tree(path.parent, path.name)


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
