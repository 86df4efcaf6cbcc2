/* signed and unsigned only qualify integer types. */
unsigned string s;
