# Solo's X variant (Simon Tatham's Portable Puzzle Collection, GTK 3), Debian's
# sgt-puzzles: a 9x9 sudoku whose two diagonals, drawn shaded, must also hold 1-9. A
# game the bot must REFUSE (ZOO_EXPECT=refuse): read as a classic sudoku this puzzle has
# hundreds of solutions, and nearly all of them break a diagonal (Solo draws those
# digits red). Verdict: Solo's own text of its grid (Game > Copy) must be Solo's own
# solution (`sgt-solo --print --with-solutions`), zoo/sgt-solo-variant.sh. A third
# control, "classic" (control ×): a grid that keeps every row, column and box but breaks
# a diagonal must be judged not solved.
SOLO_PRESET=3x3xdb
# sgt-solo --generate 1 3x3xdb (24 givens)
SOLO_ID='3x3x:j5_7a8_4a3a3b7_5f5_2_1c4i7c4_9_2f3_7b5a4a9_2a6_1j'
SOLO_RULES='boxes diagonals'
ZOO_VERDICT='its copied grid: Solo'"'"'s own X solution'
ZOO_RULE_CONTROL=classic
source "$ZOO_ROOT/zoo/sgt-solo-variant.sh"
