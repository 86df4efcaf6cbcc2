'use strict';
/*
 * The binding without a tracer: lifecycle, errors for bad input, and that a
 * disabled probe looks at nothing.  Run by test_node.py (node --expose-gc);
 * prints "untraced ok N", N the errors checked.
 */
const assert = require('node:assert');
const fs = require('node:fs');
const dtrace = require(process.env.NODE_USDT);
const { Provider, Probe } = dtrace;

let checks = 0;
function throws(fn, type, code, re) {
  assert.throws(fn, (e) => {
    assert.strictEqual(e.constructor, type, `${e.name}: ${e.message}`);
    assert.strictEqual(e.code, code, `${e.code}: ${e.message}`);
    assert.match(e.message, re);
    return true;
  });
  checks++;
}

function lifecycle() {
  const p = new Provider('nodeidle');
  const q = p.probe('q-1', 'int');
  assert.ok(q instanceof Probe);
  assert.strictEqual(q.name, 'q-1');
  assert.strictEqual(q.provider, p);
  assert.strictEqual(p.name, 'nodeidle');
  assert.strictEqual(p.enabled, false);
  assert.strictEqual(p.path, null);
  assert.strictEqual(p.enable(), p);
  assert.strictEqual(p.enabled, true);
  assert.ok(fs.existsSync(p.path), p.path);
  assert.strictEqual(q.enabled, false);
  assert.strictEqual(q.isEnabled(), false);
  assert.strictEqual(dtrace.watch(q)(), false);
  assert.deepStrictEqual(Object.keys(q), ['name', 'provider']);
  q.fire(Symbol('not even looked at')); // nothing is converted while disabled
  q.fireLazy(() => assert.fail('called while disabled'));
  const path = p.path;
  assert.strictEqual(p.disable(), p);
  assert.ok(!fs.existsSync(path));
  p.enable();
  p.destroy();
  p.destroy(); // idempotent
  assert.strictEqual(p.destroyed, true);
  assert.strictEqual(p.enabled, false);
  assert.strictEqual(p.path, null);
  assert.ok(!fs.existsSync(path));
  q.fire(1); // a destroyed provider's probe does nothing
  throws(() => p.enable(), Error, 'EUSDT_DESTROYED', /^nodeidle: .*destroyed/);
  throws(() => p.probe('r'), Error, 'EUSDT_DESTROYED', /destroyed/);
  const fire = q.fire; // a method taken off its probe
  fire(2);
  const d = new Provider('nodedispose');
  d[Symbol.dispose]();
  assert.strictEqual(d.destroyed, true);
}

