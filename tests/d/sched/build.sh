#!/bin/sh
# Builds ./scheds, the sched goldens' target.
set -e
cc -O2 -pthread -o scheds scheds.c
