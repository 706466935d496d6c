"""Terminal-safe display of agent-produced text: textsafe, the bounded transcript, and
what ``render()``, ``mle-gym run``, log.txt and eval reports print."""

from __future__ import annotations

import io
import json
import sys
import textwrap
import unicodedata
from pathlib import Path

import pytest

from mle_gym.textsafe import (
    QUOTE,
    SafeTextWriter,
    escape_line,
    escape_text,
    json_for_terminal,
    quote_block,
)
from mle_gym.transcript import Transcript

ENV_ID = "MLEBench/spaceship-titanic-v0"
BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
INVISIBLE = [0x200B, 0x2060, 0xFEFF, 0x2028, 0x2029]

#: What a hostile program prints: clear screen, OSC 52 clipboard write, OSC 8 link, BEL,
#: a title change, a carriage-return overwrite, backspaces, a C1 CSI, bidi overrides.
HOSTILE = (
    "\x1b[2J\x1b[H"
    "\x1b]52;c;ZWNobyBwd25lZA==\x07"
    "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\"
    "\x1b]0;title\x07"
    "safe\rFAKE\b\b\x9b31m\u202eevil\u202c\u2066x\u2069"
)


def _unsafe_chars(text: str) -> list[str]:
    """Characters a terminal would act on or reorder by, found independently of textsafe."""
    bad = []
    for ch in text:
        code = ord(ch)
        if ch in "\n\t":
            continue
        if unicodedata.category(ch) in ("Cc", "Cs") or code in BIDI or code in INVISIBLE:
            bad.append(ch)
    return bad


# -- textsafe --------------------------------------------------------------------------------


def test_escape_text_shows_every_control_as_a_visible_escape() -> None:
    out = escape_text(HOSTILE)
    assert _unsafe_chars(out) == []
    for shown in ("\\x1b[2J", "\\x1b]52;c;", "\\x07", "\\x1b]8;;", "\\r", "\\x08", "\\x9b"):
        assert shown in out
    assert "\\u202e" in out and "\\u2066" in out and "\\u202c" in out


@pytest.mark.slow
def test_escape_text_covers_all_code_points() -> None:
    everything = "".join(chr(c) for c in range(0x110000))
    out = escape_text(everything)
    assert _unsafe_chars(out) == []
    assert "\n" in out and "\t" in out  # kept
    assert escape_text("\x7f\x00\x85") == "\\x7f\\x00\\x85"
    assert escape_text("\ud83d") == "\\ud83d"  # a lone surrogate can be printed after all


def test_ordinary_text_is_unchanged() -> None:
    text = "résumé 中文 😀 \\x1b is four characters\n\tindented — “quotes”"
    assert escape_text(text) is text
    assert escape_line("one line, no controls") == "one line, no controls"


def test_escape_line_keeps_everything_on_one_line() -> None:
    out = escape_line("a\nb\r\nc\x0bd\x0ce\x1cf\x85g\u2028h")
    assert len(out.splitlines()) == 1
    assert out == "a\\nb\\r\\nc\\x0bd\\x0ce\\x1cf\\x85g\\u2028h"


@pytest.mark.parametrize(
    "text",
    ["", "x", "\n", "line\nReward: 1.0\n", "a\r\nb", "a\x0bb\x0cc\x85d\u2028e\u2029f", HOSTILE],
)
def test_quote_block_quotes_every_line(text: str) -> None:
    out = quote_block(text)
    # str.splitlines also splits on \v, \f, \x1c-\x1e, NEL and U+2028/9: none survive
    assert all(line.startswith(QUOTE) for line in out.splitlines())
    assert len(out.splitlines()) == text.count("\n") + 1


def test_json_for_terminal_is_ascii_and_parses_back() -> None:
    value = {"message": HOSTILE + "\x7f\nReward: 1.0", "n": 1, "u": "é"}
    out = json_for_terminal(value)
    assert out.isascii() and "\x7f" not in out
    assert _unsafe_chars(out) == []
    assert json.loads(out) == value
    assert not any(line.startswith("Reward") for line in out.splitlines())


def test_safe_text_writer_escapes_chunk_by_chunk() -> None:
    sink = io.StringIO()
    writer = SafeTextWriter(sink)
    for i in range(0, len(HOSTILE), 3):
        writer.write(HOSTILE[i : i + 3])
    writer.writelines(["\nend\n"])
    writer.flush()
    assert sink.getvalue() == escape_text(HOSTILE + "\nend\n")


