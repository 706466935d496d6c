"""The argument and output-type checks, and the pass@k estimator."""

from __future__ import annotations

import itertools
import math

import pytest

from mle_gym.evaluation.passk import mean_pass_at_k, pass_at_k, pass_at_ks
from mle_gym.families.mlbench.argcheck import check_arguments, strip_comments, value_found
from mle_gym.families.mlbench.schema import BASH, PYTHON

ARGS = {"dataset": "Citeseer", "lr": "0", "num-stacks": "5"}


@pytest.mark.parametrize(
    ("value", "text", "found"),
    [
        ("0", "--lr 0", True),
        ("0", "--lr 0.01", False),  # ML-Bench's substring rule would say yes
        ("0.01", "--lr=0.01 --x 1", True),
        ("1e-3", "--lr 0.001", True),
        ("0.001", "lr=1E-3,", True),
        ("10", "--epochs 10.0", True),
        ("resnet", "--arch resnet50", False),
        ("resnet", "--arch resnet-50", False),
        ("random_forest", "--model random_forest_v2", False),
        ("wine", "--dataset 'wine'", True),
        ("Citeseer", "--dataset citeseer", True),
        ("-1", "--seed -1", True),
        ("1", "--seed -1", False),
        ("0.1,1,10", "bash sweep.sh diabetes ridge 0.1,1,10", True),
        ("models/ols.pkl", "--save-model models/ols.pkl", True),
        ("a photo of a cat", '--prompt "a  photo\tof a cat"', True),
    ],
)
def test_value_found(value: str, text: str, found: bool) -> None:
    assert value_found(value, text) is found


def test_comments_do_not_count() -> None:
    sh = "python citation.py --dataset Citeseer --num-stacks 5  # --lr 0\n# --lr 0\n"
    check = check_arguments(sh, ARGS, BASH)
    assert not check.passed and check.missing == ["lr"]
    assert check.fraction_found == pytest.approx(2 / 3)
    assert strip_comments('echo "a # b" # c', BASH) == 'echo "a # b"'
    py = 'run(lr=0)  # dataset="Citeseer"\nprint("# 5")\n'
    assert check_arguments(py, ARGS, PYTHON).missing == ["dataset"]


def test_mlbench_compat_rule_is_the_substring_test() -> None:
    sh = "python citation.py --dataset citeseer --lr 0.01 --num-stacks 5  # nothing"
    assert not check_arguments(sh, ARGS, BASH).passed
    compat = check_arguments(sh, ARGS, BASH, compat="mlbench")
    assert compat.passed and compat.rule == "mlbench-substring"


def test_type_checks() -> None:
    ok = check_arguments("python citation.py --dataset Citeseer --lr 0 --num-stacks 5", ARGS, BASH)
    assert ok.passed and ok.type_ok
    no_script = check_arguments("echo Citeseer 0 5", ARGS, BASH)
    assert no_script.passed and not no_script.type_ok
    assert "runs no .py or .sh script" in no_script.type_message
    py_bad = check_arguments("def f(:\n  Citeseer 0 5", ARGS, PYTHON)
    assert not py_bad.type_ok and "not valid Python" in py_bad.type_message
    py_ok = check_arguments("train(dataset='Citeseer', lr=0, num_stacks=5)\n", ARGS, PYTHON)
    assert py_ok.type_ok
    # ML-Bench's own text rule: a Bash answer must contain ".sh " or ".py "
    assert not check_arguments("python x.py", {}, BASH, compat="mlbench").type_ok
    assert check_arguments("python x.py --a 1", {}, BASH, compat="mlbench").type_ok
    missing = check_arguments(None, ARGS, BASH)
    assert missing.missing_text and not missing.passed and missing.fraction_found == 0


def _brute_force_pass_at_k(n: int, c: int, k: int) -> float:
    """Share of all k-subsets of n samples (c passing) that hold at least one pass."""
    samples = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    return sum(any(samples[i] for i in s) for s in subsets) / len(subsets)


@pytest.mark.parametrize(("n", "c", "k"), [(5, 1, 1), (5, 2, 2), (6, 3, 4), (8, 0, 3), (4, 4, 2)])
def test_pass_at_k_matches_enumeration(n: int, c: int, k: int) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(_brute_force_pass_at_k(n, c, k), abs=1e-12)
    closed = 1 - math.comb(n - c, k) / math.comb(n, k)
    assert pass_at_k(n, c, k) == pytest.approx(closed, abs=1e-12)


def test_pass_at_k_large_n_and_errors() -> None:
    assert pass_at_k(200, 13, 100) == pytest.approx(1 - math.comb(187, 100) / math.comb(200, 100))
    for bad in ((0, 0, 1), (5, 6, 1), (5, -1, 1), (5, 2, 6), (5, 2, 0), (5, 2.5, 1)):
        with pytest.raises(ValueError):
            pass_at_k(*bad)  # type: ignore[arg-type]
    outcomes = {1: [True, False, False], 2: [False, False, False], 3: [True, True, True]}
    assert mean_pass_at_k(outcomes, 1) == pytest.approx((1 / 3 + 0 + 1) / 3)
    assert pass_at_ks(outcomes, [1, 2, 5]) == {
        1: pytest.approx((1 / 3 + 1) / 3),
        2: pytest.approx((2 / 3 + 1) / 3),
    }
    with pytest.raises(ValueError, match="fewer than k=4"):
        mean_pass_at_k(outcomes, 4)


@pytest.mark.parametrize(
    "text",
    [
        "touch m\nexit 0\npython train.py --epochs 3\n",
        "cat <<'EOF'\npython train.py --epochs 3\nEOF\ntouch m\n",
        "cat > /dev/null <<-END\n\tpython train.py --epochs 3\n\tEND\n",
    ],
)
def test_a_command_that_cannot_run_is_not_found_in_the_text(text: str) -> None:
    assert not check_arguments(text, {"epochs": "3"}, BASH).passed


def test_a_heredoc_fed_to_an_interpreter_still_counts() -> None:
    code = "import subprocess\nsubprocess.run(['python', 'train.py', '--epochs', '3'])\n"
    text = f"python - <<'EOF'\n{code}EOF\n"
    assert check_arguments(text, {"epochs": "3"}, BASH).passed
    assert check_arguments("python train.py --epochs 3 || exit 1\n", {"epochs": "3"}, BASH).passed
