#!/usr/bin/env python3
r"""Start-up and compile time of two builds of dtrace, taking turns (root needed).

  bench/compare_builds.py [--only startup,compile,inprocess,frontend,go] \
      BUILD_A BUILD_B [ROUNDS [GO_ROUNDS]]

For checking that a change (B) makes nothing slower than the build before it
(A): build each from its own worktree with the same settings, e.g.
  git worktree add --detach /tmp/a COMMIT && cmake -S /tmp/a -B /tmp/a/build \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build /tmp/a/build \
      --target dtrace_cmd compile_bench run_rss
and the same for B.  Five figures (--only picks some), each the same command
for A and for B:

1. startup: `dtrace -q -n 'BEGIN { exit(0); }'`, wall time, user and
   system CPU time and peak RSS, measured by run_rss as in trace_bench.py (ROUNDS runs each,
   default 40);
2. compile: `dtrace -e -s gen.d`, the 1,000-clause script of compile_bench,
   compiled, then the command stops (ROUNDS runs each);
3. inprocess: `compile_bench 1000 3`, dtrace_program_strcompile() of the
   same script in-process, best of 3 a round (ROUNDS / 4 rounds, at least 5);
4. frontend: `compile_bench --front-end 1000 3`, the same stopped after the
   checker.  Compiling generates code since commit c7f3cdb; a build whose
   compile_bench has no --front-end is older, and its compile is the
   front-end: it is timed without the option;
5. go: `dtrace -q -s gen_go.d`, gen.d plus `BEGIN { exit(0); }`, compile then
   go: the clauses enable tick-1s .. tick-60s (gen*:::work matches nothing),
   so every clause is linked, loaded and attached, BEGIN fires and the
   command exits before any tick (GO_ROUNDS runs each, default 5; a run
   takes seconds, nearly all in the kernel's verifier).

A and B take turns within each round, and the order flips every round, so
neither build always runs first or after the same neighbour.  For each
figure the best run counts (other processes only ever add time); the median
is shown too, and the ratio B/A of each and of the user time.  User and
system CPU times are means over the runs: with CONFIG_TICK_CPU_ACCOUNTING
their sum is exact but the split between them is sampled at the tick (4 ms at
250 Hz), so one run's split is coarse.  For `go`, user
time is our code: the kernel's verifier (system time) dominates the wall
time and, for the same instructions, varies by 10-30% from run to run.  The load average is printed at the
start and at the end, with the number of processes: start-up reads every
process's maps (USDT probes), so it grows with them.
"""
import os
import statistics
import subprocess
import sys
import tempfile

FIGURES = ("startup", "compile", "inprocess", "frontend", "go")


def run_rss(tool, cmd):
    """Wall ms, peak RSS KiB and (user, system) CPU ms of cmd, measured by
    run_rss (a small parent: its rusage from wait4 includes the command's)."""
    fd, figures = tempfile.mkstemp(prefix="compare_builds.")
    os.close(fd)
    null = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
    pid = os.posix_spawn(tool, [tool, figures] + cmd, os.environ, file_actions=null)
    _, status, ru = os.wait4(pid, 0)
    with open(figures) as f:
        text = f.read().split()
    os.unlink(figures)
    if os.waitstatus_to_exitcode(status) != 0 or len(text) != 3 or int(text[2]) != 0:
        sys.exit("failed: %s" % " ".join(cmd))
    return int(text[0]) / 1e6, int(text[1]), (ru.ru_utime * 1e3, ru.ru_stime * 1e3)


def in_process(build, n, front_end):
    """Best ms of compile_bench's 3 in-process compiles of n clauses."""
    cmd = [os.path.join(build, "bench", "compile_bench")] + (["--front-end"] if front_end
                                                              else []) + [str(n), "3"]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=True, text=True).stdout
    for line in out.splitlines():
        if line.strip().startswith("best "):
            return float(line.split()[1]), 0, None
    sys.exit("compile_bench printed no figure: %s" % out)


