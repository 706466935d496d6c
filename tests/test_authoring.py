"""mle_gym.authoring: the helpers task folders use (archives, checks, files)."""

from __future__ import annotations

import ast
import io
import sys
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import py7zr
import pytest

from mle_gym import authoring
from mle_gym.authoring import ArchiveError, InvalidSubmission


def write_7z(path: Path, entries: list[tuple[str, bytes | None]], staging: Path) -> None:
    """A 7z archive written by py7zr; ``None`` content is a directory, ``b""`` an empty file."""
    with py7zr.SevenZipFile(path, "w") as archive:
        for name, data in entries:
            source = staging / name
            if data is None:
                source.mkdir(parents=True)
            else:
                source.parent.mkdir(parents=True, exist_ok=True)
                source.write_bytes(data)
            archive.write(source, arcname=name)


@pytest.mark.slow
def test_extract_members_of_a_7z_writes_only_what_is_asked(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    contents = {f"train/{i}.jpg": rng.bytes(int(rng.integers(0, 3_000_000))) for i in range(4)}
    contents["train/empty.jpg"] = b""
    archive = tmp_path / "a.7z"
    write_7z(archive, [("train", None), *contents.items()], tmp_path / "staging")
    out = tmp_path / "out"
    out.mkdir()

    wanted = {name: out / f"out{i}" for i, name in enumerate(contents) if i != 1}
    wanted["train/absent.jpg"] = out / "absent"
    assert authoring.extract_members(archive, wanted) == set(wanted) - {"train/absent.jpg"}
    for name, target in wanted.items():
        if name != "train/absent.jpg":
            assert target.read_bytes() == contents[name]
    assert sorted(p.name for p in out.iterdir()) == ["out0", "out2", "out3", "out4"]

    with pytest.raises(ArchiveError, match="cap"):
        authoring.extract_members(archive, wanted, max_bytes=10)
    with pytest.raises(ArchiveError, match="not a regular file"):
        authoring.extract_members(archive, {"train": out / "dir"})
    damaged = bytearray(archive.read_bytes())
    damaged[40] ^= 0xFF  # inside the packed data
    (tmp_path / "bad.7z").write_bytes(bytes(damaged))
    with pytest.raises(ArchiveError):
        authoring.extract_members(tmp_path / "bad.7z", wanted)


def test_extract_archive_by_extension(tmp_path: Path) -> None:
    members = {"a/x.txt": b"x", "b.txt": b"bee"}
    zipped = tmp_path / "d.zip"
    with zipfile.ZipFile(zipped, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    tarred = tmp_path / "d.tar.gz"
    with tarfile.open(tarred, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    sevened = tmp_path / "d.7z"
    write_7z(sevened, list(members.items()), tmp_path / "staging")
    for archive in (zipped, tarred, sevened):
        dest = tmp_path / f"out-{archive.name}"
        assert sorted(authoring.extract_archive(archive, dest)) == sorted(members)
        for name, data in members.items():
            assert (dest / name).read_bytes() == data
        with pytest.raises((ArchiveError, RuntimeError), match=r"cap|exceed"):
            authoring.extract_archive(archive, tmp_path / "capped", max_bytes=2)
    with pytest.raises(ArchiveError, match=r"not a \.zip"):
        authoring.extract_archive(tmp_path / "d.rar", tmp_path / "x")


def test_tar_links_are_refused(tmp_path: Path) -> None:
    tarred = tmp_path / "l.tar"
    with tarfile.open(tarred, "w") as tf:
        info = tarfile.TarInfo("link")
        info.type = tarfile.SYMTYPE
        info.linkname = "/etc/passwd"
        tf.addfile(info)
    with pytest.raises(ArchiveError, match="not a regular file"):
        authoring.extract_archive(tarred, tmp_path / "out")
    assert not (tmp_path / "out" / "link").exists()


def test_7z_of_a_folder_extracts_with_its_directory_entries(tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "train" / "cats").mkdir(parents=True)
    (source / "empty").mkdir()
    (source / "train" / "cats" / "1.jpg").write_bytes(b"cat")
    (source / "labels.csv").write_text("id,label\n1,cat\n")
    archive = tmp_path / "folder.7z"
    with py7zr.SevenZipFile(archive, "w") as sz:
        sz.writeall(source, arcname="data")
    with py7zr.SevenZipFile(archive) as sz:  # the archive does hold directory entries
        assert {"data", "data/train", "data/empty"} <= {
            i.filename for i in sz.list() if i.is_directory
        }

    dest = tmp_path / "out"
    assert authoring.extract_archive(archive, dest) == [
        "data/labels.csv",
        "data/train/cats/1.jpg",
    ]
    assert (dest / "data" / "train" / "cats" / "1.jpg").read_bytes() == b"cat"
    assert (dest / "data" / "empty").is_dir()
    with pytest.raises(ArchiveError, match="cap"):
        authoring.extract_archive(archive, tmp_path / "capped", max_bytes=5)


def test_7z_links_and_passwords_are_refused(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "a.txt").write_text("a")
    (source / "link").symlink_to("/etc/passwd")
    linked = tmp_path / "link.7z"
    with py7zr.SevenZipFile(linked, "w") as sz:
        sz.write(source / "a.txt", arcname="a.txt")
        sz.write(source / "link", arcname="link")
    with pytest.raises(ArchiveError, match="'link' is not a regular file"):
        authoring.extract_archive(linked, tmp_path / "out")
    assert not (tmp_path / "out" / "link").exists()
    assert not (tmp_path / "out" / "a.txt").exists()

    locked = tmp_path / "locked.7z"
    with py7zr.SevenZipFile(locked, "w", password="secret") as sz:
        sz.write(source / "a.txt", arcname="a.txt")
    with pytest.raises(ArchiveError, match=r"locked\.7z"):
        authoring.extract_archive(locked, tmp_path / "out2")


def test_check_columns_names_missing_unexpected_and_repeated() -> None:
    authoring.check_columns(pd.DataFrame(columns=["b", "a"]), ("a", "b"))
    frame = pd.DataFrame([[1, 2, 3]], columns=["a", "c", "c"])
    with pytest.raises(InvalidSubmission) as err:
        authoring.check_columns(frame, ("a", "b"))
    assert str(err.value) == (
        "the header must hold exactly the columns a,b; columns missing b; unexpected c, c; "
        "repeated c"
    )


def test_numbers_and_integers() -> None:
    frame = pd.DataFrame({"v": [" 1", "2.5", "x"], "i": ["1", "2.0", "3.5"]})
    with pytest.raises(InvalidSubmission, match=r"1 row\(s\) are not, e.g. data row 3 holds 'x'"):
        authoring.numbers(frame, "v")
    np.testing.assert_array_equal(authoring.numbers(frame.iloc[:2], "v"), [1.0, 2.5])
    np.testing.assert_array_equal(authoring.integers(frame.iloc[:2], "i"), [1, 2])
    with pytest.raises(InvalidSubmission, match=r"whole number; data row 3 holds 3\.5"):
        authoring.integers(frame, "i")
    with pytest.raises(RuntimeError, match="the sample file is unusable: i must be a whole"):
        authoring.integers(frame, "i", owner="sample")
    with pytest.raises(RuntimeError, match="the answers file is unusable"):
        authoring.answer_numbers(frame, "v")


def test_pair_rows_matches_repeated_keys_in_order() -> None:
    expected = pd.DataFrame({"id": ["a", "b", "a"], "k": [1, 1, 1]})
    submitted = pd.DataFrame({"id": ["b", "a", "a"], "k": [1, 1, 1]})

    def describe(key: tuple[object, ...]) -> str:
        return f"id {key[0]} k {key[1]}"

    assert authoring.pair_rows(submitted, expected, describe, "(id, k)").tolist() == [1, 0, 2]
    with pytest.raises(InvalidSubmission, match="id a k 1 appears 1 time"):
        authoring.pair_rows(submitted.iloc[:2], expected, describe, "(id, k)")
    with pytest.raises(InvalidSubmission, match=r"not in sample_submission\.csv, e\.g\. id c k 1"):
        authoring.pair_rows(
            pd.concat([submitted, pd.DataFrame({"id": ["c"], "k": [1]})]),
            expected,
            describe,
            "(id, k)",
        )


def test_copy_images_and_one_hot(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for i in (1, 2):
        (src / f"{i}.png").write_bytes(bytes([i]))
    authoring.copy_images([2, 1], src, tmp_path / "dst", ".png")
    assert (tmp_path / "dst" / "2.png").read_bytes() == b"\x02"
    rows = pd.DataFrame({"id": [5, 6], "label": ["y", "x"]}, index=[3, 4])
    table = authoring.one_hot(rows, "id", "label", ("x", "y"), "train.csv has labels")
    assert table.to_dict("list") == {"id": [5, 6], "x": [0, 1], "y": [1, 0]}
    assert list(table.index) == [3, 4]
    with pytest.raises(ValueError, match=r"train\.csv has labels outside the known 1"):
        authoring.one_hot(rows, "id", "label", ("x",), "train.csv has labels")


def test_pandas_na_strings_are_pandas_defaults() -> None:
    from pandas._libs.parsers import STR_NA_VALUES

    assert set(authoring.PANDAS_NA_STRINGS) == set(STR_NA_VALUES)


def test_answer_columns_row_count_and_label_sets() -> None:
    answers = pd.DataFrame({"id": [1, 2], "y": [0, 1]})
    authoring.require_answer_columns(answers, ("id", "y"))
    with pytest.raises(RuntimeError, match=r"the answers lack the column\(s\) z"):
        authoring.require_answer_columns(answers, ("id", "z"))
    authoring.check_row_count(answers, answers)
    with pytest.raises(InvalidSubmission, match="has 1 rows but 2 are expected"):
        authoring.check_row_count(answers.iloc[:1], answers)
    cells = pd.Series(["a b", "NA", "", "b  b"])
    assert authoring.label_sets(cells) == [{"a", "b"}, set(), set(), {"b"}]


REPO = Path(__file__).resolve().parents[1]
#: where MLE-bench task folders are: the built-in ones and the worked example of the docs
MLEBENCH_FOLDER_ROOTS = (REPO / "task_assets" / "mlebench", REPO / "docs" / "examples" / "mlebench")
#: file of an MLE-bench task folder -> the mle_gym modules it may import (a package: with
#: its submodules)
ALLOWED_MLE_GYM_IMPORTS = {
    "grade.py": ("mle_gym.authoring",),
    "prepare.py": ("mle_gym.authoring",),
    "grading_cases.py": ("mle_gym.authoring", "mle_gym.families.mlebench.testing"),
    # MLE-bench's grading, reproduced: the authoring API and the kit of MLE-bench's helpers
    "mlebench_grade.py": ("mle_gym.authoring", "mle_gym.families.mlebench.parity_kit"),
}
#: what a grading_cases.py may import at module level besides the standard library and the
#: modules above (an optional library such as scikit-learn is imported inside a function)
GRADING_CASES_THIRD_PARTY = ("numpy", "pandas")


def _folder_files(name: str) -> list[Path]:
    return sorted(p for root in MLEBENCH_FOLDER_ROOTS for p in root.glob(f"*/{name}"))


def _within(module: str, allowed: tuple[str, ...]) -> bool:
    return any(module == a or module.startswith(f"{a}.") for a in allowed)


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement imports: each of ``import a, b``; ``a`` of ``from a
    import b`` (whether ``a.b`` is a module is for the caller to try)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return [node.module or ""]


def _import_offenders(source: str, allowed: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line, statement) of every import of an mle_gym module outside ``allowed`` in the
    Python ``source``, at any depth (imports inside functions count)."""
    offenders = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        for module in _imported(node):
            if module.split(".")[0] != "mle_gym" or _within(module, allowed):
                continue
            if isinstance(node, ast.ImportFrom) and all(
                _within(f"{module}.{alias.name}", allowed) for alias in node.names
            ):
                continue  # from mle_gym import authoring
            offenders.append((node.lineno, ast.unparse(node)))
    return sorted(offenders)


def _module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The import statements run when the module is imported (not those in functions)."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            pending.extend(n for n in ast.iter_child_nodes(node) if isinstance(n, ast.stmt))
    return found


def test_mlebench_task_folders_import_only_the_authoring_api() -> None:
    """prepare.py and grade.py import mle_gym.authoring only; grading_cases.py also the
    public grading-case kit mle_gym.families.mlebench.testing."""
    offenders = []
    for name, allowed in ALLOWED_MLE_GYM_IMPORTS.items():
        paths = _folder_files(name)
        assert paths, name
        for path in paths:
            found = _import_offenders(path.read_text(encoding="utf-8"), allowed)
            offenders += [f"{path.relative_to(REPO)}:{line}: {text}" for line, text in found]
    assert offenders == []
    assert len(_folder_files("grading_cases.py")) >= 53


def test_grading_cases_import_no_test_or_optional_library_at_module_level() -> None:
    """A grading_cases.py loads with the package's own dependencies: no pytest, no test
    internals (the old tests/mlebench/grading_kit.py), no scikit-learn or scipy at import."""
    allowed = ALLOWED_MLE_GYM_IMPORTS["grading_cases.py"]
    offenders = []
    for path in _folder_files("grading_cases.py"):
        for node in _module_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            for module in _imported(node):
                top = module.split(".")[0]
                ok = (
                    module == "__future__"
                    or top in sys.stdlib_module_names
                    or top in GRADING_CASES_THIRD_PARTY
                    or _within(module, allowed)
                )
                if not ok:
                    offenders.append(f"{path.relative_to(REPO)}:{node.lineno}: {ast.unparse(node)}")
    assert offenders == []


def test_the_import_checks_see_an_offending_line() -> None:
    """The checks above are not vacuous: a forbidden import is reported."""
    source = (
        "import pytest\n"
        "from mle_gym import authoring\n"
        "from mle_gym.families.mlebench.testing import Check\n"
        "from mle_gym.families.mlebench.format_check import FormatChecker\n"
        "def f():\n"
        "    from sklearn.metrics import f1_score\n"
        "    from mle_gym.tasks import get_task\n"
    )
    assert _import_offenders(source, ALLOWED_MLE_GYM_IMPORTS["grading_cases.py"]) == [
        (4, "from mle_gym.families.mlebench.format_check import FormatChecker"),
        (7, "from mle_gym.tasks import get_task"),
    ]
    assert _import_offenders(source, ALLOWED_MLE_GYM_IMPORTS["grade.py"])[0] == (
        3,
        "from mle_gym.families.mlebench.testing import Check",
    )
    top = sorted(m for node in _module_level_imports(ast.parse(source)) for m in _imported(node))
    assert top == [
        "mle_gym",
        "mle_gym.families.mlebench.format_check",
        "mle_gym.families.mlebench.testing",
        "pytest",
    ]


def test_grading_cases_use_no_assert_statement() -> None:
    """Checks raise through the kit's helpers (expect, assert_score...), so they hold under
    ``python -O`` too."""
    import ast

    folders = [REPO / "task_assets" / "mlebench", REPO / "docs" / "examples" / "mlebench"]
    found = []
    for root in folders:
        for path in sorted(root.glob("*/grading_cases.py")):
            tree = ast.parse(path.read_text(), str(path))
            found += [f"{path}:{n.lineno}" for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    assert found == []
