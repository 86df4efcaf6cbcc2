#!/bin/sh
# Builds ./chain (C) and ./cxx (C++) at -O2 without frame pointers: their
# stacks can only be walked through .eh_frame.
set -e
cc -O2 -fomit-frame-pointer -o chain chain.c
c++ -O2 -fomit-frame-pointer -o cxx cxx.cc
