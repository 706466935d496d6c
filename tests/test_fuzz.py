"""Property-based fuzzing of the two surfaces agents control: ``step()`` and the grader.

* ``step()`` gets arbitrary actions in every accepted form (tool dicts, OpenAI
  function and tool calls, assistant messages, JSON strings, Hermes
  ``<tool_call>`` text) and plain garbage (nested containers, wrong types,
  bytes, huge numbers and strings, lone surrogates, unknown tools, wrong
  argument names and types). It must always return a well-typed 5-tuple
  without an internal tool failure, keep chat messages that can be sent as
  UTF-8 JSON, write a trajectory whose every line parses, and stay usable.
  Runs on both sandbox backends (fewer examples on docker, whose steps are
  slower). Shell commands and Python code are drawn from harmless forms.
* The grader gets a valid replica submission (spaceship-titanic: binary
  accuracy; random-acts-of-pizza: probability AUC) with arbitrary corruptions
  (rows/columns dropped, duplicated, reordered; ids changed; NaN/inf/huge
  values; quoting; NUL bytes; BOMs; invalid UTF-8; truncation; empty and very
  wide files; CRLF mixes). It must never raise; an invalid verdict carries a
  message; a valid verdict has the score an independent computation (csv
  module + plain Python / scikit-learn) gives; the agent-facing format check
  agrees with the grader; corruptions that keep a file valid (reordering,
  respelling, quoting, BOM, line endings) are accepted and sure breakages are
  rejected. These verdicts are strict grading's (``grading="strict"``); the default
  (MLE-bench's verdict, read by pandas, which rejects some respellings) must never raise
  on the same files either.

Hypothesis runs derandomized (fixed examples, no example database), so CI is
reproducible.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mle_gym.families.mlebench import prepare as sources
from mle_gym.families.mlebench.format_check import FormatChecker
from mle_gym.families.mlebench.grading import grade_submission
from mle_gym.grading.errors import InvalidSubmission
from mle_gym.tasks import TaskSpec, get_task
from mle_gym.trajectory import read_trajectory

CI_SETTINGS: dict[str, Any] = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "print_blob": True,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
        HealthCheck.filter_too_much,
    ],
}
ENV_EXAMPLES = {"local": 2000, "docker": 600}
GRADER_EXAMPLES = 400

TOOLS = (
    "list_files",
    "read_file",
    "write_file",
    "edit_file",
    "execute",
    "python",
    "validate_submission",
    "submit",
)

# -- strategies: text and JSON-ish values ---------------------------------------------------------

surrogates = st.characters(categories=["Cs"])
any_text = st.one_of(
    st.text(max_size=40),
    st.text(st.one_of(st.characters(), surrogates), max_size=40),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "\ud800",
            "a\udc80b",
            "\ud83d\ude00",
            "\u202e\u0000\ufeff",
            "<tool_call>",
            "</tool_call>",
            '{"tool": "submit"}',
            "null",
            "[]",
            "NaN",
            "1e999",
            "9" * 5000,
            "../" * 50,
            "/workspace/../etc/passwd",
        ]
    ),
)
huge_text = st.builds(
    lambda ch, n: ch * n,
    st.sampled_from(["x", "é", "\n", "{", "\ud800", "<tool_call>"]),
    st.integers(100_000, 1_200_000),
)
numbers = st.one_of(
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, -1, 2**63, -(2**63) - 1, 10**30, 10**4000]),
    st.floats(allow_nan=True, allow_infinity=True),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, any_text, st.binary(max_size=20))
json_like = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(any_text, st.integers(), st.none()), inner, max_size=4),
    ),
    max_leaves=12,
)


def _deep(depth: int, leaf: Any) -> Any:
    value = leaf
    for i in range(depth):
        value = {"a": value} if i % 2 else [value]
    return value


# -- strategies: tool calls ---------------------------------------------------------------------

paths = st.one_of(
    st.sampled_from(
        [
            ".",
            "data",
            "data/train.csv",
            "data/sample_submission.csv",
            "data/../data/test.csv",
            "submission.csv",
            "notes/fuzz.txt",
            "/workspace",
            "/workspace/data",
            "/etc/passwd",
            "/",
            "..",
            "../../..",
            "/proc/self/environ",
            "data/new.txt",
        ]
    ),
    any_text,
)
SAFE_COMMANDS = [
    "true",
    "false",
    "echo hi",
    "ls -la",
    "head -n 2 data/train.csv",
    "cat nope.txt",
    "exit 3",
    "printf '\\377\\376\\000bytes'",
    "sleep 0.1",
    "cat data/sample_submission.csv > submission.csv",
    "python -c 'print(1)'",
    "echo $((1/0))",
]
SAFE_CODE = [
    "1 + 1",
    "x = 5",
    "print(x)",
    "import os; os.getcwd()",
    "raise ValueError('boom')",
    "def f(:",
    "print('\\u00e9' * 3)",
    "import sys; sys.stdout.write('no newline')",
    "len(open('data/train.csv').read())",
]
commands = st.one_of(
    st.sampled_from(SAFE_COMMANDS),
    any_text.map(lambda t: "printf '%s' " + shlex.quote(t)),
    huge_text.map(lambda t: "printf '%s' " + shlex.quote(t) + " | wc -c"),
    st.sampled_from(["", "   ", "echo a\x00b", "printf '%s' " + "y" * 99_000 + " | wc -c"]),
)
codes = st.one_of(
    st.sampled_from(SAFE_CODE),
    any_text.map(lambda t: f"print({t!r})"),
    huge_text.map(lambda t: f"len({t!r})"),
    st.sampled_from(["", "\x00", "'\ud800'"]),
)
timeouts = st.one_of(st.none(), numbers, st.sampled_from(["2", "abc", "nan", "inf", True]))
lines = st.one_of(st.none(), numbers, st.sampled_from(["3", "-1", "x"]))


def _args_for(tool: str) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments of the right names (often of the right types) for ``tool``."""
    opt = st.fixed_dictionaries
    table: dict[str, st.SearchStrategy[dict[str, Any]]] = {
        "list_files": opt({}, optional={"path": paths, "depth": lines}),
        "read_file": opt({"path": paths}, optional={"start_line": lines, "end_line": lines}),
        "write_file": opt({"path": paths, "content": st.one_of(any_text, huge_text)}),
        "edit_file": opt(
            {"path": paths, "old": any_text, "new": any_text},
            optional={"replace_all": st.one_of(st.booleans(), scalars)},
        ),
        "execute": opt({"command": commands}, optional={"timeout": timeouts}),
        "python": opt({"code": codes}, optional={"timeout": timeouts}),
        "validate_submission": opt({}, optional={"path": st.one_of(st.none(), paths)}),
        "submit": st.just({}),
    }
    return table[tool]


