"""Render a :class:`~.model.RunView` as one self-contained HTML page.

The page holds everything: plots as ``data:`` URIs, the stylesheet and the filter script
inline. Nothing in it loads anything: its Content-Security-Policy (:attr:`Page.csp`, a
``<meta>`` tag, also sent as a header by ``--serve``) is ``default-src 'none'`` with
images from ``data:`` only, and the one stylesheet and one script allowed by their
SHA-256 hashes — no ``'unsafe-inline'``, so markup injected into the page could run no
script even if escaping failed.

Everything taken from the run is escaped: terminal control and bidi characters are made
visible, then the text is HTML-escaped, quotes included (:func:`.markup.esc`). Element
ids are built from numbers only.
The episode index the script filters with is JSON in a ``<script type="application/json">``
data block, with ``<``, ``>`` and ``&`` written as ``\\u003c``-style escapes and non-ASCII
(U+2028/U+2029 included) as ``\\uXXXX``, so no text can close the block.

Order, as evaluators read a run: the header (agent, data, counts), the summary (report.md's
figures) and plots, the episodes, then the run's settings and provenance. Long texts are
folded in ``<details>`` (:mod:`.markup`); text the loader cut says how much was cut. The
episodes section is :mod:`.render_episodes`.
"""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from mle_gym.evaluation.stats import fmt
from mle_gym.evaluation.viewer.markdown import markdown_html
from mle_gym.evaluation.viewer.markup import esc, kv_table, provenance_section
from mle_gym.evaluation.viewer.model import RunView
from mle_gym.evaluation.viewer.render_episodes import episode_index, episodes_section

OVERALL_LABELS = (
    ("made_submission_pct", "made a submission (%)"),
    ("valid_submission_pct", "valid submission (%)"),
    ("above_median_pct", "above median (%)"),
    ("gold_pct", "gold (%)"),
    ("silver_pct", "silver (%)"),
    ("bronze_pct", "bronze (%)"),
    ("any_medal_pct", "any medal (%)"),
    ("leaderboard_percentile", "leaderboard percentile"),
    ("success_pct", "success over baseline (%)"),
)
#: report.md's sections the page shows in its own way
REPORT_MD_SKIP = ("Plots", "Provenance")
#: overall keys shown apart from the table (or not at all)
OVERALL_OTHER = ("reward", "pass_at_k", "steps", "timing", "usage", "tasks", "seeds")
TASK_COLUMNS = (
    "task",
    "data",
    "done/failed/pending",
    "made %",
    "valid %",
    "above median %",
    "any medal %",
    "score",
    "reward",
    "success %",
    "steps",
    "time (s)",
)


@dataclass(frozen=True)
class Page:
    """The rendered page and its Content-Security-Policy."""

    html: str
    csp: str


def _asset(name: str) -> str:
    return resources.files("mle_gym.evaluation.viewer").joinpath("assets", name).read_text("utf-8")


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def content_security_policy(style: str, script: str) -> str:
    """The page's policy: nothing loaded, only this style and this script run."""
    return (
        f"default-src 'none'; img-src data:; style-src '{_sha256(style)}'; "
        f"script-src '{_sha256(script)}'; base-uri 'none'; form-action 'none'"
    )


def render_page(view: RunView) -> Page:
    """The HTML page of ``view`` (see the module docstring)."""
    style, script = _asset("viewer.css"), _asset("viewer.js")
    csp = content_security_policy(style, script)
    name = view.run_dir.rstrip("/").rsplit("/", 1)[-1] or view.run_dir
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n',
        f'<meta http-equiv="Content-Security-Policy" content="{esc(csp)}">\n',
        '<meta charset="utf-8">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        '<meta name="referrer" content="no-referrer">\n',
        f"<title>mle-gym run · {esc(name)}</title>\n",
        f"<style>{style}</style>\n</head>\n<body>\n",
        _header(view),
        "<main>\n",
        _summary(view),
        _plots(view),
        episodes_section(view),
        _settings(view),
        provenance_section("Provenance", view.provenance, "provenance"),
        "</main>\n",
        '<script type="application/json" id="episode-index">',
        embed_json(episode_index(view.episodes)),
        "</script>\n",
        f"<script>{script}</script>\n</body>\n</html>\n",
    ]
    return Page("".join(parts), csp)


