#!/usr/sbin/dtrace -Zqs
/*
 * The shop provider of shop.py, shop.lua or shop.js (the same probes in
 * each language): orders and revenue by item, and what shipped:
 *   dtrace -Zqs orders.d -c 'python3 shop.py'
 * -Z: the provider is made when the program runs, after dtrace starts.
 */
shop$target:::order-placed
{
	@orders[copyinstr(arg0)] = count();
	@qty[copyinstr(arg0)] = sum(arg1);
	@cents[copyinstr(arg0)] = sum(arg2);
}

shop$target:::order-shipped
{
	@shipped[copyinstr(arg0)] = sum(arg1);
}

END
{
	printf("%-8s %6s %6s %8s %8s\n", "ITEM", "ORDERS", "QTY", "CENTS", "SHIPPED");
	printa("%-8s %@6d %@6d %@8d %@8d\n", @orders, @qty, @cents, @shipped);
}
