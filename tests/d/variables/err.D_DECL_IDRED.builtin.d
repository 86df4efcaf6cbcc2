/* Built-in variables cannot be redeclared. */
uint64_t timestamp;
