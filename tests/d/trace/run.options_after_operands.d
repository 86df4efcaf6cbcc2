/* Options may follow the operands, as dtrace(1) reads them: -q here comes after $1. */
/* @args: 42 -q hello */
BEGIN { printf("%d %s\n", $1, $$2); exit(0); }
