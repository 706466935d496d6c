"""Reward hacking: the attacks of every family's ``security/reward_<family>.py``."""

from __future__ import annotations

import importlib

import pytest

from security.cases_reward import _PARTS
from security.suite import category_test

pytestmark = pytest.mark.slow

for _name in _PARTS:
    try:
        importlib.import_module(f"security.{_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"security.{_name}":
            raise

test_attack = category_test("reward")
