#!/usr/sbin/dtrace -s
/* after an interpreter line, lines and columns still count from the top */
BEGIN { x = ; }
