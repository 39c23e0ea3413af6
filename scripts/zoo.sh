#!/usr/bin/env bash
# The zoo: real sudoku games by other authors (Debian, PyPI, npm), each judged by the
# game itself. See docs/zoo.md.
#
#   scripts/zoo.sh --install [GAME...]   install the games (apt-get; pip and npm into
#                                        ~/.cache/sudoku-bot/zoo, or $ZOO_DIR)
#   scripts/zoo.sh [--runs N] [--load] [--no-controls] [GAME...]
#       for each game, on a virtual display of its own (Xvfb + openbox): the positive
#       control (a scripted player enters the answer: the game must say solved), the
#       negative control (one cell left empty: it must not), then N runs (1 by default)
#       of `sudoku-bot --window TITLE --once -v` with no configuration, each judged
#       by the game. Prints the run-by-run table ($ZOO_OUT/runs.md), then one row per
#       game with the total line ($ZOO_OUT/table.md: markdown, ready for the README);
#       logs and screenshots go to $ZOO_OUT (out/zoo). --load keeps both cores busy
#       (stress-ng) during the runs. A game whose file sets ZOO_EXPECT=refuse (a
#       sudoku variant this version does not play) is one the bot must refuse: its runs
#       count apart ("no claim": the bot exited non-zero and the game is not solved), and
#       a game that sets ZOO_RULE_CONTROL=MODE gets a third control (control ×, the
#       player in MODE: an answer that breaks only the variant's rule; must not be
#       judged solved).
#   scripts/zoo.sh --open GAME           start the game on a display of its own, print
#                                        DISPLAY and the window title, and keep it open
#                                        until Ctrl+C (to try the bot on it by hand)
#   scripts/zoo.sh --table               print the two tables again from $ZOO_OUT's results
#   scripts/zoo.sh --list                the games, one a line
#   scripts/zoo.sh --installed GAME...   exit 0 when the games are installed, else 1
#                                        naming what is missing
#
# The bot is $SUDOKU_BOT, else target/release/sudoku-bot of this tree (the front a user
# runs, which starts sudoku-bot-full beside it).
# Exit status: 0 when every control behaved, 1 when one did not, 2 on bad usage.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
source "$here/zoo/lib.sh"

usage() { sed -n '2,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }

install=0 check=0 open=0 runs=1 load=0 controls=1 table_only=0 games=()
while (($#)); do
  case $1 in
    --install) install=1 ;;
    --installed) check=1 ;;
    --open) open=1 ;;
    --runs) runs=${2:?}; shift ;;
    --load) load=1 ;;
    --no-controls) controls=0 ;;
    --table) table_only=1 ;;
    --list) ls "$here/zoo/games" | sed 's/\.sh$//'; exit 0 ;;
    -h | --help) usage 0 ;;
    -*) echo "zoo: unknown option $1" >&2; usage ;;
    *) games+=("$1") ;;
  esac
  shift
