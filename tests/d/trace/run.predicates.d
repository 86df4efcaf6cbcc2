/* Predicates: integer, string and compound; a clause whose predicate fails records nothing. */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 7" */
trig$target:::tick /arg0 % 2 == 0/ { printf("even %d\n", arg0); }
trig$target:::tick /copyinstr(arg1) == "beta"/ { printf("beta at %d\n", arg0); }
trig$target:::tick /arg0 > 2 && arg0 < 5 || arg0 == 6/ { printf("range %d\n", arg0); }
trig$target:::tick /!(arg0 >= 1)/ { printf("not %d\n", arg0); }
trig$target:::tick /copyinstr(arg1) > "beta" ^^ arg0 == 0/ { printf("xor %d %s\n", arg0, copyinstr(arg1)); }
trig$target:::neg /arg0 < 0/ { printf("neg %d %d %d\n", arg0, arg1, arg2); }
