#!/bin/sh
exec cc -O0 -o spin spin.c
