/* system() after speculate() */
#pragma D option destructive
BEGIN
{
	this->spec = speculation();
	speculate(this->spec);
	system("date");
}
