#!/usr/bin/env bash
# CI check of the Debian package: installs cargo-deb when it is missing (pinned), builds
# the package with scripts/build-deb.sh, and fails when it lacks a file a user relies on
# (the two executables, the man page, the completions, the systemd user unit, the
# autostart entry, the .desktop file that authorises it on KDE Plasma) or does not declare Tesseract's English model as a dependency.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-deb >/dev/null || cargo install cargo-deb --locked --version 3.8.0 2>&1 | tail -n 2
scripts/build-deb.sh 2>&1 | tail -n 1
deb=$(ls -t "${CARGO_TARGET_DIR:-target}"/debian/sudoku-bot_*.deb | head -n 1)
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
fail=0
for want in ./usr/bin/sudoku-bot ./usr/bin/sudoku-bot-full ./usr/share/man/man1/sudoku-bot.1.gz \
            ./usr/share/bash-completion/completions/sudoku-bot \
            ./usr/lib/systemd/user/sudoku-bot.service ./usr/share/applications/sudoku-bot.desktop; do
  grep -qx -- "$want" <<<"$files" || { echo "check-deb: $deb lacks $want" >&2; fail=1; }
done
grep -q 'autostart/sudoku-bot.desktop$' <<<"$files" || { echo "check-deb: $deb lacks the autostart entry" >&2; fail=1; }
dpkg-deb -f "$deb" Depends | grep -q tesseract-ocr-eng || { echo "check-deb: $deb does not depend on tesseract-ocr-eng" >&2; fail=1; }
((fail == 0)) && echo "check-deb: $deb holds the executables, man page, completions, user unit and autostart entry"
exit $fail
