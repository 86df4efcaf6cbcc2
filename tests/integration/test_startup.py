"""Start-up reads only the processes a script can match (issue 19).

dtrace reads a process's /proc/PID/maps (and the ELF files it maps) only
for a description that can match a USDT probe of that process: BEGIN,
tick, syscall, proc, sched, io and pid$target read none but the target's;
a provider named with a PID (rtp1234, what rtp$target becomes) reads that
process alone; a provider glob (*:::probe) and dtrace -l read them all.
strace counts the openings, while a libusdt process (usdt_app) and a
second bystander run.  And exit() in a probe other than BEGIN ends dtrace
at once, not at the next switchrate poll.

Environment: DTRACE (our dtrace), USDT_APP (tests/integration/usdt/usdt_app).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

DTRACE = os.environ.get("DTRACE", "dtrace")
USDT_APP = os.environ.get("USDT_APP", "usdt_app")
MAP_HAMMER = os.environ.get("MAP_HAMMER", "map_hammer")
MAPS = re.compile(r'openat\(AT_FDCWD, "/proc/(\d+)/maps"')
ROOT = re.compile(r'openat\(AT_FDCWD, "/proc/(\d+)/(?:root|map_files)/')

# tick-1s ends a count of timer firings and prints when it fired ("t MS");
# timers fire from their start, a few ms before BEGIN
TICK_1S = ("BEGIN { s = timestamp; }\n"
           "tick-1s { printf(\"t %d\\n\", (timestamp - s) / 1000000); exit(0); }\n")


def ran_for(test, counts):
    """The whole seconds the timers ran, in ms, from tick-1s's "t MS": 1000
    when it fired on time.  Now and then (once in a clean-clone CI's 5
    runs, never here in 65) tick-1s loses its first firing, its second
    ending the count at 2 s; the kernel's cause is not found.  Then the
    counts are those of 2 s: one firing lost, no later than that."""
    t = counts.get("t")
    test.assertIsNotNone(t, counts)
    test.assertLess(abs(t - 1000 * round(t / 1000)), 100, t)
    test.assertIn(round(t / 1000), (1, 2), t)
    return 1000 * round(t / 1000)


class Startup(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        env = dict(os.environ, USDT_RUNTIME_DIR=cls.tmp.name)
        # a libusdt process (provider rtp<PID>) and a bystander without probes
        cls.app = subprocess.Popen([USDT_APP, "watch", "60"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, env=env)
        cls.app.stdout.readline()  # path P
        cls.app.stdout.readline()  # enabled 0: the provider is there
        cls.other = subprocess.Popen(["sleep", "60"])

    @classmethod
    def tearDownClass(cls):
        for p in (cls.app, cls.other):
            p.kill()
            p.communicate()
        cls.tmp.cleanup()

    def setUp(self):
        tracelib.require_tracing(self, tools=("strace",))

    def traced(self, *args):
        """dtrace ARGS under strace (dtrace alone: a target is not strace's):
        its stdout, and the PIDs whose maps, and whose files, it opened."""
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "strace")
            r = subprocess.run(["strace", "-qq", "-o", log, "-e", "trace=openat", DTRACE]
                               + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=120, env=tracelib.untraced_env())
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(log) as f:
                text = f.read()
        return (r.stdout, sorted({int(p) for p in MAPS.findall(text)}),
                {int(p) for p in ROOT.findall(text)})

    def assertReadsNone(self, *args):
        out, maps, files = self.traced(*args)
        self.assertEqual(maps, [], args)
        self.assertEqual(files, set(), args)
        return out

    def test_begin_reads_no_process(self):
        self.assertReadsNone("-q", "-n", "BEGIN { exit(0); }")
        self.assertReadsNone("-q", "-n", "dtrace:::BEGIN { exit(0); }")
        self.assertReadsNone("-q", "-n", "END { } BEGIN { exit(0); }")

    def test_kernel_providers_read_no_process(self):
        self.assertReadsNone("-q", "-n", "tick-1ms { exit(0); }")
        self.assertReadsNone("-q", "-n", "profile-97 { } BEGIN { exit(0); }")
        self.assertReadsNone("-q", "-n", "syscall::read:entry { } BEGIN { exit(0); }")
        for prov in ("proc:::exec", "sched:::on-cpu", "io:::start"):
            self.assertReadsNone("-q", "-Z", "-n", prov + " { } BEGIN { exit(0); }")

    def test_pid_target_reads_the_target_only(self):
        pid = self.app.pid
        out, maps, files = self.traced("-q", "-n", "pid$target::main:entry { } BEGIN { exit(0); }",
                                       "-p", str(pid))
        self.assertEqual(maps, [pid])
        self.assertEqual(files, {pid})

    def test_usdt_glob_reads_every_process(self):
        out, maps, _ = self.traced("-q", "-Z", "-n", "*:::probe { } BEGIN { exit(0); }")
        self.assertIn(self.app.pid, maps)
        self.assertIn(self.other.pid, maps)
        self.assertGreater(len(maps), 2)

    def test_named_pid_reads_that_process_only(self):
        pid = self.app.pid
        out, maps, _ = self.traced("-l", "-n", "rtp%d:::gate" % pid)
        self.assertEqual(maps, [pid])
        rows = [l.split() for l in out.splitlines()[1:]]
        self.assertEqual([r[1:] for r in rows], [["rtp%d" % pid, "usdtapp", "main", "gate"]])
        # rtp$target: the same, through -p
        out, maps, _ = self.traced("-l", "-n", "rtp$target:::gate", "-p", str(pid))
        self.assertEqual(maps, [pid])
        self.assertEqual(len(out.splitlines()), 2, out)
        # enabled: the probe matches and attaches
        out, maps, _ = self.traced("-q", "-n", "rtp%d:::gate { } BEGIN { exit(0); }" % pid)
        self.assertEqual(maps, [pid])

    def test_list_reads_every_process(self):
        """dtrace -l with no description lists what it listed before: every process's probes."""
        out, maps, _ = self.traced("-l")
        self.assertIn(self.app.pid, maps)
        self.assertIn(self.other.pid, maps)
        self.assertIn("rtp%d" % self.app.pid, [l.split()[1] for l in out.splitlines()[1:]])
        ids = [int(l.split()[0]) for l in out.splitlines()[1:]]
        self.assertEqual(ids, list(range(1, len(ids) + 1)))
        # a module names a file of any process: every process is read
        out, maps, _ = self.traced("-l", "-m", "usdtapp")
        self.assertIn(self.other.pid, maps)
        self.assertIn("rtp%d" % self.app.pid, out)

    def test_bare_name_of_a_usdt_probe_still_matches(self):
        """An empty provider with a name no built-in provider owns reads every process."""
        out, maps, _ = self.traced("-l", "-n", "gate")
        self.assertIn(self.app.pid, maps)
        self.assertIn("rtp%d" % self.app.pid, out)

    def test_timers_join_a_group_and_all_fire(self):
        """Many tick-N and profile-N timers (more than 256) join groups of
        their CPU and start together (one at a time, the kernel
        reschedules every timer of the CPU at each: 3,000 took 2.3 s);
        each one still fires at its own rate, and tick-1s is not late
        although profile-1009hz is throttled (it has a group of its own).
        strace shows each timer opened in a group, and each group started
        once; the counts are those of each rate over the run."""
        periods = list(range(50, 950, 3))  # 300 tick-Nms probes
        script = "".join("tick-%dms { @[%d] = count(); }\n" % (n, n) for n in periods)
        script += "profile-1009hz { @p = count(); }\n" + TICK_1S
        script += "END { printa(\"%d %@d\\n\", @); printa(\"p %@d\\n\", @p); }\n"
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "strace")
            r = subprocess.run(["strace", "-qq", "-f", "-o", log, "-e",
                                "trace=perf_event_open,ioctl", DTRACE, "-q", "-n", script],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=120, env=tracelib.untraced_env())
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(log) as f:
                calls = f.read()
        # the timers (CPU clock events): each with a group fd, not -1
        timers = re.findall(r"perf_event_open\(\{type=PERF_TYPE_SOFTWARE, [^}]*"
                            r"config=PERF_COUNT_SW_CPU_CLOCK[^)]*\}, -1, (\d+), (-?\d+),", calls)
        ncpus = os.cpu_count()
        self.assertGreaterEqual(len(timers), len(periods) + 1 + 1, calls[-2000:])
        self.assertEqual([t for t in timers if t[1] == "-1"], [], "a timer outside a group")
        leaders = re.findall(r"= (\d+)\n", "\n".join(
            l + "\n" for l in calls.splitlines() if "PERF_COUNT_SW_DUMMY" in l))
        self.assertEqual(sorted({g for _, g in timers}), sorted(set(leaders)))
        self.assertLessEqual(len(leaders), 2 * ncpus)  # fast timers and the others
        for g in leaders:  # each group started, once
            self.assertEqual(len(re.findall(r"ioctl\(%s, PERF_EVENT_IOC_ENABLE" % g, calls)), 1,
                             calls[-2000:])
        counts = {}
        for line in r.stdout.split("\n"):
            f = line.split()
            if len(f) == 2:
                counts[f[0]] = int(f[1])
        window = ran_for(self, counts)
        for n in periods:  # about 1 s of each rate: 1000/n, give or take one
            self.assertLessEqual(abs(counts.get(str(n), 0) - window // n), 1, (n, r.stdout))
        self.assertGreater(counts.get("p", 0), 0, r.stdout)

    def test_programs_load_on_every_cpu(self):
        """300 programs (each clause on a tick probe of its own) load in
        batches on a thread per CPU: strace sees BPF_PROG_LOAD from more
        than one thread where there are CPUs for them, and once BEGIN has
        fired every program is loaded and attached (the perf event
        programs among dtrace's descriptors).  The timers are slow (1 s
        and more): 300 fast ones would disturb the timers of the tests
        after this one."""
        periods = range(1000, 1300)  # ms
        script = "".join("tick-%dms { @[%d] = count(); }\n" % (n, n) for n in periods)
        script += "BEGIN { printf(\"go\\n\"); }\n"
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "strace")
            p = subprocess.Popen(["strace", "-qq", "-f", "-o", log, "-e", "trace=bpf",
                                  DTRACE, "-q", "-n", script],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=tracelib.untraced_env())
            try:
                self.assertEqual(p.stdout.readline(), "go\n")
                with open(log) as f:
                    loads = [l.split()[0] for l in f if "BPF_PROG_LOAD" in l and
                             'prog_name="dtrace"' in l and "= -" not in l]
                pids = {int(l) for l in loads}
                progs = 0
                for pid in pids:  # dtrace's main thread is among the loaders
                    fdinfo = "/proc/%d/fdinfo" % pid
                    for fd in os.listdir(fdinfo) if os.path.isdir(fdinfo) else ():
                        try:
                            with open(os.path.join(fdinfo, fd)) as f:
                                info = f.read()
                        except OSError:
                            continue
                        progs += "prog_type:\t7\n" in info  # BPF_PROG_TYPE_PERF_EVENT
            finally:  # dtrace is strace's child: SIGINT ends it as ^C
                with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
                    for child in f.read().split():
                        os.kill(int(child), signal.SIGINT)
                p.communicate(timeout=60)
        self.assertGreaterEqual(len(loads), len(periods))
        if (os.cpu_count() or 1) > 1:
            self.assertGreater(len(pids), 1, "every program loaded by one thread")
        self.assertEqual(progs, len(periods))

    def test_a_fast_timer_does_not_delay_the_others(self):
        """tick-1s fires 1 s after the start beside profile-4999hz.  The
        kernel throttles a timer that fires 400 times between two
        scheduler ticks of its CPU (an idle CPU has none) and, since Linux
        6.16, its whole group with it: in one group, tick-1s fired late in
        most runs, or never.  A few timers start alone."""
        took = []
        for _ in range(5):
            r = subprocess.run([DTRACE, "-q", "-n", "profile-4999hz { @p = count(); } "
                                "BEGIN { s = timestamp; } "
                                "tick-1s { printf(\"%d\\n\", (timestamp - s) / 1000000); "
                                "exit(0); } END { clear(@p); }"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            took.append(int(r.stdout.split()[0]))
        # in the clean-clone CI one run in five found its first firing gone
        # (2 s), a firing lost, not held back: at most one, most on time
        self.assertLess(abs(sorted(took)[2] - 1000), 100, took)
        self.assertLess(max(took), 2100, took)

    def test_tick_firings_the_kernel_skips_are_reported(self):
        """While a CPU is in a bpf(2) map operation the kernel skips the BPF
        programs of perf events firing there, silently: map_hammer loops
        over map look-ups on CPU 0, where tick-N fires, and dtrace reports
        the firings its program did not see, as drops ("N lost tick
        firings on CPU 0"): those counted and those reported lost are the
        firings of the time it ran, within 1% (a firing late by half a
        period would count one lost).  dtrace writes to a file of its own
        (-o): map_hammer prints a line."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            r = subprocess.run([DTRACE, "-q", "-o", out, "-n",
                                "BEGIN { s = timestamp; } tick-1ms { @n = count(); } "
                                "END { printf(\"%d ms\\n\", (timestamp - s) / 1000000); "
                                "printa(\"%@d fired\\n\", @n); }",
                                "-c", "%s 0 2" % MAP_HAMMER],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=60, env=tracelib.untraced_env())
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                text = f.read()
            ms = int(re.search(r"^(\d+) ms$", text, re.M).group(1))
            fired = int(re.search(r"^(\d+) fired$", text, re.M).group(1))
            lost = 0
            for line in r.stderr.splitlines():
                m = re.fullmatch(r"dtrace: (\d+) lost tick firings? on CPU 0", line)
                self.assertIsNotNone(m, "unexpected message: " + line)
                lost += int(m.group(1))
            self.assertGreater(lost, 0, (text, r.stderr))
            self.assertLessEqual(abs(fired + lost - ms), 3 + ms // 100, (ms, fired, lost))
            # in JSON, drop objects of kind "tick"
            r = subprocess.run([DTRACE, "-q", "-x", "oformat=json", "-o", out, "-n",
                                "tick-1ms { @n = count(); }", "-c", "%s 0 1" % MAP_HAMMER],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=60, env=tracelib.untraced_env())
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out) as f:
                objs = [json.loads(line) for line in f]
            drops = [o for o in objs if o["type"] == "drop"]
            self.assertTrue(drops, objs[-5:])
            for d in drops:
                self.assertEqual((d["kind"], d["cpu"]), ("tick", 0), d)

    def test_timers_with_the_same_clauses_share_a_program(self):
        """A clause on a tick and a profile probe of its own is one program
        for both (the timers' links carry each probe's key as the attach
        cookie), and each probe still fires under its own name and rate;
        a probe whose clauses differ keeps its program."""
        n = 40
        script = "".join("tick-%dms, profile-%dhz { @[probename] = count(); }\n"
                         % (100 + i, 300 + i) for i in range(n))
        script += "tick-100ms { @x = count(); }\n"  # tick-100ms: clauses of its own
        script += TICK_1S.replace("tick-1s { ", "tick-1s { printf(\"progs\\n\"); ")
        script += "END { printa(\"%s %@d\\n\", @); printa(\"x %@d\\n\", @x); }\n"
        p = subprocess.Popen([DTRACE, "-q", "-n", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=tracelib.untraced_env())
        progs = None
        try:
            self.assertEqual(p.stdout.readline(), "progs\n")
            progs = 0
            fdinfo = "/proc/%d/fdinfo" % p.pid
            for fd in os.listdir(fdinfo):
                try:
                    with open(os.path.join(fdinfo, fd)) as f:
                        progs += "prog_type:\t7\n" in f.read()  # BPF_PROG_TYPE_PERF_EVENT
                except OSError:
                    pass
        finally:
            out, err = tracelib.finish(p)
        self.assertEqual(p.returncode, 0, err)
        # tick-100ms's and profile-300hz's (their clauses differ), tick-101ms and
        # profile-301hz's ..., tick-1s's
        self.assertEqual(progs, 2 + (n - 1) + 1)
        counts = {k: int(v) for k, v in
                  (l.split() for l in out.splitlines() if len(l.split()) == 2)}
        window = ran_for(self, counts)
        for i in range(n):
            tick = counts.get("tick-%dms" % (100 + i), 0)
            self.assertLessEqual(abs(tick - window // (100 + i)), 1, (i, out))
            self.assertGreater(counts.get("profile-%dhz" % (300 + i), 0), 0, (i, out))
        self.assertLessEqual(abs(counts["x"] - window // 100), 1, out)

    def test_exit_in_a_probe_ends_at_once(self):
        """exit() from tick: END fires and dtrace ends without waiting the
        switchrate (10 s here) for END's records, when END has none to wake it."""
        t = time.monotonic()
        r = subprocess.run([DTRACE, "-q", "-x", "switchrate=10s", "-n", "tick-1ms { exit(3); }"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=60)
        took = time.monotonic() - t
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertEqual(r.stdout, "\n")
        self.assertLess(took, 5.0)


if __name__ == "__main__":
    unittest.main()
