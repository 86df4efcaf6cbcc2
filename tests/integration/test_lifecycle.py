"""Nothing lost, nothing left behind (issue 16): dtrace's own life, traced
for real.

- A -c command dies with dtrace, however dtrace ends: exit(), SIGINT,
  SIGTERM, SIGHUP, SIGKILL (illumos kills a process it created, PR_KLC);
  a -p process goes on running, not stopped (PR_RLC).
- A failed write of the output (text, JSON, stdout, -o) ends dtrace with
  "failed to write to FILE: ERROR" and status 1 (illumos oprintf()).
- A script read from /dev/zero or an endless FIFO stops at the first NUL
  or at the size limit, in bounded time and memory.
- A signal in dtrace's first milliseconds ends it as cleanly as a later one.

Environment: DTRACE (our dtrace).
"""
import os
import random
import signal
import subprocess
import tempfile
import threading
import time
import unittest

import tracelib

DTRACE = os.environ.get("DTRACE", "dtrace")


def sleep_tag():
    """A unique argument for sleep(1), to find the process again by its command line."""
    return "%d.%06d" % (random.randint(5000, 9000), random.randint(0, 999999))


def procs_with(argv):
    """PIDs of live processes whose command line is argv (zombies have none)."""
    want = ("\0".join(argv) + "\0").encode()
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % d, "rb") as f:
                if f.read() == want:
                    found.append(int(d))
        except OSError:
            pass
    return found


