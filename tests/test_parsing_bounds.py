"""Reading agent input costs linear time: hostile actions get their error at once.

Each case builds a huge hostile input (sized so that the quadratic or cubic regular
expressions these parsers used before would take minutes or hours) and checks the
result in a child process under a generous time limit: a regression fails the test
instead of hanging the suite. No wall-time figure is asserted; the limit only turns
"never returns" into a failure.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from mle_gym.tools.parsing import MAX_ACTION_CHARS

pytestmark = pytest.mark.slow

LIMIT_S = 60  # generous: every case takes well under a second on a loaded 2-core machine

PRELUDE = textwrap.dedent(
    """
    import json, sys
    from mle_gym.families.mlagentbench.toolset import mlagentbench_toolset
    from mle_gym.families.mlbench import argcheck
    from mle_gym.tools.parsing import MAX_ACTION_CHARS as MAX, ActionError, parse_action

    mlab = mlagentbench_toolset().parse

    def outcome(fn, arg):
        try:
            value = fn(arg)
        except ActionError as exc:
            return {"error": str(exc)}
        if hasattr(value, "name"):
            return {"call": [value.name, value.args]}
        return {"value": repr(value)}
    """
)

# name -> (an expression building the input and calling a parser, expected fragment)
CASES: dict[str, tuple[str, str]] = {
    "tool-call-10k-spaces": (
        'outcome(parse_action, "<tool_call>" + " " * 10_000)',
        "without a closing </tool_call>",
    ),
    "tool-call-1m-spaces": (
        'outcome(parse_action, "<tool_call>" + " " * (MAX - 20) + "x")',
        "without a closing </tool_call>",
    ),
    "many-open-tags": (
        'outcome(parse_action, "<tool_call>" * (MAX // 11))',
        "without a closing </tool_call>",
    ),
    "many-blocks": (
        'outcome(parse_action, "<tool_call>{}</tool_call>" * (MAX // 30))',
        f"got {MAX_ACTION_CHARS // 30} <tool_call> blocks",
    ),
    "fence-spaces": (
        'outcome(parse_action, "```" + " " * (MAX - 10) + "x")',
        "no tool call found",
    ),
    "over-the-limit": ('outcome(parse_action, "x" * (MAX + 1))', "longer than 1,000,000"),
    "bytes-over-the-limit": (
        'outcome(parse_action, b"{" * (4 * MAX + 1))',
        "longer than 4,000,000 bytes",
    ),
    "arguments-string-over-the-limit": (
        'outcome(parse_action, {"name": "execute", "arguments": " " * (MAX + 1)})',
        "JSON string of tool arguments is longer than",
    ),
    "padded-valid-call": (
        'outcome(parse_action, "<tool_call>" + " " * 400_000 + '
        '\'{"name": "execute", "arguments": {"command": "ls"}}\' + "\\n" * 400_000 '
        '+ "</tool_call>")',
        '"call": ["execute", {"command": "ls"}]',
    ),
    "mlab-tool-call-spaces": (
        'outcome(mlab, "<tool_call>" + " " * (MAX - 20))',
        "without a closing </tool_call>",
    ),
    "mlab-action-tabs": ('outcome(mlab, "Action" + "\\t" * (MAX - 10))', "no action found"),
    "mlab-action-lines": (
        'outcome(mlab, "Action: x\\n" * (MAX // 10))',
        f"found {MAX_ACTION_CHARS // 10} 'Action:' lines",
    ),
    "mlab-list-literal": (
        "outcome(mlab, \"Action: List Files\\nAction Input: {'dir_path': [\" "
        '+ "1," * (MAX // 2 - 40) + "1]}x")',
        "too large to be read as a Python literal",
    ),
    "mlab-string-literal": (
        "outcome(mlab, \"Action: List Files\\nAction Input: {'dir_path': '''\" "
        '+ "a\\n" * (MAX // 2 - 40) + "\'\'\'}")',
        '"call": ["List_Files"',
    ),
    "mlab-fence": (
        'outcome(mlab, "Action: List Files\\nAction Input: ```" + "a" * (MAX - 50))',
        "needs to be a valid JSON object",
    ),
    "argcheck-digits": (
        'outcome(lambda t: argcheck.value_found("0.5", t), "--lr " + "1" * 2**20 + "a")',
        "False",
    ),
    "argcheck-script-dots": (
        'outcome(lambda t: argcheck.type_check(t, "Bash Script"), "." * 2**20)',
        "runs no .py or .sh script",
    ),
    "argcheck-script-word": (
        'outcome(lambda t: argcheck.type_check(t, "Bash Script"), "a" * 2**20)',
        "runs no .py or .sh script",
    ),
    "argcheck-python-too-deep": (
        'outcome(lambda t: argcheck.type_check(t, "Python Code"), "1+" * 2**19 + "1")',
        "nested too deeply",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_input_is_read_in_bounded_time(name: str) -> None:
    expression, fragment = CASES[name]
    code = PRELUDE + f"\nprint(json.dumps({expression}))\n"
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=LIMIT_S
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: not read within {LIMIT_S} s (super-linear parsing is back)")
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout.strip().splitlines()[-1]
    assert fragment in out, out[:500]
    json.loads(out)


def test_literal_cost_bounds_the_parser_work() -> None:
    """The cost counts every token Python's tokenizer makes (an upper bound), and text in
    string literals costs one per literal."""
    import io
    import random
    import tokenize

    from mle_gym.families.mlagentbench.textformat import literal_cost

    assert literal_cost("{'a': '" + "x" * 10_000 + "'}") == 6
    assert literal_cost("{'a': '''x\n'y'\n\"\"\"'''}") == 6
    assert literal_cost("{'a': f'{[1, 2, 3]}'}") > 15  # f-strings count whole
    assert literal_cost("# '''\n[1, 2]\n'''") >= len("[1, 2]")  # a comment is no string
    rng = random.Random(7)
    alphabet = ["'", '"', "\\", "\n", "#", "a", ",", " ", "f", "1", "'''", '"""', "["]
    checked = 0
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 20)))
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
        except (tokenize.TokenError, SyntaxError):
            continue
        skip = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
        skip |= {tokenize.ENDMARKER, tokenize.COMMENT}
        real = [t for t in tokens if t.type not in skip]
        assert literal_cost(text, 10**9) >= len(real), text
        checked += 1
    assert checked > 1000


