"""Action parsing and tool-argument checking: every accepted form, and malformed ones."""

from __future__ import annotations

import json

import pytest

from mle_gym.tools.builtin import BUILTIN_TOOLS, execute, read_file
from mle_gym.tools.parsing import ActionError, ToolCall, parse_action
from mle_gym.tools.spec import ToolArgError

EXPECTED = ToolCall("execute", {"command": "ls -la"})


@pytest.mark.parametrize(
    "action",
    [
        {"tool": "execute", "args": {"command": "ls -la"}},
        {"tool": "execute", "args": '{"command": "ls -la"}'},
        {"tool": "execute", "arguments": {"command": "ls -la"}},
        {"name": "execute", "arguments": '{"command": "ls -la"}'},
        {"name": "execute", "arguments": {"command": "ls -la"}},
        {
            "id": "c1",
            "type": "function",
            "function": {"name": "execute", "arguments": '{"command": "ls -la"}'},
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "execute", "arguments": '{"command": "ls -la"}'},
                }
            ],
        },
        {
            "role": "assistant",
            "content": 'ok <tool_call>{"name": "execute", "arguments": {"command": "ls -la"}}'
            "</tool_call>",
        },
        json.dumps({"tool": "execute", "args": {"command": "ls -la"}}),
        json.dumps({"name": "execute", "arguments": json.dumps({"command": "ls -la"})}),
        "Let me look.\n<tool_call>\n"
        '{"name": "execute", "arguments": {"command": "ls -la"}}\n</tool_call>',
        '<tool_call>{"name": "execute", "arguments": "{\\"command\\": \\"ls -la\\"}"}</tool_call>',
        '```json\n{"tool": "execute", "args": {"command": "ls -la"}}\n```',
        b'{"tool": "execute", "args": {"command": "ls -la"}}',
    ],
)
def test_every_action_form_parses_to_the_same_call(action: object) -> None:
    call = parse_action(action)
    assert (call.name, call.args) == (EXPECTED.name, EXPECTED.args)


def test_call_id_is_kept() -> None:
    call = parse_action(
        {"id": "call_9", "type": "function", "function": {"name": "submit", "arguments": "{}"}}
    )
    assert call.call_id == "call_9"


@pytest.mark.parametrize(
    ("action", "fragment"),
    [
        (None, "must be a dict or a string"),
        (42, "must be a dict or a string"),
        ([1, 2], "must be a dict or a string"),
        ("", "no tool call found"),
        ("just chatting, no call", "no tool call found"),
        ("{not json", "not valid JSON"),
        ("<tool_call>{bad}</tool_call>", "not valid JSON"),
        ('<tool_call>{"name": "x"}', "without a closing"),
        ("<tool_call>[1,2]</tool_call>", "must be a JSON object"),
        ({"foo": 1}, "no 'tool' or 'name' field"),
        ({"tool": ""}, "non-empty string"),
        ({"tool": 5}, "non-empty string"),
        ({"tool": "execute", "args": "not json"}, "not valid JSON"),
        ({"tool": "execute", "args": [1]}, "must be a JSON object"),
        ({"role": "assistant", "content": None, "tool_calls": []}, "no tool call"),
        ({"role": "assistant", "tool_calls": "x"}, "must be a list"),
        ({"role": "assistant", "tool_calls": [1]}, "must be an object"),
        (
            {
                "role": "assistant",
                "tool_calls": [
                    {"function": {"name": "a", "arguments": "{}"}},
                    {"function": {"name": "b", "arguments": "{}"}},
                ],
            },
            "one tool call per step",
        ),
        ("<tool_call>{}</tool_call><tool_call>{}</tool_call>", "one tool call per step"),
        (b"\xff\xfe", "not valid UTF-8"),
        ("x" * 1_000_001, "longer than"),
    ],
)
def test_malformed_actions_raise_action_error(action: object, fragment: str) -> None:
    with pytest.raises(ActionError, match=fragment):
        parse_action(action)


def test_deeply_nested_action_is_an_action_error() -> None:
    nested: dict = {}
    cur = nested
    for _ in range(5000):
        cur["tool_calls"] = [{}]
        cur = cur["tool_calls"][0]
    with pytest.raises(ActionError):
        parse_action(nested)


def test_schemas_are_openai_function_format_with_flat_parameters() -> None:
    names = [t.name for t in BUILTIN_TOOLS]
    assert names == [
        "list_files",
        "read_file",
        "write_file",
        "edit_file",
        "execute",
        "python",
        "validate_submission",
        "submit",
    ]
    for t in BUILTIN_TOOLS:
        schema = t.openai_schema()
        assert schema["type"] == "function"
        fn = schema["function"]
        assert fn["name"] == t.name and fn["description"]
        params = fn["parameters"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        for prop in params["properties"].values():
            assert prop["type"] in ("string", "integer", "number", "boolean")
            assert prop["description"]
        json.dumps(schema)
    rf = read_file.openai_schema()["function"]["parameters"]
    assert rf["required"] == ["path"]
    assert set(rf["properties"]) == {"path", "start_line", "end_line"}


def test_argument_checking() -> None:
    assert read_file.check_args({"path": "a", "start_line": "3"}) == {
        "path": "a",
        "start_line": 3,
        "end_line": None,
    }
    assert read_file.check_args({"path": "a", "end_line": 4.0})["end_line"] == 4
    assert execute.check_args({"command": "ls", "timeout": 5})["timeout"] == 5.0
    with pytest.raises(ToolArgError, match="missing required argument 'path'"):
        read_file.check_args({})
    with pytest.raises(ToolArgError, match="unexpected argument"):
        read_file.check_args({"path": "a", "lines": 3})
    with pytest.raises(ToolArgError, match="must be integer"):
        read_file.check_args({"path": "a", "start_line": "three"})
    with pytest.raises(ToolArgError, match="must be integer"):
        read_file.check_args({"path": "a", "start_line": True})
    with pytest.raises(ToolArgError, match="must be string"):
        execute.check_args({"command": ["ls"]})
    with pytest.raises(ToolArgError, match="must be number"):
        execute.check_args({"command": "ls", "timeout": float("nan")})


@pytest.mark.slow
def test_edit_file_refuses_a_result_over_the_size_limit_before_building_it(make_env) -> None:
    """Many occurrences times a large replacement: the size is computed first, so the
    host never builds the oversized text; the file is unchanged."""
    env = make_env()
    env.reset(seed=0)
    env.step({"tool": "write_file", "args": {"path": "many.txt", "content": "a" * 100_000}})
    big = "b" * 500_000  # 100,000 x 500 kB = 50 GB if it were built
    obs, *_, info = env.step(
        {
            "tool": "edit_file",
            "args": {"path": "many.txt", "old": "a", "new": big, "replace_all": True},
        }
    )
    assert not info["ok"]
    assert "the result would be 50,000,000,000 bytes (100,000 replacement(s))" in obs
    assert "the file size limit is" in obs
    obs, *_ = env.step({"tool": "read_file", "args": {"path": "many.txt"}})
    assert "100,000 bytes" in obs
    obs, *_, info = env.step(
        {"tool": "edit_file", "args": {"path": "many.txt", "old": "aaaa", "new": "b"}}
    )
    assert not info["ok"] and "occurs 25,000 times" in obs
