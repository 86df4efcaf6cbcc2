#!/usr/bin/env python3
"""Our dtrace against bpftrace, measured in the same run (root needed).

  bench/trace_bench.py [BUILD_DIR] [RUNS]

1. Start-up: `dtrace -n 'BEGIN { exit(0); }'` against
   `bpftrace -e 'BEGIN { exit(); }'`: median wall time and median peak RSS
   (the process's own, from wait4) over RUNS runs each (default 20).
2. Per hit: hit_loop fires bench:::two a million times under `dtrace -q -n
   'bench$target:::two { n++; }'` and under bpftrace counting the same
   probe (`@n = count()`); hit_loop times its own loop.  Each tool's count
   is printed: a figure from a tool that missed hits would mean nothing.
Prints figures and ratios; passes or fails nothing.
"""
import os
import statistics
import subprocess
import sys
import time


def run(cmd):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    out = p.stdout.read().decode()
    err = p.stderr.read().decode()
    p.stdout.close()
    p.stderr.close()
    return wall, ru.ru_maxrss, os.waitstatus_to_exitcode(status), out, err


def startup(name, cmd, runs):
    walls, rss = [], []
    for _ in range(runs):
        w, m, rc, _, err = run(cmd)
        if rc != 0:
            sys.exit("%s failed (%d): %s" % (name, rc, err))
        walls.append(w)
        rss.append(m)
    return statistics.median(walls), statistics.median(rss)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    dtrace = os.path.join(build, "bin", "dtrace")
    loop = os.path.realpath(os.path.join(build, "bench", "hit_loop"))
    print("machine: %s, %d CPUs" % (os.uname().release, os.cpu_count()))
    print("bpftrace: %s" % subprocess.run(["bpftrace", "--version"], stdout=subprocess.PIPE,
                                          text=True).stdout.strip())
    dw, dm = startup("dtrace", [dtrace, "-q", "-n", "BEGIN { exit(0); }"], runs)
    bw, bm = startup("bpftrace", ["bpftrace", "-e", "BEGIN { exit(); }"], runs)
    print("\nstart-up, BEGIN then exit (median of %d runs)" % runs)
    print("  %-10s %9s %12s" % ("", "wall ms", "peak RSS KiB"))
    print("  %-10s %9.1f %12d" % ("dtrace", dw * 1e3, dm))
    print("  %-10s %9.1f %12d" % ("bpftrace", bw * 1e3, bm))
    print("  bpftrace/dtrace: %.1fx the wall time, %.1fx the memory" % (bw / dw, bm / dm))

    n = 1000000
    _, _, rc, dout, derr = run([dtrace, "-q", "-n", "bench$target:::two { n++; } "
                                "END { printf(\"dtrace counted %d\\n\", n); }",
                                "-c", "%s %d" % (loop, n)])
    _, _, rc2, bout, berr = run(["bpftrace", "-e", "usdt:%s:bench:two { @n = count(); }" % loop,
                                 "-c", "%s %d" % (loop, n)])
    print("\nper hit, a clause counting bench:::two in a tight loop (%d hits)" % n)
    for name, out, err, code in (("dtrace", dout, derr, rc), ("bpftrace", bout, berr, rc2)):
        hit = [l for l in out.splitlines() if l.startswith("hits ")]
        count = [l for l in out.splitlines() if "counted" in l or l.startswith("@n:")]
        print("  %-10s %s   (%s)" % (name, hit[0] if hit else "no figure: rc %d %s" % (code, err),
                                    count[0] if count else "no count"))


if __name__ == "__main__":
    main()
