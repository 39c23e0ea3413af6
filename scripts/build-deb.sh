#!/usr/bin/env bash
# Builds the Debian package target/debian/sudoku-bot_VERSION_ARCH.deb: the two
# executables, the man page and shell completions (generated from the command line's
# own definition by `sudoku-bot-full --generate`), the systemd user unit and the XDG
# autostart entry (packaging/), the example configuration and the profiles.
# Needs cargo-deb (`cargo install cargo-deb --locked`) and dpkg-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-deb >/dev/null || { echo "build-deb: cargo-deb is missing: cargo install cargo-deb --locked" >&2; exit 1; }
cargo build --release --locked --bins
target="${CARGO_TARGET_DIR:-$PWD/target}"
full="$target/release/sudoku-bot-full"
mkdir -p target/assets
"$full" --generate man >target/assets/sudoku-bot.1
"$full" --generate bash >target/assets/sudoku-bot.bash
"$full" --generate zsh >target/assets/_sudoku-bot
"$full" --generate fish >target/assets/sudoku-bot.fish
cargo deb --no-build --locked "$@"
