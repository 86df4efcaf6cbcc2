/*
 * rt.c -- a runtime provider through an installed libusdt: instrt:::ping
 * (int, string), fired three times after enable, then destroyed.
 */
#include <stdint.h>
#include <stdio.h>

#include <usdt.h>

int main(void)
{
	static const usdt_argtype_t types[] = { USDT_ARG_INT32, USDT_ARG_STRING };
	static const char *const words[] = { "one", "two", "three" };
	usdt_provider_t *prov;
	usdt_probe_t *ping;
	char word[16];
	int err, rc;

	if ((prov = usdt_provider_create("instrt", "rtmod", NULL, &err)) == NULL) {
		fprintf(stderr, "rt: usdt_provider_create: %s\n", usdt_strerror(err));
		return 1;
	}
	/* a bad name is an error with a message, not a crash */
	if (usdt_probe_create(prov, "main", "bad name", 0, NULL) != NULL) {
		fprintf(stderr, "rt: a probe named \"bad name\" was accepted\n");
		return 1;
	}
	fprintf(stderr, "rt: bad name: %d %s\n", usdt_provider_errno(prov),
		usdt_provider_errmsg(prov));
	if ((ping = usdt_probe_create(prov, "main", "ping", 2, types)) == NULL ||
	    (rc = usdt_provider_enable(prov)) != 0) {
		fprintf(stderr, "rt: %s\n", usdt_provider_errmsg(prov));
		return 1;
	}
	for (int i = 0; i < 3; i++) {
		/* a copy on the stack: a page of .rodata not touched yet cannot be read */
		snprintf(word, sizeof(word), "%s", words[i]);
		usdt_probe_fire2(ping, (uint64_t)i, (uint64_t)(uintptr_t)word);
	}
	usdt_provider_destroy(prov);
	return 0;
}
