#!/usr/bin/env python3
"""Records per second into Python and Lua (issue 20).

  sudo python3 bench/records_bench.py [BUILD_DIR [HITS [RUNS]]]

hit_loop fires bench:::two HITS times (default 200000) under a program
that records three values a firing (`trace(arg0); trace(arg1);
trace("bench")`), consumed by: the dtrace command (its text output to
/dev/null: a libdtrace client that formats and writes), the Python
binding (`for rec in Consumer(...).records()`, each record's data
touched), and the Lua binding (`for rec in c:records()`). Each is timed
from the start of the consumer to its end, the target's loop included;
records per second is HITS over that time, less hit_loop's own loop
(printed by it), so the figure is the consumer's side. Buffers are 64 MiB
a CPU, and every run's records are counted (a short count is printed:
a drop, not speed). Prints figures; passes or fails nothing.
"""
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROG = 'bench$target:::two { trace(arg0); trace(arg1); trace("bench"); }'
BUFSIZE = "64m"

PY = r'''
import sys, dtrace
n = 0
with dtrace.Consumer(sys.argv[1], options={"bufsize": sys.argv[3], "switchrate": "100hz"},
                     target=[sys.argv[2], sys.argv[4]]) as c:
    for rec in c.records():
        d = rec.data
        n += len(d) == 3
    drops = c.drops
print("records", n, "drops", drops)
'''

LUA = r'''
local dtrace = require("dtrace")
local c <close> = dtrace.consumer{options = {bufsize = arg[3], switchrate = "100hz"}}
c:spawn{arg[2], arg[4]}
c:compile(arg[1])
local n = 0
for rec in c:records() do
	if rec.data and #rec.data == 3 then n = n + 1 end
end
print("records " .. n)
'''


def run(cmd, env=None, stdin=None):
    t0 = time.monotonic()
    r = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=env, timeout=600)
    return time.monotonic() - t0, r


def loop_s(text, hits):
    m = re.search(r"hits \d+ ns/hit ([\d.]+)", text)
    return float(m.group(1)) * hits / 1e9 if m else 0.0


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    hits = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    dtrace = os.path.join(build, "bin", "dtrace")
    loop = os.path.join(build, "bench", "hit_loop")
    pyenv = dict(os.environ, PYTHONPATH=os.path.join(build, "bindings", "python"))
    luaenv = dict(os.environ, LUA_CPATH=os.path.join(build, "bindings", "lua", "?.so") + ";;")
    print("machine: %s, %d CPUs, load average %.1f at start; %d hits, 3 values each, "
          "bufsize %s; %d runs, median [min-max]"
          % (os.uname().release, os.cpu_count(), os.getloadavg()[0], hits, BUFSIZE, runs))
    tools = [("dtrace(1) text to /dev/null",
              [dtrace, "-q", "-x", "bufsize=" + BUFSIZE, "-o", "/dev/null", "-n", PROG, "-c",
               "%s %d" % (loop, hits)], None, None),
             ("Python Consumer.records()",
              ["/usr/bin/python3", "-c", PY, PROG, loop, BUFSIZE, str(hits)], pyenv,
              r"records (\d+)")]
    if os.path.exists(os.path.join(build, "bindings", "lua", "dtrace.so")):
        # the script on stdin ("-"), its arg[1..] after it
        tools.append(("Lua c:records()", ["lua5.4", "-", PROG, loop, BUFSIZE, str(hits)],
                      luaenv, r"records (\d+)"))
    res = {name: [] for name, *_ in tools}
    short = {name: [] for name, *_ in tools}
    for _ in range(runs):
        for name, cmd, env, count in tools:
            wall, r = run(cmd, env, LUA if name.startswith("Lua") else None)
            if r.returncode != 0:
                print("  %s failed (%d): %s" % (name, r.returncode, r.stderr.strip()[-300:]))
                continue
            got = hits
            if count:
                m = re.search(count, r.stdout)
                got = int(m.group(1)) if m else 0
            if got != hits:
                short[name].append(got)
            rest = wall - loop_s(r.stdout + r.stderr, hits)
            res[name].append(got / rest if rest > 0 else float("nan"))
    print("  %-30s %s" % ("", "records/s (consumer side)"))
    for name, *_ in tools:
        v = res[name]
        if v:
            print("  %-30s %.0f [%.0f-%.0f]%s" % (
                name, statistics.median(v), min(v), max(v),
                "  short runs: %s" % short[name] if short[name] else ""))


if __name__ == "__main__":
    main()
