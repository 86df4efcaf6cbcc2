/*
 * A string comparison walks the string a word at a time, and the verifier
 * walks that loop once per word, keeping two branches pending each time:
 * at strsize 4096, 1,024 a comparison.  The eighth on one probe passes the
 * 8,100 branches dtrace -e allows (the kernel refuses it too: "the sequence
 * of 8193 jumps is too complex"); seven load.
 */
#pragma D option strsize=4096

BEGIN { a = probename == "a"; }
BEGIN { b = probename == "b"; }
BEGIN { c = probename == "c"; }
BEGIN { d = probename == "d"; }
BEGIN { e = probename == "e"; }
BEGIN { f = probename == "f"; }
BEGIN { g = probename == "g"; }
BEGIN { h = probename == "h"; }
