"""Static probes end to end: dtrace -h / -G on a provider file, a program
built at several optimization levels, as PIE and non-PIE, with LTO, as an
executable and a shared library, in C and C++; its notes checked with
libelf (and against readelf), and the probes traced with bpftrace and read
with gdb, which must see exact counts and argument values.

Environment: DTRACE_BIN (our dtrace), NOTEDUMP (tests/integration/notedump).
"""
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
DTRACE = os.environ.get("DTRACE_BIN", "dtrace")
NOTEDUMP = os.environ.get("NOTEDUMP", "notedump")
N = 300  # iterations of the test program

# What the provider file declares: probe -> [(size, signed)]
DECLARED = {
    "ints": [(1, True), (1, False), (2, True), (2, False), (4, True), (4, False)],
    "wide": [(8, True), (8, False), (8, False), (8, False), (8, True), (8, False)],
    "str": [(8, False), (4, True)],
    "noargs": [],
    "twelve": [(4, True), (4, False), (2, True), (1, True), (8, True), (8, False),
               (1, True), (1, False), (2, True), (2, False), (8, True), (8, False)],
    "gate__check": [(4, True)],
    "main__entry": [(4, True)],
}

NOP11 = "90" + "662e0f1f840000000000"


def declared_in(app, target):
    """The probes whose sites are in target: a shared library lacks main.c's."""
    return set(DECLARED) - ({"main__entry"} if target != app else set())


def variants():
    v = {}
    for o in ("-O0", "-O1", "-O2", "-O3"):
        v["c" + o] = ("gcc", "c", [o], False)
        v["cxx" + o] = ("g++", "c++", [o], False)
    v["c-O2-lto"] = ("gcc", "c", ["-O2", "-flto"], False)
    v["cxx-O2-lto"] = ("g++", "c++", ["-O2", "-flto"], False)
    v["c-O2-nopie"] = ("gcc", "c", ["-O2", "-fno-pie", "-no-pie"], False)
    v["c-O2-short"] = ("gcc", "c", ["-O2", "-DDTRACE_SDT_SHORT_SITE"], False)
    v["c-O0-shlib"] = ("gcc", "c", ["-O0"], True)
    v["c-O2-shlib"] = ("gcc", "c", ["-O2"], True)
    v["cxx-O2-shlib"] = ("g++", "c++", ["-O2"], True)
    if shutil.which("clang"):
        v["clang-O2"] = ("clang", "c", ["-O2"], False)
        v["clang-O2-lto"] = ("clang", "c", ["-O2", "-flto"], False)
    return v


def expected_events(n):
    """The lines our bpftrace script prints, computed independently."""
    lines = []
    for i in range(n):
        lines.append("ints %d %d %d %d %d %d" % (
            (i % 256) - 128, 255 - i % 256, -30000 + i, 65535 - i,
            -2000000000 + i, 4000000000 + i))
        lines.append("wide %d %d wide-%d m%d %d %d" % (
            -5000000000000 - i, 18000000000000000000 + i, i, i * 3, i * 1000, 0x1000 + i))
        lines.append("str s%d %d" % (i, len("s%d" % i)))
    return sorted(lines)


BT_SCRIPT = r'''
usdt:%(t)s:tst:ints { printf("ints %%d %%u %%d %%u %%d %%u\n", arg0, arg1, arg2, arg3, arg4, arg5); }
usdt:%(t)s:tst:wide { printf("wide %%lld %%llu %%s %%s %%ld %%lu\n", arg0, arg1, str(arg2), str(arg3), arg4, arg5); }
usdt:%(t)s:tst:str { printf("str %%s %%d\n", str(arg0), arg1); }
usdt:%(t)s:tst:noargs { @noargs = count(); }
usdt:%(t)s:tst:twelve { @twelve = count(); }
usdt:%(t)s:tst:gate__check { @gate = count(); @gatesum = sum(arg0); }
'''


