#!/usr/bin/env python3
"""The cost of a string subroutine call in a probe (root needed).

usage: subr_bench.py [BUILD_DIR [hits [repetitions]]]

hit_loop fires bench:::two `hits` times under `dtrace -q -n` with a clause
that sets a clause-local string, then calls the subroutine ten times
(`this->r = substr(this->s, 4, 10);` ...), and again with the same clause
without the calls; hit_loop times its own loop.  The difference, divided by
ten, is the cost of one call: the C body (libdtrace/bpf/dt_strings.c) and
the code around it.  Best of the repetitions, the variants interleaved.
Prints ns per call for each subroutine, at strsize 256.
"""
import os
import re
import subprocess
import sys

S = '"the quick brown fox jumps over the lazy dog"'
CALLS = {
    "substr": "substr(this->s, 4, 10)",
    "strtok": 'strtok(this->s, " ")',
    "strtok(NULL)": 'strtok(NULL, " ")',
    "index": 'index(this->s, "lazy")',
    "strchr": "strchr(this->s, 'z')",
    "toupper": "toupper(this->s)",
    "basename": "basename(this->s)",
    "cleanpath": "cleanpath(this->s)",
    "lltostr": "lltostr(arg0)",
    "strlen (emitted)": "strlen(this->s)",
}


def run(dtrace, loop, hits, body):
    prog = "bench$target:::two { this->s = %s; this->t = strtok(this->s, \" \"); %s }" % (S, body)
    p = subprocess.run([dtrace, "-q", "-n", prog, "-c", "%s %d" % (loop, hits)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    m = re.search(r"ns/hit ([0-9.]+)", p.stdout)
    if p.returncode != 0 or m is None:
        sys.exit("subr_bench: %s\n%s%s" % (prog, p.stdout, p.stderr))
    return float(m.group(1))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    hits = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    dtrace = os.path.join(build, "bin", "dtrace")
    loop = os.path.realpath(os.path.join(build, "bench", "hit_loop"))
    best = {}
    names = ["(none)"] + list(CALLS)
    for r in range(reps):
        for i in range(len(names)):
            name = names[(i + r) % len(names)]
            body = "" if name == "(none)" else " ".join(
                "this->r%d = %s;" % (k, CALLS[name]) for k in range(10))
            ns = run(dtrace, loop, hits, body)
            best[name] = min(best.get(name, ns), ns)
    base = best["(none)"]
    print("ns per hit without calls: %.1f (best of %d, %d hits)" % (base, reps, hits))
    print("%-18s %12s" % ("subroutine", "ns per call"))
    for name in CALLS:
        print("%-18s %12.1f" % (name, (best[name] - base) / 10))


if __name__ == "__main__":
    main()
