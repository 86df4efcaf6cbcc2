#!/usr/sbin/dtrace -qs
/*
 * C++ exceptions of a process (libstdc++'s probes): which functions
 * throw, how many each, and how many were caught, when it ends:
 *   dtrace -qs throws.d -c ./server
 * ucaller in the throw probe (inside __cxa_throw) is the throwing
 * function; with -p PID a running process.
 */
libstdcxx$target:::throw
{
	@throws[ufunc(ucaller)] = count();
}

libstdcxx$target:::rethrow
{
	@rethrows[ufunc(ucaller)] = count();
}

libstdcxx$target:::catch
{
	@caught = count();
}

END
{
	printa("throws %@6d  %A\n", @throws);
	printa("rethrows %@4d  %A\n", @rethrows);
	printa("caught %@6d\n", @caught);
}
