/* The aggsort options: by key, reversed, by another key first. */
/* @setup: ./build.sh */
/* @args: -q -x aggsortkey -x aggsortrev -x aggsortkeypos=1 -c "./trigger 6" */
trig$target:::tick
{
	@[arg0 % 3, copyinstr(arg1)] = sum(arg0);
}
