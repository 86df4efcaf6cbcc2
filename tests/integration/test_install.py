"""`cmake --install` into a temporary prefix, then build against it as
another project would and trace with what it installed.

- the layout: libraries with their SONAME links, headers, dtrace, the D
  library directory, libusdt.pc and libdtrace.pc, the CMake package, an
  RPATH relative to the installed files;
- with pkg-config: a program with static probes (the installed dtrace's -h
  and -G), a program with a runtime provider (libusdt), and a program that
  runs -h and -G through libdtrace's public functions (dtrace_gen.h), whose
  header and object are byte for byte the command's;
- with find_package(DTrace) in a small CMake project: the same programs;
- each program traced by the installed dtrace, with the exact output;
- the installed dtrace opens nothing under the source or the build tree
  (strace), and reads its own D library directory (ENOENT from errno.d).

Environment: BUILD_DIR, SOURCE_DIR, CMAKE, CC, TEST_CFLAGS (the sanitizer
flags of a sanitized build: its libraries need them in what links them).
"""
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import unittest

import tracelib

BUILD_DIR = os.path.realpath(os.environ.get("BUILD_DIR", "../../build"))
SOURCE_DIR = os.path.realpath(os.environ.get("SOURCE_DIR", "../.."))
CMAKE = os.environ.get("CMAKE", "cmake")
CC = os.environ.get("CC") or "cc"
CFLAGS = shlex.split(os.environ.get("TEST_CFLAGS", ""))
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "install")

# (dtrace(1) ends its output with a blank line)
TICKS = "0 alpha\n1 beta\n2 gamma\ndone 3\n\n"
TICK_PROG = ('instprov$target:::tick { printf("%d %s\\n", arg0, copyinstr(arg1)); } '
             'instprov$target:::done { printf("done %d\\n", arg0); }')
PINGS = "0 one\n1 two\n2 three\n\n"
PING_PROG = 'instrt$target:::ping { printf("%d %s\\n", arg0, copyinstr(arg1)); }'


def run(cmd, **kw):
    return tracelib.run(cmd, timeout=300, **kw)


