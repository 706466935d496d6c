"""MLAgentBench's action set as an mle_gym toolset (``gym.make(..., toolset="mlagentbench")``).

Actions and their arguments (as in MLAgentBench): List Files (dir_path), Read File
(file_name), Write File (file_name, content), Append File (file_name, content), Copy
File (source, destination), Undo Edit Script (script_name), Execute Script
(script_name), Inspect Script Lines (script_name, start_line_number,
end_line_number), Python REPL (command), Final Answer (final_answer).

Observations follow MLAgentBench's conventions: List Files shows the names in the
folder (folders end in ``/``); Write/Append/Copy confirm in one sentence; Execute
Script shows "The script has been executed. Here is the output:" then the script's
stdout — or its stderr when it fails (or printed only to stderr); Inspect Script
Lines shows at most 100 lines and where the file ends; Final Answer ends the
episode. Failures read ``EnvError: <reason>``; an unknown action or a malformed input
gets MLAgentBench's "Invalid action" / "The action input for ..." messages.

Unlike MLAgentBench, every edit (Write, Append, Copy over an existing file) is
backed up on the host, so Undo Edit Script restores the previous content of any
file the agent changed this way; backups never appear in the workspace. They are
capped per episode (:mod:`.undo`: 64 MiB in all, 20 versions per file, oldest
dropped first); the observation of an edit says when a backup was dropped or could
not be kept. Commands run in the sandbox with a per-command timeout. LLM-backed
actions (Understand File, Edit Script (AI), Reflection...) belong to the agent, not
the environment.
"""

from __future__ import annotations

import dataclasses
import functools
import posixpath
import secrets
from dataclasses import dataclass, field
from typing import Any

from mle_gym.families.mlagentbench.textformat import ActionInfo, TextActionParser, usage_text
from mle_gym.families.mlagentbench.undo import UndoStore
from mle_gym.families.toolsets import Toolset
from mle_gym.sandbox.base import WORKSPACE
from mle_gym.spaces import ToolCallSpace
from mle_gym.tools.builtin import ToolContext
from mle_gym.tools.format import decode, truncate
from mle_gym.tools.fs import FsError
from mle_gym.tools.parsing import ActionError
from mle_gym.tools.spec import ToolArgError, ToolResult, ToolSpec, tool

MAX_INSPECT_LINES = 100


@dataclass
class MLABContext(ToolContext):
    """The tool context plus per-episode state: edit backups for Undo Edit Script."""

    backups: UndoStore = field(default_factory=UndoStore)


class EnvError(Exception):
    """An action failed; shown as ``EnvError: <message>``."""


def _ctx(ctx: ToolContext) -> MLABContext:
    if not isinstance(ctx, MLABContext):  # pragma: no cover - the toolset builds it
        raise TypeError("the mlagentbench tools need an MLABContext")
    return ctx


def _inside(name: str, what: str = "file") -> str:
    """``name`` if it stays inside the work directory, else EnvError (MLAgentBench's rule)."""
    if not isinstance(name, str) or not name.strip():
        raise EnvError(f"the {what} name must be a non-empty string")
    full = name if name.startswith("/") else posixpath.join(WORKSPACE, name)
    norm = posixpath.normpath(full)
    if norm != WORKSPACE and not norm.startswith(WORKSPACE + "/"):
        raise EnvError(f"cannot access file {name} because it is not in the work directory.")
    return name


def _read_text(ctx: ToolContext, name: str) -> str:
    data, size = ctx.fs.read_bytes(name, ctx.max_read_bytes)
    if b"\x00" in data[:8192]:
        raise EnvError(f"cannot read file {name}: it is a binary file ({size:,} bytes)")
    text = decode(data)
    if size > len(data):
        text += f"\n[... file truncated: {size:,} bytes, {ctx.max_read_bytes:,} shown ...]"
    return text


def _backup(ctx: MLABContext, name: str) -> str | None:
    """Remember the current content of ``name`` (if it exists) for Undo Edit Script;
    None, or a sentence saying Undo will not be available (see :mod:`.undo`)."""
    try:
        res = ctx.fs.resolve(name)
        data, size = ctx.fs.read_bytes(name, ctx.max_write_bytes + 1)
    except FsError:
        return None
    if size > ctx.max_write_bytes:
        return (
            f"Undo Edit Script is not available for this edit: the previous content of "
            f"{name} ({size:,} bytes) is larger than {ctx.max_write_bytes:,} bytes, so no "
            "backup was kept."
        )
    return ctx.backups.push(res.virtual, data)


