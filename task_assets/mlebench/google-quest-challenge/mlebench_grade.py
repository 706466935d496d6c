"""google-quest-challenge graded as MLE-bench grades it: mean column-wise Spearman.

MLE-bench's grader wants ``qa_id`` and the 30 target columns and no other column (31
columns exactly, so an extra column or a written DataFrame index is rejected), and as
many rows as the answers. Both frames are sorted by ``qa_id`` and then paired by
position: the ids themselves are never compared, so unknown or repeated ids are scored
against whichever answers row lands at the same place. The score is the mean over the
30 columns of scipy's Spearman correlation; a blank or constant column gives NaN (no
score).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mle_gym.families.mlebench.parity_kit import InvalidSubmission, require

ID = "qa_id"
CLASSES = (
    "question_asker_intent_understanding",
    "question_body_critical",
    "question_conversational",
    "question_expect_short_answer",
    "question_fact_seeking",
    "question_has_commonly_accepted_answer",
    "question_interestingness_others",
    "question_interestingness_self",
    "question_multi_intent",
    "question_not_really_a_question",
    "question_opinion_seeking",
    "question_type_choice",
    "question_type_compare",
    "question_type_consequence",
    "question_type_definition",
    "question_type_entity",
    "question_type_instructions",
    "question_type_procedure",
    "question_type_reason_explanation",
    "question_type_spelling",
    "question_well_written",
    "answer_helpful",
    "answer_level_of_information",
    "answer_plausible",
    "answer_relevance",
    "answer_satisfaction",
    "answer_type_instructions",
    "answer_type_procedure",
    "answer_type_reason_explanation",
    "answer_well_written",
)


def grade(submission: pd.DataFrame, answers: pd.DataFrame) -> float:
    """Mean Spearman correlation of the 30 columns, rows paired after sorting by qa_id."""
    from scipy.stats import spearmanr

    if ID not in submission.columns:
        raise InvalidSubmission(f"the submission has no {ID!r} column")
    missing = set(CLASSES) - set(submission.columns)
    if missing:
        raise InvalidSubmission(f"the submission lacks the columns {sorted(missing)}")
    if len(submission.columns) != len(CLASSES) + 1:
        raise InvalidSubmission(
            f"the submission has {len(submission.columns)} columns; it must have exactly "
            f"{ID} and the {len(CLASSES)} target columns"
        )
    if len(submission) != len(answers):
        raise InvalidSubmission(
            f"the submission has {len(submission)} rows; the answers have {len(answers)}"
        )
    require(ID in answers.columns, f"answers lack {ID!r}")
    require(set(CLASSES) <= set(answers.columns), "answers lack target columns")
    require(len(answers.columns) == len(CLASSES) + 1, "answers have other columns")
    sub = submission.sort_values(ID)
    ans = answers.sort_values(ID)
    return float(np.mean([spearmanr(sub[c], ans[c]).correlation for c in CLASSES]))
