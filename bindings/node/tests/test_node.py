"""The Node binding's providers, traced for real by our dtrace.

A child node declares a provider with the addon, waits (sleeping in
Atomics.wait) until a tracer has enabled its probes, fires known values and
exits; dtrace -c runs it and must print exactly those values and counts.
untraced.js checks, without a tracer, the lifecycle and the errors for bad
input.

Environment: DTRACE (our dtrace), NODE (the node to run), NODE_USDT (the
build tree's package, <build>/bindings/node), TRACELIB (tests/integration).
"""
import json
import os
import re
import struct
import subprocess
import sys
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("TRACELIB", os.path.join(HERE, "..", "..", "..", "tests",
                                                           "integration")))
import tracelib  # noqa: E402

DTRACE = os.environ.get("DTRACE", "dtrace")
NODE = os.environ.get("NODE", "node")

# The child's prologue: the package, and a wait (10 s at most) for a tracer.
PROLOGUE = textwrap.dedent("""\
    'use strict';
    const dtrace = require(process.env.NODE_USDT);
    const sleeper = new Int32Array(new SharedArrayBuffer(4));
    function waitFor(...probes) {
        const deadline = Date.now() + 10000;
        while (!probes.every((q) => q.enabled)) {
            if (Date.now() > deadline) {
                console.error('no tracer came');
                process.exit(3);
            }
            Atomics.wait(sleeper, 0, 0, 5);
        }
    }
    """)


def line_of(src, text):
    at = src.index(text)
    return src.count("\n", 0, at) + 1


# The node provider's probes, each printed with its arguments.
NODE_D = (
    'node$target:::net-server-connection, node$target:::net-stream-end, '
    'node$target:::http-server-response, node$target:::http-client-response '
    '{ printf("%s %d %s %d %d\\n", probename, arg0, copyinstr(arg1), arg2, arg3); } '
    'node$target:::http-server-request '
    '{ printf("%s %d %d %s %d %s %s %d %s\\n", probename, arg0, arg1, copyinstr(arg2), arg3, '
    'copyinstr(arg4), copyinstr(arg5), arg6, copyinstr(arg7)); } '
    'node$target:::http-client-request '
    '{ printf("%s %d %d %s %d %s %s %d\\n", probename, arg0, arg1, copyinstr(arg2), arg3, '
    'copyinstr(arg4), copyinstr(arg5), arg6); } '
    'node$target:::gc-start, node$target:::gc-done '
    '{ printf("%s %d %d %d %d\\n", probename, arg0, arg1, arg2, timestamp); }')

# The child's HTTP traffic: N requests, each on its own connection, then 3
# forced collections.  It prints what it saw from JS: the ports and fds.
NODE_TRAFFIC = """\
    const http = require('node:http');
    const dc = require('node:diagnostics_channel');
    const CHANNELS = ['net.server.socket', 'net.client.socket', 'http.server.request.start',
                      'http.server.response.finish', 'http.client.request.start',
                      'http.client.response.finish'];
    const N = 5;
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    async function until(what, cond) {
        const deadline = Date.now() + 20000;
        while (!cond()) {
            if (Date.now() > deadline) {
                console.log('timed out waiting for', what, dtrace.node.subscribed);
                process.exit(3);
            }
            await sleep(5);
        }
    }
    async function traffic() {
        const server = http.createServer((req, res) => {
            console.log('server', req.url, req.socket.remotePort, req.socket._handle.fd);
            res.end('hi');
        });
        await new Promise((r) => server.listen(0, '127.0.0.1', r));
        const port = server.address().port;
        console.log('port', port);
        for (let i = 0; i < N; i++) {
            await new Promise((resolve, reject) => {
                const req = http.request({ host: '127.0.0.1', port, path: `/p${i}`, agent: false,
                                           method: i % 2 ? 'POST' : 'GET',
                                           headers: { 'x-forwarded-for': `10.0.0.${i}` } },
                                         (res) => {
                    console.log('client', `/p${i}`, res.socket.localPort, res.socket._handle.fd);
                    // on: the response's end and the socket's close (after its 'finish')
                    let n = 0;
                    const both = () => ++n === 2 && resolve();
                    res.socket.on('close', both);
                    res.resume();
                    res.on('end', both);
                });
                req.on('error', reject);
                req.end();
            });
        }
        await new Promise((r) => server.close(r)); // its sockets closed, after their 'finish'
        // gc entries come in a later turn of the event loop: wait for ours
        const { PerformanceObserver } = require('node:perf_hooks');
        let forced = 0;
        const seen = new PerformanceObserver((list) => {
            forced += list.getEntries().filter((e) => e.detail.flags & 4).length;
        });
        seen.observe({ entryTypes: ['gc'] });
        for (let i = 0; i < 3; i++)
            global.gc();
        await until('the gc entries', () => forced === 3);
        seen.disconnect();
        await sleep(10);
    }
    """


