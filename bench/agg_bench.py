#!/usr/bin/env python3
"""Aggregations and printf output: our dtrace against bpftrace, in one run (root).

  bench/agg_bench.py [BUILD_DIR] [KEYS] [LINES] [RUNS]

1. A KEYS-key aggregation (default 1000000): hit_loop fires bench:::two
   KEYS times with i = 0..KEYS-1 under `@[arg0] = count()`; the tool prints
   every entry at exit.  Shown: the whole wall time, hit_loop's own loop
   time, the rest (start-up, snapshot, merge, sort, print, tear-down), and
   the print phase: from hit_loop's line (written when it exits: stdout is
   a pipe) to the tool's exit, that is noticing the exit, END, snapshot,
   merge, sort, printing and tear-down, in seconds and in microseconds per
   key.  The entries printed are counted.
2. printf throughput: hit_loop fires LINES probes (default 200000) under
   `printf("%d %d\\n", arg0, arg1)`; shown: the lines each tool delivered,
   the drops it reported, and lines per second of wall time.

Both tools get the same buffers: 16 MiB of perf ring buffer per CPU
(dtrace -x bufsize=16m; bpftrace BPFTRACE_PERF_RB_PAGES=4096, 4 KiB
pages), and room for every key (dtrace -x aggsize=KEYS*32, that is KEYS
entries of a 16-byte key and a 16-byte value; bpftrace
BPFTRACE_MAP_KEYS_MAX=KEYS+16).  Each figure is the median of RUNS runs
(default 5) with its minimum and maximum; the tools take turns, run by run.
Prints figures; passes or fails nothing.
"""
import os
import re
import statistics
import subprocess
import sys
import threading
import time

PERF_PAGES = 4096  # 16 MiB a CPU, in 4 KiB pages: bpftrace's unit
BUFSIZE = "16m"    # dtrace's bufsize: the same, per CPU


def run(cmd, env):
    """(wall s, seconds from hit_loop's line to the exit or nan, stdout, stderr)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    err = []
    th = threading.Thread(target=lambda: err.append(p.stderr.read()))
    th.start()
    out, tail, t_line = [], b"", None
    fd = p.stdout.fileno()
    while True:
        b = os.read(fd, 1 << 20)
        if not b:
            break
        if t_line is None and re.search(rb"hits \d+ ns/hit", tail + b):
            t_line = time.monotonic()
        tail = b[-64:]
        out.append(b)
    p.wait()
    t1 = time.monotonic()
    th.join()
    return (t1 - t0, (t1 - t_line) if t_line is not None else float("nan"),
            b"".join(out).decode(errors="replace"), err[0].decode(errors="replace"))


def loop_seconds(out, n):
    m = re.search(r"hits \d+ ns/hit ([\d.]+)", out)
    return float(m.group(1)) * n / 1e9 if m else float("nan")


def fig(xs, f="%.2f"):
    """median [min-max]"""
    xs = [x for x in xs if x == x]
    if not xs:
        return "n/a"
    return (f + " [" + f + "-" + f + "]") % (statistics.median(xs), min(xs), max(xs))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    keys = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    lines = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    dtrace = os.path.join(build, "bin", "dtrace")
    loop = os.path.realpath(os.path.join(build, "bench", "hit_loop"))
    env = dict(os.environ, BPFTRACE_MAP_KEYS_MAX=str(keys + 16),
               BPFTRACE_PERF_RB_PAGES=str(PERF_PAGES))
    bpftrace_version = subprocess.run(["bpftrace", "--version"], stdout=subprocess.PIPE,
                                      text=True).stdout.strip()

    print("machine: %s, %d CPUs, load average %.1f at start; %s" %
          (os.uname().release, os.cpu_count(), os.getloadavg()[0], bpftrace_version))
    print("buffers: 16 MiB a CPU each (dtrace -x bufsize=%s, bpftrace "
          "BPFTRACE_PERF_RB_PAGES=%d); %d runs each, median [min-max]" % (BUFSIZE, PERF_PAGES, runs))

    tools = (
        ("dtrace", [dtrace, "-q", "-x", "aggsize=%d" % (keys * 32), "-x", "bufsize=" + BUFSIZE,
                    "-n", "bench$target:::two { @[arg0] = count(); }",
                    "-c", "%s %d" % (loop, keys)]),
        ("bpftrace", ["bpftrace", "-e", "usdt:%s:bench:two { @[arg0] = count(); }" % loop,
                      "-c", "%s %d" % (loop, keys)]))
    res = {name: {"wall": [], "loop": [], "rest": [], "print": [], "entries": []}
           for name, _ in tools}
    for _ in range(runs):
        for name, cmd in tools:
            wall, tail, out, _err = run(cmd, env)
            r = res[name]
            ls = loop_seconds(out, keys)
            r["wall"].append(wall)
            r["loop"].append(ls)
            r["rest"].append(wall - ls)
            r["print"].append(tail)
            r["entries"].append(len(re.findall(r"^\s*(?:@\[)?\d+\]?:?\s+1$", out, re.M)))
    print("\n%d-key aggregation, printed at exit" % keys)
    print("  %-9s %-19s %-19s %-19s %-19s %-19s %s" % (
        "", "wall s", "loop s", "the rest s", "print phase s", "print us/key", "entries"))
    for name, _ in tools:
        r = res[name]
        print("  %-9s %-19s %-19s %-19s %-19s %-19s %s" % (
            name, fig(r["wall"]), fig(r["loop"]), fig(r["rest"]), fig(r["print"]),
            fig([x * 1e6 / keys for x in r["print"]]),
            "all" if all(e == keys for e in r["entries"]) else "NOT ALL: %s" % r["entries"]))
    d, b = res["dtrace"], res["bpftrace"]
    print("  dtrace / bpftrace: wall %s, print phase %s (medians)" % (
        "%.2f" % (statistics.median(d["wall"]) / statistics.median(b["wall"])),
        "%.2f" % (statistics.median(d["print"]) / statistics.median(b["print"]))))

    tools = (
        ("dtrace", [dtrace, "-q", "-x", "bufsize=" + BUFSIZE, "-n",
                    "bench$target:::two { printf(\"%d %d\\n\", arg0, arg1); }",
                    "-c", "%s %d" % (loop, lines)]),
        ("bpftrace", ["bpftrace", "-e",
                      "usdt:%s:bench:two { printf(\"%%d %%d\\n\", arg0, arg1); }" % loop,
                      "-c", "%s %d" % (loop, lines)]))
    res = {name: {"wall": [], "lines": [], "drops": [], "rate": []} for name, _ in tools}
    for _ in range(runs):
        for name, cmd in tools:
            wall, _tail, out, err = run(cmd, env)
            got = len(re.findall(r"^\d+ %d$" % lines, out, re.M))
            drops = sum(int(x) for x in re.findall(r"(\d+) drops? on CPU", err))
            drops += sum(int(x) for x in re.findall(r"Lost (\d+) events", err + out))
            r = res[name]
            r["wall"].append(wall)
            r["lines"].append(got)
            r["drops"].append(drops)
            r["rate"].append(got / wall)
    print("\nprintf, %d probes fired as fast as hit_loop can" % lines)
    print("  %-9s %-19s %-25s %-19s %s" % ("", "wall s", "lines", "drops", "lines/s"))
    for name, _ in tools:
        r = res[name]
        print("  %-9s %-19s %-25s %-19s %s" % (
            name, fig(r["wall"]), fig(r["lines"], "%d"), fig(r["drops"], "%d"),
            fig(r["rate"], "%.0f")))


if __name__ == "__main__":
    main()