def test_possessive_patterns_match_what_the_backtracking_ones_did() -> None:
    """argcheck's linear number and script patterns find exactly what the old ones found
    (on ASCII digits), checked on random texts."""
    import random
    import re

    from mle_gym.families.mlbench import argcheck

    old_number = re.compile(
        r"(?<![A-Za-z0-9_.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![A-Za-z0-9_])"
    )
    old_script = re.compile(r"[\w./-]+\.(?:py|sh)(?![\w.])")
    rng = random.Random(3)
    alphabet = [*"0123456789.eE-+a _x/", ".py", ".sh", "é"]
    for _ in range(30_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        old = [m.group(0) for m in old_number.finditer(text)]
        assert [m.group(0) for m in argcheck._NUMBER.finditer(text)] == old, text
        assert bool(argcheck._SCRIPT_CALL.search(text)) == bool(old_script.search(text)), text


def _reference_strip_shell_comment(line: str) -> str:
    """The character loop argcheck used before its linear pattern (the reference)."""
    quote: str | None = None
    prev = " "
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                prev = "x"
                continue
            if ch == quote:
                quote = None
        elif ch == "\\":
            i += 2
            prev = "x"
            continue
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (prev.isspace() or prev in ";&|()"):
            return line[:i].rstrip()
        prev = ch
        i += 1
    return line


def test_shell_comment_pattern_matches_the_reference_loop() -> None:
    import random

    from mle_gym.families.mlbench import argcheck

    rng = random.Random(11)
    alphabet = [*"ab #'\"\\;&|() \t", "\u00a0", "é"]
    for _ in range(50_000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert argcheck._strip_shell_comment(line) == _reference_strip_shell_comment(line), line


def test_linear_readers_match_the_old_patterns() -> None:
    """The substring-search readers find what the backtracking patterns found (checked on
    short random texts, where those patterns are fast)."""
    import random
    import re

    from mle_gym.families.mlagentbench.textformat import _strip_fence
    from mle_gym.tools.parsing import _unfence, tool_call_blocks

    old_tag = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
    old_fence = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)
    old_mlab_fence = re.compile(r"^```[a-zA-Z0-9_-]*[ \t]*\n?(.*?)\n?```", re.DOTALL)
    rng = random.Random(5)
    alphabet = ["<tool_call>", "</tool_call>", "```", "`", "json", "a", " ", "\n", "\t", "{"]
    for _ in range(30_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        assert tool_call_blocks(text, most=len(text)) == old_tag.findall(text), text
        stripped = text.strip()
        m = old_fence.match(stripped)
        assert _unfence(stripped) == (m.group(1) if m else stripped), text
        m = old_mlab_fence.match(stripped)
        assert _strip_fence(text) == (m.group(1).strip() if m else stripped), text
