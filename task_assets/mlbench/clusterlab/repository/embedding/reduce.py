"""Project a bundled dataset to a few dimensions and save the coordinates as CSV.

Example:
    python reduce.py --dataset digits --method pca --n-components 2
"""

from __future__ import annotations

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))

from clusterlab.api import DATASETS, METHODS, embed


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--dataset", required=True, choices=DATASETS)
    p.add_argument("--method", default="pca", choices=METHODS)
    p.add_argument("--n-components", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--output", default="embedding.csv")
    args = p.parse_args(argv)

    Z = embed(args.dataset, args.method, args.n_components, args.seed)
    with open(args.output, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([f"c{i}" for i in range(Z.shape[1])])
        w.writerows([[f"{v:.6g}" for v in row] for row in Z])
    print(
        f"{args.method} embedding of {args.dataset}: {Z.shape[0]} rows x {Z.shape[1]} "
        f"components -> {args.output}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
