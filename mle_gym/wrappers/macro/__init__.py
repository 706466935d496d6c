"""MacroActionWrapper: an MLE-bench tabular task as a small discrete-action MDP.

The wrapped env keeps its tool-call interface; this wrapper turns it into an
environment that standard RL libraries (stable-baselines3, ...) can train on::

    env = MacroActionWrapper(
        gymnasium.make("MLEBench/spaceship-titanic-v0", data="replica", reward_mode="normalized")
    )
    obs, info = env.reset(seed=0)            # obs: float32 vector, see "Observation"
    obs, reward, terminated, truncated, info = env.step(17)   # fit-eng-hgb-large

Move table (``Discrete(19)`` with the default library; ``env.moves`` lists the
moves with readable names, ``describe_moves(env.moves)`` prints this table). A
fit move fits one candidate = feature set x model family x setting on a fixed
held-out validation split of ``train.csv``, scores it, refits it on the whole
of ``train.csv`` and keeps its test predictions in the workspace:

    ====  ======================  ===============================================
    move  name                    what it does
    ====  ======================  ===============================================
     0    fit-num-linear-small    numeric columns; logistic/ridge, strong penalty
     1    fit-num-linear-large    numeric columns; logistic/ridge, weak penalty
     2    fit-num-rf-small        numeric columns; random forest, 60 trees, depth 8
     3    fit-num-rf-large        numeric columns; random forest, 200 full trees
     4    fit-num-hgb-small       numeric columns; hist. gradient boosting, 80 iter
     5    fit-num-hgb-large       numeric columns; hist. gradient boosting, 300 iter
     6-11 fit-cat-...             same six models; + categorical codes
    12-17 fit-eng-...             same six models; + categorical codes + engineered
    18    submit-best             write the best validated candidate's test
                                  predictions to the submission file and submit
                                  (the sample submission if nothing was fitted)
    ====  ======================  ===============================================

Feature sets: ``num`` = the columns pandas reads as numbers (the id column is
never a feature); ``cat`` = ``num`` + integer codes of every text column with at
most 50 distinct values (one-hot encoded for linear models, native categories
for gradient boosting); ``eng`` = ``cat`` + simple generic features: value
frequencies of high-cardinality text columns, their pieces split on ``/ _ : -``
and spaces (numeric pieces as numbers, few-valued pieces as codes, many-valued
ones as frequencies), ``log1p`` of zero-inflated non-negative amounts with their
total and non-zero count, and the number of missing values per row. The
validation metric follows the task's metric: accuracy (label targets), ROC AUC
(probability targets), RMSE, RMSLE or MAE (numeric targets); with several target
columns (one model each) it is their mean.

Observation (``Box(-1, 1, (2 * n_fit + 4,), float32)``; 40 values by default),
in this order:

* ``[0, n_fit)``: the validation skill of each fit move so far, -1 if not
  tried. Skill = the validation score placed between a constant predictor's
  score on the same split (0; majority class, AUC 0.5, train mean) and a
  perfect score (1), clipped to [0, 1]; a failed fit counts as 0.
* ``n_fit``: the best skill so far (-1 if none);
* ``n_fit + 1``: moves left, as a fraction of the move budget;
* ``n_fit + 2``: time left, as a fraction of the time budget, rounded down to
  ``time_resolution``. The clock is virtual: each fit is charged the sandbox
  time it took when it really ran (memoized fits are charged that recorded
  time too), so a cached episode looks exactly like an uncached one;
* ``[n_fit + 3, 2 * n_fit + 4)``: the last move, one-hot (all 0 after reset).

Reward: ``-move_cost`` for every move; the final move also gets the wrapped
env's reward for the graded submission (use ``reward_mode="normalized"`` on
replica data, so a sample submission earns 0 and the task's reference solution
1). The episode ends (``terminated=True``) with ``submit-best``, or after the
move that uses up the move budget or the virtual time budget, on which
``submit-best`` runs automatically (``info["auto_submitted"]``). If the wrapped
env ends by itself (its own step or wall-clock budget) the episode ends with its
reward and ``truncated=True``.

``info`` of a move: ``move``, ``move_index``, ``moves_used``, ``moves_left``,
``best_move``, ``best_val_score``, ``virtual_time_s``; for a fit also ``cache_hit``,
``ok``, ``val_score``, ``val_baseline``, ``val_skill``, ``metric``, ``fit_seconds``
(``error`` if it failed); on the final move ``submitted`` (a move name or
"sample_submission"), ``env_reward``, ``grade`` (the env's grade report) and
``auto_submitted`` when the budget ran out. ``reset``'s info lists the moves.

Every move really runs in the sandbox through the env's tools: once per episode
(on the first fit that needs it) ``write_file`` puts the solution program
(:mod:`mle_gym.wrappers.macro.solution_program`, shipped as package data) at
``macro/macro_solution.py``; a fit runs it with the ``python`` tool (default;
the data stays loaded between fits) or ``execute`` and parses its JSON line;
the candidate's predictions land in ``macro/preds/<move>.csv``. The wrapper
reads the task's data and the predictions through the env's file-tool layer
(sandbox paths such as ``data/train.csv``; see :mod:`.files`), never through a
host path or the data store's layout. With ``memoize=True`` (default) the result
of (task, data source, data checksum, move, split, program version) is cached on
the host under ``$MLE_GYM_HOME/macro_cache/``; a cache hit writes the cached
predictions into the workspace with ``write_file`` instead of running the
program. Validation uses a fixed split seed and every model a fixed random
state, so results are deterministic.

Only tasks whose public data has ``train.csv``, ``test.csv`` and
``sample_submission.csv`` (id column first, the other columns being targets
present in ``train.csv``) are supported (spaceship-titanic and the
tabular-playground / playground-series replicas, among others); ``reset``
raises ``ValueError`` for others. This package imports no torch,
stable-baselines3 or scikit-learn (scikit-learn runs inside the sandbox).

Modules: :mod:`.moves` (the move library, validation metric, skill),
:mod:`.program` (the solution program's text, version, tool calls and result
line), :mod:`.solution_program` (the program itself), :mod:`.cache` (the
host-side fit cache), :mod:`.files` (reading the episode's data and predictions)
and :mod:`.wrapper` (:class:`MacroActionWrapper`). ``FAMILIES`` is the
deprecated old name of :data:`MODEL_FAMILIES`.
"""

