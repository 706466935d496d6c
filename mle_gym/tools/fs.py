"""Host-side access to a sandbox's files, with the sandbox's own view of paths.

The file tools (list/read/write/edit, and copying the submission out for
grading) run in the host process, not in the sandbox: that is what makes them
sub-millisecond. They must therefore interpret every path exactly as the agent
sees it and never reach anything the agent could not reach:

* paths are virtual: relative ones are taken from ``/workspace``; absolute ones
  must fall inside a mount (``/workspace``, ``/workspace/data``);
* symlinks are resolved by hand, component by component, *inside the virtual
  view*: an absolute link target is re-mapped through the mounts, never
  followed on the host, so a link to ``/root/.cache/...`` or ``/etc/passwd``
  points nowhere, exactly as inside the sandbox;
* the host is then accessed by walking from the mount's root directory with
  ``O_NOFOLLOW`` at every step, so even a link swapped in concurrently by a
  process still running in the sandbox is never followed;
* read-only mounts refuse writes; files the host creates get the sandbox uid.

Every failure is a :class:`FsError` with a message meant for the agent.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mle_gym.sandbox.base import WORKSPACE, Mount

MAX_SYMLINK_HOPS = 40
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class FsError(Exception):
    """A file operation the agent asked for cannot be done; str() says why."""


@dataclass(frozen=True)
class Resolved:
    """A virtual path resolved to a host path within one mount."""

    virtual: str
    host: Path
    mount: Mount


class SandboxFS:
    """The sandbox's file view from the host (see module docstring)."""

    def __init__(self, mounts: list[Mount], owner: tuple[int, int] | None = None) -> None:
        self.mounts = sorted(mounts, key=lambda m: len(m.target), reverse=True)
        self.owner = owner

    # -- resolution --------------------------------------------------------------------------

    def _map(self, vpath: str) -> tuple[Mount, Path] | None:
        for m in self.mounts:
            if vpath == m.target or vpath.startswith(m.target + "/"):
                rel = vpath[len(m.target) :].lstrip("/")
                return m, (m.host / rel if rel else m.host)
        return None

    def _is_mount_ancestor(self, vpath: str) -> bool:
        return any(m.target.startswith(vpath.rstrip("/") + "/") for m in self.mounts)

    def resolve(self, path: str, *, follow_last: bool = True, must_exist: bool = True) -> Resolved:
        """Resolve ``path`` as the agent sees it; raise FsError if it is not reachable."""
        _check_path_text(path)
        full = path if path.startswith("/") else f"{WORKSPACE}/{path}"
        queue: deque[str] = deque(full.split("/"))
        stack: list[str] = []
        hops = 0
        while queue:
            part = queue.popleft()
            if part in ("", "."):
                continue
            if part == "..":
                if stack:
                    stack.pop()
                continue
            vpath = "/" + "/".join([*stack, part])
            mapped = self._map(vpath)
            if mapped is None:
                if self._is_mount_ancestor(vpath):
                    stack.append(part)
                    continue
                raise FsError(f"{path}: no such file or directory in the sandbox")
            _, host = mapped
            st = _lstat(host, path, must_exist)
            if st is None:
                # Creating: the rest of the path does not exist yet; take it literally.
                stack.append(part)
                _append_literally(stack, queue)
                break
            last = not any(p not in ("", ".") for p in queue)
            if stat.S_ISLNK(st.st_mode) and (follow_last or not last):
                hops += 1
                if hops > MAX_SYMLINK_HOPS:
                    raise FsError(f"{path}: too many levels of symbolic links")
                target = _read_link(host, path)
                if target.startswith("/"):
                    stack = []
                queue.extendleft(reversed(target.split("/")))
                continue
            if not last and not stat.S_ISDIR(st.st_mode):
                raise FsError(f"{path}: not a directory")
            stack.append(part)
        vpath = "/" + "/".join(stack)
        mapped = self._map(vpath)
        if mapped is None:
            raise FsError(f"{path}: not a file or directory the agent can use")
        mount, host = mapped
        return Resolved(virtual=vpath, host=host, mount=mount)

    # -- operations --------------------------------------------------------------------------
    #
    # Every host access walks from the mount's root with O_NOFOLLOW at each step, so no
    # symlink is ever followed on the host, even one swapped in by a concurrent process.

    def _open_dir(self, res: Resolved, *, create: bool = False) -> int:
        """A descriptor of the directory ``res``; with ``create``, missing ones are made."""
        rel = res.host.relative_to(res.mount.host).parts
        fd = os.open(res.mount.host, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            for part in rel:
                try:
                    nfd = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        raise FsError(f"{res.virtual}: no such file or directory") from None
                    if not res.mount.writable:
                        raise FsError(f"{res.virtual}: read-only file system") from None
                    os.mkdir(part, 0o755, dir_fd=fd)
                    if self.owner is not None:
                        os.chown(part, *self.owner, dir_fd=fd, follow_symlinks=False)
                    nfd = os.open(part, _DIR_FLAGS, dir_fd=fd)
                except OSError as exc:
                    if exc.errno in (errno.ENOTDIR, errno.ELOOP):
                        raise FsError(f"{res.virtual}: not a directory") from None
                    raise FsError(f"{res.virtual}: {exc.strerror}") from None
                os.close(fd)
                fd = nfd
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _parent(self, res: Resolved) -> Resolved:
        return Resolved(posixpath.dirname(res.virtual), res.host.parent, res.mount)

    def read_bytes(self, path: str, max_bytes: int) -> tuple[bytes, int]:
        """Return (first max_bytes bytes, total size) of a regular file."""
        res = self.resolve(path)
        if res.host == res.mount.host:
            raise FsError(f"{path}: is a directory (use list_files)")
        dfd = self._open_dir(self._parent(res))
        try:
            fd = os.open(res.host.name, _FILE_FLAGS | os.O_RDONLY, dir_fd=dfd)
        except IsADirectoryError:
            raise FsError(f"{path}: is a directory (use list_files)") from None
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise FsError(f"{path}: changed while being read") from None
            raise FsError(f"{path}: {exc.strerror}") from None
        finally:
            os.close(dfd)
        try:
            st = os.fstat(fd)
            if stat.S_ISDIR(st.st_mode):
                raise FsError(f"{path}: is a directory (use list_files)")
            if not stat.S_ISREG(st.st_mode):
                raise FsError(f"{path}: not a regular file")
            chunks = []
            remaining = max_bytes
            while remaining > 0:
                chunk = os.read(fd, min(remaining, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
            return b"".join(chunks), st.st_size
        finally:
            os.close(fd)

    def write_bytes(self, path: str, data: bytes) -> Resolved:
        """Create or replace a file (parents created), atomically; owned by the sandbox uid."""
        res = self.resolve(path, must_exist=False)
        if not res.mount.writable:
            raise FsError(f"{path}: read-only file system (task data cannot be modified)")
        if res.host == res.mount.host:
            raise FsError(f"{path}: is a directory")
        dfd = self._open_dir(self._parent(res), create=True)
        try:
            name = res.host.name
            try:
                existing = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                if stat.S_ISDIR(existing.st_mode):
                    raise FsError(f"{path}: is a directory")
            except FileNotFoundError:
                pass
            tmp = f".{name[:100]}.mle_gym-tmp-{os.getpid()}-{threading.get_ident()}"
            try:
                fd = os.open(
                    tmp, _FILE_FLAGS | os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644, dir_fd=dfd
                )
            except OSError as exc:
                if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                    raise FsError(
                        f"{path}: no space left on device (the workspace quota is full)"
                    ) from None
                raise FsError(f"{path}: {exc.strerror}") from None
            try:
                view = memoryview(data)
                while view:
                    n = os.write(fd, view)
                    view = view[n:]
                if self.owner is not None:
                    os.fchown(fd, *self.owner)
            except OSError as exc:
                os.close(fd)
                os.unlink(tmp, dir_fd=dfd)
                if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                    raise FsError(
                        f"{path}: no space left on device (the workspace quota is full)"
                    ) from None
                raise FsError(f"{path}: {exc.strerror}") from None
            os.close(fd)
            try:
                os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
            except OSError as exc:  # e.g. a directory appeared there since the check
                os.unlink(tmp, dir_fd=dfd)
                raise FsError(f"{path}: {exc.strerror}") from None
        finally:
            os.close(dfd)
        return res

    def list_dir(self, path: str, depth: int, max_entries: int) -> tuple[list[str], bool]:
        """Lines ``relative/path  size`` (dirs end in '/'), breadth-first; (lines, truncated)."""
        res = self.resolve(path)
        try:
            root_fd = self._open_dir(res)
        except FsError:
            raise FsError(f"{path}: not a directory") from None
        lines: list[str] = []
        queue: deque[tuple[str, str, int, int]] = deque([(res.virtual, "", 1, root_fd)])
        try:
            while queue:
                vdir, rel, level, dfd = queue.popleft()
                try:
                    names = sorted(os.listdir(dfd))
                except OSError as exc:
                    lines.append(f"{rel or '.'}: cannot list ({exc.strerror})")
                    os.close(dfd)
                    continue
                for name in names:
                    if ".mle_gym-tmp-" in name:
                        continue
                    if len(lines) >= max_entries:
                        os.close(dfd)
                        return lines, True
                    vchild = f"{vdir.rstrip('/')}/{name}"
                    rchild = f"{rel}{name}"
                    child_mount = next((m for m in self.mounts if m.target == vchild), None)
                    st = _stat_child(dfd, name, child_mount)
                    if st is None:
                        continue
                    if stat.S_ISLNK(st.st_mode):
                        try:
                            target = os.readlink(name, dir_fd=dfd)
                        except OSError:  # replaced since the stat
                            continue
                        lines.append(f"{rchild} -> {target}")
                    elif stat.S_ISDIR(st.st_mode):
                        mapped = self._map(vchild)
                        owner = child_mount or (mapped[0] if mapped else None)
                        ro = "" if owner is not None and owner.writable else "  (read-only)"
                        lines.append(f"{rchild}/{ro}")
                        if level < depth:
                            cfd = self._open_child_dir(dfd, name, vchild, child_mount)
                            if cfd is not None:
                                queue.append((vchild, rchild + "/", level + 1, cfd))
                    else:
                        lines.append(f"{rchild}  {_human(st.st_size)}")
                os.close(dfd)
        finally:
            for item in queue:
                os.close(item[3])
        return lines, False

    def _open_child_dir(
        self, dfd: int, name: str, vchild: str, child_mount: Mount | None
    ) -> int | None:
        """A new fd of the folder ``name`` in ``dfd`` (a mount's root through its mount),
        or None if it cannot be opened (no link followed)."""
        try:
            if child_mount is not None:
                return self._open_dir(self.resolve(vchild))
            return os.open(name, _DIR_FLAGS, dir_fd=dfd)
        except (OSError, FsError):
            return None


def _check_path_text(path: object) -> None:
    """FsError unless ``path`` is a non-blank string without NUL of at most 4096 chars."""
    if not isinstance(path, str) or not path.strip():
        raise FsError("path must be a non-empty string")
    if "\x00" in path:
        raise FsError("path contains a NUL byte")
    if len(path) > 4096:
        raise FsError("path is longer than 4096 characters")


def _lstat(host: Path, path: str, must_exist: bool) -> os.stat_result | None:
    """``lstat`` of ``host``; None if it is missing and need not exist, else FsError
    naming the agent's ``path``."""
    try:
        return os.lstat(host)
    except FileNotFoundError:
        if must_exist:
            raise FsError(f"{path}: no such file or directory") from None
        return None
    except NotADirectoryError:
        raise FsError(f"{path}: not a directory") from None
    except OSError as exc:
        raise FsError(f"{path}: {exc.strerror}") from None


def _append_literally(stack: list[str], rest: Iterable[str]) -> None:
    """Append the components ``rest`` to ``stack`` as written (``..`` pops one, ``""`` and
    ``.`` are skipped): for a path being created, whose rest does not exist yet."""
    for part in rest:
        if part == "..":
            if stack:
                stack.pop()
        elif part not in ("", "."):
            stack.append(part)


def _read_link(host: Path, path: str) -> str:
    """The target of the link ``host``; FsError if it changed since it was seen."""
    try:
        return os.readlink(host)
    except OSError:  # replaced by a process in the sandbox since the lstat
        raise FsError(f"{path}: changed while being read") from None


def _stat_child(dfd: int, name: str, child_mount: Mount | None) -> os.stat_result | None:
    """The ``stat`` of the entry ``name`` of ``dfd`` (no link followed) or, for a mount
    point, of the mount's root; None if it is gone."""
    try:
        if child_mount is not None:
            return os.stat(child_mount.host)
        return os.stat(name, dir_fd=dfd, follow_symlinks=False)
    except OSError:
        return None


def _human(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{int(size)} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"  # pragma: no cover
