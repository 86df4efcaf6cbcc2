"""The language packages install from a checkout as a new user installs
them, with no network, and the installed module fires a probe our dtrace
traces.

- Python: `python3 -m venv V && V/bin/pip install bindings/python` (pip's
  build isolation, no setuptools or wheel fetched; no build/ or *.egg-info
  left in the source tree), then V/bin/python imports dtrace from V.
- Lua: `luarocks --lua-version 5.4 --tree T make bindings/lua/dtrace-scm-1.rockspec`,
  then lua5.4 loads dtrace.so from T alone.
- Node: `npm install /path/to/bindings/node` into a new project, then node
  loads dtrace-usdt from its node_modules.

Each works on its own copy of the checkout (git ls-files), so that what a
package build writes there is seen and the real tree is left alone.  The
network is cut with `unshare -n` (a network namespace with no interface
up) where this process may make one (root), else the tools are told not to
use it (PIP_NO_INDEX, npm --offline).

Environment: DTRACE (our dtrace), SOURCE_DIR (the checkout), PYTHON (the
interpreter whose venv module makes the venv: Debian's /usr/bin/python3).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tracelib  # noqa: E402

DTRACE = os.environ.get("DTRACE", "dtrace")
ROOT = os.environ.get("SOURCE_DIR", os.path.abspath(os.path.join(HERE, "..", "..")))
PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")


def clean_env(home):
    """The environment of a new user: no build-tree paths, no sanitizer
    runtime (the packages are built without it), a HOME of its own (no pip,
    npm or luarocks configuration or cache)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_PRELOAD", "PYTHONPATH", "LUA_CPATH", "LUA_PATH", "NODE_PATH",
                        "ASAN_OPTIONS", "UBSAN_OPTIONS", "PYTHONDONTWRITEBYTECODE")
           and not k.startswith(("PIP_", "npm_", "NPM_"))}
    env["HOME"] = home
    env["XDG_CACHE_HOME"] = os.path.join(home, ".cache")
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    return env


_offline = None


def offline():
    """The command prefix that cuts the network: ["unshare", "-n"], or []."""
    global _offline
    if _offline is None:
        _offline = []
        if shutil.which("unshare"):
            p = subprocess.run(["unshare", "-n", "true"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            if p.returncode == 0:
                _offline = ["unshare", "-n"]
    return _offline


def copy_checkout(dst):
    """The checkout's files copied to dst: those git tracks and the new ones
    it does not ignore (outside git: every file but build trees)."""
    p = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others",
                        "--exclude-standard"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    if p.returncode == 0 and p.stdout:
        for rel in p.stdout.decode().split("\0"):
            src = os.path.join(ROOT, rel)
            if not rel or not os.path.isfile(src):
                continue
            os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dst, rel))
    else:
        shutil.copytree(ROOT, dst, symlinks=True, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("build*", "node_modules", "__pycache__",
                                                      ".git"))


def tree(folder):
    """Every path under folder, but __pycache__ (the backend's own bytecode)."""
    out = set()
    for d, dirs, files in os.walk(folder):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for x in dirs + files:
            out.add(os.path.relpath(os.path.join(d, x), folder))
    return out


def need(test, *tools):
    for t in tools:
        if shutil.which(t) is None:
            why = "%s is not installed (scripts/dev setup installs it)" % t
            if tracelib.in_ci():
                test.fail(why)
            raise unittest.SkipTest(why)


def run(test, cmd, env, cwd=None, timeout=1200):
    p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=timeout)
    test.assertEqual(p.returncode, 0, "%s\nstdout:\n%s\nstderr:\n%s" %
                     (" ".join(cmd), p.stdout[-3000:], p.stderr[-3000:]))
    return p