function errors() {
  throws(() => new Provider('no spaces'), Error, 'EUSDT_BADNAME', /^Provider: invalid/);
  throws(() => new Provider(3), TypeError, 'ERR_INVALID_ARG_TYPE',
         /name must be a string, not number/);
  throws(() => new Provider(), TypeError, 'ERR_INVALID_ARG_TYPE', /not missing/);
  throws(() => new Provider('m', 5), TypeError, 'ERR_INVALID_ARG_TYPE', /module must be a string/);
  throws(() => Provider('x'), TypeError, 'ERR_CONSTRUCT_CALL_REQUIRED', /with new/);
  throws(() => new Probe(), TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', /provider\.probe/);
  assert.throws(() => new Provider('x'.repeat(64)), { code: 'EUSDT_BADNAME', errno: 2000 });

  const p = new Provider('nodeerr', 'errmod');
  throws(() => p.probe('x', 'int', 'float32'), TypeError, 'ERR_INVALID_ARG_TYPE',
         /^probe x: argument type 2: 'float32' is not one of int, string, float, json, /);
  throws(() => p.probe('x', Number), TypeError, 'ERR_INVALID_ARG_TYPE',
         /argument type 1: 'function Number/);
  throws(() => p.probe('x', ...Array(13).fill('int')), RangeError, 'EUSDT_TOOMANYARGS',
         /^probe x: a probe takes at most 12 arguments$/);
  // more arguments than the addon's argument array holds (14)
  throws(() => p.probe('x', ...Array(40).fill('int'), { function: 'f' }), RangeError,
         'EUSDT_TOOMANYARGS', /at most 12 arguments/);
  throws(() => p.probe(), TypeError, 'ERR_INVALID_ARG_TYPE', /name must be a string/);
  throws(() => p.probe('bad name', 'int'), Error, 'EUSDT_BADNAME',
         /^probe: invalid probe function or name/);
  throws(() => p.probe('x', { function: 7 }), TypeError, 'ERR_INVALID_ARG_TYPE',
         /options\.function/);
  const q = p.probe('q', 'int', 'string', { function: 'fn' });
  assert.strictEqual(p.probe(...['all', ...Array(12).fill('json')]).name, 'all');
  throws(() => p.probe('q', 'int'), Error, 'EUSDT_DUPLICATE', /^probe: .*q/);
  // the count is checked even while disabled; the values only when enabled
  throws(() => q.fire(1), TypeError, 'EUSDT_ARGCOUNT',
         /^nodeerr:::q takes 2 arguments \(1 given\)$/);
  throws(() => q.fire(1, 'a', 3), TypeError, 'EUSDT_ARGCOUNT', /\(3 given\)/);
  q.fire('wrong', 'types');
  throws(() => q.fireLazy(3), TypeError, 'ERR_INVALID_ARG_TYPE',
         /^nodeerr:::q: fireLazy\(\) takes a function/);
  throws(() => q.fireLazy(), TypeError, 'ERR_INVALID_ARG_TYPE', /takes a function/);
  throws(() => Object.getOwnPropertyDescriptor(Provider.prototype, 'path').get.call(q),
         TypeError, 'ERR_INVALID_THIS', /Provider method/);
  throws(() => dtrace.watch(q, {}), TypeError, 'ERR_INVALID_ARG_TYPE', /watch\(\) takes Probes/);
  throws(() => dtrace.wrap(3), TypeError, undefined, /fn must be a function, not number/);
  throws(() => dtrace.wrap(() => 0, 5), TypeError, undefined, /name must be a string/);
  throws(() => dtrace.wrap(() => 0, { file: 'f.js', line: 'x' }), RangeError, undefined,
         /options.line must be an int32, not x/);
  throws(() => dtrace.wrap(() => 0, { file: 'f.js', line: 2 ** 40 }), RangeError, undefined,
         /options.line must be an int32/);
  throws(() => dtrace.wrap(() => 0, { provider: 5 }), TypeError, undefined, /a name or a Provider/);
  throws(() => dtrace.instrument(null), TypeError, undefined, /not null/);
  p.destroy();
}

/* A provider nobody holds is destroyed by the garbage collector: its image goes. */
async function collected() {
  let p = new Provider('nodegc');
  p.probe('q', 'int');
  const path = p.enable().path;
  p = null;
  for (let i = 0; i < 50 && fs.existsSync(path); i++) {
    global.gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.ok(!fs.existsSync(path), `${path} is still there`);
  // a method outlives its probe: the state they share goes with the last of them
  // (made in a function: a suspended async function may keep stale registers)
  const { fire, fireLazy, gone } = (() => {
    const probe = new Provider('nodekeep').probe('q', 'int');
    return { fire: probe.fire, fireLazy: probe.fireLazy, gone: new WeakRef(probe) };
  })();
  const tick = () => new Promise((r) => setTimeout(r, 10));
  let freed = false;
  for (let i = 0; i < 50 && !freed; i++) {
    await tick(); // deref() keeps its target alive until the end of the job
    global.gc();
    await tick();
    freed = gone.deref() === undefined;
  }
  assert.ok(freed, 'the probe was not collected');
  throws(() => fire(1, 2), TypeError, 'EUSDT_ARGCOUNT',
         /^nodekeep:::q takes 1 argument \(2 given\)$/);
  throws(() => fireLazy(0), TypeError, 'ERR_INVALID_ARG_TYPE', /^nodekeep:::q: fireLazy/);
}

/*
 * The probes' JS methods read the semaphore through a view of the
 * provider's image, which moves at enable, disable, rebuild and destroy:
 * many of those, with collections between, crash nothing, and a disabled
 * probe stays disabled (a stale view reading another image's word would
 * only reach the native fire, which looks at its own probe).
 */
async function views() {
  const p = new Provider('nodeviews');
  const qs = [p.probe('a', 'int')];
  const w = dtrace.watch(qs[0]);
  for (let i = 0; i < 200; i++) {
    p.enable();
    if (i % 20 === 0) // rebuilt while enabled
      qs.push(p.probe(`b${i}`, 'int'));
    for (const q of qs) {
      assert.strictEqual(q.enabled, false);
      q.fire(Symbol('not looked at'));
    }
    p.disable();
    if (i % 50 === 0)
      global.gc();
  }
  assert.strictEqual(w(), false);
  p.enable();
  p.destroy();
  // after destroy: nothing fires, nothing is called, nothing throws but the count
  for (const q of qs) {
    assert.strictEqual(q.isEnabled(), false);
    q.fire(1);
    q.fireLazy(() => assert.fail('called after destroy'));
  }
  throws(() => qs[0].fire(), TypeError, 'EUSDT_ARGCOUNT', /^nodeviews:::a takes 1 argument/);
  assert.strictEqual(w(), false);
  // an enabled provider collected while a method of its probe lives on
  const { fire, isEnabled } = (() => {
    const q = new Provider('nodelost').enable().probe('q', 'int');
    return { fire: q.fire, isEnabled: q.isEnabled };
  })();
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 10));
    global.gc();
  }
  assert.strictEqual(isEnabled(), false);
  fire(7);
  checks++;
}

