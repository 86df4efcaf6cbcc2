/*
 * json() of texts a process passes to a USDT probe (copyinstr(), as a
 * Node.js script reads its probes' JSON): fields, nested objects, array
 * elements, an empty array, a top-level array (whose index a name reads
 * as 0: "method" is its first element whole); a text cut before its end
 * answers what comes before the cut and NULL after it, the empty text
 * NULL always, which a predicate compares.
 */
/* @setup: ./build_jsonp.sh */
/* @args: -q -c ./jsonp */
provider jsonp {
	probe msg(int i, char *json);
};

jsonp$target:::msg
/args[0] >= 0/
{
	this->j = copyinstr((uintptr_t)args[1]);
	this->m = json(this->j, "method");
	this->p = json(this->j, "remote.port");
	printf("%d method=%s url=%s host=%s\n", args[0],
	    this->m != NULL ? this->m : "-", json(this->j, "url") != NULL ? json(this->j, "url") : "-",
	    json(this->j, "headers.host") != NULL ? json(this->j, "headers.host") : "-");
	printf("%d accept[1]=%s accept=%s port=%s first=%s\n", args[0],
	    json(this->j, "headers.accept[1]") != NULL ? json(this->j, "headers.accept[1]") : "-",
	    json(this->j, "headers.accept") != NULL ? json(this->j, "headers.accept") : "-",
	    this->p != NULL ? this->p : "-",
	    json(this->j, "[0].method") != NULL ? json(this->j, "[0].method") : "-");
}

jsonp$target:::msg
/args[0] >= 0 && json(copyinstr((uintptr_t)args[1]), "remote.port") != NULL/
{
	@ports[json(copyinstr((uintptr_t)args[1]), "remote.port")] = count();
}
