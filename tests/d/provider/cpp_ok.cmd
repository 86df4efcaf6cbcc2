# exit 0
-C -I inc -D ARGTYPE=long -h -s cpp_defs.d -o out.h
