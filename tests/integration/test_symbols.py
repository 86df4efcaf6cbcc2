"""Names of JIT code from /tmp/perf-PID.map, and C++ names without
libstdc++ (issue 18).

symbols/jit.c makes an anonymous executable page and names ranges of it
in /tmp/perf-PID.map, as V8 (--perf-basic-prof) and Python 3.12's perf
trampoline do.  ufunc(), uaddr() and umod() of addresses in it must give
the map's names, the module being the map file's name ("perf-PID.map", as
perf report shows such a frame's object); an address the map does not
name stays in hex.  The PID and the page's address change from run to
run, so this is a test here and not a golden.

libstdc++ is loaded by libdtrace only to demangle (dlopen): a dtrace that
cannot load it (hidden in a mount namespace) must still name a C++
function, by its mangled name, where one that can demangles it.

Containers: a program run from a path that exists only in its own mount
namespace is named (its file is read through /proc/PID/map_files), and
JIT code of a process in its own PID namespace is named from the map it
writes under its own PID there (perf-NSPID.map).

Environment: DTRACE (our dtrace).
"""
import os
import shutil
import subprocess
import tempfile
import unittest

import tracelib

DTRACE = os.environ.get("DTRACE", "dtrace")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "symbols")

SCRIPT = r"""
jit$target:::fn
{
	ufunc(arg0); printf("\n");
	uaddr(arg1); printf("\n");
	ufunc(arg2); printf("\n");
	uaddr(arg3); printf("\n");
	umod(arg4); printf("\n");
	@[ufunc(arg1)] = count();
	exit(0);
}
"""


TMP = None


def setUpModule():
    global TMP
    TMP = tempfile.mkdtemp(prefix="symbols-")
    for f in ("jit.c", "loop.cc"):
        shutil.copy(os.path.join(SRC, f), TMP)
    subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "jit.c", "-o", "jit"],
                   cwd=TMP, check=True)
    subprocess.run(["c++", "-O2", "-Wall", "-Wextra", "-Werror", "loop.cc", "-o", "loop"],
                   cwd=TMP, check=True)


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


class PerfMap(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def test_names(self):
        self.names("anon")

    def test_memfd(self):
        """The code in a memfd mapped twice: the mapping has a file, not ELF."""
        self.names("memfd")

    def names(self, mode):
        r = subprocess.run([DTRACE, "-q", "-c", "%s %s" % (os.path.join(TMP, "jit"), mode),
                            "-n", SCRIPT], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        first, rest = r.stdout.split("\n", 1)
        pid, page = first.split()
        page = int(page, 16)
        mod = "perf-%s.map" % pid
        want = [
            "%s`jit_one" % mod,
            "%s`LazyCompile:*fib bench.js:3+0x5" % mod,
            "%s`new_name" % mod,
            "0x%x" % (page + 0x200) if mode == "anon" else "memfd:jit`0x%x" % (page + 0x200),
            mod,
        ]
        lines = [ln.strip() for ln in rest.splitlines() if ln.strip()]
        self.assertEqual(lines[:5], want)
        # the key merged to the range's start: the name without offset, and its count
        self.assertEqual(lines[5].split(), ["%s`LazyCompile:*fib" % mod, "bench.js:3", "1"])
        # the child removes the map file once jit is gone
        for _ in range(50):
            if not os.path.exists("/tmp/%s" % mod):
                break
            subprocess.run(["sleep", "0.1"])
        self.assertFalse(os.path.exists("/tmp/%s" % mod))


class NoLibstdcxx(unittest.TestCase):
    SCRIPT = "pid$target::_ZN3geo3BoxIdE1cEd:entry { ufunc(uregs[36]); exit(0); }"

    def setUp(self):
        tracelib.require_tracing(self, tools=())
        if shutil.which("unshare") is None:
            self.skipTest("no unshare")
        self.lib = os.path.realpath("/usr/lib/x86_64-linux-gnu/libstdc++.so.6")
        self.loop = subprocess.Popen([os.path.join(TMP, "loop")])
        self.addCleanup(self.loop.wait)
        self.addCleanup(self.loop.kill)

    def trace(self, hide):
        cmd = [DTRACE, "-q", "-p", str(self.loop.pid), "-n", self.SCRIPT]
        if hide:  # /dev/null over libstdc++ for dtrace alone: dlopen fails
            cmd = ["unshare", "-m", "sh", "-c",
                   'mount --bind /dev/null "$0" && exec "$@"', self.lib] + cmd
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        return r.stdout.strip()

    def test_mangled_without(self):
        self.assertEqual(self.trace(False), "loop`geo::Box<double>::c(double)")
        self.assertEqual(self.trace(True), "loop`_ZN3geo3BoxIdE1cEd")


def ns_children(parent):
    """The processes whose parent is parent, by /proc (host PIDs)."""
    kids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            kids.append(int(d))
    return kids


class Namespaces(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())
        if shutil.which("unshare") is None:
            self.skipTest("no unshare")

    def start(self, cmd):
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        self.addCleanup(p.stdout.close)
        self.addCleanup(p.wait)
        self.addCleanup(p.kill)
        return p

    def trace(self, pid, script):
        r = subprocess.run([DTRACE, "-q", "-p", str(pid), "-n", script],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        return r.stdout

    def test_mount_namespace(self):
        empty = os.path.join(TMP, "empty")
        os.makedirs(empty, exist_ok=True)
        # TMP over TMP/empty in a mount namespace: TMP/empty/loop is not there for us
        p = self.start(["unshare", "-m", "--propagation", "private", "sh", "-c",
                        'mount --bind "$0" "$1" && exec "$1/loop"', TMP, empty])
        for _ in range(100):
            if os.path.exists("/proc/%d/exe" % p.pid) and \
                    os.readlink("/proc/%d/exe" % p.pid).endswith("/empty/loop"):
                break
            subprocess.run(["sleep", "0.05"])
        self.assertFalse(os.path.exists(os.path.join(empty, "loop")))
        out = self.trace(p.pid, "syscall::write:entry /pid == $target && (int)arg0 == -1/ "
                         "{ ufunc(arg1); umod(arg1); exit(0); }")
        self.assertEqual(out.split(), ["loop`geo::Box<double>::c(double)", "loop"])

    def test_pid_namespace(self):
        # sh is the namespace's init, jit its child: PID 2 or so there; killing
        # unshare kills sh (--kill-child), and so the namespace and jit
        p = self.start(["unshare", "-p", "-f", "--kill-child", "sh", "-c", '"$0" loop; true',
                        os.path.join(TMP, "jit")])
        nspid, page = p.stdout.readline().split()
        self.addCleanup(lambda: os.path.exists("/tmp/perf-%s.map" % nspid)
                        and os.unlink("/tmp/perf-%s.map" % nspid))
        sh = ns_children(p.pid)
        self.assertEqual(len(sh), 1)
        jit = ns_children(sh[0])
        self.assertEqual(len(jit), 1)
        self.assertNotEqual(str(jit[0]), nspid)
        out = self.trace(jit[0], "syscall::write:entry /pid == $target && (int)arg0 == -1/ "
                         "{ ufunc(arg1); umod(arg1); exit(0); }")
        self.assertEqual(out.split(), ["perf-%s.map`jit_one" % nspid, "perf-%s.map" % nspid])


if __name__ == "__main__":
    unittest.main()