def _safe_garbage_args(tool: str) -> st.SearchStrategy[Any]:
    """Ill-formed arguments; for execute/python never a runnable command or code."""
    garbage = st.one_of(
        json_like,
        st.dictionaries(st.sampled_from(["path", "depth", "content", "x", ""]), json_like),
        any_text,
    )
    if tool in ("execute", "python"):
        key = "command" if tool == "execute" else "code"
        return garbage.filter(lambda a: not (isinstance(a, dict) and isinstance(a.get(key), str)))
    return garbage


@st.composite
def tool_calls(draw: st.DrawFn) -> tuple[str, Any]:
    """(tool name, arguments) with known, unknown or ill-typed names and arguments."""
    # (weighted choices list the common case first: Hypothesis favours low indices)
    if draw(st.sampled_from([True, True, True, True, False])):
        name = draw(st.sampled_from(TOOLS))
    else:
        name = draw(st.one_of(st.sampled_from(["rm", " ", "", "List_Files"]), any_text))
    if name in TOOLS and draw(st.sampled_from([True, True, True, True, False])):
        args: Any = draw(_args_for(name))
    else:
        args = draw(_safe_garbage_args(name if name in TOOLS else "execute"))
    return name, args


def _arguments_text(draw: st.DrawFn, args: Any) -> Any:
    """Arguments as an OpenAI ``arguments`` value: JSON text, broken text or the object."""
    choice = draw(st.sampled_from([0, 0, 1, 1, 1, 2, 3]))
    if choice == 0:
        return args
    try:
        text = json.dumps(args, ensure_ascii=draw(st.booleans()))
    except (TypeError, ValueError):
        text = repr(args)
    if choice == 1:
        return text
    if choice == 2:
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    return draw(any_text)


