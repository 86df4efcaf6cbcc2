/* clause-local variables (this->) of two types, one computed from the other */
syscall::write:entry
{
	this->len = (int)arg2;
	this->big = this->len > 4096;
	trace(this->len * 2 + this->big);
}
