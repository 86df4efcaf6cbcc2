/* short and long do not apply to char. */
short char c;
