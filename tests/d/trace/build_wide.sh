#!/bin/sh
# Builds ./wide_sdt (run.printf_wide_memory.d, run.long_double.d) with <sys/sdt.h>.
set -e
cc -O2 -o wide_sdt wide_sdt.c
