/* a kernel stack of more frames than bpf_get_stack() gives (perf_event_max_stack, 127) */
BEGIN
{
	stack(128);
}
