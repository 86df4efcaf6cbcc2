'use strict';
/*
 * dtrace.Consumer: compile and run D programs from Node, records as JS values.
 *
 *   const { Consumer } = require('dtrace-usdt');
 *   const c = new Consumer('syscall::write:entry /pid == $target/ { @[execname] = count(); }',
 *                          { target: ['ls', '/'], options: { bufsize: '4m' } });
 *   for await (const rec of c) console.log(rec.probe.name, rec.data);
 *   console.log(c.aggregations());
 *   c.close();
 *
 * The waiting and reading run off the main thread (consumer.node's async
 * work); the records are made into JS values on it.  See docs/node.md.
 */

const { Handle, C_CPP, C_ZDEFS } = load();

function load() {
  let missing;
  for (const p of ['./consumer.node', './build/bindings/node/consumer.node']) {
    try {
      return require(p);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND')
        throw e;
      missing ??= e;
    }
  }
  throw new Error('dtrace-usdt: consumer.node is not built: build the repository with cmake ' +
                  'and require <build>/bindings/node (docs/node.md)', { cause: missing });
}

/* A D program did not compile: tag ("D_SYNTAX"), file, line, column, source, diagnostic. */
class CompileError extends Error {
  constructor(e) {
    super(e.message);
    this.name = 'CompileError';
    this.code = 'ERR_DTRACE_COMPILE';
    for (const k of ['tag', 'file', 'line', 'column', 'source', 'diagnostic'])
      this[k] = e[k];
  }
}

const STATUS = ['none', 'okay', 'exited', 'stopped'];
const CONSTRUCTOR_KEYS = new Set(['target', 'options', 'args', 'quiet', 'zdefs', 'cpp']);

/* A key as a property name of the tree form. */
function keyName(k) {
  if (Buffer.isBuffer(k))
    return k.toString('latin1');
  if (k !== null && typeof k === 'object')
    return k.frames ? k.frames.map((f) => f.name).join('\n') : k.name;
  return String(k);
}

class Consumer {
  constructor(program, opts = {}) {
    if (program !== undefined && program !== null && typeof program !== 'string')
      throw new TypeError('Consumer(program, opts): program must be a string of D');
    if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
      throw new TypeError('Consumer(program, opts): opts must be an object');
    for (const k of Object.keys(opts))
      if (!CONSTRUCTOR_KEYS.has(k))
        throw new TypeError(`Consumer: unknown option '${k}' (options go in opts.options)`);
    const { target, options = {}, args = [], quiet = true, zdefs = false, cpp = false } = opts;
    if (!Array.isArray(args))
      throw new TypeError('Consumer: args (the macro arguments $1...) must be an array');
    if (options === null || typeof options !== 'object' || Array.isArray(options))
      throw new TypeError('Consumer: options must be an object of dtrace options');
    this._h = new Handle();
    this._flags = cpp ? C_CPP : 0;
    this._started = this._done = this._stopped = this._closed = false;
    this._iterating = false;
    this._stopPending = false;
    this._unread = [];
    this._error = null;
    this.errors = [];   // faults: {type: 'error', ...}
    this.drops = [];    // drops: {type: 'drop', kind, cpu, count, message}
    this.messages = []; // both, as dtrace(1) words them
    this.targetStatus = null; // the target's wait status once it exited
    try {
      if (quiet)
        this.setopt('quiet');
      if (zdefs)
        this.setopt('zdefs');
      for (const [k, v] of Object.entries(options))
        this.setopt(k, v);
      if (target !== undefined && target !== null) {
        if (Array.isArray(target))
          this._h.spawn(target.map(String));
        else if (Number.isInteger(target) && target > 0)
          this._h.grab(target);
        else
          throw new TypeError('Consumer: target must be an argv array to start, or a pid');
      }
      if (program !== undefined && program !== null)
        this.compile(program, ...args);
    } catch (e) {
      this.close(); // a spawned target is killed, not left stopped
      throw e;
    }
  }

  /* A dtrace option: true, undefined or null sets a switch, false nothing, an array each value. */
  setopt(name, value) {
    if (typeof name !== 'string')
      throw new TypeError('setopt(name, value): name must be a string');
    if (name === 'oformat')
      throw new Error('option oformat: a Consumer reads records, not output');
    if (Array.isArray(value)) {
      for (const v of value)
        this.setopt(name, v);
      return;
    }
    if (value === false)
      return;
    if (value === true || value === undefined || value === null)
      return this._h.setopt(name);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint')
      throw new TypeError(`option ${name}: a string, number, boolean or array, not ${typeof value}`);
    return this._h.setopt(name, String(value));
  }

  /* Compile and enable a D program (several may be, before tracing starts); returns the probes matched. */
  compile(program, ...args) {
    if (typeof program !== 'string')
      throw new TypeError('compile(program, ...args): program must be a string of D');
    for (const a of args)
      if (typeof a !== 'string' && typeof a !== 'number' && typeof a !== 'bigint')
        throw new TypeError('compile: a macro argument must be a string or a number');
    try {
      this._h.compile(program, args.map(String), this._flags);
    } catch (e) {
      throw e.code === 'ERR_DTRACE_COMPILE' ? new CompileError(e) : e;
    }
    return this._h.exec()[1];
  }

  /* The target's pid ($target), or 0. */
  get target() {
    return this._h.target();
  }

