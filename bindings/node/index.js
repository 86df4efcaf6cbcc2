'use strict';
/*
 * dtrace-usdt: stable USDT probes for Node programs (over libusdt).
 *
 *   const dtrace = require('dtrace-usdt');
 *   const p = new dtrace.Provider('myapp');            // module: the program's name
 *   const start = p.probe('query-start', 'string', 'int');
 *   const done = p.probe('query-done', 'int', 'json');
 *   p.enable();
 *
 *   start.fire('select 1', 3);                         // converts nothing while disabled
 *   done.fireLazy(() => [3, { rows: 2 }]);             // calls the arrow only when enabled
 *   if (start.enabled) ...                             // one load of the semaphore
 *
 *   dtrace.instrument(module);                         // node_rt:::function-entry/-return
 *   const f = dtrace.wrap(function work() {});         //   for these functions' calls
 *
 *   dtrace.node.start();                               // node:::http-server-request, gc-start...
 *
 * The addon (usdt.node, built by cmake) holds Provider and Probe; this file
 * adds the node_rt runtime provider, wrap() and instrument(), and the node
 * provider (Node's old probes, hooked only while traced).  See docs/node.md.
 */
const diagnostics = require('node:diagnostics_channel');
const fs = require('node:fs');
const Module = require('node:module');
const { PerformanceObserver, performance } = require('node:perf_hooks');
const { fileURLToPath } = require('node:url');

const { Provider, Probe, watch, watchThread } = load();

function load() {
  let missing;
  // next to this file in the build tree; ./build/... after the package's install script
  for (const p of ['./usdt.node', './build/bindings/node/usdt.node']) {
    try {
      return require(p);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND')
        throw e;
      missing ??= e;
    }
  }
  throw new Error('dtrace-usdt: usdt.node is not built: build the repository with cmake ' +
                  'and require <build>/bindings/node (docs/node.md)', { cause: missing });
}

if (typeof Symbol.dispose === 'symbol') // `using p = new Provider(...)` destroys it
  Provider.prototype[Symbol.dispose] = function () { this.destroy(); };

/* ------------------------------------------------------------ the runtime provider */

const byName = new Map(); // provider name -> runtime
const byProvider = new WeakMap(); // a caller's Provider -> runtime

/*
 * runtime([provider]): the function-entry and function-return probes
 * (name, file, line: char *, char *, int) that wrap() and instrument()
 * fire.  provider: a name (default 'node_rt'; created and enabled on first
 * use, module = the program's name) or a Provider of yours (the probes are
 * added to it).  Returns { provider, functionEntry, functionReturn,
 * isEnabled }, isEnabled() telling, in JS, whether a tracer has
 * either probe enabled.
 */
function runtime(provider = 'node_rt') {
  if (provider instanceof Provider) {
    let rt = byProvider.get(provider);
    if (rt === undefined)
      byProvider.set(provider, (rt = probes(provider)));
    return rt;
  }
  if (typeof provider !== 'string')
    throw new TypeError(`provider must be a name or a Provider, not ${typeof provider}`);
  let rt = byName.get(provider);
  if (rt === undefined) {
    rt = probes(new Provider(provider));
    rt.provider.enable();
    byName.set(provider, rt);
  }
  return rt;
}

function probes(provider) {
  const functionEntry = provider.probe('function-entry', 'string', 'string', 'int32');
  const functionReturn = provider.probe('function-return', 'string', 'string', 'int32');
  const isEnabled = watch(functionEntry, functionReturn);
  return Object.freeze({ provider, functionEntry, functionReturn, isEnabled });
}

/* ------------------------------------------------------------ wrap, instrument */

const wrappers = new WeakSet();

/*
 * The wrapper: while no tracer has function-entry or function-return
 * enabled, isEnabled() (two loads in JS) and the call of fn.  It fires
 * function-return when fn returns or throws (for an async function: when
 * it returns its promise).
 */
function traced(fn, name, { file, line }, rt) {
  const { functionEntry: entry, functionReturn: ret, isEnabled } = rt;
  function wrapper() {
    if (!isEnabled()) {
      return new.target === undefined ? Reflect.apply(fn, this, arguments)
                                      : Reflect.construct(fn, arguments, new.target);
    }
    entry.fire(name, file, line);
    try {
      return new.target === undefined ? Reflect.apply(fn, this, arguments)
                                      : Reflect.construct(fn, arguments, new.target);
    } finally {
      ret.fire(name, file, line);
    }
  }
  Object.defineProperties(wrapper, {
    name: { value: fn.name, configurable: true },
    length: { value: fn.length, configurable: true },
  });
  if (fn.prototype !== undefined)
    wrapper.prototype = fn.prototype;
  wrappers.add(wrapper);
  return wrapper;
}

