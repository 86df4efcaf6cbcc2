"""ustack() on Debian's python3.11 (no frame pointers anywhere: the stack
is walked through .eh_frame) against gdb's backtrace at the same point.

Debian's 3.11 fires python:::function__entry only while a trace or profile
function is set, so the script sets one; and its main() tail-calls
Py_BytesMain, so main is never on the stack: "the whole stack" is gdb's,
which ends Py_BytesMain, __libc_start_call_main, __libc_start_main, _start
(docs/notes: issue 18's design, section 0.3).

gdb stops at the probe's address (from the executable's stapsdt note, not
hard-coded) after raising the probe's semaphore by hand, on the first entry
of f (the probe's second argument, a register per the note, is "f"), and
names each frame with "info symbol" of its PC as dtrace names it
(module`function+0xoffset, module`0xaddress where no symbol covers it): the
executable is not position-independent, so its addresses are the same in
both runs, and the libraries' frames are compared as symbol and offset
(gdb turns address randomization off, dtrace's -c does not).

Environment: DTRACE (our dtrace).
"""
import json
import os
import re
import subprocess
import tempfile
import unittest

import tracelib

DTRACE = os.environ.get("DTRACE", "dtrace")
PYTHON = "/usr/bin/python3.11"

SCRIPT = """\
import sys
sys.setprofile(lambda *a: None)
def f(x):
    return x + 1
def g(x):
    return f(x) * 2
g(1)
"""

# gdb's embedded Python: each frame's PC and the name "info symbol" gives
# it, looked up at PC - 1 for a return address as dtrace does (a call that
# ends a function returns to the next one's first byte).  The frames gdb
# makes up from debug information are left out: an inlined function's, and
# a tail call's (its caller jumped: no return address of its is on the
# stack).
GDB_FRAMES = """\
python
f = gdb.newest_frame()
while f is not None:
    if f.type() not in (gdb.INLINE_FRAME, gdb.TAILCALL_FRAME):
        pc = f.pc()
        look = pc if f.level() == 0 else pc - 1
        print("FRAME %#x %d %s" % (pc, pc - look,
              gdb.execute("info symbol %#x" % look, to_string=True).strip()))
    f = f.older()
end
"""

INFO_SYMBOL = re.compile(r"^(\S+)(?: \+ (\d+))? in section \S+(?: of (\S+))?$")


def python_probe():
    """function__entry's address, semaphore and second argument's register,
    from the stapsdt note (addresses moved as the .stapsdt.base section
    moved from the note's Base, as SystemTap defines them)."""
    notes = subprocess.run(["readelf", "-n", PYTHON], stdout=subprocess.PIPE, text=True,
                           check=True).stdout
    m = re.search(r"Name: function__entry\n\s+Location: (0x[0-9a-f]+), Base: (0x[0-9a-f]+), "
                  r"Semaphore: (0x[0-9a-f]+)\n\s+Arguments: (.*)\n", notes)
    if m is None:
        raise AssertionError("no function__entry note in " + PYTHON)
    loc, base, sema = (int(m.group(i), 16) for i in (1, 2, 3))
    args = m.group(4).split()
    reg = re.fullmatch(r"8@%(r[0-9a-z]+)", args[1])
    if reg is None:
        raise AssertionError("function__entry's arg1 is not a register: %s" % args[1])
    sections = subprocess.run(["readelf", "-SW", PYTHON], stdout=subprocess.PIPE, text=True,
                              check=True).stdout
    s = re.search(r"\.stapsdt\.base\s+PROGBITS\s+([0-9a-f]+)", sections)
    moved = int(s.group(1), 16) - base
    return loc + moved, sema + moved, reg.group(1)


