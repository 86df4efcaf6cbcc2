"""Soak: dtrace attached to and detached from processes whose threads
create, enable, fire and destroy runtime providers, for SOAK_SECONDS
(default 1800: 30 minutes).  Not in CI's run (ctest label soak):
`ctest -L soak` (or SOAK_SECONDS=60 for a short one).

Two targets run rounds side by side.  On target A a new dtrace attaches
(-p, -Z) for every few rounds and is stopped with SIGINT: its counts per
provider module must equal what the threads fired while traced, exactly.
On target B one dtrace stays for the whole run, counting every fire: its
total must be exact at the end.  Every provider must be traced (a thread
waits 5 s for its tracer).  RSS of the long-lived dtrace and of both
targets, after a warm-up, must stay flat (end <= warm-up + 25% + 2 MiB),
and the long-lived dtrace's descriptors, counted before the first round
and 4 s after the last, must be as many.
Prints its figures (cycles, rounds, fires, RSS start/end) at the end.

Environment: SOAK_APP, DTRACE, SOAK_SECONDS.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "integration"))
import tracelib  # noqa: E402

APP = os.environ.get("SOAK_APP", "soak_app")
DTRACE = os.environ.get("DTRACE", "dtrace")
SECONDS = float(os.environ.get("SOAK_SECONDS", "1800"))
FIRES = 1000
ROUNDS_PER_CYCLE = 3


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


class Target:
    def __init__(self, rundir):
        env = dict(os.environ, USDT_RUNTIME_DIR=rundir)
        self.p = subprocess.Popen([APP], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, env=env)
        assert self.p.stdout.readline().strip() == "ready"
        self.round = 0

    def run_round(self):
        """One round: {module: fires made while traced}, and errors."""
        self.round += 1
        self.p.stdin.write("round %d %d\n" % (self.round, FIRES))
        self.p.stdin.flush()
        fired, errors = {}, []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise AssertionError("soak_app ended")
            words = line.split()
            if words[:2] == ["round", "done"]:
                return fired, errors
            if words[0] == "fired":
                fired[words[1]] = int(words[2])
            else:
                errors.append(line.strip())

    def close(self):
        if self.p.poll() is None:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
            self.p.wait(timeout=30)


def start_dtrace(pid, prog):
    p = subprocess.Popen([DTRACE, "-Z", "-q", "-p", str(pid), "-n", prog],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p


def stop_dtrace(p):
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return out, err


class Soak(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())
        self.dir = tempfile.TemporaryDirectory(prefix="soak-")
        os.chmod(self.dir.name, 0o700)

    def tearDown(self):
        self.dir.cleanup()

    def test_soak(self):
        a, b = Target(self.dir.name), Target(self.dir.name)
        failures = []
        figures = {"cycles": 0, "rounds_a": 0, "rounds_b": 0, "fires_a": 0, "fires_b": 0}
        longlived = start_dtrace(b.p.pid, "soak$target:::tick { @ = count(); }")
        b_total, b_err = 0, []
        stop = threading.Event()

        def run_b():
            nonlocal b_total
            while not stop.is_set():
                fired, errors = b.run_round()
                b_err.extend(errors)
                b_total += sum(fired.values())
                figures["rounds_b"] += 1
                missed = [m for m, n in fired.items() if n != FIRES]
                if missed:
                    b_err.append("B round %d: not traced: %s" % (b.round, missed))

        rss = {"dtrace": [], "a": [], "b": []}
        start = time.time()
        tb = threading.Thread(target=run_b, daemon=True)
        try:
            time.sleep(0.5)  # the long-lived dtrace attaches
            fds_before = len(os.listdir("/proc/%d/fd" % longlived.pid))
            tb.start()
            while time.time() - start < SECONDS and not failures:
                d = start_dtrace(a.p.pid, "soak$target:::tick { @[probemod] = count(); }")
                want = {}
                for _ in range(ROUNDS_PER_CYCLE):
                    fired, errors = a.run_round()
                    figures["rounds_a"] += 1
                    failures.extend(errors)
                    want.update(fired)
                out, err = stop_dtrace(d)
                figures["cycles"] += 1
                got = {}
                for line in out.splitlines():
                    m = re.match(r"\s*(\S+)\s+(\d+)$", line)
                    if m:
                        got[m.group(1)] = int(m.group(2))
                expect = {m: n for m, n in want.items() if n}
                figures["fires_a"] += sum(expect.values())
                if len(expect) != len(want):
                    failures.append("cycle %d: not traced: %s" % (
                        figures["cycles"], sorted(set(want) - set(expect))))
                if got != expect:
                    failures.append("cycle %d: counts %s, fired %s (stderr %r)" % (
                        figures["cycles"], got, expect, err))
                if d.returncode != 0:
                    failures.append("cycle %d: dtrace exit %d: %s" % (
                        figures["cycles"], d.returncode, err))
                rss["dtrace"].append(rss_kb(longlived.pid))
                rss["a"].append(rss_kb(a.p.pid))
                rss["b"].append(rss_kb(b.p.pid))
        finally:
            stop.set()
            tb.join(timeout=120)
            # what is gone is detached within seconds: counted once B is quiet
            time.sleep(4)
            fds_after = len(os.listdir("/proc/%d/fd" % longlived.pid))
            out, err = stop_dtrace(longlived)
            a.close()
            b.close()
        m = re.search(r"^\s*(\d+)\s*$", out, re.M)
        figures["fires_b"] = b_total
        counted = int(m.group(1)) if m else None
        if counted != b_total:
            failures.append("long-lived dtrace counted %s of %d (stderr %r)" % (
                counted, b_total, err))
        failures.extend(b_err)
        warm = max(1, len(rss["dtrace"]) // 10)
        for who, series in rss.items():
            if len(series) > warm:
                base, end = max(series[:warm]), series[-1]
                figures["rss_%s_kb" % who] = "%d -> %d" % (base, end)
                if end > base * 1.25 + 2048:
                    failures.append("RSS of %s grew: %s" % (who, series[::max(1, warm)]))
        figures["fds_dtrace"] = "%d -> %d" % (fds_before, fds_after)
        if fds_after > fds_before + 4:
            failures.append("descriptors of the long-lived dtrace grew: %d -> %d" % (
                fds_before, fds_after))
        print("\nsoak %.0f s: %s" % (time.time() - start, figures), file=sys.stderr)
        for f in failures[:50]:
            print("soak failure: %s" % f, file=sys.stderr)
        self.assertEqual(len(failures), 0, "%d failures (the first 50 above)" % len(failures))


if __name__ == "__main__":
    unittest.main()