@st.composite
def actions(draw: st.DrawFn) -> Any:
    """An action in any accepted form, or garbage."""
    name, args = draw(tool_calls())
    # well-formed calls (forms 0-6) most of the time, plain garbage (7-9) sometimes
    form = draw(st.sampled_from([0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 6, 7, 8, 9]))
    if form == 0:
        return {"tool": name, "args": args}
    if form == 1:
        return {"name": name, "arguments": _arguments_text(draw, args)}
    if form == 2:
        return {
            "id": draw(st.one_of(st.text(max_size=8), scalars)),
            "type": "function",
            "function": {"name": name, "arguments": _arguments_text(draw, args)},
        }
    if form == 3:
        calls = [
            {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": args}}
            for i in range(draw(st.integers(0, 2)))
        ]
        return {
            "role": draw(st.sampled_from(["assistant", "user", None])),
            "content": draw(st.one_of(st.none(), any_text)),
            "tool_calls": draw(st.one_of(st.just(calls), json_like)),
        }
    if form in (4, 5):
        inner = {"tool": name, "args": args} if form == 4 else {"name": name, "arguments": args}
        try:
            text = json.dumps(inner, ensure_ascii=draw(st.booleans()))
        except (TypeError, ValueError):
            text = repr(inner)
        return draw(st.sampled_from([text, text, f"```json\n{text}\n```", text[:-1], " " + text]))
    if form == 6:
        try:
            body = json.dumps({"name": name, "arguments": args})
        except (TypeError, ValueError):
            body = draw(any_text)
        close = draw(st.sampled_from(["</tool_call>", "", "</tool_call><tool_call>{}</tool_call>"]))
        prose = st.one_of(st.just(""), st.just("Let me look.\n"), any_text)
        return f"{draw(prose)}<tool_call>{body}{close}{draw(prose)}"
    if form == 7:
        return draw(st.one_of(json_like, huge_text, st.binary(max_size=64)))
    if form == 8:
        return {draw(st.sampled_from(["tool", "name", "function", "tool_calls"])): draw(json_like)}
    return draw(any_text)


# -- env-level property ---------------------------------------------------------------------------


def checked_step(env: Any, action: Any) -> tuple[str, dict[str, Any]]:
    """One step with every property checked; resets the env when the episode ends."""
    out = env.step(action)
    assert isinstance(out, tuple) and len(out) == 5
    obs, reward, terminated, truncated, info = out
    assert isinstance(obs, str) and env.observation_space.contains(obs), len(obs)
    assert isinstance(reward, float) and math.isfinite(reward)
    assert type(terminated) is bool and type(truncated) is bool
    assert isinstance(info, dict) and isinstance(info.get("ok"), bool)
    assert not info.get("tool_meta", {}).get("internal_error"), obs[:500]
    # The turn must be sendable to a chat API as UTF-8 JSON.
    json.dumps(info["messages"], ensure_ascii=False, allow_nan=False).encode("utf-8")
    if terminated or truncated:
        env.reset()
    return obs, info


def alive(env: Any) -> None:
    """The env still answers a file tool and a sandboxed command."""
    obs, info = checked_step(env, {"tool": "list_files", "args": {"path": "data"}})
    assert info["ok"] and "train.csv" in obs, obs
    obs, info = checked_step(env, {"tool": "execute", "args": {"command": "echo still-alive"}})
    assert info["ok"] and "still-alive" in obs, obs


def _check_jsonl(path: Path, at_least: int) -> list[dict[str, Any]]:
    """Every line of the trajectory is one complete, strict JSON object, whichever way the
    lines are split (str.splitlines also splits on U+2028, U+0085...)."""
    raw = path.read_bytes().decode("utf-8")  # strict: valid UTF-8
    assert raw.endswith("\n")
    lines = raw[:-1].split("\n")
    assert raw.splitlines() == lines
    records = [json.loads(line, parse_constant=_reject_constant) for line in lines]
    assert records == read_trajectory(path)
    assert len(records) >= at_least and all(isinstance(r, dict) for r in records)
    assert {r["type"] for r in records} == {"reset", "step"}
    return records


def _reject_constant(name: str) -> Any:
    raise AssertionError(f"non-standard JSON constant {name} in the trajectory")


NASTY_ACTIONS: list[Any] = [
    {(1, 2): "tuple key"},
    {1: "int key", "a": 2},
    {"tool": "list_files", "args": {"path": "."}, "extra": {(1,): b"\xff"}},
    "\ud800",
    "<tool_call>\ud800</tool_call>",
    {"tool": "read_file", "args": {"path": "\ud800"}},
    {"tool": "read_file", "args": {"path": "a\udc80"}},
    {"tool": "list_files", "args": {"path": "\ud83d\ude00"}},
    {"tool": "write_file", "args": {"path": "x\ud800.txt", "content": "hi"}},
    {"tool": "write_file", "args": {"path": "x.txt", "content": "\udc80"}},
    {"tool": "edit_file", "args": {"path": "x.txt", "old": "\ud800", "new": "b"}},
    {"tool": "validate_submission", "args": {"path": "\ud800"}},
    {"tool": "execute", "args": {"command": "echo \ud800"}},
    {"tool": "execute", "args": {"command": "echo \udc80"}},
    {"tool": "python", "args": {"code": "print('\ud800')"}},
    {"tool": "\ud800"},
    {"tool": "read_file", "args": {"path": 10**5000}},
    {"tool": "read_file", "args": {"path": "data/train.csv", "start_line": 10**5000}},
    {"tool": "list_files", "args": {"depth": -(10**5000)}},
    {"tool": "execute", "args": {"command": "true", "timeout": 10**5000}},
    '{"tool": "list_files", "args": {"depth": 1' + "0" * 5000 + "}}",
    {"name": "list_files", "arguments": '{"depth": 1' + "0" * 5000 + "}"},
    '{"tool": "list_files", "args": ' + "[" * 100_000,
    "<tool_call>" + "[" * 100_000 + "</tool_call>",
    _deep(100_000, "leaf"),
    {"tool": "list_files", "args": _deep(100_000, 1)},
    {"role": "assistant", "content": None, "tool_calls": [_deep(50_000, None)]},
    {"tool": "x" * 1_000_000},
    {"name": "y" * 900_000, "arguments": "{}"},
    "z" * 2_000_000,
    {"tool": "list_files", "args": {"path": float("nan")}},
    {"tool": "read_file", "args": {"path": "data/train.csv", "end_line": float("inf")}},
    [{"tool": "list_files"}],
    None,
    12,
    float("nan"),
    b"\xff\xfe\x00",
    b'{"tool": "list_files"}',
    object(),
]


@pytest.mark.slow
def test_nasty_actions_regressions(make_env, tmp_path: Path) -> None:
    """Actions that made step() raise or fail internally (with a few neighbours): each is
    now an error observation, and the turn and the trajectory line are valid UTF-8 JSON."""
    traj = tmp_path / "nasty.jsonl"
    env = make_env(exec_timeout_s=5, max_episode_steps=10_000, trajectory_path=traj)
    env.reset(seed=0)
    for action in NASTY_ACTIONS:
        checked_step(env, action)
    alive(env)
    env.close()
    assert len(_check_jsonl(traj, at_least=0)) == 1 + len(NASTY_ACTIONS) + 2


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (
            {"tool": "read_file", "args": {"path": "a\udc80"}},
            "argument 'path' is not valid Unicode",
        ),
        ({"tool": "python", "args": {"code": "'\ud800'"}}, "argument 'code' is not valid Unicode"),
        ({"tool": "read_file", "args": {"path": "x", "start_line": 2**64}}, "out of range"),
        ({"tool": "execute", "args": {"command": "true", "timeout": 10**400}}, "must be number"),
        ({"name": "list_files", "arguments": '{"depth": 1' + "0" * 5000 + "}"}, "not usable JSON"),
        ('{"tool": "list_files", "args": ' + "[" * 100_000, "nested too deeply"),
        ({"tool": "list_files", "args": _deep(10_000, 1)}, "unexpected argument(s) 'a'"),
        ({1: "x", "b": 2}, "object has no 'tool' or 'name' field (keys: ['1', 'b'])"),
        ({"tool": "execute", "args": {"command": "echo " + "y" * 100_000}}, "the limit is 100,000"),
        ("<tool_call>" + " " * 10_000, "without a closing </tool_call>"),
        ("```" + " " * 10_000 + "x", "no tool call found"),
        ("x" * 1_000_001, "the action is longer than 1,000,000 characters"),
        (
            {"role": "assistant", "content": "<tool_call>" * 100_000},
            "message content is longer than 1,000,000 characters",
        ),
        (
            {"name": "list_files", "arguments": " " * 1_000_001},
            "JSON string of tool arguments is longer than",
        ),
    ],
    ids=[
        "surrogate-path",
        "surrogate-code",
        "int64",
        "huge-float",
        "long-int-json",
        "deep-json",
        "deep-args",
        "int-key",
        "long-command",
        "tool-call-spaces",
        "fence-spaces",
        "huge-text",
        "huge-content",
        "huge-arguments-string",
    ],
)
def test_bad_input_gets_a_specific_error(make_env, action: Any, message: str) -> None:
    env = make_env()
    env.reset(seed=0)
    obs, info = checked_step(env, action)
    assert not info["ok"] and message in obs, obs[:300]


