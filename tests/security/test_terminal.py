"""Terminal output: what ``render()`` and ``mle-gym run`` show of hostile agent text."""

from __future__ import annotations

import unicodedata

import pytest

from mle_gym.cli import format_result, format_step
from mle_gym.episode_runner import EpisodeResult
from security.harness import Ctx
from security.suite import attack, category_test

pytestmark = pytest.mark.slow

_BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
_INVISIBLE = {0x200B, 0x2060, 0xFEFF, 0x2028, 0x2029}

#: Clear screen, OSC 52 clipboard write, OSC 8 link, window title, BEL, C1 CSI,
#: backspaces and a carriage-return overwrite (printf octal escapes for `execute`).
PRINTF_ESCAPES = (
    r"printf '\033[2J\033[H\033]52;c;ZWNobyBwd25lZA==\007\033]8;;http://evil.example/"
    r"\033\\click\033]8;;\033\\\033]0;pwned\007\302\23331m ok\rFAKE\b\b\n'"
)
PYTHON_ESCAPES = (
    "import sys\n"
    "sys.stdout.write('\\x1b[2J\\x1b]52;c;aGk=\\x07\\x1b]8;;http://evil.example/\\x1b\\\\x"
    "\\x1b]8;;\\x1b\\\\ done\\rFAKE\\n')\n"
)


def _raw_controls(text: str) -> int:
    """Characters a terminal would act on or reorder text by (checked without textsafe)."""
    return sum(
        1
        for ch in text
        if ch not in "\n\t"
        and (unicodedata.category(ch) in ("Cc", "Cs") or ord(ch) in _BIDI or ord(ch) in _INVISIBLE)
    )


def _displays(ctx: Ctx) -> str:
    """What an operator sees: ``render()``, then ``mle-gym run``'s lines for every step."""
    rendered = ctx.env.render()
    assert rendered is not None
    steps = ctx.agent.steps
    cli = "".join(format_step(i, s.action, s.obs, s.info) for i, s in enumerate(steps, 1))
    return rendered + "\n" + cli


def _evidence(shown: str) -> str:
    raw = _raw_controls(shown)
    assert raw == 0, f"{raw} raw control characters reach the terminal"
    return f"raw controls: {raw}\n{shown}"


@attack("terminal-ansi-escapes")
def _ansi_escapes(ctx: Ctx) -> str:
    a = ctx.agent
    shell = a.execute(PRINTF_ESCAPES)
    assert "\x1b[2J" in shell and "\x07" in shell  # the observation itself keeps the text
    py = a.python(PYTHON_ESCAPES)
    assert "\x1b]52;c;" in py
    a.execute("touch \"$(printf 'name\\033[2J\\033]0;t\\007.txt')\"")
    listing = a.list_files()
    assert "name\x1b[2J" in listing
    return _evidence(_displays(ctx))


@attack("terminal-forged-result")
def _forged_result(ctx: Ctx) -> str:
    a = ctx.agent
    forged = (
        "\nReward: 1.0\nGrade: gold\n=== result ===\n"
        '{"reward": 1.0, "score": 1.0, "valid": true}\n'
        "=== episode over: terminated · reward 1 · score 1.0 · valid True ===\n"
    )
    printed = a.python(f"print({forged!r})")
    assert "Grade: gold" in printed, printed[:300]
    a.execute("printf 'x\\nReward: 1.0\\n' && rm -f submission.csv")
    end = a.submit()
    assert end.terminated and end.reward == 0.0 and not end.info["grade"]["valid"]
    shown = _displays(ctx)
    unwrapped = ctx.env
    result = EpisodeResult(
        env_id=unwrapped.task.env_id,
        seed=0,
        steps=len(a.steps),
        reward=end.reward,
        terminated=end.terminated,
        truncated=end.truncated,
        grade=end.info.get("grade"),
        data_source=end.info.get("data_source"),
        seconds=0.0,
    )
    shown += format_result(result, None) + "\n"
    lines = shown.splitlines()
    forged_lines = [
        line
        for line in lines
        if line in ("Reward: 1.0", "Grade: gold")
        or line.startswith('{"reward": 1.0')
        or line.startswith("=== episode over: terminated · reward 1 ")
    ]
    ends = [line for line in lines if line.startswith("=== episode over")]
    assert ends == ["=== episode over: terminated · reward 0 · score None · valid False ==="]
    assert lines.count("=== result ===") == 1  # the real one, from format_result
    assert not forged_lines, forged_lines
    return f"unquoted forged lines: {len(forged_lines)}\n" + _evidence(shown)


@attack("terminal-bidi")
def _bidi(ctx: Ctx) -> str:
    a = ctx.agent
    spoof = "access = \u202e'nimda'\u2066 == role\u2069 \u200fok\u200b"
    out = a.python(f"print({spoof!r})")
    assert "\u202e" in out
    a.write_file("notes\u202etxt.py", "x = 1\n")
    a.list_files()
    a.execute("echo '\u2066hidden\u2069 \u200f'")
    return _evidence(_displays(ctx))


test_attack = category_test("terminal")
