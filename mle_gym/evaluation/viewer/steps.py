"""The transcript of an episode from its trajectory.jsonl, within the episode's budget.

:func:`load_trajectory` reads the file line by line (a line over ``record_bytes`` is
skipped without being held in memory), turns the ``reset`` record into a
:class:`~.model.Prompt` and every ``step`` record into a :class:`~.model.Step` — the
tool call and its arguments, what the policy said besides it, the observation — and
collects the code each step wrote or ran (:class:`~.model.Code`, sharing the step's
clips). Unreadable lines are counted; once the budget is spent the rest of the file is
left out, with a note saying how much.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from mle_gym.evaluation.viewer.model import (
    Argument,
    Budget,
    Clip,
    Code,
    Episode,
    Limits,
    Prompt,
    Step,
)
from mle_gym.evaluation.viewer.reading import (
    MAX_ITEMS,
    as_text,
    bounded,
    json_text,
    number,
    text_or_none,
)

#: arguments that hold source code or a command line (shown as code)
CODE_ARGS = frozenset({"content", "code", "command", "old", "new", "source", "script"})
#: arguments naming the file a write or an edit is for
PATH_ARGS = ("path", "file_name", "filename", "file", "script_name")
LANGUAGES = {
    ".py": "python",
    ".sh": "bash",
    ".r": "r",
    ".json": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".md": "markdown",
    ".sql": "sql",
}


def _lines(fh: IO[bytes], max_bytes: int) -> Iterator[tuple[bytes | None, int]]:
    """(line, size) of each line; (None, size) for a line longer than ``max_bytes``,
    which is skipped without being held in memory."""
    while True:
        line = fh.readline(max_bytes + 1)
        if not line:
            return
        if len(line) > max_bytes and not line.endswith(b"\n"):
            size = len(line)
            while True:
                chunk = fh.readline(2**20)
                size += len(chunk)
                if not chunk or chunk.endswith(b"\n"):
                    break
            yield None, size
        else:
            yield line, len(line)


def load_trajectory(ep: Episode, path: Path, limits: Limits, budget: Budget) -> None:
    """Fill ``ep.prompt``, ``ep.transcript`` and ``ep.code`` from ``path``; problems and
    cuts go to ``ep.notes``."""
    unreadable = 0
    try:
        size = path.stat().st_size
        fh = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        ep.notes.append(f"trajectory.jsonl is not readable: {exc.strerror}")
        return
    with fh:
        for line, nbytes in _lines(fh, limits.record_bytes):
            if budget.spent:
                rest = size - fh.tell() + nbytes
                ep.notes.append(
                    f"the rest of trajectory.jsonl ({rest:,} bytes) is not shown: the "
                    f"episode's size limit of {budget.total:,} characters was reached"
                )
                break
            if line is None:
                ep.notes.append(
                    f"a trajectory record of {nbytes:,} bytes is not shown (the viewer "
                    f"reads records of at most {limits.record_bytes:,} bytes)"
                )
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                unreadable += 1
                continue
            if not isinstance(rec, dict):
                unreadable += 1
            elif rec.get("type") == "reset" and ep.prompt is None:
                ep.prompt = _prompt(rec, limits, budget)
            elif rec.get("type") == "step":
                step = _step(rec, limits, budget)
                ep.transcript.append(step)
                ep.code.extend(_code_of(step))
    if unreadable:
        ep.notes.append(
            f"{unreadable} line(s) of trajectory.jsonl are not JSON records (a torn last "
            "line is normal while an episode runs)"
        )


def _prompt(rec: dict[str, Any], limits: Limits, budget: Budget) -> Prompt:
    tools = rec.get("tools")
    names = []
    for tool in (tools if isinstance(tools, list) else [])[:MAX_ITEMS]:
        fn = tool.get("function") if isinstance(tool, dict) else None
        name = (fn or {}).get("name") if isinstance(fn, dict) else None
        if name is None and isinstance(tool, dict):
            name = tool.get("name")
        if name is not None:
            names.append(as_text(name)[:200])
    system = as_text(rec.get("system_prompt"))
    fields = {
        k: bounded(v, limits.value_chars)
        for k, v in rec.items()
        if k not in ("type", "observation", "system_prompt", "tools")
    }
    return Prompt(
        observation=budget.clip(as_text(rec.get("observation")), limits.code_chars),
        system_prompt=budget.clip(system, limits.text_chars) if system else None,
        tools=names,
        fields=fields,
    )


def _step(rec: dict[str, Any], limits: Limits, budget: Budget) -> Step:
    budget.charge(limits.step_overhead)
    index = rec.get("step")
    tool = text_or_none(rec.get("tool"))
    step = Step(index=index if isinstance(index, int) else None, tool=tool)
    args = rec.get("args")
    if isinstance(args, dict):
        for name, value in list(args.items())[:MAX_ITEMS]:
            code = name in CODE_ARGS and isinstance(value, str)
            text = value if isinstance(value, str) else json_text(value)
            limit = limits.code_chars if code else limits.text_chars
            step.arguments.append(Argument(as_text(name)[:200], budget.clip(text, limit), code))
    elif args is not None:
        step.arguments.append(
            Argument("arguments", budget.clip(json_text(args), limits.text_chars))
        )
    if tool is None:
        action = rec.get("action")
        text = action if isinstance(action, str) else json_text(action)
        step.action = budget.clip(text, limits.text_chars)
    else:
        said = _assistant_text(rec.get("messages"))
        if said:
            step.assistant = budget.clip(said, limits.text_chars)
    step.observation = budget.clip(
        as_text(rec.get("observation")), limits.text_chars, tail_share=0.4
    )
    ok = rec.get("ok")
    step.ok = ok if isinstance(ok, bool) else None
    step.reward = number(rec.get("reward"))
    step.terminated = rec.get("terminated") is True
    step.truncated = rec.get("truncated") is True
    step.elapsed_s = number(rec.get("elapsed_s"))
    step.step_elapsed_s = number(rec.get("step_elapsed_s"))
    meta = rec.get("tool_meta")
    step.meta = bounded(meta, 300) if isinstance(meta, dict) else {}
    step.graded = isinstance(rec.get("grade"), dict)
    return step


def _assistant_text(messages: Any) -> str:
    """What the policy's message said besides its tool call: reasoning and content."""
    if not isinstance(messages, list) or not messages or not isinstance(messages[0], dict):
        return ""
    msg = messages[0]
    if msg.get("role") != "assistant":
        return ""
    parts = []
    for key in ("reasoning_content", "reasoning"):
        if isinstance(msg.get(key), str) and msg[key].strip():
            parts.append(f"[{key}]\n{msg[key]}")
    content = msg.get("content")
    if isinstance(content, list):  # content parts
        content = "\n".join(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    if isinstance(content, str) and content.strip():
        parts.append(content)
    return "\n\n".join(parts)


def _code_of(step: Step) -> list[Code]:
    """The code a step wrote or ran (its code arguments, the same clips as the transcript)."""
    args = {a.name: a for a in step.arguments}
    path = next((args[n].value.text for n in PATH_ARGS if n in args), None)
    tool = (step.tool or "").lower()
    found: list[Code] = []
    if "content" in args and args["content"].code:
        kind = "append" if "append" in tool else "write"
        found.append(
            Code(step.index, kind, path, _language(path, "text"), [("", args["content"].value)])
        )
    edit: list[tuple[str, Clip]] = [
        (n, args[n].value) for n in ("old", "new") if n in args and args[n].code
    ]
    if edit:
        found.append(Code(step.index, "edit", path, _language(path, "text"), edit))
    if "code" in args and args["code"].code:
        found.append(Code(step.index, "python", None, "python", [("", args["code"].value)]))
    if "command" in args and args["command"].code:
        kind = "python" if "python" in tool else "shell"
        language = "python" if kind == "python" else "bash"
        found.append(Code(step.index, kind, None, language, [("", args["command"].value)]))
    return found


def _language(path: str | None, default: str) -> str:
    if not path:
        return default
    return LANGUAGES.get(Path(path).suffix.lower(), default)
