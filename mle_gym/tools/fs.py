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
* after opening, the descriptor's real host path is checked to lie under the
  mount's host directory (this also defeats a link swapped in concurrently);
* read-only mounts refuse writes; files the host creates get the sandbox uid.

Every failure is a :class:`FsError` with a message meant for the agent.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from mle_gym.sandbox.base import WORKSPACE, Mount

MAX_SYMLINK_HOPS = 40


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
        self._real = {m.target: os.path.realpath(m.host) for m in self.mounts}

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
        if not isinstance(path, str) or not path.strip():
            raise FsError("path must be a non-empty string")
        if "\x00" in path:
            raise FsError("path contains a NUL byte")
        if len(path) > 4096:
            raise FsError("path is longer than 4096 characters")
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
            try:
                st = os.lstat(host)
            except FileNotFoundError:
                if queue and any(p not in ("", ".") for p in queue):
                    raise FsError(f"{path}: no such file or directory") from None
                if must_exist:
                    raise FsError(f"{path}: no such file or directory") from None
                stack.append(part)
                continue
            except OSError as exc:
                raise FsError(f"{path}: {exc.strerror}") from None
            last = not any(p not in ("", ".") for p in queue)
            if stat.S_ISLNK(st.st_mode) and (follow_last or not last):
                hops += 1
                if hops > MAX_SYMLINK_HOPS:
                    raise FsError(f"{path}: too many levels of symbolic links")
                target = os.readlink(host)
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

    def _check_fd(self, fd: int, res: Resolved) -> None:
        real = os.readlink(f"/proc/self/fd/{fd}")
        root = self._real[res.mount.target]
        if not (real == root or real.startswith(root.rstrip("/") + "/")):
            raise FsError(f"{res.virtual}: resolves outside the sandbox")

    # -- operations --------------------------------------------------------------------------

    def read_bytes(self, path: str, max_bytes: int) -> tuple[bytes, int]:
        """Return (first max_bytes bytes, total size) of a regular file."""
        res = self.resolve(path)
        try:
            fd = os.open(res.host, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except IsADirectoryError:
            raise FsError(f"{path}: is a directory (use list_files)") from None
        except OSError as exc:
            raise FsError(f"{path}: {exc.strerror}") from None
        try:
            self._check_fd(fd, res)
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
        full = path if path.startswith("/") else f"{WORKSPACE}/{path}"
        parent_raw = posixpath.dirname(full.rstrip("/")) or "/"
        try:
            res = self.resolve(path, must_exist=False)
        except FsError:
            res = None
        if res is not None and not res.mount.writable:
            raise FsError(f"{path}: read-only file system (task data cannot be modified)")
        self.makedirs(parent_raw)
        res = self.resolve(path, must_exist=False)
        if not res.mount.writable:
            raise FsError(f"{path}: read-only file system (task data cannot be modified)")
        if res.host == res.mount.host:
            raise FsError(f"{path}: is a directory")
        if os.path.isdir(res.host) and not os.path.islink(res.host):
            raise FsError(f"{path}: is a directory")
        parent = res.virtual.rsplit("/", 1)[0]
        pres = self.resolve(parent)
        if pres.mount.target != res.mount.target and not pres.mount.writable:
            raise FsError(f"{path}: read-only file system")
        dfd = os.open(pres.host, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            self._check_fd(dfd, pres)
            name = os.path.basename(res.host)
            tmp = f".{name}.mle_gym-tmp-{os.getpid()}"
            fd = os.open(
                tmp,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o644,
                dir_fd=dfd,
            )
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
                if exc.errno == errno.ENOSPC:
                    raise FsError(f"{path}: no space left on device") from None
                raise
            os.close(fd)
            os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        finally:
            os.close(dfd)
        return res

    def makedirs(self, vdir: str) -> None:
        """Create ``vdir`` and missing parents inside a writable mount."""
        try:
            res: Resolved | None = self.resolve(vdir)
        except FsError:
            res = None
        if res is not None:
            if not os.path.isdir(res.host):
                raise FsError(f"{vdir}: not a directory")
            return
        parent = posixpath.dirname(vdir.rstrip("/")) or "/"
        if parent == vdir or vdir in ("", "/"):
            raise FsError(f"{vdir}: cannot be created")
        self.makedirs(parent)
        res = self.resolve(vdir, must_exist=False)
        if not res.mount.writable:
            raise FsError(f"{vdir}: read-only file system")
        os.mkdir(res.host, 0o755)
        if self.owner is not None:
            os.chown(res.host, *self.owner, follow_symlinks=False)

    def list_dir(self, path: str, depth: int, max_entries: int) -> tuple[list[str], bool]:
        """Lines ``relative/path  size`` (dirs end in '/'), breadth-first; (lines, truncated)."""
        res = self.resolve(path)
        if not os.path.isdir(res.host):
            raise FsError(f"{path}: not a directory")
        lines: list[str] = []
        queue: deque[tuple[str, str, int]] = deque([(res.virtual, "", 1)])
        while queue:
            vdir, rel, level = queue.popleft()
            sub = self.resolve(vdir)
            try:
                entries = sorted(os.scandir(sub.host), key=lambda e: e.name)
            except OSError as exc:
                lines.append(f"{rel or '.'}: cannot list ({exc.strerror})")
                continue
            for entry in entries:
                if ".mle_gym-tmp-" in entry.name:
                    continue
                if len(lines) >= max_entries:
                    return lines, True
                vchild = f"{vdir.rstrip('/')}/{entry.name}"
                rchild = f"{rel}{entry.name}"
                mapped = self._map(vchild)
                host = mapped[1] if mapped else Path(entry.path)
                try:
                    st = os.lstat(host)
                except OSError:
                    continue
                if stat.S_ISLNK(st.st_mode):
                    lines.append(f"{rchild} -> {os.readlink(host)}")
                elif stat.S_ISDIR(st.st_mode):
                    ro = "" if (mapped and mapped[0].writable) else "  (read-only)"
                    lines.append(f"{rchild}/{ro}")
                    if level < depth:
                        queue.append((vchild, rchild + "/", level + 1))
                else:
                    lines.append(f"{rchild}  {_human(st.st_size)}")
        return lines, False


def _human(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{int(size)} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"  # pragma: no cover
