#!/usr/bin/env bash
# Run k-means for every k in [k_min, k_max] and print the ARI/silhouette of each.
# Usage: bash sweep_k.sh <dataset> <k_min> <k_max>
set -euo pipefail
if [ "$#" -ne 3 ]; then
  echo "usage: bash sweep_k.sh <dataset> <k_min> <k_max>" >&2
  exit 2
fi
dataset="$1"
k_min="$2"
k_max="$3"
if [ "$k_min" -gt "$k_max" ]; then
  echo "k_min ($k_min) is larger than k_max ($k_max)" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "sweep_${dataset}"
for k in $(seq "$k_min" "$k_max"); do
  python "$root/cluster.py" --dataset "$dataset" --n-clusters "$k" \
    --output "sweep_${dataset}/k${k}.csv"
done
