"""A tracer that stays while runtime providers come and go: dtrace -Z on a
process whose threads create, enable, fire and destroy providers
(tests/soak/soak_app).  Every provider is traced, the count is exact, and
dtrace closes the programs and links of the providers that are gone: its
BPF descriptors do not grow with the number of providers it has seen (they
grew by two a provider).  Gone probes also leave its probe table, and
their EPIDs are taken by later ones: the EPIDs seen stay far fewer than the
providers (there was one a provider, and the table kept ~1 KB each).  The
30-minute version is the soak test.

Environment: SOAK_APP, DTRACE.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

APP = os.environ.get("SOAK_APP", "soak_app")
DTRACE = os.environ.get("DTRACE", "dtrace")


def bpf_fds(pid):
    n = 0
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            if "bpf" in os.readlink("/proc/%d/fd/%s" % (pid, fd)):
                n += 1
        except OSError:
            pass
    return n


# dtrace's first line, once it traces: the test starts then, not after a
# guess of how long starting takes (a sleep of 1 s)
BEGIN_LINE = 'BEGIN { printf("dtrace is tracing\\n"); }'


class LongLived(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def test_providers_come_and_go(self):
        with tempfile.TemporaryDirectory(prefix="longlived-") as rundir:
            os.chmod(rundir, 0o700)
            app = subprocess.Popen([APP], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   text=True, env=dict(os.environ, USDT_RUNTIME_DIR=rundir))
            self.assertEqual(app.stdout.readline().strip(), "ready")
            d = subprocess.Popen([DTRACE, "-Z", "-q", "-p", str(app.pid), "-n",
                                  "soak$target:::tick { @ = count(); @e[epid] = count(); }",
                                  "-n", BEGIN_LINE],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                # the descriptors of a dtrace that has started, not of one starting
                self.assertEqual(d.stdout.readline(), "dtrace is tracing\n", "dtrace ended")
                fired, fds = 0, [bpf_fds(d.pid)]
                for r in range(1, 41):
                    app.stdin.write("round %d 100\n" % r)
                    app.stdin.flush()
                    while True:
                        words = app.stdout.readline().split()
                        self.assertTrue(words, "soak_app ended")
                        if words[:2] == ["round", "done"]:
                            break
                        self.assertEqual(words[0], "fired", words)
                        self.assertEqual(words[2], "100", "a provider was not traced")
                        fired += int(words[2])
                    if r % 10 == 0:
                        # dtrace looks for gone objects at most once a second,
                        # when it wakes (switchrate): quiet a few, then count
                        time.sleep(4)
                        fds.append(bpf_fds(d.pid))
                d.send_signal(signal.SIGINT)
                out, err = tracelib.finish(d)
            finally:
                if d.poll() is None:
                    d.kill()
                app.stdin.write("quit\n")
                app.stdin.flush()
                app.wait(timeout=30)
            total = [ln.split() for ln in out.splitlines() if len(ln.split()) == 1]
            epids = [ln.split() for ln in out.splitlines() if len(ln.split()) == 2]
            self.assertEqual(int(total[-1][0]), fired, err)
            self.assertEqual(fired, 40 * 4 * 100)
            self.assertEqual(sum(int(c) for _, c in epids), fired, out)
            # 160 providers; 4 live at a time, and a gone one's EPID is free
            # again 2-3 s later (the app runs ~10 rounds in that time)
            self.assertLessEqual(len(epids), 80, out)
            print("EPIDs seen: %d for 160 providers" % len(epids))
            # 160 providers seen, none left: as many descriptors as before the
            # first (a provider's program and link are 2)
            self.assertLessEqual(max(fds) - fds[0], 4, fds)

    def test_speculation_outlives_its_provider(self):
        # records a speculation holds stay printable after their provider is
        # gone and its probes have left the table (2 s): the commit, 6 s
        # later, prints them under their probe's names (it read freed ECBs)
        with tempfile.TemporaryDirectory(prefix="longlived-") as rundir:
            os.chmod(rundir, 0o700)
            app = subprocess.Popen([APP], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   text=True, env=dict(os.environ, USDT_RUNTIME_DIR=rundir))
            self.assertEqual(app.stdout.readline().strip(), "ready")
            prog = ("BEGIN { s = speculation(); printf(\"dtrace is tracing\\n\"); } "
                    "soak$target:::tick { speculate(s); "
                    "printf(\"held %s %s %d\\n\", probemod, probename, arg0); } "
                    "tick-7s { commit(s); } tick-8s { exit(0); }")
            d = subprocess.Popen([DTRACE, "-Z", "-q", "-p", str(app.pid), "-n", prog],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                self.assertEqual(d.stdout.readline(), "dtrace is tracing\n", "dtrace ended")
                app.stdin.write("round 1 10\n")
                app.stdin.flush()
                while True:
                    words = app.stdout.readline().split()
                    self.assertTrue(words, "soak_app ended")
                    if words[:2] == ["round", "done"]:
                        break
                    self.assertEqual(words[2], "10", "a provider was not traced")
                out, err = tracelib.finish(d)
            finally:
                if d.poll() is None:
                    d.kill()
                app.stdin.write("quit\n")
                app.stdin.flush()
                app.wait(timeout=30)
            self.assertEqual(d.returncode, 0, err)
            held = sorted(ln for ln in out.splitlines() if ln.startswith("held"))
            # each of the 4 threads fires 10 times with its number as arg0
            want = sorted("held r1t%d tick %d" % (t, t) for t in range(4) for _ in range(10))
            self.assertEqual(held, want, out + err)


if __name__ == "__main__":
    unittest.main()
