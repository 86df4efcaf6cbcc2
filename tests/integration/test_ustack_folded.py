"""-x oformat=folded read back as a flame graph tool reads it: each line
"frame;frame;...;frame COUNT", root first, on tests/d/ustack's chain (built
-O2 -fomit-frame-pointer), whose stacks the test knows: c is called 3N
times through main -> a -> b and N times through main -> a2.

Environment: DTRACE (our dtrace), SOURCE_DIR.
"""
import os
import re
import subprocess
import tempfile
import unittest

import tracelib

DTRACE = os.environ.get("DTRACE", "dtrace")
SOURCE = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CHAIN_C = os.path.join(SOURCE, "tests", "d", "ustack", "chain.c")

# the frames from _start to main, as dtrace names them (libc has a debug file)
ROOT = ["chain`_start", "libc.so.6`__libc_start_main", "libc.so.6`__libc_start_call_main",
        "chain`main"]


def parse(text):
    """{tuple of frames, root first: count}, as flamegraph.pl reads a line
    (the count after the last space); a repeated stack is an error."""
    stacks = {}
    for line in text.splitlines():
        m = re.fullmatch(r"(.+) (\d+)", line)
        if m is None:
            raise AssertionError("not a folded line: %r" % line)
        frames = tuple(m.group(1).split(";"))
        if frames in stacks:
            raise AssertionError("stack printed twice: %r" % line)
        stacks[frames] = int(m.group(2))
    return stacks


class Folded(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.chain = os.path.join(cls.tmp.name, "chain")
        subprocess.run(["cc", "-O2", "-fomit-frame-pointer", "-o", cls.chain, CHAIN_C],
                       check=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def folded(self, prog, n, mode=""):
        """dtrace -x oformat=folded ... -o FILE: the file's text."""
        out = os.path.join(self.tmp.name, "out.folded")
        p = subprocess.run([DTRACE, "-x", "oformat=folded", "-n", prog, "-o", out,
                            "-c", ("%s %d %s" % (self.chain, n, mode)).strip()],
                           stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=120,
                           cwd=self.tmp.name)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            return f.read()

    def test_two_stacks_root_first(self):
        n = 50
        text = self.folded("pid$target:a.out:c:entry { @[ustack()] = count(); }", n)
        stacks = parse(text)
        self.assertEqual(stacks, {tuple(ROOT + ["chain`a", "chain`b", "chain`c"]): 3 * n,
                                  tuple(ROOT + ["chain`a2", "chain`c"]): n}, text)

    def test_keys_first_offsets_merged(self):
        # the keys that are not stacks first (execname, probename), then
        # the stack's frames; c's frame is "chain`c" at its entry and at
        # +7 alike (no offsets), the probe names keep the two apart
        n = 20
        text = self.folded("pid$target:a.out:c:entry, pid$target:a.out:c:7 "
                           "{ @[execname, probename, ustack(2)] = count(); }", n)
        stacks = parse(text)
        want = {("chain", "entry", "chain`b", "chain`c"): 3 * n,
                ("chain", "entry", "chain`a2", "chain`c"): n,
                ("chain", "7", "chain`b", "chain`c"): 3 * n,
                ("chain", "7", "chain`a2", "chain`c"): n}
        self.assertEqual(stacks, want, text)

    def test_user_then_kernel(self):
        # @[ustack(), stack()] at a system call: the user frames root
        # first (_start ... getppid), then the kernel's, each "_[k]"
        text = self.folded("syscall::getppid:entry /pid == $target/ "
                           "{ @[ustack(), stack()] = count(); }", 1, "sys")
        stacks = parse(text)
        self.assertEqual(len(stacks), 1, text)
        frames, count = stacks.popitem()
        self.assertEqual(count, 1, text)
        user = [f for f in frames if not f.endswith("_[k]")]
        self.assertEqual(user, ROOT + ["chain`sys", "libc.so.6`getppid"], text)
        self.assertEqual(list(frames[:len(user)]), user, text)
        self.assertGreater(len(frames), len(user), text)

    def test_profile_counts_add_up(self):
        # sampled stacks of a busy target: every line's frames start at the
        # root, and the lines add up to the samples counted apart
        text = self.folded("profile-997 /pid == $target/ { @s[ustack()] = count(); @n = count(); }",
                           50000000)
        lines = text.splitlines()
        total = [line for line in lines if line.startswith("@n ")]
        self.assertEqual(len(total), 1, text)
        stacks = parse("\n".join(line for line in lines if not line.startswith("@n ")))
        self.assertGreater(len(stacks), 0, text)
        self.assertEqual(sum(stacks.values()), int(total[0].split()[1]), text)
        for frames in stacks:
            for f in frames:
                self.assertNotRegex(f, r"\+0x[0-9a-f]+$", text)
            # a sample in main or below (not one at start-up, in
            # __libc_start_main's other calls) has the whole root
            if "chain`main" in frames:
                self.assertEqual(list(frames[:len(ROOT)]), ROOT, text)


if __name__ == "__main__":
    unittest.main()
