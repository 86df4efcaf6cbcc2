/* #pragma error stops the compilation with its message */
BEGIN
{
}
#pragma error this program is not finished