/*
 * Where fn is defined.  Node has no API for a function's location without
 * the inspector, so this looks for fn's source text (Function.prototype.
 * toString gives it verbatim) in the candidate files: the first match wins.
 * Line 0 when it is not found (native, bound or generated functions).
 */
function locate(fn, files, sources) {
  const text = source(fn);
  for (const f of files) {
    if (!sources.has(f)) {
      let src = null;
      try {
        src = fs.readFileSync(f, 'utf8');
      } catch {
        // not a file: the REPL, -e, a vm script
      }
      sources.set(f, src);
    }
    const src = sources.get(f);
    const at = src && text ? src.indexOf(text) : -1;
    if (at >= 0) {
      let line = 1;
      for (let i = src.indexOf('\n'); i !== -1 && i < at; i = src.indexOf('\n', i + 1))
        line++;
      return { file: f, line };
    }
  }
  return { file: files[0] ?? '', line: 0 };
}

function source(fn) {
  try {
    return Function.prototype.toString.call(fn);
  } catch {
    return ''; // a revoked proxy
  }
}

/* The file of the code that called into this module (a path, also for ES modules). */
function callerFile() {
  const saved = Error.prepareStackTrace;
  Error.prepareStackTrace = (_, sites) => sites;
  try {
    for (const site of new Error().stack ?? []) {
      const f = site.getFileName();
      if (f && f !== __filename && !f.startsWith('node:'))
        return f.startsWith('file:') ? fileURLToPath(f) : f;
    }
  } finally {
    Error.prepareStackTrace = saved;
  }
  return undefined;
}

/*
 * wrap(fn[, name][, options]): a function that calls fn and fires
 * function-entry/function-return with name (default fn.name), and fn's
 * file and line.  options: provider (as for runtime()), file and line (the
 * location to report instead of looking for it in the caller's file).
 */
function wrap(fn, name, options) {
  if (typeof name === 'object' && name !== null)
    [name, options] = [undefined, name];
  if (typeof fn !== 'function')
    throw new TypeError(`wrap(fn[, name][, options]): fn must be a function, not ${typeof fn}`);
  if (name !== undefined && typeof name !== 'string')
    throw new TypeError(`wrap(fn[, name][, options]): name must be a string, not ${typeof name}`);
  const o = options ?? {};
  const line = o.line ?? 0;
  // checked now: a bad value found only when traced would change what fn's caller sees
  if (!Number.isInteger(line) || line < -(2 ** 31) || line >= 2 ** 31)
    throw new RangeError(`wrap(): options.line must be an int32, not ${String(line)}`);
  const where = o.file !== undefined ? { file: String(o.file), line }
                                     : locate(fn, [callerFile()].filter(Boolean), new Map());
  return traced(fn, name ?? (String(fn.name) || '(anonymous)'), where, runtime(o.provider));
}

/*
 * instrument(target[, options]): replace each function-valued own property
 * of target by its wrapper (named by the property), in place; returns
 * the object instrumented.  target: an object (a module's exports, a
 * class's prototype) or a CommonJS module (instrument(module): its exports).  Skipped: classes,
 * constructor, non-writable non-configurable properties, wrappers.  Callers
 * that hold the original functions (destructured before, or the module's
 * own internal calls) keep calling them untraced.  options: provider.
 */
function instrument(target, options) {
  let obj = target;
  let file;
  if (target instanceof Module) {
    obj = target.exports;
    file = target.filename;
  } else {
    file = Object.values(require.cache).find((m) => m.exports === target)?.filename;
  }
  if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function'))
    throw new TypeError('instrument(target): target must be an object or a module, not ' +
                        (obj === null ? 'null' : typeof obj));
  if (obj[Symbol.toStringTag] === 'Module')
    throw new TypeError('instrument(target): an ES module namespace is read-only; ' +
                        'instrument the object it exports, or wrap() its functions');
  const rt = runtime(options?.provider);
  const files = [file, callerFile()].filter(Boolean);
  const sources = new Map();
  for (const key of Object.getOwnPropertyNames(obj)) {
    const d = Object.getOwnPropertyDescriptor(obj, key);
    const fn = d.value;
    if (typeof fn !== 'function' || key === 'constructor' || wrappers.has(fn) ||
        !(d.writable || d.configurable) || /^class\b/.test(source(fn)))
      continue;
    const value = traced(fn, key, locate(fn, files, sources), rt);
    Object.defineProperty(obj, key, { ...d, value });
  }
  return obj;
}

/* ------------------------------------------------------------ Node's own provider: node */