def test_unknown_tool_error_is_bounded(make_env) -> None:
    """A megabyte-long tool name is not echoed back in full."""
    env = make_env(max_observation_chars=2000)
    env.reset(seed=0)
    obs, info = checked_step(env, {"tool": "q" * 1_000_000})
    assert not info["ok"] and obs.startswith("error: unknown tool") and len(obs) < 3000


@pytest.mark.slow
def test_step_never_raises_on_arbitrary_actions(make_env, backend: str, tmp_path: Path) -> None:
    traj = tmp_path / "fuzz.jsonl"
    env = make_env(
        exec_timeout_s=3, max_episode_steps=100_000, memory_mb=1024, trajectory_path=traj
    )
    env.reset(seed=0)
    count = {"examples": 0}

    @settings(max_examples=ENV_EXAMPLES[backend], **CI_SETTINGS)
    @given(action=actions())
    @example(action={"tool": "submit", "args": {}})
    @example(action='<tool_call>{"name": "python", "arguments": {"code": "1/0"}}</tool_call>')
    def prop(action: Any) -> None:
        checked_step(env, action)
        count["examples"] += 1
        if count["examples"] % 50 == 0:
            alive(env)

    prop()
    alive(env)
    env.close()
    _check_jsonl(traj, at_least=count["examples"])


