"""dtrace_go() under injected kernel failures: every map creation, map
update, program load, attachment and the output buffers failing in turn
(DTRACE_KS_FAULT, kernel-shim/ks_fault.c).  Each failure must give one
clear message and leave nothing behind while the handle is still open: no
BPF map, program or link and no perf event among the consumer's
descriptors, the target's semaphore back at 0, the target not stopped.
Then the same from the dtrace command, whose exit status must be 1.

Environment: FAULTGO (tests/integration/faultgo.c), USDT_APP, DTRACE.
"""
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

FAULTGO = os.environ.get("FAULTGO", "faultgo")
APP = os.environ.get("USDT_APP", "usdt_app")
DTRACE = os.environ.get("DTRACE", "dtrace")
PROG = "rtp$target:::gate { @g = count(); } profile-97 { @p = count(); }"
OPS = ("map_create", "map_update", "prog_load", "attach", "perfbuf")


class Watched:
    """usdt_app watch: prints "enabled E" whenever rtp:::gate's semaphore
    turns on or off (it looks every 2 ms)."""

    def __init__(self, rundir):
        env = dict(os.environ, USDT_RUNTIME_DIR=rundir)
        self.p = subprocess.Popen([APP, "watch", "240"], stdout=subprocess.PIPE, text=True,
                                  env=env)
        first = self.p.stdout.readline().split()
        if len(first) != 2 or first[0] != "path":
            self.p.kill()
            raise AssertionError("usdt_app did not start: %r" % first)
        self.lines = []
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()
        self.wait_enabled(0)

    def _read(self):
        for line in self.p.stdout:
            self.lines.append(line.strip())

    def enabled(self):
        states = [ln for ln in self.lines if ln.startswith("enabled ")]
        return int(states[-1].split()[1]) if states else None

    def wait_enabled(self, want, timeout=5.0):
        end = time.time() + timeout
        while time.time() < end and self.enabled() != want:
            time.sleep(0.01)
        return self.enabled()

    def close(self):
        self.p.kill()
        self.p.wait()


class FaultedGo(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory(prefix="faults-")
        os.chmod(cls.dir.name, 0o700)
        cls.app = Watched(cls.dir.name)

    @classmethod
    def tearDownClass(cls):
        cls.app.close()
        cls.dir.cleanup()

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def go(self, spec):
        """faultgo with the fault spec: its report, and the semaphore seen
        while its handle is still open."""
        env = dict(os.environ, DTRACE_KS_FAULT=spec)
        p = subprocess.Popen([FAULTGO, str(self.app.p.pid), PROG], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env)
        report, err = {}, ""
        try:
            for line in p.stdout:
                key, _, rest = line.strip().partition(" ")
                report[key] = rest
                if key == "target" or (key == "go" and rest == "0"):
                    break
            want = 1 if report.get("go") == "0" else 0
            report["semaphore"] = self.app.wait_enabled(want, timeout=1.0)
            _, err = p.communicate("\n", timeout=30)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        self.assertEqual(p.returncode, 0, err)
        self.assertEqual(self.app.wait_enabled(0), 0, "semaphore up after dtrace_close")
        return report

    def test_control(self):
        """Without a fault the same program goes: the semaphore rises (the
        check below can see one left up)."""
        r = self.go("")
        self.assertEqual(r.get("go"), "0")
        self.assertEqual(r["semaphore"], 1)

    def test_every_failure_point(self):
        seen = 0
        for op in OPS:
            with self.subTest(op=op):
                n = 1
                while True:
                    # EPERM: a map refused as RLIMIT_MEMLOCK or a missing
                    # capability refuses it; EACCES: the verifier's refusal
                    err = ("EPERM" if op == "map_create" and n == 1 else
                           "EACCES" if op == "prog_load" else "ENOMEM")
                    r = self.go("%s:%d:%s" % (op, n, err))
                    if r.get("go") == "0":
                        self.assertEqual(r["semaphore"], 1)
                        break
                    seen += 1
                    msg = r.get("go", "")
                    self.assertTrue(msg.startswith("-1 "), r)
                    text = msg[3:]
                    self.assertRegex(text, r"(cannot|not permitted|privileges)", r)
                    self.assertIn({"EPERM": "Operation not permitted",
                                   "EACCES": "Permission denied"}.get(
                                       err, "Cannot allocate memory"), text)
                    self.assertEqual(r.get("fds"), "0", "%s:%d left %s" % (op, n, r))
                    self.assertNotIn(r.get("target"), ("T", "t", None), r)
                    self.assertEqual(r["semaphore"], 0, "%s:%d left it up" % (op, n))
                    n += 1
                    self.assertLess(n, 40, "%s never stops failing" % op)
                self.assertGreater(n, 1, "%s: no call to fail" % op)
        self.assertGreaterEqual(seen, len(OPS))

    def test_many_programs(self):
        """300 programs load on a thread per CPU: whichever load fails (the
        first, one in the middle of a batch, the last), dtrace_go gives one
        message naming a program, and every program and map is closed."""
        prog = "".join("tick-%dms { @[%d] = count(); }\n" % (n, n) for n in range(1000, 1300))
        for n in (1, 150, 300):
            with self.subTest(n=n):
                env = dict(os.environ, DTRACE_KS_FAULT="prog_load:%d:EACCES" % n)
                p = subprocess.run([FAULTGO, str(self.app.p.pid), prog], input="\n",
                                   capture_output=True, text=True, env=env, timeout=120)
                self.assertEqual(p.returncode, 0, p.stderr)
                lines = dict(ln.partition(" ")[::2] for ln in p.stdout.splitlines())
                self.assertRegex(lines.get("go", ""), r"^-1 cannot load the program of "
                                 r"profile:::tick-1\d\d\dms: Permission denied$", p.stdout)
                self.assertEqual(lines.get("fds"), "0", p.stdout)

    def test_target_gone(self):
        """The target exits between the grab and the attachments: the
        error says so, and nothing stays."""
        app = Watched(self.dir.name)
        try:
            p = subprocess.run([FAULTGO, str(app.p.pid), PROG, "kill"], input="\n",
                               capture_output=True, text=True, timeout=60)
        finally:
            app.close()
        lines = dict(ln.partition(" ")[::2] for ln in p.stdout.splitlines())
        self.assertEqual(lines.get("go"), "-1 pid %d has exited" % app.p.pid, p.stdout)
        self.assertEqual(lines.get("fds"), "0")

    def test_command(self):
        """dtrace(1): one message, status 1, the target still running."""
        for spec in ("map_create:2", "prog_load:2", "attach:1", "perfbuf:1"):
            with self.subTest(spec=spec):
                env = dict(os.environ, DTRACE_KS_FAULT=spec)
                p = subprocess.run([DTRACE, "-q", "-p", str(self.app.p.pid), "-n", PROG],
                                   capture_output=True, text=True, env=env, timeout=60)
                self.assertEqual(p.returncode, 1, p.stderr)
                errs = [ln for ln in p.stderr.splitlines()
                        if ln.startswith("dtrace: could not enable tracing: ")]
                self.assertEqual(len(errs), 1, p.stderr)
                self.assertEqual(self.app.wait_enabled(0), 0)
                self.assertIsNone(self.app.p.poll())


if __name__ == "__main__":
    unittest.main()
