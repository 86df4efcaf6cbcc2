#!/bin/sh
# Builds ./procs, the proc goldens' target.
set -e
cc -O2 -pthread -o procs procs.c
