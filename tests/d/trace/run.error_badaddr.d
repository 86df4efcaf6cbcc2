/* A fault stops its clause, fires ERROR and prints DTrace's error line; tracing goes on. */
/* @args: -q */
BEGIN { printf("before\n"); x = *(int *)8; printf("never\n"); }
BEGIN { printf("next clause runs\n"); trace(copyinstr(0)); }
BEGIN { y = 0; z = 10 / y; }
ERROR { printf("ERROR epid %d action %d fault %d addr %x\n", arg1, arg2, arg4, arg5); }
BEGIN { printf("tracing goes on\n"); exit(0); }
