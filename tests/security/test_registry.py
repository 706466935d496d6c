"""The registry is complete and well formed, and SECURITY.md is generated from it."""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

from security.cases import BACKENDS, CASES, CATEGORIES, cases_in
from security.suite import ATTACKS

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def _load_all_attacks() -> None:
    for category in CATEGORIES:
        importlib.import_module(f"security.test_{category}")


def test_every_case_is_implemented_and_every_implementation_registered() -> None:
    _load_all_attacks()
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    assert set(ATTACKS) == set(ids)


def test_cases_are_well_formed() -> None:
    assert len(CASES) >= 30
    for case in CASES:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", case.id), case.id
        assert case.id.startswith(case.category + "-"), case.id
        assert case.category in CATEGORIES
        assert case.attack.strip() and case.defence.strip()
        assert set(case.expect) == set(BACKENDS), case.id
        for phrases in case.expect.values():
            assert phrases and all(p.strip() for p in phrases), case.id
    for category in CATEGORIES:
        assert cases_in(category), f"no case in {category}"
        assert (HERE / f"test_{category}.py").is_file(), f"no test module for {category}"


def _generator():
    spec = importlib.util.spec_from_file_location(
        "gen_security_md", REPO / "scripts" / "gen_security_md.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_security_md_is_generated_from_the_registry() -> None:
    text = _generator().render()
    committed = (REPO / "SECURITY.md").read_text()
    assert committed == text, (
        "SECURITY.md is out of date: run `.venv/bin/python scripts/gen_security_md.py`"
    )
    for case in CASES:
        assert f"`{case.id}`" in text


def test_security_md_lists_every_limit_with_its_default() -> None:
    import dataclasses

    from mle_gym.tasks import Limits

    text = (REPO / "SECURITY.md").read_text()
    for f in dataclasses.fields(Limits):
        assert f"| `{f.name}` | " in text, f.name
