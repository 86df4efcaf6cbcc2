/* a probe description module field of 64 characters is too long */
prov:mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm::entry
{
	trace(1);
}
