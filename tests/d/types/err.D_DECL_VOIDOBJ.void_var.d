/* No variable may have type void. */
void nothing;
