/* Thread-local variables cannot be void either. */
self void nothing;
