#!/usr/bin/env bash
# The README's test command: install what is missing, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
cargo build --release --locked 2>&1 | tail -n 3
cargo test --release --locked --workspace --no-fail-fast 2>&1
