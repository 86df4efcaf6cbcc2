'use strict';
/*
 * load(name): the addon name.node, next to this file in the build tree, or
 * in ./build/bindings/node after the package's install script built it.
 */
function load(name) {
  let missing;
  for (const p of ['./' + name, './build/bindings/node/' + name]) {
    try {
      return require(p);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND')
        throw e;
      missing ??= e;
    }
  }
  throw new Error(`dtrace-usdt: ${name} is not built: build the repository with cmake ` +
                  'and require <build>/bindings/node (docs/node.md)', { cause: missing });
}

module.exports = { load };