  /* Start tracing (BEGIN fires); a spawned or grabbed target runs. */
  go() {
    if (!this._started) {
      this._h.go(this._h.target() !== 0);
      this._started = true;
    }
  }

  _take(recs) {
    for (const r of recs) {
      if (r.type === 'error') {
        this.messages.push(r.message);
        if (r.action < 0) // the library's own action failed (system()): a message only
          continue;
        this.errors.push(r);
      } else if (r.type === 'drop') {
        this.messages.push(r.message);
        if (r.kind === 'fponly')
          continue;
        this.drops.push(r);
      }
      this._unread.push(r);
    }
  }

  /* One wait and read, off the main thread. */
  _poll(sleep) {
    return new Promise((resolve) => {
      this._h.work(sleep, (err, status, recs) => {
        if (this._h.state().closed) {
          this._done = true;
          return resolve();
        }
        if (this._stopPending) {
          this._stopPending = false;
          this._h.stop();
        }
        if (err)
          this._error = err;
        this._take(recs);
        if (status === 1) {
          this._done = true;
        } else if (status < 0) {
          this._done = true;
          this._error ??= this._h.error('processing aborted');
        }
        if (!this._done && !this._stopped && this.targetStatus === null) {
          const st = this._h.targetExited();
          if (st !== null) {
            this.targetStatus = st;
            this.stop();
          }
        }
        resolve();
      });
    });
  }

  _check() {
    if (this._closed)
      throw Object.assign(new Error('the dtrace consumer is closed'), { code: 'ERR_DTRACE_CLOSED' });
  }

  /*
   * Records until exit(), the target's exit, stop(), close(), or timeout ms
   * (then END fires and its records come last).  A loop left early (break,
   * an exception) loses nothing: the next records() gives the rest first.
   */
  async *records({ timeout } = {}) {
    this._check();
    if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout >= 0)))
      throw new TypeError('records({timeout}): timeout must be a number of ms');
    if (this._iterating)
      throw Object.assign(new Error('records(): this consumer is already being iterated'),
                          { code: 'ERR_DTRACE_BUSY' });
    this._iterating = true;
    try {
      const deadline = timeout === undefined ? null : Date.now() + timeout;
      const fresh = !this._started;
      this.go();
      let sleep = !fresh; // BEGIN's records are read at once
      for (;;) {
        while (this._unread.length > 0 && !this._closed)
          yield this._unread.shift();
        if (this._done || this._closed)
          break;
        if (deadline !== null && !this._stopped && Date.now() > deadline)
          this.stop();
        await this._poll(sleep);
        sleep = true;
      }
      if (this._error !== null) {
        const e = this._error;
        this._error = null;
        throw e;
      }
    } finally {
      this._iterating = false;
    }
  }

  [Symbol.asyncIterator]() {
    return this.records();
  }

  /* Trace to the end, calling fn(record) for each; resolves to aggregations(how). */
  async run(fn, { timeout, how } = {}) {
    if (fn !== undefined && fn !== null && typeof fn !== 'function')
      throw new TypeError('run(fn): fn must be a function');
    for await (const rec of this.records({ timeout }))
      if (fn)
        await fn(rec);
    return this._closed ? null : this.aggregations(how);
  }

  /* Stop tracing: END fires; its records come next. */
  stop() {
    this._check();
    if (this._started && !this._stopped) {
      this._stopped = true;
      // during a read libdtrace is busy on the thread pool: stop when it returns
      if (this._h.state().busy)
        this._stopPending = true;
      else
        this._h.stop();
    }
  }

  /*
   * A snapshot of the aggregations: 'tree' (default) {name: {key1: {key2: value}}},
   * an aggregation without keys its value; 'list' [{name, function, keys, value}] in
   * dtrace(1)'s order.
   */
  aggregations(how = 'tree') {
    this._check();
    if (how !== 'tree' && how !== 'list')
      throw new TypeError("aggregations(how): 'tree' or 'list'");
    if (!this._started)
      return how === 'list' ? [] : {};
    const list = this._h.aggregate();
    if (how === 'list')
      return list;
    const tree = {};
    for (const { name, keys, value } of list) {
      if (keys.length === 0) {
        tree[name] = value;
        continue;
      }
      let node = (tree[name] ??= {});
      for (let i = 0; i < keys.length - 1; i++)
        node = (node[keyName(keys[i])] ??= {});
      node[keyName(keys[keys.length - 1])] = value;
    }
    return tree;
  }

  /* exit()'s argument once the program called it, else null. */
  get exitStatus() {
    this._check();
    const [status, value] = this._h.status();
    return status === 2 ? value : null;
  }

  /* 'none', 'okay', 'exited' (exit() was called) or 'stopped'. */
  get status() {
    this._check();
    return STATUS[this._h.status()[0]] ?? 'unknown';
  }

  /*
   * Detach every probe and free the handle (idempotent); a target the
   * consumer started is killed, a grabbed one goes on.  During a read,
   * done when the read returns; an iteration then ends.
   */
  close() {
    if (this._closed)
      return;
    this._closed = true;
    this._h.close();
  }
}

if (typeof Symbol.asyncDispose === 'symbol') // `await using c = new Consumer(...)`
  Consumer.prototype[Symbol.asyncDispose] = async function () { this.close(); };
if (typeof Symbol.dispose === 'symbol')
  Consumer.prototype[Symbol.dispose] = function () { this.close(); };

module.exports = { Consumer, CompileError };
