/* The predefined fixed-width typedefs have the widths their names promise. */
BEGIN
{
	ok = 1 / (sizeof (int8_t) == 1 && sizeof (uint8_t) == 1);
	ok = 1 / (sizeof (int16_t) == 2 && sizeof (uint16_t) == 2);
	ok = 1 / (sizeof (int32_t) == 4 && sizeof (uint32_t) == 4);
	ok = 1 / (sizeof (int64_t) == 8 && sizeof (uint64_t) == 8);
	ok = 1 / (sizeof (intptr_t) == 8 && sizeof (uintptr_t) == 8);
	ok = 1 / (sizeof (size_t) == 8 && sizeof (ssize_t) == 8);
	ok = 1 / (sizeof (pid_t) == 4 && sizeof (uid_t) == 4);
}
