provider p {
	probe a_probe_name_that_is_far_too_long_to_be_a_dtrace_probe_name_really();
};
