/* Entry point of the static-probe test program (app_main may be in a .so). */
#ifdef __cplusplus
extern "C"
#endif
int app_main(int argc, char **argv);

int main(int argc, char **argv)
{
	return app_main(argc, argv);
}
