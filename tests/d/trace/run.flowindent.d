/*
 * -F as dtrace(1) (illumos chew, dt_flowindent): the "CPU FUNCTION" header,
 * " -> func" at an entry probe (its name "entry" or ending in "-entry"),
 * indenting by 2 after it, " <- func" at a return probe after unindenting,
 * "| func:name" for others ("carpentry" is not an entry).  A second clause of
 * the entry probe does not indent again; of a return probe's two clauses only
 * the last unindents.
 * @setup: ./build_flow.sh
 * @args: -F -c ./flow
 */
flow$target:::fn-entry,
flow$target:::fn-return
{
	trace(arg0);
}

flow$target:::fn-entry
/arg0 == 0/
{
	trace("outer again");
}

flow$target:::fn-return
/arg0 == 0/
{
	trace("outer's last");
}

flow$target:::mark,
flow$target:::carpentry
{
}

flow$target:::entry
{
	exit(0);
}
