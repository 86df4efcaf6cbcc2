/* An enumerator's value must be an integer constant expression. */
enum when {
	NOW = timestamp
};
