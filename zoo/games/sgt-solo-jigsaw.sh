# Solo's jigsaw variant (Simon Tatham's Portable Puzzle Collection, GTK 3), Debian's
# sgt-puzzles: nine irregular regions drawn with thick lines instead of 3x3 boxes. A
# game the bot must REFUSE (ZOO_EXPECT=refuse). Verdict: Solo's own text of its grid
# (Game > Copy, with the regions' walls as | - +) must be Solo's own solution
# (`sgt-solo --print --with-solutions`), zoo/sgt-solo-variant.sh.
SOLO_PRESET=9jdb
# sgt-solo --generate 1 9jdb
SOLO_ID='9j:a8_4_5b6a1i3a1b2g6a3m5a8g6b9a3i4a2b9_1_5a,abcaacaa_a_a_bba__a_a___ba_a_bb__egcba_d__a_e__abab_bbbba____ccb'
SOLO_RULES='regions'
ZOO_VERDICT='its copied grid: Solo'"'"'s own jigsaw solution'
source "$ZOO_ROOT/zoo/sgt-solo-variant.sh"
