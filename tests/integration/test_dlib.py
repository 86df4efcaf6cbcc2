"""The D library directory (-L, -xlibdir, DTRACE_LIBDIR, -xnolibs) and
kernel types from BTF, against bpftool's reading of the same BTF.

Compiling (dtrace -e) needs no privileges; the cases that trace need root
and skip without it.

Environment: DTRACE_BIN (our dtrace).
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
VMLINUX = "/sys/kernel/btf/vmlinux"


def dtrace(*args, env=None):
    e = dict(os.environ)
    e.pop("DTRACE_LIBDIR", None)
    if env:
        e.update(env)
    return subprocess.run([DTRACE] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=60, env=e)


def begin(expr, *args, env=None):
    """The value of a D expression printed at BEGIN (traced: needs root)."""
    r = dtrace("-q", *args, "-n", 'BEGIN { printf("%%d\\n", %s); exit(0); }' % expr, env=env)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return int(r.stdout.strip())


def bpftool_struct(name):
    """(size, {member: bit offset}) of a struct, as bpftool dumps the BTF."""
    out = subprocess.run(["bpftool", "btf", "dump", "file", VMLINUX], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    m = re.search(r"^\[\d+\] STRUCT '%s' size=(\d+) vlen=(\d+)\n((?:\s+'.*\n)*)" % name, out,
                  re.M)
    members = {mm.group(1): int(mm.group(2))
               for mm in re.finditer(r"'(\w*)' type_id=\d+ bits_offset=(\d+)", m.group(3))}
    return int(m.group(1)), members


class Libdir(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="dlib.")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def lib(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def test_L_and_xlibdir(self):
        self.lib("mine.d", "inline int MINE = 42;\n")
        for how in (["-L", self.dir], ["-x", "libdir=" + self.dir]):
            r = dtrace("-e", *how, "-n", "BEGIN { x = MINE; }")
            self.assertEqual(r.returncode, 0, r.stderr)
        r = dtrace("-e", "-n", "BEGIN { x = MINE; }")
        self.assertEqual(r.returncode, 1)
        self.assertIn("failed to resolve MINE", r.stderr)

    def test_env_replaces_default(self):
        self.lib("mine.d", "inline int MINE = 42;\n")
        r = dtrace("-e", "-n", "BEGIN { x = MINE; y = curpsinfo->pr_pid; }",
                   env={"DTRACE_LIBDIR": self.dir})
        # procfs.d is not read: curpsinfo is the built-in one
        self.assertEqual(r.returncode, 0, r.stderr)
        r = dtrace("-e", "-n", "BEGIN { y = curpsinfo->pr_addr; }",
                   env={"DTRACE_LIBDIR": self.dir})
        self.assertIn("pr_addr is not a member of struct psinfo", r.stderr)

    def test_nolibs_keeps_builtins(self):
        r = dtrace("-e", "-xnolibs", "-n", "BEGIN { y = curpsinfo->pr_addr; }")
        self.assertEqual(r.returncode, 1)
        self.assertIn("pr_addr is not a member of struct psinfo", r.stderr)
        r = dtrace("-e", "-n", "BEGIN { y = curpsinfo->pr_addr; }")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = dtrace("-e", "-xnolibs", "-L", self.dir, "-n", "BEGIN { y = SRUN; }")
        self.assertIn("failed to resolve SRUN", r.stderr)

    def test_error_names_file_and_line(self):
        self.lib("bad.d", "inline int A = 1;\n\ninline int B = nosuch + 1;\n")
        # a program that names nothing the library declares does not read it
        # (procfs.d's translators would read the kernel's BTF: 40 ms, 18 MB)
        r = dtrace("-e", "-L", self.dir, "-n", "BEGIN { }")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = dtrace("-e", "-L", self.dir, "-n", "BEGIN { x = A; }")
        self.assertEqual(r.returncode, 1)
        path = os.path.join(self.dir, "bad.d")
        self.assertIn('"%s", line 3: failed to resolve nosuch' % path, r.stderr)
        self.assertIn("at %s:3:" % path, r.stderr)
        self.assertIn("inline int B = nosuch + 1;", r.stderr)

    def test_clause_refused(self):
        self.lib("clause.d", "inline int C = 1;\nBEGIN { }\n")
        r = dtrace("-e", "-L", self.dir, "-n", "BEGIN { x = C; }")
        self.assertEqual(r.returncode, 1)
        self.assertIn("probe clauses are not allowed in a library", r.stderr)

    def test_missing_kernel_type_skipped(self):
        self.lib("nokernel.d", "inline int N = sizeof (struct dt_no_such_kernel_struct_x);\n"
                 "inline int K = ((struct dt_no_such_kernel_struct_x *)0)->m;\n")
        self.lib("other.d", "inline int OTHER = 7;\n")
        # a member this kernel's struct does not have: written for another kernel
        self.lib("member.d", "inline int M = curthread->dt_no_such_member;\n")
        r = dtrace("-e", "-L", self.dir, "-n", "BEGIN { x = OTHER; }")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        # a file is compiled only for a program that names what it declares
        r = dtrace("-e", "-xdebug", "-L", self.dir, "-n", "BEGIN { x = OTHER; }")
        self.assertNotIn("skipping library", r.stderr)
        for name, f in (("K", "nokernel.d"), ("M", "member.d")):
            r = dtrace("-e", "-xdebug", "-L", self.dir, "-n", "BEGIN { x = %s; }" % name)
            self.assertIn("skipping library %s" % os.path.join(self.dir, f), r.stderr)
            self.assertIn("failed to resolve %s" % name, r.stderr)

    def test_depends_on(self):
        # a.d needs b.d's inline: b.d is read first although a.d sorts first
        self.lib("a.d", "#pragma D depends_on library b.d\ninline int A = B + 1;\n")
        self.lib("b.d", "inline int B = 1;\n")
        self.lib("c.d", "#pragma D depends_on library none.d\ninline int C = 1;\n")
        self.lib("p.d", "#pragma D depends_on provider no_such_provider\ninline int P = 1;\n")
        self.lib("q.d", '#pragma D binding "1.0" Q\n#pragma D attributes Evolving/Evolving/Common Q\n'
                 "inline int Q = 3;\n")
        r = dtrace("-e", "-L", self.dir, "-n", "BEGIN { x = A + Q; }")
        self.assertEqual(r.returncode, 0, r.stderr)
        for name in ("C", "P"):
            r = dtrace("-e", "-L", self.dir, "-n", "BEGIN { x = %s; }" % name)
            self.assertIn("failed to resolve %s" % name, r.stderr)
        r = dtrace("-e", "-n", "#pragma D depends_on library b.d\nBEGIN { }")
        self.assertIn("main program may not explicitly depend on a library", r.stderr)

    def test_earlier_dir_hides_later(self):
        # a procfs.d of -L hides the default one: its curpsinfo
        self.lib("procfs.d", "inline int PROCFS_MINE = 1;\n")
        r = dtrace("-e", "-L", self.dir, "-n", "BEGIN { x = PROCFS_MINE; y = curpsinfo->pr_pid; }")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = dtrace("-e", "-L", self.dir, "-n", "BEGIN { y = SRUN; }")
        self.assertIn("failed to resolve SRUN", r.stderr)


@unittest.skipUnless(os.path.exists(VMLINUX) and shutil.which("bpftool"), "no BTF or bpftool")
class KernelTypes(unittest.TestCase):
    def test_struct_sizes_and_offsets(self):
        if os.geteuid() != 0:
            self.skipTest("tracing needs root")
        for name, members in (("task_struct", ("pid", "tgid", "comm", "real_parent")),
                              ("mm_struct", ()), ("file", ())):
            size, offs = bpftool_struct(name)
            self.assertEqual(begin("sizeof (struct %s)" % name), size, name)
            for m in members:
                self.assertEqual(begin("offsetof(struct %s, %s)" % (name, m)), offs[m] // 8, m)

    def test_curthread_is_task_struct(self):
        r = dtrace("-e", "-n", "BEGIN { x = curthread->pid; y = stringof(curthread->comm); }")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = dtrace("-e", "-n", "BEGIN { x = curthread->pid.nosuch; }")
        self.assertEqual(r.returncode, 1)
        self.assertIn("must be applied to a struct or union", r.stderr)


class BtfOnlyWhenNeeded(unittest.TestCase):
    """The kernel's BTF (~20 ms, ~15 MB) is read for a kernel type or
    enumerator only: a global assigned before it is read (n++, n = 1) is D's
    own and never looked for among the kernel's enumerators."""

    def reads_btf(self, prog, status=0):
        if os.geteuid() != 0:
            self.skipTest("tracing needs root")
        if shutil.which("strace") is None:
            self.skipTest("no strace")
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "strace")
            r = subprocess.run(["strace", "-f", "-qq", "-o", log, "-e", "trace=open,openat",
                                DTRACE, "-q", "-n", prog], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, timeout=60,
                               env=tracelib.untraced_env())
            self.assertEqual(r.returncode, status, r.stderr)
            with open(log) as f:
                return r, any(VMLINUX in line for line in f)

    def test_assigned_globals(self):
        for prog in ("BEGIN { n++; exit(0); }",
                     "BEGIN { n = 1; m = n + 1; trace(m); exit(0); }",
                     "BEGIN { n = 0; n += 2; self->x++; this->y = n; @a[n] = count(); exit(0); }",
                     "BEGIN { a[1] = 2; trace(a[1]); exit(0); }"):
            self.assertFalse(self.reads_btf(prog)[1], prog)

    def test_library_file_alone(self):
        # errno.d's ENOENT compiles errno.d, not procfs.d, whose translators
        # read the kernel's types; curpsinfo compiles procfs.d, which does
        r, read = self.reads_btf('BEGIN { printf("%d %d\\n", ENOENT, SIGUSR1); exit(0); }')
        self.assertFalse(read)
        self.assertEqual(r.stdout.split(), ["2", "10"])
        r, read = self.reads_btf('BEGIN { printf("%d\\n", curpsinfo->pr_pid); exit(0); }')
        self.assertTrue(read)

    def test_enumerator_and_undefined(self):
        # the same check sees the reads it must not make elsewhere
        r, read = self.reads_btf('BEGIN { printf("%d\\n", PIDTYPE_PGID); exit(0); }')
        self.assertTrue(read)
        self.assertRegex(r.stdout, r"^\d+\n$")
        # an undeclared rvalue may be an enumerator: BTF, then D_IDENT_UNDEF
        r, read = self.reads_btf("BEGIN { x = nosuchvariable + 1; }", status=1)
        self.assertTrue(read)
        self.assertIn("failed to resolve nosuchvariable", r.stderr)


if __name__ == "__main__":
    unittest.main()
