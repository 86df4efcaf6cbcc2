#!/usr/bin/env python3
"""The cost of a speculation round, against a plain trace, in one run (root).

  bench/spec_bench.py [BUILD_DIR] [HITS] [EVERY] [RUNS]

hit_loop fires bench:::two HITS times (default 2000000); every EVERY-th hit
(default 256, arg0 % EVERY == 0) does the work measured, the others only
test the predicate.  Three programs, taking turns for RUNS rounds (default
5), the fastest round of each counting (noise only ever adds time):

  base   the predicate is never true: what every hit costs anyway
  trace  `printf("%d\n", arg0)`: one record sent
  spec   a speculation round in three clauses, as the Guide writes it:
         `self->s = speculation()`, `speculate(self->s); printf(...)`,
         `commit(self->s)`: two records sent, the consumer holds one and
         prints it after the other

A round's cost is (ns per hit - base's ns per hit) * EVERY.  With nspec=256
and cleanrate=1000hz the consumer frees slots faster than the rounds take
them, so rounds succeed; the lines printed plus the failed speculations
reported are checked, and a run with a failed speculation (a cheaper path)
is left out.
Prints figures; passes or fails nothing.
"""
import os
import re
import subprocess
import sys


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    hits = int(sys.argv[2]) if len(sys.argv) > 2 else 2000000
    every = int(sys.argv[3]) if len(sys.argv) > 3 else 256
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    dtrace = os.path.join(build, "bin", "dtrace")
    loop = os.path.realpath(os.path.join(build, "bench", "hit_loop"))
    pred = "/arg0 %% %d == 0/" % every
    progs = {
        "base": "bench$target:::two /arg0 %% %d == %d/ { printf(\"%%d\\n\", arg0); }" % (every, every),
        "trace": "bench$target:::two %s { printf(\"%%d\\n\", arg0); }" % pred,
        "spec": ("bench$target:::two %s { self->s = speculation(); } "
                 "bench$target:::two %s { speculate(self->s); printf(\"%%d\\n\", arg0); } "
                 "bench$target:::two %s { commit(self->s); }" % (pred, pred, pred)),
    }
    rounds = (hits + every - 1) // every
    best = {k: [] for k in progs}
    nfailed = 0
    print("machine: %s, %d CPUs; %d hits, a round every %d" % (os.uname().release,
                                                                os.cpu_count(), hits, every))
    for r in range(runs):
        for name in list(progs)[r % 3:] + list(progs)[:r % 3]:
            p = subprocess.run([dtrace, "-q", "-x", "nspec=256", "-x", "cleanrate=1000hz",
                                "-x", "bufsize=16m", "-n", progs[name],
                                "-c", "%s %d" % (loop, hits)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            m = re.search(r"hits \d+ ns/hit ([\d.]+)", p.stdout)
            if p.returncode != 0 or m is None:
                sys.exit("%s failed: %s" % (name, p.stderr))
            lines = sum(1 for l in p.stdout.splitlines() if re.fullmatch(r"\d+", l))
            want = 0 if name == "base" else rounds
            failed = sum(int(x) for x in re.findall(r"(\d+) failed speculations?", p.stderr))
            if lines + failed != want:
                sys.exit("%s: %d lines and %d failed of %d: %s" % (name, lines, failed, want,
                                                                   p.stderr))
            if failed == 0: # a failed round is cheaper: such a run does not count
                best[name].append(float(m.group(1)))
            else:
                nfailed += 1
    if not best["spec"]:
        sys.exit("every spec run had failed speculations: raise EVERY")
    if nfailed:
        print("  (%d runs with failed speculations left out)" % nfailed)
    base = min(best["base"])
    print("  %-6s %10s %10s %14s" % ("", "ns/hit", "median", "ns a round"))
    for name in progs:
        b = min(best[name])
        med = sorted(best[name])[len(best[name]) // 2]
        print("  %-6s %10.1f %10.1f %14s" % (name, b, med,
                                            "-" if name == "base" else "%.0f" % ((b - base) * every)))
    print("  a speculation round costs %.1fx a plain trace" %
          ((min(best["spec"]) - base) / (min(best["trace"]) - base)))


if __name__ == "__main__":
    main()
