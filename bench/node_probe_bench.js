#!/usr/bin/env node
'use strict';
/*
 * The cost of a disabled probe in Node, against an empty function call.
 *
 *   cmake --build build --target node_usdt && bench/node_probe_bench.js [N] [build]
 *
 * Each row times N (default 1000000) iterations of one statement, best of 5
 * after a warm-up run (so that TurboFan has optimised the loop), and shows
 * nanoseconds per call and the ratio to its yardstick.  No tracer is
 * attached: every probe is disabled, the state probes live in almost all the
 * time.  Prints figures; passes or fails nothing.
 *
 * Fairness: V8 inlines a small function into a call site that sees one or a
 * few targets, and an inlined empty function costs nothing.  A probe's
 * methods are native (Node-API) functions, which are never inlined.  So the
 * yardstick calls eight empty functions of distinct source through one call
 * site (fns[i & 7](...)), which V8 leaves megamorphic and never inlines: a
 * real call, as fire() is.  Rows marked "8 probes" use the same shape.
 */
const path = require('node:path');

const n = Number(process.argv[2] ?? 1e6);
const build = process.argv[3] ?? path.join(__dirname, '..', 'build');
const dtrace = require(path.resolve(build, 'bindings', 'node'));

const p = new dtrace.Provider('nodebench');
const probe = p.probe('query-start', 'string', 'int');
const jsonProbe = p.probe('event', 'json');
const probes = Array.from({ length: 8 }, (_, k) => p.probe(`q${k}`, 'string', 'int'));
p.enable();

// eight functions of distinct source: one call site calling them all is megamorphic
const empties = Array.from({ length: 8 }, (_, k) => new Function('a', 'b', `/* ${k} */`));
const plains = Array.from({ length: 8 }, (_, k) => new Function(`/* ${k} */`));
const wrapped = plains.map((f, k) => dtrace.wrap(f, `plain${k}`, { file: 'bench', line: k }));
const obj = { k: 1 };
let sink = 0;

/* Each case is its own function, so that each loop is optimised on its own. */
const cases = [
  ['empty(...) x8 (yardstick)', null, () => {
    for (let i = 0; i < n; i++) empties[i & 7]('select', 3);
  }],
  ['probe.fire("select", 3)', 0, () => {
    for (let i = 0; i < n; i++) probe.fire('select', 3);
  }],
  ['probes[i & 7].fire(...) 8 probes', 0, () => {
    for (let i = 0; i < n; i++) probes[i & 7].fire('select', 3);
  }],
  ['probe.enabled', 0, () => {
    for (let i = 0; i < n; i++) if (probe.enabled) sink++;
  }],
  ['probes[i & 7].enabled 8 probes', 0, () => {
    for (let i = 0; i < n; i++) if (probes[i & 7].enabled) sink++;
  }],
  ['probe.isEnabled()', 0, () => {
    for (let i = 0; i < n; i++) if (probe.isEnabled()) sink++;
  }],
  ['probe.fireLazy(() => [...])', 0, () => {
    for (let i = 0; i < n; i++) probe.fireLazy(() => ['select', 3]);
  }],
  ['jsonProbe.fire(obj)', 0, () => {
    for (let i = 0; i < n; i++) jsonProbe.fire(obj);
  }],
  ['plain() x8 (yardstick)', null, () => {
    for (let i = 0; i < n; i++) plains[i & 7]();
  }],
  ['dtrace.wrap(plain)() x8', 8, () => {
    for (let i = 0; i < n; i++) wrapped[i & 7]();
  }],
];

function best(fn) {
  fn(); // warm-up: interpreter, then the optimised loop
  let min = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    fn();
    min = Math.min(min, Number(process.hrtime.bigint() - t0) / n);
  }
  return min;
}

console.log(`Node ${process.version} (V8 ${process.versions.v8}), ${n} calls each, best of 5, ` +
      'no tracer attached');
console.log(`  ${''.padEnd(34)} ${'ns/call'.padStart(10)} ${'ratio'.padStart(10)}`);
const ns = [];
for (const [label, against, fn] of cases) {
  ns.push(best(fn));
  const ratio = against === null ? '' : (ns[ns.length - 1] / ns[against]).toFixed(2);
  const t = ns[ns.length - 1].toFixed(1);
  console.log(`  ${label.padEnd(34)} ${t.padStart(10)} ${ratio.padStart(10)}`);
}
if (sink !== 0 || [probe, jsonProbe, ...probes].some((q) => q.enabled))
  console.log('warning: a tracer enabled a probe during the run: these are not disabled figures');
p.destroy();
