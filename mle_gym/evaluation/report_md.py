"""report.md: an evaluation report (:mod:`mle_gym.evaluation.run_report`) as Markdown.

Every figure says what it is over: the overall table is mean ± SEM across seeds (the
MLE-bench protocol), the per-task table over the task's seeds, steps and times over
episodes; percentages are percentages (the leaderboard percentile too, though
report.json keeps it as a fraction); a score says how many finished episodes had a
valid one; rewards of different reward modes (different scales) are never averaged
together; a medal on Kaggle data whose prepared files differ from MLE-bench's is
flagged where it is counted. A provenance section says where the results come from.

Text that may come from the agent (failure messages) is escaped onto one line
(:func:`mle_gym.textsafe.escape_line`): report.md is read on terminals too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mle_gym.evaluation.stats import fmt
from mle_gym.textsafe import escape_line

__all__ = ["render_markdown"]

PCT_LABELS = {
    "made_submission_pct": "made a submission (%)",
    "valid_submission_pct": "valid submission (%)",
    "above_median_pct": "above median (%)",
    "gold_pct": "gold (%)",
    "silver_pct": "silver (%)",
    "bronze_pct": "bronze (%)",
    "any_medal_pct": "any medal (%)",
}
MEDAL_KEYS = ("gold_pct", "silver_pct", "bronze_pct", "any_medal_pct")
MISMATCH_MARK = " ⚠"


def _scaled(stat: dict[str, Any], factor: float) -> dict[str, Any]:
    out = dict(stat)
    for key in ("mean", "sem"):
        if out.get(key) is not None:
            out[key] = out[key] * factor
    return out


def _row(label: str, text: str, n: Any) -> str:
    return f"| {label} | {text} | {n} |"


def _header(report: dict[str, Any]) -> list[str]:
    cfg, counts = report["config"], report["counts"]
    kinds = report.get("failure_kinds") or {}
    failed = f"{counts['failed']} failed"
    if kinds:
        failed += " (" + ", ".join(f"{k}: {n}" for k, n in kinds.items()) + ")"
    replica = cfg.get("replica_seed")
    return [
        "# Evaluation report",
        "",
        f"- agent: `{cfg['agent']}`"
        + (f" with {cfg['agent_args']}" if cfg.get("agent_args") else ""),
        f"- data: {cfg['data']}"
        + (f" (replica seed: {replica})" if replica is not None else "")
        + f" · sandbox: {cfg['sandbox']} · reward mode: {cfg['reward_mode']}"
        + f" · MLE-bench grading: {cfg.get('grading') or 'mlebench'}"
        + (f" · max steps: {cfg['max_steps']}" if cfg.get("max_steps") else "")
        + (f" · time budget: {cfg['time_budget_s']} s" if cfg.get("time_budget_s") else ""),
        f"- {len(cfg['tasks'])} task(s) x seeds {cfg['seeds']}",
        f"- episodes: {counts['finished']}/{counts['planned']} finished "
        f"({counts['done']} done, {failed}, {counts['pending']} pending)",
    ]


def _reward_rows(overall: dict[str, Any]) -> list[str]:
    reward = overall["reward"]
    by_mode = overall.get("reward_by_mode") or {}
    if reward.get("mixed_modes"):
        lines = [
            _row(
                "mean reward",
                "- (not averaged: episodes have different reward modes, "
                + ", ".join(reward["mixed_modes"])
                + ")",
                0,
            )
        ]
        for mode, stat in by_mode.items():
            lines.append(_row(f"mean reward ({mode} mode)", fmt(stat, 4), stat.get("n", 0)))
        return lines
    mode = reward.get("mode")
    label = f"mean reward ({mode} mode)" if mode else "mean reward"
    return [_row(label, fmt(reward, 4), reward.get("n", 0))]


def _overall(report: dict[str, Any]) -> list[str]:
    overall = report["overall"]
    mismatch = overall.get("checksum_mismatch_tasks") or []
    lines = [
        "## Overall",
        "",
        "Mean ± SEM across seeds of the per-seed value over tasks (MLE-bench protocol); "
        "medal figures only over episodes on Kaggle data. The last column is the number "
        "of seeds.",
        "",
        "| metric | mean ± SEM | seeds |",
        "|---|---|---|",
    ]
    for key, label in PCT_LABELS.items():
        stat = overall[key]
        text = fmt(stat)
        if key in MEDAL_KEYS and mismatch and stat.get("mean") is not None:
            text += MISMATCH_MARK
        lines.append(_row(label, text, stat.get("n", 0)))
    pct = overall["leaderboard_percentile"]
    lines.append(
        _row("leaderboard percentile (% of teams beaten)", fmt(_scaled(pct, 100.0)), pct["n"])
    )
    success = overall["success_pct"]
    lines.append(_row("success over baseline (%)", fmt(success), success.get("n", 0)))
    lines += _reward_rows(overall)
    if overall.get("pass_at_k"):
        pk = overall["pass_at_k"]
        spe = pk["samples_per_example"]
        lines.append(
            "| pass@k (ML-Bench, unbiased) | "
            + ", ".join(f"pass@{k} {v:.4f}" for k, v in pk["k"].items())
            + f" | {pk['examples']} examples x {spe['min']}-{spe['max']} samples |"
        )
    steps, seconds = overall["steps"], overall["timing"]["seconds"]
    lines += [
        "",
        f"Steps per episode: {fmt(steps)}; episode time: {fmt(seconds)} s "
        f"(mean ± SEM over {steps.get('n', 0)} finished episodes, not seeds; "
        f"total {overall['timing']['total_seconds']} s).",
    ]
    if mismatch:
        lines.append(
            f"{MISMATCH_MARK.strip()} Medal figures include Kaggle data whose prepared files "
            f"differ from MLE-bench's (checksum mismatch): {', '.join(mismatch)}; those "
            "medals may not be comparable with MLE-bench's."
        )
    if any(overall["usage"]["total"].values()):
        usage = ", ".join(f"{k} {v:g}" for k, v in overall["usage"]["total"].items())
        lines.append(f"Usage (total): {usage}.")
    return lines


def _score_cell(t: dict[str, Any]) -> str:
    score = t["score"]
    if not score.get("of"):
        return "-"
    return f"{fmt(score, 5)} ({score.get('n', 0)} of {score['of']} valid)"


def _per_task(report: dict[str, Any]) -> list[str]:
    lines = [
        "## Per task",
        "",
        "Mean ± SEM over the task's seeds; the score over its valid submissions only.",
        "",
        "| task | data | done/failed/pending | made % | valid % | above median % | any medal % "
        "| score | reward | reward mode | success % | steps | time (s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for task_id, t in report["tasks"].items():
        e = t["episodes"]
        medal = fmt(t["any_medal_pct"])
        if t.get("checksum_mismatch") and t["any_medal_pct"].get("mean") is not None:
            medal += MISMATCH_MARK
        data = ", ".join(t["data_sources"]) or "-"
        if t.get("replica_seeds"):
            data += f" (seeds {', '.join(map(str, t['replica_seeds']))})"
        lines.append(
            f"| {task_id} | {data} "
            f"| {e['done']}/{e['failed']}/{e['pending']} "
            f"| {fmt(t['made_submission_pct'])} | {fmt(t['valid_submission_pct'])} "
            f"| {fmt(t['above_median_pct'])} | {medal} "
            f"| {_score_cell(t)} | {fmt(t['reward'], 4)} "
            f"| {', '.join(t.get('reward_modes') or []) or '-'} | {fmt(t['success_pct'])} "
            f"| {fmt(t['steps'])} | {fmt(t['timing']['seconds'])} |"
        )
    mixed = [k for k, t in report["tasks"].items() if len(t["data_sources"]) > 1]
    if mixed:
        lines += ["", f"Warning: episodes on more than one data source for {', '.join(mixed)}."]
    mixed_modes = [k for k, t in report["tasks"].items() if len(t.get("reward_modes") or []) > 1]
    if mixed_modes:
        lines += [
            "",
            f"Warning: episodes under more than one reward mode for {', '.join(mixed_modes)}: "
            "their mean reward mixes scales.",
        ]
    return lines


def _values(items: list[dict[str, Any]], show: Any) -> str:
    return "; ".join(f"{show(i['value'])} ({i['episodes']} ep.)" for i in items) or "-"


def _software(block: Any) -> str:
    if not isinstance(block, dict):
        return "unknown (not recorded)"
    commit = block.get("commit")
    dirty = " with uncommitted changes" if block.get("dirty") else ""
    return f"mle_gym {block.get('mle_gym')}" + (f" @ {commit[:12]}{dirty}" if commit else "")


def _sandbox(block: Any) -> str:
    if not isinstance(block, dict):
        return "unknown"
    image = block.get("image")
    image_id = block.get("image_id")
    text = str(block.get("backend"))
    if image:
        text += f" image {image}" + (f" ({str(image_id)[:19]})" if image_id else "")
    return text


def _provenance(report: dict[str, Any]) -> list[str]:
    prov = report.get("provenance")
    if not prov:
        return []
    lines = [
        "## Provenance",
        "",
        f"- episodes run by: {_values(prov['episode_software'], _software)}",
        f"- report written by: {_software(prov['report_software'])}",
        f"- sandbox: {_values(prov['sandbox'], _sandbox)}",
        f"- MLE-bench grading: {_values(prov['grading'], lambda v: v or 'n/a')}",
    ]
    data = prov.get("data") or []
    if data:
        lines.append("- data:")
        for item in data:
            v = item["value"]
            detail = [str(v.get("source"))]
            if v.get("variant"):
                detail.append(f"variant {v['variant']}")
            if v.get("mlebench_checksums"):
                detail.append(f"MLE-bench checksums: {v['mlebench_checksums']}")
            lines.append(f"  - {v['task_id']}: {', '.join(detail)} ({item['episodes']} ep.)")
    selection = prov.get("selection")
    sessions = selection if isinstance(selection, list) else [selection] if selection else []
    for i, asked in enumerate(s for s in sessions if isinstance(s, dict)):
        parts = [f"{k} {asked[k]}" for k in ("split", "benchmark") if asked.get(k)]
        if asked.get("tasks"):
            parts.append("tasks " + ", ".join(map(str, asked["tasks"])))
        flags = [f for f in ("include_leaky", "skip_unavailable") if asked.get(f)]
        if flags:
            parts.append("with " + ", ".join("--" + f.replace("_", "-") for f in flags))
        when = "selection asked for" if i == 0 else "added on resume"
        lines.append(f"- {when}: {'; '.join(parts) or '-'}")
        for skipped in asked.get("skipped") or []:
            reason = escape_line(str(skipped.get("reason", ""))[:300])
            lines.append(f"  - skipped {skipped.get('task')}: {reason}")
    return lines


def _failures(report: dict[str, Any]) -> list[str]:
    if not report["failures"]:
        return []
    lines = [
        "## Failed episodes",
        "",
        "Kind: agent (its code or its model endpoint), environment (sandbox, data, worker), "
        "timeout; they count as no submission above.",
        "",
    ]
    for f in report["failures"]:
        # may quote agent-produced text: one line, terminal controls escaped
        error = escape_line((f["error"] or "").split("\n", 1)[0][:300])
        lines.append(f"- {f['task_id']} seed {f['seed']} [{f.get('kind', 'unknown')}]: {error}")
    return lines


def render_markdown(report: dict[str, Any]) -> str:
    """report.md: the run, overall figures, a per-task table, provenance, failures, plots."""
    sections = [_header(report), _overall(report), _per_task(report)]
    sections += [_provenance(report), _failures(report)]
    if report.get("plots"):
        sections.append(
            ["## Plots", "", *(f"![{Path(rel).stem}]({rel})" for rel in report["plots"])]
        )
    lines: list[str] = []
    for section in sections:
        if section:
            lines += [*section, ""]
    return "\n".join(lines).rstrip("\n") + "\n"