# -- the MLAgentBench text action format ----------------------------------------------------------

MLAB_SAFE_PATHS = [".", "data", "hello.py", "train.py", "notes.txt", "new/dir/f.txt", "../..", "/"]
MLAB_SAFE_CODE = ["1 + 1", "print('hi')", "import os; os.listdir('.')", "raise ValueError('x')"]


@st.composite
def mlab_actions(draw: st.DrawFn) -> Any:
    """MLAgentBench ``Action:``/``Action Input:`` text (names and argument names from the
    toolset's own table), broken variants of it, and every other action form. Scripts
    that can run are only ``hello.py`` (a print) or missing files; REPL code is harmless."""
    from mle_gym.families.mlagentbench.toolset import ACTIONS

    usage = {name: [p.name for p in spec.params] for name, spec in ACTIONS}
    usage.pop("Final Answer")  # ends the episode with a full evaluation: too slow here
    name = draw(st.sampled_from([*usage, "Bogus", "list_files", "PYTHON repl"]))
    strs = st.one_of(st.sampled_from(MLAB_SAFE_PATHS), any_text)
    if name in usage and draw(st.sampled_from([True, True, True, False])):
        args: dict[str, Any] = {k: draw(st.one_of(strs, strs, numbers)) for k in usage[name]}
    else:
        args = draw(st.dictionaries(st.sampled_from(["file_name", "dir_path", "x"]), json_like))
    if "script_name" in args and name != "Inspect Script Lines":
        args["script_name"] = draw(st.sampled_from(["hello.py", "nope.py", "data", "../x.py"]))
    if "command" in args:
        args["command"] = draw(st.sampled_from(MLAB_SAFE_CODE))
    try:
        body = json.dumps(args, ensure_ascii=draw(st.booleans()))
    except (TypeError, ValueError):
        body = repr(args)
    form = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4, 5]))
    if form == 0:
        return f"Action: {name}\nAction Input: {body}"
    if form == 1:
        return (
            f"Thought: hmm\n**Action:** {name}\nAction Input: ```json\n{body}\n```\nObservation: x"
        )
    if form == 2:
        return f"Action: {name}\nAction Input: {body[: draw(st.integers(0, len(body)))]}"
    if form == 3:
        return f"Action: {name}\nAction Input: {draw(any_text)}\nAction: {name}"
    if form == 4:
        return f"Action: {name}\nAction Input: {draw(any_text)}"
    other = draw(actions())  # mle_gym's own forms are read too, with either tool spelling
    tool_names = ("execute", "python", "submit", "Execute_Script", "Python_REPL", "Final_Answer")
    if isinstance(other, dict) and other.get("tool") in tool_names:
        return {"tool": "list_files", "args": {}}
    return other if not isinstance(other, dict) or "tool_calls" not in other else body