def traced(test, provider, cmd, env, d_args="arg0, copyinstr(arg1)"):
    """Run cmd (a string) under dtrace -Zq -c, tracing PROVIDER$target:::tick
    once; dtrace's standard output."""
    d = 'PROV$target:::tick { printf("%%d %%s\\n", %s); exit(0); }'.replace("PROV", provider)
    p = subprocess.run([DTRACE, "-Zq", "-n", d % d_args, "-c", cmd], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    test.assertEqual(p.returncode, 0, p.stderr)
    return p.stdout


class Packages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dtrace-packages-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        tracelib.require_tracing(self, tools=())
        self.dir = tempfile.mkdtemp(dir=self.tmp)
        self.src = os.path.join(self.dir, "src")
        copy_checkout(self.src)
        self.home = os.path.join(self.dir, "home")
        os.makedirs(self.home)
        self.env = clean_env(self.home)

    def test_python_venv_pip_install(self):
        venv = os.path.join(self.dir, "venv")
        p = subprocess.run([PYTHON, "-m", "venv", venv], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            why = "python3 -m venv failed (Debian: python3-venv): " + p.stdout[-500:]
            if tracelib.in_ci():
                self.fail(why)
            self.skipTest(why)
        pkg = os.path.join(self.src, "bindings", "python")
        before = tree(self.src)
        env = dict(self.env, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
                   PIP_NO_CACHE_DIR="1")
        run(self, offline() + [os.path.join(venv, "bin", "pip"), "install", pkg], env)
        # nothing left in the source tree: no build/, no *.egg-info
        self.assertEqual(sorted(tree(self.src) - before), [])
        python = os.path.join(venv, "bin", "python")
        p = run(self, [python, "-c", "import dtrace, sys; print(dtrace.__file__)"], env,
                cwd=self.dir)
        self.assertTrue(p.stdout.startswith(os.path.join(venv, "lib")), p.stdout)
        # the consumer extension: D run from the venv
        p = run(self, [python, "-c", "import dtrace\n"
                       "print(dtrace.Consumer('BEGIN { @[\"k\"] = sum(7); exit(0); }').run())"],
                env, cwd=self.dir)
        self.assertEqual(p.stdout, "{'': {('k',): 7}}\n")
        # the provider extension: a probe fired from the venv, traced
        script = os.path.join(self.dir, "fire.py")
        with open(script, "w") as f:
            f.write(textwrap.dedent("""\
                import sys, time, dtrace
                p = dtrace.Provider("pkgpy")
                q = p.probe("tick", int, str)
                p.enable()
                deadline = time.monotonic() + 10
                while not q.enabled:
                    if time.monotonic() > deadline:
                        sys.exit("no tracer came")
                    time.sleep(0.005)
                q.fire(42, "from the venv")
                """))
        out = traced(self, "pkgpy", "%s %s" % (python, script), env)
        self.assertEqual(out.strip(), "42 from the venv")

    def test_lua_rock_make(self):
        need(self, "luarocks", "lua5.4")
        rocks = os.path.join(self.dir, "rocks")
        run(self, offline() + ["luarocks", "--lua-version", "5.4", "--tree", rocks, "make",
                               "bindings/lua/dtrace-scm-1.rockspec"], self.env, cwd=self.src)
        so = os.path.join(rocks, "lib", "lua", "5.4", "dtrace.so")
        self.assertTrue(os.path.isfile(so), os.listdir(rocks))
        # the rock tree alone: no default path (;;), so nothing else can load
        env = dict(self.env, LUA_CPATH=os.path.join(rocks, "lib", "lua", "5.4", "?.so"),
                   LUA_PATH=os.path.join(rocks, "share", "lua", "5.4", "?.lua"))
        p = run(self, ["lua5.4", "-e",
                       'print(package.searchpath("dtrace", package.cpath)); require("dtrace")'],
                env)
        self.assertEqual(p.stdout, so + "\n")
        script = os.path.join(self.dir, "fire.lua")
        with open(script, "w") as f:
            f.write(textwrap.dedent("""\
                local dtrace = require("dtrace")
                local p = dtrace.provider("pkglua")
                local q = p:probe("tick", "int", "string")
                p:enable()
                local t0 = os.time()
                while not q.enabled do
                    if os.time() - t0 > 10 then io.stderr:write("no tracer came\\n"); os.exit(3) end
                end
                q:fire(42, "from the rock")
                """))
        out = traced(self, "pkglua", "lua5.4 " + script, env)
        self.assertEqual(out.strip(), "42 from the rock")

    def test_node_npm_install(self):
        need(self, "node", "npm")
        app = os.path.join(self.dir, "app")
        os.makedirs(app)
        with open(os.path.join(app, "package.json"), "w") as f:
            f.write('{ "name": "app", "version": "1.0.0", "private": true }\n')
        pkg = os.path.join(self.src, "bindings", "node")
        run(self, offline() + ["npm", "install", "--offline", "--no-audit", "--no-fund",
                               "--install-links=false", "--foreground-scripts", pkg],
            self.env, cwd=app)
        p = run(self, ["node", "-p", "require.resolve('dtrace-usdt')"], self.env, cwd=app)
        self.assertEqual(p.stdout, os.path.join(pkg, "index.js") + "\n")
        # the addon its install script built (cmake, into the package's build/)
        self.assertTrue(os.path.isfile(os.path.join(pkg, "build", "bindings", "node", "usdt.node")))
        script = os.path.join(app, "fire.js")
        with open(script, "w") as f:
            f.write(textwrap.dedent("""\
                const dtrace = require('dtrace-usdt');
                const p = new dtrace.Provider('pkgnode');
                const q = p.probe('tick', 'int', 'string');
                p.enable();
                const t0 = Date.now();
                (function wait() {
                  if (q.enabled) return q.fire(42, 'from npm');
                  if (Date.now() - t0 > 10000) { console.error('no tracer came'); process.exit(3); }
                  setTimeout(wait, 5);
                })();
                """))
        out = traced(self, "pkgnode", "node " + script, self.env)
        self.assertEqual(out.strip(), "42 from npm")


if __name__ == "__main__":
    unittest.main()
