#!/usr/bin/env bash
# Fit one penalised linear model per alpha and print a table of R2 scores.
# Usage: bash alpha_sweep.sh <dataset> <penalty> <alphas>   (alphas comma-separated)
set -euo pipefail
if [ "$#" -ne 3 ]; then
  echo "usage: bash alpha_sweep.sh <dataset> <penalty> <alphas>" >&2
  exit 2
fi
dataset="$1"
penalty="$2"
IFS=',' read -r -a alphas <<< "$3"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p sweep
for a in "${alphas[@]}"; do
  python "$here/../linear/train_linear.py" --dataset "$dataset" --penalty "$penalty" \
    --alpha "$a" --metrics "sweep/${penalty}_${a}.json"
done
echo "sweep results in sweep/"
