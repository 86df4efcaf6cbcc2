/* Comments do not nest: a second opening inside a comment is an error. */
/* outer /* inner */
BEGIN
{
}
