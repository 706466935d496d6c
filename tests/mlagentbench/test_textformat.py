"""MLAgentBench's text action format: accepted variants and clear errors (no sandbox)."""

from __future__ import annotations

import json

import pytest

from mle_gym.families.mlagentbench.toolset import mlagentbench_toolset
from mle_gym.tools.parsing import ActionError

parse = mlagentbench_toolset().parse


def test_plain_action_with_thought_and_hallucinated_observation() -> None:
    text = (
        "Thought: I should look around first.\n"
        "Action: List Files\n"
        'Action Input: {"dir_path": "."}\n'
        "Observation: ```\ntrain.py\n```"
    )
    call = parse(text)
    assert (call.name, call.args) == ("List_Files", {"dir_path": "."})


@pytest.mark.parametrize(
    "text",
    [
        'Action: list files\nAction Input: {"dir_path": "data"}',
        'Action: List_Files\nAction Input: {"dir_path": "data"}',
        'action:   List-Files  \naction input:{"dir_path": "data"}',
        '**Action:** List Files\n**Action Input:** {"dir_path": "data"}',
        'Action:\nList Files\nAction Input: {"dir_path": "data"}',
        'Action: List Files\nAction Input: ```json\n{"dir_path": "data"}\n```',
        "Action: List Files\nAction Input: {'dir_path': 'data'}",
        'Action: List Files\nAction Input: {"dir_path": "data"} and then I will read train.py',
    ],
)
def test_tolerated_variants(text: str) -> None:
    call = parse(text)
    assert (call.name, call.args) == ("List_Files", {"dir_path": "data"})


def test_raw_newlines_inside_json_strings_are_kept() -> None:
    text = (
        'Action: Write File\nAction Input: {"file_name": "a.py", "content": "x = 1\n\tprint(x)\n"}'
    )
    call = parse(text)
    assert call.args == {"file_name": "a.py", "content": "x = 1\n\tprint(x)\n"}


def test_python_literal_fallback_accepts_triple_quotes() -> None:
    text = 'Action: Write File\nAction Input: {"file_name": "a.py", "content": """x = 1\ny = 2"""}'
    assert parse(text).args == {"file_name": "a.py", "content": "x = 1\ny = 2"}


def test_line_numbers_as_strings_or_ints() -> None:
    text = (
        "Action: Inspect Script Lines\nAction Input: "
        '{"script_name": "train.py", "start_line_number": "1", "end_line_number": 20}'
    )
    call = parse(text)
    assert call.name == "Inspect_Script_Lines"
    assert call.args["start_line_number"] == "1" and call.args["end_line_number"] == 20


def test_final_answer_accepts_any_input() -> None:
    assert parse("Action: Final Answer").args == {}
    assert parse("Action: Final Answer\nAction Input: done!").args == {"final_answer": "done!"}
    text = 'Action: Final Answer\nAction Input: {"final_answer": "improved by 20%"}'
    assert parse(text).args == {"final_answer": "improved by 20%"}


def test_other_action_forms_map_to_the_same_tools() -> None:
    assert parse({"tool": "List Files", "args": {"dir_path": "."}}).name == "List_Files"
    assert parse({"name": "Execute_Script", "arguments": '{"script_name": "t.py"}'}).args == {
        "script_name": "t.py"
    }
    block = '<tool_call>{"name": "read file", "arguments": {"file_name": "x"}}</tool_call>'
    assert parse(block).name == "Read_File"
    assert (
        parse(
            json.dumps({"name": "Copy File", "arguments": {"source": "a", "destination": "b"}})
        ).name
        == "Copy_File"
    )


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("I think I am done here.", "no action found"),
        ('Action Input: {"dir_path": "."}', "without an 'Action:' line"),
        ('Action: Fly Away\nAction Input: {"x": 1}', "Invalid action: Fly Away"),
        ("Action: List Files", "missing 'Action Input:'"),
        ('Action: List Files\nAction Input: {"dir_path": .}', "valid JSON object"),
        ('Action: Write File\nAction Input: {"file_name": "a", "content": x}', "double quotes"),
        ("Action: List Files\nAction Input: dir_path = .", "no '{'"),
        ('Action: List Files\nAction Input: {"path": "."}', "missing dir_path; unexpected path"),
        ('Action: Read File\nAction Input: {"file_name": "a", "extra": 1}', "unexpected extra"),
        (
            'Action: List Files\nAction Input: {"dir_path": "."}\nAction: Read File\n'
            'Action Input: {"file_name": "a"}',
            "one action per step",
        ),
        ("Action:\n\nAction Input: {}", "not followed by an action name"),
        ('Action: List Files\nAction Input: ["."]', "no JSON object"),
        ({"tool": "python", "args": {"code": "1"}}, "Invalid action: python"),
    ],
)
def test_malformed_actions_raise_clear_errors(text: object, fragment: str) -> None:
    with pytest.raises(ActionError) as err:
        parse(text)
    assert fragment in str(err.value)


def test_errors_show_the_expected_usage() -> None:
    with pytest.raises(ActionError) as err:
        parse('Action: Copy File\nAction Input: {"source": "a"}')
    message = str(err.value)
    assert "Action: Copy File" in message and '"destination"' in message


def test_error_observation_convention() -> None:
    toolset = mlagentbench_toolset()
    assert toolset.error_text(ActionError("Invalid action: x")) == "Invalid action: x"
    assert toolset.error_text(ValueError("bad")) == "EnvError: bad"