def _write(ctx: MLABContext, name: str, data: bytes) -> str:
    """Write ``data`` to ``name`` after backing up its content; the note to append to
    the observation ("" unless the backup could not be kept)."""
    if len(data) > ctx.max_write_bytes:
        raise EnvError(f"the content is {len(data):,} bytes; the limit is {ctx.max_write_bytes:,}")
    note = _backup(ctx, name)
    ctx.fs.write_bytes(name, data)
    return f"\n{note}" if note else ""


def _guard(fn):
    """Run a tool body; EnvError/FsError become ``EnvError: ...`` observations."""

    @functools.wraps(fn)
    def wrapper(ctx: ToolContext, **kwargs: Any) -> ToolResult:
        try:
            return fn(ctx, **kwargs)
        except (EnvError, FsError) as exc:
            return ToolResult(f"EnvError: {exc}", ok=False)
        except UnicodeEncodeError as exc:
            return ToolResult(f"EnvError: the text is not valid Unicode ({exc.reason})", ok=False)

    return wrapper


@tool
@_guard
def list_files(ctx: ToolContext, dir_path: str) -> ToolResult:
    """Use this to navigate the file system: the names in a folder (folders end in '/').

    Args:
        dir_path: a valid relative path to a directory, such as "." or "folder1/folder2"
    """
    dir_path = _inside(dir_path or ".", "directory")
    try:
        lines, truncated = ctx.fs.list_dir(dir_path, 1, ctx.max_list_entries)
    except FsError:
        raise EnvError(f"Cannot list file in the {dir_path} directory") from None
    names = []
    for line in lines:
        name = line.split("  ", 1)[0]
        names.append(name.split(" -> ", 1)[0])
    if truncated:
        names.append(f"[... listing stopped at {ctx.max_list_entries} entries ...]")
    return ToolResult("\n".join(names) + ("\n" if names else ""))


@tool
@_guard
def read_file(ctx: ToolContext, file_name: str) -> ToolResult:
    """Use this to read an existing file.

    Args:
        file_name: a valid file name with relative path to current directory if needed
    """
    _inside(file_name)
    try:
        text = _read_text(ctx, file_name)
    except FsError as exc:
        raise EnvError(f"cannot read file {file_name} ({exc})") from None
    return ToolResult(truncate(text, ctx.max_observation_chars))


@tool
@_guard
def write_file(ctx: ToolContext, file_name: str, content: str) -> ToolResult:
    """Use this to write a file. If the file already exists, it will be overwritten.

    Args:
        file_name: a valid file name with relative path to current directory if needed
        content: the content to be written to the file
    """
    _inside(file_name)
    note = _write(_ctx(ctx), file_name, content.encode("utf-8"))
    return ToolResult(f"File {file_name} written successfully.{note}")


@tool
@_guard
def append_file(ctx: ToolContext, file_name: str, content: str) -> ToolResult:
    """Use this to append content to the end of a file (created if missing).

    Args:
        file_name: a valid file name with relative path to current directory if needed
        content: the content to be appended to the file
    """
    _inside(file_name)
    try:
        old, size = ctx.fs.read_bytes(file_name, ctx.max_write_bytes + 1)
    except FsError as exc:
        if "no such file" not in str(exc):
            raise
        old, size = b"", 0
    if size > ctx.max_write_bytes:
        raise EnvError(f"cannot append file {file_name}: it is too large ({size:,} bytes)")
    note = _write(_ctx(ctx), file_name, old + content.encode("utf-8"))
    return ToolResult(f"File {file_name} appended successfully.{note}")


@tool
@_guard
def copy_file(ctx: ToolContext, source: str, destination: str) -> ToolResult:
    """Use this to copy a file to a new location with a new name.

    Args:
        source: a valid file name with relative path to current directory if needed
        destination: a valid file name with relative path to current directory if needed
    """
    _inside(source)
    _inside(destination)
    try:
        data, size = ctx.fs.read_bytes(source, ctx.max_write_bytes + 1)
    except FsError as exc:
        raise EnvError(
            f"File {source} copy to {destination} failed ({exc}). Check whether the source "
            "and destinations are valid."
        ) from None
    if size > ctx.max_write_bytes:
        raise EnvError(f"File {source} is too large to copy ({size:,} bytes)")
    note = _write(_ctx(ctx), destination, data)
    return ToolResult(f"File {source} copied to {destination}{note}")


