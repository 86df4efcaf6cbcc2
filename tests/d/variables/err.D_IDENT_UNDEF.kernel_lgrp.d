/* lgrp is the latency group of the CPU: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(lgrp);
}
