/*
 * json(text, element) as illumos's dtrace_json() answers (expected values
 * by hand from its state machine): a string's value without its quotes
 * but with its escapes as written, a number, true, false or null as its
 * text, an object or an array whole; the element is names and indices
 * ("a.b[2].c"; a top-level array's index first, "[1]" or "1").  NULL when
 * the element is absent or the text malformed on the way: here compared
 * and assigned, which is no fault (run.json_null.d uses one).
 */
/* @args: -q */

BEGIN
{
	j = "{\"name\": \"dtrace\", \"v\": [1, 2.5e3, -7], \"ok\": true, \"no\": null, \"o\": {\"s\": \"a\\\"b\\\\c\\u00e9\", \"deep\": {\"x\": [[\"y\", {\"z\": false}]]}}}";
	printf("[%s]\n", json(j, "name"));
	printf("[%s] [%s] [%s]\n", json(j, "v[0]"), json(j, "v[1]"), json(j, "v[2]"));
	printf("[%s] [%s]\n", json(j, "ok"), json(j, "no"));
	printf("[%s]\n", json(j, "o.s"));
	printf("[%s]\n", json(j, "o.deep.x[0][1].z"));
	printf("[%s]\n", json(j, "o.deep.x[0]"));
	printf("[%s]\n", json(j, "o.deep"));
	printf("[%s]\n", json(j, "v"));
	printf("%d %d %d %d\n", json(j, "v[3]") == NULL, json(j, "nope") == NULL,
	    json(j, "name.first") == NULL, json(j, "o.deep.x[0][1].z") == NULL);
	printf("[%s] [%s] [%s]\n", json("[10, 20, 30]", "[2]"), json("[10, 20, 30]", "0"),
	    json(" \t\r\n{ \"k\" \n:\t\"\" }", "k"));
	printf("[%s]\n", json("{\"n\": 1.2.3}", "n"));
	printf("%d %d %d %d %d\n", json("{\"n\": 0x1f}", "n") == NULL,
	    json("{\"x\": True}", "x") == NULL, json("{a: 1}", "a") == NULL,
	    json("", "") == NULL, json("{\"a\": [1}], \"b\": 2}", "b") == NULL);
	this->key = "v";
	this->idx = strjoin(this->key, "[1]");
	x = json(j, this->idx);
	printf("[%s] %d\n", x, strlen(json(j, "o.s")));
	y = json(j, "absent");
	printf("%d\n", y == NULL);
	printf("[%s] [%s]\n", json("{\"a.b\": 1, \"a\": {\"b\": 2}}", "a.b"),
	    json("{\"a]\": 1, \"a\": 3}", "a]"));
	/* 100 arrays deep: skipped, collected, entered */
	d = "{\"d\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],\"e\":7}";
	printf("[%s] %d %d %d\n", json(d, "e"), strlen(json(d, "d")),
	    strlen(json(d, "d[0][0][0]")), json(d, "d[0][1]") == NULL);
	exit(0);
}
