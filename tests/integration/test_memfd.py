"""USDT probes of images with no file name (issue 16, item 9).

libstapsdt builds its provider image at run time and loads it from a
memfd: the mapping reads "/memfd:NAME (deleted)".  memfd_app (memfd/) does
the same with a shared object whose notes dtrace -h made, in three ways:
the memfd kept open (as libstapsdt), the memfd closed after dlopen (only
the mapping holds it), and a real file unlinked after dlopen.  Each must be
listed by dtrace -l -p PID and traced by stapapp$target:::firstProbe with
exact counts; the semaphore must rise while traced and fall after.  bpftrace
is the oracle for the memfd case (it lists the probes through
/proc/PID/fd/N).

Environment: DTRACE (our dtrace).
"""
import os
import shutil
import subprocess
import tempfile
import unittest

import tracelib

DTRACE = os.environ.get("DTRACE", "dtrace")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "memfd")
N = 1000


class Memfd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="memfd-")
        for f in os.listdir(SRC):
            shutil.copy(os.path.join(SRC, f), cls.tmp)
        run = lambda *a: subprocess.run(a, cwd=cls.tmp, check=True)  # noqa: E731
        run(DTRACE, "-h", "-s", "stapapp.d", "-o", "stapapp.h")
        run("cc", "-O2", "-fPIC", "-shared", "stapapp_lib.c", "-o", "libstapapp.so")
        run("cc", "-O2", "-Wall", "-Wextra", "-Werror", "memfd_app.c", "-o", "memfd_app")
        cls.app = os.path.join(cls.tmp, "memfd_app")
        cls.lib = os.path.join(cls.tmp, "libstapapp.so")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def start(self, mode, n):
        app = subprocess.Popen([self.app, mode, self.lib, str(n)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
        self.addCleanup(self.stop, app)
        self.assertEqual(app.stdout.readline(), "ready\n")
        return app

    @staticmethod
    def stop(app):
        if app.poll() is None:
            app.kill()
            app.wait()
        app.stdin.close()
        app.stdout.close()

    def mapping(self, pid):
        """The name of the executable mapping of the image, as maps gives it."""
        with open("/proc/%d/maps" % pid) as f:
            for line in f:
                if " r-xp " in line and ("stapapp" in line) and "memfd_app" not in line:
                    return line.split(None, 5)[5].strip()
        return None

    def check_list(self, mode, module):
        app = self.start(mode, 0)
        name = self.mapping(app.pid)
        if module is None:  # a file: the name it had
            self.assertRegex(name, r"^/tmp/stapapp-\w{6} \(deleted\)$")
            module = os.path.basename(name[:-len(" (deleted)")])
        else:
            self.assertEqual(name, "/memfd:%s (deleted)" % module)
        r = subprocess.run([DTRACE, "-l", "-p", str(app.pid)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        got = [l.split()[1:] for l in r.stdout.splitlines() if "stapapp" in l]
        self.assertEqual(got, [["stapapp%d" % app.pid, module, "stapapp_fire", "firstProbe"]])
        app.stdin.write("done\n")
        app.stdin.flush()
        self.assertEqual(app.wait(10), 0)

    def test_list_memfd(self):
        self.check_list("memfd", "stapapp")

    def test_list_memfd_closed(self):
        self.check_list("closed", "stapapp")

    def test_list_deleted_file(self):
        self.check_list("deleted", None)

    def test_list_memfd_unprivileged(self):
        """Without CAP_SYS_ADMIN, /proc/PID/map_files is closed: the memfd is
        found through the descriptor the process holds (as bpftrace does)."""
        if shutil.which("setpriv") is None:
            self.skipTest("no setpriv")
        os.chmod(self.tmp, 0o755)
        dtrace = os.path.join(self.tmp, "dtrace")
        shutil.copy(DTRACE, dtrace)
        nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        got = {}
        for mode in ("memfd", "closed"):
            app = subprocess.Popen(nobody + [self.app, mode, self.lib, "0"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.addCleanup(self.stop, app)
            self.assertEqual(app.stdout.readline(), "ready\n")
            r = subprocess.run(nobody + [dtrace, "-l", "-p", str(app.pid)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            got[mode] = (app.pid, [l.split()[1:] for l in r.stdout.splitlines()
                                   if "stapapp" in l])
            app.stdin.write("done\n")
            app.stdin.flush()
            self.assertEqual(app.wait(10), 0)
        pid, rows = got["memfd"]  # setpriv execs: the app keeps its PID
        self.assertEqual(rows, [["stapapp%d" % pid, "stapapp", "stapapp_fire", "firstProbe"]])
        # closed: nothing names the inode for this user (bpftrace sees nothing either)
        self.assertEqual(got["closed"][1], [])

    def check_trace(self, mode):
        app = self.start(mode, N)
        # the last firing ends the trace: dtrace detaches and the app sees
        # its semaphore fall
        prog = ("stapapp$target:::firstProbe { @n = count(); @s = sum(arg0); "
                "@str[copyinstr(arg1)] = count(); } "
                "stapapp$target:::firstProbe /arg0 == %d/ { exit(0); }" % (N - 1))
        r = subprocess.run([DTRACE, "-q", "-p", str(app.pid), "-n", prog],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=90)
        out = app.stdout.read()
        self.assertEqual(app.wait(30), 0)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        self.assertEqual(r.stdout.split(), [str(N), str(N * (N - 1) // 2), "memfd", str(N)])
        self.assertEqual(out, "fired %d\n" % N)  # the semaphore fell: nothing left raised

    def test_trace_memfd(self):
        self.check_trace("memfd")

    def test_trace_memfd_closed(self):
        self.check_trace("closed")

    def test_trace_deleted_file(self):
        self.check_trace("deleted")

    def test_bpftrace_lists_the_same_probe(self):
        if shutil.which("bpftrace") is None:
            self.skipTest("no bpftrace")
        app = self.start("memfd", 0)
        fds = [os.readlink("/proc/%d/fd/%s" % (app.pid, fd))
               for fd in os.listdir("/proc/%d/fd" % app.pid)]
        fd = [f for f in os.listdir("/proc/%d/fd" % app.pid)
              if os.readlink("/proc/%d/fd/%s" % (app.pid, f)).startswith("/memfd:stapapp")]
        self.assertEqual(len(fd), 1, fds)
        bt = subprocess.run(["bpftrace", "-l", "usdt:*", "-p", str(app.pid)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            timeout=60)
        want = "usdt:/proc/%d/fd/%s:stapapp:firstProbe" % (app.pid, fd[0])
        self.assertIn(want, bt.stdout.splitlines(), bt.stdout + bt.stderr)
        app.stdin.write("done\n")
        app.stdin.flush()
        app.wait(10)


if __name__ == "__main__":
    unittest.main()
