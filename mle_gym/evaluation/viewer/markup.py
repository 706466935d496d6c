"""HTML pieces of the viewer's page: untrusted text escaped, clips folded, tables.

:func:`esc` is the one way run text enters the page: terminal control and bidi
characters are made visible (:func:`mle_gym.textsafe.escape_text`), then the text is
HTML-escaped with quotes, so it is inert in element content and in attribute values.
:func:`clip_html` shows a :class:`~.model.Clip` as ``<pre>``, folded in ``<details>``
when longer than :data:`FOLD_LINES` lines or :data:`FOLD_CHARS` characters, with a note
where text was cut.
"""

from __future__ import annotations

import html
import json
from typing import Any

from mle_gym.evaluation.viewer.model import Clip
from mle_gym.textsafe import escape_text

FOLD_LINES = 40
FOLD_CHARS = 4_000
NEST_DEPTH = 4  # levels of nested tables before a value is shown as JSON


def esc(text: Any) -> str:
    """Untrusted text for HTML: terminal/bidi controls made visible, then escaped."""
    return html.escape(escape_text(str(text)), quote=True)


def clip_html(c: Clip | None, *, language: str | None = None, fold: bool = True) -> str:
    """A clip as ``<pre>``, folded when long, with a note where text was cut."""
    if c is None or (not c.shown and not c.cut):
        return '<div class="empty">(empty)</div>'
    body = esc(c.head)
    if c.cut:
        where = "characters" if c.unit == "characters" else c.unit
        body += f'<span class="cut">[… {c.cut:,} {where} cut …]</span>'
    body += esc(c.tail)
    if language:
        pre = f'<pre class="code"><code class="language-{esc(language)}">{body}</code></pre>'
    else:
        pre = f"<pre>{body}</pre>"
    text = c.text
    lines = text.count("\n") + 1
    if not fold or (lines <= FOLD_LINES and len(text) <= FOLD_CHARS):
        return pre
    first = next((line for line in text.splitlines() if line.strip()), "")[:120]
    size = f"{lines:,} lines · {len(text):,} characters" + (" shown" if c.cut else "")
    return (
        f'<details class="fold"><summary><span class="first">{esc(first)}</span> '
        f"— {size}</summary>{pre}</details>"
    )


def value_html(value: Any, depth: int = 0) -> str:
    """A JSON value in a table cell: scalars as text, dicts as nested tables, lists of
    scalars joined by commas, other lists item by item; JSON below :data:`NEST_DEPTH`."""
    if value is None:
        return '<span class="muted">null</span>'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return esc(num(value))
    if isinstance(value, str):
        return esc(value) if "\n" not in value else f"<pre>{esc(value)}</pre>"
    if depth < NEST_DEPTH and isinstance(value, dict) and value:
        return kv_table(value, depth=depth + 1)
    if depth < NEST_DEPTH and isinstance(value, list) and value:
        if all(_short_scalar(v) for v in value):
            return ", ".join(value_html(v, depth + 1) for v in value)
        return "".join(f'<div class="item">{value_html(v, depth + 1)}</div>' for v in value)
    text = json.dumps(value, ensure_ascii=False, indent=1, default=str)
    if len(text) < 80 and "\n" not in text:
        return f"<code>{esc(text)}</code>"
    return clip_html(Clip(text))


def _short_scalar(value: Any) -> bool:
    """A value that reads well inline: not a container, no newline, at most 200 chars."""
    if isinstance(value, str):
        return "\n" not in value and len(value) <= 200
    return value is None or isinstance(value, int | float | bool)


def kv_table(data: dict[str, Any], css: str = "kv", *, depth: int = 0) -> str:
    """A two-column table of ``data`` (``css``: the table's classes, never run text)."""
    rows = "".join(
        f"<tr><th>{esc(k)}</th><td>{value_html(v, depth)}</td></tr>" for k, v in data.items()
    )
    return f'<table class="{css}">{rows}</table>'


def num(value: Any, digits: int = 6) -> str:
    """A number for a table (``digits`` significant digits); ``–`` for None."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    return str(value)


def fixed(value: float | None, digits: int = 4) -> str:
    """A reward as report.md writes it (``0.9706``); ``–`` when there is none."""
    return "–" if value is None else f"{value:.{digits}f}"


def css_word(text: str) -> str:
    """A class-name part for a known word (outcomes, statuses, medals): a-z and dashes."""
    return "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in text.lower())


def provenance_section(title: str, data: dict[str, Any] | None, css: str, level: int = 2) -> str:
    """A titled section with the key/value pairs of ``data`` ("" when there are none)."""
    if not data:
        return ""
    heading = f"<h{level}>{esc(title)}</h{level}>"
    return f'<section class="{css}">\n{heading}\n{kv_table(data)}\n</section>\n'