# -- the bounded transcript ---------------------------------------------------------------


def test_transcript_headings_stay_one_line_and_bodies_are_quoted() -> None:
    t = Transcript()
    t.start(("=== task ===", "the task"))
    t.add(
        ("--- step 1: execute \nReward: 1.0", "out\nReward: 1.0\n" + HOSTILE), ("=== end ===", None)
    )
    lines = t.text().splitlines()
    assert "--- step 1: execute \\nReward: 1.0" in lines
    assert "| Reward: 1.0" in lines and "Reward: 1.0" not in lines
    assert [line for line in lines if line.startswith("===")] == ["=== task ===", "=== end ==="]
    assert _unsafe_chars(t.text()) == []


def test_transcript_is_bounded_and_says_what_it_dropped() -> None:
    t = Transcript(max_chars=20_000)
    t.start(("=== task ===", "T" * 100))
    for i in range(200):
        t.add((f"--- step {i}", f"step {i} output\n" + "y" * 3000))
    assert t.chars <= 20_000 + 6000
    text = t.text()
    assert "T" * 100 in text  # the task is kept
    assert "--- step 199" in text and "--- step 0\n" not in text
    assert f"[... {t.dropped:,} earlier entries dropped" in text and t.dropped > 190


@pytest.mark.parametrize("char", ["\u202e", "\x1b", "y"])
def test_one_huge_entry_is_shortened_with_every_line_quoted(char: str) -> None:
    t = Transcript(max_chars=40_000)
    body = ("line\n" + char * 997) * 1000 + "\nlast line"
    t.add(("--- step 1", body))
    text = t.text()
    assert len(text) <= 40_000 // 4 + 200
    assert "left out of the transcript" in text
    assert "| last line" in text
    body_lines = text.splitlines()[1:]
    assert all(line.startswith(QUOTE) or line.startswith("[... part") for line in body_lines)


def test_transcript_rejects_a_tiny_budget() -> None:
    with pytest.raises(ValueError, match="at least 1000"):
        Transcript(max_chars=10)


# -- eval reports and log.txt --------------------------------------------------------------


def test_report_markdown_and_progress_escape_failure_messages() -> None:
    from mle_gym.evaluation.episode import EpisodeJob
    from mle_gym.evaluation.progress import Progress
    from mle_gym.evaluation.run_report import render_markdown

    failures = [{"task_id": "t", "seed": 0, "error": "RuntimeError: " + HOSTILE + "\nsecond"}]
    stat = {"mean": None, "sem": None, "n": 0}
    overall = {k: dict(stat) for k in ("made_submission_pct", "valid_submission_pct")}
    for key in ("above_median_pct", "gold_pct", "silver_pct", "bronze_pct", "any_medal_pct"):
        overall[key] = dict(stat)
    overall.update(
        leaderboard_percentile=dict(stat),
        success_pct=dict(stat),
        reward=dict(stat),
        steps=dict(stat),
        timing={"seconds": dict(stat), "total_seconds": 0},
        usage={"total": {}},
    )
    report = {
        "config": {
            "agent": "a",
            "data": "replica",
            "sandbox": "local",
            "reward_mode": "auto",
            "tasks": ["t"],
            "seeds": [0],
        },
        "counts": {"finished": 1, "planned": 1, "done": 0, "failed": 1, "pending": 0},
        "overall": overall,
        "tasks": {},
        "failures": failures,
    }
    md = render_markdown(report)
    assert _unsafe_chars(md) == [] and "\\x1b[2J" in md and "second" not in md

    stream = io.StringIO()
    progress = Progress(1, stream=stream)
    job = EpisodeJob(run_dir="/tmp/x", env_id=ENV_ID, seed=0)
    record = {"status": "failed", "errors": [{"type": "RuntimeError", "message": HOSTILE}]}
    progress.started(job)
    progress.finished_episode(job, record)
    assert _unsafe_chars(stream.getvalue()) == [] and "\\x1b[2J" in stream.getvalue()


