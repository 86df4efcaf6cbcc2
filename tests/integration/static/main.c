/*
 * Entry point of the static-probe test program (app_main may be in a .so).
 * It includes the generated header too: two units defining the same
 * semaphores must link, with LTO as without.
 */
#include "probes.h"

#ifdef __cplusplus
extern "C"
#endif
    int
    app_main(int argc, char **argv);

int main(int argc, char **argv)
{
	TST_MAIN_ENTRY(argc);
	return app_main(argc, argv);
}
