"""The Node binding's Consumer (consumer.js, consumer.node), tracing for real.

Each test runs a node child with a script that uses dtrace.Consumer and
prints one JSON line of what it saw (BigInts as {"bigint": "..."}, Buffers
as {"buffer": [bytes]}); the assertions are here.  Needs root.

Environment: NODE (the node to run), NODE_USDT (<build>/bindings/node).
"""
import json
import os
import subprocess
import textwrap
import unittest

NODE = os.environ.get("NODE", "node")

PROLOGUE = textwrap.dedent("""\
    'use strict';
    const dtrace = require(process.env.NODE_USDT);
    const { Consumer, CompileError } = dtrace;
    function plain(v) {
        return JSON.parse(JSON.stringify(v, (k, x) => typeof x === 'bigint'
            ? { bigint: x.toString() } : x), (k, x) => x !== null && x.type === 'Buffer'
            && Array.isArray(x.data) ? { buffer: x.data } : x);
    }
    function out(v) { console.log(JSON.stringify(plain(v))); }
    function caught(f) {
        try { f(); } catch (e) {
            return { name: e.name, code: e.code, message: e.message,
                     isCompile: e instanceof CompileError };
        }
        return null;
    }
    async function main() {
    """)
EPILOGUE = "\n}\nmain().catch((e) => { console.error(e); process.exit(1); });\n"


def big(n):
    return {"bigint": str(n)}


