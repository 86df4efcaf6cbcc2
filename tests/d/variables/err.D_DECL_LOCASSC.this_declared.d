/* Nor can they be declared as associative arrays. */
this int counts[string];
