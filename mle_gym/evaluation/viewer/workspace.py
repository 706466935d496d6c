"""The final workspace files (``final/``) and the end of ``log.txt`` of an episode.

:func:`load_files` lists every entry under ``final/`` without following links (a link is
listed as one, never read) and shows the text of the first ``files_shown`` text files,
each cut at ``file_chars``; :func:`load_log` keeps the end of the log. Both take from
the episode's budget and say what they leave out.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from mle_gym.evaluation.viewer.model import Budget, Clip, Episode, FileEntry, Limits
from mle_gym.evaluation.viewer.reading import decode_text, read_prefix


def _walk_files(root: Path, limit: int) -> tuple[list[tuple[str, os.stat_result]], bool]:
    """(relative path, lstat) of every entry under ``root`` that is not a folder, links
    not followed, sorted; at most ``limit`` (and whether there were more)."""
    found: list[tuple[str, os.stat_result]] = []
    stack = [(root, "")]
    more = False
    while stack:
        folder, rel = stack.pop()
        try:
            with os.scandir(folder) as entries:
                items = sorted(entries, key=lambda e: e.name)
        except OSError:
            continue
        for entry in items:
            path = f"{rel}{entry.name}"
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append((Path(entry.path), path + "/"))
            elif len(found) >= limit:
                more = True
            else:
                found.append((path, st))
    return sorted(found), more


def load_files(ep: Episode, final: Path, limits: Limits, budget: Budget) -> None:
    """Fill ``ep.files`` from the folder ``final`` (nothing if it is missing or a link)."""
    if not final.is_dir() or final.is_symlink():
        return
    entries, more = _walk_files(final, limits.files_listed)
    shown = 0
    for rel, st in entries:
        if stat.S_ISLNK(st.st_mode):
            ep.files.append(FileEntry(rel, st.st_size, "link"))
        elif not stat.S_ISREG(st.st_mode):
            ep.files.append(FileEntry(rel, st.st_size, "other"))
        elif shown >= limits.files_shown or budget.spent:
            ep.files.append(FileEntry(rel, st.st_size, "file"))
        else:
            shown += 1
            ep.files.append(_text_file(final / rel, rel, st.st_size, limits, budget))
    if more:
        ep.notes.append(
            f"final/ holds more than {limits.files_listed:,} files; the rest are not listed"
        )
    if any(f.kind == "file" for f in ep.files):
        ep.notes.append(
            f"the text of some final files is not shown (at most {limits.files_shown} files "
            "per episode, within the episode's size limit)"
        )


def _text_file(path: Path, rel: str, size: int, limits: Limits, budget: Budget) -> FileEntry:
    data = read_prefix(path, limits.file_chars * 4)
    if data is None:
        return FileEntry(rel, size, "unreadable")
    text = decode_text(data, partial=len(data) < size)
    if text is None:
        return FileEntry(rel, size, "binary")
    kept = budget.clip(text, limits.file_chars, tail_share=0.0)
    cut = size - len(kept.head.encode("utf-8"))
    return FileEntry(rel, size, "text", Clip(kept.head, "", max(0, cut), "bytes"))


def load_log(ep: Episode, path: Path, limits: Limits, budget: Budget) -> Clip | None:
    """The end of ``path`` (None if it is missing or the budget is spent), its cut in bytes."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            fh.seek(max(0, size - limits.log_chars * 4))
            data = fh.read(limits.log_chars * 4)
    except OSError:
        return None
    if budget.spent:
        ep.notes.append("log.txt is not shown: the episode's size limit was reached")
        return None
    text = data.decode("utf-8", errors="replace")
    kept = budget.clip(text, limits.log_chars, tail_share=1.0)
    cut = size - len(kept.text.encode("utf-8"))
    return Clip("", kept.text, max(0, cut), "bytes")
