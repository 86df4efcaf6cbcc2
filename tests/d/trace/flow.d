/* The flow program's provider: probe names dtrace(1)'s flowindent reads as entry and return. */
provider flow {
	probe fn__entry(int depth);
	probe fn__return(int depth);
	probe mark(int depth);
	probe carpentry();
	probe entry();
};
