# Solo's jigsaw X variant (Simon Tatham's Portable Puzzle Collection, GTK 3), Debian's
# sgt-puzzles: nine irregular regions drawn with thick lines instead of 3x3 boxes, and
# the two diagonals, drawn shaded, must also hold 1-9. A game the bot must REFUSE
# (ZOO_EXPECT=refuse). Verdict: Solo's own text of its grid (Game > Copy, with the
# regions' walls as | - +) must be Solo's own solution (`sgt-solo --print
# --with-solutions`), zoo/sgt-solo-variant.sh.
SOLO_PRESET=9jxdb
# sgt-solo --generate 1 9jxdb
SOLO_ID='9jx:d5b9c8a9g4d2f8a4a6a7a5a2a5a3f9d1g4a9c8b6d,dcbbb_aabab_aa_dbebdaecadccdbccb__a_bba___baabbeab'
SOLO_RULES='regions diagonals'
ZOO_VERDICT='its copied grid: Solo'"'"'s own jigsaw X solution'
source "$ZOO_ROOT/zoo/sgt-solo-variant.sh"
