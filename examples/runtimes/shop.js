// shop.js: the shop program of shop.py and shop.lua in Node: a provider of
// its own (shop: order-placed, order-shipped) and the binding's runtime
// provider (node_rt: function-entry and -return of the functions
// dtrace.instrument() wraps), read by orders.d and hottest_node.d.
//
//   DTRACE_NODE=build/bindings/node node shop.js [ORDERS]
//
// Order i (from 0) is of ITEMS[i % 3], i % 4 + 1 of them; every other
// order (i even) ships.
'use strict';
const dtrace = require(require('path').resolve(process.env.DTRACE_NODE || 'build/bindings/node'));

const ITEMS = [['apple', 30], ['pear', 45], ['plum', 25]]; // price in cents
const PRICE = new Map(ITEMS);

const shop = new dtrace.Provider('shop');
const placed = shop.probe('order-placed', 'string', 'int', 'int'); // item, quantity, cents
const shipped = shop.probe('order-shipped', 'string', 'int'); // item, quantity
shop.enable(); // under dtrace -Z -c: returns once the tracer has attached

const fns = {
  price(item, qty) { return PRICE.get(item) * qty; },
  place(item, qty) { placed.fire(item, qty, fns.price(item, qty)); },
  ship(item, qty) { shipped.fire(item, qty); },
  main(n) {
    for (let i = 0; i < n; i++) {
      const item = ITEMS[i % 3][0];
      fns.place(item, i % 4 + 1);
      if (i % 2 === 0) fns.ship(item, i % 4 + 1);
    }
  },
};
// each function of fns fires node_rt's probes, which are made and enabled
// here (under dtrace -Z -c, attached before this returns)
dtrace.instrument(fns);
fns.main(Number(process.argv[2]) || 30);
