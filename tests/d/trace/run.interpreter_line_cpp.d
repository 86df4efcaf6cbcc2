#!/usr/sbin/dtrace -qs
/* An interpreter line first, as scripts of the Guide have: cpp must not see it. */
/* @args: -q -C */
BEGIN { printf("line %d\n", __LINE__); exit(0); }
