"""Attacks on the private answers: by path, search, /proc, links, the grader's code."""

from __future__ import annotations

from security.harness import Ctx, body
from security.suite import attack, category_test


@attack("answers-host-path")
def _host_path(ctx: Ctx) -> str:
    a = ctx.agent
    shell = a.execute(f"cat {ctx.answers}; ls -la {ctx.secrets.path.parent}")
    tool = a.read_file(ctx.answers)
    py = a.python(f"open({ctx.answers!r}).read()")
    assert tool.startswith("error:")
    assert "FileNotFoundError" in py
    return "\n".join([shell, tool, py])


@attack("answers-filesystem-search")
def _search(ctx: Ctx) -> str:
    a = ctx.agent
    name = ctx.secrets.path.name
    row = ctx.secrets.answer_lines[0]
    prune = r"\( -path /proc -o -path /sys -o -path /dev \) -prune -o"
    obs = a.execute(
        f"find / {prune} -type f -name '{name}' -print 2>/dev/null > named.txt; "
        "for d in /*; do case $d in /proc|/sys|/dev|/usr) ;; *) "
        f"grep -rlF --exclude-dir=lib -- '{row}' \"$d\" 2>/dev/null;; esac; done > rows.txt; "
        'echo "private answer files found: $(grep -c /private/ named.txt)"; '
        'echo "answer rows found: $(wc -l < rows.txt)"; cat named.txt',
        timeout=300,
    )
    # The only file named like the answers is the public test set (features, no labels).
    named = [line for line in body(obs).splitlines()[2:] if line]
    assert set(named) <= {f"/workspace/data/{name}"}, obs
    return obs


@attack("answers-proc-host")
def _proc(ctx: Ctx) -> str:
    a = ctx.agent
    me, sleeper = ctx.host.test_pid, ctx.host.sleeper.pid
    obs = a.execute(
        f"cat /proc/{me}/root{ctx.answers}; cat /proc/{sleeper}/root{ctx.answers}; "
        f"cat /proc/{sleeper}/cmdline; cat /proc/1/root{ctx.answers}; cat /proc/1/environ"
    )
    tool = a.read_file(f"/proc/{me}/root{ctx.answers}")
    tool2 = a.read_file(f"/proc/1/root{ctx.answers}")
    assert ctx.host.sleeper_tag not in obs
    return "\n".join([obs, tool, tool2])


@attack("answers-symlink-read")
def _symlink(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute(f"ln -s {ctx.answers} leak.csv; ln -s / hostroot; ln -s ../../../.. up")
    outs = [
        a.read_file("leak.csv"),
        a.read_file(f"hostroot{ctx.answers}"),
        a.read_file(f"up{ctx.answers}"),
        a.list_files(f"hostroot{ctx.secrets.path.parent}"),
    ]
    for obs in outs:
        assert obs.startswith("error:"), obs
    return "\n".join(outs)


@attack("answers-hardlink")
def _hardlink(ctx: Ctx) -> str:
    a = ctx.agent
    obs = a.execute(f"ln {ctx.answers} hard.csv; ln data/test.csv hard2.csv")
    assert not (a.workspace / "hard.csv").exists() and not (a.workspace / "hard2.csv").exists()
    assert ctx.secrets.path.stat().st_nlink == 1
    tool = a.read_file("hard.csv")
    return obs + "\n" + tool


@attack("answers-symlink-submit")
def _symlink_submit(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute(f"ln -sf {ctx.answers} submission.csv")
    checked = a.validate()
    step = a.submit()
    grade = step.info["grade"]
    assert step.terminated and step.reward == 0.0
    assert grade["valid"] is False and grade["score"] is None, grade
    return checked + "\n" + step.obs


@attack("answers-grader-code")
def _grader_code(ctx: Ctx) -> str:
    a = ctx.agent
    obs = a.execute(
        "python -c 'import mle_gym.tasks' 2>&1 | tail -n 1; "
        "n=$(find / \\( -path /proc -o -path /sys \\) -prune -o "
        "\\( -name task_assets -o -name 'spaceship-titanic' -o -name task.yaml \\) "
        '-print 2>/dev/null | wc -l); echo "task folders found: $n"'
    )
    py = a.python("import importlib.util\nprint(importlib.util.find_spec('mle_gym.tasks'))")
    assert "None" in py or "ModuleNotFoundError" in py, py
    return obs + "\n" + py


@attack("answers-validate-oracle")
def _oracle(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute("cp data/sample_submission.csv submission.csv")
    first = a.validate()
    a.execute("sed -i '2s/False/True/' submission.csv && head -n 2 submission.csv")
    second = a.validate()
    same = first == second
    for obs in (first, second):
        assert "score" not in obs.replace("does not score", "") and "accuracy" not in obs
    return f"{first}\n{second}\nidentical validation texts: {same}"


test_attack = category_test("answers")
