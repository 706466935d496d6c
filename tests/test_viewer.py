"""``mle-gym view``: the HTML page of an evaluation run (mle_gym.evaluation.viewer).

Unit tests build run folders with the harness's own writers (config, atomic JSON, the
trajectory writer) and check loading and rendering: pending, failed and invalid
episodes, hostile text that must stay text, size limits, the not-a-run error, and that
the run is never modified. Browser tests open the page of a real ``mle-gym eval`` run
(plus a crafted hostile episode) in Debian's Chromium through Playwright, from file://
and from ``--serve``; with CI=true a missing Chromium or Playwright fails them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from mle_gym import cli
from mle_gym.evaluation import layout
from mle_gym.evaluation.config import RunConfig, save_config
from mle_gym.evaluation.viewer import Limits, NotARunError, load_run, render_page
from mle_gym.evaluation.viewer.render import embed_json
from mle_gym.trajectory import TrajectoryWriter

ENV_ID = "MLEBench/spaceship-titanic-v0"
TASK = "spaceship-titanic"
#: markup that runs script if it ever reaches the page as markup
INJECT = (
    "</script><script>window.__pwned=1;alert(1)</script>"
    '<img src=x onerror="window.__pwned=2;alert(2)">'
    "<svg onload=alert(3)></svg><!-- \u2028 \u2029 & &amp; ]]>"
)
#: a task folder name with markup in it (no slash: it is one path component)
HOSTILE_TASK = '<img src=x onerror="window.__pwned=3">evil'


# --- building run folders with the harness's writers -------------------------------------


def make_run(run_dir: Path, seeds: tuple[int, ...], **settings: Any) -> Path:
    save_config(run_dir, RunConfig(tasks=(ENV_ID,), seeds=seeds, data="replica", **settings))
    return run_dir


def write_trajectory(folder: Path, steps: list[dict[str, Any]], prompt: str = "the task") -> None:
    writer = TrajectoryWriter(folder / layout.TRAJECTORY_FILE)
    writer.write(
        {
            "type": "reset",
            "env_id": ENV_ID,
            "observation": prompt,
            "system_prompt": "be good",
            "tools": [{"type": "function", "function": {"name": "execute"}}],
        }
    )
    for i, step in enumerate(steps, start=1):
        writer.write({"type": "step", "step": i, "ok": True, "reward": 0.0, **step})
    writer.close()


def write_episode(
    run_dir: Path,
    task: str,
    seed: int,
    status: str,
    *,
    grade: dict[str, Any] | None = None,
    steps: list[dict[str, Any]] | None = None,
    **fields: Any,
) -> Path:
    folder = layout.episode_dir(run_dir, task, seed)
    folder.mkdir(parents=True, exist_ok=True)
    if steps is not None:
        write_trajectory(folder, steps)
    if grade is not None:
        layout.write_json_atomic(folder / layout.GRADE_FILE, grade)
    record = {
        "format": "mle_gym.eval.episode/1",
        "status": status,
        "task_id": task,
        "env_id": ENV_ID,
        "seed": seed,
        "steps": len(steps or []),
        "reward": 0.5 if status == "done" else 0.0,
        "score": (grade or {}).get("score"),
        "errors": [],
        "timing": {"seconds": 1.5},
        **fields,
    }
    layout.write_json_atomic(folder / layout.EPISODE_FILE, record)
    return folder


def grade_of(score: float | None, *, valid: bool, exists: bool = True) -> dict[str, Any]:
    return {
        "task_id": TASK,
        "data_source": "replica",
        "score": score,
        "valid": valid,
        "submission_exists": exists,
        "message": "" if valid else "the submission has 3 rows; 870 expected",
        "gold_medal": None,
        "silver_medal": None,
        "bronze_medal": None,
    }


WRITE_STEP = {
    "tool": "write_file",
    "args": {"path": "solution.py", "content": "import pandas as pd\nprint('hello')\n"},
    "observation": "wrote 36 bytes to /workspace/solution.py",
}
RUN_STEP = {
    "tool": "execute",
    "args": {"command": "python solution.py"},
    "observation": "[exit code 0]\nhello",
    "tool_meta": {"exit_code": 0},
}


@pytest.fixture
def mixed_run(tmp_path: Path) -> Path:
    """Seeds 0-5: valid, invalid, no submission, failed, started (pending), not started."""
    run = make_run(tmp_path / "run", seeds=(0, 1, 2, 3, 4, 5))
    folder = write_episode(
        run, TASK, 0, "done", grade=grade_of(0.8, valid=True), steps=[WRITE_STEP, RUN_STEP]
    )
    (folder / "final").mkdir()
    (folder / "final" / "solution.py").write_text("import pandas as pd\nprint('hello')\n")
    (folder / "final" / "model.bin").write_bytes(b"\x00\x01binary")
    write_episode(run, TASK, 1, "done", grade=grade_of(None, valid=False), steps=[RUN_STEP])
    write_episode(run, TASK, 2, "done", grade=grade_of(None, valid=False, exists=False))
    trace = "Traceback (most recent call last):\n  File 'agent.py', line 3\nRuntimeError: boom\n"
    write_episode(
        run,
        TASK,
        3,
        "failed",
        errors=[
            {"phase": "episode", "type": "RuntimeError", "message": "boom", "traceback": trace}
        ],
    )
    started = layout.episode_dir(run, TASK, 4)
    started.mkdir(parents=True)
    write_trajectory(started, [RUN_STEP])
    return run


# --- loading -----------------------------------------------------------------------------


def test_outcomes_of_done_failed_and_pending_episodes(mixed_run: Path) -> None:
    view = load_run(mixed_run)
    got = {e.seed: (e.status, e.outcome, e.started) for e in view.episodes}
    assert got == {
        0: ("done", "valid", True),
        1: ("done", "invalid", True),
        2: ("done", "no submission", False),
        3: ("failed", "failed", False),
        4: ("pending", "pending", True),
        5: ("pending", "pending", False),
    }
    first = view.episodes[0]
    assert [s.tool for s in first.transcript] == ["write_file", "execute"]
    assert [(c.kind, c.path, c.language) for c in first.code] == [
        ("write", "solution.py", "python"),
        ("shell", None, "bash"),
    ]
    assert {(f.path, f.kind) for f in first.files} == {
        ("model.bin", "binary"),
        ("solution.py", "text"),
    }
    failed = view.episodes[3]
    assert failed.errors[0].type == "RuntimeError"
    assert failed.errors[0].traceback is not None
    assert "RuntimeError: boom" in failed.errors[0].traceback.text
    assert view.episodes[4].steps == 1  # counted from the trajectory of the running episode
    # no report.json yet: the summary is computed now, and says so
    assert view.report is not None and view.report_note is not None
    assert "not written yet" in view.report_note
    assert view.report["counts"] == {
        "planned": 6,
        "finished": 4,
        "done": 3,
        "failed": 1,
        "pending": 2,
    }


def test_page_lists_every_episode_with_its_outcome(mixed_run: Path) -> None:
    page = render_page(load_run(mixed_run)).html
    index = json.loads(PageParser.of(page).data_block)
    assert [(e["seed"], e["outcome"]) for e in index] == [
        (0, "valid"),
        (1, "invalid"),
        (2, "no submission"),
        (3, "failed"),
        (4, "pending"),
        (5, "pending"),
    ]
    assert "started (running, or interrupted)" in page
    assert "RuntimeError: boom" in page
    assert "6 of 6 episodes shown" in page
    assert "report.json is not written yet" in page
    # the code the agent wrote, as a code block
    assert '<code class="language-python">import pandas as pd' in page


def test_a_stale_report_is_recomputed_and_a_current_one_used(mixed_run: Path) -> None:
    from mle_gym.evaluation.run_report import write_report

    write_report(mixed_run, plots=False)
    view = load_run(mixed_run)
    assert view.report_note is None
    assert view.report is not None and view.report["counts"]["finished"] == 4
    write_episode(mixed_run, TASK, 5, "done", grade=grade_of(0.7, valid=True))
    view = load_run(mixed_run)
    assert view.report_note is not None and "out of date" in view.report_note
    assert view.report is not None and view.report["counts"]["finished"] == 5


def test_provenance_of_the_report_and_episodes_is_shown(mixed_run: Path) -> None:
    from mle_gym.evaluation.run_report import write_report

    report = write_report(mixed_run, plots=False)
    report["provenance"] = {"git_commit": "abc123", "host": {"cpus": 2}}
    layout.write_json_atomic(mixed_run / "report.json", report)
    write_episode(mixed_run, TASK, 5, "done", provenance={"image": "mle-gym-sandbox:1"})
    page = render_page(load_run(mixed_run)).html
    assert "git_commit" in page and "abc123" in page and "cpus" in page
    assert "mle-gym-sandbox:1" in page


def md_tables(markdown: str) -> list[list[list[str]]]:
    """The tables of a Markdown text: rows (header first, rule left out) of cells."""
    tables: list[list[list[str]]] = []
    previous = ""
    for line in markdown.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            row = [c.strip() for c in line.strip().strip("|").split("|")]
            if not previous.startswith("|"):
                tables.append([])
            tables[-1].append(row)
        previous = line
    return tables


def test_the_summary_is_report_md(mixed_run: Path) -> None:
    from html import escape

    from mle_gym.evaluation.report_md import render_markdown
    from mle_gym.evaluation.run_report import write_report

    report = write_report(mixed_run, plots=False)
    page = render_page(load_run(mixed_run)).html
    summary = page[page.index('<section id="summary">') : page.index('<section id="episodes">')]
    tables = md_tables(render_markdown(report))
    assert len(tables) >= 2  # overall and per task
    for table in tables:
        head, *rows = table
        assert "".join(f"<th>{escape(c)}</th>" for c in head) in summary
        for row in rows:
            assert "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" in summary
    assert "<h3>Overall</h3>" in summary and "<h3>Per task</h3>" in summary
    assert "Provenance" not in summary and "plots/" not in summary  # shown apart


def test_markdown_of_report_md_becomes_escaped_html() -> None:
    from mle_gym.evaluation.viewer.markdown import markdown_html

    text = (
        "# Evaluation report\n\n- agent: `<b>x</b>`\n  - nested <i>\n\n## Overall\n\n"
        "| a | b |\n|---|---|\n| 1 <s> | `2` |\n\nA paragraph\nwith <script>.\n\n"
        "## Plots\n\n![reward](plots/reward.png)\n"
    )
    assert markdown_html(text, skip=("Plots",)) == (
        "<ul><li>agent: <code>&lt;b&gt;x&lt;/b&gt;</code><ul><li>nested &lt;i&gt;</li>"
        "</ul></li></ul>\n<h3>Overall</h3>\n"
        '<div class="table-wrap"><table class="md"><thead><tr><th>a</th><th>b</th></tr>'
        "</thead><tbody><tr><td>1 &lt;s&gt;</td><td><code>2</code></td></tr></tbody></table>"
        "</div>\n<p>A paragraph with &lt;script&gt;.</p>\n"
    )


def test_a_report_of_another_format_is_shown_in_tables_of_the_page(mixed_run: Path) -> None:
    from mle_gym.evaluation.run_report import write_report

    report = write_report(mixed_run, plots=False)
    del report["config"]  # report.md cannot be made from it
    stat = {"mean": 0.25, "sem": 0.05, "n": 2}
    report["overall"]["reward"] = {"normalized": stat, "percentile": {**stat, "mean": 0.75}}
    report["overall"]["new_figure_pct"] = {"mean": 12.5, "sem": None, "n": 3}
    layout.write_json_atomic(mixed_run / "report.json", report)
    page = render_page(load_run(mixed_run)).html
    assert "report.md could not be made from this report (KeyError: &#x27;config&#x27;)" in page
    assert '<td>made a submission (%)</td><td class="num">50.0 ± 28.9</td>' in page
    assert '<td>mean reward (normalized)</td><td class="num">0.2500 ± 0.0500</td>' in page
    assert '<td>mean reward (percentile)</td><td class="num">0.7500 ± 0.0500</td>' in page
    assert '<td>new_figure_pct</td><td class="num">12.5000</td><td class="num">3</td>' in page
    assert "<td>spaceship-titanic</td>" in page


@pytest.mark.parametrize("case", ["missing", "no-config", "not-json", "other-json", "a-file"])
def test_a_folder_that_is_not_a_run_is_a_one_line_error(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "folder"
    if case != "missing":
        target.mkdir()
    if case == "not-json":
        (target / "config.json").write_text("{nope")
    if case == "other-json":
        (target / "config.json").write_text('{"format": "something else"}')
    if case == "a-file":
        target.rmdir()
        target.write_text("x")
    with pytest.raises(NotARunError) as info:
        load_run(target)
    expected = {
        "missing": "does not exist",
        "no-config": "is not an evaluation run: it has no config.json",
        "not-json": "config.json is not valid JSON",
        "other-json": "not an mle_gym evaluation config",
        "a-file": "is not a directory",
    }[case]
    assert expected in str(info.value)
    assert cli.main(["view", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("mle-gym: error: ") and captured.err.count("\n") == 1
    assert expected in captured.err
    assert not (target / "view.html").exists()


def test_view_writes_only_its_page(mixed_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(mixed_run)
    assert cli.main(["view", str(mixed_run)]) == 0
    assert capsys.readouterr().out == f"{mixed_run / 'view.html'}\n"
    after = snapshot(mixed_run)
    assert set(after) - set(before) == {"view.html"}
    assert {k: v for k, v in after.items() if k != "view.html"} == before
    out = mixed_run.parent / "elsewhere" / "page.html"
    assert cli.main(["view", str(mixed_run), "--out", str(out)]) == 0
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_view_refuses_an_out_that_is_not_html_and_port_without_serve(
    mixed_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["view", str(mixed_run), "--out", str(mixed_run / "report.json")]) == 2
    assert "--out must name an .html file" in capsys.readouterr().err
    assert not (mixed_run / "report.json").exists()
    assert cli.main(["view", str(mixed_run), "--port", "8123"]) == 2
    assert "--port is for --serve" in capsys.readouterr().err


def snapshot(folder: Path) -> dict[str, tuple[int, str]]:
    """Every file under ``folder``: (mtime in ns, sha256)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            out[str(path.relative_to(folder))] = (path.stat().st_mtime_ns, digest)
    return out


