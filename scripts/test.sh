#!/usr/bin/env bash
# The README's test command: install what is missing, check the quick start's package
# list, build, run every test (the fuzz corpus and crash inputs are replayed by
# tests/fuzz_replay.rs on stable), then, where a nightly toolchain and cargo-fuzz are
# present, fuzz each target for FUZZ_SECONDS (60) seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/check-quick-start.sh
# --workspace: the solver benchmark (bench-baseline) and the tools build too.
cargo build --release --locked --workspace 2>&1 | tail -n 3
cargo test --release --locked --workspace --no-fail-fast 2>&1
scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
