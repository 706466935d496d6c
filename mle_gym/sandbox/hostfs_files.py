"""Single files for :mod:`mle_gym.sandbox.hostfs` (its security contract is stated
there): open, read, write and copy one regular file through directory fds, no link
followed, contents without privileges."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable

from mle_gym.sandbox.hostfs_core import (
    _CHUNK,
    _CREATE,
    _READ,
    PERMISSIONS,
    HostFSError,
    HostFSLimitError,
    Root,
    open_dir,
    split,
)

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
