#!/usr/bin/env bash
# The README's test command: install what is missing, check the quick start's package
# list, install the zoo's CI subset (real games by other authors, tests/e2e_zoo.rs; the
# Solo variants the bot must refuse, tests/e2e_variants.rs),
# build, run every test (the fuzz corpus and crash inputs are replayed by
# tests/fuzz_replay.rs on stable), build the Debian package and check what it holds,
# then, where a nightly toolchain and cargo-fuzz are present, fuzz each target for
# FUZZ_SECONDS (60) seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/check-quick-start.sh
scripts/zoo.sh --install nudoku flsudoku sgt-solo gnome-sudoku sgt-solo-x sgt-solo-jigsaw-x sgt-solo-jigsaw sgt-solo-killer
# --workspace: the solver benchmark (bench-baseline) and the tools build too.
cargo build --release --locked --workspace 2>&1 | tail -n 3
cargo test --release --locked --workspace --no-fail-fast 2>&1
scripts/check-deb.sh
scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
