#!/usr/bin/env node
'use strict';
/*
 * What the node provider (dtrace.node.start()) costs an HTTP program while
 * no tracer is attached: N requests over one keep-alive connection to a
 * server in the same process, with the provider started and without,
 * in alternating rounds (best of 5 each).  Untraced, the provider has no
 * diagnostics_channel subscriber and no gc observer, so the two should
 * differ by noise only; the watcher thread reads 8 semaphores every 50 ms.
 *
 *   cmake --build build --target node_usdt && bench/node_http_bench.js [N] [build]
 *
 * Prints figures; passes or fails nothing.
 */
const http = require('node:http');
const path = require('node:path');

const n = Number(process.argv[2] ?? 5000);
const build = process.argv[3] ?? path.join(__dirname, '..', 'build');
const dtrace = require(path.resolve(build, 'bindings', 'node'));

async function round(port, agent) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    await new Promise((resolve, reject) => {
      http.get({ port, path: '/x', agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      }).on('error', reject);
    });
  }
  return Number(process.hrtime.bigint() - t0) / n / 1000; // us a request
}

(async () => {
  const server = http.createServer((req, res) => res.end('ok'));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  await round(port, agent); // warm-up
  const best = { off: Infinity, on: Infinity };
  for (let k = 0; k < 5; k++) {
    best.off = Math.min(best.off, await round(port, agent));
    dtrace.node.start();
    best.on = Math.min(best.on, await round(port, agent));
    if (dtrace.node.subscribed.length !== 0)
      throw new Error('a tracer is attached: the figures would not be untraced');
    dtrace.node.stop();
  }
  console.log(`Node ${process.version}, ${n} requests a round over one keep-alive connection, ` +
              'best of 5, no tracer attached');
  console.log(`  without the node provider   ${best.off.toFixed(1)} us/request`);
  console.log(`  with node.start()           ${best.on.toFixed(1)} us/request  ` +
              `(${(best.on / best.off).toFixed(3)}x)`);
  agent.destroy();
  server.close();
})();
