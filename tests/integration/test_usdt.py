"""libusdt end to end: providers declared at run time, traced with bpftrace
(the independent oracle): exact counts and values of every argument type,
more than 6 arguments, is-enabled following attach and detach, 16 threads
firing while a tracer attaches and detaches, fork, rebuilds, and the image
files removed on destroy, at exit, and after kill -9 on the next start.

Environment: USDT_APP (tests/integration/usdt/usdt_app), NOTEDUMP.
"""
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

APP = os.environ.get("USDT_APP", "usdt_app")
NOTEDUMP = os.environ.get("NOTEDUMP", "notedump")
N = 200


class App:
    """usdt_app in its own runtime directory, its first line read.  Unless
    the test talks to its stdin, the app fires only after finish() says
    "go": the tracer is attached by then (a semaphore rises a moment before
    bpftrace's program is bound to the probe)."""

    def __init__(self, rundir, *args, stdin=None):
        env = dict(os.environ, USDT_RUNTIME_DIR=rundir)
        self.go = stdin is None
        if self.go:
            env["USDT_APP_GO"] = "1"
            stdin = subprocess.PIPE
        self.p = subprocess.Popen([APP] + [str(a) for a in args], stdout=subprocess.PIPE,
                                  stdin=stdin, text=True, env=env)
        line = self.p.stdout.readline().split()
        if len(line) != 2 or line[0] != "path":
            self.p.kill()
            raise AssertionError("usdt_app did not start: %r" % line)
        self.path = line[1]

    def line(self):
        return self.p.stdout.readline().rstrip("\n")

    def finish(self, timeout=60):
        out, _ = self.p.communicate("go\n" if self.go else None, timeout=timeout)
        return out.splitlines()

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


def f64(i):
    return struct.unpack("<Q", struct.pack("<d", 0.5 * i))[0]


def expected_twelve(n):
    return ["twelve " + " ".join(str((-1 if k % 2 else 1) * (1000 * k + i)) for k in range(12))
            for i in range(n)]


def expected_events(n):
    ev = []
    for i in range(n):
        ev.append("ints %d %d %d %d %d %d" % (
            i % 256 - 128, 255 - i % 256, -30000 + i, 65535 - i, -2000000000 + i,
            4000000000 + i))
        ev.append("wide %d %d %d str-%d %d %d" % (
            -5000000000000 - i, 18000000000000000000 + i, 0x1000 + i, i, f64(i), i))
    return sorted(ev)


BT = r'''
usdt:%(p)s:rtp:ints { printf("ints %%d %%u %%d %%u %%d %%u\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:%(p)s:rtp:wide { printf("wide %%lld %%llu %%llu %%s %%llu %%llu\n", arg0, arg1, arg2, str(arg3), arg4, arg5); }
usdt:%(p)s:rtp:twelve { @twelve_usdt = count(); @t5 = sum(arg5); }
usdt:%(p)s:rtp:noargs { @noargs = count(); }
usdt:%(p)s:rtp:gate { @gate = count(); @gatesum = sum(arg0); }
'''