def embed_json(value: Any) -> str:
    """JSON that is inert inside an HTML ``<script>`` data block (see the module docstring)."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# --- run sections ---------------------------------------------------------------------


def _header(view: RunView) -> str:
    cfg = view.config
    counts = {s: sum(e.status == s for e in view.episodes) for s in ("done", "failed", "pending")}
    seeds = cfg.get("seeds") or []
    tasks = cfg.get("tasks") or []
    line = (
        f"agent {esc(cfg.get('agent'))} · data {esc(cfg.get('data'))} · sandbox "
        f"{esc(cfg.get('sandbox'))} · {len(tasks)} task(s) × {len(seeds)} seed(s) · "
        f"{len(view.episodes)} episode(s): {counts['done']} done, {counts['failed']} failed, "
        f"{counts['pending']} pending"
    )
    made = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    notes = "".join(f'<p class="note">{esc(n)}</p>' for n in view.notes)
    return (
        '<header>\n<h1>Evaluation run <span class="path">'
        f"{esc(view.run_dir)}</span></h1>\n"
        f'<p class="meta">{line}</p>\n<p class="meta">page made {made} by mle-gym view</p>\n'
        f"{notes}</header>\n"
    )


def _settings(view: RunView) -> str:
    shown = {k: v for k, v in view.config.items() if k != "format"}
    for key in ("tasks", "seeds"):
        if isinstance(shown.get(key), list):
            shown[key] = ", ".join(str(v) for v in shown[key])
    return f'<section id="settings">\n<h2>Settings</h2>\n{kv_table(shown)}\n</section>\n'


def _summary(view: RunView) -> str:
    """report.md's summary (without its plots and provenance, shown apart) as HTML; if
    report.md cannot be made from this report (one of another format), the figures in
    tables of the page's own."""
    report = view.report
    out = ['<section id="summary">\n<h2>Summary</h2>\n']
    if view.report_note:
        out.append(f'<p class="note">{esc(view.report_note)}</p>\n')
    if not isinstance(report, dict):
        out.append('<p class="muted">No summary.</p>\n</section>\n')
        return "".join(out)
    from mle_gym.evaluation.report_md import render_markdown

    try:
        text = render_markdown(report)
    except Exception as exc:  # a report of another format: show its figures generically
        out.append(
            f'<p class="note">report.md could not be made from this report '
            f"({esc(type(exc).__name__)}: {esc(exc)}); its figures:</p>\n"
        )
        out.append(_own_tables(report))
    else:
        out.append(f'<div class="report-md">{markdown_html(text, skip=REPORT_MD_SKIP)}</div>\n')
    out.append("</section>\n")
    return "".join(out)


def _own_tables(report: dict[str, Any]) -> str:
    out = []
    counts = report.get("counts") or {}
    if isinstance(counts, dict) and counts:
        out.append(
            f"<p>episodes: {esc(counts.get('finished'))}/{esc(counts.get('planned'))} finished "
            f"({esc(counts.get('done'))} done, {esc(counts.get('failed'))} failed, "
            f"{esc(counts.get('pending'))} pending)</p>\n"
        )
    out.append(_overall(_stat(report.get("overall")) or {}))
    out.append(_tasks(_stat(report.get("tasks")) or {}))
    failures = report.get("failures")
    if isinstance(failures, list) and failures:
        items = "".join(
            f"<li>{esc(f.get('task_id'))} seed {esc(f.get('seed'))}: "
            f"{esc(str(f.get('error') or '').split(chr(10), 1)[0][:300])}</li>"
            for f in failures
            if isinstance(f, dict)
        )
        out.append(f"<h3>Failed episodes</h3>\n<ul>{items}</ul>\n")
    return "".join(out)


