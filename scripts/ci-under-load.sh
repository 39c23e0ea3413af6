#!/usr/bin/env bash
# Runs CI's test command (.ci/run) N times in a row from clean clones of HEAD while a
# load generator keeps both cores busy (stress-ng --cpu 2), and prints one line per run:
# its exit status, wall time and the load average at its end. Stops at the first failure.
#   scripts/ci-under-load.sh [N]        (default 3; logs in out/ci-under-load/run-K.log)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
command -v stress-ng >/dev/null || scripts/setup.sh --test
out=$PWD/out/ci-under-load
mkdir -p "$out"
head=$(git rev-parse --short HEAD)
setsid stress-ng --cpu 2 --cpu-method matrixprod --quiet >/dev/null 2>&1 &
load_pid=$!
trap 'kill -- -"$load_pid" 2>/dev/null || kill "$load_pid" 2>/dev/null || true' EXIT
echo "ci-under-load: $runs runs of .ci/run at $head, stress-ng --cpu 2 (pid $load_pid)"
for ((k = 1; k <= runs; k++)); do
  dir=$(mktemp -d /tmp/sudoku-bot-ci-XXXXXX)
  git clone -q . "$dir"
  start=$(date +%s)
  if (cd "$dir" && bash .ci/run) >"$out/run-$k.log" 2>&1; then status=passed; else status=FAILED; fi
  took=$(($(date +%s) - start))
  summary=$(grep -E '^test result:' "$out/run-$k.log" | awk '{p += $4; f += $6} END {print p " passed, " f " failed"}')
  echo "run $k: $status in ${took} s ($summary; load average $(cut -d' ' -f1-3 /proc/loadavg))"
  rm -rf "$dir"
  [[ $status == passed ]] || exit 1
done
