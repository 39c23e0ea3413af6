#!/usr/bin/env bash
# CI check of the quick start: runs its install step (scripts/setup.sh --test), then
# fails when the README's package list and setup.sh's differ, when a listed package is
# not installed, or when a program the quick start and the tests run cannot be found.
# A package missing from the list then fails CI instead of a new user's first try.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --test

# The README lists the packages between these two markers, as `name` words.
readme=$(sed -n '/<!-- packages: begin -->/,/<!-- packages: end -->/p' README.md |
  grep -o '`[a-z0-9][a-z0-9.+-]*`' | tr -d '`' | sort -u)
script=$(scripts/setup.sh --list --test | sort -u)
fail=0
if [[ -z "$readme" ]]; then
  echo "check-quick-start: README.md has no package list between <!-- packages: begin --> and <!-- packages: end -->" >&2
  exit 1
fi
only_readme=$(comm -23 <(echo "$readme") <(echo "$script"))
only_script=$(comm -13 <(echo "$readme") <(echo "$script"))
[[ -z "$only_readme" ]] || { echo "check-quick-start: in the README but not installed by scripts/setup.sh: $(echo $only_readme)" >&2; fail=1; }
[[ -z "$only_script" ]] || { echo "check-quick-start: installed by scripts/setup.sh but not in the README: $(echo $only_script)" >&2; fail=1; }

for p in $readme; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    { echo "check-quick-start: package $p is not installed after scripts/setup.sh --test" >&2; fail=1; }
done

# What scripts/play.sh and the end-to-end tests run.
for cmd in cargo Xvfb openbox xdotool xprop xdpyinfo xwd convert import dbus-run-session \
           /usr/games/gnome-sudoku chromium mutter pipewire wireplumber; do
  command -v "$cmd" >/dev/null || { echo "check-quick-start: $cmd not found after scripts/setup.sh --test" >&2; fail=1; }
done

((fail == 0)) && echo "check-quick-start: the README's $(echo "$readme" | wc -l) packages are installed and every quick-start program is there" >&2
exit $fail
