/* String literals accept the C escape sequences. */
BEGIN
{
	s = "tab\there\nnewline \"quoted\" back\\slash \x41\101 bell\a";
	t = "";
}
