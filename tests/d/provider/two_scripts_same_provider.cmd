# exit 1
-h -s dup_a.d -s dup_b.d -o out.h