def has_front_end(build):
    """Whether this build's compile_bench has --front-end (compiling generates code)."""
    return subprocess.run([os.path.join(build, "bench", "compile_bench"), "--front-end", "1",
                           "1"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def loadavg():
    """The load average, and how many processes run: dtrace reads every
    process's maps at start-up (USDT probes), so start-up grows with them."""
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return "%s, %d processes" % (load, sum(1 for d in os.listdir("/proc") if d.isdigit()))


def main():
    args = sys.argv[1:]
    only = None
    if len(args) >= 2 and args[0] == "--only":
        only = set(args[1].split(","))
        args = args[2:]
    if len(args) < 2 or (only and not only <= set(FIGURES)):
        sys.exit(__doc__)
    builds = {"A": args[0], "B": args[1]}
    rounds = int(args[2]) if len(args) > 2 else 40
    go_rounds = int(args[3]) if len(args) > 3 else 5
    n = 1000
    tmp = tempfile.mkdtemp(prefix="compare_builds.")
    gen, gen_go = os.path.join(tmp, "gen.d"), os.path.join(tmp, "gen_go.d")
    scripts = [subprocess.run([os.path.join(b, "bench", "compile_bench"), "--emit", str(n)],
                              stdout=subprocess.PIPE, check=True, text=True).stdout
               for b in builds.values()]
    if scripts[0] != scripts[1]:
        sys.exit("the two builds' compile_bench --emit scripts differ")
    with open(gen, "w") as f:
        f.write(scripts[0])
    with open(gen_go, "w") as f:
        f.write(scripts[0] + "BEGIN { exit(0); }\n")

    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run(["bash", "-c", '. "$1/machine.sh"; build=$2; bench_machine', "-",
                    here, builds["A"]], check=True)
    for k, b in builds.items():
        print("%s: %s" % (k, b))
    print("load average at start: %s" % loadavg())

    def dtrace(b):
        return os.path.join(b, "bin", "dtrace")

    rss_tool = os.path.join(builds["A"], "bench", "run_rss")
    fe = {b: has_front_end(b) for b in builds.values()}
    fe_note = ", ".join("%s: %s" % (k, "--front-end" if fe[b] else
                                    "no --front-end, its compile is the front-end")
                        for k, b in builds.items())
    tests = [
        ("start-up, dtrace -q -n 'BEGIN { exit(0); }'", rounds,
         lambda b: run_rss(rss_tool, [dtrace(b), "-q", "-n", "BEGIN { exit(0); }"])),
        ("dtrace -e -s gen.d (%d clauses, compile and stop)" % n, rounds,
         lambda b: run_rss(rss_tool, [dtrace(b), "-e", "-s", gen])),
        ("compile_bench %d 3, in-process dtrace_program_strcompile, best of 3" % n,
         max(5, rounds // 4), lambda b: in_process(b, n, False)),
        ("compile_bench --front-end %d 3, the front-end alone (%s)" % (n, fe_note),
         max(5, rounds // 4), lambda b: in_process(b, n, fe[b])),
        ("dtrace -q -s gen_go.d (%d clauses + BEGIN exit: compile, load, attach, exit)" % n,
         go_rounds, lambda b: run_rss(rss_tool, [dtrace(b), "-q", "-s", gen_go])),
    ]
    for name, (title, count, measure) in zip(FIGURES, tests):
        if only and name not in only:
            continue
        ms = {k: [] for k in builds}
        kib = {k: [] for k in builds}
        cpu = {k: [] for k in builds}
        for i in range(count):
            for k in (("A", "B") if i % 2 == 0 else ("B", "A")):
                t, m, c = measure(builds[k])
                ms[k].append(t)
                kib[k].append(m)
                cpu[k].append(c)
        print("\n%s: %d runs each, taking turns" % (title, count))
        print("  %-3s %10s %10s %9s %9s %13s" % ("", "best ms", "median ms", "user ms",
                                                  "sys ms", "peak RSS KiB"))
        for k in builds:
            u = s = "-"
            if None not in cpu[k]:
                u = "%.1f" % statistics.mean(c[0] for c in cpu[k])
                s = "%.1f" % statistics.mean(c[1] for c in cpu[k])
            print("  %-3s %10.2f %10.2f %9s %9s %13s" % (k, min(ms[k]), statistics.median(ms[k]),
                                                         u, s, max(kib[k]) or "-"))
        ratio = "  B/A %10.3f %10.3f" % (min(ms["B"]) / min(ms["A"]),
                                         statistics.median(ms["B"]) / statistics.median(ms["A"]))
        if None not in cpu["A"] + cpu["B"]:
            ratio += " %9.3f" % (statistics.mean(c[0] for c in cpu["B"]) /
                                 statistics.mean(c[0] for c in cpu["A"]))
        print(ratio)
        sys.stdout.flush()
    print("\nload average at end: %s" % loadavg())
    os.unlink(gen)
    os.unlink(gen_go)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
