#!/usr/bin/env python3
"""Our dtrace against bpftrace, measured in the same run (root needed).

  bench/trace_bench.py [BUILD_DIR] [RUNS]

1. Start-up: `dtrace -n 'BEGIN { exit(0); }'` against
   `bpftrace -e 'BEGIN { exit(); }'`: median wall time and median peak RSS
   over RUNS runs each (default 20), the two tools taking turns.  Both are
   measured by build/bench/run_rss, a small parent, so that the peak
   memory is the tool's own.
2. Per hit: hit_loop fires bench:::two a million times under `dtrace -q -n
   'bench$target:::two { n++; }'` and under bpftrace counting the same
   probe (`@n = count()`); hit_loop times its own loop.  The tools take
   turns for 5 rounds; the fastest round of each counts (noise only ever
   adds time), the median is shown too.  Each tool's count is checked: a
   figure from a tool that missed hits would mean nothing.
Prints figures and ratios; passes or fails nothing.
"""
import os
import statistics
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def measured(run_rss, name, cmd):
    """Wall seconds, peak RSS KiB and output of cmd, measured by run_rss."""
    figures = os.path.join(os.environ.get("TMPDIR", "/tmp"), "trace_bench.%d" % os.getpid())
    rc, out, err = run([run_rss, figures] + cmd)
    with open(figures) as f:
        wall_ns, rss, status = (int(x) for x in f.read().split())
    os.unlink(figures)
    if rc != 0 or status != 0:
        sys.exit("%s failed (status %d): %s" % (name, status, err))
    return wall_ns / 1e9, rss, out


def per_hit(name, cmd, count_prefix, n):
    """ns per hit as hit_loop measured it, after checking the tool counted n."""
    rc, out, err = run(cmd)
    hits = [l for l in out.splitlines() if l.startswith("hits ")]
    counts = [l for l in out.splitlines() if l.startswith(count_prefix)]
    if rc != 0 or not hits or not counts:
        sys.exit("%s: no figure (rc %d): %s%s" % (name, rc, out, err))
    counted = int(counts[0].split()[-1])
    if counted != n:
        sys.exit("%s counted %d hits of %d" % (name, counted, n))
    return float(hits[0].split()[3])


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    dtrace = os.path.join(build, "bin", "dtrace")
    loop = os.path.realpath(os.path.join(build, "bench", "hit_loop"))
    print("machine: %s, %d CPUs" % (os.uname().release, os.cpu_count()))
    print("bpftrace: %s" % subprocess.run(["bpftrace", "--version"], stdout=subprocess.PIPE,
                                          text=True).stdout.strip())
    run_rss = os.path.join(build, "bench", "run_rss")
    tools = {"dtrace": [dtrace, "-q", "-n", "BEGIN { exit(0); }"],
             "bpftrace": ["bpftrace", "-e", "BEGIN { exit(); }"]}
    walls = {t: [] for t in tools}
    rss = {t: [] for t in tools}
    for i in range(runs):
        for t in (("dtrace", "bpftrace") if i % 2 == 0 else ("bpftrace", "dtrace")):
            w, m, _ = measured(run_rss, t, tools[t])
            walls[t].append(w)
            rss[t].append(m)
    dw, bw = statistics.median(walls["dtrace"]), statistics.median(walls["bpftrace"])
    dm, bm = statistics.median(rss["dtrace"]), statistics.median(rss["bpftrace"])
    print("\nstart-up, BEGIN then exit (median of %d runs)" % runs)
    print("  %-10s %9s %12s" % ("", "wall ms", "peak RSS KiB"))
    print("  %-10s %9.1f %12d" % ("dtrace", dw * 1e3, dm))
    print("  %-10s %9.1f %12d" % ("bpftrace", bw * 1e3, bm))
    print("  bpftrace/dtrace: %.1fx the wall time, %.1fx the memory" % (bw / dw, bm / dm))

    n, rounds = 1000000, 5
    cmds = {"dtrace": ([dtrace, "-q", "-n", "bench$target:::two { n++; } "
                        "END { printf(\"counted %d\\n\", n); }", "-c", "%s %d" % (loop, n)],
                       "counted"),
            "bpftrace": (["bpftrace", "-e", "usdt:%s:bench:two { @n = count(); }" % loop,
                          "-c", "%s %d" % (loop, n)], "@n:")}
    ns = {t: [] for t in cmds}
    for i in range(rounds):
        for t in (("dtrace", "bpftrace") if i % 2 == 0 else ("bpftrace", "dtrace")):
            ns[t].append(per_hit(t, cmds[t][0], cmds[t][1], n))
    print("\nper hit, a clause counting bench:::two in a tight loop "
          "(%d hits, %d rounds, each count checked)" % (n, rounds))
    print("  %-10s %12s %12s" % ("", "best ns/hit", "median"))
    for t in cmds:
        print("  %-10s %12.1f %12.1f" % (t, min(ns[t]), statistics.median(ns[t])))
    print("  dtrace/bpftrace: %.3f (best), %.3f (median)"
          % (min(ns["dtrace"]) / min(ns["bpftrace"]),
             statistics.median(ns["dtrace"]) / statistics.median(ns["bpftrace"])))

    # every probe of a third-party binary: attaching and detaching them dominates
    py = "/usr/bin/python3.11"
    if os.path.exists(py):
        cmds = {"dtrace": [dtrace, "-q", "-n", "python$target::: { n++; } "
                           "END { printf(\"%d\\n\", n); }", "-c", py + " -c pass"],
                "bpftrace": ["bpftrace", "-e", "usdt:%s:* { @n = count(); }" % py,
                             "-c", py + " -c pass"]}
        walls = {t: [] for t in cmds}
        counts = {}
        for i in range(5):
            for t in (("dtrace", "bpftrace") if i % 2 == 0 else ("bpftrace", "dtrace")):
                w, _, out = measured(run_rss, t, cmds[t])
                walls[t].append(w)
                counts[t] = out.split()[-1] if out.split() else "none"
        print("\nevery python probe, over `python3.11 -c pass` (median of 5 runs)")
        print("  %-10s %9s %9s" % ("", "wall ms", "hits"))
        for t in cmds:
            print("  %-10s %9.1f %9s" % (t, statistics.median(walls[t]) * 1e3, counts[t]))
        print("  bpftrace/dtrace: %.1fx the wall time"
              % (statistics.median(walls["bpftrace"]) / statistics.median(walls["dtrace"])))


if __name__ == "__main__":
    main()
