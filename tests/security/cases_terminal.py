"""Terminal output: agent-produced text cannot act on the operator's terminal or forge
the lines the program prints (``render()``, ``mle-gym run``)."""

from __future__ import annotations

from security.cases import Case, both

TITLE = "Terminal output"

_ANSI = {"render_mode": "ansi"}

CASES: tuple[Case, ...] = (
    Case(
        "terminal-ansi-escapes",
        "terminal",
        "Print terminal control sequences from `execute` (printf) and the `python` tool: "
        "clear screen `ESC[2J`, an OSC 52 clipboard write, an OSC 8 hyperlink, a window "
        "title, BEL, a C1 CSI, backspaces and a `\\r` that overwrites the line; also name "
        "a file with an escape sequence so that `list_files` shows it.",
        "Everything agent-produced is escaped before it reaches a terminal "
        "(`mle_gym.textsafe`): C0 controls but newline and tab, DEL and C1 controls are "
        "shown as `\\x1b`-style escapes in `render()`, in `mle-gym run`'s transcript, in "
        "`log.txt` and in eval reports. Observations and trajectories keep the exact text.",
        both("\\x1b[2J", "\\x1b]52;c;", "\\x1b]8;;", "\\x07", "\\r", "\\x9b", "raw controls: 0"),
        env=_ANSI,
    ),
    Case(
        "terminal-forged-result",
        "terminal",
        "Print lines that imitate the program's own: `Reward: 1.0`, `Grade: gold`, "
        "`=== result ===` with a JSON result, and the transcript's `=== episode over` "
        "line with reward 1; then submit nothing valid.",
        "Every line of agent-produced text is quoted with `| ` in `render()` and in "
        "`mle-gym run`'s transcript, and agent text inside the program's own lines (the "
        "tool and arguments of a step) is escaped onto that line; the real result lines "
        "are the only unquoted ones and are built from numbers, not agent text.",
        both(
            "| Reward: 1.0",
            "| Grade: gold",
            "| === result ===",
            "=== episode over: terminated · reward 0 ·",
            '"reward": 0.0',
            "unquoted forged lines: 0",
        ),
        env=_ANSI,
    ),
    Case(
        "terminal-bidi",
        "terminal",
        "Print text with Unicode bidi overrides and isolates (U+202E, U+2066-U+2069, "
        "U+200F) and zero-width characters, in the output, in a file name and in a "
        "tool call's arguments, to make a line read differently than it is.",
        "Bidi controls and invisible characters are escaped (`\\u202e`) wherever "
        "agent-produced text is displayed, the step headings included.",
        both("\\u202e", "\\u2066", "\\u200f", "\\u200b", "raw controls: 0"),
        env=_ANSI,
    ),
)
