"""The episodes section of the viewer's page: filters, the episode table, and one
``<article>`` per episode (facts, errors, transcript, code, final files, grade, log).

Element ids are built from episode and step numbers only (``ep-3``, ``row-3``,
``ep-3-step-5``), never from run text; the filter script finds episodes by them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mle_gym.evaluation.viewer.markup import (
    clip_html,
    css_word,
    esc,
    fixed,
    kv_table,
    num,
    provenance_section,
)
from mle_gym.evaluation.viewer.model import (
    OUTCOMES,
    Clip,
    Code,
    Episode,
    FileEntry,
    Prompt,
    RunView,
    Step,
)


def episode_index(episodes: Iterable[Episode]) -> list[dict[str, Any]]:
    """What the filter script needs of each episode (number, task, seed, outcome...)."""
    return [
        {
            "n": e.number,
            "task": e.task_id,
            "seed": e.seed,
            "status": e.status,
            "outcome": e.outcome,
            "medal": e.medal,
        }
        for e in episodes
    ]


def episodes_section(view: RunView) -> str:
    """The Episodes section: filters, the episode table and every episode."""
    eps = view.episodes
    n = len(eps)
    return (
        '<section id="episodes">\n<h2>Episodes</h2>\n'
        + _filters(eps)
        + f'<p class="muted">Per-episode text is limited to {view.limits.per_episode(n):,} '
        "characters; what is cut says so.</p>\n"
        + _episode_table(eps)
        + "".join(_episode(e) for e in eps)
        + "</section>\n"
    )


def _filters(eps: list[Episode]) -> str:
    tasks = sorted({e.task_id for e in eps})
    seeds = sorted({e.seed for e in eps})
    task_opts = "".join(f'<option value="{esc(t)}">{esc(t)}</option>' for t in tasks)
    seed_opts = "".join(f'<option value="{s}">{s}</option>' for s in seeds)
    counts = {o: sum(e.outcome == o for e in eps) for o in OUTCOMES}
    boxes = "".join(
        f'<label><input type="checkbox" name="outcome" value="{esc(o)}" checked> '
        f'<span class="o-{css_word(o)}">{esc(o)}</span> ({n})</label>'
        for o, n in counts.items()
        if n
    )
    noun = "episode" if len(eps) == 1 else "episodes"
    return (
        '<div class="filters" id="filters">'
        f'<label>Task <select id="f-task"><option value="">all tasks</option>{task_opts}'
        "</select></label>"
        f'<label>Seed <select id="f-seed"><option value="">all seeds</option>{seed_opts}'
        "</select></label>"
        f'<fieldset class="outcomes"><legend>Outcome</legend>{boxes}</fieldset>'
        '<label>Search <input type="search" id="f-text" placeholder="text in episodes"></label>'
        '<button type="button" id="expand-all">expand all</button>'
        '<button type="button" id="collapse-all">collapse all</button>'
        f'<span id="shown-count">{len(eps)} of {len(eps)} {noun} shown</span>'
        "</div>\n"
    )


def _seconds(ep: Episode) -> Any:
    return ep.timing.get("seconds")


def _episode_table(eps: list[Episode]) -> str:
    columns = ("#", "task", "seed", "status", "outcome", "medal", "score", "reward", "steps")
    head = "".join(f"<th>{h}</th>" for h in (*columns, "time (s)"))
    rows = "".join(
        f'<tr id="row-{e.number}"><td><a href="#ep-{e.number}">{e.number}</a></td>'
        f"<td>{esc(e.task_id)}</td><td>{e.seed}</td>"
        f'<td class="s-{css_word(e.status)}">{esc(e.status)}</td>'
        f'<td class="o-{css_word(e.outcome)}">{esc(e.outcome)}</td>'
        f"<td>{_medal(e.medal)}</td>"
        f'<td class="num">{esc(num(e.score))}</td>'
        f'<td class="num">{esc(fixed(e.reward))}</td>'
        f'<td class="num">{esc(num(e.steps))}</td>'
        f'<td class="num">{esc(num(_seconds(e), 4))}</td></tr>'
        for e in eps
    )
    return (
        '<div class="table-wrap"><table class="episodes-table" id="episode-table">'
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>\n"
    )


def _medal(medal: str | None) -> str:
    return "–" if medal is None else f'<span class="m-{css_word(medal)}">{esc(medal)}</span>'


def _badge(kind: str, text: str) -> str:
    return f'<span class="badge {kind}-{css_word(text)}">{esc(text)}</span>'


def _episode(ep: Episode) -> str:
    facts = [f"score {esc(num(ep.score))}", f"reward {esc(fixed(ep.reward))}"]
    facts.append(f"steps {esc(num(ep.steps))}")
    if _seconds(ep) is not None:
        facts.append(f"{esc(num(_seconds(ep), 4))} s")
    if ep.status == "pending" and ep.started:
        facts.append("started (running, or interrupted)")
    summary = (
        f'<span class="ep-title">#{ep.number} {esc(ep.task_id)} · seed {ep.seed}</span>'
        f"{_badge('s', ep.status)}"
        + (_badge("o", ep.outcome) if ep.outcome != ep.status else "")
        + (_badge("m", ep.medal) if ep.medal else "")
        + f'<span class="ep-facts">{" · ".join(facts)}</span>'
    )
    parts = [
        "".join(f'<p class="note">{esc(n)}</p>' for n in ep.notes),
        _facts(ep),
        provenance_section("Provenance", ep.provenance, "ep-provenance", level=3),
        _errors(ep),
        _part(f"Transcript ({len(ep.transcript)} steps)", _transcript(ep), bool(ep.transcript)),
        _part(f"Code ({len(ep.code)})", _code(ep), bool(ep.code)),
        _part(f"Final files ({len(ep.files)})", _files(ep), bool(ep.files or ep.skipped_files)),
        _part("Grade", kv_table(ep.grade) if ep.grade else "", ep.grade is not None),
        _part("Log (end of log.txt)", clip_html(ep.log, fold=False), ep.log is not None),
        _part("Episode record", kv_table(ep.record) if ep.record else "", bool(ep.record)),
    ]
    return (
        f'<article class="episode" id="ep-{ep.number}">'
        f'<details class="ep-body"><summary>{summary}</summary>'
        f'<div class="ep-content">{"".join(parts)}</div></details></article>\n'
    )


def _part(title: str, body: str, present: bool, *, open_: bool = False) -> str:
    if not present:
        return ""
    return (
        f'<details class="part"{" open" if open_ else ""}><summary>{esc(title)}</summary>'
        f"{body}</details>"
    )


def _facts(ep: Episode) -> str:
    rec = ep.record
    data: dict[str, Any] = {
        "task": ep.task_id,
        "env id": ep.env_id,
        "seed": ep.seed,
        "status": ep.status,
        "outcome": ep.outcome,
        "medal": ep.medal,
        "score": ep.score,
        "reward": ep.reward,
        "steps": ep.steps,
    }
    for key in (
        "data_source",
        "reward_mode",
        "terminated",
        "truncated",
        "truncation_reason",
        "failure_kind",
    ):
        if key in rec:
            data[key.replace("_", " ")] = rec[key]
    agent = rec.get("agent")
    if isinstance(agent, dict):
        data["agent"] = agent.get("class") or agent.get("spec")
    if ep.timing:
        data["timing"] = ep.timing
    if ep.tool_errors.get("count"):
        data["tool errors"] = ep.tool_errors.get("count")
    return kv_table({k: "–" if v is None else v for k, v in data.items()}, "kv facts")


def _errors(ep: Episode) -> str:
    if not ep.errors and not (ep.tool_errors.get("first")):
        return ""
    out = []
    for err in ep.errors:
        out.append(
            f'<div class="error"><span class="error-type">{esc(err.type)}</span> in phase '
            f"{esc(err.phase)}{clip_html(err.message)}"
            + (
                '<details class="fold"><summary>traceback</summary>'
                f"{clip_html(err.traceback, fold=False)}</details>"
                if err.traceback
                else ""
            )
            + "</div>"
        )
    first = ep.tool_errors.get("first")
    if isinstance(first, list) and first:
        items = "".join(f"<li><code>{esc(t)}</code></li>" for t in first)
        out.append(f"<h4>First failed tool calls</h4><ul>{items}</ul>")
    return _part(f"Errors ({len(ep.errors)})", "".join(out), True, open_=True)


def _prompt(prompt: Prompt) -> str:
    out = ['<div class="step prompt"><div class="step-head">reset: the task</div>']
    out.append(clip_html(prompt.observation))
    if prompt.system_prompt is not None:
        out.append(
            '<details class="fold"><summary>system prompt</summary>'
            f"{clip_html(prompt.system_prompt, fold=False)}</details>"
        )
    if prompt.tools:
        out.append(f'<div class="muted">tools: {esc(", ".join(prompt.tools))}</div>')
    return "".join(out) + "</div>"


def _transcript(ep: Episode) -> str:
    out = [_prompt(ep.prompt)] if ep.prompt else []
    out.extend(_step(ep.number, s) for s in ep.transcript)
    return "".join(out)


def _step(number: int, step: Step) -> str:
    css = "step"
    if step.ok is False:
        css += " failed-call"
    if step.terminated or step.truncated:
        css += " final"
    anchor = f' id="ep-{number}-step-{step.index}"' if step.index is not None else ""
    facts = []
    if step.ok is False:
        facts.append("tool error")
    if step.reward:
        facts.append(f"reward {fixed(step.reward)}")
    if step.terminated:
        facts.append("terminated")
    if step.truncated:
        facts.append("truncated")
    if step.graded:
        facts.append("graded")
    if step.step_elapsed_s is not None:
        facts.append(f"{step.step_elapsed_s:.3g} s")
    tool = step.tool if step.tool is not None else "(no tool call could be read)"
    out = [
        f'<div class="{css}"{anchor}><div class="step-head">step {esc(num(step.index))} '
        f'<span class="tool">{esc(tool)}</span>'
        f'<span class="facts">{esc(" · ".join(facts))}</span></div>'
    ]
    if step.assistant is not None:
        out.append(f'<div class="label">assistant</div>{clip_html(step.assistant)}')
    if step.action is not None:
        out.append(f'<div class="label">action as given</div>{clip_html(step.action)}')
    short = [a for a in step.arguments if _inline(a.value) and not a.code]
    if short:
        pairs = " ".join(
            f'<span class="arg-name">{esc(a.name)}=</span><code>{esc(a.value.head)}</code>'
            for a in short
        )
        out.append(f'<div class="args">{pairs}</div>')
    inline = {id(a) for a in short}
    for arg in step.arguments:
        if id(arg) in inline:
            continue
        language = "text" if arg.code else None
        out.append(
            f'<div class="arg"><span class="arg-name">{esc(arg.name)}</span>'
            f"{clip_html(arg.value, language=language)}</div>"
        )
    out.append(f'<div class="label">observation</div>{clip_html(step.observation)}')
    if step.meta:
        meta = " · ".join(f"{k} {v}" for k, v in step.meta.items())
        out.append(f'<div class="muted">{esc(meta)}</div>')
    return "".join(out) + "</div>"


def _inline(c: Clip) -> bool:
    """Whether a clip is short enough for one line (one line, uncut, at most 200 chars)."""
    return not c.cut and len(c.head) <= 200 and "\n" not in c.head


def _code(ep: Episode) -> str:
    return "".join(_code_item(ep.number, c) for c in ep.code)


def _code_item(number: int, code: Code) -> str:
    where = f" {code.path}" if code.path else ""
    link = (
        f' <a href="#ep-{number}-step-{code.step}">(step {code.step} in the transcript)</a>'
        if code.step is not None
        else ""
    )
    blocks = "".join(
        (f'<div class="label">{esc(label)}</div>' if label else "")
        + clip_html(text, language=code.language, fold=False)
        for label, text in code.blocks
    )
    return (
        f'<div class="code-item"><div class="code-head">{esc(code.kind)}{esc(where)}{link}</div>'
        f"{blocks}</div>"
    )


def _files(ep: Episode) -> str:
    items = [_file(f) for f in ep.files]
    out = f'<ul class="files">{"".join(items)}</ul>' if items else ""
    if ep.skipped_files:
        skipped = "".join(
            f"<li>{esc(s.get('path'))}: {esc(s.get('reason'))}</li>" for s in ep.skipped_files
        )
        out += f"<h4>Not copied out of the workspace</h4><ul>{skipped}</ul>"
    return out


def _file(f: FileEntry) -> str:
    size = f'<span class="size">{f.size:,} bytes</span>'
    if f.kind == "text" and f.content is not None:
        cut = f" — first {f.content.shown:,} characters shown" if f.content.cut else ""
        return (
            f'<li><details class="fold"><summary><code>{esc(f.path)}</code> {size}{esc(cut)}'
            f"</summary>{clip_html(f.content, language='text', fold=False)}</details></li>"
        )
    label = {
        "binary": "binary",
        "link": "symbolic link, not followed",
        "other": "not a regular file",
        "unreadable": "unreadable",
        "file": "text not shown",
    }.get(f.kind, f.kind)
    return f'<li><code>{esc(f.path)}</code> {size} <span class="muted">({esc(label)})</span></li>'
