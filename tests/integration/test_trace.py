"""Our dtrace traces real processes: libusdt providers grabbed with -p,
Debian's python3.11 (its semaphores raised by the kernel while traced and
lowered after), counted against bpftrace as an independent oracle.

Environment: DTRACE (our dtrace), USDT_APP (tests/integration/usdt/usdt_app).
"""
import os
import re
import struct
import subprocess
import tempfile
import time
import unittest

import tracelib

DTRACE = os.environ.get("DTRACE", "dtrace")
APP = os.environ.get("USDT_APP", "usdt_app")
PYTHON = "/usr/bin/python3.11"


def dtrace(args, timeout=60, **kw):
    return subprocess.run([DTRACE] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout, **kw)


def python_semaphore():
    """The link-time address of python:::function__entry's semaphore
    (python3.11 is a fixed-address executable on Debian)."""
    out = subprocess.run(["readelf", "-n", PYTHON], stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"Name: function__entry\n\s+Location: \S+, Base: \S+, Semaphore: (0x[0-9a-f]+)",
                  out)
    return int(m.group(1), 16)


def read_u16(pid, addr):
    with open("/proc/%d/mem" % pid, "rb") as f:
        f.seek(addr)
        return struct.unpack("<H", f.read(2))[0]


class Trace(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self)

    def test_libusdt_provider_with_p(self):
        n = 300
        with tempfile.TemporaryDirectory() as rundir:
            env = dict(os.environ, USDT_RUNTIME_DIR=rundir)
            app = subprocess.Popen([APP, "fire", str(n)], stdout=subprocess.PIPE, text=True,
                                   env=env)
            try:
                self.assertTrue(app.stdout.readline().startswith("path "))
                prog = ("rtp$target:::ints { n++; s0 += arg0; s2 += arg2; s5 += arg5; } "
                        "rtp$target:::wide /arg5 == %d/ { printf(\"last %%s %%d\\n\", "
                        "copyinstr(arg3), arg0); } "
                        "rtp$target:::twelve, rtp$target:::noargs, rtp$target:::gate { g++; } "
                        "END { printf(\"n %%d s0 %%d s2 %%d s5 %%d\\n\", n, s0, s2, s5); }" % (n - 1))
                p = dtrace(["-q", "-n", "int64_t s0, s2, s5; " + prog, "-p", str(app.pid)])
                app.wait(30)
            finally:
                if app.poll() is None:
                    app.kill()
        self.assertEqual(p.returncode, 0, p.stderr)
        want0 = sum(i % 256 - 128 for i in range(n))
        want2 = sum(-30000 + i for i in range(n))
        want5 = sum(4000000000 + i for i in range(n))
        self.assertIn("last str-%d %d" % (n - 1, -5000000000000 - (n - 1)), p.stdout,
                      p.stderr)
        self.assertIn("n %d s0 %d s2 %d s5 %d" % (n, want0, want2, want5), p.stdout)

    def test_libusdt_provider_created_after_c(self):
        # the provider appears after dtrace started the command: -Z lets the
        # descriptions match nothing yet, the target's new probes are enabled
        # as they appear, and the app waits for its semaphores before firing
        n = 40
        with tempfile.TemporaryDirectory() as rundir:
            p = dtrace(["-Zq", "-n", "int64_t s2; rtp$target:::ints { n++; s2 += arg2; } "
                        "rtp$target:::wide, rtp$target:::twelve, rtp$target:::noargs, "
                        "rtp$target:::gate { } "
                        "END { printf(\"n %d s2 %d\\n\", n, s2); }",
                        "-c", "%s fire %d" % (APP, n)],
                       env=dict(os.environ, USDT_RUNTIME_DIR=rundir))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("enabled-before 1", p.stdout)
        self.assertIn("n %d s2 %d" % (n, sum(-30000 + i for i in range(n))), p.stdout)

    def test_only_clauses_that_match_later(self):
        # nothing matches at start (no BEGIN/END either): dtrace waits for the
        # target's probes, and a clause first built then was sized at start
        # (its aggregation's map and its string key's scratch exist)
        n = 25
        with tempfile.TemporaryDirectory() as rundir:
            p = dtrace(["-Zq", "-n", "rtp$target:::twelve { @[probename] = count(); }",
                        "-c", "%s fire %d twelve" % (APP, n)],
                       env=dict(os.environ, USDT_RUNTIME_DIR=rundir))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"\n  twelve +%d\n" % n)

    def test_python_function_entry_against_bpftrace(self):
        # Python 3.11 fires function__entry only for frames entered from C;
        # whatever it fires, we must count exactly what bpftrace counts.
        script = ("import sys\n"
                  "def f(x): return x\n"
                  "list(map(f, range(100)))\n"
                  "for i in range(50):\n"
                  "    exec('def g%d(x): return x' % i)\n"
                  "    list(map(globals()['g%d' % i], range(3)))\n"
                  "sorted(range(100), key=lambda v: -v)\n")
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(script)
        try:
            p = dtrace(["-q", "-n", "python$target:::function-entry "
                        "{ printf(\"%s %d\\n\", copyinstr(arg1), arg2); }",
                        "-c", "%s %s" % (PYTHON, f.name)])
            self.assertEqual(p.returncode, 0, p.stderr)
            ours = sorted(l for l in p.stdout.splitlines() if l)
            bt = subprocess.run(["bpftrace", "-e",
                                 "usdt:%s:python:function__entry "
                                 "{ printf(\"%%s %%d\\n\", str(arg1), arg2); }" % PYTHON,
                                 "-c", "%s %s" % (PYTHON, f.name)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                timeout=120)
            theirs = sorted(l for l in bt.stdout.splitlines()
                            if l and not l.startswith("Attaching"))
        finally:
            os.unlink(f.name)
        self.assertGreater(len(ours), 0)
        self.assertEqual(ours, theirs)

    def test_python_semaphore_raised_then_lowered(self):
        sema = python_semaphore()
        py = subprocess.Popen([PYTHON, "-c", "import time; time.sleep(30)"])
        try:
            time.sleep(0.3)
            self.assertEqual(read_u16(py.pid, sema), 0)
            d = subprocess.Popen([DTRACE, "-q", "-n", "python$target:::function-entry { }",
                                  "-n", "tick-200ms { printf(\"on\\n\"); }", "-p", str(py.pid)],
                                 stdout=subprocess.PIPE, text=True)
            self.assertEqual(d.stdout.readline(), "on\n")
            self.assertEqual(read_u16(py.pid, sema), 1)
            d.terminate()
            d.wait(30)
            self.assertEqual(d.returncode, 0)
            self.assertEqual(read_u16(py.pid, sema), 0)
        finally:
            py.kill()
            py.wait()

    def test_libstdcxx_probes_of_a_library_with_c(self):
        """-c runs the command to its entry point before enabling, so the
        probes of libraries it links (libstdc++) are there to match."""
        with tempfile.TemporaryDirectory() as tmp:
            src, exe = os.path.join(tmp, "thrower.cc"), os.path.join(tmp, "thrower")
            with open(src, "w") as f:
                f.write("#include <stdexcept>\n#include <cstdlib>\n"
                        "int main(int argc, char **argv) { int n = atoi(argv[1]), c = 0;\n"
                        "  for (int i = 0; i < n; i++)\n"
                        "    try { throw std::runtime_error(\"x\"); } catch (...) { c++; }\n"
                        "  return c == n ? 0 : 1; }\n")
            subprocess.run(["g++", "-O2", "-o", exe, src], check=True)
            p = dtrace(["-q", "-n", "libstdcxx$target:::throw { t++; } "
                        "libstdcxx$target:::catch { c++; } "
                        "END { printf(\"throw %d catch %d\\n\", t, c); }",
                        "-c", exe + " 37"])
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout.strip(), "throw 37 catch 37")
            # a command that never reaches its entry point (a library gone): why, no trace
            lib, exe2 = os.path.join(tmp, "libgone.so"), os.path.join(tmp, "needs_gone")
            with open(src, "w") as f:
                f.write("int gone(void) { return 0; }\n")
            subprocess.run(["cc", "-x", "c", "-shared", "-fPIC", "-o", lib, src], check=True)
            with open(src, "w") as f:
                f.write("int gone(void);\nint main(void) { return gone(); }\n")
            subprocess.run(["cc", "-x", "c", "-o", exe2, src, "-L" + tmp, "-lgone"], check=True)
            os.unlink(lib)
            p = dtrace(["-n", "BEGIN { trace(1); }", "-c", exe2])
            self.assertEqual(p.returncode, 1)
            self.assertIn("libgone.so", p.stderr)  # the dynamic linker's own words
            self.assertIn("dtrace: failed to execute %s: exited before its entry point "
                          "(status 127)\n" % exe2, p.stderr)
            self.assertEqual(p.stdout, "")

    def test_path_module_traces_processes_started_later(self):
        """A description whose module is a path enables the file's probes in
        every process: three python3.11 processes started after dtrace."""
        prog = ('BEGIN { printf("ready\\n"); } '
                'python:%s::function-entry { printf("pid %%d\\n", pid); }' % PYTHON)
        d = subprocess.Popen([DTRACE, "-q", "-n", prog], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        pids = []
        try:
            tracelib.wait_for_line(d, "ready", timeout=30)
            for _ in range(3):
                # importing enum resumes generators, which fire function__entry
                py = subprocess.Popen([PYTHON, "-c", "import enum"])
                py.wait(60)
                self.assertEqual(py.returncode, 0)
                pids.append(py.pid)
            d.send_signal(2)
            out, err = d.communicate(timeout=30)
        finally:
            if d.poll() is None:
                d.kill()
        self.assertEqual(d.returncode, 0, err)
        seen = set(int(l.split()[1]) for l in out.splitlines() if l.startswith("pid "))
        self.assertEqual(seen & set(pids), set(pids), out)
        # and dtrace -l lists the file's probes, as readelf names them
        p = dtrace(["-l", "-n", "python:%s::" % PYTHON])
        self.assertEqual(p.returncode, 0, p.stderr)
        names = sorted(set(l.split()[-1] for l in p.stdout.splitlines()[1:]))
        notes = subprocess.run(["readelf", "-n", PYTHON], stdout=subprocess.PIPE,
                               text=True).stdout
        want = sorted(set(n.replace("__", "-") for n in re.findall(r"\n\s+Name: (\S+)\n", notes)))
        self.assertIn("function-entry", want)
        self.assertEqual(names, want)

    def test_begin_exit_status_and_no_target(self):
        p = dtrace(["-n", "BEGIN { exit(7); }"])
        self.assertEqual(p.returncode, 7)
        self.assertIn("dtrace: description 'BEGIN ' matched 1 probe", p.stderr)
        p = dtrace(["-n", "nosuchprovider$target:::x", "-p", "999999999"])
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(p.stderr, "dtrace: failed to grab pid 999999999: No such process\n")

    def test_sse_register_operand_refused_when_enabled(self):
        """A <sys/sdt.h> operand in %xmm0 (gcc may put a value there; written
        here by hand with STAP_PROBE_ASM): BPF cannot read it at a uprobe,
        so tracing does not start when a clause reads that argument; the
        other arguments are read, and -e, which does not link, compiles."""
        src = (
            "#include <sys/sdt.h>\n"
            "int main(void)\n{\n\tdouble d = 2.5;\n"
            "\t__asm__ volatile(\"movsd %0, %%xmm0\\n\" "
            "STAP_PROBE_ASM(xm, val, 8f@%%xmm0 -4@$7) : : \"m\"(d) : \"xmm0\");\n"
            "\treturn 0;\n}\n")
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "xmm.c"), "w") as f:
                f.write(src)
            prog = os.path.join(tmp, "xmm")
            subprocess.run(["cc", "-std=gnu99", "-O2", "-o", prog, os.path.join(tmp, "xmm.c")],
                           check=True)
            notes = subprocess.run(["readelf", "-n", prog], stdout=subprocess.PIPE,
                                   text=True).stdout
            self.assertIn("Arguments: 8f@%xmm0 -4@$7", notes)
            decl = "provider xm { probe val(double, int); }; "
            p = dtrace(["-q", "-c", prog, "-n", decl + "xm$target:::val { printf(\"%f\\n\", "
                        "args[0]); }"])
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertRegex(
                p.stderr,
                r"^dtrace: could not enable tracing: USDT argument 0 of xm\d+:xmm:main:val: "
                r"is in an SSE register, which BPF cannot read at a uprobe \(the kernel saves "
                r"the general registers only\): %xmm0\n$")
            self.assertEqual(p.stdout, "")
            p = dtrace(["-q", "-c", prog, "-n", decl + "xm$target:::val { printf(\"%d\\n\", "
                        "args[1]); }"])
            # 7, then the newline dtrace(1) prints at the end
            self.assertEqual((p.returncode, p.stdout), (0, "7\n\n"), p.stderr)
            p = dtrace(["-e", "-c", prog, "-n", decl + "xm$target:::val { trace(arg0); }"])
            self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    unittest.main()
