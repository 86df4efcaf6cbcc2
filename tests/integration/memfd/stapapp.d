/* The provider of memfd_app's image: what libstapsdt would build at run time. */
provider stapapp {
	probe firstProbe(int, char *);
};