@tool
@_guard
def undo_edit_script(ctx: ToolContext, script_name: str) -> ToolResult:
    """Use this to undo the last edit of a file (by Write File, Append File or Copy File).

    Args:
        script_name: a valid python script name with relative path to current directory if needed
    """
    _inside(script_name)
    c = _ctx(ctx)
    try:
        res = ctx.fs.resolve(script_name, must_exist=False)
    except FsError as exc:
        raise EnvError(f"Cannot undo the edit of file name {script_name} ({exc})") from None
    data = c.backups.pop(res.virtual)
    if data is None:
        raise EnvError("There is no change to undo.")
    ctx.fs.write_bytes(script_name, data)
    text = truncate(decode(data), ctx.max_observation_chars)
    return ToolResult(f"Content of {script_name} after undo the most recent edit:\n{text}")


def _split_streams(raw: str, marker: str) -> tuple[str, str | None]:
    """(stdout, stderr) from output that holds ``marker`` between them; stderr None if the
    marker was lost (e.g. in an omitted middle of a huge output)."""
    idx = raw.rfind(marker)
    if idx < 0:
        return raw, None
    return raw[:idx].rstrip("\n"), raw[idx + len(marker) :].lstrip("\n")


@tool
@_guard
def execute_script(ctx: ToolContext, script_name: str) -> ToolResult:
    """Use this to execute the python script. The script must already exist.

    Args:
        script_name: a valid python script name with relative path to current directory if needed
    """
    _inside(script_name)
    try:
        res = ctx.fs.resolve(script_name)
    except FsError:
        raise EnvError(f"The file {script_name} does not exist.") from None
    if res.host == res.mount.host:
        raise EnvError(f"{script_name} is a directory, not a script")
    marker = f"<<mle-gym-stderr-{secrets.token_hex(8)}>>"
    err = f"/tmp/.mle_gym_stderr_{secrets.token_hex(6)}"
    quoted = "'" + res.virtual.replace("'", "'\"'\"'") + "'"
    command = (
        f"python -u {quoted} 2>{err}; rc=$?; printf '\\n%s\\n' '{marker}'; "
        f"cat {err}; rm -f {err}; exit $rc"
    )
    result = ctx.sandbox.exec(command, ctx.exec_timeout_s)
    raw = decode(result.head) + (
        f"\n[... {result.output_bytes - len(result.head) - len(result.tail):,} bytes omitted ...]\n"
        + decode(result.tail)
        if result.tail
        else ""
    )
    stdout, stderr = _split_streams(raw, marker)
    meta = {
        "exit_code": result.exit_code,
        "duration_s": round(result.duration_s, 4),
        "timed_out": result.timed_out,
        "oom_killed": result.oom_killed,
        "output_bytes": result.output_bytes,
    }
    if stderr is None:  # the streams could not be told apart: show everything
        shown = stdout
    elif result.exit_code != 0 or result.killed_reason or not stdout.strip():
        shown = stderr  # failed (or printed only to stderr): the error output, as MLAgentBench
    else:
        shown = stdout
    shown = truncate(shown.rstrip("\n"), ctx.max_observation_chars)
    if result.killed_reason:
        return ToolResult(
            f"EnvError: the script was killed ({result.killed_reason}"
            + (f" after {ctx.exec_timeout_s:g} s" if result.timed_out else "")
            + f"). Output so far:\n{shown}",
            ok=False,
            meta=meta,
        )
    return ToolResult(
        f"The script has been executed. Here is the output:\n{shown}",
        ok=result.exit_code == 0,
        meta=meta,
    )


@tool
@_guard
def inspect_script_lines(
    ctx: ToolContext, script_name: str, start_line_number: int, end_line_number: int
) -> ToolResult:
    """Use this to inspect specific part of a python script precisely, or the full content
    of a short script. At most 100 lines are shown.

    Args:
        script_name: a valid python script name with relative path to current directory if needed
        start_line_number: a valid line number
        end_line_number: a valid line number
    """
    _inside(script_name)
    if end_line_number - start_line_number > MAX_INSPECT_LINES:
        raise EnvError(f"the number of lines to display is limited to {MAX_INSPECT_LINES} lines")
    try:
        lines = _read_text(ctx, script_name).split("\n")
    except FsError:
        raise EnvError(f"cannot find script {script_name}") from None
    content = "\n".join(lines[max(start_line_number - 1, 0) : max(end_line_number, 0)])
    return ToolResult(f"Here are the lines (the file ends at line {len(lines)}):\n\n{content}")


