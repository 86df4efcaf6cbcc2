/* a program of only a pragma is an empty translation unit */
#pragma D option quiet
