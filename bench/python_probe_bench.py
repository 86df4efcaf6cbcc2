#!/usr/bin/python3
"""The cost of a disabled probe in Python, against an empty function call.

  PYTHONPATH=build/bindings/python bench/python_probe_bench.py [N]

Each line times N (default 2000000) calls with timeit, best of 5, and shows
nanoseconds per call and the ratio to calling an empty Python function with
the same arguments.  No tracer is attached: every probe is disabled, which
is the state probes live in almost all the time.  Prints figures; passes or
fails nothing.
"""
import sys
import timeit

import dtrace


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000000
    p = dtrace.Provider("pybench")
    probe = p.probe("query-start", str, int)
    json_probe = p.probe("event", dict)
    p.enable()

    def empty(*args):
        pass

    @p.function
    def decorated():
        pass

    def plain():
        pass

    obj = {"k": 1}
    g = {"empty": empty, "probe": probe, "json_probe": json_probe, "obj": obj,
         "decorated": decorated, "plain": plain}
    cases = [
        ("empty(\"select\", 3)", "empty(\"select\", 3)", None),
        ("probe.fire(\"select\", 3)", "probe.fire(\"select\", 3)", "empty(\"select\", 3)"),
        ("probe.enabled", "probe.enabled", "empty(\"select\", 3)"),
        ("probe.fire_lazy(lambda: ...)", "probe.fire_lazy(lambda: (\"select\", 3))",
         "empty(\"select\", 3)"),
        ("json_probe.fire(obj)", "json_probe.fire(obj)", "empty(\"select\", 3)"),
        ("plain()", "plain()", None),
        ("@p.function decorated()", "decorated()", "plain()"),
    ]
    base = {}
    print("Python %s, %d calls each, best of 5, no tracer attached" %
          (sys.version.split()[0], n))
    print("  %-32s %10s %10s" % ("", "ns/call", "ratio"))
    for label, stmt, against in cases:
        best = min(timeit.repeat(stmt, globals=g, number=n, repeat=5)) / n * 1e9
        base[stmt] = best
        ratio = "" if against is None else "%.2f" % (best / base[against])
        print("  %-32s %10.1f %10s" % (label, best, ratio))
    # the runtime provider (python_rt), started but not traced: no hook is
    # installed, so a plain call costs what it did before
    dtrace.runtime.start()
    best = min(timeit.repeat("plain()", globals=g, number=n, repeat=5)) / n * 1e9
    print("  %-32s %10.1f %10.2f" % ("plain(), python_rt untraced", best, best / base["plain()"]))
    dtrace.runtime.stop()
    p.destroy()


if __name__ == "__main__":
    main()