/*
 * The probes Node had built in until 2022 (src/node_provider.d), fed by
 * diagnostics_channel and the 'gc' performance entries.  Their arguments
 * keep the old positions: arg0 and arg1 were pointers to Node's C structs
 * (read by node.d's translators); no such structs exist here, so they are
 * 0.  The rest is what the old probes passed (remote address, port,
 * method, url, fd), then what Node gives now that they did not have.
 */
const C = ['pointer', 'pointer']; // the old struct pointers: 0
const CONN = ['string', 'int32', 'int32']; // remote address, port, fd
const NODE_PROBES = {
  'net-server-connection': ['pointer', ...CONN],
  'net-stream-end': ['pointer', ...CONN],
  'http-server-request': [...C, 'string', 'int32', 'string', 'string', 'int32', 'string'],
  'http-server-response': ['pointer', ...CONN],
  'http-client-request': [...C, 'string', 'int32', 'string', 'string', 'int32'],
  'http-client-response': ['pointer', ...CONN],
  'gc-start': ['int32', 'int32', 'int64'], // kind, flags, when (CLOCK_MONOTONIC ns)
  'gc-done': ['int32', 'int32', 'int64'],
};

/* A socket's remote address, port and descriptor ('' and -1 when it has none). */
function peer(socket) {
  let address = '', port = 0, fd = -1;
  try {
    address = String(socket?.remoteAddress ?? '');
    port = socket?.remotePort ?? 0;
    fd = socket?._handle?.fd ?? -1;
  } catch {
    // a destroyed socket, a socket-like object of a library
  }
  return [address, toInt32(port), toInt32(fd)];
}

function toInt32(v) {
  return Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 ? v : -1;
}

function str(v) {
  return v === undefined || v === null ? '' : String(v);
}

/*
 * The hooks: which diagnostics_channel each probe needs (the gc probes
 * need the PerformanceObserver: 'gc').  A hook is in place exactly while
 * one of its probes is enabled.  A fire never throws into Node's code:
 * the values are made to fit the types first, and a failure is dropped.
 */
function hooks(p) {
  const fire = (probe, args) => {
    try {
      probe.fire(...args);
    } catch {
      // a value that did not fit: nothing fired, the program goes on
    }
  };
  const streamEnd = p['net-stream-end'];
  const onSocket = (probe) => ({ socket }) => {
    if (probe !== null && probe.enabled)
      fire(probe, [0, ...peer(socket)]);
    // Node's probe fired in Socket.prototype.end: here, at its 'finish'
    if (streamEnd.enabled && socket && typeof socket.once === 'function') {
      const [address, port] = peer(socket); // the handle may be gone by then
      socket.once('finish', () => {
        if (streamEnd.enabled) {
          const [a, q, fd] = peer(socket);
          fire(streamEnd, [0, a || address, q > 0 ? q : port, fd]);
        }
      });
    }
  };
  return [
    { channel: 'net.server.socket', probes: [p['net-server-connection'], streamEnd],
      fn: onSocket(p['net-server-connection']) },
    { channel: 'net.client.socket', probes: [streamEnd], fn: onSocket(null) },
    { channel: 'http.server.request.start', probes: [p['http-server-request']],
      fn({ request, socket }) {
        const [a, port, fd] = peer(socket ?? request?.socket);
        fire(p['http-server-request'], [0, 0, a, port, str(request?.method), str(request?.url),
                                        fd, str(request?.headers?.['x-forwarded-for'])]);
      } },
    { channel: 'http.server.response.finish', probes: [p['http-server-response']],
      fn({ request, response, socket }) {
        fire(p['http-server-response'], [0, ...peer(socket ?? response?.socket ??
                                                     request?.socket)]);
      } },
    { channel: 'http.client.request.start', probes: [p['http-client-request']],
      fn({ request }) {
        // the socket may not be connected yet: then the host and port asked for
        let [a, port, fd] = peer(request?.socket);
        if (a === '') {
          a = str(request?.host);
          const m = /:(\d+)$/.exec(str(request?.getHeader?.('host')));
          port = m ? toInt32(Number(m[1])) : request?.protocol === 'https:' ? 443 : 80;
        }
        fire(p['http-client-request'], [0, 0, a, port, str(request?.method),
                                        str(request?.path), fd]);
      } },
    { channel: 'http.client.response.finish', probes: [p['http-client-response']],
      fn({ request, response }) {
        fire(p['http-client-response'], [0, ...peer(response?.socket ?? request?.socket)]);
      } },
    { channel: 'gc', probes: [p['gc-start'], p['gc-done']], observer: null,
      fn(list) {
        // entries come after the GC: its times, moved to CLOCK_MONOTONIC (D's timestamp)
        const now = process.hrtime.bigint(), ms = performance.now();
        for (const e of list.getEntries()) {
          const kind = toInt32(e.detail?.kind ?? e.kind), flags = toInt32(e.detail?.flags ?? e.flags);
          const start = now - BigInt(Math.round((ms - e.startTime) * 1e6));
          fire(p['gc-start'], [kind, flags, start]);
          fire(p['gc-done'], [kind, flags, start + BigInt(Math.round(e.duration * 1e6))]);
        }
      } },
  ];
}

