#!/bin/sh
# Builds ./wide_sdt (run.printf_wide_memory.d, run.long_double.d) with
# <sys/sdt.h>, without PIE, so that print() shows the same address at every run.
set -e
cc -O2 -no-pie -o wide_sdt wide_sdt.c
