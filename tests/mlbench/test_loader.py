"""ML-Bench examples: schema validation, local exports in the Hugging Face layout, splits,
and the bundled offline set."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from mle_gym.families.mlbench.argcheck import check_arguments
from mle_gym.families.mlbench.loader import MLBenchDataError, load_examples, write_jsonl
from mle_gym.families.mlbench.repos import RepoResolver, bundled_repo_names
from mle_gym.families.mlbench.schema import (
    BASH,
    PYTHON,
    REQUIRED_FIELDS,
    ExampleError,
    parse_arguments,
    parse_example,
)


def row(i: int = 1, **over: object) -> dict[str, object]:
    """A valid row of the Hugging Face schema (ML-Bench's arguments text format)."""
    base: dict[str, object] = {
        "github_id": 1,
        "github": "https://github.com/dmlc/dgl",
        "repo_id": i,
        "id": i,
        "path": "./examples/pytorch/arma",
        "arguments": "{'dataset': 'Citeseer', 'lr': '0', 'num-stacks': '5'}",
        "instruction": "Train ARMA on Citeseer with lr 0 and 5 stacks.",
        "oracle": "python citation.py --gpu 0 --dataset Citeseer --num-stacks 3",
        "type": "Bash Script",
        "output": "python citation.py --dataset Citeseer --lr 0 --num-stacks 5",
        "prefix_code": "",
    }
    base.update(over)
    return base


# -- schema ---------------------------------------------------------------------------------


def test_valid_row_is_normalised() -> None:
    ex = parse_example(row())
    assert ex.id == 1 and ex.repo_name == "dgl"
    assert ex.path == "examples/pytorch/arma"
    assert ex.arguments == {"dataset": "Citeseer", "lr": "0", "num-stacks": "5"}
    assert ex.type == BASH and ex.submission_file == "run.sh"
    again = parse_example(ex.to_record())
    assert again == ex


@pytest.mark.parametrize("field", REQUIRED_FIELDS)
def test_each_missing_field_is_named(field: str) -> None:
    bad = row()
    del bad[field]
    with pytest.raises(ExampleError, match=rf"missing field\(s\) {field}\b"):
        parse_example(bad, "file.jsonl line 3")


@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({"id": "seven"}, r"field 'id' must be an integer"),
        ({"github_id": 1.5}, r"field 'github_id' must be an integer"),
        ({"id": True}, r"field 'id' must be an integer"),
        ({"path": "/etc"}, r"path: must be relative"),
        ({"path": "../outside"}, r"path: leaves the repository"),
        ({"path": ""}, r"path: expected the task folder"),
        ({"type": "Rust"}, r"type: expected 'Bash Script' or 'Python Code', got 'Rust'"),
        ({"arguments": "{'lr': "}, r"arguments: not a dict literal"),
        ({"arguments": "[1, 2]"}, r"arguments: expected a dict of argument values, got list"),
        ({"arguments": "{'lr': None}"}, r"argument 'lr' has no single value"),
        ({"instruction": "  "}, r"field 'instruction' is empty"),
        ({"output": 5}, r"field 'output' must be text, got int"),
        ({"expected_stdout": "("}, r"expected_stdout is not a valid pattern"),
        ({"artifacts": ["../x"]}, r"artifacts: leaves the repository"),
    ],
)
def test_bad_fields_get_specific_errors(over: dict[str, object], message: str) -> None:
    with pytest.raises(ExampleError, match=message) as info:
        parse_example(row(**over), "export.jsonl line 9")
    assert str(info.value).startswith("export.jsonl line 9")


def test_argument_formats() -> None:
    assert parse_arguments('{"lr": 0.01, "epochs": 5, "flag": true}') == {
        "lr": "0.01",
        "epochs": "5",
        "flag": "True",
    }
    assert parse_arguments({"lr": 1.0}) == {"lr": "1.0"}
    assert parse_arguments("") == {}
    assert parse_example(row(type="python code")).type == PYTHON
    assert parse_example(row(path="./")).path == "."


# -- local exports ----------------------------------------------------------------------------


