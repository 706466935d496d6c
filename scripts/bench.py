"""Measure the environment's overhead: `mle-gym bench` (see ``mle_gym/bench``).

    python scripts/bench.py [--tiny] [--backends local,docker] [--only GROUPS] [--out FILE]

Prints a table (medians over repeated runs; every ratio measured side by side in
the same run) and writes a JSON file with the machine description.
"""

from __future__ import annotations

import sys

from mle_gym.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