class Usdt(unittest.TestCase):
    def setUp(self):
        self.rundir = tempfile.mkdtemp(prefix="usdt-run-")
        os.chmod(self.rundir, 0o700)
        self.apps = []

    def tearDown(self):
        for a in self.apps:
            a.kill()
        for f in os.listdir(self.rundir):
            os.unlink(os.path.join(self.rundir, f))
        os.rmdir(self.rundir)

    def app(self, *args, **kw):
        a = App(self.rundir, *args, **kw)
        self.apps.append(a)
        return a

    def files(self):
        return sorted(os.listdir(self.rundir))

    # -- the image -------------------------------------------------------------

    def test_notes_of_the_image(self):
        a = self.app("watch", 30)
        out = tracelib.run([NOTEDUMP, a.path]).stdout
        notes = {l.split()[2]: l for l in out.splitlines() if l.startswith("note ")}
        self.assertEqual(sorted(notes), sorted(["ints", "wide", "twelve", "noargs", "gate",
                                                "spin", "burst", "forked"]))
        self.assertIn("nargs=6 1 s %edi 1 u %esi 2 s %edx 2 u %ecx 4 s %r8d 4 u %r9d",
                      notes["ints"])
        self.assertIn("nargs=6 8 s %rdi 8 u %rsi 8 u %rdx 8 u %rcx 8 u %r8 8 u %r9",
                      notes["wide"])
        self.assertIn("8 s %r9 8 s 8(%rsp) 8 s 16(%rsp) 8 s 24(%rsp) 8 s 32(%rsp) "
                      "8 s 40(%rsp) 8 s 48(%rsp)", notes["twelve"])
        # semaphores in .probes, named, sites are nop5
        for l in out.splitlines():
            f = l.split()
            if f[0] == "sema":
                self.assertEqual(f[4], "section=.probes")
            if f[0] == "site":
                self.assertTrue(f[3].startswith("0f1f440000c3"), l)
        self.assertEqual(self.files(), [os.path.basename(a.path)])
        st = os.stat(self.rundir)
        self.assertEqual(st.st_mode & 0o777, 0o700)
        # a build ID (section and PT_NOTE), which perf keys its cache by
        bid = re.search(r"Build ID: ([0-9a-f]{40})",
                        tracelib.run(["readelf", "-n", a.path]).stdout)
        self.assertIsNotNone(bid)
        self.assertIn("NOTE", tracelib.run(["readelf", "-lW", a.path]).stdout)
        if shutil.which("perf"):
            got = tracelib.run(["perf", "buildid-list", "-i", a.path]).stdout.strip()
            self.assertEqual(got, bid.group(1))

    # -- tracing ----------------------------------------------------------------

    def test_counts_and_values(self):
        tracelib.require_tracing(self)
        a = self.app("fire", N)
        is_event = lambda l: l.startswith(("ints ", "wide "))
        lines, applines = tracelib.bpftrace_while(
            BT % {"p": a.path}, app=a,
            drained=lambda got: sum(map(is_event, got)) >= 2 * N)
        events = sorted(filter(is_event, lines))
        self.assertEqual(len(events), 2 * N)
        self.assertEqual(events, expected_events(N))
        self.assertIn("@noargs: %d" % N, lines)
        self.assertIn("@twelve_usdt: %d" % N, lines)
        # bpftrace prints sums as unsigned 64-bit numbers
        self.assertIn("@t5: %d" % (sum(-(5000 + i) for i in range(N)) % 2**64), lines)
        self.assertIn("@gate: %d" % N, lines)
        self.assertIn("@gatesum: %d" % (N * (N - 1) // 2), lines)
        self.assertIn("enabled-before 1", applines)
        self.assertEqual(a.p.returncode, 0)  # a sanitizer report at exit fails it

    def test_twelve_arguments_read_by_the_kernel(self):
        """bpftrace 0.17 reads 6 USDT arguments at most: the kernel's own
        uprobe_events reads all twelve where the SysV ABI puts them, and
        raises the semaphore through the same ref_ctr offset."""
        tracelib.require_tracing(self, tools=())
        a = self.app("fire", N, "twelve")
        out = tracelib.run([NOTEDUMP, a.path]).stdout
        m = re.search(r"^note rtp twelve pc=(0x[0-9a-f]+) base=\S+ sema=(0x[0-9a-f]+)", out, re.M)
        regs = ["%di", "%si", "%dx", "%cx", "%r8", "%r9"]
        fetch = ["a%d=%s:s64" % (k, regs[k]) for k in range(6)]
        fetch += ["a%d=+%d(%%sp):s64" % (k, 8 * (k - 5)) for k in range(6, 12)]
        with tracelib.UprobeEvent("usdttest", "twelve", a.path, int(m.group(1), 16),
                                  int(m.group(2), 16), fetch) as ev:
            a.finish()
            got = ev.read()
        values = ["twelve " + " ".join(re.findall(r"a\d+=(-?\d+)", l)) for l in got]
        # by iteration (the first value): the trace file merges the CPUs'
        # buffers by a clock that need not agree between CPUs
        values.sort(key=lambda l: int(l.split()[1]))
        self.assertEqual(values, expected_twelve(N))
        self.assertEqual(a.p.returncode, 0)

    def test_is_enabled_follows_attach_and_detach(self):
        tracelib.require_tracing(self)
        a = self.app("watch", 30)
        self.assertEqual(a.line(), "enabled 0")
        for _ in range(2):
            tracelib.bpftrace("usdt:%s:rtp:gate { @ = count(); } "
                              "interval:ms:800 { exit(); }" % a.path)
            self.assertEqual(a.line(), "enabled 1")
            self.assertEqual(a.line(), "enabled 0")

    def test_sixteen_threads_while_tracers_come_and_go(self):
        tracelib.require_tracing(self)
        a = self.app("stress", stdin=subprocess.PIPE)
        script = ("usdt:%(p)s:rtp:burst { @b[arg0] = count(); @n = count(); } "
                  "usdt:%(p)s:rtp:spin { @spin = count(); }" % {"p": a.path})
        k = 2000
        for cycle in range(4):
            def burst():
                a.p.stdin.write("burst %d\n" % k)
                a.p.stdin.flush()
                line = a.line()
                self.assertTrue(line.startswith("burst done "), line)
                return int(line.split()[2])
            lines, delivered = tracelib.bpftrace_while(script, None, action=burst)
            # every thread's burst reached the probe and was counted, exactly
            self.assertEqual(delivered, 16 * k, "cycle %d" % cycle)
            self.assertIn("@n: %d" % (16 * k), lines)
            for t in range(16):
                self.assertIn("@b[%d]: %d" % (t, k), lines)
            self.assertTrue(any(l.startswith("@spin: ") for l in lines))
        # untraced now: a burst reaches nothing
        a.p.stdin.write("burst 100\n")
        a.p.stdin.flush()
        self.assertEqual(a.line(), "burst done 0")
        a.p.stdin.write("quit\n")
        a.p.stdin.flush()
        self.assertEqual(a.finish(), ["quit"])
        self.assertEqual(a.p.returncode, 0)

    def test_fork_child_keeps_probes(self):
        tracelib.require_tracing(self)
        a = self.app("fork", 50)
        script = ("usdt:%(p)s:rtp:forked { @[arg0] = count(); } "
                  "usdt:%(p)s:rtp:gate { }" % {"p": a.path})
        lines, applines = tracelib.bpftrace_while(script, None, app=a)
        m = [l for l in applines if l.startswith("child ")]
        self.assertEqual(len(m), 1, applines)
        child, parent = m[0].split()[1], m[0].split()[3]
        self.assertIn("@[%s]: 50" % child, lines)
        self.assertIn("@[%s]: 50" % parent, lines)
        self.assertEqual(a.p.returncode, 0)

    def test_probe_added_after_enable(self):
        tracelib.require_tracing(self)
        a = self.app("late", 40)
        first = a.path
        second = a.line().split()[1]
        self.assertNotEqual(first, second)
        self.assertFalse(os.path.exists(first), "the old image must be removed")
        self.assertEqual(self.files(), [os.path.basename(second)])
        script = ("usdt:%(p)s:rtp:late { @late = count(); @s = sum(arg0); } "
                  "usdt:%(p)s:rtp:gate { }" % {"p": second})
        lines, _ = tracelib.bpftrace_while(script, None, app=a)
        self.assertIn("@late: 40", lines)
        self.assertIn("@s: %d" % (40 * 39 // 2), lines)
        self.assertEqual(a.p.returncode, 0)

    def test_reenabled_provider_is_traced(self):
        tracelib.require_tracing(self)
        a = self.app("reenable", 30)
        second = a.line().split()[1]
        self.assertEqual(self.files(), [os.path.basename(second)])
        lines, _ = tracelib.bpftrace_while(
            "usdt:%s:rtp:gate { @g = count(); @s = sum(arg0); }" % second, None, app=a)
        self.assertIn("@g: 30", lines)
        self.assertIn("@s: %d" % (30 * 29 // 2), lines)
        self.assertEqual(a.p.returncode, 0)

    def test_same_provider_in_two_modules_counted_apart(self):
        tracelib.require_tracing(self)
        a = self.app("twins", 25)
        second = a.line().split()[1]
        self.assertNotEqual(second, a.path)
        self.assertEqual(sorted(self.files()),
                         sorted([os.path.basename(a.path), os.path.basename(second)]))
        lines, _ = tracelib.bpftrace_while(
            "usdt:%s:rtp:gate { @one[arg0] = count(); } "
            "usdt:%s:rtp:gate { @two[arg0] = count(); }" % (a.path, second), None, app=a)
        self.assertIn("@one[1]: 25", lines)
        self.assertIn("@two[2]: 50", lines)
        self.assertFalse(any(l.startswith(("@one[2]", "@two[1]")) for l in lines), lines)
        self.assertEqual(a.p.returncode, 0)

    def test_values_wider_than_their_type_are_truncated(self):
        # both entry points: the array form truncates to the declared width,
        # the fixed-arity form passes 64 bits and the note's width decides
        tracelib.require_tracing(self)
        a = self.app("trunc")
        lines, _ = tracelib.bpftrace_while(
            BT % {"p": a.path}, None, app=a,
            drained=lambda got: sum(l.startswith("ints ") for l in got) >= 2)
        self.assertEqual([l for l in lines if l.startswith("ints ")],
                         ["ints -1 254 -32768 9029 -1 2"] * 2)
        self.assertEqual(a.p.returncode, 0)

    def test_fire_races_disable_rebuild_destroy(self):
        # the header promises fire and is-enabled are safe while another
        # thread disables, enables, rebuilds and destroys: 16 threads hammer
        # them through 60 such rounds (under ASan in the sanitizer build)
        a = self.app("churn", 60)
        out = a.finish(timeout=120)
        self.assertEqual(out, ["churn done 0"])  # untraced: no fire found it enabled
        self.assertEqual(a.p.returncode, 0)
        self.assertEqual(self.files(), [])

    def test_fire_races_disable_rebuild_destroy_while_traced(self):
        # the same with bpftrace on the first image: the threads fire into a
        # traced probe when the main thread starts swapping images under them
        tracelib.require_tracing(self)
        a = self.app("churn", 60, "traced")
        lines, applines = tracelib.bpftrace_while(
            "usdt:%(p)s:rtp:burst { @b = count(); } usdt:%(p)s:rtp:spin { @s = count(); }"
            % {"p": a.path}, None, app=a)
        done = [l for l in applines if l.startswith("churn done ")]
        self.assertEqual(len(done), 1, applines)
        self.assertGreater(int(done[0].split()[2]), 0)  # fires found it enabled
        counts = dict(l.split(": ") for l in lines if l.startswith("@"))
        self.assertGreater(int(counts.get("@b", 0)), 0, lines)
        self.assertGreater(int(counts.get("@s", 0)), 0, lines)
        self.assertEqual(a.p.returncode, 0)
        self.assertEqual(self.files(), [])

    # -- files --------------------------------------------------------------------

    def test_file_removed_on_destroy(self):
        a = self.app("destroy")
        self.assertEqual(a.line(), "destroyed -%d" % 2006)  # -EUSDT_DESTROYED
        self.assertEqual(self.files(), [])
        self.assertIsNone(a.p.poll())  # still running: removed by destroy, not by exit

    def test_file_removed_at_exit(self):
        a = self.app("exit")
        a.finish()
        self.assertEqual(a.p.returncode, 0)
        self.assertEqual(self.files(), [])

    def test_files_of_killed_process_reaped_on_next_start(self):
        a = self.app("watch", 30)
        name = os.path.basename(a.path)
        a.p.send_signal(signal.SIGKILL)
        a.p.wait()
        self.assertEqual(self.files(), [name])  # kill -9 leaves it
        b = self.app("watch", 30)
        self.assertEqual(self.files(), [os.path.basename(b.path)])

    def test_full_disk_is_an_error_and_leaves_nothing(self):
        """A real ENOSPC: a 4 KiB tmpfs as the runtime directory."""
        tracelib.require_tracing(self, tools=())  # root: mount
        d = tempfile.mkdtemp(prefix="usdt-full-")
        try:
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k,mode=0700", "usdtfull", d],
                           check=True, timeout=30)
            try:
                p = subprocess.run([APP, "exit"], env=dict(os.environ, USDT_RUNTIME_DIR=d),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   timeout=60)
                left = os.listdir(d)
            finally:
                subprocess.run(["umount", d], check=True, timeout=30)
        finally:
            os.rmdir(d)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"usdt_provider_enable: cannot write %s/\S+-usdtapp-rtp-0\.so: "
                         r"libelf: cannot write data" % re.escape(d))
        self.assertEqual(left, [])

    def test_live_files_spared_by_a_process_in_another_pid_namespace(self):
        """There, our PID names no process: the file's lock keeps it."""
        tracelib.require_tracing(self, tools=("unshare",))
        a = self.app("watch", 30)
        other = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", APP, "exit"],
                               env=dict(os.environ, USDT_RUNTIME_DIR=self.rundir),
                               stdout=subprocess.PIPE, text=True, timeout=60)
        self.assertEqual(other.returncode, 0)
        self.assertIn(os.path.basename(a.path), self.files())


if __name__ == "__main__":
    unittest.main()
