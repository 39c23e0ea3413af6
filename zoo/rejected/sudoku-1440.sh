# LEFT OUT of the zoo: it downloads its puzzle list from the network when it starts
# ("RuntimeError: io: failed to lookup address information"). Kept for the record.
# sudoku_1440 3.2.2 (Kivy, TextInput cells), PyPI. Started on "generate a random puzzle".
# Verdict: its "Submit!" button, which shows "Correct!", "Incorrect!" or "Please fill the
# entire grid!" for two seconds.
ZOO_KIND=Kivy
ZOO_SOURCE=pypi
ZOO_PACKAGE=sudoku-1440
ZOO_VERSION=3.2.2
ZOO_AUTHOR="shaggysa"
ZOO_LICENSE=MIT

zoo_install() { zoo_pip "sudoku-1440==3.2.2" && zoo_apt libmtdev1 libgl1 xclip; }

zoo_launch() {
  HOME=$ZOO_RUN zoo_spawn game env KIVY_NO_ARGS=1 KIVY_LOG_MODE=PYTHON "$ZOO_DIR/py/bin/sudoku_1440"
  zoo_wait_window '^Sudoku$' 60 >/dev/null || return 1
  ZOO_WINDOW=Sudoku
  sleep 2
  zoo_click_words 'generate' || return 1
  sleep 1.5
}

zoo_after_bot() { :; }

zoo_verdict() {
  zoo_click_words 'Submit' || { echo "not solved: no Submit! button on the screen"; return; }
  sleep 0.4
  zoo_judge_words 'Correct!' 'Incorrect|Please fill' "$(zoo_screen_words)" "sudoku_1440's message"
}

zoo_player() { zoo_click_player "$1"; }
