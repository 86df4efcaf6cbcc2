# exit 1
-x bufsize=-1 -n BEGIN
