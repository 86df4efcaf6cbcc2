/* self-> and this-> have names of their own: the kernel-only built-ins do not reserve them. */
BEGIN
{
	self->chip = 1;
	this->fds = 2;
	self->lgrp[1] = 3;
}
