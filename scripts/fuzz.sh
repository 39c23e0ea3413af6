#!/usr/bin/env bash
# Short fuzz runs: each target of fuzz/ for SECONDS (default 60) seconds, one after
# the other, starting from the saved corpus. New corpus entries go to a temporary
# folder (the saved corpus is not changed); a crash, hang (over 10 s an input) or
# allocation over 2 GB stops the run, keeps the input under fuzz/artifacts/TARGET/ and
# fails. Needs the nightly toolchain and cargo-fuzz; without them it says so and
# succeeds (the corpus is still replayed on stable by tests/fuzz_replay.rs).
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(read solve config overlay)
if ! cargo +nightly --version >/dev/null 2>&1 || ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz: no nightly toolchain or cargo-fuzz here; fuzzing skipped (rustup toolchain install nightly; cargo install cargo-fuzz)"
  exit 0
fi
# The instrumented build of every dependency takes about 20 minutes the first time on
# 2 cores and 2 after: it is kept outside the checkout, so that a fresh clone (CI) on
# the same machine reuses it.
target_dir=${SUDOKU_FUZZ_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sudoku-bot/fuzz-target}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in "${targets[@]}"; do
  max_len=8192
  [[ $t == read ]] && max_len=65536
  mkdir -p "$work/$t" "fuzz/artifacts/$t"
  echo "fuzz: $t for ${seconds} s"
  status=0
  cargo +nightly fuzz run --target-dir "$target_dir" "$t" "$work/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="fuzz/artifacts/$t/" -print_final_stats=1 >"$work/$t.log" 2>&1 || status=$?
  grep -E '^(#[0-9]+ +DONE|stat::(number_of_executed_units|peak_rss_mb)|Done [0-9]+ runs)' "$work/$t.log" || true
  if [[ $status -ne 0 ]]; then
    tail -n 40 "$work/$t.log" >&2
    echo "fuzz: $t failed; the input is in fuzz/artifacts/$t/ (copy it to fuzz/regressions/$t/ once fixed)" >&2
    exit 1
  fi
done