def _stat(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def _stat_rows(label: str, value: Any, digits: int) -> list[str]:
    """Table rows of a ``{"mean", "sem", "n"}`` statistic, or of a dict of them (one row
    each, e.g. a figure given per reward mode); nothing for anything else."""
    stat = _stat(value)
    if stat is None:
        return []
    if "mean" in stat:
        return [
            f'<tr><td>{esc(label)}</td><td class="num">{esc(fmt(stat, digits))}</td>'
            f'<td class="num">{esc(stat.get("n", 0))}</td></tr>'
        ]
    rows = []
    for key, item in stat.items():
        if isinstance(item, dict) and "mean" in item:
            rows.extend(_stat_rows(f"{label} ({key})", item, digits))
    return rows


def _overall(overall: dict[str, Any]) -> str:
    if not overall:
        return ""
    rows: list[str] = []
    for key, label in (*OVERALL_LABELS, ("reward", "mean reward")):
        rows.extend(_stat_rows(label, overall.get(key), 4 if key == "reward" else 1))
    known = {key for key, _ in OVERALL_LABELS} | set(OVERALL_OTHER)
    for key, value in overall.items():  # figures this page does not know by name
        if key not in known:
            rows.extend(_stat_rows(key, value, 4))
    passk = _stat(overall.get("pass_at_k"))
    if passk and isinstance(passk.get("k"), dict):
        ks = ", ".join(f"pass@{k} {v:.4f}" for k, v in passk["k"].items() if isinstance(v, float))
        rows.append(
            f"<tr><td>pass@k (ML-Bench, unbiased)</td><td>{esc(ks)}</td>"
            f"<td>{esc(passk.get('examples'))} examples</td></tr>"
        )
    timing = _stat(overall.get("timing")) or {}
    lines = (
        f"<p>Steps per episode: {esc(fmt(_stat(overall.get('steps'))))}; episode time: "
        f"{esc(fmt(_stat(timing.get('seconds'))))} s (total {esc(timing.get('total_seconds'))} s)."
        "</p>\n"
    )
    usage = (_stat(overall.get("usage")) or {}).get("total") or {}
    if isinstance(usage, dict) and any(usage.values()):
        text = ", ".join(f"{k} {v:g}" for k, v in usage.items() if isinstance(v, int | float))
        lines += f"<p>Usage (total): {esc(text)}.</p>\n"
    return (
        '<h3>Overall</h3>\n<p class="muted">Mean ± SEM across seeds of the per-seed value over '
        "tasks (MLE-bench protocol); medal figures only over episodes on Kaggle data.</p>\n"
        '<table class="overall"><thead><tr><th>metric</th><th>mean ± SEM</th><th>seeds</th>'
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>\n{lines}"
    )


def _tasks(tasks: dict[str, Any]) -> str:
    if not tasks:
        return ""
    head = "".join(f"<th>{esc(c)}</th>" for c in TASK_COLUMNS)
    rows = []
    for task_id, t in tasks.items():
        if not isinstance(t, dict):
            continue
        e = _stat(t.get("episodes")) or {}
        timing = _stat(t.get("timing")) or {}
        cells = [
            esc(task_id),
            esc(", ".join(str(s) for s in t.get("data_sources") or []) or "-"),
            esc(f"{e.get('done', 0)}/{e.get('failed', 0)}/{e.get('pending', 0)}"),
            esc(fmt(_stat(t.get("made_submission_pct")))),
            esc(fmt(_stat(t.get("valid_submission_pct")))),
            esc(fmt(_stat(t.get("above_median_pct")))),
            esc(fmt(_stat(t.get("any_medal_pct")))),
            esc(fmt(_stat(t.get("score")), 5)),
            esc(fmt(_stat(t.get("reward")), 4)),
            esc(fmt(_stat(t.get("success_pct")))),
            esc(fmt(_stat(t.get("steps")))),
            esc(fmt(_stat(timing.get("seconds")))),
        ]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return (
        '<h3>Per task</h3>\n<p class="muted">Mean ± SEM over the task\'s seeds.</p>\n'
        f'<div class="table-wrap"><table class="tasks"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>\n"
    )


def _plots(view: RunView) -> str:
    if not view.plots:
        return ""
    figures = "".join(
        f'<figure><img src="data:image/png;base64,{p.png_base64}" alt="{esc(p.name)} plot">'
        f"<figcaption>{esc(p.name)}</figcaption></figure>"
        for p in view.plots
    )
    return f'<section id="plots">\n<h2>Plots</h2>\n<div class="plots">{figures}</div>\n</section>\n'
