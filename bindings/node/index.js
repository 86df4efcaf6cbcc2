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
 * The addon (usdt.node, built by cmake) holds Provider and Probe; this file
 * adds the node_rt runtime provider, wrap() and instrument().  See docs/node.md.
 */
const fs = require('node:fs');
const Module = require('node:module');
const { fileURLToPath } = require('node:url');

const { Provider, Probe, watch } = load();

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

module.exports = { Provider, Probe, watch, runtime, wrap, instrument };
