"""stack(), stackdepth, sym(), func(), mod(), and the unwind tables of
processes dtrace did not start (issue 18).

Kernel frames and addresses change with the kernel, so these are tests
and not goldens: they check the names against /proc/kallsyms.

- stack() at syscall::getppid:entry holds the system call's path
  (vmlinux`do_syscall_64+0x..., entry_SYSCALL_64...), as many frames as
  stackdepth says, each named by the kallsyms function that holds it.
- func(), sym() and mod() of a kernel address name its function and
  "vmlinux"; @[func(a)] and @[func(a + 1)] are one key (normalized to
  the function's start).
- stack() at a uprobe has no frames (the probe fired in user mode).
- A process that exits before the print keeps its names.
- A process running before dtrace starts has no unwind tables: its first
  user stacks are walked by frame pointers (one frame, in libc's
  getppid, for a program built -fomit-frame-pointer) until the walker's
  request is served; then they reach main.  dtrace reports exactly how
  many stacks were walked without tables.

Environment: DTRACE (our dtrace).
"""
import bisect
import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest

import tracelib

DTRACE = os.environ.get("DTRACE", "dtrace")
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stacks")


def kallsyms():
    """The text symbols of /proc/kallsyms, sorted: ([addresses], [names])."""
    syms = []
    with open("/proc/kallsyms") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[1] in "tTwW" and int(parts[0], 16) != 0:
                syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


class KernelStacks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="stacks-")
        shutil.copy(os.path.join(SRC, "loop.c"), cls.tmp)
        subprocess.run(["cc", "-O2", "-fomit-frame-pointer", "-Wall", "-Wextra", "-Werror",
                        "loop.c", "-o", "loop"], cwd=cls.tmp, check=True)
        cls.loop = os.path.join(cls.tmp, "loop")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def dtrace(self, *args, timeout=60):
        r = subprocess.run([DTRACE] + list(args), capture_output=True, text=True,
                           timeout=timeout)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r

    def test_stack_at_syscall(self):
        r = self.dtrace("-q", "-c", self.loop + " 1", "-n",
                        "syscall::getppid:entry /pid == $target/ "
                        "{ printf(\"depth %d\", stackdepth); stack(); exit(0); }")
        self.assertEqual(r.stderr, "")
        head, body = r.stdout.split("\n", 1)
        depth = int(head.split()[1])
        frames = [l for l in body.split("\n") if l.strip()]
        self.assertEqual(len(frames), depth, r.stdout)
        self.assertGreaterEqual(depth, 3, r.stdout)
        for l in frames:  # illumos's stackindent: 14 spaces
            self.assertRegex(l, r"^ {14}\S+$")
        names = [l.strip() for l in frames]
        self.assertTrue(any(re.fullmatch(r"vmlinux`do_syscall_64\+0x[0-9a-f]+", n)
                            for n in names), names)
        self.assertTrue(names[-1].startswith("vmlinux`entry_SYSCALL_64"), names)
        addrs, syms = kallsyms()
        for n in names:
            if re.fullmatch(r"0x[0-9a-f]+", n):  # BPF machinery kallsyms may not list
                self.assertGreaterEqual(int(n, 16), 0xffffffffc0000000, names)
                continue
            m = re.fullmatch(r"(\w+)`([\w.]+)(\+0x[0-9a-f]+)?", n)
            self.assertIsNotNone(m, n)
            if m.group(1) == "vmlinux":
                self.assertIn(m.group(2), syms, n)

    def test_func_sym_mod(self):
        addrs, syms = kallsyms()
        a = addrs[syms.index("do_syscall_64")]
        r = self.dtrace("-q", "-n",
                        "BEGIN { func(%d); printf(\"|\"); sym(%d); printf(\"|\"); mod(%d); "
                        "printf(\"|\\n\"); @[func(%d)] = count(); @[func(%d)] = count(); "
                        "exit(0); }" % (a + 5, a, a + 1, a, a + 7))
        self.assertEqual(r.stderr, "")
        first, rest = r.stdout.split("\n", 1)
        self.assertEqual([f.strip() for f in first.split("|")[:3]],
                         ["vmlinux`do_syscall_64", "vmlinux`do_syscall_64", "vmlinux"])
        keys = [l.split() for l in rest.split("\n") if l.strip()]
        self.assertEqual(keys, [["vmlinux`do_syscall_64", "2"]])

    def test_stack_at_uprobe_is_empty(self):
        r = self.dtrace("-q", "-c", self.loop + " 1", "-n",
                        "pid$target:loop:f:entry { printf(\"[%d]\", stackdepth); stack(); }")
        # no frame: stack()'s leading newline, then dtrace's last
        self.assertEqual(r.stdout, "[0]\n\n")

    def test_tables_for_a_running_process(self):
        app = subprocess.Popen([self.loop, "150"])
        try:
            time.sleep(0.2)
            r = self.dtrace("-q", "-n",
                            "syscall::getppid:entry /pid == %d/ { @[ustack()] = count(); } "
                            "tick-1500ms { exit(0); }" % app.pid)
        finally:
            app.kill()
            app.wait()
        entries = [e for e in r.stdout.split("\n\n") if e.strip()]
        fponly = whole = 0
        for e in entries:
            lines = [l.strip() for l in e.split("\n") if l.strip()]
            count = int(lines[-1])
            frames = lines[:-1]
            if len(frames) == 1:
                self.assertTrue(frames[0].startswith("libc.so.6`"), frames)
                fponly += count
            else:
                self.assertEqual([f.split("+")[0] for f in frames[:4]],
                                 ["libc.so.6`getppid", "loop`f", "loop`g", "loop`main"], e)
                whole += count
        self.assertGreater(whole, 0, r.stdout)
        # each stack walked without tables is counted, and only those
        m = re.search(r"dtrace: (\d+) user stacks? (?:was|were) unwound by frame pointers only",
                      r.stderr)
        if fponly == 0:
            self.assertIsNone(m, r.stderr)
        else:
            self.assertIsNotNone(m, r.stderr)
            self.assertEqual(int(m.group(1)), fponly, r.stdout + r.stderr)

    def test_names_after_exit(self):
        """A process that exits before the aggregation is printed keeps
        the names of its frames (its mappings were read with its tables)."""
        # it runs 3 s: dtrace starts well before it ends (even on a loaded
        # machine, or built with sanitizers), prints at 5 s, after it ended
        app = subprocess.Popen([self.loop, "150"])
        try:
            time.sleep(0.1)
            r = self.dtrace("-q", "-n",
                            "syscall::getppid:entry /pid == %d/ { @[ustack()] = count(); } "
                            "tick-5s { exit(0); }" % app.pid)
            self.assertIsNotNone(app.poll(), "the process ended before the print")
        finally:
            app.kill()
            app.wait()
        self.assertIn("loop`main+0x", r.stdout)
        self.assertIn("libc.so.6`__libc_start_main+0x", r.stdout)
        self.assertNotRegex(r.stdout, r"\n +0x[0-9a-f]+\n", r.stdout)


if __name__ == "__main__":
    unittest.main()
