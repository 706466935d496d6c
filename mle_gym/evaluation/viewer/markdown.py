"""report.md's Markdown as HTML, so the page's summary is exactly what report.md says.

Only what :func:`mle_gym.evaluation.report_md.render_markdown` writes is understood:
``#`` headings, paragraphs, ``- `` list items (nested by two spaces), tables of ``|``
rows with a ``|---|`` rule, inline ``code`` spans and image lines. Every piece of text
is escaped (:func:`.markup.esc`); nothing in the Markdown becomes markup of its own, so
agent text quoted in report.md (failure messages) stays text. Sections named in
``skip`` (by heading) are left out, as is the top-level ``#`` title; headings are
shifted down to ``<h3>``/``<h4>`` to sit under the page's own.
"""

from __future__ import annotations

import re

from mle_gym.evaluation.viewer.markup import esc

_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_RULE = re.compile(r"\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?")


def inline(text: str) -> str:
    """One line of Markdown text: escaped, with ``code`` spans as ``<code>``."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: no code spans
        return esc(text)
    return "".join(esc(p) if i % 2 == 0 else f"<code>{esc(p)}</code>" for i, p in enumerate(parts))


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(rows: list[str]) -> str:
    head = "".join(f"<th>{inline(c)}</th>" for c in _cells(rows[0]))
    body = "".join(
        "<tr>" + "".join(f"<td>{inline(c)}</td>" for c in _cells(r)) + "</tr>" for r in rows[2:]
    )
    return (
        f'<div class="table-wrap"><table class="md"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>\n"
    )


def _items(lines: list[str]) -> str:
    """Nested ``<ul>`` of ``- `` items (two spaces of indent per level; a sublist sits in
    the item before it)."""
    out: list[str] = []
    depth = 0
    for line in lines:
        level = min((len(line) - len(line.lstrip(" "))) // 2 + 1, depth + 1)
        if level > depth:
            out.append("<ul>")
        else:
            out.append("</li>")
            out.extend("</ul></li>" for _ in range(depth - level))
        depth = level
        out.append(f"<li>{inline(line.strip()[2:])}")
    out.append("</li>")
    out.extend("</ul></li>" for _ in range(depth - 1))
    return "".join(out) + "</ul>\n"


def markdown_html(text: str, *, skip: tuple[str, ...] = ()) -> str:
    """The HTML of ``text`` (see the module docstring)."""
    out: list[str] = []
    blocks = re.split(r"\n\s*\n", text.strip("\n"))
    skipping = False
    for block in blocks:
        lines = [line for line in block.split("\n") if line.strip()]
        if not lines:
            continue
        first = lines[0]
        if first.startswith("#"):
            level = len(first) - len(first.lstrip("#"))
            title = first[level:].strip()
            if level == 1:
                lines = lines[1:]
            else:
                skipping = title in skip
                if not skipping:
                    tag = "h3" if level == 2 else "h4"
                    out.append(f"<{tag}>{inline(title)}</{tag}>\n")
                lines = lines[1:]
            if not lines:
                continue
        if skipping:
            continue
        lines = [line for line in lines if not _IMAGE.fullmatch(line.strip())]
        if not lines:
            continue
        if len(lines) >= 2 and lines[0].lstrip().startswith("|") and _RULE.fullmatch(lines[1]):
            out.append(_table(lines))
        elif all(line.lstrip().startswith("- ") for line in lines):
            out.append(_items(lines))
        else:
            out.append("<p>" + " ".join(inline(line.strip()) for line in lines) + "</p>\n")
    return "".join(out)