class Install(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # outside the build tree: a dtrace under it would read the source's D library
        cls.tmp = tempfile.mkdtemp(prefix="dtrace-install-")
        cls.prefix = os.path.join(cls.tmp, "prefix")
        run([CMAKE, "--install", BUILD_DIR, "--prefix", cls.prefix])
        cls.dtrace = os.path.join(cls.prefix, "bin", "dtrace")
        libdirs = [d for d in ("lib", "lib64", "lib/x86_64-linux-gnu")
                   if os.path.exists(os.path.join(cls.prefix, d, "libdtrace.so"))]
        cls.libdir = os.path.join(cls.prefix, libdirs[0]) if libdirs else None
        cls.env = dict(os.environ)
        cls.env["PKG_CONFIG_PATH"] = os.path.join(cls.libdir or cls.prefix, "pkgconfig")
        cls.env["USDT_RUNTIME_DIR"] = os.path.join(cls.tmp, "usdt")
        # LeakSanitizer cannot run under ptrace (dtrace -c, strace)
        cls.env["ASAN_OPTIONS"] = "detect_leaks=0"
        for v in ("DTRACE_LIBDIR", "LD_LIBRARY_PATH", "LD_PRELOAD"):
            cls.env.pop(v, None)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def work(self, name):
        d = os.path.join(self.tmp, name)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(HERE):
            shutil.copy(os.path.join(HERE, f), d)
        return d

    def pkg(self, *args):
        """pkg-config's words, their paths made plain (the .pc files name
        the prefix relative to themselves: lib/pkgconfig/../..)."""
        words = shlex.split(run(["pkg-config"] + list(args), env=self.env).stdout)
        return [w[:2] + os.path.normpath(w[2:]) if w[:2] in ("-L", "-I") else w
                for w in words]

    def trace(self, prog, cmd, cwd, extra=()):
        tracelib.require_tracing(self, tools=())
        r = subprocess.run([self.dtrace, "-q"] + list(extra) + ["-n", prog, "-c", cmd],
                           cwd=cwd, env=self.env, capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r

    # ------------------------------------------------------------- layout

    def test_layout(self):
        self.assertIsNotNone(self.libdir, "no libdtrace.so under %s" % self.prefix)
        for lib in ("libdtrace", "libusdt"):
            so = os.path.join(self.libdir, lib + ".so")
            # lib.so -> lib.so.0 -> lib.so.0.x.y, whose SONAME is lib.so.0
            self.assertEqual(os.readlink(so), lib + ".so.0")
            real = os.readlink(so + ".0")
            self.assertRegex(real, r"^%s\.so\.0\.\d+\.\d+$" % lib)
            self.assertTrue(os.path.isfile(os.path.join(self.libdir, real)))
            dyn = run(["readelf", "-d", so]).stdout
            self.assertIn("Library soname: [%s.so.0]" % lib, dyn)
        for h in ("dtrace.h", "dtrace_gen.h", "usdt.h", "dtrace/sdt_site.h"):
            self.assertTrue(os.path.isfile(os.path.join(self.prefix, "include", h)), h)
        self.assertTrue(os.access(self.dtrace, os.X_OK))
        self.assertTrue(os.path.isfile(os.path.join(self.libdir, "dtrace", "errno.d")))
        for f in ("pkgconfig/libusdt.pc", "pkgconfig/libdtrace.pc",
                  "cmake/DTrace/DTraceConfig.cmake", "cmake/DTrace/DTraceConfigVersion.cmake",
                  "cmake/DTrace/DTraceTargets.cmake"):
            self.assertTrue(os.path.isfile(os.path.join(self.libdir, f)), f)
        # the man pages docs/ has, in their sections
        for page in os.listdir(os.path.join(SOURCE_DIR, "docs")):
            m = re.match(r".*\.([1-9])$", page)
            if m:
                self.assertTrue(os.path.isfile(os.path.join(
                    self.prefix, "share", "man", "man" + m.group(1), page)), page)
        # the command finds its library relative to itself, not in the build tree
        dyn = run(["readelf", "-d", self.dtrace]).stdout
        self.assertRegex(dyn, r"R(UN)?PATH.*\[\$ORIGIN/\.\./lib[^\]]*\]")
        self.assertNotIn(BUILD_DIR, dyn)
        ldd = run(["ldd", self.dtrace], env=self.env).stdout
        self.assertRegex(ldd, r"libdtrace\.so\.0 => %s/" % re.escape(self.prefix))

    def test_lua_module(self):
        """The Lua module the install step puts in lib/lua/5.4 loads the
        installed libraries (an RPATH relative to itself)."""
        mod = os.path.join(self.libdir or self.prefix, "lua", "5.4", "dtrace.so")
        lua = shutil.which("lua5.4")
        if not os.path.exists(mod) or lua is None:
            self.skipTest("no Lua binding in this build")
        if "sanitize" in " ".join(CFLAGS):
            self.skipTest("a sanitized module needs the sanitizer's runtime preloaded")
        ldd = run(["ldd", mod], env=self.env).stdout
        for lib in ("libdtrace", "libusdt"):
            self.assertRegex(ldd, r"%s\.so\.0 => %s/" % (lib, re.escape(self.prefix)))
        env = dict(self.env, LUA_CPATH=os.path.join(os.path.dirname(mod), "?.so"))
        r = run([lua, "-e", "local d = require('dtrace'); "
                 "print(package.searchpath('dtrace', package.cpath), type(d.provider))"],
                env=env)
        self.assertEqual(r.stdout, "%s\tfunction\n" % mod)

    def test_pkg_config(self):
        self.assertEqual(self.pkg("--modversion", "libdtrace"), self.pkg("--modversion", "libusdt"))
        self.assertEqual(self.pkg("--libs", "libusdt"), ["-L" + self.libdir, "-lusdt"])
        self.assertEqual(self.pkg("--libs", "libdtrace"), ["-L" + self.libdir, "-ldtrace"])
        self.assertEqual(self.pkg("--cflags", "libdtrace"),
                         ["-I" + os.path.join(self.prefix, "include")])
        # what a static link would need: libdtrace's own dependencies
        static = self.pkg("--static", "--libs", "libdtrace")
        for lib in ("-lbpf", "-ldw", "-lelf", "-lm"):
            self.assertIn(lib, static)
        self.assertIn("-lelf", self.pkg("--static", "--libs", "libusdt"))

    # ---------------------------------------------------------- pkg-config

    def build_pkg_config(self):
        """The three programs, built with pkg-config and the installed dtrace."""
        d = self.work("pkgconfig")
        cc = [CC] + CFLAGS
        run([self.dtrace, "-h", "-s", "instprov.d", "-o", "instprov.h"], cwd=d, env=self.env)
        run(cc + ["-c", "prog.c", "-o", "prog.o"], cwd=d, env=self.env)
        run([self.dtrace, "-G", "-s", "instprov.d", "-o", "instprov.o", "prog.o"], cwd=d,
            env=self.env)
        run(cc + ["prog.o", "instprov.o", "-o", "prog"], cwd=d, env=self.env)
        rt_flags = self.pkg("--cflags", "--libs", "libusdt")
        run(cc + ["rt.c", "-o", "rt"] + rt_flags + ["-Wl,-rpath," + self.libdir], cwd=d,
            env=self.env)
        gen_flags = self.pkg("--cflags", "--libs", "libdtrace")
        run(cc + ["gen.c", "-o", "gen"] + gen_flags + ["-Wl,-rpath," + self.libdir], cwd=d,
            env=self.env)
        return d

    def test_pkg_config_static_probes_traced(self):
        d = self.build_pkg_config()
        r = self.trace(TICK_PROG, "./prog", d)
        self.assertEqual(r.stdout, TICKS, r.stderr)

    def test_pkg_config_runtime_provider_traced(self):
        d = self.build_pkg_config()
        # -Z: the provider comes at enable(), which waits for the tracer
        r = self.trace(PING_PROG, "./rt", d, extra=["-Z"])
        self.assertEqual(r.stdout, PINGS, r.stderr)
        self.assertIn("rt: bad name: %d " % 2000, r.stderr)  # EUSDT_BADNAME, positive

    def test_pkg_config_gen_functions(self):
        """dtrace_program_header() and _link() of the installed library write
        what the installed command's -h and -G write."""
        d = self.build_pkg_config()
        g = os.path.join(d, "gen-out")
        os.makedirs(g)
        prov = os.path.join(d, "instprov.d")
        run([self.dtrace, "-h", "-s", prov, "-o", "instprov.h"], cwd=d, env=self.env)
        run([self.dtrace, "-G", "-s", prov, "-o", "instprov.o", os.path.join(d, "prog.o")],
            cwd=d, env=self.env)
        r = run([os.path.join(d, "gen"), prov, "instprov.h", "instprov.o",
                 os.path.join(d, "prog.o")], cwd=g, env=self.env)
        self.assertRegex(r.stderr, r"gen: no file: %d " % 1009)  # EDT_BADARG
        for f in ("instprov.h", "instprov.o"):
            with open(os.path.join(d, f), "rb") as a, open(os.path.join(g, f), "rb") as b:
                self.assertEqual(a.read(), b.read(), f)
        # the library checks the probe sites: a stale definition (tick with
        # one argument where prog.o's sites pass two) is an error, with a message
        with open(os.path.join(g, "stale.d"), "w") as f:
            f.write("provider instprov { probe tick(int); probe done(int); };\n")
        r = subprocess.run([os.path.join(d, "gen"), "stale.d", "s.h", "s.o",
                            os.path.join(d, "prog.o")], cwd=g, env=self.env,
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertRegex(r.stderr, r"gen: link: .*tick", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(g, "s.o")))

    # -------------------------------------------------------- find_package

    def test_find_package(self):
        d = self.work("cmake")
        b = os.path.join(d, "build")
        flags = " ".join(CFLAGS)
        r = run([CMAKE, "-S", d, "-B", b, "-DCMAKE_PREFIX_PATH=" + self.prefix,
                 "-DCMAKE_C_COMPILER=" + CC, "-DCMAKE_C_FLAGS=" + flags], env=self.env)
        self.assertIn("DTRACE_EXECUTABLE=%s\n" % self.dtrace, r.stdout)
        run([CMAKE, "--build", b], env=self.env)
        with open(os.path.join(b, "CMakeCache.txt")) as f:
            cache = f.read()
        self.assertIn("DTrace_DIR:PATH=%s/" % self.prefix, cache)
        r = self.trace(TICK_PROG, "./prog", b)
        self.assertEqual(r.stdout, TICKS, r.stderr)
        r = self.trace(PING_PROG, "./rt", b, extra=["-Z"])
        self.assertEqual(r.stdout, PINGS, r.stderr)
        # DTrace::dtrace carries dtrace_gen.h's functions: gen's header is the command's
        g = os.path.join(b, "gen-out")
        os.makedirs(g)
        prov = os.path.join(d, "instprov.d")
        run([os.path.join(b, "gen"), prov, "instprov.h", "o"], cwd=g, env=self.env)
        with open(os.path.join(b, "instprov.h"), "rb") as x, \
                open(os.path.join(g, "instprov.h"), "rb") as y:
            self.assertEqual(x.read(), y.read())

    # ------------------------------------------------ nothing from the trees

    def test_reads_nothing_from_source_or_build_tree(self):
        """strace -f (so without -c: a target cannot be traced twice) sees
        every file dtrace and its threads look at, compiling with the D
        library (errno.d's ENOENT), tracing, and running -h and -G."""
        tracelib.require_tracing(self, tools=("strace",))
        d = self.build_pkg_config()
        log = os.path.join(self.tmp, "strace.log")
        runs = [
            (["-q", "-n", 'BEGIN { printf("%d\\n", ENOENT); exit(0); }'], "2\n\n"),
            (["-h", "-s", "instprov.d", "-o", "again.h"], ""),
            (["-G", "-s", "instprov.d", "-o", "again.o", "prog.o"], ""),
        ]
        for args, out in runs:
            r = subprocess.run(["strace", "-f", "-qq", "-o", log, "-e", "trace=%file",
                                self.dtrace] + args, cwd=d, env=self.env,
                               capture_output=True, text=True, timeout=120)
            self.assertEqual((r.returncode, r.stdout), (0, out), r.stderr)
            with open(log) as f:
                seen = f.read()
            self.assertIn(os.path.join(self.libdir, "libdtrace.so.0"), seen)
            if "-q" in args:  # the installed D library directory was read
                self.assertIn(os.path.join(self.libdir, "dtrace", "errno.d"), seen)
            for tree in (SOURCE_DIR, BUILD_DIR):
                hits = [l for l in seen.splitlines() if tree + "/" in l or '"%s"' % tree in l]
                self.assertEqual(hits, [], "dtrace %s looked under %s" % (args[0], tree))


if __name__ == "__main__":
    unittest.main()
