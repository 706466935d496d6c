"""The built-in tools: files, shell, submission checks, submit.

Each tool is a typed function; its signature and docstring are its schema (see
:mod:`mle_gym.tools.spec`). Tools never raise on agent input: problems come
back as a ``ToolResult(ok=False)`` whose text says what went wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mle_gym.sandbox.base import Sandbox
from mle_gym.sandbox.kernel import PythonKernel
from mle_gym.tools.format import decode, format_cell, format_exec, truncate
from mle_gym.tools.fs import FsError, SandboxFS
from mle_gym.tools.spec import ToolResult, ToolSpec, tool

MAX_COMMAND_BYTES = 100_000  # below Linux's 128 KiB limit on one exec argument


@dataclass
class ToolContext:
    """What the tools of one episode act on."""

    fs: SandboxFS
    sandbox: Sandbox
    exec_timeout_s: float
    max_observation_chars: int
    submission_path: str
    validate: Callable[[str], ToolResult]
    kernel: PythonKernel | None = None
    disk_quota_mb: int | None = None
    max_read_bytes: int = 8 * 2**20
    max_write_bytes: int = 64 * 2**20
    max_list_entries: int = 500


def _encode(text: str, what: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise FsError(f"{what} is not valid Unicode text ({exc.reason})") from None


@tool
def list_files(ctx: ToolContext, path: str = ".", depth: int = 2) -> ToolResult:
    """List files and folders with their sizes.

    Args:
        path: Folder to list, relative to /workspace or absolute. Default: the workspace.
        depth: How many folder levels to descend (1-5). Default 2.
    """
    depth = max(1, min(depth, 5))
    lines, truncated = ctx.fs.list_dir(path, depth, ctx.max_list_entries)
    res = ctx.fs.resolve(path)
    header = f"{res.virtual}:"
    if not lines:
        return ToolResult(f"{header}\n(empty)")
    if truncated:
        lines.append(f"[... listing stopped at {ctx.max_list_entries} entries ...]")
    return ToolResult(truncate("\n".join([header, *lines]), ctx.max_observation_chars))


@tool
def read_file(
    ctx: ToolContext, path: str, start_line: int = 1, end_line: int | None = None
) -> ToolResult:
    """Read a text file, optionally only a range of lines (1-based, inclusive).

    Args:
        path: File to read, relative to /workspace or absolute.
        start_line: First line to show. Default 1.
        end_line: Last line to show. Default: the end of the file (within the size limit).
    """
    if start_line < 1:
        return ToolResult("read_file: start_line must be >= 1", ok=False)
    if end_line is not None and end_line < start_line:
        return ToolResult("read_file: end_line must be >= start_line", ok=False)
    data, size = ctx.fs.read_bytes(path, ctx.max_read_bytes)
    if b"\x00" in data[:8192]:
        return ToolResult(
            f"{path}: binary file ({size:,} bytes); inspect it with execute instead", ok=False
        )
    lines = decode(data).splitlines()
    partial = size > len(data)
    total = f"{len(lines):,}{'+' if partial else ''}"
    first = start_line
    last = min(end_line if end_line is not None else len(lines), len(lines))
    if first > len(lines) and lines:
        return ToolResult(
            f"{path}: has {total} lines; start_line {first} is past the end", ok=False
        )
    body = "\n".join(lines[first - 1 : last])
    header = f"[{path}: lines {first}-{last} of {total} · {size:,} bytes]"
    text = truncate(body, ctx.max_observation_chars)
    if text != body:
        header += " (output truncated: request a smaller line range)"
    return ToolResult(f"{header}\n{text}" if body else header)


@tool
def write_file(ctx: ToolContext, path: str, content: str) -> ToolResult:
    """Create or overwrite a text file (parent folders are created).

    Args:
        path: File to write, relative to /workspace or absolute (inside /workspace).
        content: The complete new content of the file.
    """
    data = _encode(content, "content")
    if len(data) > ctx.max_write_bytes:
        return ToolResult(
            f"write_file: content is {len(data):,} bytes; the limit is {ctx.max_write_bytes:,}",
            ok=False,
        )
    res = ctx.fs.write_bytes(path, data)
    return ToolResult(f"wrote {len(data):,} bytes to {res.virtual}")


@tool
def edit_file(
    ctx: ToolContext, path: str, old: str, new: str, replace_all: bool = False
) -> ToolResult:
    """Replace an exact piece of text in a file.

    Args:
        path: File to edit, relative to /workspace or absolute.
        old: The exact text to replace; it must occur exactly once unless replace_all is true.
        new: The replacement text.
        replace_all: Replace every occurrence instead of requiring exactly one. Default false.
    """
    if old == "":
        return ToolResult("edit_file: 'old' must not be empty", ok=False)
    data, size = ctx.fs.read_bytes(path, ctx.max_write_bytes + 1)
    if size > ctx.max_write_bytes:
        return ToolResult(f"edit_file: {path} is too large to edit ({size:,} bytes)", ok=False)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return ToolResult(f"edit_file: {path} is not UTF-8 text", ok=False)
    count = text.count(old)
    if count == 0:
        return ToolResult(f"edit_file: the text to replace was not found in {path}", ok=False)
    if count > 1 and not replace_all:
        return ToolResult(
            f"edit_file: the text to replace occurs {count:,} times in {path}; include more "
            f"context to make it unique, or set replace_all",
            ok=False,
        )
    replaced = count if replace_all else 1
    new_data = _encode(new, "new")
    # the size is known before anything is built: a big replacement times many
    # occurrences must not allocate gigabytes on the host
    result_size = len(data) + replaced * (len(new_data) - len(old.encode("utf-8")))
    if result_size > ctx.max_write_bytes:
        return ToolResult(
            f"edit_file: the result would be {result_size:,} bytes ({replaced:,} "
            f"replacement(s)); the file size limit is {ctx.max_write_bytes:,} bytes",
            ok=False,
        )
    updated = text.replace(old, new) if replace_all else text.replace(old, new, 1)
    res = ctx.fs.write_bytes(path, updated.encode("utf-8"))
    return ToolResult(f"replaced {count if replace_all else 1} occurrence(s) in {res.virtual}")


@tool
def execute(ctx: ToolContext, command: str, timeout: float | None = None) -> ToolResult:
    """Run a shell command (/bin/sh) in /workspace inside the sandbox; there is no network.

    Args:
        command: The command line, e.g. "python train.py".
        timeout: Seconds before the command is killed (default and maximum: the task's limit).
    """
    if not command.strip():
        return ToolResult("execute: empty command", ok=False)
    if "\x00" in command:
        return ToolResult("execute: command contains a NUL byte", ok=False)
    size = len(command.encode("utf-8"))
    if size > MAX_COMMAND_BYTES:  # the kernel refuses longer arguments (E2BIG)
        return ToolResult(
            f"execute: the command is {size:,} bytes; the limit is {MAX_COMMAND_BYTES:,}. "
            "Write long scripts to a file with write_file and run the file.",
            ok=False,
        )
    limit = ctx.exec_timeout_s if timeout is None else max(0.1, min(timeout, ctx.exec_timeout_s))
    result = ctx.sandbox.exec(command, limit)
    text = format_exec(command, result, ctx.max_observation_chars, limit)
    if ctx.disk_quota_mb and b"No space left on device" in result.head + result.tail:
        text += f"\n[note: the workspace is full; its quota is {ctx.disk_quota_mb:,} MB]"
    return ToolResult(
        text,
        ok=result.ok,
        meta={
            "exit_code": result.exit_code,
            "duration_s": round(result.duration_s, 4),
            "timed_out": result.timed_out,
            "oom_killed": result.oom_killed,
            "output_bytes": result.output_bytes,
        },
    )


@tool
def python(ctx: ToolContext, code: str, timeout: float | None = None) -> ToolResult:
    """Run Python code in a persistent interpreter inside the sandbox.

    Variables, imports and loaded data are kept between calls; the value of a final
    expression is shown.

    Args:
        code: Python source, e.g. "import pandas as pd; df = pd.read_csv('data/train.csv')".
        timeout: Seconds before the cell is interrupted (state is kept); default and
            maximum: the task's command limit.
    """
    if ctx.kernel is None:
        return ToolResult("python: no interpreter is available in this sandbox", ok=False)
    if "\x00" in code:
        return ToolResult("python: code contains a NUL byte", ok=False)
    limit = ctx.exec_timeout_s if timeout is None else max(0.1, min(timeout, ctx.exec_timeout_s))
    cell = ctx.kernel.run(code, limit)
    # Nothing a cell started outlives the step (the interpreter itself is spared).
    ctx.kernel.sandbox.sweep_leftovers()
    return ToolResult(
        format_cell(cell, ctx.max_observation_chars, limit),
        ok=cell.status == "ok",
        meta={
            "status": cell.status,
            "duration_s": round(cell.duration_s, 4),
            "restarted": cell.restarted,
            "died_reason": cell.died_reason,
            "output_bytes": cell.output_bytes,
        },
    )


@tool
def validate_submission(ctx: ToolContext, path: str | None = None) -> ToolResult:
    """Check the submission file's format (columns, ids, values). It never reveals a score.

    Args:
        path: File to check. Default: the submission file the task asks for.
    """
    return ctx.validate(path or ctx.submission_path)


@tool
def submit(ctx: ToolContext) -> ToolResult:
    """Submit the submission file for grading and end the episode.

    Args:
    """
    return ToolResult("submitted", terminal=True)


BUILTIN_TOOLS: tuple[ToolSpec, ...] = (
    list_files,
    read_file,
    write_file,
    edit_file,
    execute,
    python,
    validate_submission,
    submit,
)
