/* a_b:::c and a:::b_c would both be A_B_C, with the same semaphore */
provider a_b {
	probe c(int);
};
provider a {
	probe b_c(int);
};