@pytest.mark.slow
@pytest.mark.only_backend("local")
def test_mlagentbench_text_actions_never_break_step(backend: str) -> None:
    """The same properties for the MLAgentBench toolset's text format (an offline task)."""
    import gymnasium as gym

    env = gym.make(
        "MLAgentBench/house-price-v0",
        toolset="mlagentbench",
        sandbox=backend,
        max_episode_steps=100_000,
    )
    try:
        env.reset(seed=0)
        obs, info = checked_step(
            env,
            'Action: Write File\nAction Input: {"file_name": "hello.py", "content": "print(1)"}',
        )
        assert info["ok"], obs

        @settings(max_examples=400, **CI_SETTINGS)
        @given(action=mlab_actions())
        def prop(action: Any) -> None:
            checked_step(env, action)

        prop()
        obs, info = checked_step(
            env, 'Action: Execute Script\nAction Input: {"script_name": "hello.py"}'
        )
        assert info["ok"] and obs.rstrip().endswith("1"), obs
    finally:
        env.close()


# -- grader fuzz ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A task with replica answers and the ingredients of a valid submission."""

    task: TaskSpec
    answers: Path
    sample: Path
    id_column: str
    target: str
    ids: tuple[str, ...]
    truth: dict[str, float]
    kind: str

    def valid_value(self, rng: random.Random) -> str:
        """A valid prediction, in one of its accepted spellings."""
        if self.kind == "binary":
            return rng.choice(["True", "False", "true", "FALSE", "1", "0", "1.0", " 0.0 "])
        spelled = ["0", "1", "0.5", " 0.25", "1e-3", "1.0", "0.999999", "5e-324"]
        return rng.choice(spelled) if rng.random() < 0.2 else repr(rng.random())


