"""ML-Bench: turn an instruction into the command (or script) that runs a repository's code.

The pieces, one concern each:

* :mod:`~mle_gym.families.mlbench.schema` — an example of the Hugging Face schema, validated;
* :mod:`~mle_gym.families.mlbench.loader` — examples from the hub, a local export or the
  bundled offline set, by split;
* :mod:`~mle_gym.families.mlbench.folders` — the task folders: bundled repositories (one
  folder each: task, ``repository/``, ``examples/``) and the repository URLs tasks declare;
* :mod:`~mle_gym.families.mlbench.repos` — the repository checkout an example runs in;
* :mod:`~mle_gym.families.mlbench.workspace` — episode and grading copies of a checkout;
* :mod:`~mle_gym.families.mlbench.argcheck` and :mod:`~mle_gym.families.mlbench.execution` — the
  two checks, combined by :mod:`~mle_gym.families.mlbench.grading`;
* :mod:`~mle_gym.evaluation.passk` — the unbiased pass@k estimator.

Importing this package is light (no sandbox backend, no ``datasets``).
"""