let nodeState = null; // { provider, probes, hooks, watcher }

/* Put in place the hooks whose probes are enabled, remove the others. */
function sync() {
  if (nodeState === null)
    return;
  for (const h of nodeState.hooks) {
    const want = h.probes.some((q) => q.enabled);
    if (want === h.on)
      continue;
    h.on = want;
    if (h.channel === 'gc') {
      if (want) {
        h.observer = new PerformanceObserver(h.fn);
        h.observer.observe({ entryTypes: ['gc'] });
      } else {
        h.observer.disconnect();
        h.observer = null;
      }
    } else if (want) {
      subscribe(h.channel, h.fn);
    } else {
      unsubscribe(h.channel, h.fn);
    }
  }
}

/* Node 16.17, 18.7 and later have subscribe(name, fn); before, the channel object's. */
function subscribe(name, fn) {
  if (typeof diagnostics.subscribe === 'function')
    diagnostics.subscribe(name, fn);
  else
    diagnostics.channel(name).subscribe(fn);
}

function unsubscribe(name, fn) {
  if (typeof diagnostics.unsubscribe === 'function')
    diagnostics.unsubscribe(name, fn);
  else
    diagnostics.channel(name).unsubscribe(fn);
}

/* The watcher's callback: a failure to hook is a warning, never the program's exception. */
function watched() {
  try {
    sync();
  } catch (e) {
    process.emitWarning(`dtrace-usdt: the node provider could not hook: ${e?.message ?? e}`);
  }
}

/* After stop: the provider is destroyed, so a 'finish' listener left on a socket fires nothing. */
function unhookAll() {
  for (const h of nodeState.hooks) {
    if (!h.on)
      continue;
    h.on = false;
    if (h.observer)
      h.observer.disconnect();
    else
      unsubscribe(h.channel, h.fn);
  }
}

const node = {
  /*
   * start([{ interval }]): the provider node (module: the program's name)
   * and its probes; a watcher thread reads their semaphores every
   * interval ms (default 50) and, when a tracer enables one, the event
   * loop subscribes to the channels it needs (and unsubscribes when the
   * tracer goes).  Idempotent.  Main thread only: channels are per thread.
   */
  start(options) {
    if (nodeState !== null)
      return node;
    const interval = options?.interval ?? 50;
    if (typeof interval !== 'number' || !(interval >= 1 && interval <= 60000))
      throw new RangeError(`node.start(): interval must be 1 to 60000 ms, not ${String(interval)}`);
    if (!require('node:worker_threads').isMainThread)
      throw new Error('node.start(): the node provider is started from the main thread');
    const provider = new Provider('node');
    const probes = {};
    try {
      for (const [name, types] of Object.entries(NODE_PROBES))
        probes[name] = provider.probe(name, ...types);
      provider.enable();
      const list = hooks(probes);
      for (const h of list)
        h.on = false;
      nodeState = { provider, probes: Object.freeze(probes), hooks: list, watcher: null };
      nodeState.watcher = watchThread(Object.values(probes), interval, watched);
    } catch (e) {
      nodeState = null;
      provider.destroy();
      throw e;
    }
    sync(); // a tracer waiting for the provider attached during enable()
    return node;
  },
  /* stop(): no more hooks, no watcher, no provider.  start() may follow. */
  stop() {
    if (nodeState === null)
      return;
    nodeState.watcher.stop();
    unhookAll();
    nodeState.provider.destroy();
    nodeState = null;
  },
  /* What is hooked now: channel names, and 'gc' for the observer. */
  get subscribed() {
    return nodeState === null ? [] : nodeState.hooks.filter((h) => h.on).map((h) => h.channel);
  },
  get provider() {
    return nodeState?.provider ?? null;
  },
  get probes() {
    return nodeState?.probes ?? null;
  },
};

module.exports = { Provider, Probe, watch, runtime, wrap, instrument, node };

// The consumer (consumer.js) loads libdtrace: only when first used.
for (const name of ['Consumer', 'CompileError'])
  Object.defineProperty(module.exports, name,
                        { enumerable: true, get: () => require('./consumer.js')[name] });
