"""dtrace -l: the probes a consumer can enable, printed as dtrace(1) does.

The USDT probes of running processes are checked against readelf -n (the
independent oracle) for python3.11's notes and a libusdt runtime provider.
Listing needs no privileges: these tests never skip.

Environment: DTRACE_BIN (our dtrace), USDT_APP (tests/integration/usdt/usdt_app).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

DTRACE = os.environ.get("DTRACE_BIN", "dtrace")
USDT_APP = os.environ.get("USDT_APP", "usdt_app")
PYTHON = "/usr/bin/python3.11"
HEADER = "   ID   PROVIDER            MODULE                          FUNCTION NAME"


def dtrace(*args):
    return subprocess.run([DTRACE] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=60)


def fields(line):
    """Split a listed probe on whitespace: wide names push columns right."""
    parts = line.split()
    return parts


def readelf_names(path):
    """Probe names readelf -n reports for a file, in D spelling."""
    out = tracelib.run(["readelf", "-n", path]).stdout
    return sorted({n.replace("__", "-") for n in re.findall(r"^\s+Name: (\S+)$", out, re.M)})


class FixedProbes(unittest.TestCase):
    def test_begin(self):
        r = dtrace("-l", "-n", "BEGIN")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines(), [
            HEADER,
            "    1     dtrace                                                     BEGIN"])

    def test_every_probe_starts_with_dtrace_and_profile(self):
        r = dtrace("-l")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], HEADER)
        got = [tuple(fields(l)) for l in lines[1:17]]
        want = [("1", "dtrace", "BEGIN"), ("2", "dtrace", "END"), ("3", "dtrace", "ERROR")]
        n = 4
        for r_ in ("97", "199", "499", "997", "1999", "4001", "4999"):
            want.append((str(n), "profile", "profile-" + r_))
            n += 1
        for r_ in ("1", "10", "100", "500", "1000", "5000"):
            want.append((str(n), "profile", "tick-" + r_))
            n += 1
        self.assertEqual(got, want)
        ids = [int(l.split()[0]) for l in lines[1:]]
        self.assertEqual(ids, list(range(1, len(ids) + 1)))

    def test_globs_and_several_descriptions(self):
        r = dtrace("-l", "-n", "dtrace:::E*", "-n", "profile:::tick-1?0")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([fields(l)[-1] for l in r.stdout.splitlines()[1:]],
                         ["END", "ERROR", "tick-100"])

    def test_no_match(self):
        r = dtrace("-l", "-n", "nosuch:::", "-n", "BEGIN")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "dtrace: failed to match nosuch:::: "
                                   "No probe matches description\n")
        self.assertIn("BEGIN", r.stdout)  # the other description still lists

    def test_bad_descriptions(self):
        r = dtrace("-l", "-n", "a:b:c:d:e")
        self.assertEqual(r.returncode, 1)
        self.assertIn('invalid probe description "a:b:c:d:e": more than four fields',
                      r.stderr)
        r = dtrace("-l", "-P", "x" * 70)
        self.assertEqual(r.returncode, 1)
        self.assertIn("probe description field too long", r.stderr)
        with tempfile.NamedTemporaryFile("w", suffix=".d") as f:
            f.write("BEGIN {}\n")
            f.flush()
            r = dtrace("-l", "-s", f.name)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not available yet", r.stderr)


class FbtProbes(unittest.TestCase):
    """fbt: listed only when a description names it, or one line saying why not."""

    def test_bare_list_has_no_fbt(self):
        r = dtrace("-l")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        self.assertNotIn("fbt", [fields(l)[1] for l in r.stdout.splitlines()[1:]])

    def test_named(self):
        r = dtrace("-l", "-P", "fbt")
        if r.returncode == 0:
            # fentry loads here: every BTF function, entry and return
            probes = [fields(l) for l in r.stdout.splitlines()[1:]]
            self.assertGreater(len(probes), 10000)
            self.assertIn(["vmlinux", "vfs_read", "entry"], [p[2:] for p in probes])
            self.assertTrue(all(p[1] == "fbt" for p in probes))
            return
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, HEADER + "\n")
        lines = r.stderr.splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertRegex(lines[0], r"^dtrace: fbt: kernel functions cannot be traced: "
                                   r"\S.* failed: \S.*$")
        # the same reason when a program enables one
        e = dtrace("-n", "fbt::vfs_read:entry")
        self.assertEqual(e.returncode, 1)
        self.assertEqual(e.stderr, "dtrace: invalid probe specifier fbt::vfs_read:entry: "
                         + lines[0][len("dtrace: "):] + "\n")


class UsdtProbes(unittest.TestCase):
    def setUp(self):
        self.procs = []

    def tearDown(self):
        for p in self.procs:
            p.kill()
            p.communicate()

    def start(self, argv, env=None):
        p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, env=env)
        self.procs.append(p)
        return p

    def listed(self, *args):
        r = dtrace("-l", *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        return [fields(l) for l in r.stdout.splitlines()[1:]]

    def test_python_probes_by_provider(self):
        p = self.start([PYTHON, "-c", "import sys; print('up', flush=True); sys.stdin.read()"])
        self.assertEqual(p.stdout.readline(), "up\n")
        rows = self.listed("-P", "python%d" % p.pid)
        self.assertEqual(sorted(r[-1] for r in rows), readelf_names(PYTHON))
        for r in rows:  # stripped: no symbol holds the sites, so no function
            self.assertEqual(r[1:3], ["python%d" % p.pid, "python3.11"])
        # the same probes by glob on provider and name
        rows2 = self.listed("-n", "python*:python3.11::function-entry")
        self.assertIn(["python%d" % p.pid, "python3.11", "function-entry"],
                      [r[1:] for r in rows2])

    def test_libusdt_module_and_function(self):
        with tempfile.TemporaryDirectory() as rundir:
            env = dict(os.environ, USDT_RUNTIME_DIR=rundir)
            p = self.start([USDT_APP, "watch", "30"], env=env)
            path = p.stdout.readline().split()[1]
            self.assertEqual(p.stdout.readline(), "enabled 0\n")
            rows = self.listed("-n", "rtp%d:::" % p.pid)
            self.assertEqual(sorted(r[-1] for r in rows), readelf_names(path))
            for r in rows:  # the module and function the program declared
                self.assertEqual(r[1:4], ["rtp%d" % p.pid, "usdtapp", "main"])
            # -m and -f are two descriptions: each lists our probes (other
            # usdtapp processes may run: count ours)
            ours = [r for r in self.listed("-m", "usdtapp", "-f", "main")
                    if r[1] == "rtp%d" % p.pid]
            self.assertEqual(len(ours), 2 * len(rows))

    def test_target_of_c_and_p(self):
        # $target with -c: the command's probes, and the command does not run on
        with tempfile.TemporaryDirectory() as tmp:
            ran = os.path.join(tmp, "ran")
            py = self.listed("-n", "python$target:::function-entry", "-c",
                             "%s -c 'open(\"%s\", \"w\")'" % (PYTHON, ran))
            self.assertFalse(os.path.exists(ran), "the -c command ran")
        self.assertEqual(len(py), 1, py)
        self.assertRegex(py[0][1], r"^python\d+$")
        self.assertEqual(py[0][2:], ["python3.11", "function-entry"])
        self.assertFalse(os.path.exists("/proc/%s" % py[0][1][len("python"):]))
        # $target with -p: the process's probes, and it goes on afterwards
        p = self.start([PYTHON, "-c", "import sys; print('up', flush=True); "
                        "print(sys.stdin.readline().strip(), flush=True)"])
        self.assertEqual(p.stdout.readline(), "up\n")
        rows = self.listed("-P", "python$target", "-p", str(p.pid))
        self.assertEqual(sorted(r[-1] for r in rows), readelf_names(PYTHON))
        self.assertEqual({r[1] for r in rows}, {"python%d" % p.pid})
        p.stdin.write("still here\n")
        p.stdin.flush()
        self.assertEqual(p.stdout.readline(), "still here\n")


class SyscallProbes(unittest.TestCase):
    """syscall::NAME:entry and :return for each call tracefs shows (as root)."""

    EVENTS = "/sys/kernel/tracing/events/syscalls"
    # tracefs names events by the kernel function (dt_prov_syscall.c)
    RENAMED = {"newstat": "stat", "newfstat": "fstat", "newlstat": "lstat",
               "newuname": "uname", "sendfile64": "sendfile", "umount": "umount2"}

    def calls(self):
        if not os.access(self.EVENTS, os.R_OK):
            self.skipTest("tracefs is not readable here")
        return sorted(self.RENAMED.get(e[len("sys_enter_"):], e[len("sys_enter_"):])
                      for e in os.listdir(self.EVENTS) if e.startswith("sys_enter_"))

    def test_two_probes_per_call(self):
        calls = self.calls()
        r = dtrace("-l", "-P", "syscall")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], HEADER)
        self.assertEqual(len(lines) - 1, 2 * len(calls))
        listed = sorted({fields(line)[2] for line in lines[1:]})
        self.assertEqual(listed, calls)
        for line in lines[1:]:
            f = fields(line)  # no module: ID, provider, function, name
            self.assertEqual(len(f), 4, line)
            self.assertEqual(f[1], "syscall")
            self.assertIn(f[3], ("entry", "return"))

    def test_renamed_and_missing(self):
        self.calls()
        r = dtrace("-l", "-n", "syscall::fstat:entry", "-n", "syscall::umount2:return")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([fields(x)[2:] for x in r.stdout.splitlines()[1:]],
                         [["fstat", "entry"], ["umount2", "return"]])
        # in the table, but not a call of this kernel (no event): not listed
        r = dtrace("-l", "-n", "syscall::afs_syscall:entry")
        self.assertEqual(r.returncode, 1)

    def test_events_read_once(self):
        """The events directory is read, not probed call by call (~360 access())."""
        calls = self.calls()
        if shutil.which("strace") is None:
            self.skipTest("no strace")
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "strace")
            r = subprocess.run(["strace", "-f", "-qq", "-o", log, "-e",
                                "trace=access,faccessat,faccessat2,stat,newfstatat,statx,"
                                "openat,open", DTRACE, "-l", "-P", "syscall"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=60, env=tracelib.untraced_env())
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(len(r.stdout.splitlines()) - 1, 2 * len(calls))
            with open(log) as f:
                per_event = [line for line in f if self.EVENTS + "/sys_enter_" in line]
        self.assertEqual(per_event, [])


class ProcProbes(unittest.TestCase):
    """proc:vmlinux::NAME: the Guide's twelve probes, module the kernel's, no function."""

    NAMES = ["exec", "exec-failure", "exec-success", "lwp-create", "create", "start",
             "lwp-start", "lwp-exit", "exit", "signal-send", "signal-handle", "signal-clear"]

    def test_listed(self):
        r = dtrace("-l", "-P", "proc")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], HEADER)
        self.assertEqual([fields(x)[1:] for x in lines[1:]],
                         [["proc", "vmlinux", n] for n in self.NAMES])
        r = dtrace("-l", "-n", "proc:vmlinux::exit", "-n", "proc:::lwp-*")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([fields(x)[3] for x in r.stdout.splitlines()[1:]],
                         ["exit", "lwp-create", "lwp-start", "lwp-exit"])
        r = dtrace("-l", "-n", "proc:::signal-discard")
        self.assertEqual(r.returncode, 1)


class SchedProbes(unittest.TestCase):
    """sched:vmlinux::NAME: the Guide's probes this kernel gives, with illumos' argument types."""

    NAMES = ["preempt", "sleep", "enqueue", "dequeue", "off-cpu", "on-cpu", "remain-cpu",
             "wakeup", "change-pri", "surrender", "tick"]

    def test_listed(self):
        r = dtrace("-l", "-P", "sched")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], HEADER)
        self.assertEqual([fields(x)[1:] for x in lines[1:]],
                         [["sched", "vmlinux", n] for n in self.NAMES])
        # illumos' schedctl-* (Solaris preemption control) have no source here
        for gone in ("schedctl-yield", "schedctl-preempt", "schedctl-nopreempt"):
            self.assertEqual(dtrace("-l", "-n", "sched:::" + gone).returncode, 1, gone)

    def types(self, name):
        r = dtrace("-l", "-v", "-n", "sched:::" + name)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout
        # stab_attr (sdt_subr.c): the arguments are Evolving/Evolving/ISA
        self.assertIn("\tArgument Attributes\n\t\tIdentifier Names: Evolving\n"
                      "\t\tData Semantics:   Evolving\n\t\tDependency Class: ISA\n", out)
        return re.findall(r"^\t\t(args\[\d\]: .*|None)$", out, re.M)

    def test_argument_types(self):
        thread = ["args[0]: lwpsinfo_t *", "args[1]: psinfo_t *"]
        self.assertEqual(self.types("enqueue"), thread + ["args[2]: cpuinfo_t *", "args[3]: int"])
        self.assertEqual(self.types("dequeue"), thread + ["args[2]: cpuinfo_t *"])
        self.assertEqual(self.types("change-pri"), thread + ["args[2]: pri_t"])
        for name in ("off-cpu", "wakeup", "surrender", "tick"):
            self.assertEqual(self.types(name), thread, name)
        for name in ("on-cpu", "remain-cpu", "sleep", "preempt"):
            self.assertEqual(self.types(name), ["None"], name)



class IoProbes(unittest.TestCase):
    """io:vmlinux::NAME: the Guide's four probes, with illumos' argument types."""

    NAMES = ["start", "done", "wait-start", "wait-done"]

    def test_listed(self):
        r = dtrace("-l", "-P", "io")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], HEADER)
        self.assertEqual([fields(x)[1:] for x in lines[1:]],
                         [["io", "vmlinux", n] for n in self.NAMES])

    def test_verbose(self):
        """-v: sdt's stability (illumos' stab_attr) and the translated types."""
        r = dtrace("-l", "-v", "-n", "io:::wait-done")
        self.assertEqual(r.returncode, 0, r.stderr)
        text = r.stdout
        self.assertIn("\tProbe Description Attributes\n"
                      "\t\tIdentifier Names: Private\n"
                      "\t\tData Semantics:   Private\n"
                      "\t\tDependency Class: Unknown\n", text)
        self.assertIn("\tArgument Attributes\n"
                      "\t\tIdentifier Names: Evolving\n"
                      "\t\tData Semantics:   Evolving\n"
                      "\t\tDependency Class: ISA\n", text)
        self.assertIn("\tArgument Types\n"
                      "\t\targs[0]: bufinfo_t *\n"
                      "\t\targs[1]: devinfo_t *\n"
                      "\t\targs[2]: fileinfo_t *\n", text)


if __name__ == "__main__":
    unittest.main()
