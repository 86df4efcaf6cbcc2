# exit 1
-C -h -s cpp_badline.d -o out.h
