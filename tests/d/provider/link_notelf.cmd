# exit 1
-G -s link.d -o out.o notelf.o
