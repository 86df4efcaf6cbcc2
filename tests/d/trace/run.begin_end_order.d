/* BEGIN before everything, END after; clauses of one probe in program order. */
/* @args: -q */
BEGIN { printf("begin 1\n"); }
tick-10ms { n++; }
tick-10ms /n == 3/ { printf("tick %d\n", n); exit(0); }
BEGIN { printf("begin 2\n"); }
END { printf("end 1 n=%d\n", n); }
END { printf("end 2\n"); }