def _write_parquet(rows: list[dict[str, object]], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def test_jsonl_json_and_parquet_files_load(tmp_path: Path) -> None:
    rows = [row(1), row(2, type="Python Code", output="import dgl\n")]
    jl = write_jsonl(rows, tmp_path / "export.jsonl")
    (tmp_path / "export.json").write_text(json.dumps(rows))
    pqf = _write_parquet(rows, tmp_path / "export.parquet")
    for path in (jl, tmp_path / "export.json", pqf):
        got = load_examples(path, "full")
        assert [e.id for e in got] == [1, 2], path
        assert got[1].type == PYTHON and got[0].arguments["num-stacks"] == "5"


def test_folder_in_the_hub_layout_selects_the_split(tmp_path: Path) -> None:
    _write_parquet([row(1), row(2)], tmp_path / "data" / "full-00000-of-00001.parquet")
    _write_parquet([row(3)], tmp_path / "data" / "quarter-00000-of-00001.parquet")
    assert [e.id for e in load_examples(tmp_path, "full")] == [1, 2]
    assert [e.id for e in load_examples(tmp_path, "quarter")] == [3]
    with pytest.raises(MLBenchDataError, match=r"no file of split 'id_train'.*full, quarter"):
        load_examples(tmp_path, "id_train")


def test_split_column_and_split_named_files(tmp_path: Path) -> None:
    path = write_jsonl([row(1, split="full"), row(2, split="quarter")], tmp_path / "all.jsonl")
    assert [e.id for e in load_examples(path, "quarter")] == [2]
    named = write_jsonl([row(5)], tmp_path / "quarter.jsonl")
    assert [e.id for e in load_examples(named, "quarter")] == [5]
    with pytest.raises(MLBenchDataError, match=r"holds split 'quarter', but split 'full'"):
        load_examples(named, "full")


def test_bad_exports_are_reported_with_their_place(tmp_path: Path) -> None:
    with pytest.raises(MLBenchDataError, match=r"not found at .*nowhere"):
        load_examples(tmp_path / "nowhere.jsonl")
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(row(1)) + "\n{not json\n")
    with pytest.raises(MLBenchDataError, match=r"broken.jsonl line 2: not valid JSON"):
        load_examples(broken)
    dup = write_jsonl([row(4), row(4)], tmp_path / "dup.jsonl")
    with pytest.raises(
        ExampleError, match=r"dup.jsonl line 2: id 4 is used twice \(first at .*line 1\)"
    ):
        load_examples(dup)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(MLBenchDataError, match=r"no ML-Bench examples of split 'full'"):
        load_examples(empty)
    csv = tmp_path / "x.csv"
    csv.write_text("a,b\n")
    with pytest.raises(MLBenchDataError, match=r"unsupported file type '.csv'"):
        load_examples(csv)
    with pytest.raises(ValueError, match=r"unknown ML-Bench split 'test'"):
        load_examples(tmp_path, "test")
    notparquet = tmp_path / "bad.parquet"
    notparquet.write_bytes(b"PAR1 but not really")
    with pytest.raises(MLBenchDataError, match=r"bad.parquet: not a readable parquet file"):
        load_examples(notparquet)


def test_hub_source_offline_gives_a_clear_error(tmp_path: Path) -> None:
    """The Hugging Face path, with the hub switched off: a specific error naming the way out
    (run in a child process: the hub's offline switch is read at import)."""
    code = (
        "from mle_gym.families.mlbench.loader import load_examples, MLBenchDataError\n"
        "try:\n    load_examples('hf', 'quarter')\n"
        "except MLBenchDataError as exc:\n    print('ERR', exc)\n"
    )
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(tmp_path / "hf"),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.stdout.startswith("ERR cannot load super-dainiu/ml-bench split 'quarter'"), (
        done.stdout + done.stderr
    )
    assert "pass that file" in done.stdout


# -- the bundled offline set ------------------------------------------------------------------


def test_bundled_examples_cover_three_repositories() -> None:
    full = load_examples("bundled", "full")
    quarter = load_examples("bundled", "quarter")
    assert len(full) >= 30
    assert {e.id for e in quarter} < {e.id for e in full}
    repos = {e.repo_name for e in full}
    assert repos == set(bundled_repo_names()) and len(repos) >= 3
    for name in repos:
        kinds = {e.type for e in full if e.repo_name == name}
        assert kinds == {BASH, PYTHON}, name


def test_bundled_examples_are_consistent_with_their_repositories() -> None:
    resolver = RepoResolver(clone=False)
    for ex in load_examples("bundled", "full"):
        repo = resolver.resolve(ex.github).path
        assert (repo / ex.path).is_dir(), ex.id
        readme = (repo / "README.md").read_text()
        # the reference solution passes the argument check; the oracle is README text
        check = check_arguments(ex.output, ex.arguments, ex.type)
        assert check.passed and check.type_ok, (ex.id, check.to_dict())
        assert ex.oracle and ex.oracle in readme, ex.id
        for value in ex.arguments.values():  # numbers must be stated; names may be paraphrased
            if re.fullmatch(r"[\d.,]+", value):
                assert value in ex.instruction, (ex.id, value)
        if ex.type == BASH:
            for flag in re.findall(r"(--[\w-]+)", ex.output):
                assert f"`{flag}`" in readme, (ex.id, flag)