# --- hostile text ------------------------------------------------------------------------


class PageParser(HTMLParser):
    """Every start tag with its attributes, and the text of the script elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[str | None, str]] = []
        self._script: str | bool | None = False
        self.styles: list[str] = []
        self._in_style = False

    @classmethod
    def of(cls, page: str) -> PageParser:
        parser = cls()
        parser.feed(page)
        parser.close()
        return parser

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs).get("type")
            self.scripts.append((dict(attrs).get("type"), ""))
        if tag == "style":
            self._in_style = True
            self.styles.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = False
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._script is not False:
            kind, text = self.scripts[-1]
            self.scripts[-1] = (kind, text + data)
        if self._in_style:
            self.styles[-1] += data

    @property
    def data_block(self) -> str:
        return next(text for kind, text in self.scripts if kind == "application/json")


def hostile_episode(run_dir: Path, task: str, seed: int) -> Path:
    """An episode whose every text field holds markup, and a final/ with a link out."""
    step = {
        "tool": f"execute{INJECT}",
        "args": {"command": f"echo '{INJECT}'", f"arg{INJECT}": INJECT},
        "observation": f"output {INJECT}\n\x1b[31mred\x1b[0m \u202eevil",
        "messages": [{"role": "assistant", "content": f"I will {INJECT}"}],
        "tool_meta": {f"k{INJECT}": INJECT},
    }
    folder = write_episode(
        run_dir,
        task,
        seed,
        "failed",
        grade={"message": INJECT, f"field{INJECT}": INJECT, "valid": False},
        steps=[step, {"tool": None, "args": None, "action": INJECT, "observation": INJECT}],
        env_id=f"MLEBench/{INJECT}-v0",
        errors=[{"phase": INJECT, "type": INJECT, "message": INJECT, "traceback": INJECT}],
        provenance={f"key{INJECT}": INJECT},
        agent={"class": INJECT},
    )
    final = folder / "final"
    final.mkdir()
    (final / f"{HOSTILE_TASK}.py").write_text(f"# {INJECT}\n")
    (final / "passwd").symlink_to("/etc/passwd")
    (folder / "log.txt").write_text(f"log {INJECT}\n")
    return folder


def test_hostile_text_stays_text(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", seeds=(0,))
    hostile_episode(run, TASK, 0)
    hostile_episode(run, HOSTILE_TASK, 7)  # a folder not in the plan, named with markup
    page = render_page(load_run(run)).html
    parsed = PageParser.of(page)
    # only the page's own two scripts, and no element or attribute from the run's text
    assert [kind for kind, _ in parsed.scripts] == ["application/json", None]
    allowed = {
        "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4",
        "span", "p", "main", "section", "table", "thead", "tbody", "tr", "th", "td", "div",
        "label", "select", "option", "fieldset", "legend", "input", "button", "a", "article",
        "details", "summary", "pre", "code", "ul", "li", "script", "figure", "img",
        "figcaption",
    }  # fmt: skip
    assert {tag for tag, _ in parsed.tags} <= allowed
    assert not any(tag in ("img", "svg") for tag, _ in parsed.tags)  # no plots in this run
    for _tag, attrs in parsed.tags:
        assert not any(name.startswith("on") for name in attrs)
        assert all(name in {"id", "class", "href", "value", "type", "name", "checked",
                            "content", "http-equiv", "charset", "lang", "placeholder",
                            "open", "src", "alt"} for name in attrs)  # fmt: skip
    # the text is there, as text: markup escaped, terminal and bidi controls made visible
    assert (
        INJECT.replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        in page
    )
    assert "\\x1b[31mred" in page and "\\u202eevil" in page
    assert "\x1b" not in page and "\u202e" not in page
    # the filter data is inert JSON that parses back to the exact task ids
    block = parsed.data_block
    assert "<" not in block and ">" not in block and "&" not in block
    assert {e["task"] for e in json.loads(block)} == {TASK, HOSTILE_TASK}
    # a link in final/ is listed, never followed
    assert "root:x:0:0" not in page
    assert "symbolic link, not followed" in page


def test_embedded_json_cannot_close_its_script_element() -> None:
    text = embed_json({"a": "</script><!--\u2028\u2029&"})
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(text) == {"a": "</script><!--\u2028\u2029&"}


def test_the_policy_allows_exactly_the_inline_style_and_script(mixed_run: Path) -> None:
    import base64

    page = render_page(load_run(mixed_run))
    parsed = PageParser.of(page.html)
    meta = next(a for t, a in parsed.tags if t == "meta" and a.get("http-equiv"))
    assert meta["content"] == page.csp
    assert page.csp.startswith("default-src 'none'; img-src data:;")
    assert "unsafe-inline" not in page.csp

    def sha(text: str) -> str:
        return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()

    assert f"style-src 'sha256-{sha(parsed.styles[0])}'" in page.csp
    assert f"script-src 'sha256-{sha(parsed.scripts[1][1])}'" in page.csp


# --- size limits -------------------------------------------------------------------------


def test_huge_trajectories_and_files_are_cut_and_say_so(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", seeds=(0, 1))
    big = "x" * 300_000 + "\nTHE END"
    steps = [{"tool": "execute", "args": {"command": "cat big"}, "observation": big}] * 50
    folder = write_episode(run, TASK, 0, "done", grade=grade_of(0.5, valid=True), steps=steps)
    with open(folder / layout.TRAJECTORY_FILE, "a") as fh:  # a record over the line limit
        fh.write(json.dumps({"type": "step", "observation": "y" * 500_000}) + "\n")
    (folder / "final").mkdir()
    (folder / "final" / "big.txt").write_text("z" * 500_000)
    write_episode(run, TASK, 1, "done", grade=grade_of(0.5, valid=True), steps=steps[:1])
    limits = Limits(text_chars=10_000, episode_chars=60_000, record_bytes=400_000, file_chars=5_000)
    view = load_run(run, limits)
    first = view.episodes[0]
    assert first.transcript[0].observation.shown == 10_000
    assert first.transcript[0].observation.tail.endswith("THE END")  # the end is kept
    assert first.transcript[0].observation.cut == len(big) - 10_000
    assert len(first.transcript) < 10
    notes = " ".join(first.notes)
    assert "the rest of trajectory.jsonl" in notes and "60,000 characters was reached" in notes
    page = render_page(view).html
    assert f"{len(big) - 10_000:,} characters cut" in page
    assert len(page) < 3 * limits.episode_chars + 60_000
    # the record over the line limit is skipped without being read whole
    view = load_run(run, Limits(episode_chars=10**9, record_bytes=400_000, file_chars=5_000))
    assert any("a trajectory record of 500," in n for n in view.episodes[0].notes)
    assert len(view.episodes[0].transcript) == 50
    big_file = next(f for f in view.episodes[0].files if f.path == "big.txt")
    assert big_file.content is not None and big_file.content.shown == 5_000
    assert big_file.content.cut == 495_000 and big_file.content.unit == "bytes"


def test_the_page_budget_is_shared_between_episodes() -> None:
    limits = Limits(episode_chars=1_000_000, page_chars=10_000_000)
    assert limits.per_episode(2) == 1_000_000
    assert limits.per_episode(100) == 100_000


# --- in a real browser -------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _need_browser() -> None:
    """Skip when Chromium or Playwright is missing, but fail under CI=true."""
    problems = []
    if not Path(CHROMIUM).exists():
        problems.append(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        problems.append("playwright is not installed (pip install -e '.[dev]')")
    if problems:
        message = "browser tests need " + "; ".join(problems)
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real eval (replica spaceship-titanic, scripted agent, seeds 0 and 1), a hostile
    entry added to report.json's provenance, and a crafted hostile failed episode in a
    folder named with markup."""
    _need_browser()  # do not spend the eval when the browser tests cannot run
    run = tmp_path_factory.mktemp("view") / "run"
    done = subprocess.run(
        [sys.executable, "-m", "mle_gym.cli", "eval", TASK, "--seeds", "2", "--data", "replica",
         "--sandbox", "local", "--agent", "scripted", "--out", str(run), "--no-progress"],
        capture_output=True, text=True, timeout=600, env=os.environ,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((run / "report.json").read_text())
    report["provenance"] = {**report.get("provenance", {}), "reviewer": f"test-reviewer {INJECT}"}
    layout.write_json_atomic(run / "report.json", report)
    hostile_episode(run, HOSTILE_TASK, 0)
    return run


class Watched:
    """A page with everything that must not happen recorded: console errors and warnings,
    page errors, dialogs and requests that leave the page."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("dialog", self._dialog)
        self.page.on("request", lambda req: self.requests.append(req.url))

    def _console(self, msg: Any) -> None:
        if msg.type in ("error", "warning"):
            self.console.append(f"{msg.type}: {msg.text}")

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open_everything(self) -> None:
        self.page.click("#expand-all")
        self.page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")

    def assert_clean(self, url: str) -> None:
        assert self.console == [] and self.errors == [], (self.console, self.errors)
        assert self.dialogs == []
        assert self.page.evaluate("typeof window.__pwned") == "undefined"
        assert self.requests == [url]  # nothing but the page itself was requested
        assert self.page.evaluate("document.scripts.length") == 2
        srcs = self.page.evaluate("[...document.images].map(i => i.src.slice(0, 22))")
        assert srcs == ["data:image/png;base64,"] * len(srcs)

    def shown(self) -> str:
        return str(self.page.inner_text("#shown-count"))

    def visible_episodes(self) -> list[str]:
        return list(
            self.page.evaluate(
                "[...document.querySelectorAll('article.episode')].filter(a => !a.hidden)"
                ".map(a => a.querySelector('.ep-title').textContent)"
            )
        )


def episode_record(run: Path, seed: int) -> dict[str, Any]:
    return dict(json.loads((layout.episode_dir(run, TASK, seed) / "episode.json").read_text()))


@pytest.mark.slow
def test_page_of_a_real_run_in_chromium(real_run: Path, browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "view.html"
    assert cli.main(["view", str(real_run), "--out", str(out)]) == 0
    url = out.as_uri()
    w = Watched(browser)
    w.page.goto(url)
    w.open_everything()
    w.assert_clean(url)
    page = w.page

    # the episodes and figures
    assert w.shown() == "3 of 3 episodes shown"
    titles = w.visible_episodes()
    assert titles == [f"#1 {TASK} · seed 0", f"#2 {TASK} · seed 1", f"#3 {HOSTILE_TASK} · seed 0"]
    report = json.loads((real_run / "report.json").read_text())
    from mle_gym.evaluation.report_md import render_markdown

    tables = md_tables(render_markdown(report))
    shown = page.locator("#summary table")
    assert shown.count() == len(tables) >= 2
    for i, table in enumerate(tables):  # the summary is report.md's tables, cell for cell
        rows = shown.nth(i).locator("tr")
        assert [r.split("\t") for r in rows.all_inner_texts()] == table
    assert [TASK, "replica (seeds 0)", "2/0/0"] in [row[:3] for row in tables[1]]
    assert page.evaluate("[...document.images].map(i => i.naturalWidth > 100)") == [True] * 4
    rows = page.inner_text("#episode-table tbody")
    for seed in (0, 1):
        rec = episode_record(real_run, seed)
        assert f"{rec['score']:.6g}" in rows and f"{rec['reward']:.4f}" in rows
    first = page.locator("#ep-1")
    assert "write_file" in first.inner_text() and "submission.csv" in first.inner_text()
    provenance = page.inner_text("section.provenance")
    assert (
        f"test-reviewer {INJECT}".replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
        in provenance
    )
    assert "report_software" in provenance  # every key of report.json's provenance
    hostile = page.locator("#ep-3").inner_text()
    assert "</script><script>window.__pwned=1;alert(1)</script>" in hostile
    assert '<img src=x onerror="window.__pwned=2;alert(2)">' in hostile

    # filtering by task, seed, outcome and text
    page.select_option("#f-task", TASK)
    assert w.shown() == "2 of 3 episodes shown"
    assert not page.locator("#ep-3").is_visible() and not page.locator("#row-3").is_visible()
    page.select_option("#f-seed", "1")
    assert w.shown() == "1 of 3 episodes shown"
    assert w.visible_episodes() == [f"#2 {TASK} · seed 1"]
    page.select_option("#f-task", "")
    assert w.visible_episodes() == [f"#2 {TASK} · seed 1"]
    page.select_option("#f-seed", "0")
    assert w.visible_episodes() == [f"#1 {TASK} · seed 0", f"#3 {HOSTILE_TASK} · seed 0"]
    page.select_option("#f-seed", "")
    page.uncheck("input[name=outcome][value=valid]")
    assert w.visible_episodes() == [f"#3 {HOSTILE_TASK} · seed 0"]
    page.check("input[name=outcome][value=valid]")
    page.fill("#f-text", "validate_submission")
    assert w.shown() == "2 of 3 episodes shown"
    page.fill("#f-text", "")
    assert w.shown() == "3 of 3 episodes shown"
    w.assert_clean(url)

    # a screenshot that shows something: the plots and the top of the episodes
    from PIL import Image

    shot = tmp_path / "view.png"
    page.evaluate("document.getElementById('plots').scrollIntoView()")
    page.screenshot(path=str(shot), full_page=False)
    with Image.open(shot) as image:
        assert image.size == (1280, 900)
        colors = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colors is not None and len(colors) > 200  # text, plot lines, fills, anti-aliasing
    background = max(count for count, _ in colors)
    assert background < 0.93 * 1280 * 900  # not a blank page
    w.context.close()


@pytest.mark.slow
def test_served_page_in_chromium_and_ctrl_c(real_run: Path, browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "served.html"
    proc = subprocess.Popen(
        [sys.executable, "-m", "mle_gym.cli", "view", str(real_run), "--out", str(out),
         "--serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == f"{out}\n"
        url = proc.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url), url
        w = Watched(browser)
        response = w.page.goto(url)
        assert response is not None and response.status == 200
        assert response.headers["content-security-policy"].startswith("default-src 'none'")
        w.open_everything()
        w.assert_clean(url)
        assert w.shown() == "3 of 3 episodes shown"
        page_html = w.page.content()
        assert "write_file" in page_html
        w.context.close()
        # nothing but the page is served: not the run's files
        for path in ("config.json", "episodes/", "../", "view.html"):
            with pytest.raises(urllib.error.HTTPError) as info:
                urllib.request.urlopen(url + path, timeout=10)
            assert info.value.code == 404
        with urllib.request.urlopen(url + out.name, timeout=10) as served:
            assert served.read() == out.read_bytes()
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert err.strip().endswith("stopped")
    assert "Traceback" not in err
