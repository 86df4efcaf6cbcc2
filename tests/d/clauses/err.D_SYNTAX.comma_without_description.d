/* a ',' in the description list that is not followed by a description */
BEGIN,
{
}