from __future__ import annotations

from typing import Any

from mle_gym._deprecation import renamed_attribute
from mle_gym.wrappers.macro.cache import CACHE_VERSION, FitCache
from mle_gym.wrappers.macro.files import REQUIRED_FILES
from mle_gym.wrappers.macro.moves import (
    FEATURE_SETS,
    MODEL_FAMILIES,
    NOT_TRIED,
    SETTINGS,
    SUBMIT_NAME,
    Move,
    build_moves,
    describe_moves,
    skill,
    validation_metric,
)
from mle_gym.wrappers.macro.program import (
    PREDS_DIR,
    RESULT_KEY,
    SCRIPT_PATH,
    SCRIPT_VERSION,
    SOLUTION_SCRIPT,
)
from mle_gym.wrappers.macro.wrapper import EXTRA_ENV_STEPS, MacroActionWrapper

__all__ = [
    "CACHE_VERSION",
    "EXTRA_ENV_STEPS",
    "FEATURE_SETS",
    "MODEL_FAMILIES",
    "NOT_TRIED",
    "PREDS_DIR",
    "REQUIRED_FILES",
    "RESULT_KEY",
    "SCRIPT_PATH",
    "SCRIPT_VERSION",
    "SETTINGS",
    "SOLUTION_SCRIPT",
    "SUBMIT_NAME",
    "FitCache",
    "MacroActionWrapper",
    "Move",
    "build_moves",
    "describe_moves",
    "skill",
    "validation_metric",
]

#: old name -> new name (``FAMILIES`` meant model families, not task families)
_RENAMED = {"FAMILIES": "MODEL_FAMILIES"}


def __getattr__(name: str) -> Any:
    """Old names, with a ``DeprecationWarning`` naming the new one."""
    return renamed_attribute(__name__, name, _RENAMED, globals())
