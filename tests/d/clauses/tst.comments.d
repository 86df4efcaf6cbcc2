/* comments everywhere: before, inside and between clauses, in descriptions and predicates */
/* a block comment
   over several lines */
BEGIN /* after the description */ , /* after the comma */ END /* before the body */
/* between description and body */
{ /* after the brace */
	trace(1); /* after a statement */
	/* between statements */
	trace(2 /* inside an expression */ + 3);
} /* after the clause */

tick-1s /* before the predicate */ /1 /* inside the predicate */ / /* after it */ {
}

/**/ END /***/ { /* * / */ }
/* the last line is a comment */
