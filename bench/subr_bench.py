#!/usr/bin/env python3
"""The per-call cost of D subroutines (root needed).  A speculation's
round (speculation, speculate, commit) is bench/spec_bench.py's.

  bench/subr_bench.py [BUILD_DIR] [HITS] [ROUNDS]

hit_loop fires bench:::two HITS times (default 200000) under one clause per
variant.  Every clause first does the same work as the baseline (counts the
hit and builds a path string of 39 bytes), then calls what it measures
once per hit, on that string.  hit_loop times its own loop, so a variant's
ns/hit minus the baseline's is the cost of one call as the traced program
feels it.  Variants take turns for ROUNDS rounds (default 5): the fastest
round counts (noise only ever adds time), and the median is shown too.
Each variant's END prints its count, which must equal HITS: a figure from a
run that lost hits would mean nothing.  A variant that this dtrace cannot
compile (dtrace -e fails) is listed as such, not measured.

bpftrace counting the same probe is measured in the same rounds, as the
peer's cost of a bare hit on this machine.
Prints figures; passes or fails nothing.
"""
import os
import statistics
import subprocess
import sys

PATH = 'this->s = "/usr/lib/x86_64-linux-gnu/libstdc++.so.6";'

# name, clause body (after the baseline's n++ and the path), what it measures
VARIANTS = [
    ("baseline", "", "n++ and the path string: what every call is measured against"),
    ("strlen", "this->r = strlen(this->s);", "strlen( )"),
    ("strjoin", "this->t = strjoin(this->s, \".1\");", "strjoin( )"),
    ("substr", "this->t = substr(this->s, 5, 10);", "substr(s, 5, 10)"),
    ("strtok", "this->t = strtok(this->s, \"/\"); this->t = strtok(NULL, \"/\");",
     "strtok twice (first, next)"),
    ("basename", "this->t = basename(this->s);", "basename( )"),
    ("index", "this->r = index(this->s, \"libstd\");", "index(s, \"libstd\")"),
    ("strchr", "this->t = strchr(this->s, '+');", "strchr(s, '+')"),
    ("toupper", "this->t = toupper(this->s);", "toupper( )"),
    ("cleanpath", "this->t = cleanpath(this->s);", "cleanpath( )"),
    ("lltostr", "this->t = lltostr(n);", "lltostr(n)"),
    ("strtoll", "this->r = strtoll(\"-123456789\");", "strtoll( )"),
    ("json", "this->t = json(\"{\\\"a\\\": [1, {\\\"b\\\": \\\"x\\\"}]}\", \"a[1].b\");",
     "json(22-byte object, \"a[1].b\")"),
]


def clause(name, body):
    return ("bench$target:::two { n++; %s %s } END { printf(\"\\ncounted %%d\\n\", n); }"
            % (PATH, body))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def per_hit(name, cmd, prefix, n):
    """ns per hit from hit_loop's stdout; the count from the tool's (-o OUT for ours)."""
    out_file = os.path.join(os.environ.get("TMPDIR", "/tmp"), "subr_bench.%d" % os.getpid())
    if cmd[0] != "bpftrace":
        cmd = cmd[:1] + ["-o", out_file] + cmd[1:]
    rc, out, err = run(cmd)
    traced = out
    if cmd[0] != "bpftrace":
        with open(out_file) as f:
            traced = f.read()
        os.unlink(out_file)
    hits = [l for l in out.splitlines() if l.startswith("hits ")]
    counts = [l for l in traced.splitlines() if l.startswith(prefix)]
    if rc != 0 or not hits or not counts:
        sys.exit("%s: no figure (rc %d): %s%s" % (name, rc, out[-500:], err[-500:]))
    counted = int(counts[0].split()[-1])
    if counted != n:
        sys.exit("%s counted %d hits of %d" % (name, counted, n))
    return float(hits[0].split()[3])


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    dtrace = os.path.join(build, "bin", "dtrace")
    loop = os.path.realpath(os.path.join(build, "bench", "hit_loop"))
    print(subprocess.run(["bash", "-c", "build=%s; . %s/machine.sh; bench_machine"
                          % (build, os.path.dirname(os.path.abspath(__file__)))],
                         stdout=subprocess.PIPE, text=True).stdout.strip())

    cmds, missing = {}, []
    for name, body, _ in VARIANTS:
        prog = clause(name, body)
        opts = ["-x", "bufsize=16m"]
        rc, _, err = run([dtrace, "-q", "-e"] + opts + ["-n", prog])
        if rc != 0:
            why = err.strip().splitlines()[0] if err.strip() else "rc %d" % rc
            missing.append((name, why.split(": line 1: ")[-1]))
            continue
        cmds[name] = ([dtrace, "-q"] + opts + ["-n", prog, "-c", "%s %d" % (loop, n)],
                      "counted")
    if subprocess.run(["sh", "-c", "command -v bpftrace"], stdout=subprocess.DEVNULL).returncode == 0:
        cmds["bpftrace count"] = (["bpftrace", "-e", "usdt:%s:bench:two { @n = count(); }" % loop,
                                   "-c", "%s %d" % (loop, n)], "@n:")

    ns = {t: [] for t in cmds}
    names = list(cmds)
    for i in range(rounds):
        order = names[i % len(names):] + names[:i % len(names)]
        for t in order:
            ns[t].append(per_hit(t, cmds[t][0], cmds[t][1], n))

    base = min(ns["baseline"])
    what = {name: w for name, _, w in VARIANTS}
    what["bpftrace count"] = "bpftrace's @n = count(), the peer's bare hit"
    print("\nper hit, bench:::two fired %d times, %d rounds (each count checked)" % (n, rounds))
    print("  %-15s %11s %9s %14s  %s" % ("", "best ns/hit", "median", "call ns (best)", "what"))
    for t in names:
        extra = "%14.1f" % (min(ns[t]) - base) if t not in ("baseline", "bpftrace count") else \
                "%14s" % "-"
        print("  %-15s %11.1f %9.1f %s  %s" % (t, min(ns[t]), statistics.median(ns[t]), extra,
                                               what[t]))
    for name, why in missing:
        print("  %-15s not compiled by this dtrace: %s" % (name, why))


if __name__ == "__main__":
    main()