def _case(task_id: str) -> Case:
    task = get_task(task_id)
    data = sources.resolve(task, "replica", 0)
    spec = task.submission
    answers = data.private / task.answers_file
    with open(answers, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    target = spec.target_columns[0]
    truth = {
        r[spec.id_column]: float(r[target] in ("True", "1", "1.0"))
        if spec.target_kind == "binary"
        # probability tasks: the answers are 0/1 labels
        else float(r[target])
        for r in rows
    }
    return Case(
        task=task,
        answers=answers,
        sample=data.public / task.sample_submission_file,
        id_column=spec.id_column,
        target=target,
        ids=tuple(truth),
        truth=truth,
        kind=spec.target_kind,
    )


@pytest.fixture(scope="module")
def cases() -> dict[str, Case]:
    return {t: _case(t) for t in ("spaceship-titanic", "random-acts-of-pizza")}


VALID, INVALID, UNKNOWN = "valid", "invalid", "unknown"


@dataclass
class Corrupted:
    data: bytes
    expect: str  # VALID or INVALID when the corruptions decide it, else UNKNOWN
    steps: list[str]


def _table_verdict(case: Case, header: list[str], rows: list[list[str]], odd: bool) -> str:
    """Whether a table (cells as the parser will read them) is a valid submission."""
    if odd:
        return UNKNOWN
    if sorted(header) != sorted([case.id_column, case.target]):
        return INVALID
    if any(len(r) != len(header) for r in rows):
        return INVALID
    i = header.index(case.id_column)
    ids = [r[i] for r in rows]
    return (
        VALID
        if len(ids) == len(set(ids)) == len(case.ids) and set(ids) == set(case.ids)
        else INVALID
    )


@st.composite
def corrupted(draw: st.DrawFn, case: Case) -> Corrupted:
    """A valid submission of ``case`` put through random corruptions.

    The table is edited as the values a CSV parser reads back (quoting is added when
    writing it), so its verdict is known unless an ambiguous edit was made; byte-level
    damage then makes it surely invalid, or unknown (truncation, odd line breaks).
    """
    rng = random.Random(draw(st.integers(0, 2**32)))
    header = [case.id_column, case.target]
    rows = [[i, case.valid_value(rng)] for i in case.ids]
    steps: list[str] = []
    odd = False

    for op in draw(st.lists(st.integers(0, 12), max_size=4)):
        n = len(rows)
        width = len(header)
        if op == 0:
            rng.shuffle(rows)
            steps.append("shuffle rows")
        elif op == 1:
            header, rows = header[::-1], [r[::-1] for r in rows]
            steps.append("swap columns")
        elif op == 2 and n:
            k = draw(st.integers(1, min(n, 20)))
            at = draw(st.integers(0, n - k))
            rows = rows[:at] + rows[at + k :]
            steps.append(f"drop {k} rows")
        elif op == 3 and n:
            rows.append(list(rows[draw(st.integers(0, n - 1))]))
            steps.append("duplicate a row")
        elif op == 4 and width > 1:
            j = draw(st.integers(0, width - 1))
            header = [h for i, h in enumerate(header) if i != j]
            rows = [[c for i, c in enumerate(r) if i != j] for r in rows]
            steps.append("drop a column")
        elif op == 5:
            header = [*header, draw(st.sampled_from(["extra", "", case.target.lower()]))]
            rows = [[*r, "0"] for r in rows]
            steps.append("add a column")
        elif op == 6 and n and case.id_column in header:
            i = draw(st.integers(0, n - 1))
            col = header.index(case.id_column)
            mangle = draw(st.sampled_from([" {}", "{}.0", "{}x", "", "\ufeff{}", "{}\u00a0"]))
            rows[i] = list(rows[i])
            rows[i][col] = mangle.format(rows[i][col])
            steps.append("mangle an id")
        elif op == 7 and n:
            bad = st.sampled_from(
                ["", "nan", "NaN", "inf", "-inf", "1e999", "-1e-400", "2", "-0.1", "yes", "None"]
            )
            values = st.one_of(bad, st.just("9" * 5000), st.text(max_size=6))
            for _ in range(draw(st.integers(1, 3))):
                i = draw(st.integers(0, n - 1))
                rows[i] = [*rows[i][:-1], draw(values)]
            odd = True
            steps.append("odd values")
        elif op == 8 and n:
            i = draw(st.integers(0, n - 1))
            extra = draw(st.sampled_from(['"', '"x"', ",", "\n", '""']))
            rows[i] = [*rows[i][:-1], rows[i][-1] + extra]
            odd = True
            steps.append("stray quote or separator")
        elif op == 9 and n:
            i = draw(st.integers(0, n - 1))
            rows[i] = [*rows[i], *([""] * draw(st.integers(1, 3000)))]
            steps.append("very wide row")
        elif op == 10:
            header = [h.upper() if draw(st.booleans()) else f" {h}" for h in header]
            steps.append("misspell header")
        elif op == 11 and n and header == [case.id_column, case.target]:
            i = draw(st.integers(0, n - 1))
            rows[i] = [rows[i][0], case.valid_value(rng)]
            steps.append("new prediction")
        elif op == 12 and header == [case.id_column, case.target]:
            rows = [[r[0], case.valid_value(rng)] for r in rows]
            steps.append("respell predictions")
    expect = _table_verdict(case, header, rows, odd)

    # serialise: quoting, line endings, blank lines
    quoted = set(draw(st.lists(st.integers(0, len(rows)), max_size=6)))
    lines_out = []
    for n_row, r in enumerate([header, *rows]):
        if n_row in quoted and not odd:
            r = ['"' + c.replace('"', '""') + '"' for c in r]
        lines_out.append(",".join(r))
    if quoted:
        steps.append("quoted rows")
    crlf = draw(st.sampled_from([0.0, 0.5, 1.0]))
    endings = ["\r\n" if rng.random() < crlf else "\n" for _ in lines_out]
    text = "".join(line + end for line, end in zip(lines_out, endings, strict=True))
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    if draw(st.integers(0, 4)) == 0:
        at = text.find("\n", draw(st.integers(0, max(0, len(text) - 1))))
        if at >= 0 and not odd:
            text = text[: at + 1] + "\n" + text[at + 1 :]
            steps.append("blank line")
    data = text.encode("utf-8")

    for op in draw(st.lists(st.integers(0, 8), max_size=2)):
        if op == 0:
            if data.startswith(b"\xef\xbb\xbf"):
                expect = INVALID if expect == INVALID else UNKNOWN  # a BOM after the BOM
            data = b"\xef\xbb\xbf" + data
            steps.append("BOM")
        elif op == 1:
            at = draw(st.integers(0, len(data)))
            bad = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"]))
            data = data[:at] + bad + data[at:]
            steps.append("invalid UTF-8")
            expect = INVALID
        elif op == 2:
            at = draw(st.integers(0, len(data)))
            data = data[:at] + b"\x00" + data[at:]
            steps.append("NUL byte")
            expect = INVALID
        elif op == 3:
            data = data[: draw(st.integers(0, len(data)))]
            steps.append("truncated")
            expect = UNKNOWN  # may cut off earlier damage as well as data
        elif op == 4:
            data = b""
            steps.append("empty")
            expect = INVALID
        elif op == 5:
            data = data.replace(b"\r\n", b"\r")
            steps.append("CR line ends")
            expect = INVALID if expect == INVALID else UNKNOWN
        elif op == 6:
            data = data.replace(b",", b";")
            steps.append("semicolons")
            expect = INVALID
        elif op == 7:
            data = b"   \n\t\n" + data
            steps.append("whitespace lines first")
            expect = INVALID if expect == INVALID else UNKNOWN
        elif op == 8:
            data = data + b"\n" + b",".join([b"9" * 400] * draw(st.integers(2, 400)))
            steps.append("wide trailing garbage")
            expect = INVALID
    return Corrupted(data, expect, steps)


def independent_score(case: Case, data: bytes) -> float:
    """The score computed from scratch with the csv module, plain Python and scikit-learn;
    AssertionError if the file is not a valid submission by the task's rules."""
    from sklearn.metrics import roc_auc_score

    text = data.decode("utf-8").lstrip("\ufeff")  # pandas drops a second BOM too
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    # blank lines (empty or whitespace only) are skipped, as the reader's contract says
    rows = [r for r in reader if r and not (len(r) == 1 and not r[0].strip())]
    header, body = rows[0], rows[1:]
    assert sorted(header) == sorted([case.id_column, case.target]), header
    assert all(len(r) == 2 for r in body)
    i_id, i_target = header.index(case.id_column), header.index(case.target)
    preds = {r[i_id]: r[i_target].strip() for r in body}
    assert len(body) == len(preds) == len(case.ids) and set(preds) == set(case.ids)
    if case.kind == "binary":
        spelled = {"true": 1.0, "1": 1.0, "1.0": 1.0, "false": 0.0, "0": 0.0, "0.0": 0.0}
        assert all(p.lower() in spelled for p in preds.values())
        hits = [spelled[preds[i].lower()] == case.truth[i] for i in case.ids]
        return sum(hits) / len(hits)
    scores = [float(preds[i]) for i in case.ids]
    assert all(math.isfinite(s) and 0.0 <= s <= 1.0 for s in scores)
    return float(roc_auc_score([case.truth[i] for i in case.ids], scores))


def _check_grader(case: Case, sub: Corrupted) -> None:
    with tempfile.TemporaryDirectory(prefix="mle_gym-fuzz-") as tmp:
        path = Path(tmp) / "submission.csv"
        path.write_bytes(sub.data)
        report = grade_submission(
            case.task, path, answers=case.answers, data_source="replica", grading="strict"
        )
        # MLE-bench's verdict may differ (it reads with pandas), but never raises
        default = grade_submission(case.task, path, answers=case.answers, data_source="replica")
        assert default.grading == "mlebench" and (default.valid or default.message.strip())
        try:
            verdict = FormatChecker(case.task, case.sample).check(path, "submission.csv")
            format_ok = True
        except InvalidSubmission as exc:
            verdict, format_ok = str(exc), False
    assert isinstance(verdict, str) and verdict
    assert format_ok == report.valid, (sub.steps, verdict, report.message)
    if not report.valid:
        assert report.score is None and report.message.strip(), sub.steps
        assert sub.expect != VALID, (sub.steps, report.message)
        return
    assert sub.expect != INVALID, sub.steps
    expected = independent_score(case, sub.data)
    assert report.score is not None and abs(report.score - expected) <= 5e-6, (
        sub.steps,
        report.score,
        expected,
    )


@pytest.mark.parametrize("task_id", ["spaceship-titanic", "random-acts-of-pizza"])
def test_grader_never_raises_on_corrupted_submissions(cases: dict[str, Case], task_id: str) -> None:
    case = cases[task_id]

    @settings(max_examples=GRADER_EXAMPLES, **CI_SETTINGS)
    @given(sub=corrupted(case))
    def prop(sub: Corrupted) -> None:
        _check_grader(case, sub)

    prop()


def test_grader_corruptions_reach_both_verdicts(cases: dict[str, Case]) -> None:
    """The corruption strategy is not vacuous: it yields valid and invalid files alike."""
    case = cases["spaceship-titanic"]
    seen: set[bool] = set()

    @settings(max_examples=60, **CI_SETTINGS)
    @given(sub=corrupted(case))
    def prop(sub: Corrupted) -> None:
        with tempfile.TemporaryDirectory(prefix="mle_gym-fuzz-") as tmp:
            path = Path(tmp) / "submission.csv"
            path.write_bytes(sub.data)
            seen.add(
                grade_submission(
                    case.task, path, answers=case.answers, data_source="replica", grading="strict"
                ).valid
            )

    prop()
    assert seen == {True, False}