class StaticProbes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tracelib.TempDir("dtrace-static-")
        t = cls.tmp.join
        for f in ("probes.d", "app.c", "main.c"):
            shutil.copy(os.path.join(HERE, f), t(f))
        # the build rule of Solaris and systemtap: objects first, then -G
        tracelib.run([DTRACE, "-h", "-s", "probes.d", "-o", "probes.h"], cwd=cls.tmp.path)
        cls.built = {}
        for name, (cc, lang, flags, shlib) in variants().items():
            d = t(name)
            os.mkdir(d)
            base = [cc, "-x", lang] + flags + ["-g", "-Wall", "-Wextra", "-Werror",
                                              "-I", cls.tmp.path]
            fpic = ["-fPIC"] if shlib else []
            tracelib.run(base + fpic + ["-c", t("app.c"), "-o", "app.o"], cwd=d)
            tracelib.run(base + ["-c", t("main.c"), "-o", "main.o"], cwd=d)
            tracelib.run([DTRACE, "-G", "-s", t("probes.d"), "-o", "probes.o", "app.o"], cwd=d)
            link = [cc] + flags
            if shlib:
                tracelib.run(link + ["-shared", "-o", "libapp.so", "app.o", "probes.o"], cwd=d)
                tracelib.run(link + ["-o", "app", "main.o", "-L.", "-lapp",
                                     "-Wl,-rpath," + d], cwd=d)
                target = os.path.join(d, "libapp.so")
            else:
                tracelib.run(link + ["-o", "app", "main.o", "app.o", "probes.o"], cwd=d)
                target = os.path.join(d, "app")
            cls.built[name] = (os.path.join(d, "app"), target, "short" in name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    # -- notes ---------------------------------------------------------------

    def read_notes(self, target):
        out = tracelib.run([NOTEDUMP, target]).stdout.splitlines()
        notes, semas, sites = [], {}, []
        for line in out:
            f = line.split()
            if f[0] == "note":
                kv = dict(x.split("=") for x in f[3:7])
                rest = f[7:]
                args = [(int(rest[i]), rest[i + 1] == "s", rest[i + 2])
                        for i in range(0, len(rest), 3)]
                self.assertEqual(len(args), int(kv["nargs"]))
                notes.append((f[1], f[2], int(kv["pc"], 16), int(kv["base"], 16),
                              int(kv["sema"], 16), args))
            elif f[0] == "sema":
                semas[(f[1], f[2])] = (int(f[3].split("=")[1], 16), f[4].split("=")[1])
            elif f[0] == "site":
                sites.append((f[1], f[2], f[3]))
        return notes, semas, sites

    def readelf_notes(self, target):
        out = tracelib.run(["readelf", "-n", target]).stdout
        res = []
        for m in re.finditer(r"Provider: (\S+)\s+Name: (\S+)\s+Location: (0x[0-9a-f]+), "
                             r"Base: (0x[0-9a-f]+), Semaphore: (0x[0-9a-f]+)\s+"
                             r"Arguments: ?([^\n]*)", out):
            res.append((m.group(1), m.group(2), int(m.group(3), 16), int(m.group(4), 16),
                        int(m.group(5), 16), m.group(6).split()))
        return res

    def test_notes(self):
        for name, (app, target, short) in sorted(self.built.items()):
            with self.subTest(variant=name):
                notes, semas, sites = self.read_notes(target)
                theirs = self.readelf_notes(target)
                self.assertEqual(len(notes), len(theirs))
                for ours, rd in zip(notes, theirs):
                    self.assertEqual(ours[:5], rd[:5])
                    self.assertEqual(["%s%d@%s" % ("-" if s else "", sz, op)
                                      for sz, s, op in ours[5]], rd[5])
                # every declared probe has a site; every site is declared
                self.assertEqual({n[1] for n in notes}, declared_in(app, target))
                if app != target:  # main.c's probe is in the executable
                    self.assertEqual({n[1] for n in self.read_notes(app)[0]}, {"main__entry"})
                for prov, probe, pc, base, sema, args in notes:
                    self.assertEqual(prov, "tst")
                    self.assertEqual([(a[0], a[1]) for a in args], DECLARED[probe], probe)
                    self.assertNotEqual(pc, 0)
                    self.assertNotEqual(base, 0)
                    symval, section = semas[(prov, probe)]
                    self.assertEqual(sema, symval, "semaphore address of " + probe)
                    self.assertEqual(section, ".probes")
                for prov, probe, hexbytes in sites:
                    want = NOP11[:2] if short else NOP11
                    self.assertEqual(hexbytes[:len(want)], want, "site of " + probe)

    def test_G_object(self):
        """dtrace -G's object: each semaphore global, hidden, 2 bytes, in
        .probes, in a COMDAT group of its own named after it."""
        obj = self.tmp.join("c-O2", "probes.o")
        syms = tracelib.run(["readelf", "-sW", obj]).stdout
        groups = tracelib.run(["readelf", "-gW", obj]).stdout
        sections = tracelib.run(["readelf", "-SW", obj]).stdout
        for probe in DECLARED:
            sym = "tst_%s_semaphore" % probe
            m = re.search(r"^\s*\d+: 0+ +2 OBJECT +GLOBAL +HIDDEN +(\d+) %s$" % sym, syms, re.M)
            self.assertIsNotNone(m, sym)
            self.assertRegex(sections, r"\[ *%s\] \.probes +PROGBITS .* WAG " % m.group(1))
            self.assertRegex(groups, r"COMDAT group section \[ *\d+\] `\.group' \[%s\] "
                             r"contains 1 section" % sym)
        self.assertEqual(len(re.findall(r"COMDAT group", groups)), len(DECLARED))

    # -- tracing -------------------------------------------------------------

    def test_bpftrace_counts_and_arguments(self):
        tracelib.require_tracing(self)
        for name, (app, target, _) in sorted(self.built.items()):
            with self.subTest(variant=name):
                if target == app:
                    lines, _ = tracelib.bpftrace(BT_SCRIPT % {"t": target},
                                                 cmd="%s %d wait" % (app, N))
                else:
                    lines, applines = tracelib.bpftrace_while(BT_SCRIPT % {"t": target},
                                                              cmd=[app, str(N), "wait"])
                    lines += applines
                events = sorted(l for l in lines
                                if l.startswith(("ints ", "wide ", "str ")))
                self.assertEqual(events, expected_events(N))
                self.assertIn("@noargs: %d" % N, lines)
                self.assertIn("@twelve: %d" % N, lines)
                self.assertIn("@gate: %d" % N, lines)
                self.assertIn("@gatesum: %d" % (N * (N - 1) // 2), lines)
                # the program saw its probe enabled while traced
                self.assertIn("enabled-before 1", lines)
                self.assertIn("enabled-after 1", lines)

    def test_untraced_semaphore_is_zero(self):
        for name, (app, _, _) in sorted(self.built.items()):
            with self.subTest(variant=name):
                out = tracelib.run([app, "3"]).stdout.split("\n")
                self.assertEqual(out[:2], ["enabled-before 0", "enabled-after 0"])

    def test_semaphore_follows_attach_and_detach(self):
        tracelib.require_tracing(self)
        for name in ("c-O2", "c-O2-shlib", "cxx-O0"):
            app, target, _ = self.built[name]
            with self.subTest(variant=name):
                p = subprocess.Popen([app, "watch", "30"], stdout=subprocess.PIPE, text=True)
                try:
                    tracelib.wait_for_line(p, "enabled 0")
                    # by path, not -p: the kernel raises the semaphore in every
                    # process that maps the file
                    tracelib.bpftrace("usdt:%s:tst:gate__check { @ = count(); } "
                                      "interval:ms:1500 { exit(); }" % target)
                    # attach raised it, detach lowered it
                    self.assertEqual(p.stdout.readline().strip(), "enabled 1")
                    self.assertEqual(p.stdout.readline().strip(), "enabled 0")
                finally:
                    p.kill()
                    p.wait()

    def test_gdb_reads_all_twelve_arguments(self):
        if shutil.which("gdb") is None:
            self.skipTest("gdb is not installed")
        want = [-1, 3000000001, -2, 65, -7, (1 << 63) + 1, -8, 250, -1234, 65000,
                -(1 << 40), (1 << 64) - 2]
        for name, (app, _, _) in sorted(self.built.items()):
            with self.subTest(variant=name):
                cmds = ["-ex", "set breakpoint pending on",
                        "-ex", "break -probe-stap tst:twelve", "-ex", "run 2",
                        "-ex", "continue"]  # second hit: i == 1
                for i in range(12):
                    cmds += ["-ex", "printf \"arg%d=%%lld\\n\", (long long)$_probe_arg%d"
                             % (i, i)]
                out = tracelib.run(["gdb", "-nx", "-batch"] + cmds + [app],
                                   env=dict(os.environ, LD_BIND_NOW="1")).stdout
                got = dict(re.findall(r"^arg(\d+)=(-?\d+)$", out, re.M))
                self.assertEqual(len(got), 12, out)
                for i, w in enumerate(want):
                    size = DECLARED["twelve"][i][0]
                    mask = (1 << (8 * size)) - 1 if size < 8 else (1 << 64) - 1
                    self.assertEqual(int(got[str(i)]) & mask, w & mask, "arg%d" % i)

    # -- tools list our probes -------------------------------------------------

    def test_bpftrace_lists_probes(self):
        tracelib.require_tracing(self)
        for name in ("c-O2", "cxx-O2-shlib"):
            app, target, _ = self.built[name]
            out = tracelib.run(["bpftrace", "-l", "usdt:%s:*" % target]).stdout.split()
            self.assertEqual(sorted(out), sorted("usdt:%s:tst:%s" % (target, p)
                                                 for p in declared_in(app, target)))

    def test_gdb_lists_probes(self):
        if shutil.which("gdb") is None:
            self.skipTest("gdb is not installed")
        app, _, _ = self.built["c-O2"]
        out = tracelib.run(["gdb", "-nx", "-batch", "-ex", "info probes stap", app]).stdout
        listed = set(re.findall(r"^stap\s+tst\s+(\S+)", out, re.M))
        self.assertEqual(listed, set(DECLARED))

    def test_perf_lists_probes(self):
        if shutil.which("perf") is None:
            self.skipTest("perf is not installed")
        app, _, _ = self.built["c-O2"]
        home = self.tmp.join("perfhome")
        os.makedirs(home, exist_ok=True)
        env = dict(os.environ, HOME=home)
        tracelib.run(["perf", "buildid-cache", "--add", app], env=env)
        out = tracelib.run(["perf", "list", "sdt"], env=env).stdout
        listed = set(re.findall(r"sdt_tst:(\S+)", out))
        self.assertEqual(listed, set(DECLARED))


if __name__ == "__main__":
    unittest.main()