def gdb_frames(script):
    loc, sema, reg = python_probe()
    cond = "*(char *)$%s == 'f' && *((char *)$%s + 1) == 0" % (reg, reg)
    with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as cmds:
        cmds.write(GDB_FRAMES)
    try:
        r = subprocess.run(["gdb", "-batch", "-nx", "-ex", "set backtrace past-main on",
                            "-ex", "starti",
                            "-ex", "set var *(unsigned short *)%#x = 1" % sema,
                            "-ex", "break *%#x if %s" % (loc, cond),
                            "-ex", "continue", "-x", cmds.name, "-ex", "kill",
                            "--args", PYTHON, script],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=120)
    finally:
        os.unlink(cmds.name)
    frames = []
    for line in r.stdout.splitlines():
        if not line.startswith("FRAME "):
            continue
        _, pc, back, sym = line.split(" ", 3)
        pc, back = int(pc, 16), int(back)
        m = INFO_SYMBOL.match(sym)
        if m is None:  # "No symbol matches 0x...": only the executable has such frames here
            frames.append((pc, "%s`%#x" % (os.path.basename(PYTHON), pc)))
            continue
        name, off, path = m.group(1), int(m.group(2) or 0) + back, m.group(3) or PYTHON
        text = "%s`%s" % (os.path.basename(path), name)
        if off:
            text += "+%#x" % off
        frames.append((pc, text))
    return frames, r.stdout


def dtrace_run(script, json=False):
    args = [DTRACE, "-q", "-n", 'python$target:::function-entry /copyinstr(arg1) == "f"/ '
            "{ ustack(); exit(0); }", "-c", "%s %s" % (PYTHON, script)]
    if json:
        args[1:1] = ["-x", "oformat=json"]
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120)


class UstackPython(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=("gdb",))
        if not os.path.exists(PYTHON):
            self.skipTest(PYTHON + " is not installed")
        self.tmp = tempfile.TemporaryDirectory()
        self.script = os.path.join(self.tmp.name, "stack.py")
        with open(self.script, "w") as f:
            f.write(SCRIPT)

    def tearDown(self):
        self.tmp.cleanup()

    def test_gdb_sees_the_probe(self):
        """The oracle itself: gdb stops at the probe and walks to _start."""
        frames, out = gdb_frames(self.script)
        self.assertGreaterEqual(len(frames), 8, out)
        self.assertEqual(frames[0][0], python_probe()[0], out)
        self.assertRegex(frames[-1][1], r"^python3\.11`_start\+0x", out)

    def test_pcs_equal_gdb(self):
        """The PCs themselves, whatever names they get (JSON gives each
        frame's address): python3.11's are equal (it is not
        position-independent), each library's differ from gdb's by one
        whole number of pages (where it was loaded)."""
        p = dtrace_run(self.script, json=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        recs = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
        stacks = [d["value"] for r in recs if r.get("type") == "probe" for d in r["data"]
                  if d.get("action") == "trace"]
        self.assertEqual(len(stacks), 1, p.stdout)
        ours = stacks[0]["frames"]
        theirs, out = gdb_frames(self.script)
        self.assertEqual(len(ours), len(theirs), p.stdout + "\n" + out)
        shift = {}
        for mine, (pc, text) in zip(ours, theirs):
            module = text.split("`")[0]
            self.assertEqual(mine.get("module"), module, p.stdout + "\n" + out)
            if module == os.path.basename(PYTHON):
                self.assertEqual(mine["address"], pc, p.stdout + "\n" + out)
            else:
                delta = shift.setdefault(module, mine["address"] - pc)
                self.assertEqual(mine["address"] - pc, delta, p.stdout + "\n" + out)
                self.assertEqual(delta % 4096, 0, p.stdout + "\n" + out)
        self.assertIn("libc.so.6", shift, p.stdout)

    def test_ustack_equals_gdb(self):
        """As text: the same frames as gdb names them (libc's local
        __libc_start_call_main comes from its debug file)."""
        p = dtrace_run(self.script)
        self.assertEqual(p.returncode, 0, p.stderr)
        ours = [line.strip() for line in p.stdout.splitlines() if line.startswith(" " * 14)]
        theirs, out = gdb_frames(self.script)
        self.assertEqual(ours, [text for _, text in theirs], p.stdout + "\n" + out)
        # main is not on python3.11's stack: it tail-calls Py_BytesMain
        ends = [re.sub(r"\+0x[0-9a-f]+$", "", f) for f in ours[-4:]]
        self.assertEqual(ends, ["python3.11`Py_BytesMain", "libc.so.6`__libc_start_call_main",
                                "libc.so.6`__libc_start_main", "python3.11`_start"], p.stdout)
        # every frame is text that names its module, as illumos prints ustack()
        for line in p.stdout.splitlines():
            if line.strip():
                self.assertRegex(line, r"^ {14}\S+`\S+$")


if __name__ == "__main__":
    unittest.main()