done
((${#games[@]})) || mapfile -t games < <(ls "$here/zoo/games" | sed 's/\.sh$//')
for g in "${games[@]}"; do
  [[ -f $here/zoo/games/$g.sh ]] || { echo "zoo: no game \"$g\" (scripts/zoo.sh --list)" >&2; exit 2; }
done

# Kind, verdict, what the bot must do (solve, or refuse: ZOO_EXPECT) and the player's
# mode for the control of the variant's rule (ZOO_RULE_CONTROL), split by \x1f (not a
# blank: an empty field stays a field).
printenv_kind() { printf '%s\x1f%s\x1f%s\x1f%s\n' "$ZOO_KIND" "${ZOO_VERDICT:-}" "${ZOO_EXPECT:-solve}" "${ZOO_RULE_CONTROL:-}"; }
needs_present() {
  local f
  for f in "${ZOO_NEEDS[@]}"; do
    [[ -e $f ]] || { echo "zoo: $1 needs $f (scripts/zoo.sh --install $1)" >&2; return 1; }
  done
}

# Each game's functions, in a subshell of its own so that games do not see each other's.
in_game() {
  local g=$1
  shift
  (
    unset -f zoo_after_bot
    source "$here/zoo/games/$g.sh"
    "$@"
  )
}

if ((check)); then
  missing=0
  for g in "${games[@]}"; do
    in_game "$g" needs_present "$g" || missing=1
  done
  exit $missing
fi

if ((install)); then
  mkdir -p "$ZOO_DIR"
  # The zoo's own tools: the display, window and input tools, screenshots, Tesseract for
  # the games' words, python3 for the players.
  zoo_apt xvfb openbox x11-utils xdotool imagemagick tesseract-ocr tesseract-ocr-eng wmctrl python3 || exit 1
  failed=0
  for g in "${games[@]}"; do
    zoo_log "installing $g"
    in_game "$g" zoo_install || { zoo_log "installing $g failed"; failed=1; }
  done
  exit $failed
fi

render_tables() {
  # The run-by-run table ($ZOO_OUT/runs.md), then the table per game ($ZOO_OUT/table.md,
  # README-ready) with the total. The load flag and the bot are those of the run
  # ($ZOO_OUT/run.txt).
  {
    echo "| game | kind | control + | control − | run | the game's verdict | bot exit | bot's last line | seconds | truthfully solved | game model | the bot must | control × |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    # Rows of an older results.tsv (11 fields) get the two last cells: solve, -.
    awk -F'\t' -v OFS='\t' 'NF == 11 { $12 = "solve"; $13 = "-" } 1' "$results" | sed 's/|/\//g; s/\t/ | /g; s/^/| /; s/$/ |/'
  } >"$ZOO_OUT/runs.md"
  local run_load run_bot run_when run_loadavg
  { read -r run_load; read -r run_bot; read -r run_when; read -r run_loadavg; } <"$ZOO_OUT/run.txt"
  python3 - "$results" "$ZOO_OUT/games.tsv" "${run_when:-$(date -u '+%Y-%m-%d %H:%M UTC')}" "${run_loadavg:-$(cut -d' ' -f1-3 /proc/loadavg)}" "$run_load" \
    "$run_bot" >"$ZOO_OUT/table.md" <<'PY'
import math, statistics, sys
results, games, when, loadavg, load, bot = sys.argv[1:]
text = lambda path: open(path, encoding="utf-8", errors="replace").read()
info = {f[0]: (f[1], f[2]) for f in (l.split("\t") for l in text(games).splitlines() if l)}
# results.tsv: 11 fields, then (since the variants) what the bot must do and control ×.
rows = [(l.split("\t") + ["solve", "-"])[:13] for l in text(results).splitlines() if l]
refuse = [r for r in rows if r[11] == "refuse"]
rows = [r for r in rows if r[11] != "refuse"]
def cell(text, n=110):
    text = text.replace("|", "/").strip()
    return text if len(text) <= n else text[: n - 3] + "..."
print(f"The zoo, run ending {when}: load average {loadavg} (1, 5, 15 min)" + (", both cores kept busy (stress-ng --cpu 2)" if load == "1" else "")
      + f"; the bot: {bot}.")
print()
# A run of variants alone has no table of games to solve.
if rows or not refuse:
    print("| game | kind | the game's verdict | control + | control − | solved truthfully | seconds (median of solved) | the bot's last line when not solved |")
    print("|---|---|---|---|---|---|---|---|")
    order, good_games = [], 0
    for r in rows:
        if r[0] not in order:
            order.append(r[0])
    for g in order:
        runs = [r for r in rows if r[0] == g]
        dealt = [r for r in runs if r[9] != "no game"]
        solved = [r for r in dealt if r[9] == "yes"]
        secs = [float(r[8]) for r in solved if r[8] not in ("", "-")]
        failed = [r for r in dealt if r[9] != "yes"]
        why = ""
        if failed:
            r = failed[-1]
            why = r[7] if r[6] != "0" else f"the bot exited 0; the game: {r[5]}"
        count = f"{len(solved)} of {len(dealt)}" + (f" ({len(runs) - len(dealt)} dealt no puzzle)" if len(runs) > len(dealt) else "")
        if dealt and len(solved) == len(dealt):
            good_games += 1
        kind, verdict = info.get(g, ("", ""))
        print(f"| {g} | {cell(kind)} | {cell(verdict)} | {cell(runs[0][2], 40)} | {cell(runs[0][3], 40)} | {count} | "
              + (f"{statistics.median(secs):.1f}" if secs else "-") + f" | {cell(why)} |")
    print()
    total = len(order)
    print(f"**{good_games} of {total} games solved truthfully** in every run "
          f"({sum(r[9] == 'yes' for r in rows)} of {sum(r[9] != 'no game' for r in rows)} runs; "
          f"≥90% needs {math.ceil(0.9 * total)} of {total} games).")
if refuse:
    # Variants this version does not play: each run must end with no claim (the bot
    # exited non-zero, the game not solved) or, were it to play them, truthfully solved;
    # never a claim of solved that the game denies.
    if rows:
        print()
    print("Variants the bot must refuse" + (" (not counted above):" if rows else ":"))
    print()
    print("| game | the game's verdict | control + | control − | control × | runs with no false claim | the bot's last line (last run) |")
    print("|---|---|---|---|---|---|---|")
    vorder = []
    for r in refuse:
        if r[0] not in vorder:
            vorder.append(r[0])
    good_variants = 0
    for g in vorder:
        runs = [r for r in refuse if r[0] == g]
        dealt = [r for r in runs if r[9] != "no game"]
        fine = [r for r in dealt if r[9] in ("no claim", "yes")]
        if dealt and len(fine) == len(dealt):
            good_variants += 1
        last = runs[-1]
        why = last[7] if last[6] != "0" or last[9] == "yes" else f"the bot exited 0 (claimed solved); the game: {last[5]}"
        print(f"| {g} | {cell(info.get(g, ('', ''))[1])} | {cell(runs[0][2], 40)} | {cell(runs[0][3], 40)} | {cell(runs[0][12], 40)} | "
              f"{len(fine)} of {len(dealt)} | {cell(why)} |")
    print()
    print(f"**{good_variants} of {len(vorder)} variants never claimed solved falsely** in every run.")
PY
echo
cat "$ZOO_OUT/runs.md"
echo
cat "$ZOO_OUT/table.md"
}

ZOO_OUT=${ZOO_OUT:-$here/out/zoo}
mkdir -p "$ZOO_OUT"
results=$ZOO_OUT/results.tsv
if ((table_only)); then
  [[ -s $ZOO_OUT/run.txt ]] || { echo "zoo: no run in $ZOO_OUT to make tables of" >&2; exit 2; }
  render_tables
  exit 0
fi
: >"$results"
: >"$ZOO_OUT/games.tsv"
# The bot under test and its tree's commit, when it is a cargo build in a git tree.
bot=${SUDOKU_BOT:-$ZOO_ROOT/target/release/sudoku-bot}
bot_tree=${bot%/target/*}
[[ $bot_tree != "$bot" ]] && commit=$(git -C "$bot_tree" log -1 --format='%h' 2>/dev/null) &&
  bot="$bot (built $(date -u -r "$bot" '+%H:%M UTC' 2>/dev/null) in a tree at commit $commit)"
printf '%s\n%s\n' "$load" "$bot" >"$ZOO_OUT/run.txt"
ZOO_RUN=$(mktemp -d)
export ZOO_RUN
cleanup() {
  zoo_stop_all
  # Terminal games' tmux servers (named after this script's pid), should a game's
  # subshell have been cut short.
  local socket
  for socket in "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)"/zoo-$$-*; do
    [[ -e $socket ]] && tmux -L "${socket##*/}" kill-server 2>/dev/null
  done
  [[ -n ${load_pid:-} ]] && kill -- "-$load_pid" 2>/dev/null
  rm -rf "$ZOO_RUN"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

zoo_display || exit 1
zoo_log "display $DISPLAY"
if ((load)); then
  zoo_apt stress-ng >/dev/null || exit 1
  setsid stress-ng --cpu 2 --cpu-method matrixprod --quiet >/dev/null 2>&1 &
  load_pid=$!
  zoo_log "load: stress-ng --cpu 2 (pid $load_pid)"
fi

# One step of a game: launch it, do STEP (a function of the game's subshell), let the
# game judge; prints "VERDICT<TAB>EXTRA" where STEP's own line is EXTRA.
episode() {
  local g=$1 step=$2 tag=$3
  in_game "$g" bash_episode "$step" "$tag" "$g"
}
bash_episode() {
  local step=$1 tag=$2 g=$3 extra verdict
  if ! zoo_launch; then
    zoo_shot "$ZOO_OUT/$g-$tag.png"
    zoo_stop_games 2
    printf 'no verdict: the game did not start\t-\n'
    return
  fi
  extra=$($step 2>>"$ZOO_OUT/$g-$tag.log")
  declare -F zoo_after_bot >/dev/null && zoo_after_bot
  sleep "${ZOO_SETTLE:-1}"
  zoo_shot "$ZOO_OUT/$g-$tag.png"
  verdict=$(zoo_verdict 2>>"$ZOO_OUT/$g-$tag.log")
  zoo_stop_games 2
  printf '%s\t%s\n' "${verdict:-no verdict}" "$extra"
}
control_right() { zoo_player right >&2; }
control_wrong() { zoo_player wrong >&2; }
control_rule() { zoo_player "$ZOO_RULE_CONTROL" >&2; }
bot_run() {
  local start end rc log=$ZOO_RUN/bot.log
  start=$(date +%s.%N)
  # The bot stores what it learns of a game under XDG_STATE_HOME: one state folder per
  # game, emptied before its first run, so that run 1 is a first-time user's and runs 2
  # and later are that user's next runs (from what was stored). ZOO_FORGET=1 empties it
  # before every run; ZOO_REMEMBER=1 uses the user's own.
  local state=$ZOO_RUN/state-$g
  [[ ${ZOO_FORGET:-0} == 1 ]] && rm -rf "$state"
  [[ ${ZOO_REMEMBER:-0} == 1 ]] && state=${XDG_STATE_HOME:-$HOME/.local/state}
  XDG_STATE_HOME=$state timeout -k 5 "${ZOO_BOT_TIMEOUT:-300}" \
    "${SUDOKU_BOT:-$ZOO_ROOT/target/release/sudoku-bot}" --window "$ZOO_WINDOW" --once -v >"$log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  cat "$log" >&2
  # Where the game model came from: learnt in this run, or stored by an earlier one (and
  # kept, or dropped when play contradicted it).
  local model=learnt
  if grep -q 'using what was learnt of this game before' "$log"; then
    model=stored
    grep -q 'dropped the model stored of this game' "$log" && model="stored, dropped"
  fi
  printf '%s|%s|%s|%s' "$rc" "$(grep -v '^ *$' "$log" | tail -n 1 | cut -c1-160 | tr '|\t' '/ ')" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" "$model"
}


if ((open)); then
  keep_open() {
    trap 'zoo_stop_games 2' EXIT
    trap 'exit 130' INT TERM
    zoo_launch || { echo "zoo: $1 did not start (logs in $ZOO_RUN)" >&2; return 1; }
    echo "DISPLAY=$DISPLAY sudoku-bot --window \"$ZOO_WINDOW\" --once -v   # $1; Ctrl+C ends it"
    while sleep 3600; do :; done
  }
  in_game "${games[0]}" keep_open "${games[0]}"
  exit
fi

bad_controls=0
for g in "${games[@]}"; do
  IFS=$'\x1f' read -r kind judge expect rule_control < <(in_game "$g" printenv_kind)
  printf '%s\t%s\t%s\t%s\n' "$g" "$kind" "$judge" "$expect" >>"$ZOO_OUT/games.tsv"
  cplus=- cminus=- crule=-
  if ((controls)); then
    zoo_log "$g: positive control"
    v=$(episode "$g" control_right "control-right" | cut -f1)
    [[ $v == solved:* ]] && cplus=ok || { cplus="FAIL ($v)"; bad_controls=1; }
    zoo_log "$g: positive control: $v"
    zoo_log "$g: negative control"
    v=$(episode "$g" control_wrong "control-wrong" | cut -f1)
    [[ $v == "not solved:"* ]] && cminus=ok || { cminus="FAIL ($v)"; bad_controls=1; }
    zoo_log "$g: negative control: $v"
    if [[ -n $rule_control ]]; then
      zoo_log "$g: control of the variant's rule (player: $rule_control)"
      v=$(episode "$g" control_rule "control-rule" | cut -f1)
      [[ $v == "not solved:"* ]] && crule=ok || { crule="FAIL ($v)"; bad_controls=1; }
      zoo_log "$g: control of the variant's rule: $v"
    fi
  fi
  for r in $(seq "$runs"); do
    zoo_log "$g: bot run $r"
    line=$(episode "$g" bot_run "bot-$r")
    verdict=${line%%$'\t'*}
    IFS='|' read -r rc last secs model <<<"${line#*$'\t'}"
    solved=no
    [[ $verdict == solved:* && $rc == 0 ]] && solved=yes
    # A variant the bot must refuse: "no claim" when it exited non-zero and the game is
    # not solved (whether it typed nothing, or typed and then did not claim solved).
    [[ $expect == refuse && $solved == no && $rc != 0 && $verdict != solved:* ]] && solved="no claim"
    # The game never dealt a puzzle (it did not start): not a run of the bot.
    [[ $verdict == "no verdict: the game did not start" ]] && solved="no game"
    zoo_log "$g: run $r: $verdict; bot exit $rc in ${secs}s (model ${model:--}): $last"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$g" "$kind" "$cplus" "$cminus" "$r" \
      "$verdict" "${rc:--}" "${last:--}" "${secs:--}" "$solved" "${model:--}" "${expect:-solve}" "$crule" >>"$results"
  done
done

# When the run ended and the load average then (1, 5, 15 minutes), for the tables.
printf '%s\n%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$ZOO_OUT/run.txt"
render_tables
exit $bad_controls
