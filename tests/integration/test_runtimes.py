"""examples/runtimes: shop.py, shop.lua and shop.js, each with a provider of
its own (shop) and its binding's runtime provider (python_rt, lua_rt,
node_rt), traced by orders.d and hottest_*.d.  All place 30 orders (order i: ITEMS[i % 3],
i % 4 + 1 of them; even ones ship): orders.d's figures are computed here
from that rule; hottest_*.d counts place and price 30 times, ship 15,
main once.

Environment: DTRACE (our dtrace), PYTHONPATH (build/bindings/python),
LUA_DTRACE_CPATH (build/bindings/lua/?.so), DTRACE_NODE (build/bindings/node,
when the Node binding is built), TRACELIB.
"""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.environ.get("TRACELIB", os.path.dirname(os.path.abspath(__file__))))
import tracelib  # noqa: E402

DTRACE = os.environ.get("DTRACE", "dtrace")
LUA_DTRACE_CPATH = os.environ.get("LUA_DTRACE_CPATH", "")
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")


class Runtimes(unittest.TestCase):
    ITEMS = [("apple", 30), ("pear", 45), ("plum", 25)]

    def setUp(self):
        tracelib.require_tracing(self, tools=("lua5.4",))
        self.dir = os.path.join(EXAMPLES, "runtimes")

    def traced(self, script, lang):
        env = tracelib.untraced_env()
        env["LUA_CPATH"] = LUA_DTRACE_CPATH + ";;"
        # a sanitizer build preloads its runtime for the modules: the
        # interpreter gets it, our (statically sanitized) dtrace does not
        pre = env.pop("LD_PRELOAD", None)
        cmd = {"python": "/usr/bin/python3 %s/shop.py", "lua": "lua5.4 %s/shop.lua",
               "node": "node %s/shop.js"}[lang] % self.dir
        if pre:
            cmd = "env LD_PRELOAD=%s %s" % (pre, cmd)
        r = subprocess.run([DTRACE, "-Z", "-q", "-s", os.path.join(self.dir, script), "-c", cmd],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=120, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def expected_orders(self, n=30):
        want = {}
        for i in range(n):
            item, cents = self.ITEMS[i % 3]
            qty = i % 4 + 1
            o, q, c, s = want.get(item, (0, 0, 0, 0))
            want[item] = (o + 1, q + qty, c + cents * qty, s + (qty if i % 2 == 0 else 0))
        return want

    def check_orders(self, lang):
        out = self.traced("orders.d", lang)
        got = {m[0]: tuple(map(int, m[1:])) for m in
               re.findall(r"^(\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.M)}
        self.assertEqual(got, self.expected_orders(), out)

    def check_hottest(self, lang, ext):
        out = self.traced("hottest_%s.d" % lang, lang)
        calls = {(f, loc): int(n) for n, f, loc in
                 re.findall(r"^\s+(\d+)  (\w+) \((shop\.%s:\d+)\)$" % ext, out, re.M)}
        byname = {f: n for (f, _), n in calls.items()}
        self.assertEqual({f: byname.get(f) for f in ("place", "price", "ship", "main")},
                         {"place": 30, "price": 30, "ship": 15, "main": 1}, out)

    def test_python_orders(self):
        self.check_orders("python")

    def test_lua_orders(self):
        self.check_orders("lua")

    def test_python_hottest(self):
        self.check_hottest("python", "py")

    def test_lua_hottest(self):
        self.check_hottest("lua", "lua")

    def need_node(self):
        if os.environ.get("DTRACE_NODE"):
            return
        if tracelib.in_ci():
            self.fail("the Node binding was not built (CI=true: every test must run)")
        self.skipTest("the Node binding was not built")

    def test_node_orders(self):
        self.need_node()
        self.check_orders("node")

    def test_node_hottest(self):
        self.need_node()
        self.check_hottest("node", "js")


if __name__ == "__main__":
    unittest.main()
