#!/bin/sh
# Builds ./iotrig, the io goldens' target.
set -e
cc -O2 -o iotrig iotrig.c
