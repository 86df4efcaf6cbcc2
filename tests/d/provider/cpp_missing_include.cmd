# exit 1
-C -h -s cpp_include.d -o out.h
