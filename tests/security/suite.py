"""The shared body of every security test: run the attack, then check (a), (b), (c).

Each category's test module registers one function per case with :func:`attack` and
exposes ``test_attack = category_test("<category>")``. An attack acts only through
``ctx.agent`` (``env.step``), asserts on the host that it failed, and returns its
*evidence*: the observations (or a summary of them) in which every phrase of the
case's ``expect[backend]`` must appear.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from security.cases import CASES_BY_ID, Case, cases_in
from security.harness import Ctx, assert_env_still_works, assert_no_leak

Attack = Callable[[Ctx], str]
ATTACKS: dict[str, Attack] = {}


def attack(case_id: str) -> Callable[[Attack], Attack]:
    """Register the implementation of a registered case."""

    def register(fn: Attack) -> Attack:
        if case_id not in CASES_BY_ID:
            raise KeyError(f"{case_id!r} is not in security/cases.py")
        if case_id in ATTACKS:
            raise ValueError(f"{case_id!r} is implemented twice")
        ATTACKS[case_id] = fn
        return fn

    return register


def run_case(case: Case, ctx: Ctx) -> str:
    """Run one case and check it; returns the evidence."""
    evidence = ATTACKS[case.id](ctx)
    missing = [p for p in case.expect[ctx.backend] if p not in evidence]
    assert not missing, f"{case.id}: {missing} not in the evidence:\n{evidence[:4000]}"
    if ctx.secrets is None:  # another task: the attack checked the env still grades
        return evidence
    assert_no_leak(ctx.agent, ctx.secrets)
    assert_env_still_works(ctx.agent, ctx.secrets)
    assert_no_leak(ctx.agent, ctx.secrets)
    return evidence


def category_test(category: str) -> Callable[..., None]:
    """The parametrized test of every case of ``category`` (on every backend)."""

    @pytest.mark.sandbox
    @pytest.mark.parametrize("case", cases_in(category), ids=lambda c: c.id)
    def test_attack(case: Case, backend: str, attack_ctx: Callable[[Case], Ctx]) -> None:
        run_case(case, attack_ctx(case))

    return test_attack
