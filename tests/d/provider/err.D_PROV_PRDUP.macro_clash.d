/* both would be the macro P_QUERY_START */
provider p {
	probe query__start();
	probe query_start();
};