def proc_state(pid):
    """The state letter of /proc/PID/stat (R, S, T, Z...), or None when gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def sigint_caught(pid):
    """Has pid installed a handler for SIGINT (bit 2 of SigCgt)?"""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)))
    except OSError:
        pass
    return False


def wait_until(cond, timeout=10.0, step=0.005):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(step)
    return cond()


def gone(argv, timeout=5.0):
    """True once no live process runs argv (a dead one may wait as a zombie)."""
    return wait_until(lambda: not procs_with(argv), timeout)


def kill_all(argv):
    for pid in procs_with(argv):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


class TargetLife(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def run_c(self, how):
        tag = sleep_tag()
        child = ["sleep", tag]
        prog = 'BEGIN { printf("%d\\n", $target); } tick-50ms { n++; }'
        if how == "exit":
            prog += " tick-300ms { exit(0); }"
        p = subprocess.Popen([DTRACE, "-q", "-n", prog, "-c", " ".join(child)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = p.stdout.readline()
            self.assertTrue(line.strip().isdigit(), line)
            pid = int(line)
            self.assertEqual(procs_with(child), [pid])
            if how != "exit":
                os.kill(p.pid, getattr(signal, how))
            out, err = p.communicate(timeout=30)
            # dtrace's own status: clean (0) unless SIGKILL, which nothing catches
            self.assertEqual(p.returncode, -9 if how == "SIGKILL" else 0, err)
            self.assertNotIn("sleep", err)
            self.assertTrue(gone(child), "%s: -c command still runs after dtrace ended" % how)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            kill_all(child)

    def test_c_killed_at_exit(self):
        self.run_c("exit")

    def test_c_killed_at_sigint(self):
        self.run_c("SIGINT")

    def test_c_killed_at_sigterm(self):
        self.run_c("SIGTERM")

    def test_c_killed_at_sighup(self):
        self.run_c("SIGHUP")

    def test_c_killed_when_dtrace_is_killed(self):
        self.run_c("SIGKILL")

    def test_c_killed_after_a_failed_enable(self):
        # the command is started before the programs compile: a program
        # that fails to compile must not leave it behind, stopped at its exec
        tag = sleep_tag()
        p = subprocess.run([DTRACE, "-n", "BEGIN { nosuchfunc(); }", "-c", "sleep " + tag],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertTrue(gone(["sleep", tag]))

    def test_c_killed_after_compile_only(self):
        # -e makes the command too (its pid probes are made when the program
        # compiles, as dtrace(1)), and kills it when it exits
        tag = sleep_tag()
        p = subprocess.run([DTRACE, "-e", "-n", "BEGIN { trace($target); }", "-c", "sleep " + tag],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(gone(["sleep", tag]))

    def test_p_left_running(self):
        tag = sleep_tag()
        victim = subprocess.Popen(["sleep", tag])
        try:
            for how in ("SIGINT", "exit"):
                prog = 'BEGIN { printf("go\\n"); } tick-50ms { n++; }'
                if how == "exit":
                    prog += " tick-200ms { exit(0); }"
                p = subprocess.Popen([DTRACE, "-q", "-n", prog, "-p", str(victim.pid)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                self.assertEqual(p.stdout.readline(), "go\n")
                if how != "exit":
                    p.send_signal(signal.SIGINT)
                out, err = p.communicate(timeout=30)
                self.assertEqual(p.returncode, 0, err)
                # running (sleeping), not stopped, not killed
                self.assertEqual(proc_state(victim.pid), "S", how)
                self.assertIsNone(victim.poll())
        finally:
            victim.kill()
            victim.wait()


class WriteErrors(unittest.TestCase):
    """illumos oprintf(): fatal("failed to write to %s", g_ofile ? g_ofile : "<stdout>")."""

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def dtrace_to(self, args, stdout_path):
        with open(stdout_path, "w") as out:
            return subprocess.run([DTRACE] + args, stdout=out, stderr=subprocess.PIPE,
                                  text=True, timeout=60)

    def check_full(self, args, name="<stdout>", to="/dev/full"):
        p = self.dtrace_to(args, to)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("dtrace: failed to write to %s: No space left on device\n" % name,
                      p.stderr)
        # the same run to /dev/null succeeds: the failure is the write's
        if to == "/dev/full":
            q = self.dtrace_to(args, "/dev/null")
            self.assertEqual(q.returncode, 0, q.stderr)
            self.assertNotIn("failed to write", q.stderr)

    def test_text_stdout(self):
        self.check_full(["-qn", 'BEGIN { printf("hi\\n"); exit(0); }'])

    def test_json_stdout(self):
        self.check_full(["-x", "oformat=json", "-qn", 'BEGIN { printf("hi\\n"); exit(0); }'])

    def test_more_than_a_buffer(self):
        # records past stdio's buffer: the write fails while printing
        self.check_full(["-qn", 'tick-1ms { printf("%0100d\\n", i++); } tick-1ms /i > 200/ '
                         '{ exit(0); }'])

    def test_aggregations_at_exit(self):
        self.check_full(["-qn", "BEGIN { @[1] = count(); exit(0); }"])

    def test_default_output(self):
        # no -q: the probe lines
        self.check_full(["-n", "BEGIN { exit(0); }"])

    def test_o_file(self):
        for fmt in ([], ["-x", "oformat=json"]):
            self.check_full(fmt + ["-o", "/dev/full", "-qn", 'BEGIN { printf("hi\\n"); exit(0); }'],
                            name="/dev/full", to="/dev/null")

    def test_list(self):
        self.check_full(["-l", "-n", "BEGIN"])


def rusage_run(args, timeout, **kw):
    """Run dtrace; (status, stderr, seconds, max RSS in KiB), killed after timeout."""
    t0 = time.monotonic()
    p = subprocess.Popen([DTRACE] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         **kw)
    timer = threading.Timer(timeout, p.kill)
    timer.start()
    try:
        err = p.stderr.read().decode(errors="replace")
        _, status, ru = os.wait4(p.pid, 0)
    finally:
        timer.cancel()
        p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, err, time.monotonic() - t0, ru.ru_maxrss


class ScriptInput(unittest.TestCase):
    def test_dev_zero(self):
        rc, err, secs, rss = rusage_run(["-e", "-s", "/dev/zero"], 20)
        self.assertEqual(rc, 1, err)
        self.assertLess(secs, 10)
        self.assertLess(rss, 200 * 1024)
        self.assertIn("invalid character \\0 in program", err)
        self.assertIn("at /dev/zero:1:1\n", err)

    def test_nul_in_file_at_its_place(self):
        with tempfile.NamedTemporaryFile("wb", suffix=".d") as f:
            f.write(b"BEGIN\n{\n\texit(0); \0}\n")
            f.flush()
            for cpp in ([], ["-C"]):
                p = subprocess.run([DTRACE, "-e"] + cpp + ["-s", f.name], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=60)
                err = p.stderr.decode()
                self.assertEqual(p.returncode, 1, err)
                self.assertIn("invalid character \\0 in program", err)
                self.assertIn("at %s:3:11\n" % f.name, err, cpp)

    def test_endless_fifo(self):
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "prog.d")
            os.mkfifo(fifo)
            stop = threading.Event()

            def writer():
                chunk = b"BEGIN { }\n" * 4096
                try:
                    with open(fifo, "wb") as w:
                        while not stop.is_set():
                            w.write(chunk)
                except (BrokenPipeError, OSError):
                    pass

            t = threading.Thread(target=writer, daemon=True)
            t.start()
            try:
                rc, err, secs, rss = rusage_run(["-e", "-s", fifo], 60)
            finally:
                stop.set()
            self.assertEqual(rc, 1, err)
            self.assertIn("a program is at most 16 MB", err)
            self.assertLess(rss, 300 * 1024)
            t.join(10)


class EarlySignals(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def test_sigint_while_reading_a_fifo_script(self):
        # dtrace waits for its script after starting the -c command: the
        # most exposed moment, and a deterministic one
        tag = sleep_tag()
        child = ["sleep", tag]
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "prog.d")
            os.mkfifo(fifo)
            for opener in (False, True):
                p = subprocess.Popen([DTRACE, "-s", fifo, "-c", " ".join(child)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                w = None
                try:
                    self.assertTrue(wait_until(lambda: procs_with(child)), "no -c command")
                    if opener:  # blocked in read(), not in open()
                        w = open(fifo, "w")
                    time.sleep(0.1)
                    p.send_signal(signal.SIGINT)
                    out, err = p.communicate(timeout=30)
                    self.assertEqual(p.returncode, 0, err)
                    self.assertEqual(err, "")
                    self.assertTrue(gone(child), "-c command left behind")
                finally:
                    if w is not None:
                        w.close()
                    if p.poll() is None:
                        p.kill()
                        p.wait()
                    kill_all(child)

    def test_sigint_in_the_first_milliseconds(self):
        # once the handler is there (from main's first line), a signal at
        # any moment ends dtrace with status 0, its -c command killed
        for i in range(30):
            tag = sleep_tag()
            child = ["sleep", tag]
            p = subprocess.Popen([DTRACE, "-qn", "tick-1s { }", "-c", " ".join(child)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                self.assertTrue(wait_until(lambda: sigint_caught(p.pid) or p.poll() is not None,
                                           step=0.0005))
                time.sleep(random.uniform(0, 0.06))
                sig = (signal.SIGINT, signal.SIGTERM)[i % 2]
                p.send_signal(sig)
                out, err = p.communicate(timeout=30)
                self.assertEqual(p.returncode, 0, "run %d: %s" % (i, err))
                self.assertNotIn("dtrace:", err)
                self.assertTrue(gone(child), "run %d: -c command left behind" % i)
            finally:
                if p.poll() is None:
                    p.kill()
                    p.wait()
                kill_all(child)

    def test_early_sigint_releases_a_grabbed_process(self):
        tag = sleep_tag()
        victim = subprocess.Popen(["sleep", tag])
        try:
            for i in range(15):
                p = subprocess.Popen([DTRACE, "-qn", "tick-1s { }", "-p", str(victim.pid)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                self.assertTrue(wait_until(lambda: sigint_caught(p.pid) or p.poll() is not None,
                                           step=0.0005))
                time.sleep(random.uniform(0, 0.06))
                p.send_signal(signal.SIGINT)
                out, err = p.communicate(timeout=30)
                self.assertEqual(p.returncode, 0, err)
                # not left stopped by the grab (SIGSTOP until continued)
                self.assertTrue(wait_until(lambda: proc_state(victim.pid) == "S", 2),
                                "run %d: state %s" % (i, proc_state(victim.pid)))
        finally:
            victim.kill()
            victim.wait()

    def test_modes_that_do_not_trace_die_by_the_signal(self):
        # -e has no clean end to reach: the shell sees the interruption
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "prog.d")
            os.mkfifo(fifo)
            p = subprocess.Popen([DTRACE, "-e", "-s", fifo], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            self.assertTrue(wait_until(lambda: sigint_caught(p.pid)))
            time.sleep(0.1)
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=30)
            self.assertEqual(p.returncode, -signal.SIGINT, err)
            self.assertEqual(err, "")



TWO_SITES_D = "provider twosite { probe hit(int); };\n"
TWO_SITES_C = r"""
#include <stdio.h>
#include <unistd.h>
#include "twosite.h"
__attribute__((noinline)) static void one(int i) { TWOSITE_HIT(i); }
__attribute__((noinline)) static void two(int i) { TWOSITE_HIT(-i); }
int main(void)
{
	for (int i = 0; i < 3000; i++) {
		printf("enabled %d\n", TWOSITE_HIT_ENABLED());
		fflush(stdout);
		one(i);
		two(i);
		usleep(10000);
	}
	return 0;
}
"""


class EnabledIsAFlag(unittest.TestCase):
    """docs/static-probes.md: ENABLED() counts the probe's sites holding a
    breakpoint in the process (the kernel's ref_ctr), not the tracers."""

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def test_two_sites_two_tracers(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "twosite.d"), "w") as f:
                f.write(TWO_SITES_D)
            with open(os.path.join(d, "app.c"), "w") as f:
                f.write(TWO_SITES_C)
            tracelib.run([DTRACE, "-h", "-s", "twosite.d", "-o", "twosite.h"], cwd=d)
            tracelib.run(["gcc", "-O1", "-I", d, "-o", "app", "app.c"], cwd=d)
            app = subprocess.Popen([os.path.join(d, "app")], stdout=subprocess.PIPE, text=True)
            last = ["?"]

            def reader():
                for line in app.stdout:
                    last[0] = line.split()[1]

            t = threading.Thread(target=reader, daemon=True)
            t.start()
            tracers = []
            try:
                self.assertTrue(wait_until(lambda: last[0] == "0"))
                seen = []
                for i in range(2):
                    p = subprocess.Popen([DTRACE, "-q", "-n",
                                          'BEGIN { printf("go\\n"); } twosite$target:::hit '
                                          '{ n++; }', "-p", str(app.pid)],
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True)
                    tracers.append(p)
                    self.assertEqual(p.stdout.readline(), "go\n", p.stderr)
                    time.sleep(0.3)
                    seen.append(last[0])
                # one per site, however many tracers
                self.assertEqual(seen, ["2", "2"])
                for p in tracers:
                    p.send_signal(signal.SIGINT)
                    p.communicate(timeout=30)
                    self.assertEqual(p.returncode, 0)
                self.assertTrue(wait_until(lambda: last[0] == "0", 5), last[0])
            finally:
                for p in tracers:
                    if p.poll() is None:
                        p.kill()
                        p.wait()
                app.kill()
                app.wait()
                app.stdout.close()


if __name__ == "__main__":
    unittest.main()
