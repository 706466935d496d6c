"""Reading competition archives: zip, 7z and tar, chosen by file extension.

Every reader here is safe on hostile archives: member paths are never allowed
outside the destination (no absolute paths, no ``..``), links and device files
are refused, and the total uncompressed size is capped (``max_bytes``, by
default :data:`MAX_UNCOMPRESSED`) before anything is written. 7z archives are
read with `py7zr <https://py7zr.readthedocs.io>`_, zip and tar with the
standard library.
"""

from __future__ import annotations

import lzma
import os
import tarfile
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from mle_gym.data.kaggle import MAX_UNCOMPRESSED, extract_zip

__all__ = [
    "MAX_UNCOMPRESSED",
    "ArchiveError",
    "archive_files",
    "describe_files",
    "extract_archive",
    "extract_members",
    "extract_zip",
    "files_of",
    "is_archive",
    "read_zip_member",
]

_TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz")


class ArchiveError(ValueError):
    """The archive is malformed, unsafe, over the size cap, or of an unknown kind."""


def is_archive(path: Path) -> bool:
    """Whether ``path``'s name ends like an archive this module reads."""
    try:
        _kind(path)
    except ArchiveError:
        return False
    return True


def _kind(archive: Path) -> str:
    name = archive.name.lower()
    if name.endswith(".zip"):
        return "zip"
    if name.endswith(".7z"):
        return "7z"
    if name.endswith(_TAR_SUFFIXES):
        return "tar"
    raise ArchiveError(f"{archive.name}: not a .zip, .7z or .tar(.gz/.bz2/.xz) archive")


def _normalise(name: str) -> str:
    name = name.replace("\\", "/")
    while name.startswith("./"):
        name = name[2:]
    return name


def extract_archive(archive: Path, dest: Path, max_bytes: int = MAX_UNCOMPRESSED) -> list[str]:
    """Extract every member of ``archive`` into ``dest``; return the files' relative names.

    The kind is chosen by extension (``.zip``, ``.7z``, ``.tar``, ``.tar.gz``,
    ``.tgz``, ``.tar.bz2``, ``.tar.xz``). Zip archives go through
    :func:`extract_zip` (its KaggleError on a bad archive); 7z and tar archives
    raise :class:`ArchiveError` on links, device files, unsafe paths, corrupt or
    encrypted data or a total size over ``max_bytes``. Directory entries are
    created as folders (inside ``dest``); the result lists files only.
    """
    kind = _kind(archive)
    if kind == "zip":
        return extract_zip(archive, dest, max_bytes)
    dest.mkdir(parents=True, exist_ok=True)
    if kind == "tar":
        return _extract_tar(archive, dest, max_bytes)
    return _extract_7z(archive, dest, max_bytes)


def _py7zr_errors() -> tuple[type[BaseException], ...]:
    """The exceptions py7zr raises on a corrupt, encrypted or unsafe archive."""
    from py7zr import exceptions

    return (
        exceptions.ArchiveError,  # Bad7zFile (incl. unsafe member paths), CRC, bomb, ...
        exceptions.PasswordRequired,
        exceptions.AbsolutePathError,
        lzma.LZMAError,
        EOFError,
    )


def _extract_7z(archive: Path, dest: Path, max_bytes: int) -> list[str]:
    """Extract a 7z: directory entries become folders, files are written, nothing else."""
    import py7zr

    try:
        with py7zr.SevenZipFile(archive, max_extract_size=max_bytes) as sz:
            infos = sz.list()
            _check_7z(archive, infos, {i.filename for i in infos}, max_bytes, dirs=True)
            for info in infos:
                if info.is_directory:
                    (dest / _normalise(info.filename)).mkdir(parents=True, exist_ok=True)
            files = [i.filename for i in infos if not i.is_directory]
            if files:
                sz.extract(path=dest, targets=files)
    except _py7zr_errors() as exc:
        raise ArchiveError(f"{archive.name}: {exc}") from exc
    return sorted(_normalise(i.filename) for i in infos if not i.is_directory)


def _safe_name(archive: Path, name: str) -> None:
    """Raise ArchiveError unless ``name`` stays inside the destination folder."""
    posix = PurePosixPath(_normalise(name))
    if not posix.parts or posix.is_absolute() or ".." in posix.parts or ":" in posix.parts[0]:
        raise ArchiveError(f"{archive.name}: member {name!r} has an unsafe path")


def _check_7z(
    archive: Path, infos: list, names: set[str], max_bytes: int, *, dirs: bool = False
) -> None:
    """Check the members in ``names``: safe paths, regular files (or, with ``dirs``,
    directories), total declared size within ``max_bytes``. Raises ArchiveError."""
    total = 0
    for info in infos:
        if info.filename not in names:
            continue
        _safe_name(archive, info.filename)
        if dirs and info.is_directory and not info.is_symlink:
            continue
        if info.is_symlink or info.is_directory or not info.is_file:
            raise ArchiveError(f"{archive.name}: member {info.filename!r} is not a regular file")
        total += int(info.uncompressed or 0)
    if total > max_bytes:
        raise ArchiveError(f"{archive.name}: members to extract exceed the {max_bytes}-byte cap")


