#!/usr/sbin/dtrace -qs
/* An interpreter line first is skipped by the lexer. */
/* @args: -q */
BEGIN { printf("ok\n"); exit(0); }
