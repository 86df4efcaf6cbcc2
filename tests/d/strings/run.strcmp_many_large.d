/*
 * strcmp is a global function (dt_link.c, ks_kernel.c's BTF): the verifier
 * checks it once a program, not at each comparison.  At strsize 4096 a
 * comparison cost it 1,024 pending branches, and the eighth on one probe
 * was refused (D_CG_LIMIT, "the sequence of 8193 jumps is too complex");
 * twenty now load, and each compares as before: equal, less, greater, a
 * prefix, empty strings.
 */
#pragma D option quiet
#pragma D option strsize=4096

BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d %d\n", probename == "BEGIN", probename == "BEGIM", probename < "BEGIO", probename > "BEGIO", probename > "BEGI"); }
BEGIN { printf("%d %d %d %d\n", "" == "", "" < "a", "a" < "", "abc" == "abd"); }
BEGIN { printf("%d %d %d %d\n", "" == "", "" < "a", "a" < "", "abc" == "abd"); }
BEGIN { printf("%d %d %d %d\n", "" == "", "" < "a", "a" < "", "abc" == "abd"); }
BEGIN { printf("%d %d %d %d\n", "" == "", "" < "a", "a" < "", "abc" == "abd"); }
BEGIN { printf("%d %d %d %d\n", "" == "", "" < "a", "a" < "", "abc" == "abd"); }
BEGIN { x = "a"; y = "b"; }
BEGIN { printf("%d %d\n", x < y, strjoin(x, y) == "ab"); }
BEGIN { printf("%d %d\n", x < y, strjoin(x, y) == "ab"); }
BEGIN { printf("%d %d\n", x < y, strjoin(x, y) == "ab"); }
BEGIN { printf("%d %d\n", x < y, strjoin(x, y) == "ab"); }
BEGIN { printf("%d %d\n", x < y, strjoin(x, y) == "ab"); }
BEGIN { exit(0); }