def _extract_tar(archive: Path, dest: Path, max_bytes: int) -> list[str]:
    try:
        with tarfile.open(archive) as tf:
            members = tf.getmembers()
            total = sum(m.size for m in members if m.isfile())
            if total > max_bytes:
                raise ArchiveError(f"{archive.name}: uncompressed size {total} exceeds the cap")
            for member in members:
                if not (member.isfile() or member.isdir()):
                    raise ArchiveError(
                        f"{archive.name}: member {member.name!r} is not a regular file"
                    )
            tf.extractall(dest, filter="data")
    except (tarfile.TarError, OSError) as exc:
        raise ArchiveError(f"{archive.name}: {exc}") from exc
    return sorted(_normalise(m.name) for m in members if m.isfile())


def extract_members(
    archive: Path, targets: Mapping[str, Path], max_bytes: int = MAX_UNCOMPRESSED
) -> set[str]:
    """Write the members of a ``.7z`` or ``.zip`` named in ``targets`` (member -> output file).

    Member names are compared after turning ``\\`` into ``/`` and dropping a
    leading ``./``; output paths come from ``targets`` only, never from the
    archive. Every member read is checked against its stored CRC. Returns the
    names written (a name absent from the archive is simply not in the result).
    Raises :class:`ArchiveError` when a wanted member is a link or a directory,
    when the wanted members' total size exceeds ``max_bytes``, or when the
    archive is corrupt.
    """
    if _kind(archive) == "zip":
        return _zip_members(archive, targets, max_bytes)
    import py7zr

    written: set[str] = set()
    try:
        with py7zr.SevenZipFile(archive) as sz:
            infos = sz.list()
            wanted = {i.filename: _normalise(i.filename) for i in infos}
            wanted = {raw: name for raw, name in wanted.items() if name in targets}
            _check_7z(archive, infos, set(wanted), max_bytes)
            if not wanted:
                return written
            parents = {targets[name].parent for name in wanted.values()}
            scratch = os.path.commonpath([str(p) for p in parents])
            with tempfile.TemporaryDirectory(dir=scratch, prefix=".7z-") as tmp:
                sz.extract(path=tmp, targets=list(wanted))
                for raw, name in wanted.items():
                    os.replace(Path(tmp) / raw, targets[name])
                    written.add(name)
    except _py7zr_errors() as exc:
        raise ArchiveError(f"{archive.name}: {exc}") from exc
    return written


def _zip_members(archive: Path, targets: Mapping[str, Path], max_bytes: int) -> set[str]:
    written: set[str] = set()
    with zipfile.ZipFile(archive) as zf:
        infos = [i for i in zf.infolist() if _normalise(i.filename) in targets]
        if sum(i.file_size for i in infos) > max_bytes:
            raise ArchiveError(f"{archive.name}: members exceed the {max_bytes}-byte cap")
        for info in infos:
            if info.is_dir() or (info.external_attr >> 16) & 0o170000 == 0o120000:
                raise ArchiveError(f"{archive.name}: {info.filename!r} is not a regular file")
            name = _normalise(info.filename)
            try:
                targets[name].write_bytes(zf.read(info))
            except zipfile.BadZipFile as exc:
                raise ArchiveError(f"{archive.name}: {exc}") from exc
            written.add(name)
    return written


def read_zip_member(archive: Path, member: str, max_bytes: int = 1 << 30) -> bytes:
    """The bytes of one member of a zip archive; ArchiveError if it exceeds ``max_bytes``.

    KeyError when the member is absent.
    """
    with zipfile.ZipFile(archive) as zf:
        info = zf.getinfo(member)
        if info.file_size > max_bytes:
            raise ArchiveError(f"{archive.name}: {member} is implausibly large ({info.file_size})")
        return zf.read(info)


def archive_files(archive: Path) -> list[str]:
    """The names of the files in ``archive`` (zip, 7z or tar; directories left out),
    sorted, without extracting anything; ArchiveError if it cannot be read."""
    kind = _kind(archive)
    try:
        if kind == "zip":
            with zipfile.ZipFile(archive) as zf:
                names = [i.filename for i in zf.infolist() if not i.is_dir()]
        elif kind == "tar":
            with tarfile.open(archive) as tf:
                names = [m.name for m in tf.getmembers() if m.isfile()]
        else:
            import py7zr

            with py7zr.SevenZipFile(archive) as sz:
                names = [i.filename for i in sz.list() if not i.is_directory]
    except ArchiveError:
        raise
    except Exception as exc:  # BadZipFile, TarError, py7zr's errors, OSError
        raise ArchiveError(f"{archive.name}: cannot be read ({type(exc).__name__}: {exc})") from exc
    return sorted(_normalise(n) for n in names)


def files_of(path: Path, limit: int = 10_000) -> list[str]:
    """What ``path`` holds, for telling a user what was found: an archive's files, a
    folder's files (relative paths, at most ``limit``, an archive in it listed as itself),
    or the file's own name; sorted."""
    if path.is_dir():
        found: list[str] = []
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames.sort()
            for name in sorted(filenames):
                found.append(str((Path(dirpath) / name).relative_to(path)))
                if len(found) >= limit:
                    return sorted(found)
        return sorted(found)
    if is_archive(path):
        try:
            return archive_files(path)
        except ArchiveError:
            return [path.name]
    return [path.name]


def describe_files(names: list[str], shown: int = 10) -> str:
    """``names`` for a message: their count and the first ``shown`` of them
    (``3 file(s): a.csv, b.csv, c.csv`` / ``... and 12 more``; ``no files``)."""
    if not names:
        return "no files"
    head = ", ".join(names[:shown])
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return f"{len(names)} file(s): {head}{more}"
