"""shop.py: a Python program with a provider of its own (shop: order-placed,
order-shipped) and the interpreter's runtime provider (python_rt:
function-entry and -return), read by orders.d and hottest_python.d.

  PYTHONPATH=build/bindings/python python3 shop.py [ORDERS]

Order i (from 0) is of ITEMS[i % 3], i % 4 + 1 of them; every other
order (i even) ships.
"""
import sys

import dtrace

ITEMS = [("apple", 30), ("pear", 45), ("plum", 25)]  # price in cents

shop = dtrace.Provider("shop")
placed = shop.probe("order-placed", str, int, int)  # item, quantity, cents
shipped = shop.probe("order-shipped", str, int)  # item, quantity
shop.enable()  # under dtrace -Z -c: returns once the tracer has attached
dtrace.runtime.start()  # python_rt:::function-entry, hooked only while traced


def price(item, qty):
    return dict(ITEMS)[item] * qty


def place(item, qty):
    placed.fire(item, qty, price(item, qty))


def ship(item, qty):
    shipped.fire(item, qty)


def main(n):
    for i in range(n):
        item = ITEMS[i % 3][0]
        place(item, i % 4 + 1)
        if i % 2 == 0:
            ship(item, i % 4 + 1)


if __name__ == "__main__":
    # a tracer of python_rt sets the hook within the watcher's first look:
    # a script that counts every call (hottest_python.d) waits for it;
    # untraced, nothing is waited for
    if "function-entry" in dtrace.runtime.enabled:
        dtrace.runtime.wait_active(5, ("function-entry",))
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
