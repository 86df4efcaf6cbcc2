/* addrs's provider: each address as IPv4 (4 bytes) and IPv6 (16 bytes). */
provider addrs {
	probe ip(int i, void *a4, void *a6);
};
