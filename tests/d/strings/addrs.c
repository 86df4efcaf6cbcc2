/*
 * addrs: fires addrs:::ip(i, a4, a6) for each address of its table, a4
 * pointing to 4 bytes (network order), a6 to 16, then addrs:::ip(-1, 0,
 * 0).  The tables are written first, so their pages are resident when the
 * probes read them.
 */
#include <arpa/inet.h>
#include <string.h>

#include "addrs.h"

int main(void)
{
	static const char *const v4[] = { "0.0.0.0", "1.2.3.4", "127.0.0.1", "255.255.255.255",
					  "10.200.0.9" };
	static const char *const v6[] = {
		"::",
		"::1",
		"1::",
		"fe80::214:4fff:fe0b:76c8",
		"1:0:2:3:4:5:6:7",
		"1:0:0:2:0:0:0:3",
		"::ffff:1.2.3.4",
		"::1.2.3.4",
		"2001:db8::ff00:42:8329",
		"1:2:3:4:5:6:7:8",
		"0:0:1::",
		"1:2:3:4:5:6:7:0",
	};
	static unsigned char a4[5][4], a6[12][16];
	int n = (int)(sizeof(v6) / sizeof(v6[0]));

	for (int i = 0; i < 5; i++)
		inet_pton(AF_INET, v4[i], a4[i]);
	for (int i = 0; i < n; i++)
		inet_pton(AF_INET6, v6[i], a6[i]);
	for (int i = 0; i < n; i++)
		ADDRS_IP(i, a4[i % 5], a6[i]);
	ADDRS_IP(-1, NULL, NULL);
	return 0;
}
