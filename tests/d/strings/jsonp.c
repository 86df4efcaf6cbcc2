/*
 * jsonp: fires jsonp:::msg(i, text) for each JSON text of its table (an
 * HTTP request as a Node.js server's probe would describe it, then edge
 * cases), then jsonp:::msg(-1, NULL).  The texts are copied to a table
 * first, so its pages are resident when the probes read them.
 */
#include <stddef.h>
#include <string.h>

#include "jsonp.h"

int main(void)
{
	static const char *const msgs[] = {
		"{\"method\":\"GET\",\"url\":\"/index.html?q=1\",\"headers\":{\"host\":\"example.com\","
		"\"accept\":[\"text/html\",\"*/*\"]},\"remote\":{\"port\":51234,\"ip\":\"::1\"}}",
		"{\"method\": \"POST\", \"url\": \"/api\", \"headers\": {\"host\": \"h\", "
		"\"accept\": []}, \"remote\": {\"port\": 8080}}",
		"[{\"method\": \"PUT\"}]",
		"{\"method\": \"GET\", \"url\": \"/\\\"quoted\\\"\"",
		"",
	};
	static char text[5][256];
	int n = (int)(sizeof(msgs) / sizeof(msgs[0]));

	for (int i = 0; i < n; i++)
		strcpy(text[i], msgs[i]);
	for (int i = 0; i < n; i++)
		JSONP_MSG(i, text[i]);
	JSONP_MSG(-1, NULL);
	return 0;
}
