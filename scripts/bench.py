"""Measure the environment's overhead: `mle-gym bench` (see ``mle_gym/bench``).

    python scripts/bench.py [--tiny] [--backends local,docker] [--only GROUPS] [--out FILE]

Prints a table (medians over repeated runs; the ratio column is median / baseline,
both measured side by side in the same run, marked better or worse, with a note under
the table saying which way is better) and writes a JSON file with the machine description.
"""

from __future__ import annotations

import sys

from mle_gym.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
