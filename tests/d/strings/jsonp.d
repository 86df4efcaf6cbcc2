/* jsonp's provider: a JSON text from the process, as Node.js's probes pass one. */
provider jsonp {
	probe msg(int i, char *json);
};
