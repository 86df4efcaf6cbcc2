/* errno: what the thread's last system call set, 0 after a success. */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 1" */
trig$target:::sys { printf("sys %d errno %d\n", arg0, errno); }
trig$target:::tick { printf("tick errno %d\n", errno); }
END { printf("END errno %d\n", errno); }