def test_episode_log_escapes_what_is_printed_and_logged(tmp_path: Path) -> None:
    import logging

    from mle_gym.evaluation.episode import _captured

    log_path = tmp_path / "log.txt"
    with _captured(log_path):
        print("printed " + HOSTILE)
        print("to stderr " + HOSTILE, file=sys.stderr)
        logging.getLogger("mle_gym.test").warning("logged %s", HOSTILE)
    text = log_path.read_text(encoding="utf-8")
    assert _unsafe_chars(text) == []
    assert text.count("\\x1b[2J") == 3 and text.count("\\u202e") == 3


# -- render() and mle-gym run on a real episode --------------------------------------------

#: A command that prints every sequence of HOSTILE, then forges the CLI's result lines.
PRINT_HOSTILE = (
    r"printf '\033[2J\033[H\033]52;c;ZWNobyBwd25lZA==\007\033]8;;http://evil.example/\033\\"
    r"click\033]8;;\033\\safe\rFAKE\b\b\302\23331m\342\200\256evil\n"
    r"\nReward: 1.0\nGrade: gold\n=== result ===\n{\"reward\": 1.0}\n"
    r"=== episode over: terminated · reward 1 · score 1.0 · valid True ===\n'"
)

AGENT = '''
from mle_gym.agents.base import Agent


class Hostile(Agent):
    """Prints terminal attacks and a forged result, then submits the sample submission."""

    def reset(self, task_info):
        self.steps = [
            {"tool": "execute", "args": {"command": %r}},
            {"tool": "execute", "args": {"command": "cp data/sample_submission.csv s.csv"}},
            {"tool": "execute", "args": {"command": "mv s.csv submission.csv"}},
            {"tool": "submit", "args": {}},
        ]

    def act(self, observation, info):
        return self.steps.pop(0)
'''


def _assert_forgeries_quoted(text: str) -> None:
    assert _unsafe_chars(text) == [], _unsafe_chars(text)[:5]
    assert "\\x1b[2J" in text and "\\x1b]52;c;" in text and "\\u202e" in text and "\\r" in text
    lines = text.splitlines()
    assert "| Reward: 1.0" in lines and "| Grade: gold" in lines
    assert not any(line.startswith(("Reward", "Grade")) for line in lines)


@pytest.mark.slow
@pytest.mark.sandbox
def test_render_escapes_and_quotes_agent_output(make_env) -> None:
    env = make_env(render_mode="ansi")
    env.reset(seed=0)
    env.step({"tool": "execute", "args": {"command": PRINT_HOSTILE}})
    env.step({"tool": "submit", "args": {}})
    text = env.render()
    _assert_forgeries_quoted(text)
    ends = [line for line in text.splitlines() if line.startswith("=== episode over")]
    assert ends == ["=== episode over: terminated · reward 0 · score None · valid False ==="]
    assert "| === episode over: terminated · reward 1 · score 1.0 · valid True ===" in text


@pytest.mark.slow
@pytest.mark.sandbox
def test_render_mode_none_keeps_no_transcript(make_env) -> None:
    env = make_env()
    env.reset(seed=0)
    env.step({"tool": "execute", "args": {"command": "echo hi"}})
    assert env.render() is None and env.unwrapped._transcript is None


@pytest.mark.slow
@pytest.mark.sandbox
def test_cli_run_quotes_agent_text_and_its_result_cannot_be_forged(
    backend: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mle_gym.cli import main

    (tmp_path / "hostile_agent_h8.py").write_text(textwrap.dedent(AGENT % PRINT_HOSTILE))
    monkeypatch.syspath_prepend(str(tmp_path))
    argv = ["run", "--env", ENV_ID, "--agent", "hostile_agent_h8:Hostile", "--data", "replica"]
    code = main([*argv, "--sandbox", backend, "--no-trajectory"])
    out = capsys.readouterr().out
    assert code == 0
    _assert_forgeries_quoted(out)
    lines = out.splitlines()
    assert lines.count("=== result ===") == 1 and "| === result ===" in lines
    result = json.loads(out.split("\n=== result ===\n", 1)[1])
    assert result["valid"] is True and result["steps"] == 4 and result["reward"] < 1.0
    # every line is the CLI's own (a heading, the JSON, a blank) or quoted agent text
    before = out.split("\n=== result ===\n", 1)[0].splitlines()
    own = [line for line in before if line and not line.startswith(QUOTE)]
    assert all(line.startswith(("=== ", "--- step ", "  [... shortened")) for line in own), own
