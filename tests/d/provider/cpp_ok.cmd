# exit 0
# creates: out.h
-C -I inc -D ARGTYPE=long -h -s cpp_defs.d -o out.h
