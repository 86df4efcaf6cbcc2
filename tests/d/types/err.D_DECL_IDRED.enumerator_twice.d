/* Enumerators share one name space: the same name may not appear in two enums. */
enum first { ALPHA, BETA };
enum second { GAMMA, ALPHA };
