"""Evaluate an agent on many tasks and seeds: the same code as ``mle-gym eval``.

    python scripts/evaluate.py spaceship-titanic --seeds 3 --data replica --out runs/st
    python scripts/evaluate.py --out runs/st --resume
    python scripts/evaluate.py report runs/st

Every option of ``mle-gym eval`` works here (``--help`` lists them).
"""

from __future__ import annotations

import sys

from mle_gym.cli.eval_cmd import script_main

if __name__ == "__main__":  # required: local workers are started with "spawn"
    sys.exit(script_main(sys.argv[1:]))
