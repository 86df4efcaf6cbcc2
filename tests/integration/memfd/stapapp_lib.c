/* The image memfd_app loads from a memfd: one probe site and its semaphore. */
#include "stapapp.h"

int stapapp_enabled(void);
void stapapp_fire(int i, char *s);

int stapapp_enabled(void)
{
	return STAPAPP_FIRSTPROBE_ENABLED();
}

void stapapp_fire(int i, char *s)
{
	STAPAPP_FIRSTPROBE(i, s);
}
