# -x strsize beyond 4096 or below 8 is clamped, as illumos dtrace_state_go does, not refused
-x strsize=16384 -e -n BEGIN{trace(strjoin("a","b"));}
