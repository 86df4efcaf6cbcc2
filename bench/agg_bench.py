#!/usr/bin/env python3
"""Aggregations and printf output: our dtrace against bpftrace, in one run (root).

  bench/agg_bench.py [BUILD_DIR] [KEYS] [LINES]

1. A KEYS-key aggregation (default 1000000): hit_loop fires bench:::two
   KEYS times with i = 0..KEYS-1 under `@[arg0] = count()`; the tool prints
   every entry at exit.  Shown: the whole wall time, hit_loop's own loop
   time, and the rest (start-up, snapshot, merge, sort, print); the number
   of entries printed is checked.
2. printf throughput: hit_loop fires LINES probes (default 200000) under
   `printf("%d %d\\n", arg0, arg1)`; shown: the lines each tool delivered,
   the drops it reported, and lines per second of wall time.
Prints figures; passes or fails nothing.
"""
import os
import re
import subprocess
import sys
import time


def timed(cmd, env=None):
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return time.monotonic() - t0, p


def loop_seconds(out, n):
    m = re.search(r"hits \d+ ns/hit ([\d.]+)", out)
    return float(m.group(1)) * n / 1e9 if m else float("nan")


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    keys = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    lines = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
    dtrace = os.path.join(build, "bin", "dtrace")
    loop = os.path.realpath(os.path.join(build, "bench", "hit_loop"))
    env = dict(os.environ, BPFTRACE_MAP_KEYS_MAX=str(keys + 16))

    print("machine: %s, %d CPUs" % (os.uname().release, os.cpu_count()))
    print("\n%d-key aggregation, printed at exit" % keys)
    print("  %-10s %9s %9s %11s %9s" % ("", "wall s", "loop s", "the rest s", "entries"))
    for name, cmd in (
            ("dtrace", [dtrace, "-q", "-x", "aggsize=%d" % (keys * 32), "-n",
                        "bench$target:::two { @[arg0] = count(); }", "-c", "%s %d" % (loop, keys)]),
            ("bpftrace", ["bpftrace", "-e", "usdt:%s:bench:two { @[arg0] = count(); }" % loop,
                          "-c", "%s %d" % (loop, keys)])):
        wall, p = timed(cmd, env)
        entries = sum(1 for l in p.stdout.splitlines()
                      if re.match(r"^\s*(@\[)?\d+\]?:?\s+1$", l))
        ls = loop_seconds(p.stdout, keys)
        print("  %-10s %9.2f %9.2f %11.2f %9d%s" % (name, wall, ls, wall - ls, entries,
                                                  "" if entries == keys else "  (not all)"))

    print("\nprintf, %d probes fired as fast as hit_loop can" % lines)
    print("  %-10s %9s %9s %9s %12s" % ("", "wall s", "lines", "drops", "lines/s"))
    for name, cmd in (
            ("dtrace", [dtrace, "-q", "-x", "bufsize=16m", "-n",
                        "bench$target:::two { printf(\"%d %d\\n\", arg0, arg1); }",
                        "-c", "%s %d" % (loop, lines)]),
            ("bpftrace", ["bpftrace", "-e",
                          "usdt:%s:bench:two { printf(\"%%d %%d\\n\", arg0, arg1); }" % loop,
                          "-c", "%s %d" % (loop, lines)])):
        wall, p = timed(cmd, env)
        got = sum(1 for l in p.stdout.splitlines() if re.match(r"^\d+ %d$" % lines, l))
        drops = sum(int(x) for x in re.findall(r"(\d+) drops? on CPU", p.stderr))
        drops += sum(int(x) for x in re.findall(r"Lost (\d+) events", p.stderr + p.stdout))
        print("  %-10s %9.2f %9d %9d %12.0f" % (name, wall, got, drops, got / wall))


if __name__ == "__main__":
    main()
