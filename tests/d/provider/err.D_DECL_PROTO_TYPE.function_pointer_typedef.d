/* nor through a typedef */
typedef void (*callback_t)(void *);

provider p {
	probe bad(callback_t);
};
