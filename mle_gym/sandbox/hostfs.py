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

The code is split by concern: :mod:`~mle_gym.sandbox.hostfs_core` (roots, paths,
walking), :mod:`~mle_gym.sandbox.hostfs_files` (single files),
:mod:`~mle_gym.sandbox.hostfs_copy` (copying trees, ownership, inert trees) and
:mod:`~mle_gym.sandbox.hostfs_remove` (removing); every public name is imported from
here.
"""

from __future__ import annotations

from mle_gym.sandbox.hostfs_copy import (
    CopyReport,
    InertReport,
    chown_tree,
    copy_tree,
    make_inert,
)
from mle_gym.sandbox.hostfs_core import (
    MAX_DEPTH,
    MAX_ENTRIES,
    PERMISSIONS,
    Entry,
    HostFSError,
    HostFSLimitError,
    Root,
    make_dirs,
    open_dir,
    split,
    walk,
)
from mle_gym.sandbox.hostfs_files import (
    copy_file_at,
    open_file,
    open_file_at,
    read_file,
    write_file,
)
from mle_gym.sandbox.hostfs_remove import (
    clear_dir,
    ensure_dir,
    remove_tree,
    temporary_dir,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_ENTRIES",
    "PERMISSIONS",
    "CopyReport",
    "Entry",
    "HostFSError",
    "HostFSLimitError",
    "InertReport",
    "Root",
    "chown_tree",
    "clear_dir",
    "copy_file_at",
    "copy_tree",
    "ensure_dir",
    "make_dirs",
    "make_inert",
    "open_dir",
    "open_file",
    "open_file_at",
    "read_file",
    "remove_tree",
    "split",
    "temporary_dir",
    "walk",
    "write_file",
]
