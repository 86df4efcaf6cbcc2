/* An inline can take its value from an enumerator. */
enum level { LOW = 1, HIGH = 5 };
inline int TOP = HIGH;
inline enum level DEFAULT = LOW;

BEGIN
{
	ok = 1 / (TOP == 5);
	lv = DEFAULT;
}