class Consumer(unittest.TestCase):
    def run_js(self, body, timeout=120, stdout=None):
        src = PROLOGUE + textwrap.indent(textwrap.dedent(body), "    ") + EPILOGUE
        p = subprocess.run([NODE, "-e", src], capture_output=True, text=True, timeout=timeout)
        self.assertEqual(p.returncode, 0, p.stderr + p.stdout)
        lines = [l for l in p.stdout.splitlines() if l.startswith(("{", "["))]
        self.assertTrue(lines, p.stdout + p.stderr)
        if stdout is not None:
            stdout.extend(p.stdout.splitlines())
        return json.loads(lines[-1])

    def test_records_of_every_kind(self):
        stdout = []
        got = self.run_js(r"""
            const c = new Consumer(`struct s { int a; int b; };
                syscall::write:entry /pid == $target && !done/ {
                    done = 1;
                    trace((char)-1); trace((uint8_t)255); trace(-1LL << 63);
                    trace((uint64_t)-1); trace(9007199254740991); trace(9007199254740992);
                    trace("a\\xc3\\xa9b"); tracemem(copyin(arg1, 3), 3);
                    printf("%s|%d|%c\\n", execname, -5, 'x');
                    this->p = (struct s *)alloca(sizeof(struct s));
                    this->p->a = 7; this->p->b = -2; print(this->p);
                    ustack(3); usym(ucaller); umod(ucaller); stack(2);
                    @n = count(); printa(@n);
                }
                syscall::write:return /pid == $target/ { @rv[arg1] = count(); }`,
                { target: ['/bin/echo', 'hi'] });
            const recs = [];
            for await (const r of c)
                recs.push(r);
            out({ recs, pid: c.target, targetStatus: c.targetStatus, status: c.status,
                  rv: c.aggregations().rv });
            c.close();
            """, stdout=stdout)
        recs = got["recs"]
        self.assertEqual([r["type"] for r in recs], ["probe", "aggregation"], recs)
        rec, agg = recs
        self.assertEqual(rec["probe"], {"provider": "syscall", "module": "",
                                        "function": "write", "name": "entry"})
        self.assertIsInstance(rec["cpu"], int)
        self.assertGreater(rec["id"], 0)
        d = rec["data"]
        self.assertEqual(d[:10], [-1, 255, big(-2**63), big(2**64 - 1), 2**53 - 1, big(2**53),
                                  "a\u00e9b", {"buffer": list(b"hi\n")}, "echo|-5|x\n",
                                  {"type": "struct s", "address": d[9]["address"],
                                   "bytes": {"buffer": [7, 0, 0, 0, 254, 255, 255, 255]}}])
        ustack, usym, umod, kstack = d[10:]
        pid = got["pid"]
        self.assertEqual(ustack["pid"], pid)
        self.assertEqual(len(ustack["frames"]), 3)
        top = ustack["frames"][0]
        self.assertEqual((top["module"], top["symbol"]), ("libc.so.6", "write"))
        self.assertEqual(top["name"], "libc.so.6`write+0x%x" % top["offset"])
        self.assertEqual(usym["pid"], pid)
        self.assertIn("symbol", usym)
        self.assertEqual((umod["pid"], umod["module"], umod["name"]),
                         (pid, "libc.so.6", "libc.so.6"))
        self.assertNotIn("symbol", umod)
        self.assertNotIn("pid", kstack)  # the kernel's
        self.assertEqual(len(kstack["frames"]), 2)
        self.assertEqual(agg, {"type": "aggregation", "name": "n", "function": "count",
                               "keys": [], "value": 1})
        self.assertEqual(got["targetStatus"], 0)  # echo's wait status
        # the target writes to the consumer's stdout (node makes it close-on-exec)
        self.assertEqual(got["rv"], {"3": 1})
        self.assertIn("hi", stdout)
        self.assertEqual(got["status"], "stopped")

    def test_aggregations_tree_and_list(self):
        got = self.run_js(r"""
            const c = new Consumer(`BEGIN {
                @a["x", 1] = count(); @a["y", -2] = count(); @a["y", -2] = count();
                @s = sum(-5); @m[3] = max(9); @m[3] = max(4);
                @q = quantize(3); @q = quantize(0); @q = quantize(1000);
                @l = lquantize(25, 0, 20, 10); @l = lquantize(-1, 0, 20, 10);
                exit(3); }`);
            const recs = await c.run();
            out({ recs, list: c.aggregations('list'), exit: c.exitStatus, status: c.status,
                  bad: caught(() => c.aggregations('nested')) });
            c.close();
            """)
        self.assertEqual(got["recs"], {
            "a": {"x": {"1": 1}, "y": {"-2": 2}}, "s": -5, "m": {"3": 9},
            "q": [{"min": 0, "max": 0, "count": 1}, {"min": 2, "max": 3, "count": 1},
                  {"min": 512, "max": 1023, "count": 1}],
            "l": [{"max": -1, "count": 1}, {"min": 20, "count": 1}]})
        self.assertEqual(got["list"][:3], [
            {"name": "a", "function": "count", "keys": ["x", 1], "value": 1},
            {"name": "a", "function": "count", "keys": ["y", -2], "value": 2},
            {"name": "s", "function": "sum", "keys": [], "value": -5}])
        self.assertEqual([e["name"] for e in got["list"]], ["a", "a", "s", "m", "q", "l"])
        self.assertEqual((got["exit"], got["status"]), (3, "exited"))
        self.assertEqual(got["bad"]["name"], "TypeError")

    def test_drops_are_records_and_messages(self):
        # a record of 3 x 4 KB cannot fit an 8 KB buffer however fast it is read:
        # four such records are dropped, the small one is not
        got = self.run_js(r"""
            const c = new Consumer(`
                BEGIN { this->s = "x"; trace(this->s); trace(this->s); trace(this->s); }
                BEGIN { trace(1); }
                tick-10ms /++t <= 3/ { this->s = "x"; trace(this->s); trace(this->s);
                                       trace(this->s); }
                tick-10ms /t == 3/ { exit(0); }`,
                { options: { bufsize: '8k', strsize: 4096 } });
            const recs = [];
            for await (const r of c)
                recs.push(r);
            out({ recs, drops: c.drops, messages: c.messages });
            c.close();
            """)
        probes = [r for r in got["recs"] if r["type"] == "probe"]
        drops = [r for r in got["recs"] if r["type"] == "drop"]
        self.assertEqual([r["data"] for r in probes], [[1]])
        self.assertEqual(sum(d["count"] for d in drops), 4)
        self.assertEqual(drops, got["drops"])
        self.assertEqual(got["messages"], [d["message"] for d in drops])
        for d in drops:
            self.assertEqual(d["kind"], "principal")
            self.assertIsInstance(d["cpu"], int)
            self.assertEqual(d["message"], "%d drop%s on CPU %d" % (
                d["count"], "s" if d["count"] > 1 else "", d["cpu"]))

    def test_faults_are_records_and_messages(self):
        got = self.run_js(r"""
            const c = new Consumer(`
                BEGIN / *(int *)16 == 0 / { trace(1); }
                BEGIN { this->z = 0; trace(2); trace(1 / this->z); }
                BEGIN { exit(0); }`);
            const recs = [];
            for await (const r of c)
                recs.push(r);
            out({ recs, errors: c.errors, messages: c.messages });
            c.close();
            """)
        errs = got["errors"]
        self.assertEqual(got["recs"], errs)  # errors come as records, no data records
        self.assertEqual([(e["epid"], e["probe"]["name"], e["fault"], e.get("address"))
                          for e in errs],
                         [(1, "BEGIN", "invalid address", 16), (2, "BEGIN", "divide-by-zero",
                                                               None)])
        self.assertEqual(errs[0]["action"], 0)
        self.assertGreater(errs[1]["action"], 0)
        self.assertIn("invalid address (0x10) in predicate", got["messages"][0])
        self.assertIn("divide-by-zero in action #%d" % errs[1]["action"], got["messages"][1])

    def test_a_target_ends_tracing_with_its_status(self):
        got = self.run_js(r"""
            const c = new Consumer(
                'syscall::exit_group:entry /pid == $target/ { @n = count(); trace(arg0); }',
                { target: ['/bin/sh', '-c', 'for i in 1 2 3 4 5; do :; done; exit 3'],
                  options: { switchrate: '50ms' } });
            const before = c.target;
            const data = [];
            for await (const r of c)
                data.push(r.data);
            out({ before, data, targetStatus: c.targetStatus, aggs: c.aggregations() });
            c.close();
            """)
        self.assertGreater(got["before"], 0)
        self.assertEqual(got["targetStatus"], 3 << 8)  # a wait status: exited 3
        self.assertEqual(got["data"], [[3]])  # its exit, read before tracing ends
        self.assertEqual(got["aggs"], {"n": 1})

    def test_macro_arguments_and_grab(self):
        got = self.run_js(r"""
            const c = new Consumer('BEGIN { trace($1 + 1); trace($$2); exit(0); }',
                                   { args: [41, 'x'] });
            const data = [];
            for await (const r of c)
                data.push(r.data);
            c.close();
            // a grabbed process: a shell that makes system calls until killed
            const child = require('node:child_process').spawn(
                '/bin/sh', ['-c', 'while :; do sleep 0.05; done'], { stdio: 'ignore' });
            await new Promise((r) => setTimeout(r, 200));
            const g = new Consumer('syscall:::entry /pid == $target/ { trace(pid); exit(0); }',
                                   { target: child.pid });
            const grabbed = [];
            for await (const r of g)
                grabbed.push(r.data);
            const target = g.target;
            g.close();
            child.kill();
            out({ data, grabbed, target, pid: child.pid });
            """)
        self.assertEqual(got["data"], [[42, "x"]])
        self.assertEqual(got["target"], got["pid"])
        self.assertEqual(got["grabbed"], [[got["pid"]]])

    def test_errors_are_clear(self):
        got = self.run_js(r"""
            const r = {};
            r.compile = caught(() => new Consumer('BEGIN\n{ x = ; }'));
            try { new Consumer('BEGIN\n{ x = ; }'); } catch (e) {
                r.fields = [e.tag, e.file, e.line, e.column, e.source, e.diagnostic]; }
            r.option = caught(() => new Consumer('BEGIN {}', { options: { nosuch: 1 } }));
            r.optionType = caught(() => new Consumer('BEGIN {}', { options: { bufsize: {} } }));
            r.oformat = caught(() => new Consumer('BEGIN {}', { options: { oformat: 'text' } }));
            r.spawn = caught(() => new Consumer('BEGIN {}', { target: ['/nonexistent/x'] }));
            r.target = caught(() => new Consumer('BEGIN {}', { target: 'ls' }));
            r.emptyArgv = caught(() => new Consumer('BEGIN {}', { target: [] }));
            r.key = caught(() => new Consumer('BEGIN {}', { bufsize: '4m' }));
            r.args = caught(() => new Consumer('BEGIN {}', { args: 'x' }));
            r.argType = caught(() => new Consumer('BEGIN {}', { args: [{}] }));
            r.program = caught(() => new Consumer(42));
            r.exec = caught(() => new Consumer('nosuchprovider:::x {}'));
            r.nul = caught(() => new Consumer('BEGIN {}\0'));
            r.zdefs = new Consumer('nosuch:::x {}', { zdefs: true }).compile('BEGIN {}');
            r.text = caught(() => new Consumer('#pragma D option oformat=text\nBEGIN { exit(0); }').go());
            const c = new Consumer('BEGIN { exit(0); }');
            c.close();
            c.close();
            r.closedAgg = caught(() => c.aggregations());
            r.closedGo = caught(() => c.go());
            try { for await (const x of c) ; r.closedIter = null; } catch (e) {
                r.closedIter = e.code; }
            r.ctor = caught(() => dtrace.Consumer.prototype.compile.call({ _h: {} }, 1));
            const Handle = require(process.env.NODE_USDT + '/consumer.node').Handle;
            r.noNew = caught(() => Handle());
            r.notHandle = caught(() => Handle.prototype.setopt.call({}, 'quiet'));
            r.notHandleClose = caught(() => Handle.prototype.close.call({}));
            out(r);
            """)
        self.assertEqual(got["compile"]["name"], "CompileError")
        self.assertTrue(got["compile"]["isCompile"])
        self.assertEqual(got["compile"]["message"],
                         '<program>:2:7: D_SYNTAX: syntax error near ";"\n{ x = ; }\n      ^')
        self.assertEqual(got["fields"], ["D_SYNTAX", "<program>", 2, 7, "{ x = ; }",
                                         'syntax error near ";"'])
        self.assertRegex(got["option"]["message"], "^option nosuch: ")
        self.assertEqual(got["optionType"]["name"], "TypeError")
        self.assertRegex(got["oformat"]["message"], "oformat")
        self.assertRegex(got["spawn"]["message"], "^spawn: .*No such file")
        for k in ("target", "key", "args", "argType", "program", "ctor"):
            self.assertEqual(got[k]["name"], "TypeError", k)
        self.assertRegex(got["emptyArgv"]["message"], "empty")
        self.assertEqual(got["noNew"]["code"], "ERR_ILLEGAL_CONSTRUCTOR")
        for k in ("notHandle", "notHandleClose"):  # V8's "Illegal invocation"
            self.assertEqual(got[k]["name"], "TypeError", k)
        self.assertRegex(got["exec"]["message"], "^exec: ")
        self.assertRegex(got["nul"]["message"], "NUL")
        self.assertEqual(got["zdefs"], 1)
        self.assertRegex(got["text"]["message"], "oformat=text")
        for k in ("closedAgg", "closedGo"):
            self.assertEqual(got[k]["code"], "ERR_DTRACE_CLOSED", k)
        self.assertEqual(got["closedIter"], "ERR_DTRACE_CLOSED")

    def test_the_event_loop_stays_live(self):
        # switchrate 2s: each wait for data sleeps up to 2 s in libdtrace, on
        # the thread pool; a 10 ms timer must keep firing meanwhile
        got = self.run_js(r"""
            const c = new Consumer('tick-1500ms { exit(0); }', { options: { switchrate: '2s' } });
            let ticks = 0;
            const iv = setInterval(() => ticks++, 10);
            const t0 = Date.now();
            const recs = [];
            for await (const r of c)
                recs.push(r);
            clearInterval(iv);
            out({ ticks, ms: Date.now() - t0, recs, exit: c.exitStatus });
            c.close();
            """)
        self.assertEqual((got["recs"], got["exit"]), ([], 0))
        self.assertGreaterEqual(got["ms"], 1400)
        self.assertGreater(got["ticks"], got["ms"] / 10 / 3)  # a third of them, on a loaded machine

    def test_close_while_iterating(self):
        got = self.run_js(r"""
            // close() inside the loop: the loop ends; nothing after works
            const c = new Consumer('tick-10ms { trace(i++); }', { options: { switchrate: '10ms' } });
            const seen = [];
            for await (const r of c) {
                seen.push(r.data[0]);
                if (seen.length === 5)
                    c.close();
            }
            // close() while a read waits on the thread pool (nothing comes for 2 s)
            const d = new Consumer('tick-60s { trace(1); }', { options: { switchrate: '2s' } });
            const t0 = Date.now();
            setTimeout(() => d.close(), 300);
            let n = 0;
            for await (const r of d)
                n++;
            const closeMs = Date.now() - t0;
            // stop() while a read waits: END fires and its record comes, at once
            const s = new Consumer('tick-60s { trace(1); } END { trace(9); }',
                                   { options: { switchrate: '2s' } });
            const t1 = Date.now();
            setTimeout(() => s.stop(), 300);
            const ended = [];
            for await (const r of s)
                ended.push(r.data);
            const stopMs = Date.now() - t1, stopStatus = s.status;
            s.close();
            // break, then records() again: nothing is lost
            const e = new Consumer('BEGIN { trace(1); } BEGIN { trace(2); } BEGIN { trace(3); }'
                                   + ' BEGIN { exit(0); }');
            const got = [];
            for await (const r of e) { got.push(r.data[0]); break; }
            for await (const r of e) got.push(r.data[0]);
            e.close();
            out({ seen, n, ms: closeMs, closed: caught(() => c.aggregations()),
                  got, ended, stopMs, stopStatus });
            """)
        self.assertEqual(got["seen"], [0, 1, 2, 3, 4])  # none after close()
        self.assertEqual(got["n"], 0)
        self.assertLess(got["ms"], 2900)  # the wait in flight, not more
        self.assertEqual(got["closed"]["code"], "ERR_DTRACE_CLOSED")
        self.assertEqual(got["got"], [1, 2, 3])
        self.assertEqual((got["ended"], got["stopStatus"]), ([[9]], "stopped"))
        self.assertLess(got["stopMs"], 2900)


if __name__ == "__main__":
    unittest.main()
