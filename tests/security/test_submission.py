"""Hostile submissions: oversized, binary, special files, not CSV, parser abuse, hedging."""

from __future__ import annotations

from security.harness import Ctx
from security.suite import attack, category_test


def _submit_invalid(ctx: Ctx) -> str:
    step = ctx.agent.submit()
    grade = step.info["grade"]
    assert step.terminated and step.reward == 0.0, step.obs
    assert grade["valid"] is False and grade["score"] is None, grade
    return step.obs


@attack("submission-huge")
def _huge(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute(
        "python -c \"import os; open('submission.csv', 'w').close(); "
        "os.truncate('submission.csv', 300 * 2**20)\""
    )
    return a.validate() + "\n" + _submit_invalid(ctx)


@attack("submission-binary")
def _binary(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute("printf 'PassengerId,Transported\\n0013_01,\\000True\\n' > submission.csv")
    nul = a.validate()
    a.execute("printf 'PassengerId,Transported\\n0013_01,\\377\\376\\n' > submission.csv")
    latin = a.validate()
    return "\n".join([nul, latin, _submit_invalid(ctx)])


@attack("submission-fifo-directory")
def _special(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute("mkdir submission.csv")
    directory = a.validate()
    a.execute("rmdir submission.csv && python -c \"import os; os.mkfifo('submission.csv')\"")
    fifo = a.validate()
    return "\n".join([directory, fifo, _submit_invalid(ctx)])


@attack("submission-not-csv")
def _not_csv(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute(
        "python -c \"import pickle; pickle.dump({'PassengerId': ['0013_01'], "
        "'Transported': [True]}, open('submission.csv', 'wb'))\""
    )
    pickled = a.validate()
    a.write_file(
        "submission.csv",
        '{\n  "PassengerId": ["0013_01", "0018_01"],\n  "Transported": [true, false]\n}\n',
    )
    json_doc = a.validate()
    for obs in (pickled, json_doc):
        assert obs.startswith("invalid:"), obs
    return "\n".join([pickled, json_doc, _submit_invalid(ctx)])


@attack("submission-csv-wide-header")
def _wide(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute(
        "python -c \"n = 100_000; open('submission.csv', 'w').write("
        "','.join(f'c{i}' for i in range(n)) + '\\n' + ','.join('1' * n) + '\\n')\""
    )
    return a.validate() + "\n" + _submit_invalid(ctx)


@attack("submission-csv-row-flood")
def _rows(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute(
        "python -c \"f = open('submission.csv', 'w'); "
        "f.write('PassengerId,Transported\\n\\\"0013_01\\\",True\\n   \\n'); "
        "f.write('0013_01,True\\n' * 3_000_000)\""
    )
    return a.validate() + "\n" + _submit_invalid(ctx)


@attack("submission-csv-parser-tricks")
def _tricks(ctx: Ctx) -> str:
    a = ctx.agent
    variants = {
        "quote": 'PassengerId,Transported\n"0013_01,True\n0018_01,False\n',
        "ragged": "PassengerId,Transported\n0013_01,True,extra\n",
        "newline-id": 'PassengerId,Transported\n"0013\n_01",True\n',
        "header-only": "PassengerId,Transported\n",
    }
    outs = []
    for name, text in variants.items():
        a.write_file(f"{name}.csv", text)
        outs.append(a.validate(f"{name}.csv"))
    a.execute("sed '2,$s/False$/=1+1/' data/sample_submission.csv > formula.csv")
    outs.append(a.validate("formula.csv"))
    for obs in outs:
        assert obs.startswith("invalid:"), obs
    a.execute("cp formula.csv submission.csv")
    return "\n".join([*outs, _submit_invalid(ctx)])


@attack("submission-hedged-duplicates")
def _hedge(ctx: Ctx) -> str:
    a = ctx.agent
    a.execute(
        "(cat data/sample_submission.csv; tail -n +2 data/sample_submission.csv "
        "| sed 's/False$/True/') > hedged.csv; "
        "(cat data/sample_submission.csv; echo 9999_99,True) > extra.csv"
    )
    hedged = a.validate("hedged.csv")
    extra = a.validate("extra.csv")
    a.execute("cp hedged.csv submission.csv")
    return "\n".join([hedged, extra, _submit_invalid(ctx)])


test_attack = category_test("submission")