@tool
@_guard
def python_repl(ctx: ToolContext, command: str) -> ToolResult:
    """A python REPL. Use this to execute single line python commands (state is kept).

    Args:
        command: a valid python command
    """
    if ctx.kernel is None:
        raise EnvError("no Python interpreter is available in this sandbox")
    cell = ctx.kernel.run(command, ctx.exec_timeout_s)
    out = cell.head + cell.tail
    if cell.result is not None:
        out += ("" if not out or out.endswith("\n") else "\n") + cell.result
    if cell.status == "died":
        out += f"\n[interpreter died: {cell.died_reason}; the next call starts a fresh one]"
    elif cell.status == "interrupted":
        out += f"\n[interrupted after {ctx.exec_timeout_s:g} s]"
    if cell.traceback:
        out += ("\n" if out else "") + cell.traceback.rstrip("\n").splitlines()[-1]
    return ToolResult(truncate(out, ctx.max_observation_chars), ok=cell.status == "ok")


@tool
def final_answer(ctx: ToolContext, final_answer: str = "") -> ToolResult:
    """Use this to indicate completion; the final state of the workspace is evaluated and
    the episode ends.

    Args:
        final_answer: summary of what you have accomplished and the final state of the task
    """
    return ToolResult("end", terminal=True)


def _named(spec: ToolSpec, name: str) -> ToolSpec:
    return dataclasses.replace(spec, name=name)


ACTIONS: tuple[tuple[str, ToolSpec], ...] = (
    ("List Files", list_files),
    ("Read File", read_file),
    ("Write File", write_file),
    ("Append File", append_file),
    ("Copy File", copy_file),
    ("Undo Edit Script", undo_edit_script),
    ("Execute Script", execute_script),
    ("Inspect Script Lines", inspect_script_lines),
    ("Python REPL", python_repl),
    ("Final Answer", final_answer),
)

TOOLS: tuple[ToolSpec, ...] = tuple(
    _named(spec, display.replace(" ", "_")) for display, spec in ACTIONS
)

ACTION_INFOS: list[ActionInfo] = [
    ActionInfo(
        name=display,
        tool=display.replace(" ", "_"),
        usage={p.name: p.description for p in spec.params},
        lenient_input=display == "Final Answer",
    )
    for display, spec in ACTIONS
]


def tools_prompt() -> str:
    """The actions, each with its usage, as MLAgentBench agents expect them."""
    parts = []
    for (display, spec), info in zip(ACTIONS, ACTION_INFOS, strict=True):
        parts.append(f"- {display}: {spec.description}\n{usage_text(info)}")
    return "\n\n".join(parts)


def system_prompt() -> str:
    """The system prompt of the mlagentbench toolset (in this project's words)."""
    return "\n".join(
        [
            "You are a research assistant working on a machine-learning research problem in "
            "a sandboxed workspace (no internet). You act through the following actions:",
            "",
            tools_prompt(),
            "",
            "Answer every turn with exactly one action, in this format:",
            "Thought: what you are doing and why (optional)",
            "Action: <one of the action names above>",
            "Action Input: <the action's input as a valid JSON object>",
            "",
            "The result comes back as the observation of your next turn. Each action costs "
            "one step of your budget. When you are done, use Final Answer: the final state of "
            "the workspace is then evaluated.",
        ]
    )


class MLABActionSpace(ToolCallSpace):
    """The action space; ``sample()`` is a harmless List Files in the text format."""

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        return 'Action: List Files\nAction Input: {"dir_path": "."}'


def _error_text(exc: Exception) -> str:
    """Unreadable actions get MLAgentBench's messages as they are; tool failures
    (bad argument types, file errors) read ``EnvError: ...``."""
    if isinstance(exc, ActionError) and not isinstance(exc, ToolArgError):
        return str(exc)
    return f"EnvError: {exc}"


def _observation_block(text: str) -> str:
    return f"Observation:\n```\n{text}\n```"


@functools.cache
def mlagentbench_toolset() -> Toolset:
    """The toolset (see module docstring)."""
    from mle_gym.families.mlagentbench.textformat import normalize

    return Toolset(
        name="mlagentbench",
        tools=TOOLS,
        system_prompt=system_prompt(),
        parse=TextActionParser(ACTION_INFOS),
        text_result=_observation_block,
        context_class=MLABContext,
        action_space=MLABActionSpace,
        normalize_name=normalize,
        error_text=_error_text,
    )