/* wrap and instrument keep what callers see: results, this, new, names, throws. */
function wrappers() {
  const obj = {
    k: 3,
    get(x) {
      return this.k * x;
    },
    boom() {
      throw new RangeError('boom');
    },
    Cls: class {},
    v: 1,
  };
  assert.strictEqual(dtrace.instrument(obj), obj);
  assert.strictEqual(obj.get(2), 6);
  assert.strictEqual(obj.get.name, 'get');
  assert.throws(() => obj.boom(), RangeError);
  assert.strictEqual(obj.Cls.toString().startsWith('class'), true); // classes stay
  const again = obj.get;
  dtrace.instrument(obj); // no double wrapping
  assert.strictEqual(obj.get, again);
  function Point(x) {
    this.x = x;
  }
  const P = dtrace.wrap(Point, 'point');
  const pt = new P(4);
  assert.ok(pt instanceof Point && pt.x === 4);
  assert.strictEqual(dtrace.runtime(), dtrace.runtime());
  assert.strictEqual(dtrace.runtime().provider.name, 'node_rt');
}

/*
 * The node provider without a tracer: its probes exist, and nothing is
 * subscribed, also after the watcher thread has looked many times, while
 * the program makes HTTP requests and collects garbage.
 */
async function nodeProvider() {
  const dc = require('node:diagnostics_channel');
  const http = require('node:http');
  const channels = ['net.server.socket', 'net.client.socket', 'http.server.request.start',
                    'http.server.response.finish', 'http.client.request.start',
                    'http.client.response.finish'];
  const none = () => channels.filter((c) => dc.channel(c).hasSubscribers);
  throws(() => dtrace.node.start({ interval: 0 }), RangeError, undefined, /interval/);
  throws(() => dtrace.node.start({ interval: '5' }), RangeError, undefined, /interval/);
  assert.strictEqual(dtrace.node.probes, null);
  assert.strictEqual(dtrace.node.start({ interval: 2 }), dtrace.node);
  assert.strictEqual(dtrace.node.start(), dtrace.node); // idempotent
  const { provider, probes } = dtrace.node;
  assert.strictEqual(provider.name, 'node');
  assert.ok(fs.existsSync(provider.path), provider.path);
  assert.deepStrictEqual(Object.keys(probes).sort(), [
    'gc-done', 'gc-start', 'http-client-request', 'http-client-response',
    'http-server-request', 'http-server-response', 'net-server-connection', 'net-stream-end']);
  const server = http.createServer((req, res) => res.end('ok'));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.address().port, agent: false }, (res) => {
        res.resume();
        res.on('end', resolve);
      }).on('error', reject);
    });
    global.gc();
  }
  server.close();
  await new Promise((r) => setTimeout(r, 50)); // 25 looks of the watcher
  assert.deepStrictEqual(dtrace.node.subscribed, []);
  assert.deepStrictEqual(none(), []);
  checks++;
  const path = provider.path;
  dtrace.node.stop();
  dtrace.node.stop(); // idempotent
  assert.strictEqual(provider.destroyed, true);
  assert.ok(!fs.existsSync(path));
  assert.strictEqual(dtrace.node.provider, null);
  dtrace.node.start().stop(); // again

  // the addon's watcher, misused
  const { watchThread } = require(`${process.env.NODE_USDT}/usdt.node`);
  const p = new Provider('nodewatch');
  const q = p.probe('q');
  const noop = () => {};
  throws(() => watchThread(q, 5, noop), TypeError, 'ERR_INVALID_ARG_TYPE', /an array of Probes/);
  throws(() => watchThread([q], 5), TypeError, 'ERR_INVALID_ARG_TYPE', /an array of Probes/);
  throws(() => watchThread([], 5, noop), RangeError, 'ERR_OUT_OF_RANGE', /0 given/);
  throws(() => watchThread(new Array(17).fill(q), 5, noop), RangeError, 'ERR_OUT_OF_RANGE',
         /17 given/);
  throws(() => watchThread([q], 0.5, noop), RangeError, 'ERR_OUT_OF_RANGE', /interval/);
  throws(() => watchThread([q], NaN, noop), RangeError, 'ERR_OUT_OF_RANGE', /interval/);
  throws(() => watchThread([q, {}], 5, noop), TypeError, 'ERR_INVALID_ARG_TYPE', /takes Probes/);
  throws(() => watchThread([p], 5, noop), TypeError, 'ERR_INVALID_ARG_TYPE', /takes Probes/);
  const w = watchThread([q], 5, () => assert.fail('no tracer: no change to post'));
  throws(() => w.stop.call(p), TypeError, 'ERR_INVALID_THIS', /stop/);
  throws(() => w.stop.call({}), TypeError, 'ERR_INVALID_THIS', /stop/);
  await new Promise((r) => setTimeout(r, 30));
  w.stop();
  w.stop(); // idempotent
  p.destroy();
}

(async () => {
  lifecycle();
  errors();
  wrappers();
  await collected();
  await views();
  await nodeProvider();
  console.log(`untraced ok ${checks}`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
