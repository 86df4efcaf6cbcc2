provider p {
	probe a(struct dt_nokernel_request);
};
