# Solo's killer variant (Simon Tatham's Portable Puzzle Collection, GTK 3), Debian's
# sgt-puzzles: no given digits; cages drawn in dotted olive lines, each with the sum of
# its digits in its corner (no digit twice in a cage). A game the bot must REFUSE
# (ZOO_EXPECT=refuse). Solo cannot copy a killer grid as text (its Copy is greyed), so
# the verdict lets Solo draw its own answer: the window before and after Game > Solve
# must show the same digits in every cell, zoo/sgt-solo-variant.sh. A third control,
# "classic" (control ×): a valid classic sudoku that is not Solo's answer (so it breaks
# cages) must be judged not solved.
SOLO_PRESET=3x3kdb
# sgt-solo --generate 1 3x3kdb
SOLO_ID='3x3k:zzzc,_aaa___a______a__a______aa__aaa__a_______a___a_abbaba__a_aa_a___aa____aa_aa__a_aa__aa__ab___a_aaaa_,7_10a10a13a8_8a11_15b15_16b3a11a5c17a21_8_7a19_14h3a11_11a10_9_7a9_14a15_7b10c14b11b20c6a23d7a'
SOLO_RULES='boxes cages'
ZOO_VERDICT='Game > Solve changes no cell of its grid'
ZOO_RULE_CONTROL=classic
source "$ZOO_ROOT/zoo/sgt-solo-variant.sh"