class Traced(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())
        tmp = tracelib.TempDir("node-usdt-")
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.path

    def write(self, name, src):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(src)
        return path

    def run_traced(self, body, d, opts=(), timeout=120):
        """Run main.js (the prologue, then body) under dtrace -c; returns
        (dtrace's and the child's stdout, main.js's path and text)."""
        src = PROLOGUE + textwrap.dedent(body)
        main = self.write("main.js", src)
        # a sanitizer build preloads its runtime for the addon: the child
        # node needs it, our (statically sanitized) dtrace must not
        env = dict(os.environ)
        pre = env.pop("LD_PRELOAD", None)
        cmd = "%s --expose-gc %s" % (NODE, main)
        if pre:
            cmd = "env LD_PRELOAD=%s %s" % (pre, cmd)
        p = subprocess.run([DTRACE, "-Zq", *opts, "-n", d, "-c", cmd], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("drop", p.stderr)
        return p.stdout, main, src

    def test_typed_arguments_arrive_exactly(self):
        out, _, _ = self.run_traced(
            """\
            const p = new dtrace.Provider('nodeprov');
            const tick = p.probe('tick', 'int', 'string', 'float', 'uint8', 'json', 'int');
            const long = p.probe('long-string', 'string', 'string');
            p.enable();
            waitFor(tick, long);
            for (let i = 0; i < 100; i++)
                tick.fire(-i, `name${i}`, i / 4 - 10, 250 + (i % 6), { i, s: 'x"y' },
                          i % 2 ? -(2n ** 62n) - BigInt(i) : Number.MIN_SAFE_INTEGER + i);
            long.fire('é'.repeat(300), 'z'.repeat(1500));   // past the stack buffer
            """,
            'nodeprov$target:::tick { printf("%d %s %d %d %s %d\\n", arg0, copyinstr(arg1), '
            'arg2, arg3, copyinstr(arg4), arg5); } '
            'nodeprov$target:::long-string { printf("long %s %s\\n", copyinstr(arg0), '
            'copyinstr(arg1)); }', opts=("-x", "strsize=2048"))
        lines = [l for l in out.splitlines() if l]  # dtrace ends with a blank line
        self.assertEqual(len(lines), 101, out[-500:])
        # by i (arg0 is -i): the thread may move between CPUs, whose buffers
        # dtrace prints in turn
        longs = [l for l in lines if l.startswith("long ")]
        lines = sorted((l for l in lines if not l.startswith("long ")),
                       key=lambda l: -int(l.split(" ", 1)[0])) + longs
        for i, line in enumerate(lines[:100]):
            a0, a1, a2, a3, a4, a5 = line.split(" ")
            self.assertEqual(int(a0), -i)
            self.assertEqual(a1, "name%d" % i)
            self.assertEqual(struct.unpack("<d", struct.pack("<q", int(a2)))[0], i / 4 - 10)
            self.assertEqual(int(a3), 250 + i % 6)
            self.assertEqual(a4, '{"i":%d,"s":"x\\"y"}' % i)
            self.assertEqual(int(a5), -(2 ** 62) - i if i % 2 else -(2 ** 53 - 1) + i)
        self.assertEqual(lines[100], "long %s %s" % ("é" * 300, "z" * 1500))

    def test_probe_name_dashes_lazy_fire_and_watch(self):
        out, _, _ = self.run_traced(
            """\
            const p = new dtrace.Provider('nodeprov');
            const q = p.probe('query-start', 'int');
            const other = p.probe('other', 'int');
            p.enable();
            waitFor(q);
            const either = dtrace.watch(q, other);
            let calls = 0, seen = 0;
            for (let i = 0; i < 50; i++) {
                q.fireLazy(() => {
                    calls++;
                    return [7];
                });
                other.fireLazy(() => {
                    console.error('called while disabled');
                    process.exit(4);
                });
                seen += either() ? 1 : 0;
            }
            console.log('lazy calls', calls, 'watch', seen, 'other', other.enabled);
            """,
            'nodeprov$target:::query-start { @n = count(); @s = sum(arg0); } '
            'END { printa("count %@d sum %@d\\n", @n, @s); }')
        self.assertIn("lazy calls 50 watch 50 other false", out)
        self.assertIn("count 50 sum 350", out)

    def test_wrap_and_instrument_count_calls(self):
        lib = self.write("lib.js", textwrap.dedent("""\
            'use strict';
            exports.add = function add(a, b) {
                return a + b;
            };

            exports.fail = (why) => {
                throw new Error(why);
            };

            function twice(n) {
                return n * 2;
            }
            exports.twice = twice;
            exports.value = 42;
            """))
        # a module that instruments itself, and an ES module (its stack has file: URLs)
        selfish = self.write("selfish.js", textwrap.dedent("""\
            'use strict';
            exports.ping = function () {
                return 1;
            };
            require(process.env.NODE_USDT).instrument(module);
            """))
        esm = self.write("mod.mjs", textwrap.dedent("""\
            import { createRequire } from 'node:module';
            const dtrace = createRequire(import.meta.url)(process.env.NODE_USDT);
            export const esm = dtrace.wrap(function esm() {
                return 2;
            });
            """))
        srcs = {}
        for path in (lib, selfish, esm):
            with open(path) as f:
                srcs[path] = f.read()
        out, main, src = self.run_traced(
            """\
            (async () => {
                const lib = dtrace.instrument(require('./lib.js'));
                const { ping } = require('./selfish.js');
                const { esm } = await import('./mod.mjs');
                const square = dtrace.wrap(function square(x) {
                    return x * x;
                });
                const plus = dtrace.wrap((x) => x + 1, 'plus-one');
                const mine = new dtrace.Provider('nodemine');
                const custom = dtrace.wrap(function custom() {}, { provider: mine });
                mine.enable();
                const rt = dtrace.runtime(), rt2 = dtrace.runtime(mine);
                waitFor(rt.functionEntry, rt.functionReturn, rt2.functionEntry,
                        rt2.functionReturn);
                let total = 0;
                for (let i = 0; i < 30; i++) total += lib.add(i, 1);
                for (let i = 0; i < 20; i++) total += lib.twice(i);
                for (let i = 0; i < 5; i++) {
                    try {
                        lib.fail('x');
                    } catch {
                        total++;
                    }
                }
                for (let i = 0; i < 7; i++) total += square(i);
                for (let i = 0; i < 3; i++) total += plus(i);
                for (let i = 0; i < 4; i++) custom();
                for (let i = 0; i < 6; i++) total += ping() + esm();
                console.log('total', total, 'value', lib.value);
            })();
            """,
            'node_rt$target:::function-entry, node_rt$target:::function-return, '
            'nodemine$target:::function-entry, nodemine$target:::function-return '
            '{ @[probeprov, probename, copyinstr(arg0), copyinstr(arg1), arg2] = count(); } '
            'END { printa("%s %s %s %s %d %@d\\n", @); }')
        self.assertIn("total 965 value 42", out)
        want = {
            ("node_rt", "add", lib, line_of(srcs[lib], "function add(")): 30,
            ("node_rt", "fail", lib, line_of(srcs[lib], "(why) =>")): 5,
            ("node_rt", "twice", lib, line_of(srcs[lib], "function twice(")): 20,
            ("node_rt", "ping", selfish, line_of(srcs[selfish], "function () {")): 6,
            ("node_rt", "esm", esm, line_of(srcs[esm], "function esm(")): 6,
            ("node_rt", "square", main, line_of(src, "function square(")): 7,
            ("node_rt", "plus-one", main, line_of(src, "(x) => x + 1")): 3,
            ("nodemine", "custom", main, line_of(src, "function custom(")): 4,
        }
        got = {}
        for line in out.splitlines():
            m = re.fullmatch(r"([a-z_]+?)(\d+) (function-entry|function-return) (\S+) (\S+) "
                             r"(\d+) (\d+)", line)
            if m:
                got[m.group(1, 3, 4, 5) + (int(m.group(6)),)] = int(m.group(7))
        expect = {}
        for (prov, name, path, line), n in want.items():
            for probe in ("function-entry", "function-return"):
                expect[(prov, probe, name, path, line)] = n
        self.assertEqual(got, expect, out)

    def test_bad_values_throw_and_fire_nothing(self):
        out, _, _ = self.run_traced(
            """\
            const p = new dtrace.Provider('nodeprov');
            const e = p.probe('bad', 'int8', 'uint8', 'int', 'string', 'float', 'json');
            p.enable();
            waitFor(e);
            const circle = {};
            circle.self = circle;
            const tries = [
                () => e.fire(128, 0, 0, 's', 1, null),
                () => e.fire(-129, 0, 0, 's', 1, null),
                () => e.fire(0, -1, 0, 's', 1, null),
                () => e.fire(0, 256n, 0, 's', 1, null),
                () => e.fire(0, 0, 1.5, 's', 1, null),
                () => e.fire(0, 0, 2n ** 63n, 's', 1, null),
                () => e.fire(0, 0, 2 ** 63, 's', 1, null),
                () => e.fire(0, 0, NaN, 's', 1, null),
                () => e.fire(0, 0, '1', 's', 1, null),
                () => e.fire(0, 0, 0, 5, 1, null),
                () => e.fire(0, 0, 0, 's', 1n, null),
                () => e.fire(0, 0, 0, 's', 1, 10n),
                () => e.fire(0, 0, 0, 's', 1, circle),
                () => e.fire(0, 0, 0, 's', 1, { toJSON() { throw new Error('boom'); } }),
                () => e.fire(0, 0, 0, 's', 1),
                () => e.fireLazy(() => 5),
                () => e.fireLazy(() => [1]),
                () => e.fireLazy(() => { throw new SyntaxError('lazy boom'); }),
            ];
            for (const t of tries) {
                try {
                    t();
                    console.log('no error');
                } catch (err) {
                    console.log(JSON.stringify([err.name, err.code, err.message.split('\\n')[0]]));
                }
            }
            e.fire(-128, 255, -(2n ** 63n), 'ok', -0.5, [1, 'a']);
            e.fireLazy(() => [127, 0n, 2 ** 53, 'lazy', 0, { u: undefined }]);
            """,
            'nodeprov$target:::bad { printf("fired %d %d %d %s %d %s\\n", arg0, arg1, arg2, '
            'copyinstr(arg3), arg4, copyinstr(arg5)); }')
        errors = [json.loads(l) for l in out.splitlines() if l.startswith("[")]
        a = "argument %d of nodeprov:::bad: "
        want = [
            ["RangeError", "ERR_OUT_OF_RANGE", a % 1 + "not an integer in the range of int8"],
            ["RangeError", "ERR_OUT_OF_RANGE", a % 1 + "not an integer in the range of int8"],
            ["RangeError", "ERR_OUT_OF_RANGE", a % 2 + "not an integer in the range of uint8"],
            ["RangeError", "ERR_OUT_OF_RANGE", a % 2 + "not an integer in the range of uint8"],
            ["RangeError", "ERR_OUT_OF_RANGE", a % 3 + "not an integer in the range of int64"],
            ["RangeError", "ERR_OUT_OF_RANGE", a % 3 + "not an integer in the range of int64"],
            ["RangeError", "ERR_OUT_OF_RANGE", a % 3 + "not an integer in the range of int64"],
            ["RangeError", "ERR_OUT_OF_RANGE", a % 3 + "not an integer in the range of int64"],
            ["TypeError", "ERR_INVALID_ARG_TYPE",
             a % 3 + "expected a number or a bigint, got string"],
            ["TypeError", "ERR_INVALID_ARG_TYPE", a % 4 + "expected a string, got number"],
            ["TypeError", "ERR_INVALID_ARG_TYPE", a % 5 + "expected a number, got bigint"],
            ["TypeError", "ERR_INVALID_ARG_TYPE",
             a % 6 + "TypeError: Do not know how to serialize a BigInt"],
            ["TypeError", "ERR_INVALID_ARG_TYPE",
             a % 6 + "TypeError: Converting circular structure to JSON"],
            ["TypeError", "ERR_INVALID_ARG_TYPE", a % 6 + "Error: boom"],
            ["TypeError", "EUSDT_ARGCOUNT", "nodeprov:::bad takes 6 arguments (5 given)"],
            ["TypeError", "ERR_INVALID_RETURN_VALUE",
             "nodeprov:::bad: the function given to fireLazy() must return an array of the 6 "
             "arguments, not number"],
            ["TypeError", "EUSDT_ARGCOUNT", "nodeprov:::bad takes 6 arguments (1 given)"],
            ["SyntaxError", None, "lazy boom"],
        ]
        self.assertEqual(errors, want, out)
        self.assertNotIn("no error", out)
        # sorted: the thread may move between CPUs between the two fires, and
        # dtrace prints each CPU's buffer in turn
        fired = sorted(l for l in out.splitlines() if l.startswith("fired "))
        bits = struct.unpack("<q", struct.pack("<d", -0.5))[0]
        self.assertEqual(fired, sorted(["fired -128 255 %d ok %d [1,\"a\"]" % (-2 ** 63, bits),
                                        "fired 127 0 %d lazy 0 {}" % 2 ** 53]), out)

    def test_no_leak_over_a_million_fires(self):
        out, _, _ = self.run_traced(
            """\
            const p = new dtrace.Provider('nodeprov');
            const tick = p.probe('tick', 'int', 'string', 'json');
            p.enable();
            waitFor(tick);
            const obj = { k: [1, 2, 3] }, long = 'y'.repeat(3000);
            for (let i = 0; i < 100000; i++)
                tick.fire(i, i % 8 ? `string ${i & 7}` : long, obj);
            global.gc();
            const before = process.memoryUsage().rss;
            for (let i = 0; i < 1000000; i++)
                tick.fire(i, i % 8 ? `string ${i & 7}` : long, obj);
            global.gc();
            console.log('grew', process.memoryUsage().rss - before);
            """,
            'nodeprov$target:::tick { @n = count(); } END { printa("fires %@d\\n", @n); }',
            timeout=300)
        self.assertIn("fires 1100000", out)
        grew = int(out.split("grew ")[1].split()[0])
        self.assertLess(grew, 2 << 20, "RSS grew by %d bytes" % grew)


    def test_attach_and_detach_seen_from_js(self):
        """A probe's enabled state is read in JS from the semaphore in the
        provider's image, which moves at each enable and rebuild: after
        enable, disable, enable and a probe added, dtrace -p attaching and
        detaching must still be seen by q.enabled, isEnabled() and watch(),
        and fire() must reach the tracer only in between."""
        src = PROLOGUE + textwrap.dedent("""\
            function until(what, cond) {
                const deadline = Date.now() + 20000;
                while (!cond()) {
                    if (Date.now() > deadline) {
                        console.log('timed out waiting to be', what);
                        process.exit(3);
                    }
                    Atomics.wait(sleeper, 0, 0, 5);
                }
            }
            const p = new dtrace.Provider('nodeflip');
            const q = p.probe('tick', 'int');
            const done = p.probe('done');
            const any = dtrace.watch(q);
            p.enable();
            p.disable();
            p.enable();
            const late = p.probe('late', 'int'); // the image is rebuilt
            q.fire(0); // not traced yet: nothing
            console.log('ready', q.enabled, late.enabled, any());
            until('attached', () => q.enabled && late.enabled && done.enabled);
            console.log('attached', q.isEnabled(), late.isEnabled(), any());
            q.fire(1);
            late.fire(2);
            done.fire();
            // dtrace detaches its probes one by one: wait for the three
            until('detached', () => !q.enabled && !late.enabled && !done.enabled);
            q.fire(3);
            console.log('detached', q.enabled, late.isEnabled(), any());
            """)
        main = self.write("main.js", src)
        env = dict(os.environ)
        pre = env.pop("LD_PRELOAD", None)
        child = subprocess.Popen(
            ([] if not pre else ["env", "LD_PRELOAD=" + pre]) + [NODE, main],
            env=env, stdout=subprocess.PIPE, text=True)
        self.addCleanup(child.wait)
        self.addCleanup(child.kill)
        self.assertEqual(child.stdout.readline(), "ready false false false\n")
        d = subprocess.run(
            [DTRACE, "-q", "-p", str(child.pid), "-n",
             'nodeflip$target:::tick, nodeflip$target:::late '
             '{ printf("%s %d\\n", probename, arg0); } '
             'nodeflip$target:::done { exit(0); }'],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        self.assertEqual(d.returncode, 0, d.stderr)
        self.assertEqual([l for l in d.stdout.splitlines() if l], ["tick 1", "late 2"])
        rest = child.stdout.read()
        self.assertEqual(child.wait(timeout=30), 0, rest)
        self.assertEqual(rest, "attached true true true\ndetached false false false\n")


    def test_node_provider_http_net_gc(self):
        """dtrace.node: Node's old probes, fed by diagnostics_channel and
        the gc performance entries while traced: exact counts and values."""
        out, _, _ = self.run_traced(NODE_TRAFFIC + textwrap.dedent("""\
            dtrace.node.start({ interval: 5 });
            (async () => {
                const all = Object.values(dtrace.node.probes);
                await until('the hooks', () => all.every((q) => q.enabled) &&
                                               dtrace.node.subscribed.length === 7);
                console.log('subscribed', CHANNELS.filter((c) => dc.channel(c).hasSubscribers)
                                                  .length);
                await traffic();
            })();
            """), NODE_D)
        lines = [l for l in out.splitlines() if l]
        self.assertIn("subscribed 6", lines)
        port = int(next(l for l in lines if l.startswith("port ")).split()[1])
        server = {}  # url -> (client's port, server's fd), as JS saw them
        client = {}  # url -> (client's local port, client's fd)
        for l in lines:
            f = l.split()
            if f[0] == "server":
                server[f[1]] = (int(f[2]), int(f[3]))
            elif f[0] == "client":
                client[f[1]] = (int(f[2]), int(f[3]))
        self.assertEqual(len(server), 5, out)
        got = {}
        for l in lines:
            f = l.split()
            got.setdefault(f[0], []).append(f[1:])
        want_sreq = sorted(["0", "0", "127.0.0.1", str(server[u][0]),
                            "POST" if i % 2 else "GET", u, str(server[u][1]), "10.0.0.%d" % i]
                           for i, u in ((i, "/p%d" % i) for i in range(5)))
        self.assertEqual(sorted(got.get("http-server-request", [])), want_sreq, out)
        self.assertEqual(sorted(got.get("http-server-response", [])),
                         sorted(["0", "127.0.0.1", str(server[u][0]), str(server[u][1])]
                                for u in server), out)
        self.assertEqual(sorted(got.get("net-server-connection", [])),
                         sorted(["0", "127.0.0.1", str(server[u][0]), str(server[u][1])]
                                for u in server), out)
        # the client's request: its socket may not be connected yet: the
        # host and port it asked for, fd -1 then
        creq = sorted(got.get("http-client-request", []), key=lambda r: r[5])
        self.assertEqual(len(creq), 5, out)
        for i, r in enumerate(creq):
            u = "/p%d" % i
            self.assertEqual(r[:3] + r[4:6], ["0", "0", "127.0.0.1", "POST" if i % 2 else "GET",
                                             u], out)
            self.assertEqual(int(r[3]), port, out)
            self.assertIn(int(r[6]), (-1, client[u][1]), out)
        self.assertEqual(sorted(got.get("http-client-response", [])),
                         sorted(["0", "127.0.0.1", str(port), str(client[u][1])]
                                for u in client), out)
        # both ends of each connection end their side once
        self.assertEqual(sorted(got.get("net-stream-end", [])),
                         sorted([["0", "127.0.0.1", str(server[u][0]), str(server[u][1])]
                                 for u in server] +
                                [["0", "127.0.0.1", str(port), str(client[u][1])]
                                 for u in client]), out)
        # gc: the three forced ones (flags & 4, kGCCallbackFlagForced) are
        # full collections (kind 4); the times are CLOCK_MONOTONIC, as D's
        # timestamp: before the fire, and not long before
        forced = [[int(x) for x in r] for r in got.get("gc-start", []) if int(r[1]) & 4]
        done = [[int(x) for x in r] for r in got.get("gc-done", []) if int(r[1]) & 4]
        self.assertEqual(len(forced), 3, out)
        self.assertEqual(len(done), 3, out)
        for s, d in zip(forced, done):
            self.assertEqual(s[0], 4, out)
            self.assertLessEqual(s[2], d[2])
            self.assertLessEqual(d[2], d[3])
            self.assertLess(d[3] - s[2], 5 * 10 ** 9)
        self.assertEqual(len(got.get("gc-start", [])), len(got.get("gc-done", [])), out)

    def test_node_provider_unhooks_when_the_tracer_goes(self):
        """Without a tracer nothing is subscribed; dtrace -p enabling one
        probe subscribes its channel only; when dtrace goes, nothing is."""
        src = PROLOGUE + textwrap.dedent(NODE_TRAFFIC) + textwrap.dedent("""\
            const state = () => CHANNELS.filter((c) => dc.channel(c).hasSubscribers).join(',')
                                + ' ' + dtrace.node.subscribed.join(',');
            dtrace.node.start({ interval: 5 });
            (async () => {
                await sleep(100);
                console.log('untraced [' + state() + ']');
                await until('the tracer', () => dtrace.node.subscribed.length > 0);
                console.log('traced [' + state() + ']');
                await traffic();
                await until('no tracer', () => dtrace.node.subscribed.length === 0);
                console.log('gone [' + state() + ']');
            })();
            """)
        main = self.write("main.js", src)
        env = dict(os.environ)
        pre = env.pop("LD_PRELOAD", None)
        child = subprocess.Popen(
            ([] if not pre else ["env", "LD_PRELOAD=" + pre]) + [NODE, "--expose-gc", main],
            env=env, stdout=subprocess.PIPE, text=True)
        self.addCleanup(child.wait)
        self.addCleanup(child.kill)
        self.addCleanup(child.stdout.close)
        self.assertEqual(child.stdout.readline(), "untraced [ ]\n")
        d = subprocess.run(
            [DTRACE, "-q", "-p", str(child.pid), "-n",
             'node$target:::http-server-request { n++; } '
             'node$target:::http-server-request /n == 5/ { printf("%d requests\\n", n); '
             'exit(0); }'],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        self.assertEqual(d.returncode, 0, d.stderr)
        self.assertEqual([l for l in d.stdout.splitlines() if l], ["5 requests"])
        rest = child.stdout.read()
        self.assertEqual(child.wait(timeout=30), 0, rest)
        lines = [l for l in rest.splitlines() if l.startswith(("traced", "gone"))]
        self.assertEqual(lines, ["traced [http.server.request.start http.server.request.start]",
                                 "gone [ ]"], rest)


class Untraced(unittest.TestCase):
    def test_lifecycle_and_errors(self):
        p = subprocess.run([NODE, "--expose-gc", os.path.join(HERE, "untraced.js")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"untraced ok \d+")


if __name__ == "__main__":
    unittest.main()
